//! Never cut a release off its own store (docs/openclaw/RELEASES.md, "What each release does
//! with another's store"): an OpenClaw release refuses a whole store when one database in it
//! is newer than it knows, and a release before SQLite sessions never looks at SQLite at all.
//! So an import writes the schema of the release that owns the state dir, as that release's
//! own import would, where this tool reproduces that release's import; elsewhere it is refused
//! where the owning release would lose sight of it.

use crate::error::{Error, Result};
use crate::paths::StateLayout;
use crate::remedy::Remedy;
use crate::store::db::create::ReleaseSchema;
use crate::store::releases::{self, Access, DatabaseSchema};
use crate::store::DatabaseRole;

/// The release schema `--schema-of-release VERSION` names: a release whose import this tool
/// reproduces; another known release is refused as unproven, anything else is not a release.
pub fn schema_of_release(version: &str) -> Result<&'static ReleaseSchema> {
    if let Some(r) = ReleaseSchema::of_release(version) {
        return Ok(r);
    }
    if releases::RELEASES.iter().any(|r| r.version == version) {
        return Err(Error::UnsupportedSchema {
            message: format!(
                "importing at the schema of OpenClaw {version} is not available: this tool reproduces the imports of OpenClaw {} only; nothing was changed",
                ReleaseSchema::names()
            ),
            hint: Some(format!(
                "run OpenClaw {version}'s own `openclaw doctor --session-sqlite import`, or choose one of {}",
                ReleaseSchema::names()
            )),
        });
    }
    Err(Error::InvalidArgument {
        message: format!("{version:?} is not an OpenClaw release this tool knows"),
        hint: Some(format!(
            "--schema-of-release takes one of {}",
            ReleaseSchema::names()
        )),
    })
}

/// The release whose schema an import (creating the agent databases of `creates`, writing
/// the state database) writes in this state dir: `chosen` when given and every database there
/// stays open to it, else the release that owns the state dir; refused where that release
/// would no longer open the store and this tool does not reproduce its import.
pub fn import_release(
    layout: &StateLayout,
    creates: &[&str],
    chosen: Option<&'static ReleaseSchema>,
) -> Result<&'static ReleaseSchema> {
    // The release the state database names (`schema_meta.app_version`): the one that created
    // it, or the last that upgraded it (2026.9.x writes its own name there when it runs).
    let state_release = crate::status::database_status(&layout.state_db(), DatabaseRole::Global)
        .schema
        .and_then(|s| s.app_version);
    import_release_beside(
        &crate::status::database_schemas(layout),
        state_release.as_deref(),
        creates,
        chosen,
    )
}

fn release_named(schema: &ReleaseSchema) -> &'static releases::Release {
    releases::RELEASES
        .iter()
        .find(|r| r.version == schema.version)
        .expect("every release schema is a release of the table")
}

