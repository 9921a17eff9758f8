//! Store text made safe for a terminal. Labels, keys, transcript text and file names come
//! from people and models; printed raw, an escape sequence in them would retitle the
//! terminal, clear it or forge a line of our output. Every human renderer passes store text
//! through here (tables do it for every cell), as git quotes control characters in paths:
//! C0 and C1 controls, ESC, DEL and the bidi overrides and isolates (U+202A-U+202E,
//! U+2066-U+2069) are shown escaped (`\e`, `\n`, `\u{202e}`). `--json` documents and
//! `transcript cat` are data and keep every character (docs/openclaw/HOSTILE.md).

use std::borrow::Cow;

/// Whether `c` would act on a terminal instead of being shown.
fn is_hostile(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `c` as visible text.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{1b}' => out.push_str("\\e"),
        '\0' => out.push_str("\\0"),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

fn escape_where(text: &str, escape: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escape(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One value (a label, a key, a snippet, a table cell) on one line: every control escaped,
/// newlines and tabs included.
pub fn value(text: &str) -> Cow<'_, str> {
    escape_where(text, is_hostile)
}

/// Text of our own making whose lines are ours (a message, a plan, a Markdown document):
/// every control escaped but the newline and the tab. The last guard of every human write.
pub fn lines(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| c != '\n' && c != '\t' && is_hostile(c))
}

/// JSON text printed for a person (`show`'s entry, `transcript delta` without `--json`):
/// serde_json already escapes C0 controls inside strings; the rest (DEL, C1, bidi) get
/// JSON's own `\uXXXX`, so that the text stays the same JSON document.
pub fn json(text: &str) -> Cow<'_, str> {
    let hostile = |c: char| c != '\n' && c != '\t' && c != '\r' && is_hostile(c);
    if !text.chars().any(hostile) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hostile(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A writer that passes Markdown (or any text) to a terminal through [`lines`], a line at a
/// time; bytes that are not UTF-8 are shown as U+FFFD.
pub struct LinesWriter<W: std::io::Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: std::io::Write> LinesWriter<W> {
    pub fn new(inner: W) -> Self {
        LinesWriter {
            inner,
            pending: Vec::new(),
        }
    }

    fn emit(&mut self, upto: usize) -> std::io::Result<()> {
        let chunk: Vec<u8> = self.pending.drain(..upto).collect();
        let text = String::from_utf8_lossy(&chunk);
        self.inner.write_all(lines(&text).as_bytes())
    }
}

impl<W: std::io::Write> std::io::Write for LinesWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(last) = self.pending.iter().rposition(|b| *b == b'\n') {
            self.emit(last + 1)?;
        }
        // A very long line is written in pieces, cut at a character boundary.
        if self.pending.len() > 1 << 16 {
            let cut = match std::str::from_utf8(&self.pending) {
                Ok(_) => self.pending.len(),
                Err(e) => e.valid_up_to().max(1),
            };
            self.emit(cut)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            let all = self.pending.len();
            self.emit(all)?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_shown_not_obeyed() {
        let label = "x\u{1b}]0;owned\u{7}\u{1b}[2J\nforged\u{9b}\u{7f}\u{202e}abc\u{2066}";
        let v = value(label);
        assert!(!v.chars().any(is_hostile), "{v}");
        assert_eq!(
            v,
            "x\\e]0;owned\\u{7}\\e[2J\\nforged\\u{9b}\\u{7f}\\u{202e}abc\\u{2066}"
        );
        assert_eq!(lines("a\nb\u{1b}c\td"), "a\nb\\ec\td");
        assert!(matches!(value("plain é 日本"), Cow::Borrowed(_)));
        let doc =
            serde_json::to_string(&serde_json::json!({"l": "a\u{9b}\u{202e}\u{1b}"})).unwrap();
        let shown = json(&doc);
        assert!(!shown.chars().any(is_hostile), "{shown}");
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back["l"], "a\u{9b}\u{202e}\u{1b}");
    }

    #[test]
    fn the_writer_escapes_across_writes() {
        use std::io::Write;
        let mut out = Vec::new();
        {
            let mut w = LinesWriter::new(&mut out);
            let text = "# t\nhello \u{1b}[2J wor\u{202e}ld\nend";
            for b in text.as_bytes() {
                w.write_all(std::slice::from_ref(b)).unwrap();
            }
            w.flush().unwrap();
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "# t\nhello \\e[2J wor\\u{202e}ld\nend"
        );
    }
}
