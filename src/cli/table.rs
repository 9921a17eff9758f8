//! Tables designed for 80 columns (after `gh pr list` and `kubectl get`). Each column says
//! what it is: an identifier (the agent when several are shown, the key, a session-id prefix,
//! an archive's name) is never cut and never dropped; a column of data (times, counts, flags)
//! is shown whole or not at all; prose and paths are cut, prose at its end and paths in the
//! middle, each with an ellipsis. On a terminal narrower than the table, the least useful
//! columns are dropped first (each table ranks them), prose is cut last, and the caller says
//! once which columns were dropped (`--wide` shows them). Piped output and `--wide` keep
//! every column and every cell whole.
//!
//! One style everywhere: borders on a terminal, plain columns otherwise. A terminal that
//! reports no width (or 0, as under `script -qc` or some `docker exec -t`) is taken to be
//! `COLUMNS` wide, else 80.

use std::io::IsTerminal;

use comfy_table::{presets, ContentArrangement};
use unicode_width::UnicodeWidthStr;

const ELLIPSIS: &str = "…";
/// A cut column keeps at least this many characters (or its header's).
const MIN_WIDTH: usize = 8;
const FALLBACK_WIDTH: usize = 80;

/// Where tables go: a terminal of some width, or a pipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Terminal { width: usize },
    Pipe,
}

impl Target {
    /// Stdout as it is: a terminal's reported width, else `COLUMNS`, else 80.
    pub fn stdout() -> Target {
        if let Some(width) = openclaw_sessions::test_hooks::terminal_width() {
            return Target::Terminal {
                width: usable(Some(width)),
            };
        }
        if !std::io::stdout().is_terminal() {
            return Target::Pipe;
        }
        let reported = terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| w.0);
        Target::Terminal {
            width: usable(reported),
        }
    }

    pub fn is_terminal(self) -> bool {
        matches!(self, Target::Terminal { .. })
    }
}

/// A reported width, or `COLUMNS`, or 80 when neither says anything useful.
fn usable(reported: Option<u16>) -> usize {
    reported
        .map(usize::from)
        .filter(|w| *w > 0)
        .or_else(|| {
            std::env::var("COLUMNS")
                .ok()
                .and_then(|c| c.trim().parse::<usize>().ok())
                .filter(|w| *w > 0)
        })
        .unwrap_or(FALLBACK_WIDTH)
}

/// How a column gives up room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// Paths: both ends say what the thing is.
    Middle,
    /// Prose: the beginning says it.
    End,
    /// Identifiers, counts, sizes, times: whole or not at all.
    Never,
}

/// One column of a table: its heading and how it gives up room on a narrow terminal.
#[derive(Debug, Clone)]
pub struct Column {
    header: String,
    cut: Cut,
    /// Identifies a row: never cut, never dropped.
    id: bool,
    /// Dropped, lowest rank first, when the table is wider than the terminal; None: kept.
    drop: Option<u8>,
}

impl Column {
    /// What identifies a row (a key, a session-id prefix, an archive's name, the agent when
    /// several are shown): never cut, never dropped.
    pub fn id(header: &str) -> Column {
        Column::new(header, Cut::Never, true)
    }

    /// Prose (a label, a finding): cut at its end, last.
    pub fn prose(header: &str) -> Column {
        Column::new(header, Cut::End, false)
    }

    /// A path: cut in the middle, last.
    pub fn path(header: &str) -> Column {
        Column::new(header, Cut::Middle, false)
    }

    /// Data (a time, a count, a size, flags): whole or not at all.
    pub fn data(header: &str) -> Column {
        Column::new(header, Cut::Never, false)
    }

    /// Dropped on a narrow terminal, lower ranks first (the least useful column has rank 1).
    pub fn drop(mut self, rank: u8) -> Column {
        self.drop = Some(rank);
        self
    }

    fn new(header: &str, cut: Cut, id: bool) -> Column {
        Column {
            header: header.to_string(),
            cut,
            id,
            drop: None,
        }
    }

