//! Man pages from the command definition (clap_mangen for the generated sections), with the
//! sections a man page is expected to have: EXAMPLES, EXIT STATUS, ENVIRONMENT, FILES.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::exit::Outcome;
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write one page per command into DIR (openclaw-sessions.1, openclaw-sessions-list.1, ...);
    /// without it the main page goes to stdout.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
}

/// README.md, Exit codes: the same table.
const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "Done; also when there was nothing to do, and after a declined question."),
    ("1", "Failed unexpectedly (IO, SQLITE, INTERNAL), or the safety snapshot did not verify (SNAPSHOT_UNVERIFIED; nothing changed)."),
    ("2", "Usage error (USAGE), or a confirmation was needed without a terminal and without \\-\\-yes (CONFIRMATION_REQUIRED)."),
    ("3", "Done, but problems were found or some items were not done (FINDINGS, PARTIAL)."),
    ("4", "Not found: state dir, agent, store, session, snapshot (NOT_FOUND)."),
    ("5", "Refused by a guard: expectation failed, locked session, label taken, target exists, unsafe path (CONFLICT, LOCKED_SESSION, TARGET_EXISTS, UNSAFE_PATH)."),
    ("6", "Store format not supported, or bad input data (UNSUPPORTED_SCHEMA, BAD_INPUT)."),
    ("75", "The state dir has a live owner, such as a running Gateway: retry later (OWNER_UNAVAILABLE, GATEWAY_STATE_OWNER_REQUIRED)."),
    ("126, 127", "custody run: the command exists but cannot be executed (126, COMMAND_NOT_EXECUTABLE), or is not found (127, COMMAND_NOT_FOUND), as env and timeout exit."),
    ("130", "Interrupted by a signal (INTERRUPTED); what finished stays done."),
];

const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "OPENCLAW_STATE_DIR",
        "The state dir when \\-\\-state\\-dir is not given.",
    ),
    (
        "OPENCLAW_HOME",
        "The home directory OpenClaw resolves ~ against.",
    ),
    (
        "OPENCLAW_PROFILE",
        "A profile: the state dir becomes ~/.openclaw\\-NAME.",
    ),
    (
        "OPENCLAW_CONFIG_PATH",
        "The config file when \\-\\-config is not given.",
    ),
    ("NO_COLOR", "When set and not empty, no colors."),
    (
        "COLUMNS",
        "The width of tables when the terminal does not report one.",
    ),
    (
        "SQLITE_TMPDIR, TMPDIR",
        "Where large plans spill to temporary files (else /var/tmp or /tmp).",
    ),
    (
        "OPENCLAW_SESSIONS_CUSTODY",
        "Set by custody run for its command: mutating commands run inside inherit its custody.",
    ),
    (
        "COMPLETE",
        "Set by the completion scripts to ask for candidates (see the completions command).",
    ),
];

const FILES: &[(&str, &str)] = &[
    ("~/.openclaw/", "The default state dir."),
    (
        "<state>/openclaw.json",
        "The config (session.maintenance, agents, session.store).",
    ),
    (
        "<state>/agents/<id>/agent/openclaw\\-agent.sqlite",
        "An agent's sessions and transcripts.",
    ),
    (
        "<state>/agents/<id>/sessions/",
        "Legacy sessions.json, JSONL transcripts and archive files.",
    ),
    (
        "<state>/state/openclaw.sqlite",
        "The global state database.",
    ),
    (
        "<state>/openclaw\\-sessions\\-snapshots/",
        "Default directory of the snapshots taken before a change.",
    ),
];

