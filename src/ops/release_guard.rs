//! Never cut a release off its own store (docs/openclaw/RELEASES.md, "What each release does
//! with another's store"): an OpenClaw release refuses a whole store when one database in it
//! is newer than it knows, and a release before SQLite sessions never looks at SQLite at all.
//! So an import that creates a database at the schema this tool writes is refused where the
//! release that owns the state dir would lose sight of it.

use crate::error::{Error, Result};
use crate::paths::StateLayout;
use crate::remedy::Remedy;
use crate::store::releases::{self, DatabaseSchema};
use crate::store::DatabaseRole;

/// Refuse an import (creating the agent databases of `creates`, writing the state database)
/// in a state dir whose release would no longer open it, naming the release and the choices.
pub fn check_import(layout: &StateLayout, creates: &[&str]) -> Result<()> {
    check_import_beside(&crate::status::database_schemas(layout), creates)
}

fn check_import_beside(existing: &[DatabaseSchema], creates: &[&str]) -> Result<()> {
    let written = releases::written();
    let state = existing.iter().find(|d| d.role == DatabaseRole::Global);
    let sqlite_sessions = existing
        .iter()
        .any(|d| d.role == DatabaseRole::Agent && d.schema > 1);
    let pre_sqlite = match state {
        Some(s) => s.schema <= 1,
        None => existing.iter().any(|d| d.schema <= 1) && !sqlite_sessions,
    };
    if pre_sqlite {
        let owner = existing
            .iter()
            .find(|d| d.schema <= 1)
            .expect("a pre-SQLite database");
        let first_sqlite = releases::RELEASES
            .iter()
            .find(|r| r.has_sqlite_sessions() && !r.version.contains("beta"))
            .map_or(written.version, |r| r.version);
        return Err(Error::UnsupportedSchema {
            message: format!(
                "this state dir belongs to {} ({} at schema {}), which keeps its sessions in sessions.json and never reads SQLite: after an import it would list none of them and start a new sessions.json; nothing was changed",
                releases::describe(owner.role, owner.schema),
                owner.label,
                owner.schema,
            ),
            hint: Some(format!(
                "upgrade OpenClaw first (to {first_sqlite} or newer; {written} or newer to use this tool's import): its `openclaw doctor --fix` migrates the state database, and then the import of either tool works",
                written = written.version,
            )),
        });
    }
    let older: Vec<&DatabaseSchema> = existing
        .iter()
        .filter(|d| {
            let own = match d.role {
                DatabaseRole::Agent => written.agent_schema,
                DatabaseRole::Global => written.state_schema,
            };
            d.schema < own
        })
        .collect();
    if older.is_empty() {
        return Ok(());
    }
    let verdict = releases::judge(existing);
    let owner = if verdict.agree() {
        format!("OpenClaw {}", releases::span(&verdict.as_is))
    } else {
        "older OpenClaw releases".to_string()
    };
    let creating = if creates.is_empty() {
        String::new()
    } else {
        format!(
            "create {} at schema {} (OpenClaw {}) and ",
            creates
                .iter()
                .map(|a| format!("agent {a}"))
                .collect::<Vec<_>>()
                .join(", "),
            written.agent_schema,
            written.version
        )
    };
    Err(Error::UnsupportedSchema {
        message: format!(
            "this state dir belongs to {owner} ({}); the import would {creating}write databases at the schema of OpenClaw {}, and a release refuses a whole store with one database newer than it knows, so {owner} could no longer open it; nothing was changed",
            older
                .iter()
                .map(|d| d.describe())
                .collect::<Vec<_>>()
                .join(", "),
            written.version,
        ),
        hint: Some(format!(
            "either upgrade OpenClaw to {w} or newer first and run its `openclaw doctor --fix` (one-way), then import; or bring the existing databases to schema {a} with the schema upgrade of this tool (one-way: releases before {w} can no longer open the store), then import; importing at an older release's own schema is not available yet",
            w = written.version,
            a = written.agent_schema,
        )),
    }
    .with_remedy(Remedy::UpgradeSchema))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_import_beside_its_own_release_or_nothing_is_allowed() {
        assert!(check_import_beside(&[], &["main"]).is_ok());
        let current = [DatabaseSchema::state(18), DatabaseSchema::agent("work", 23)];
        assert!(check_import_beside(&current, &["main"]).is_ok());
    }

    #[test]
    fn an_import_beside_an_older_release_is_refused_naming_it() {
        let e = check_import_beside(
            &[DatabaseSchema::state(15), DatabaseSchema::agent("work", 19)],
            &["main"],
        )
        .unwrap_err();
        let m = e.to_string();
        assert!(m.contains("OpenClaw 2026.8.1 to 2026.9.2"), "{m}");
        assert!(m.contains("create agent main at schema 23"), "{m}");
        assert_eq!(e.remedy(), Some(Remedy::UpgradeSchema));
    }

    #[test]
    fn an_import_into_a_pre_sqlite_store_is_refused() {
        let e = check_import_beside(&[DatabaseSchema::state(1)], &["main"]).unwrap_err();
        let m = e.to_string();
        assert!(m.contains("OpenClaw 2026.7.35 and older"), "{m}");
        assert!(m.contains("sessions.json"), "{m}");
        assert!(e.hint().unwrap().contains("2026.8.1 or newer"));
    }
}
