//! The library's remedies, named by our commands. A library hint (of an error, a doctor
//! finding or a store warning) that carries a [`Remedy`] describes it in plain words, its
//! [`Remedy::phrase`]; here those words become the command that does it.

use openclaw_sessions::doctor::Finding;
use openclaw_sessions::remedy::Warning;
use openclaw_sessions::{Error, Remedy};

/// The command (or words naming this tool) that carries out a remedy.
fn command(remedy: Remedy) -> &'static str {
    match remedy {
        Remedy::ImportLegacy => "`openclaw-sessions migrate legacy`",
        Remedy::RunDoctor => "run `openclaw-sessions doctor`",
        Remedy::RunDoctorFull => "run `openclaw-sessions doctor --full`",
        Remedy::RunDoctorFix => "run `openclaw-sessions doctor --fix`",
        Remedy::DoctorFix => "`doctor --fix`",
        Remedy::ClearStaleLocks => "`doctor --fix` (or `custody clear-stale`)",
        Remedy::ListSessions => "`openclaw-sessions list`",
        Remedy::ShowSessionJson => "`openclaw-sessions show KEY --json`",
        Remedy::VerifySnapshot => "`openclaw-sessions backup verify`",
        Remedy::RestoreSnapshot => "`openclaw-sessions backup restore SNAPSHOT --in-place`",
        Remedy::DamagedDatabase => {
            "see the damage with `openclaw-sessions doctor`, then bring back a verified snapshot with `openclaw-sessions backup restore SNAPSHOT --in-place`"
        }
        Remedy::Prune => "run `openclaw-sessions prune`",
        Remedy::MigrateAcpx => "run `openclaw-sessions migrate acpx`",
        Remedy::TranscriptCat => "`openclaw-sessions transcript cat`",
        Remedy::PatchLabel => "`openclaw-sessions patch KEY --set label=...`",
        Remedy::Upgrade => "upgrade openclaw-sessions",
        Remedy::UpgradeSchema => "`openclaw-sessions migrate schema`",
        Remedy::ReportBug => "a bug in openclaw-sessions",
    }
}

/// A library text with its remedy named by our command.
pub fn render(text: &str, remedy: Option<Remedy>) -> String {
    match remedy {
        Some(r) if text.contains(r.phrase()) => text.replacen(r.phrase(), command(r), 1),
        Some(r) if text.is_empty() => command(r).to_string(),
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
    render(&f.hint, f.remedy)
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
                "import it first with `openclaw-sessions migrate legacy`",
            ),
            (
                "agent main: a legacy sessions.json is waiting for import (import it with the legacy import)",
                Remedy::ImportLegacy,
                "agent main: a legacy sessions.json is waiting for import (import it with `openclaw-sessions migrate legacy`)",
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
                "upgrade this tool",
                Remedy::Upgrade,
                "upgrade openclaw-sessions",
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
