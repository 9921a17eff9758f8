//! Tables that stay one line a row. On a terminal, when the rows are wider than it, the
//! widest cells are shortened (keys, ids and paths in the middle, text at the end, each with
//! an ellipsis) until the table fits; piped output and `--wide` keep every cell whole. A
//! terminal that reports no width (or 0, as under `script -qc` or some `docker exec -t`) is
//! taken to be `COLUMNS` wide, else 80.

use std::io::IsTerminal;

use comfy_table::{presets, ContentArrangement, Table};
use unicode_width::UnicodeWidthStr;

const ELLIPSIS: &str = "…";
/// A shortened column keeps at least this many characters (or its header's).
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
    /// Keys, ids, paths: both ends say what the thing is.
    Middle,
    /// Prose: the beginning says it.
    End,
    /// Counts and sizes: whole or not at all.
    Never,
}

fn cut_of(header: &str) -> Cut {
    let h = header.to_ascii_uppercase();
    let middle = [
        "KEY", "ID", "PATH", "FILE", "SNAPSHOT", "DATABASE", "STORE", "LOCK",
    ];
    let counts = ["EVENTS", "BYTES", "SIZE", "SESSIONS", "COUNT"];
    let has = |words: &[&str]| words.iter().any(|m| h.split_whitespace().any(|w| w == *m));
    if has(&counts) {
        Cut::Never
    } else if has(&middle) {
        Cut::Middle
    } else {
        Cut::End
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

/// An empty table in the house style: borders on a terminal, plain columns otherwise; never
/// wrapped (fitting is [`render`]'s job).
pub fn new_table(target: Target, header: &[&str]) -> Table {
    styled(
        if target.is_terminal() {
            Style::Borders
        } else {
            Style::Plain
        },
        header,
    )
}

/// How a table is drawn: with borders, plain, or plain with one space between columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Borders,
    Plain,
    Tight,
}

fn styled(style: Style, header: &[&str]) -> Table {
    let mut t = Table::new();
    if style == Style::Borders {
        t.load_preset(presets::UTF8_FULL_CONDENSED);
    } else {
        t.load_preset(presets::NOTHING);
    }
    t.set_content_arrangement(ContentArrangement::Disabled);
    t.set_header(header.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    if style == Style::Tight {
        for c in t.column_iter_mut() {
            c.set_padding((0, 1));
        }
    }
    t
}

fn cells(row: &comfy_table::Row) -> Vec<String> {
    // One line a row, and nothing a terminal would obey: every control in a cell is shown
    // escaped (src/cli/shown.rs) before the cell is measured and cut, so a cut falls between
    // characters of the escaped text, never inside an escape sequence.
    row.cell_iter()
        .map(|c| super::shown::value(&c.content()).into_owned())
        .collect()
}

/// The text of the table with each column cut to its width (headers too).
fn build(style: Style, header: &[String], rows: &[Vec<String>], widths: &[usize]) -> String {
    let cuts: Vec<Cut> = header.iter().map(|h| cut_of(h)).collect();
    let fit = |i: usize, text: &str| {
        let w = widths.get(i).copied().unwrap_or(usize::MAX);
        shorten(text, w, cuts.get(i).copied().unwrap_or(Cut::End))
    };
    let head: Vec<String> = header.iter().enumerate().map(|(i, h)| fit(i, h)).collect();
    let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
    let mut t = styled(style, &head_refs);
    for row in rows {
        t.add_row(
            row.iter()
                .enumerate()
                .map(|(i, c)| fit(i, c))
                .collect::<Vec<_>>(),
        );
    }
    let text = t.to_string();
    if style == Style::Borders {
        text
    } else {
        // Plain tables: no padding at line ends.
        text.lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn line_width(text: &str) -> usize {
    text.lines().map(|l| l.width()).max().unwrap_or(0)
}

/// The table's text, one line a row: whole when piped or `wide`, else shortened to fit.
pub fn render(table: &Table, target: Target, wide: bool) -> String {
    let header: Vec<String> = table.header().map(cells).unwrap_or_default();
    let rows: Vec<Vec<String>> = table.row_iter().map(cells).collect();
    let natural: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.width())
                .chain(std::iter::once(header[i].width()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let style = if target.is_terminal() {
        Style::Borders
    } else {
        Style::Plain
    };
    let text = build(style, &header, &rows, &natural);
    let Target::Terminal { width } = target else {
        return text;
    };
    if wide || line_width(&text) <= width {
        return text;
    }
    let cuts: Vec<Cut> = header.iter().map(|h| cut_of(h)).collect();
    // Prose gives up room first, down to a few characters; then keys and ids, which stay
    // recognisable longer. Failing that, the borders go; failing that, every column shrinks
    // to a stub, headers included. Each stage measures the real table again.
    let floors = |prose: usize, ids: usize, headers: bool| -> Vec<usize> {
        (0..header.len())
            .map(|i| {
                let head = if headers { header[i].width() } else { 0 };
                let keep = match cuts[i] {
                    Cut::End => prose.max(head),
                    Cut::Middle => ids.max(head),
                    Cut::Never => usize::MAX,
                };
                natural[i].min(keep)
            })
            .collect()
    };
    let stages = [
        (Style::Borders, floors(MIN_WIDTH, usize::MAX, true)),
        (Style::Borders, floors(MIN_WIDTH, 2 * MIN_WIDTH, true)),
        (Style::Plain, floors(MIN_WIDTH, 2 * MIN_WIDTH, true)),
        (Style::Tight, floors(4, 12, false)),
        (Style::Tight, vec![1; header.len()]),
    ];
    let mut last = text;
    for (style, floor) in stages {
        let mut widths = natural.clone();
        let overhead =
            line_width(&build(style, &header, &rows, &widths)).saturating_sub(natural.iter().sum());
        let budget = width.saturating_sub(overhead);
        while widths.iter().sum::<usize>() > budget {
            let widest = (0..widths.len())
                .filter(|i| widths[*i] > floor[*i].min(natural[*i]))
                .max_by_key(|i| widths[*i]);
            match widest {
                Some(i) => widths[i] -= 1,
                None => break,
            }
        }
        last = build(style, &header, &rows, &widths);
        if line_width(&last) <= width {
            break;
        }
    }
    last
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
    fn shortening_keeps_both_ends_of_keys() {
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

    #[test]
    fn a_table_fits_the_terminal_one_line_a_row() {
        let mut t = new_table(Target::Pipe, &["AGENT", "KEY", "SESSION ID", "NAME"]);
        for i in 0..3 {
            t.add_row(vec![
                "research".to_string(),
                format!("agent:research:slack:direct:u08abcdef:thread:1777244748.77729{i}"),
                "c363563f-b0fa-487e-b9b2-880efc710eee".to_string(),
                "a label\nover two lines".to_string(),
            ]);
        }
        for width in [40, 80, 120, 200] {
            let text = render(&t, Target::Terminal { width }, false);
            // Header and three rows, with or without the four border lines.
            let lines = text.lines().count();
            assert!(lines == 4 || lines == 4 + 3, "{text}");
            let widest = text.lines().map(|l| l.width()).max().unwrap();
            assert!(widest <= width, "{width}: {widest}\n{text}");
        }
        let piped = render(&t, Target::Pipe, false);
        assert!(piped.contains("agent:research:slack:direct:u08abcdef:thread:1777244748.777292"));
        let wide = render(&t, Target::Terminal { width: 40 }, true);
        assert!(wide.contains("c363563f-b0fa-487e-b9b2-880efc710eee"));
    }
}
