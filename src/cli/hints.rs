//! The library's remedies, named by our commands. A library hint (of an error, a doctor
//! finding or a store warning) that carries a [`Remedy`] describes it in plain words, its
//! [`Remedy::phrase`]; here those words become the command that does it.

use openclaw_sessions::doctor::Finding;
use openclaw_sessions::remedy::Warning;
use openclaw_sessions::{Error, Remedy};

/// The words of this run that selected the store (`--state-dir`, `--profile`, `--config`,
/// `--store`) and the scope (`--agent`, `--all-agents`), shell-quoted, each with a leading
/// space: a hint repeats them, so that the command it names works on the same store and agents
/// (it would otherwise run on `~/.openclaw`'s default agent).
#[derive(Debug, Default, Clone)]
struct Invocation {
    store: String,
    scope: String,
}

static INVOCATION: std::sync::OnceLock<Invocation> = std::sync::OnceLock::new();

/// Remember the words of this run for the hints (once, at start): the global options as
/// given.
pub fn remember(
    state_dir: Option<&std::path::Path>,
    profile: Option<&str>,
    config: Option<&std::path::Path>,
    agents: &[String],
    all_agents: bool,
) {
    let push = |out: &mut String, flag: &str, value: &str| {
        out.push(' ');
        out.push_str(flag);
        out.push(' ');
        out.push_str(&shell_word(value));
    };
    let mut store = String::new();
    if let Some(d) = state_dir {
        push(&mut store, "--state-dir", &d.to_string_lossy());
    }
    if let Some(p) = profile {
        push(&mut store, "--profile", p);
    }
    if let Some(c) = config {
        push(&mut store, "--config", &c.to_string_lossy());
    }
    let mut scope = String::new();
    for a in agents {
        push(&mut scope, "--agent", a);
    }
    if all_agents {
        scope.push_str(" --all-agents");
    }
    let _ = INVOCATION.set(Invocation { store, scope });
}

fn invocation() -> Invocation {
    INVOCATION.get().cloned().unwrap_or_default()
}

/// `word` as one shell word: as it is when it holds nothing a shell reads, else single-quoted.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=@%+,~".contains(c))
        && !word.starts_with('~');
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `openclaw-sessions` with the words that selected this run's store, then `sub`, then the
/// scope words when `scoped` (`--all-agents` when the run named none and `all` is set).
fn ours(sub: &str, scoped: bool, all: bool) -> String {
    let inv = invocation();
    let scope = match (scoped, inv.scope.is_empty(), all) {
        (false, _, _) => "",
        (true, false, _) => inv.scope.as_str(),
        (true, true, true) => " --all-agents",
        (true, true, false) => "",
    };
    format!("openclaw-sessions{} {sub}{scope}", inv.store)
}

/// The command to import legacy stores, with this run's store and scope words (every agent
/// when it named none): for messages that name it themselves.
pub fn import_legacy() -> String {
    command(Remedy::ImportLegacy)
}

/// The command that adopts ACPX state, with this run's store words.
pub fn migrate_acpx() -> String {
    format!("`{}`", ours("migrate acpx", false, false))
}

