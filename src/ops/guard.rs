//! The pipeline's guards on every database a plan changes, checked before anything changes
//! (dry runs included, so that they show the same refusal): the database is an SQLite file of
//! the schema this tool writes, it belongs to the agent whose place it sits in (its
//! `schema_meta`, as OpenClaw's SDK checks before opening one), and its B-trees pass `quick_check`.
//! See docs/openclaw/HOSTILE.md, section 3.

use crate::backup::SnapshotSource;
use crate::error::{Error, Remedy, Result, ResultExt};
use crate::paths::StateLayout;
use crate::store::db::meta;
use crate::store::{require_sqlite_file, DatabaseRole, ReadOnlyDb, SchemaInfo, SchemaStatus};

/// What an operation may do with a database that fails `quick_check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DamagedStore {
    /// Refuse before any change (every operation but the two below).
    Refused,
    /// Run: the operation's repairs are the ones declared safe on a damaged store.
    Repaired,
    /// Run without looking: the operation replaces the database whole with a verified
    /// snapshot (the remedy the refusal names), so nothing of the old file is trusted.
    Replaced,
}

/// How many complaints of `quick_check` a refusal quotes.
const QUOTED_PROBLEMS: usize = 3;

/// The schema guard alone, on the agent databases of `agents` that exist and hold sessions:
/// each must be of the schema this tool writes, or one of the operation's proven older ones
/// (`also`). Cheap (no page is checked), so it runs before custody.
pub fn check_schemas(agents: &[crate::paths::AgentPaths], also: &[i64]) -> Result<()> {
    for agent in agents {
        if !agent.db.is_file() {
            continue;
        }
        // A file that is not a readable session database is the later guards' (and the
        // doctor's repairs') to judge: only the schema is refused here.
        let Ok(ro) = require_sqlite_file(&agent.db).and_then(|()| ReadOnlyDb::open(&agent.db))
        else {
            continue;
        };
        if !meta::table_exists(ro.conn(), "session_nodes") {
            // Not a session database (2026.7's): nothing of it is written.
            continue;
        }
        if let Ok(info) = SchemaInfo::read(&ro, DatabaseRole::Agent) {
            info.require_writable_of(&agent.db, also)?;
        }
    }
    Ok(())
}

/// The release check of the whole state dir, before any change (issue 55 item 5): an OpenClaw
/// release refuses a whole store when one of its databases is newer than it knows
/// (docs/openclaw/RELEASES.md), so a state dir with any database newer than this tool writes,
/// the state database or any agent's (in the run's scope or not), belongs to a newer release,
/// and nothing of it is written by this tool. A file that is not a readable database is left
/// to the later guards and the doctor.
pub fn check_state_dir_release(layout: &StateLayout) -> Result<()> {
    let mut newer: Vec<(std::path::PathBuf, SchemaInfo)> = Vec::new();
    let mut consider = |db: std::path::PathBuf, role: DatabaseRole| {
        if !db.is_file() {
            return;
        }
        let Ok(ro) = require_sqlite_file(&db).and_then(|()| ReadOnlyDb::open(&db)) else {
            return;
        };
        if let Ok(info) = SchemaInfo::read(&ro, role) {
            if info.status == SchemaStatus::Newer {
                newer.push((db, info));
            }
        }
    };
    consider(layout.state_db(), DatabaseRole::Global);
    for id in layout.known_agents().0 {
        consider(layout.agent(&id).db, DatabaseRole::Agent);
    }
    let Some((_, first)) = newer.first() else {
        return Ok(());
    };
    let written = crate::store::releases::written();
    // The release the database names, unless it names one this tool knows (whose schema is
    // not this one: a relabelled or hand-made file).
    let owner = first.app_version.clone().filter(|v| {
        !crate::store::releases::RELEASES
            .iter()
            .any(|r| r.version == v)
    });
    Err(Error::UnsupportedSchema {
        message: format!(
            "this state dir belongs to {}: {}; this tool writes the stores of the releases it has proven, up to OpenClaw {} (state schema {}, agent schema {}), and that release refuses the whole store; nothing was changed",
            match &owner {
                Some(v) => format!("OpenClaw {v}"),
                None => "a release newer than this tool knows".into(),
            },
            newer
                .iter()
                .map(|(db, info)| format!("{} has {}", db.display(), info.provenance()))
                .collect::<Vec<_>>()
                .join("; "),
            written.version,
            written.state_schema,
            written.agent_schema,
        ),
        hint: Some(crate::store::owner_routes_hint(owner.as_deref())),
    }
    .with_remedy(Remedy::OwnerWrites))
}

/// Check every existing database of `sources`; the first refusal in their order is returned.
/// The databases are checked side by side, one a core: `quick_check` reads every page.
pub fn check_databases(
    sources: &[SnapshotSource],
    damaged: DamagedStore,
    older_schema: bool,
    also: &[i64],
) -> Result<()> {
    if damaged == DamagedStore::Replaced {
        return Ok(());
    }
    crate::parallel::map_in_order(
        sources.iter().collect(),
        crate::parallel::cores(),
        |source| check_database(source, damaged, older_schema, also),
    )
    .into_iter()
    .collect()
}

fn check_database(
    source: &SnapshotSource,
    damaged: DamagedStore,
    older_schema: bool,
    also: &[i64],
) -> Result<()> {
    let db = source.db();
    if !db.is_file() {
        return Ok(());
    }
    let (role, agent) = match source {
        SnapshotSource::Agent { agent_id, .. } => (DatabaseRole::Agent, Some(agent_id)),
        SnapshotSource::Global { .. } => (DatabaseRole::Global, None),
    };
    require_sqlite_file(db)?;
    let ro = ReadOnlyDb::open(db)?;
    let info = SchemaInfo::read(&ro, role)?;
    // The state database only must not be newer (this tool writes one plugin-state row
    // there); an agent database must be the known schema.
    let taken_as_is = older_schema && info.status == SchemaStatus::Older;
    if (role == DatabaseRole::Agent || info.status == SchemaStatus::Newer) && !taken_as_is {
        info.require_writable_of(db, also)?;
    }
    if let (Some(want), Some(owner)) = (agent, &info.agent_id) {
        if owner != want {
            return Err(Error::Conflict {
                message: format!(
                    "{} belongs to agent {owner}; requested agent {want}",
                    db.display()
                ),
                hint: Some(format!(
                    "a database sits in another agent's place: move it back under agent {owner}, or run the doctor"
                )),
            }
            .with_remedy(Remedy::RunDoctor));
        }
    }
    if damaged == DamagedStore::Refused {
        let problems = meta::btree_check(ro.conn(), QUOTED_PROBLEMS).at(db)?;
        if !problems.is_empty() {
            return Err(Error::Conflict {
                message: format!(
                    "{} fails SQLite's quick_check ({}); nothing was changed",
                    db.display(),
                    problems.join("; ")
                ),
                hint: Some(
                    "see the damage with the doctor, then bring back a verified snapshot in place; only the doctor's repairs run on a damaged database"
                        .into(),
                ),
            }
            .with_remedy(Remedy::DamagedDatabase));
        }
    }
    Ok(())
}
