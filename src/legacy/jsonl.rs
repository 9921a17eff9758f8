use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result, ResultExt};

/// Streams a JSONL transcript line by line, in bounded memory, checking each line is JSON.
pub struct JsonlReader<'a> {
    path: PathBuf,
    reader: Box<dyn BufRead + 'a>,
    line_no: u64,
    buf: Vec<u8>,
}

impl<'a> JsonlReader<'a> {
    pub fn open(path: &Path) -> Result<Self> {
        let file = File::open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::not_found(
                    format!("transcript {} does not exist", path.display()),
                    None,
                )
            } else {
                Error::io(path, e)
            }
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
        }
    }

    /// The next non-empty line (without its line ending), or `None` at the end.
    /// A line that is not valid JSON (a torn last line, say) is `BAD_INPUT` naming the line.
    pub fn next_line(&mut self) -> Result<Option<(u64, &str)>> {
        loop {
            self.buf.clear();
            let n = self
                .reader
                .read_until(b'\n', &mut self.buf)
                .at(&self.path)?;
            if n == 0 {
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
            if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
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
