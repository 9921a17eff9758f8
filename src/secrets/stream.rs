//! A text of any size, scanned a bounded window at a time: [`CHUNK`] bytes plus the last
//! [`OVERLAP`] bytes of the window before, so a secret that straddles two windows is found
//! whole, and reported once (by the window where it starts, unless it starts in the part the
//! next window sees again).

use std::io::Read;

use super::{Detectors, Hit};
use crate::error::Result;

pub const CHUNK: usize = 1 << 20;
/// Longer than any secret the rules look for (a PEM private key included).
pub const OVERLAP: usize = 16 << 10;
/// Characters of context each side of a secret in an excerpt.
const CONTEXT: usize = 24;

/// A hit with its place in the whole text.
#[derive(Debug, Clone)]
pub struct StreamHit {
    pub hit: Hit,
    /// Byte offset in the whole text.
    pub offset: u64,
    /// Line, from 1.
    pub line: u64,
    pub excerpt: String,
}

pub struct TextScanner<'d> {
    detectors: &'d Detectors,
    buf: Vec<u8>,
    /// Offset of `buf[0]` in the whole text.
    base: u64,
    /// Newlines before `buf[0]`.
    lines: u64,
    /// Hits starting before this offset were reported already.
    reported_to: u64,
}

/// The text around `hits[at]`, every secret in it masked (this one and any other found).
fn excerpt(buf: &[u8], hits: &[Hit], at: usize) -> String {
    let h = &hits[at];
    // Control characters shown as escapes, so an excerpt stays on one line.
    let clean = |bytes: &[u8]| {
        let mut out = String::new();
        for c in String::from_utf8_lossy(bytes).chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if c.is_control() => out.extend(c.escape_unicode()),
                c => out.push(c),
            }
        }
        out
    };
    let mut from = h.start.saturating_sub(CONTEXT * 4);
    let mut to = (h.end + CONTEXT * 4).min(buf.len());
    // A secret cut by the window's edge is taken whole, to be masked.
    for o in hits {
        if o.start < from && o.end > from {
            from = o.start;
        }
        if o.start < to && o.end > to {
            to = o.end;
        }
    }
    let mut parts: Vec<(bool, String)> = Vec::new();
    let mut cursor = from;
    let mut inside: Vec<&Hit> = hits
        .iter()
        .filter(|o| o.start >= from && o.end <= to)
        .collect();
    inside.sort_by_key(|o| (o.start, std::cmp::Reverse(o.end)));
    for o in inside {
        if o.start < cursor {
            continue;
        }
        parts.push((false, clean(&buf[cursor..o.start])));
        parts.push((true, o.masked.clone()));
        cursor = o.end;
    }
    parts.push((false, clean(&buf[cursor..to])));
    // Keep CONTEXT characters of plain text each side of this hit's mask.
    let mine = parts
        .iter()
        .position(|(masked, text)| *masked && *text == h.masked)
        .unwrap_or(0);
    let mut before = String::new();
    let mut budget = CONTEXT;
    for (masked, text) in parts[..mine].iter().rev() {
        if budget == 0 {
            break;
        }
        let piece: String = if *masked {
            text.clone()
        } else {
            let n = text.chars().count();
            text.chars().skip(n.saturating_sub(budget)).collect()
        };
        budget = budget.saturating_sub(piece.chars().count());
        before.insert_str(0, &piece);
    }
    let mut after = String::new();
    let mut budget = CONTEXT;
    for (masked, text) in parts.iter().skip(mine + 1) {
        if budget == 0 {
            break;
        }
        let piece: String = if *masked {
            text.clone()
        } else {
            text.chars().take(budget).collect()
        };
        budget = budget.saturating_sub(piece.chars().count());
        after.push_str(&piece);
    }
    format!("{before}{}{after}", h.masked)
}

impl<'d> TextScanner<'d> {
    pub fn new(detectors: &'d Detectors) -> Self {
        TextScanner {
            detectors,
            buf: Vec::new(),
            base: 0,
            lines: 0,
            reported_to: 0,
        }
    }