    /// Whether fitting may shorten the column's cells.
    fn cuttable(&self) -> bool {
        !self.id && self.cut != Cut::Never
    }
}

/// A column named only by its heading: identifiers by their usual headings, paths, counts,
/// the rest prose; none is dropped.
impl From<&str> for Column {
    fn from(header: &str) -> Column {
        let h = header.to_ascii_uppercase();
        let has = |words: &[&str]| words.iter().any(|m| h.split_whitespace().any(|w| w == *m));
        if has(&["KEY", "ID", "NAME", "AGENT", "SESSION"]) {
            Column::id(header)
        } else if has(&[
            "PATH", "FILE", "SNAPSHOT", "DATABASE", "STORE", "LOCK", "ROW/FILE",
        ]) {
            Column::path(header)
        } else if has(&["EVENTS", "BYTES", "SIZE", "SESSIONS", "COUNT"]) {
            Column::data(header)
        } else {
            Column::prose(header)
        }
    }
}

/// A table of text cells, rendered by [`render`].
#[derive(Debug, Clone)]
pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<String>>,
    /// What an empty table says in words, instead of a heading alone.
    empty: String,
}

impl Table {
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            rows: Vec::new(),
            empty: "nothing to show".into(),
        }
    }

    /// The words an empty result is said in (`no sessions match`).
    pub fn when_empty(mut self, words: impl Into<String>) -> Table {
        self.empty = words.into();
        self
    }

    pub fn empty_words(&self) -> &str {
        &self.empty
    }

    /// Tab-separated values for scripts: every cell whole, tabs and newlines in a cell shown
    /// escaped; the heading first unless `headers` is false.
    pub fn tsv(&self, headers: bool) -> String {
        let cell = |c: &str| escaped(c).replace('\t', "\\t");
        let mut out = String::new();
        if headers {
            let h: Vec<String> = self.columns.iter().map(|c| cell(&c.header)).collect();
            out.push_str(&h.join("\t"));
            out.push('\n');
        }
        for row in &self.rows {
            let r: Vec<String> = row.iter().map(|c| cell(c)).collect();
            out.push_str(&r.join("\t"));
            out.push('\n');
        }
        out
    }

    /// One JSON object a row (JSON Lines), keyed by the headings in lower case with `_`
    /// for spaces (`SESSION ID` -> `session_id`), every cell whole.
    pub fn jsonl(&self) -> String {
        let keys: Vec<String> = self
            .columns
            .iter()
            .map(|c| c.header.to_lowercase().replace([' ', '/'], "_"))
            .collect();
        let mut out = String::new();
        for row in &self.rows {
            let mut obj = serde_json::Map::new();
            for (k, v) in keys.iter().zip(row) {
                obj.insert(k.clone(), serde_json::Value::String(v.clone()));
            }
            out.push_str(&serde_json::Value::Object(obj).to_string());
            out.push('\n');
        }
        out
    }

    pub fn add_row<S: Into<String>>(&mut self, row: impl IntoIterator<Item = S>) {
        self.rows.push(row.into_iter().map(Into::into).collect());
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// A table's text and the headings of the columns left out to fit the terminal.
pub struct Rendered {
    pub text: String,
    pub dropped: Vec<String>,
    /// The terminal's width when columns were dropped.
    pub width: usize,
}

/// One line a row, and nothing a terminal would obey: every control in a cell is shown
/// escaped (src/cli/shown.rs) before the cell is measured and cut, so a cut falls between
/// characters of the escaped text, never inside an escape sequence.
fn escaped(text: &str) -> String {
    super::shown::value(text).into_owned()
}

/// The text of the table: the `visible` columns, each cut to its width.
fn build(
    table: &Table,
    visible: &[usize],
    widths: &[usize],
    header: Option<&[String]>,
    rows: &[Vec<String>],
) -> String {
    let fit = |i: usize, text: &str| shorten(text, widths[i], table.columns[i].cut);
    let mut t = comfy_table::Table::new();
    // No borders, as gh and kubectl print: columns apart by two spaces, a border would only
    // spend columns a narrow terminal needs.
    t.load_preset(presets::NOTHING);
    t.set_content_arrangement(ContentArrangement::Disabled);
    if let Some(header) = header {
        t.set_header(
            visible
                .iter()
                .map(|&i| header[i].clone())
                .collect::<Vec<_>>(),
        );
    }
    for row in rows {
        t.add_row(
            visible
                .iter()
                .map(|&i| fit(i, row.get(i).map(String::as_str).unwrap_or("")))
                .collect::<Vec<_>>(),
        );
    }
    // No padding at line ends, nor the cells' one column of padding at line starts.
    t.to_string()
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The table's text: whole when piped or `wide`; on a narrower terminal, the least useful
/// columns dropped first and prose and paths cut last; identifiers whole in every case (a
/// terminal narrower than the identifiers alone wraps them rather than lose them).
pub fn render(table: &Table, target: Target, wide: bool, headers: bool) -> Rendered {
    let header: Vec<String> = table.columns.iter().map(|c| escaped(&c.header)).collect();
    let rows: Vec<Vec<String>> = table
        .rows
        .iter()
        .map(|r| r.iter().map(|c| escaped(c)).collect())
        .collect();
    let n = header.len();
    let natural: Vec<usize> = (0..n)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.width())
                .chain(std::iter::once(header[i].width()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let all: Vec<usize> = (0..n).collect();
    let shown_header = headers.then_some(header.as_slice());
    let whole = || Rendered {
        text: build(table, &all, &natural, shown_header, &rows),
        dropped: Vec::new(),
        width: 0,
    };
    let width = match target {
        Target::Pipe => return whole(),
        Target::Terminal { width } => width,
    };
    // Two spaces between columns.
    let overhead = |k: usize| (2 * k).saturating_sub(2);
    let total = |visible: &[usize], widths: &[usize]| -> usize {
        visible.iter().map(|&i| widths[i]).sum::<usize>() + overhead(visible.len())
    };
    if wide || total(&all, &natural) <= width {
        return whole();
    }
    // A path cut shorter than twice a prose cell says nothing of where it leads: dropped
    // rather than cut to a stub.
    let floor = |i: usize| {
        let least = match table.columns[i].cut {
            Cut::Middle => 2 * MIN_WIDTH,
            _ => MIN_WIDTH,
        };
        natural[i].min(least.max(header[i].width()))
    };
    let mut visible = all;
    let mut dropped: Vec<usize> = Vec::new();
    let mut widths = natural.clone();
    loop {
        if total(&visible, &natural) <= width {
            break;
        }
        let next = visible
            .iter()
            .copied()
            .filter(|&i| table.columns[i].drop.is_some())
            .min_by_key(|&i| (table.columns[i].drop, std::cmp::Reverse(i)));
        if let Some(i) = next.filter(|&i| !table.columns[i].cuttable()) {
            visible.retain(|&v| v != i);
            dropped.push(i);
            continue;
        }
        // Only prose, paths and what is kept are left to give up room: cut them, widest
        // first, down to their floors, or else drop the next one.
        let floors: Vec<usize> = (0..n)
            .map(|i| {
                if table.columns[i].cuttable() {
                    floor(i)
                } else {
                    natural[i]
                }
            })
            .collect();
        if total(&visible, &floors) <= width || next.is_none() {
            let budget = width.saturating_sub(overhead(visible.len()));
            while visible.iter().map(|&i| widths[i]).sum::<usize>() > budget {
                let widest = visible
                    .iter()
                    .copied()
                    .filter(|&i| widths[i] > floors[i])
                    .max_by_key(|&i| (widths[i], std::cmp::Reverse(i)));
                match widest {
                    Some(i) => widths[i] -= 1,
                    None => break,
                }
            }
            break;
        }
        let i = next.expect("a column to drop");
        visible.retain(|&v| v != i);
        dropped.push(i);
    }
    dropped.sort_unstable();
    let text = build(table, &visible, &widths, shown_header, &rows);
    Rendered {
        text,
        dropped: dropped.iter().map(|&i| header[i].clone()).collect(),
        width,
    }
}

/// `text` in at most `width` columns, shortened the column's way.
fn shorten(text: &str, width: usize, cut: Cut) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let room = width - 1; // the ellipsis
    let take = |chars: &mut dyn Iterator<Item = char>, budget: usize| {
        let mut out = String::new();
        let mut used = 0;
        for c in chars {
            let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            if used + w > budget {
                break;
            }
            used += w;
            out.push(c);
        }
        out
    };
    match cut {
        Cut::End | Cut::Never => format!("{}{ELLIPSIS}", take(&mut text.chars(), room)),
        Cut::Middle => {
            let head = take(&mut text.chars(), room.div_ceil(2));
            let tail: String = take(&mut text.chars().rev(), room / 2)
                .chars()
                .rev()
                .collect();
            format!("{head}{ELLIPSIS}{tail}")
        }
    }
}

/// Prose wrapped at word boundaries to the terminal's width (one line when piped or `wide`):
/// the first line starts with `first`, the others with `rest` (an indent); a word wider than a
/// line is broken. `text` is already escaped.
pub fn wrap(text: &str, first: &str, rest: &str, target: Target, wide: bool) -> String {
    let width = match target {
        Target::Terminal { width } if !wide => width,
        _ => return format!("{first}{text}\n"),
    };
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let sep = if empty { 0 } else { 1 };
        if !empty && line.width() + sep + word.width() > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        // A word longer than a whole line: broken where the line ends.
        let mut word = word;
        while line.width() + word.width() > width && width > rest.width() + 1 {
            let room = width - line.width();
            let cut = word
                .char_indices()
                .scan(0usize, |w, (i, c)| {
                    *w += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
                    Some((i + c.len_utf8(), *w))
                })
                .take_while(|(_, w)| *w <= room)
                .last()
                .map(|(i, _)| i)
                .unwrap_or(0);
            if cut == 0 {
                break;
            }
            line.push_str(&word[..cut]);
            out.push_str(&line);
            out.push('\n');
            line = rest.to_string();
            word = &word[cut..];
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// One line of prose cut at its end to the terminal's width (whole when piped or `wide`);
/// `line` is already escaped.
pub fn fit_prose(line: &str, target: Target, wide: bool) -> String {
    match target {
        Target::Terminal { width } if !wide => shorten(line, width, Cut::End),
        _ => line.to_string(),
    }
}

/// Lines of text (a plan) each kept to one terminal line: the longest word (a key, an id, a
/// path) is cut in the middle first, then the line at its end. Whole when piped or `wide`.
pub fn fit_lines(text: &str, target: Target, wide: bool) -> String {
    let Target::Terminal { width } = target else {
        return text.to_string();
    };
    if wide {
        return text.to_string();
    }
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        out.push_str(&fit_line(body, width));
        out.push_str(end);
    }
    out
}

fn fit_line(line: &str, width: usize) -> String {
    let over = line.width().saturating_sub(width);
    if over == 0 {
        return line.to_string();
    }
    let longest = line
        .split(' ')
        .filter(|w| w.width() > 2 * MIN_WIDTH)
        .max_by_key(|w| w.width());
    let mut fitted = line.to_string();
    if let Some(word) = longest {
        let keep = word.width().saturating_sub(over).max(2 * MIN_WIDTH);
        fitted = line.replacen(word, &shorten(word, keep, Cut::Middle), 1);
    }
    shorten(&fitted, width, Cut::End)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortening_keeps_both_ends_of_paths() {
        let key = "agent:main:slack:direct:u04abcdef:thread:1777244748.777294";
        let s = shorten(key, 20, Cut::Middle);
        assert_eq!(s.width(), 20);
        assert!(s.starts_with("agent:main") && s.ends_with("777294"), "{s}");
        assert_eq!(shorten("Pinned notes", 8, Cut::End), "Pinned …");
        assert_eq!(shorten("short", 8, Cut::Middle), "short");
        assert_eq!(shorten("日本語のテキスト", 7, Cut::End).width(), 7);
    }

    #[test]
    fn plan_lines_keep_to_one_line() {
        let plan = "Delete 1 session:\n    delete agent:main:slack:direct:u04abcdef:thread:1777244748.777294  (1 transcript archived (16 events))\n";
        let fitted = fit_lines(plan, Target::Terminal { width: 80 }, false);
        for line in fitted.lines() {
            assert!(line.width() <= 80, "{line}");
        }
        assert!(
            fitted.contains("(1 transcript archived (16 events))"),
            "{fitted}"
        );
        assert!(fitted.contains("agent:main:slack"), "{fitted}");
        assert_eq!(fit_lines(plan, Target::Pipe, false), plan);
        let narrow = fit_lines(plan, Target::Terminal { width: 30 }, false);
        assert!(narrow.lines().all(|l| l.width() <= 30), "{narrow}");
    }

    fn sample() -> Table {
        let mut t = Table::new(vec![
            Column::id("AGENT"),
            Column::id("KEY"),
            Column::id("SESSION ID"),
            Column::data("UPDATED").drop(3),
            Column::data("EVENTS").drop(1),
            Column::prose("LABEL").drop(5),
        ]);
        for i in 0..3 {
            t.add_row(vec![
                "research".to_string(),
                format!("slack:direct:u08abcdef:thread:1777244748.77729{i}"),
                format!("c363563{i}"),
                "181d ago".to_string(),
                "16".to_string(),
                "a label\nover two lines, and then some more words".to_string(),
            ]);
        }
        t
    }

    #[test]
    fn identifiers_stay_whole_and_the_least_useful_columns_go_first() {
        let t = sample();
        for width in [80, 100, 120, 200] {
            let r = render(&t, Target::Terminal { width }, false, true);
            assert!(r.text.lines().all(|l| l.width() <= width), "{}", r.text);
            assert_eq!(r.text.lines().count(), 1 + 3, "{}", r.text);
            assert!(r
                .text
                .contains("slack:direct:u08abcdef:thread:1777244748.777292"));
            assert!(r.text.contains("c3635632"));
            // One style, gh's: no borders, the heading first.
            assert!(r.text.starts_with("AGENT "), "one style: {}", r.text);
            assert!(!r.text.contains(['│', '┌', '┆']), "{}", r.text);
        }
        let at80 = render(&t, Target::Terminal { width: 80 }, false, true);
        // Without borders the label keeps a few columns at 80.
        assert_eq!(at80.dropped, ["UPDATED", "EVENTS"], "{}", at80.text);
        let at100 = render(&t, Target::Terminal { width: 100 }, false, true);
        // Data goes whole before any prose is cut.
        assert_eq!(at100.dropped, ["UPDATED", "EVENTS"], "{}", at100.text);
        assert!(at100.text.contains("a label\\nover"), "{}", at100.text);
        assert!(at100.text.contains('…'), "prose cut last: {}", at100.text);
        // Narrower than the identifiers: they stay whole (the terminal wraps them).
        let at40 = render(&t, Target::Terminal { width: 40 }, false, true);
        assert!(at40
            .text
            .contains("slack:direct:u08abcdef:thread:1777244748.777292"));
        let piped = render(&t, Target::Pipe, false, true);
        assert!(piped.dropped.is_empty() && !piped.text.contains('│'));
        let wide = render(&t, Target::Terminal { width: 40 }, true, true);
        assert!(wide.dropped.is_empty() && wide.text.contains("more words"));
        // --no-headers: the rows alone.
        let bare = render(&t, Target::Terminal { width: 80 }, false, false);
        assert_eq!(bare.text.lines().count(), 3, "{}", bare.text);
        assert!(bare.text.starts_with("research"), "{}", bare.text);
    }
}