fn import_release_beside(
    existing: &[DatabaseSchema],
    state_release: Option<&str>,
    creates: &[&str],
    chosen: Option<&'static ReleaseSchema>,
) -> Result<&'static ReleaseSchema> {
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
    if let Some(chosen) = chosen {
        let release = release_named(chosen);
        // A database the chosen release would refuse, or open only after its doctor's
        // one-way upgrade, is not its store.
        let foreign: Vec<&DatabaseSchema> = existing
            .iter()
            .filter(|d| {
                !matches!(
                    releases::access(release, d.role, d.schema),
                    Access::Opens | Access::Upgrades
                )
            })
            .collect();
        if foreign.is_empty() {
            return Ok(chosen);
        }
        return Err(Error::UnsupportedSchema {
            message: format!(
                "OpenClaw {} does not open this state dir as it is ({}); an import at its schema would leave a store no release opens; nothing was changed",
                chosen.version,
                foreign
                    .iter()
                    .map(|d| d.describe())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            hint: Some(
                "leave out --schema-of-release to import at the schema of the release that owns the state dir".into(),
            ),
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
        return Ok(ReleaseSchema::current());
    }
    let verdict = releases::judge(existing);
    // The owner's own import, where this tool reproduces it, among the releases that open
    // every database as it is: the one the state database names (2026.8.x, 2026.9.1 and
    // 2026.9.2 all open a store at 19/15, and 2026.9.2's import adds an index), else the
    // oldest, whose store the others open too (but for an agent database at 19 beside an
    // unnamed state database at 17, which 2026.9.5 would need its doctor for).
    let owners: Vec<&'static ReleaseSchema> = crate::store::db::create::RELEASE_SCHEMAS
        .iter()
        .filter(|s| verdict.as_is.iter().any(|r| r.version == s.version))
        .collect();
    let named = state_release.and_then(ReleaseSchema::of_named_release);
    if let Some(owner) = owners
        .iter()
        .find(|s| named.is_some_and(|n| std::ptr::eq(n, **s)))
        .or(owners.first())
    {
        return Ok(owner);
    }
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
            "either upgrade OpenClaw to {w} or newer first and run its `openclaw doctor --fix` (one-way), then import; or bring the existing databases to schema {a} with the schema upgrade of this tool (one-way: releases before {w} can no longer open the store), then import; this tool imports at an older release's own schema only for OpenClaw {older_proven}",
            w = written.version,
            a = written.agent_schema,
            older_proven = crate::store::db::create::RELEASE_SCHEMAS
                [..crate::store::db::create::RELEASE_SCHEMAS.len() - 1]
                .iter()
                .map(|r| r.version)
                .collect::<Vec<_>>()
                .join(", "),
        )),
    }
    .with_remedy(Remedy::UpgradeSchema))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(existing: &[DatabaseSchema], chosen: Option<&str>) -> Result<&'static str> {
        named_at(existing, None, chosen)
    }

    fn named_at(
        existing: &[DatabaseSchema],
        state_release: Option<&str>,
        chosen: Option<&str>,
    ) -> Result<&'static str> {
        let chosen = chosen.map(|v| ReleaseSchema::of_release(v).unwrap());
        import_release_beside(existing, state_release, &["main"], chosen).map(|r| r.version)
    }

    #[test]
    fn an_import_beside_its_own_release_or_nothing_is_at_the_current_schema() {
        assert_eq!(at(&[], None).unwrap(), "2026.9.6");
        let current = [DatabaseSchema::state(18), DatabaseSchema::agent("work", 23)];
        assert_eq!(at(&current, None).unwrap(), "2026.9.6");
    }

    #[test]
    fn an_import_beside_a_proven_older_release_is_at_its_schema() {
        let r82 = [DatabaseSchema::state(15), DatabaseSchema::agent("work", 19)];
        assert_eq!(at(&r82, None).unwrap(), "2026.8.2");
        assert_eq!(at(&[DatabaseSchema::state(15)], None).unwrap(), "2026.8.2");
        let r95 = [DatabaseSchema::state(17), DatabaseSchema::agent("work", 21)];
        assert_eq!(at(&r95, None).unwrap(), "2026.9.5");
    }

    #[test]
    fn an_import_beside_a_2026_9_release_is_at_the_schema_of_the_one_the_state_database_names() {
        let r93 = [DatabaseSchema::state(16), DatabaseSchema::agent("work", 19)];
        assert_eq!(named_at(&r93, Some("2026.9.3"), None).unwrap(), "2026.9.3");
        assert_eq!(at(&r93, None).unwrap(), "2026.9.3");
        let r94 = [DatabaseSchema::state(17), DatabaseSchema::agent("work", 19)];
        assert_eq!(named_at(&r94, Some("2026.9.4"), None).unwrap(), "2026.9.4");
        // A state database at 15 is opened by 2026.8.x, 2026.9.1 and 2026.9.2: its name says
        // whose import; a 2026.8 one is 2026.8.2's, an unnamed one too.
        let r15 = [DatabaseSchema::state(15), DatabaseSchema::agent("work", 19)];
        for (named, import) in [
            (Some("2026.9.1"), "2026.9.1"),
            (Some("2026.9.2"), "2026.9.2"),
            (Some("2026.8.1"), "2026.8.2"),
            (None, "2026.8.2"),
        ] {
            assert_eq!(named_at(&r15, named, None).unwrap(), import, "{named:?}");
        }
        // A name that does not open every database as it is says nothing.
        assert_eq!(named_at(&r15, Some("2026.9.3"), None).unwrap(), "2026.8.2");
        assert_eq!(named_at(&r94, Some("2026.9.5"), None).unwrap(), "2026.9.4");
    }

    #[test]
    fn an_import_beside_an_unproven_older_release_is_refused_naming_it() {
        // 2026.8.1-beta.1 (agent 16, state 6): its import is not reproduced.
        let e = at(
            &[DatabaseSchema::state(6), DatabaseSchema::agent("work", 16)],
            None,
        )
        .unwrap_err();
        let m = e.to_string();
        assert!(m.contains("OpenClaw 2026.8.1-beta.1"), "{m}");
        assert!(m.contains("create agent main at schema 23"), "{m}");
        assert!(
            e.hint().unwrap().contains("2026.8.2, 2026.9.1"),
            "{:?}",
            e.hint()
        );
        assert_eq!(e.remedy(), Some(Remedy::UpgradeSchema));
    }

    #[test]
    fn a_chosen_release_must_open_every_database() {
        assert_eq!(at(&[], Some("2026.8.2")).unwrap(), "2026.8.2");
        // 2026.9.5 upgrades a state database 15 itself.
        assert_eq!(
            at(&[DatabaseSchema::state(15)], Some("2026.9.5")).unwrap(),
            "2026.9.5"
        );
        let r82 = [DatabaseSchema::state(15), DatabaseSchema::agent("work", 19)];
        let e = at(&r82, Some("2026.9.5")).unwrap_err();
        assert!(e.to_string().contains("agent work at schema 19"), "{e}");
        let e = at(&[DatabaseSchema::state(18)], Some("2026.8.2")).unwrap_err();
        assert!(
            e.to_string().contains("the state database at schema 18"),
            "{e}"
        );
    }

    #[test]
    fn the_release_named_must_be_one_whose_import_is_reproduced() {
        assert_eq!(schema_of_release("2026.9.5").unwrap().agent_schema, 21);
        assert_eq!(schema_of_release("2026.9.4").unwrap().state_schema, 17);
        assert!(matches!(
            schema_of_release("2026.8.1-beta.1"),
            Err(Error::UnsupportedSchema { .. })
        ));
        assert!(matches!(
            schema_of_release("9.5"),
            Err(Error::InvalidArgument { .. })
        ));
    }

    #[test]
    fn an_import_into_a_pre_sqlite_store_is_refused() {
        for chosen in [None, Some("2026.8.2")] {
            let e = at(&[DatabaseSchema::state(1)], chosen).unwrap_err();
            let m = e.to_string();
            assert!(m.contains("OpenClaw 2026.7.35 and older"), "{m}");
            assert!(m.contains("sessions.json"), "{m}");
            assert!(e.hint().unwrap().contains("2026.8.1 or newer"));
        }
    }
}