    fn scan(&mut self, last: bool, emit: &mut dyn FnMut(StreamHit)) {
        let mut hits = Vec::new();
        self.detectors.find(&self.buf, &mut hits);
        // What the next window sees again is reported there, with the text after it.
        let keep_from = if last {
            self.buf.len()
        } else {
            self.buf.len().saturating_sub(OVERLAP)
        };
        hits.sort_by_key(|h| h.start);
        let mut newline_at = 0usize;
        let mut newlines = 0u64;
        let texts: Vec<String> = (0..hits.len())
            .map(|i| excerpt(&self.buf, &hits, i))
            .collect();
        for (h, text) in hits.into_iter().zip(texts) {
            let abs = self.base + h.start as u64;
            if abs < self.reported_to || h.start >= keep_from {
                continue;
            }
            newlines += self.buf[newline_at..h.start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64;
            newline_at = h.start;
            emit(StreamHit {
                offset: abs,
                line: self.lines + newlines + 1,
                excerpt: text,
                hit: h,
            });
        }
        self.reported_to = self.base + keep_from as u64;
        if !last {
            let drop = keep_from;
            self.lines += self.buf[..drop].iter().filter(|&&b| b == b'\n').count() as u64;
            self.buf.drain(..drop);
            self.base += drop as u64;
        }
    }

    /// More of the text.
    pub fn feed(&mut self, mut data: &[u8], emit: &mut dyn FnMut(StreamHit)) {
        while !data.is_empty() {
            let room = (CHUNK + OVERLAP).saturating_sub(self.buf.len()).max(1);
            let take = room.min(data.len());
            self.buf.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.buf.len() >= CHUNK + OVERLAP {
                self.scan(false, emit);
            }
        }
    }

    /// The end of the text: what is left is scanned.
    pub fn finish(mut self, emit: &mut dyn FnMut(StreamHit)) {
        self.scan(true, emit);
    }

    /// A whole reader, streamed.
    pub fn read_all(
        mut self,
        reader: &mut dyn Read,
        emit: &mut dyn FnMut(StreamHit),
    ) -> std::io::Result<()> {
        let mut block = vec![0u8; 64 << 10];
        loop {
            let n = match reader.read(&mut block) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            self.feed(&block[..n], emit);
        }
        self.finish(emit);
        Ok(())
    }
}

/// Scan one value whole (a row's text).
pub fn scan_value(detectors: &Detectors, text: &[u8], emit: &mut dyn FnMut(StreamHit)) {
    let mut s = TextScanner::new(detectors);
    s.feed(text, emit);
    s.finish(emit);
}

/// Whether bytes start a zstd frame.
pub fn is_zstd(data: &[u8]) -> bool {
    data.starts_with(&[0x28, 0xb5, 0x2f, 0xfd])
}

/// Scan bytes that may be one or more zstd frames (decoded as a stream) or plain text.
pub fn scan_maybe_zstd(
    detectors: &Detectors,
    data: &[u8],
    emit: &mut dyn FnMut(StreamHit),
) -> Result<bool> {
    if is_zstd(data) {
        let mut decoder = zstd::stream::read::Decoder::with_buffer(data)
            .map_err(|e| crate::error::Error::Internal(format!("zstd: {e}")))?;
        match TextScanner::new(detectors).read_all(&mut decoder, emit) {
            Ok(()) => Ok(true),
            // A damaged frame: what decoded was scanned; the raw bytes too.
            Err(_) => {
                scan_value(detectors, data, emit);
                Ok(false)
            }
        }
    } else {
        scan_value(detectors, data, emit);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::host_values::HostValue;

    #[test]
    fn a_secret_across_two_windows_is_found_once_with_its_line() {
        let d = Detectors::new(
            None,
            vec![HostValue {
                source: "t".into(),
                value: "needle-0123456789".into(),
            }],
        )
        .unwrap();
        let mut text = Vec::new();
        text.extend(std::iter::repeat_n(b'a', CHUNK + OVERLAP - 5));
        text.extend_from_slice(b"\nneedle-0123456789\nx needle-0123456789");
        let mut hits = Vec::new();
        let mut s = TextScanner::new(&d);
        for piece in text.chunks(4096) {
            s.feed(piece, &mut |h| hits.push(h));
        }
        s.finish(&mut |h| hits.push(h));
        assert_eq!(hits.len(), 2, "{hits:?}");
        assert_eq!(hits[0].line, 2);
        assert_eq!(hits[1].line, 3);
        assert!(!hits[0].excerpt.contains("needle-0123456789"));
    }
}