/// The command (or words naming this tool) that carries out a remedy.
fn command(remedy: Remedy) -> String {
    match remedy {
        Remedy::ImportLegacy => format!("`{}`", ours("migrate legacy", true, true)),
        Remedy::RunDoctor => format!("run `{}`", ours("doctor", true, false)),
        Remedy::RunDoctorFull => format!("run `{}`", ours("doctor --full", true, false)),
        Remedy::RunDoctorFix => format!("run `{}`", ours("doctor --fix", true, false)),
        Remedy::DoctorFix => "`doctor --fix`".into(),
        Remedy::ClearStaleLocks => "`doctor --fix` (or `custody clear-stale`)".into(),
        Remedy::ListSessions => format!("`{}`", ours("list", true, false)),
        Remedy::ShowSessionJson => format!("`{}`", ours("show KEY --json", true, false)),
        Remedy::VerifySnapshot => format!("`{}`", ours("backup verify", false, false)),
        Remedy::RestoreSnapshot => {
            format!(
                "`{}`",
                ours("backup restore SNAPSHOT --in-place", false, false)
            )
        }
        Remedy::DamagedDatabase => format!(
            "see the damage with `{}`, then bring back a verified snapshot with `{}`",
            ours("doctor", true, false),
            ours("backup restore SNAPSHOT --in-place", false, false)
        ),
        Remedy::Prune => format!("run `{}`", ours("prune", true, false)),
        Remedy::MigrateAcpx => format!("run `{}`", ours("migrate acpx", false, false)),
        Remedy::TranscriptCat => format!("`{}`", ours("transcript cat", false, false)),
        Remedy::PatchLabel => format!("`{}`", ours("patch KEY --set label=...", false, false)),
        Remedy::OwnerWrites => Remedy::OwnerWrites.phrase().into(),
        Remedy::UpgradeSchema => format!("`{}`", ours("migrate schema", false, false)),
        Remedy::ReportBug => "a bug in openclaw-sessions".into(),
        Remedy::StateDirBelow => "pass it as --state-dir (or OPENCLAW_STATE_DIR)".into(),
        Remedy::ReplaceLiveSession => "add `--replace`".into(),
        Remedy::ReplaceFromSnapshot => format!(
            "replace it from a snapshot taken before the damage with `{}` (its current \
transcript is archived as delete archives it; `backup list` shows the snapshots)",
            ours(
                "backup restore SNAPSHOT --session KEY --replace --yes",
                false,
                false
            )
        ),
    }
}

/// A library text with its remedy named by our command.
pub fn render(text: &str, remedy: Option<Remedy>) -> String {
    match remedy {
        Some(r) if text.contains(r.phrase()) => text.replacen(r.phrase(), &command(r), 1),
        Some(r) if text.is_empty() => command(r),
        Some(r) => format!("{text} ({})", command(r)),
        None => text.to_string(),
    }
}

/// An error's hint, as printed.
pub fn error_hint(e: &Error) -> Option<String> {
    e.hint().map(|h| render(h, e.remedy()))
}

/// A store warning, as printed.
pub fn warning(w: &Warning) -> String {
    render(&w.message, w.remedy)
}

/// A doctor finding's hint, as printed and in `--json`.
pub fn finding_hint(f: &Finding) -> String {
    let hint = render(&f.hint, f.remedy);
    // A command the finding's own session fills in.
    match (f.remedy, &f.subject.session_key) {
        (Some(Remedy::ReplaceFromSnapshot), Some(key)) => hint.replace("KEY", &shell_word(key)),
        _ => hint,
    }
}

