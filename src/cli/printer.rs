//! The one output policy: data to stdout, messages to stderr, progress only on a terminal,
//! `--json` prints exactly one document, `NO_COLOR` respected, a closed pipe ends quietly.

use std::cell::RefCell;
use std::io::{IsTerminal, Write};

use super::table::{Column, Table};
use serde::Serialize;
use serde_json::{json, Value};

use super::error_code::ErrorCode;
use super::shown;

/// How tables are printed (`-o`): for people, or as data for scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum TableFormat {
    /// Aligned columns fitted to the terminal.
    #[default]
    Table,
    /// Tab-separated values, every cell whole.
    Tsv,
    /// The command's one JSON document (as --json).
    Json,
    /// One JSON object a table row.
    Jsonl,
}

/// Output stopped because the reader went away (`list | head`).
#[derive(Debug, thiserror::Error)]
#[error("broken pipe")]
pub struct BrokenPipe;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// Serialized straight from the data (no intermediate JSON tree): raw stored entries pass
/// through byte for byte.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Envelope<'a, T> {
    schema_version: u32,
    command: String,
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
    data: &'a T,
    warnings: Vec<String>,
}

/// A JSON document being written row by row (see [`Printer::json_rows`]).
pub struct JsonRows<'p, W: Write> {
    out: W,
    pretty: bool,
    rows: usize,
    /// The document's warnings, read when it ends.
    warnings: &'p RefCell<Vec<String>>,
    /// The rows are the array `data.<field>` of an object `data` (`doctor`'s findings), not
    /// `data` itself.
    field: Option<String>,
}

impl<'p, W: Write> JsonRows<'p, W> {
    fn start(
        mut out: W,
        pretty: bool,
        command: &str,
        error: Option<&Value>,
        warnings: &'p RefCell<Vec<String>>,
        field: Option<&str>,
    ) -> anyhow::Result<Self> {
        let command = serde_json::to_string(command)?;
        let ok = error.is_none();
        let error = match error {
            Some(e) if pretty => format!(
                "\n  \"error\": {},",
                serde_json::to_string_pretty(e)?.replace('\n', "\n  ")
            ),
            Some(e) => format!("\"error\":{},", serde_json::to_string(e)?),
            None => String::new(),
        };
        let open = match field {
            Some(f) if pretty => format!("{{\n    {}: [", serde_json::to_string(f)?),
            Some(f) => format!("{{{}:[", serde_json::to_string(f)?),
            None => "[".to_string(),
        };
        let head = if pretty {
            format!("{{\n  \"schemaVersion\": 1,\n  \"command\": {command},\n  \"ok\": {ok},{error}\n  \"data\": {open}")
        } else {
            format!(
                "{{\"schemaVersion\":1,\"command\":{command},\"ok\":{ok},{error}\"data\":{open}"
            )
        };
        out.write_all(head.as_bytes()).map_err(map_io)?;
        Ok(JsonRows {
            out,
            pretty,
            rows: 0,
            warnings,
            field: field.map(String::from),
        })
    }

    pub fn push<T: Serialize>(&mut self, row: &T) -> anyhow::Result<()> {
        let separator = if self.rows > 0 { "," } else { "" };
        self.rows += 1;
        if self.pretty {
            let indent = if self.field.is_some() {
                "      "
            } else {
                "    "
            };
            let row = serde_json::to_string_pretty(row)?;
            let text = format!(
                "{separator}\n{indent}{}",
                row.replace('\n', &format!("\n{indent}"))
            );
            return self.out.write_all(text.as_bytes()).map_err(map_io);
        }
        // Compact rows (programs, long lists) go straight into the buffered output.
        self.out.write_all(separator.as_bytes()).map_err(map_io)?;
        serde_json::to_writer(&mut self.out, row).map_err(|e| match e.io_error_kind() {
            Some(kind) => map_io(std::io::Error::from(kind)),
            None => e.into(),
        })
    }

