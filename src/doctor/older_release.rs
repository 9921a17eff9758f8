//! `doctor --fix` on an older release's agent database (schemas 19 and 21): only the repairs
//! that release's own `openclaw doctor --fix` makes, the way it makes them
//! (docs/openclaw/RELEASES.md §6, proven by the reference check `release_doctor_fix`).
//!
//! Both 2026.8.2's and 2026.9.5's doctors (and 2026.9.1 to 2026.9.4's, which act as
//! 2026.8.2's) rewrite every entry through their entry writer, which projects the
//! `session_nodes` columns from `entry_json` again: a lineage or label column out of step is
//! re-projected, as ours does. Their canonical-key repair rebuilds an unreadable entry
//! (`entry_json` not JSON, or not an object) from the row's columns
//! (`hydrateCanonicalRepairEntry`), moves a row under a non-canonical key to its canonical
//! one and rewrites a non-canonical lineage value normalized, as ours does, writing the row
//! as that repair does (`as_canonical_repair`). While any agent database fails
//! `foreign_key_check`, none repairs a column in any database: 2026.8.2 skips that database
//! ("Skipped agent database migration") and its transcript and entry repairs fail for every
//! agent; 2026.9.5 stops before any database repair ("Doctor stopped because a state
//! migration refused to continue"); orphan rows always fail it on 19 and 21. None publishes
//! a missing archive file again: that and the other repairs stay findings there.

use super::{Finding, Repair};
use crate::remedy::Remedy;
use crate::store::releases;

/// The older agent schemas whose release's doctor repairs are mirrored (2026.8.2's, 2026.9.5's).
pub const SCHEMAS: &[i64] = crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

/// Why no repair of a database is made: its foreign keys, or another database's, which stop
/// its release's repairs everywhere.
pub(super) enum Stop {
    None,
    /// This database fails `foreign_key_check`.
    OwnForeignKeys,
    /// Another database of the store fails it.
    OtherForeignKeys {
        agent: String,
    },
}

/// The releases whose doctors were compared, for each of `SCHEMAS`: on 19 2026.8.2's and
/// 2026.9.1 to 2026.9.4's act alike (`release_doctor_fix`, `release_doctor_fix_19_of_2026_9_*`),
/// so a hint names them all, whichever owns the store.
fn proven_releases(schema: i64) -> &'static str {
    if schema == 21 {
        "2026.9.5"
    } else {
        "2026.8.2 to 2026.9.4"
    }
}

/// The repairs that change the agent database itself (the others act on files and locks).
fn repairs_database(r: &Repair) -> bool {
    !matches!(
        r,
        Repair::ClearStaleLocks
            | Repair::RemoveLeftover { .. }
            | Repair::RecoverCrashState { .. }
            | Repair::SetAsideEmpty { .. }
    )
}

/// The repairs both releases' doctors make as ours does (compared row for row).
fn made_by_release(r: &Repair) -> bool {
    matches!(
        r,
        Repair::ReprojectColumns { .. }
            | Repair::RebuildUnreadableEntry { .. }
            | Repair::CanonicalizeKeys { .. }
    )
}

/// Whether a repair that rewrites an entry at `schema` writes it as that release's doctor does,
/// through its canonical-key repair (`repairCanonicalSessionKeys`): the entry upserted by its
/// entry writer, so the window too (`retainWindow`), and the key never certified (it stays on
/// the canonical-validation queue where 21 has one). 2026.9.6's doctor (23) certifies a
/// rebuilt entry and moves a key without rewriting its window.
pub(super) fn as_canonical_repair(schema: i64) -> bool {
    SCHEMAS.contains(&schema)
}

/// Turn every repair of `findings` (one agent database of `schema`) that its release's own
/// doctor does not make into a finding left for a human, naming why and the upgrade.
pub(super) fn restrict(findings: &mut [Finding], schema: i64, stop: &Stop) {
    let release = proven_releases(schema);
    let upgrade = crate::store::upgrade_hint(releases::written().version);
    for f in findings.iter_mut() {
        let Some(repair) = &f.repair else { continue };
        if !repairs_database(repair) {
            continue;
        }
        let why = match stop {
            Stop::OwnForeignKeys => format!(
                "the doctor of OpenClaw {release} repairs no database while this one fails foreign_key_check, so this tool repairs none at its schema {schema} either"
            ),
            Stop::OtherForeignKeys { agent } => format!(
                "the doctor of OpenClaw {release} repairs no database while the database of agent {agent} fails foreign_key_check, so this tool repairs none at its schema {schema} either"
            ),
            Stop::None if made_by_release(repair) => continue,
            Stop::None => format!(
                "the doctor of OpenClaw {release} does not make this repair, so this tool does not make it at its schema {schema}"
            ),
        };
        f.repair = None;
        f.fixable = false;
        f.remedy = Some(Remedy::UpgradeSchema);
        f.hint = format!("{why}; {upgrade}");
    }
}