/// Text for a roff line: backslashes and hyphens escaped, a leading dot or quote defused.
fn roff_text(s: &str) -> String {
    let escaped = s.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// A `.TP` list: a bold tag, then its text (already roff).
fn tagged(out: &mut String, heading: &str, rows: &[(&str, &str)]) {
    out.push_str(&format!(".SH \"{heading}\"\n"));
    for (tag, text) in rows {
        out.push_str(&format!(".TP\n\\fB{tag}\\fR\n{text}\n"));
    }
}

/// The sections clap_mangen does not write.
fn extra_sections(path: &str, notes: Option<String>) -> String {
    let mut out = String::new();
    if let Some(notes) = notes.filter(|n| !n.trim().is_empty()) {
        out.push_str(".SH NOTES\n");
        for para in notes.split("\n\n") {
            out.push_str(".PP\n");
            for line in para.lines() {
                out.push_str(&roff_text(line));
                out.push('\n');
            }
        }
    }
    if let Some(lines) = crate::cli::examples::of(path) {
        out.push_str(".SH EXAMPLES\n.PP\n.nf\n.RS 4\n");
        for l in lines {
            for part in crate::cli::examples::wrapped(l, crate::cli::examples::WIDTH) {
                out.push_str(&roff_text(&part));
                out.push('\n');
            }
        }
        out.push_str(".RE\n.fi\n");
    }
    tagged(&mut out, "EXIT STATUS", EXIT_STATUS);
    tagged(&mut out, "ENVIRONMENT", ENVIRONMENT);
    tagged(&mut out, "FILES", FILES);
    if !path.is_empty() {
        out.push_str(".SH \"SEE ALSO\"\n\\fBopenclaw\\-sessions\\fR(1)\n");
    }
    out
}

/// One page: clap_mangen's sections (the examples left out of its EXTRA), then ours.
fn render(cmd: &clap::Command, path: &str) -> anyhow::Result<Vec<u8>> {
    // What `after_help` says (the pipeline and snapshot policy of a mutating command) becomes
    // NOTES; the examples `--help` shows after it get their own section.
    let notes = cmd.get_after_help().map(|s| s.to_string());
    let page = cmd.clone().after_help("").after_long_help("");
    let man = clap_mangen::Man::new(page.clone())
        .source(concat!("openclaw-sessions ", env!("CARGO_PKG_VERSION")))
        .manual("openclaw-sessions manual");
    let mut buf = Vec::new();
    man.render_title(&mut buf)?;
    man.render_name_section(&mut buf)?;
    man.render_synopsis_section(&mut buf)?;
    man.render_description_section(&mut buf)?;
    if page.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut buf)?;
    }
    if page.has_subcommands() {
        man.render_subcommands_section(&mut buf)?;
    }
    buf.write_all(extra_sections(path, notes).as_bytes())?;
    if path.is_empty() {
        man.render_version_section(&mut buf)?;
    }
    Ok(strip_repeated_preambles(buf))
}

/// Each clap_mangen section starts with the same two-line apostrophe preamble; keep the first.
fn strip_repeated_preambles(buf: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&buf).into_owned();
    let preamble = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";
    let rest = text.strip_prefix(preamble).unwrap_or(&text);
    format!("{preamble}{}", rest.replace(preamble, "")).into_bytes()
}

/// Every page: the tool and each (nested) subcommand, named `a-b-c.1`, each naming the
/// program as it is typed (`openclaw-sessions custody clear-stale`).
fn pages(
    cmd: &clap::Command,
    words: &[String],
    out: &mut Vec<(String, Vec<u8>)>,
) -> anyhow::Result<()> {
    let file = words.join("-");
    let page_cmd = cmd.clone().name(file.clone()).bin_name(words.join(" "));
    let path = words[1..].join(" ");
    out.push((format!("{file}.1"), render(&page_cmd, &path)?));
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let mut sub_words = words.to_vec();
        sub_words.push(sub.get_name().to_string());
        pages(sub, &sub_words, out)?;
    }
    Ok(())
}

fn all_pages() -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut cmd = crate::cli::command();
    cmd.build();
    let mut out = Vec::new();
    pages(&cmd, &[cmd.get_name().to_string()], &mut out)?;
    Ok(out)
}

pub fn write_all(dir: &Path) -> anyhow::Result<usize> {
    let out = all_pages()?;
    std::fs::create_dir_all(dir)?;
    for (name, bytes) in &out {
        std::fs::write(dir.join(name), bytes)?;
    }
    Ok(out.len())
}

pub fn run(ctx: &Ctx, args: &ManArgs) -> anyhow::Result<Outcome> {
    match &args.out_dir {
        Some(dir) => {
            let n = write_all(dir)?;
            ctx.printer
                .info(format!("wrote {n} man pages to {}", dir.display()));
        }
        None => {
            let (_, page) = all_pages()?.swap_remove(0);
            ctx.printer.out(&String::from_utf8(page)?)?;
        }
    }
    Ok(Outcome::Done)
}