    /// Close the array, add more fields (`list`'s `page` at the top; with a `field`, the
    /// other fields of `data`) and the warnings, end the document.
    pub fn finish_with(mut self, extra: &[(&str, Value)]) -> anyhow::Result<()> {
        let warnings = self.warnings.borrow().clone();
        let inner = self.field.is_some();
        let pad = if inner { "    " } else { "  " };
        let mut fields = String::new();
        for (name, value) in extra {
            let name = serde_json::to_string(name)?;
            if self.pretty {
                let value = serde_json::to_string_pretty(value)?.replace('\n', &format!("\n{pad}"));
                fields.push_str(&format!(",\n{pad}{name}: {value}"));
            } else {
                fields.push_str(&format!(",{name}:{}", serde_json::to_string(value)?));
            }
        }
        if inner {
            fields.push_str(if self.pretty { "\n  }" } else { "}" });
        }
        let tail = if self.pretty {
            let close = match (self.rows > 0, inner) {
                (true, true) => "\n    ]",
                (true, false) => "\n  ]",
                (false, _) => "]",
            };
            let warnings = serde_json::to_string_pretty(&warnings)?.replace('\n', "\n  ");
            format!("{close}{fields},\n  \"warnings\": {warnings}\n}}\n")
        } else {
            format!(
                "]{fields},\"warnings\":{}}}\n",
                serde_json::to_string(&warnings)?
            )
        };
        self.out.write_all(tail.as_bytes()).map_err(map_io)?;
        self.out.flush().map_err(map_io)
    }
}

pub struct Printer {
    pub json: bool,
    pub quiet: bool,
    /// `-v`: more detail (whole plans, debug lines).
    pub verbose: bool,
    /// `-vv`: also each step of a mutation with its time, and how each database was opened.
    pub trace: bool,
    color: bool,
    stdout_tty: bool,
    /// Where tables go, and whether they keep every cell whole (`--wide`).
    table_target: super::table::Target,
    wide: std::cell::Cell<bool>,
    /// `--no-headers`: tables without their heading line.
    no_headers: std::cell::Cell<bool>,
    /// `-o tsv|jsonl`: tables as data for scripts.
    format: std::cell::Cell<TableFormat>,
    /// Plans shown whole (every item), as `-v` shows them: a run on selected sessions.
    whole_plan: std::cell::Cell<bool>,
    /// Whether the columns a narrow terminal left out were named already.
    dropped_said: std::cell::Cell<bool>,
    command: RefCell<String>,
    streaming: std::cell::Cell<bool>,
    warnings: RefCell<Vec<String>>,
    /// The `data` of the error document (what an interrupted run had done).
    error_data: RefCell<Option<serde_json::Value>>,
    /// How a command that ran to its end failed (refusals, findings, partly done): the one
    /// state both the document's `ok` and the exit status are read from (src/cli/exit.rs).
    failure: RefCell<Option<Failure>>,
    /// Whether the command's one JSON document was started.
    documented: std::cell::Cell<bool>,
}

/// A command that ran to its end but did not do all it was asked: its error code and words.
#[derive(Debug, Clone)]
pub struct Failure {
    pub code: ErrorCode,
    pub message: String,
    pub hint: Option<String>,
}

impl Failure {
    fn json(&self) -> Value {
        json!({"code": self.code.as_str(), "message": self.message, "hint": self.hint})
    }
}

fn map_io(e: std::io::Error) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        anyhow::Error::new(BrokenPipe)
    } else {
        anyhow::Error::new(e).context("writing to stdout")
    }
}

