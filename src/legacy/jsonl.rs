use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result, ResultExt};

/// Longest line this tool reads from a transcript or an archive: 64 MiB. A longer line is
/// `BAD_INPUT` naming the file and the line; it is never held whole (docs/openclaw/HOSTILE.md
/// §7).
pub const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// Most bytes a compressed archive (a `.zst` file or an archive row) may decode to: 1 GiB,
/// twice the longest text OpenClaw itself can hold in one string when it reads an archive.
/// Past it the archive is `BAD_INPUT`, and decoding stops there.
pub const MAX_ARCHIVE_BYTES: u64 = 1024 * 1024 * 1024;

/// Most bytes a cold archive may decode to: OpenClaw's own `MAX_COLD_ARCHIVE_BYTES` (64 MiB).
pub const MAX_COLD_ARCHIVE_BYTES: u64 = 64 * 1024 * 1024;

/// The cap on an archive of `default` bytes, or a smaller one the tests set.
pub fn archive_cap(default: u64) -> u64 {
    crate::test_hooks::max_archive_bytes().map_or(default, |n| n.min(default))
}

/// Streams a JSONL transcript line by line, in bounded memory, checking each line is JSON.
/// No line longer than [`MAX_LINE_BYTES`] is read, and with [`JsonlReader::decoded_cap`] no
/// more than that many bytes in all.
pub struct JsonlReader<'a> {
    path: PathBuf,
    reader: Box<dyn BufRead + 'a>,
    line_no: u64,
    buf: Vec<u8>,
    /// Bytes read so far, and the most this reader may read (decoded archives).
    read: u64,
    cap: Option<u64>,
}

impl<'a> JsonlReader<'a> {
    pub fn open(path: &Path) -> Result<Self> {
        // A FIFO or a symbolic link in place of a transcript is refused, not waited for.
        let file = crate::fsutil::open_regular(path).map_err(|e| match e {
            Error::Io { ref source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                Error::not_found(
                    format!("transcript {} does not exist", path.display()),
                    None,
                )
            }
            e => e,
        })?;
        Ok(Self::from_reader(
            path,
            Box::new(BufReader::with_capacity(256 * 1024, file)),
        ))
    }

    /// Lines from any reader (a decompressing one, say); `path` names it in errors.
    pub fn from_reader(path: &Path, reader: Box<dyn BufRead + 'a>) -> Self {
        JsonlReader {
            path: path.to_path_buf(),
            reader,
            line_no: 0,
            buf: Vec::new(),
            read: 0,
            cap: None,
        }
    }

    /// Reads no more than `cap` bytes in all: past them the archive is `BAD_INPUT`.
    pub fn decoded_cap(mut self, cap: u64) -> Self {
        self.cap = Some(cap);
        self
    }

    fn count(&mut self, n: usize) -> Result<()> {
        self.read += n as u64;
        match self.cap {
            Some(cap) if self.read > cap => Err(Error::bad_input(
                format!(
                    "{} decodes to more than {} (the most this tool decodes of one archive); \
                     it was not read further",
                    self.path.display(),
                    crate::units::format_bytes(cap)
                ),
                Some("the archive is left as it is".to_string()),
            )),
            _ => Ok(()),
        }
    }

    /// The next line into `buf` (with its `\n`, if any); `false` at the end. Runs of empty
    /// lines are skipped here, whole buffers at a time.
    fn read_line(&mut self) -> Result<bool> {
        self.buf.clear();
        loop {
            let avail = self.reader.fill_buf().at(&self.path)?;
            if avail.is_empty() {
                return Ok(!self.buf.is_empty());
            }
            if self.buf.is_empty() && avail[0] == b'\n' {
                let n = avail.iter().take_while(|b| **b == b'\n').count();
                self.reader.consume(n);
                self.line_no += n as u64;
                self.count(n)?;
                continue;
            }
            let (take, done) = match avail.iter().position(|b| *b == b'\n') {
                Some(i) => (i + 1, true),
                None => (avail.len(), false),
            };
            let content = self.buf.len() + take - usize::from(done);
            if content > MAX_LINE_BYTES {
                let line_no = self.line_no + 1;
                return Err(Error::bad_input(
                    format!(
                        "{} line {line_no} is longer than {} (the most this tool reads in one \
                         line); it was not read further",
                        self.path.display(),
                        crate::units::format_bytes(MAX_LINE_BYTES as u64)
                    ),
                    Some("the file is left as it is".to_string()),
                ));
            }
            self.buf.extend_from_slice(&avail[..take]);
            self.reader.consume(take);
            self.count(take)?;
            if done {
                return Ok(true);
            }
        }
    }

    /// The next non-empty line (without its line ending), or `None` at the end.
    /// A line that is not valid JSON (a torn last line, say) is `BAD_INPUT` naming the line.
    pub fn next_line(&mut self) -> Result<Option<(u64, &str)>> {
        loop {
            if !self.read_line()? {
                return Ok(None);
            }
            self.line_no += 1;
            while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
                self.buf.pop();
            }
            if self.buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let line_no = self.line_no;
            let text = std::str::from_utf8(&self.buf).map_err(|_| {
                Error::bad_input(
                    format!("{} line {line_no} is not UTF-8", self.path.display()),
                    None,
                )
            })?;
            if let Err(e) = crate::json_value::from_str::<serde::de::IgnoredAny>(text) {
                return Err(Error::bad_input(
                    format!(
                        "{} line {line_no} is not valid JSON ({e})",
                        self.path.display()
                    ),
                    Some(
                        "the line may have been cut short by a crash; nothing was changed"
                            .to_string(),
                    ),
                ));
            }
            return Ok(Some((line_no, text)));
        }
    }
}