/// Doctor findings with their hints as printed, for `--json`.
pub fn findings(findings: &[Finding]) -> Vec<Finding> {
    findings
        .iter()
        .map(|f| Finding {
            hint: finding_hint(f),
            remedy: None,
            ..f.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library's hints read as they did when they named our commands themselves.
    #[test]
    fn library_hints_read_as_before() {
        for (text, remedy, printed) in [
            (
                "import it first with the legacy import",
                Remedy::ImportLegacy,
                "import it first with `openclaw-sessions migrate legacy --all-agents`",
            ),
            (
                "agent main: a legacy sessions.json is waiting for import (import it with the legacy import)",
                Remedy::ImportLegacy,
                "agent main: a legacy sessions.json is waiting for import (import it with `openclaw-sessions migrate legacy --all-agents`)",
            ),
            (
                "run the doctor to check the database",
                Remedy::RunDoctor,
                "run `openclaw-sessions doctor` to check the database",
            ),
            (
                "OpenClaw's import would rewrite every event id; run the doctor",
                Remedy::RunDoctor,
                "OpenClaw's import would rewrite every event id; run `openclaw-sessions doctor`",
            ),
            (
                "run the doctor's full check",
                Remedy::RunDoctorFull,
                "run `openclaw-sessions doctor --full`",
            ),
            (
                "move the existing file aside and run the doctor's repairs",
                Remedy::RunDoctorFix,
                "move the existing file aside and run `openclaw-sessions doctor --fix`",
            ),
            (
                "give a session key or session id; the session listing shows them",
                Remedy::ListSessions,
                "give a session key or session id; `openclaw-sessions list` shows them",
            ),
            (
                "re-read the session (its whole entry) and retry",
                Remedy::ShowSessionJson,
                "re-read the session (`openclaw-sessions show KEY --json`) and retry",
            ),
            (
                "verifying the snapshot shows the problems",
                Remedy::VerifySnapshot,
                "`openclaw-sessions backup verify` shows the problems",
            ),
            (
                "the file is damaged: restore the latest verified snapshot (in place)",
                Remedy::RestoreSnapshot,
                "the file is damaged: restore the latest verified snapshot (`openclaw-sessions backup restore SNAPSHOT --in-place`)",
            ),
            (
                "prune the store or raise session.maintenance.maxDiskBytes",
                Remedy::Prune,
                "run `openclaw-sessions prune` or raise session.maintenance.maxDiskBytes",
            ),
            (
                "adopt it with the ACPX migration, or pin plugins.entries.acpx.config.stateDir to it",
                Remedy::MigrateAcpx,
                "run `openclaw-sessions migrate acpx`, or pin plugins.entries.acpx.config.stateDir to it",
            ),
            (
                "use the raw transcript reader to read it raw",
                Remedy::TranscriptCat,
                "use `openclaw-sessions transcript cat` to read it raw",
            ),
            (
                "rename all but one with a label patch",
                Remedy::PatchLabel,
                "rename all but one with `openclaw-sessions patch KEY --set label=...`",
            ),
            (
                "OpenClaw refuses to read this store until the row is repaired; the doctor's repair re-projects the columns from entry_json",
                Remedy::DoctorFix,
                "OpenClaw refuses to read this store until the row is repaired; `doctor --fix` re-projects the columns from entry_json",
            ),
            (
                "derived rows: the doctor's repair removes them (OpenClaw rebuilds projections)",
                Remedy::DoctorFix,
                "derived rows: `doctor --fix` removes them (OpenClaw rebuilds projections)",
            ),
            (
                "the doctor's repair (or clearing stale locks) removes it",
                Remedy::ClearStaleLocks,
                "`doctor --fix` (or `custody clear-stale`) removes it",
            ),
            (
                "let the release that owns it write it",
                Remedy::OwnerWrites,
                "let the release that owns it write it",
            ),
            (
                "this is a bug in this tool; please report it",
                Remedy::ReportBug,
                "this is a bug in openclaw-sessions; please report it",
            ),
        ] {
            assert_eq!(render(text, Some(remedy)), printed);
        }
        assert_eq!(render("check the path", None), "check the path");
    }

    #[test]
    fn errors_carry_their_remedy_to_the_hint() {
        let e = Error::sqlite("/x.sqlite", rusqlite::Error::InvalidQuery);
        assert_eq!(
            error_hint(&e).as_deref(),
            Some("run `openclaw-sessions doctor` to check the database")
        );
        let e = Error::Conflict {
            message: "changed".into(),
            hint: Some("re-read the session (its whole entry) and retry".into()),
        }
        .with_remedy(Remedy::ShowSessionJson)
        .into_locked();
        assert_eq!(e.kind(), openclaw_sessions::ErrorKind::LockedSession);
        assert_eq!(e.to_string(), "changed");
        assert_eq!(
            error_hint(&e).as_deref(),
            Some("re-read the session (`openclaw-sessions show KEY --json`) and retry")
        );
    }
}