impl Printer {
    pub fn new(json: bool, quiet: bool, verbosity: u8, color: ColorChoice) -> Self {
        let stderr_tty = std::io::stderr().is_terminal();
        let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => stderr_tty && !no_color_env,
        };
        Printer {
            json,
            quiet,
            verbose: verbosity >= 1,
            trace: verbosity >= 2,
            color,
            stdout_tty: std::io::stdout().is_terminal(),
            table_target: super::table::Target::stdout(),
            wide: std::cell::Cell::new(false),
            no_headers: std::cell::Cell::new(false),
            whole_plan: std::cell::Cell::new(false),
            format: std::cell::Cell::new(TableFormat::Table),
            dropped_said: std::cell::Cell::new(false),
            command: RefCell::new(String::new()),
            streaming: std::cell::Cell::new(false),
            warnings: RefCell::new(Vec::new()),
            error_data: RefCell::new(None),
            failure: RefCell::new(None),
            documented: std::cell::Cell::new(false),
        }
    }

    /// Record that the command ends without having done all it was asked (a refused key,
    /// findings, a failed verification). Call it before the command's document is written:
    /// the document then says `ok: false` with this error beside its `data`, and the exit
    /// status is the code's. The first failure recorded is the one reported.
    pub fn fail(&self, code: ErrorCode, message: impl Into<String>, hint: Option<String>) {
        let mut failure = self.failure.borrow_mut();
        if failure.is_none() {
            *failure = Some(Failure {
                code,
                message: message.into(),
                hint,
            });
        }
    }

    /// The failure recorded by [`Self::fail`], if any.
    pub fn failure(&self) -> Option<Failure> {
        self.failure.borrow().clone()
    }

    /// Whether the command's JSON document was (at least partly) written.
    pub fn documented(&self) -> bool {
        self.documented.get()
    }

    /// `--no-headers` and `-o`: how tables are printed.
    pub fn set_table_format(&self, no_headers: bool, format: TableFormat) {
        self.no_headers.set(no_headers);
        self.format.set(format);
    }

    /// Show plans whole: every session a selector matched is listed before the question.
    pub fn set_whole_plan(&self) {
        self.whole_plan.set(true);
    }

    pub fn whole_plan(&self) -> bool {
        self.whole_plan.get()
    }

    /// `--wide`: table cells are never shortened.
    pub fn set_wide(&self, wide: bool) {
        self.wide.set(wide);
    }

    pub fn set_command(&self, name: &str) {
        *self.command.borrow_mut() = name.to_string();
    }

    pub fn command(&self) -> String {
        self.command.borrow().clone()
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// A warning: on stderr, and collected into the JSON document's `warnings`.
    /// The same words twice in one run are said once (every database of a newer release).
    pub fn warn(&self, msg: impl Into<String>) {
        let msg = msg.into();
        if self.warnings.borrow().contains(&msg) {
            return;
        }
        if !self.json && !self.quiet {
            let shown = shown::lines(&msg);
            self.stderr_raw(&format!("{} {shown}\n", self.paint("33", "warning:")));
        }
        self.warnings.borrow_mut().push(msg);
    }

    /// A status message for people (stderr; hidden by `-q` and `--json`).
    pub fn info(&self, msg: impl AsRef<str>) {
        if !self.json && !self.quiet {
            self.stderr(&format!("{}\n", msg.as_ref()));
        }
    }

    /// A `-vv` line.
    pub fn trace(&self, msg: impl AsRef<str>) {
        if self.trace && !self.json {
            let shown = shown::lines(msg.as_ref());
            self.stderr_raw(&format!("{}\n", self.paint("2", &shown)));
        }
    }

    pub fn debug(&self, msg: impl AsRef<str>) {
        if self.verbose && !self.json {
            let shown = shown::lines(msg.as_ref());
            self.stderr_raw(&format!("{}\n", self.paint("2", &shown)));
        }
    }

    /// Write text to stderr, controls other than newlines and tabs shown escaped
    /// ([`shown::lines`]). A closed or full stderr loses the message and nothing else: a
    /// mutation never stops half way because nobody reads its messages.
    pub fn stderr(&self, text: &str) {
        self.stderr_raw(&shown::lines(text));
    }

    /// Our own painted text, as is.
    fn stderr_raw(&self, text: &str) {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
    }

    /// Write human text to stdout, controls other than newlines and tabs shown escaped
    /// ([`shown::lines`]); single values from the store are escaped whole by the caller
    /// ([`shown::value`]) so that a newline in them cannot forge a line.
    pub fn out(&self, text: &str) -> anyhow::Result<()> {
        self.out_raw(&shown::lines(text))
    }

    /// Data as is (JSON documents).
    fn out_raw(&self, text: &str) -> anyhow::Result<()> {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes()).map_err(map_io)?;
        out.flush().map_err(map_io)
    }

    /// An export written to stdout: Markdown to a terminal through [`shown::LinesWriter`];
    /// JSON Lines, and anything piped or redirected, byte for byte.
    pub fn export(
        &self,
        markdown: bool,
        write: &mut dyn FnMut(&mut dyn Write) -> openclaw_sessions::Result<()>,
    ) -> openclaw_sessions::Result<()> {
        let io = |e| openclaw_sessions::Error::io("<stdout>", e);
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        if markdown && self.stdout_is_terminal() {
            let mut shown = shown::LinesWriter::new(&mut out);
            write(&mut shown)?;
            shown.flush().map_err(io)?;
        } else {
            write(&mut out)?;
        }
        out.flush().map_err(io)
    }

    /// Whether human output goes to a terminal (Markdown to a terminal is escaped).
    pub fn stdout_is_terminal(&self) -> bool {
        self.table_target.is_terminal()
    }

    /// A buffered stdout for streams (JSON Lines). With `--json`, an error after a stream
    /// started is one more (compact) line.
    pub fn stream(&self) -> StreamOut {
        self.streaming.set(true);
        StreamOut {
            inner: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
        }
    }

    /// The one JSON document of a successful command.
    pub fn json_data<T: Serialize>(&self, data: &T) -> anyhow::Result<()> {
        let error = self.failure.borrow().as_ref().map(Failure::json);
        let doc = Envelope {
            schema_version: 1,
            command: self.command(),
            ok: error.is_none(),
            error,
            data,
            warnings: self.warnings.borrow().clone(),
        };
        self.documented.set(true);
        // Written as it is serialized: some data (prune's plans) is read back from disk while
        // it is written. An error after the first byte is one more compact line, as after
        // [`Self::stream`].
        self.streaming.set(true);
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        // Indented for a person at a terminal; compact for programs (large lists).
        let written = if self.stdout_tty {
            serde_json::to_writer_pretty(&mut out, &doc)
        } else {
            serde_json::to_writer(&mut out, &doc)
        };
        written.map_err(|e| match e.io_error_kind() {
            Some(kind) => map_io(std::io::Error::from(kind)),
            None => e.into(),
        })?;
        out.write_all(b"\n").map_err(map_io)?;
        out.flush().map_err(map_io)
    }

    /// The one JSON document of a command whose `data` is a long array, written a row at
    /// a time so that memory does not grow with it. The text equals [`Self::json_data`]'s;
    /// an error after the first row is one more compact line, as after [`Self::stream`].
    pub fn json_rows(&self) -> anyhow::Result<JsonRows<'_, impl Write>> {
        self.json_rows_at(None)
    }

    /// [`Self::json_rows`] whose rows are the array `field` of the object `data`, its other
    /// fields given at the end ([`JsonRows::finish_with`]).
    pub fn json_rows_in(&self, field: &str) -> anyhow::Result<JsonRows<'_, impl Write>> {
        self.json_rows_at(Some(field))
    }

    fn json_rows_at(&self, field: Option<&str>) -> anyhow::Result<JsonRows<'_, impl Write>> {
        self.streaming.set(true);
        self.documented.set(true);
        let out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let error = self.failure.borrow().as_ref().map(Failure::json);
        JsonRows::start(
            out,
            self.stdout_tty,
            &self.command(),
            error.as_ref(),
            &self.warnings,
            field,
        )
    }

    /// What the failed (interrupted) command had done, as the error document's `data`.
    pub fn set_error_data(&self, data: serde_json::Value) {
        *self.error_data.borrow_mut() = Some(data);
    }

    pub fn json_error(&self, code: ErrorCode, message: &str, hint: Option<&str>) {
        let mut doc = json!({
            "schemaVersion": 1,
            "command": self.command(),
            "ok": false,
            "error": {"code": code.as_str(), "message": message, "hint": hint},
            "warnings": *self.warnings.borrow(),
        });
        if let Some(data) = self.error_data.borrow_mut().take() {
            doc["data"] = data;
        }
        self.documented.set(true);
        // One line, as every success document a script reads.
        let text = serde_json::to_string(&doc);
        let _ = self.out_raw(&format!("{}\n", text.unwrap_or_default()));
    }

    /// An error and its hint. A hint is one line: a key it offers ("did you mean") is
    /// shown whole, its controls escaped.
    pub fn human_error(&self, message: &str, hint: Option<&str>) {
        let message = shown::lines(message);
        let mut text = format!("{} {message}\n", self.paint("31;1", "error:"));
        if let Some(h) = hint {
            let h = shown::value(h);
            text.push_str(&format!("  {} {h}\n", self.paint("36", "hint:")));
        }
        self.stderr_raw(&text);
    }

    /// A table: borders on a terminal, plain aligned columns otherwise (src/cli/table.rs).
    /// Columns given as headings alone get the defaults of [`Column`]'s `From<&str>`.
    pub fn table<C: Into<Column> + Clone>(&self, columns: &[C]) -> Table {
        Table::new(columns.iter().cloned().map(Into::into).collect())
    }

    /// Whether tables show identifiers in their short forms (a bare key beside its agent, a
    /// session-id prefix): on a terminal without `--wide`. Piped output keeps them whole.
    pub fn short_identifiers(&self) -> bool {
        self.table_target.is_terminal() && !self.wide.get()
    }

    /// One line a row: fitted to the terminal's width unless piped or `--wide`; the columns
    /// left out are named once, on stderr, after the table.
    pub fn print_table(&self, table: &Table) -> anyhow::Result<()> {
        match self.format.get() {
            TableFormat::Tsv => return self.out_raw(&table.tsv(!self.no_headers.get())),
            TableFormat::Jsonl => return self.out_raw(&table.jsonl()),
            TableFormat::Table | TableFormat::Json => {}
        }
        // An empty result is said in words (on stderr: stdout stays data).
        if table.is_empty() {
            self.info(table.empty_words());
            return Ok(());
        }
        let r = super::table::render(
            table,
            self.table_target,
            self.wide.get(),
            !self.no_headers.get(),
        );
        self.out(&format!("{}\n", r.text))?;
        if !r.dropped.is_empty() && !self.dropped_said.replace(true) {
            // One line, never wrapped: cut at the terminal's edge if the names run past it.
            let line = format!(
                "hidden at {} columns: {} (--wide shows all)",
                r.width,
                r.dropped.join(", ")
            );
            self.info(self.fit_prose(&line));
        }
        Ok(())
    }

    /// Plan lines kept to one terminal line each, like table rows (src/cli/table.rs).
    pub fn fit_lines(&self, text: &str) -> String {
        super::table::fit_lines(text, self.table_target, self.wide.get())
    }

    /// One line of prose (already escaped) cut at its end to the terminal's width: whole
    /// when piped or `--wide`.
    pub fn fit_prose(&self, line: &str) -> String {
        super::table::fit_prose(line, self.table_target, self.wide.get())
    }

    /// Prose wrapped to the terminal's width, the first line after `first`, the others
    /// indented by `rest` (src/cli/table.rs); one line when piped or `--wide`.
    pub fn wrap(&self, text: &str, first: &str, rest: &str) -> String {
        super::table::wrap(text, first, rest, self.table_target, self.wide.get())
    }

    /// A column's value on one line, its controls escaped.
    pub fn value_line(&self, v: &Value) -> String {
        match v {
            Value::String(s) => shown::value(s).into_owned(),
            other => shown::json(&other.to_string()).into_owned(),
        }
    }
}

pub struct StreamOut {
    inner: std::io::BufWriter<std::io::StdoutLock<'static>>,
}

impl StreamOut {
    pub fn line(&mut self, text: &str) -> anyhow::Result<()> {
        self.inner.write_all(text.as_bytes()).map_err(map_io)?;
        self.inner.write_all(b"\n").map_err(map_io)
    }

    pub fn finish(mut self) -> anyhow::Result<()> {
        self.inner.flush().map_err(map_io)
    }
}

/// A value's serialized word (an enum's `rename_all` name), for table cells.
pub fn word<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(s)) => s,
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document written row by row is the one `json_data` writes, pretty or compact.
    #[test]
    fn json_rows_equal_the_whole_document() {
        let raw =
            serde_json::value::RawValue::from_string(r#"{"a":[1,{"b":"c"}]}"#.into()).unwrap();
        let rows = [
            json!({"k": "x\ny", "n": [1, 2], "o": {}}),
            json!({"raw": raw}),
        ];
        for (count, warnings) in [
            (0, vec![]),
            (1, vec!["w1".to_string()]),
            (2, vec!["a".into(), "b".into()]),
        ] {
            let data = &rows[..count];
            for pretty in [false, true] {
                let doc = Envelope {
                    schema_version: 1,
                    command: "list".into(),
                    ok: true,
                    error: None,
                    data: &data,
                    warnings: warnings.clone(),
                };
                let mut expected = if pretty {
                    serde_json::to_string_pretty(&doc).unwrap()
                } else {
                    serde_json::to_string(&doc).unwrap()
                };
                expected.push('\n');
                let cell = RefCell::new(warnings.clone());
                let mut out = Vec::new();
                let mut w = JsonRows::start(&mut out, pretty, "list", None, &cell, None).unwrap();
                for row in data {
                    w.push(row).unwrap();
                }
                w.finish_with(&[]).unwrap();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    expected,
                    "pretty {pretty}, {count} rows"
                );
            }
        }
    }

    /// Rows as one array field of an object `data` (`doctor`), with more fields after it and
    /// an error: the document `json_data` writes.
    #[test]
    fn json_rows_in_a_field_equal_the_whole_document() {
        let rows = [json!({"k": "x\ny", "n": [1, 2]}), json!({"o": {"p": []}})];
        let error = json!({"code": "findings", "message": "m", "hint": null});
        for count in 0..=2 {
            let data = &rows[..count];
            let extra = [
                ("fixed", json!([])),
                ("failed", json!(["a"])),
                ("snapshots", json!({"x": [1]})),
            ];
            let mut whole = serde_json::Map::new();
            whole.insert("findings".into(), json!(data));
            for (k, v) in &extra {
                whole.insert(k.to_string(), v.clone());
            }
            for pretty in [false, true] {
                let doc = Envelope {
                    schema_version: 1,
                    command: "doctor".into(),
                    ok: false,
                    error: Some(error.clone()),
                    data: &whole,
                    warnings: vec!["w".to_string()],
                };
                let mut expected = if pretty {
                    serde_json::to_string_pretty(&doc).unwrap()
                } else {
                    serde_json::to_string(&doc).unwrap()
                };
                expected.push('\n');
                let cell = RefCell::new(vec!["w".to_string()]);
                let mut out = Vec::new();
                let mut w = JsonRows::start(
                    &mut out,
                    pretty,
                    "doctor",
                    Some(&error),
                    &cell,
                    Some("findings"),
                )
                .unwrap();
                for row in data {
                    w.push(row).unwrap();
                }
                w.finish_with(&extra).unwrap();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    expected,
                    "pretty {pretty}, {count} rows"
                );
            }
        }
    }
}
