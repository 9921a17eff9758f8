//! Creating the databases a legacy import writes into, with the schema of the release the
//! import is for: OpenClaw 2026.9.6's, or that of an older release whose import is proven
//! (the `sqlite_master` dumps of databases each release created, in creation order;
//! docs/openclaw/RELEASES.md §1-3).

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection};

use crate::error::{Result, ResultExt};
use crate::store::{
    KNOWN_AGENT_SCHEMA as AGENT_SCHEMA_VERSION, KNOWN_STATE_SCHEMA as STATE_SCHEMA_VERSION,
};

pub(crate) const AGENT_SQL: &str = include_str!("schema/agent.sql");
pub(crate) const STATE_SQL: &str = include_str!("schema/state.sql");
/// The OpenClaw release whose schema and writers this import reproduces by default: the
/// newest of the release table.
pub const OPENCLAW_VERSION: &str =
    crate::store::releases::RELEASES[crate::store::releases::RELEASES.len() - 1].version;

/// The databases a release's own import creates: its `user_version`s and its schema dumps.
/// The older releases' dumps are the `before` dumps of their upgrade paths, which are the
/// schemas of the databases their own import wrote (the test below ties each to the
/// fixture that release wrote).
#[derive(Debug, PartialEq, Eq)]
pub struct ReleaseSchema {
    /// The release named in `schema_meta.app_version` and the migration manifest.
    pub version: &'static str,
    pub agent_schema: i64,
    pub state_schema: i64,
    agent_sql: &'static str,
    state_sql: &'static str,
}

// The dumps of the releases' own imports, shared where they are byte-identical: 2026.8.1 to
// 2026.9.1 create the same agent 19, 2026.9.2 to 2026.9.4 another (one index more); the state
// databases are 2026.8.x's 15 (also 2026.9.1's and 2026.9.2's), 2026.9.3's 16, 2026.9.4's 17 and
// 2026.9.5's 17 (docs/openclaw/RELEASES.md §1-3).
const AGENT_19_OF_2026_8: &str =
    include_str!("schema/upgrade/agent-19-to-23.from-2026.8.2.before.sql");
const AGENT_19_OF_2026_9: &str =
    include_str!("schema/upgrade/agent-19-to-23.from-2026.9.4.before.sql");
const STATE_15: &str = include_str!("schema/upgrade/state-15-to-18.from-2026.8.2.before.sql");

/// Every release a legacy import can create databases for, oldest first; the last is the
/// one this tool writes.
pub static RELEASE_SCHEMAS: [ReleaseSchema; 7] = [
    ReleaseSchema {
        version: "2026.8.2",
        agent_schema: 19,
        state_schema: 15,
        agent_sql: AGENT_19_OF_2026_8,
        state_sql: STATE_15,
    },
    ReleaseSchema {
        version: "2026.9.1",
        agent_schema: 19,
        state_schema: 15,
        agent_sql: AGENT_19_OF_2026_8,
        state_sql: STATE_15,
    },
    ReleaseSchema {
        version: "2026.9.2",
        agent_schema: 19,
        state_schema: 15,
        agent_sql: AGENT_19_OF_2026_9,
        state_sql: STATE_15,
    },
    ReleaseSchema {
        version: "2026.9.3",
        agent_schema: 19,
        state_schema: 16,
        agent_sql: AGENT_19_OF_2026_9,
        state_sql: include_str!("schema/upgrade/state-16-to-18.from-2026.9.3.before.sql"),
    },
    ReleaseSchema {
        version: "2026.9.4",
        agent_schema: 19,
        state_schema: 17,
        agent_sql: AGENT_19_OF_2026_9,
        state_sql: include_str!("schema/upgrade/state-17-to-18.from-2026.9.4.before.sql"),
    },
    ReleaseSchema {
        version: "2026.9.5",
        agent_schema: 21,
        state_schema: 17,
        agent_sql: include_str!("schema/upgrade/agent-21-to-23.from-2026.9.5.before.sql"),
        state_sql: include_str!("schema/upgrade/state-17-to-18.from-2026.9.5.before.sql"),
    },
    ReleaseSchema {
        version: OPENCLAW_VERSION,
        agent_schema: AGENT_SCHEMA_VERSION,
        state_schema: STATE_SCHEMA_VERSION,
        agent_sql: AGENT_SQL,
        state_sql: STATE_SQL,
    },
];

impl ReleaseSchema {
    /// The schema this tool writes (OpenClaw 2026.9.6's).
    pub fn current() -> &'static ReleaseSchema {
        &RELEASE_SCHEMAS[RELEASE_SCHEMAS.len() - 1]
    }

    /// The schema of `version`'s own import, when this tool reproduces it.
    pub fn of_release(version: &str) -> Option<&'static ReleaseSchema> {
        RELEASE_SCHEMAS.iter().find(|r| r.version == version)
    }

    /// The import to reproduce for the release a database's `schema_meta.app_version` names:
    /// that release's, or 2026.8.2's for any 2026.8 release (2026.8.1 creates the same schemas).
    pub fn of_named_release(app_version: &str) -> Option<&'static ReleaseSchema> {
        Self::of_release(app_version).or_else(|| {
            app_version
                .strip_prefix("2026.8.")
                .filter(|rest| rest.parse::<u32>().is_ok())
                .and_then(|_| Self::of_release("2026.8.2"))
        })
    }

    /// The releases named, for a message: `2026.8.2, 2026.9.5, 2026.9.6`.
    pub fn names() -> String {
        RELEASE_SCHEMAS
            .iter()
            .map(|r| r.version)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The dump without what SQLite creates by itself: FTS5 shadow tables (quoted names) and
/// `sqlite_sequence`.
pub(crate) fn creatable(sql: &str) -> String {
    sql.lines()
        .filter(|l| {
            !l.starts_with("CREATE TABLE '") && !l.starts_with("CREATE TABLE sqlite_sequence")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A database built under a temporary name beside its final path (`<name>.creating-<pid>`),
/// not yet visible there. Until [`StagedDb::publish`], nothing reads it and nothing else writes
/// it: a legacy import fills a new agent database here without a rollback journal or WAL
/// (docs/openclaw/IMPORT.md, "How this import is fast"). Dropped unpublished (an error, a
/// panic), it is removed; a killed run leaves it for the next mutation to remove (a leftover).
pub struct StagedDb {
    path: PathBuf,
    stage: PathBuf,
    published: bool,
}

/// Whether `name` is the stage of a database being created (`StagedDb`) or one of its
/// sidecars.
pub fn is_creation_stage(name: &str) -> bool {
    name.contains(".sqlite.creating-")
}

/// The pid a creation stage's name carries (`….sqlite.creating-<pid>`, a sidecar's too).
pub fn creation_stage_pid(name: &str) -> Option<i64> {
    let (_, tail) = name.split_once(".sqlite.creating-")?;
    let digits = tail.split('-').next()?;
    digits.parse().ok().filter(|&pid| pid > 0)
}

impl StagedDb {
    /// The file to write while staged.
    pub fn stage_path(&self) -> &Path {
        &self.stage
    }

    /// Make the staged database durable and give it its final name, never replacing a file
    /// there: WAL mode (as OpenClaw keeps its databases), fsync, hard link, unlink the stage,
    /// flush the directory. A crash leaves either no database or a complete one.
    pub fn publish(mut self) -> Result<()> {
        let stage = &self.stage;
        {
            let conn = Connection::open(stage).at(stage)?;
            conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))
                .at(stage)?;
        }
        std::fs::File::open(stage)
            .and_then(|f| f.sync_all())
            .at(stage)?;
        crate::fsutil::hard_link_new(stage, &self.path)?;
        self.published = true;
        std::fs::remove_file(stage).at(stage)?;
        if let Some(dir) = self.path.parent() {
            crate::fsutil::fsync_dir(dir)?;
        }
        Ok(())
    }
}

impl Drop for StagedDb {
    fn drop(&mut self) {
        if !self.published {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                let mut p = self.stage.clone().into_os_string();
                p.push(suffix);
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

/// Build a database with `sql` at a stage beside `path` (see [`StagedDb`]).
fn stage(
    path: &Path,
    sql: &str,
    user_version: i64,
    seed: impl FnOnce(&Connection) -> rusqlite::Result<()>,
) -> Result<StagedDb> {
    if let Some(dir) = path.parent() {
        crate::fsutil::create_private_dir_all(dir)?;
    }
    // Leftovers of crashed creations are ours to remove: they were never published.
    if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
        let prefix = format!("{}.creating-", name.to_string_lossy());
        for e in std::fs::read_dir(dir).at(dir)?.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    let tmp = path.with_extension(format!("sqlite.creating-{}", std::process::id()));
    drop(crate::fsutil::create_new_private(&tmp)?);
    let staged = StagedDb {
        path: path.to_path_buf(),
        stage: tmp,
        published: false,
    };
    let tmp = &staged.stage;
    let conn = Connection::open(tmp).at(tmp)?;
    // No journal and no flush while staged: a stage that fails is removed whole, and
    // publication flushes it before it gets its name. The dump may end in a comment line,
    // hence the line break before what follows it.
    conn.execute_batch(&format!(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; \
         PRAGMA auto_vacuum = INCREMENTAL; PRAGMA foreign_keys = OFF; BEGIN; {}\n; PRAGMA user_version = {user_version}; COMMIT;",
        creatable(sql)
    ))
    .at(tmp)?;
    seed(&conn).at(tmp)?;
    Ok(staged)
}

/// A new, empty agent database of `release`'s schema for `agent_id`, staged beside `path`
/// (see [`StagedDb`]).
pub fn stage_agent_db(
    release: &ReleaseSchema,
    path: &Path,
    agent_id: &str,
    now_ms: i64,
) -> Result<StagedDb> {
    stage(path, release.agent_sql, release.agent_schema, |c| {
        c.execute(
            "INSERT INTO schema_meta (meta_key, role, schema_version, agent_id, app_version, created_at, updated_at) \
             VALUES ('primary', 'agent', ?1, ?2, ?3, ?4, ?4)",
            params![release.agent_schema, agent_id, release.version, now_ms],
        )?;
        // `canonical_ready` is 2026.9.6's (schema 23).
        c.execute(
            "INSERT INTO session_key_contract (id, main_key, updated_at) VALUES (1, 'main', 0)",
            [],
        )?;
        c.execute(
            "INSERT INTO memory_index_state (id, revision) VALUES (1, 0)",
            [],
        )?;
        Ok(())
    })
}

/// A new, empty global state database of `release`'s schema.
pub fn create_state_db(release: &ReleaseSchema, path: &Path, now_ms: i64) -> Result<()> {
    stage(path, release.state_sql, release.state_schema, |c| {
        c.execute(
            "INSERT INTO schema_meta (meta_key, role, schema_version, agent_id, app_version, created_at, updated_at) \
             VALUES ('primary', 'global', ?1, NULL, ?2, ?3, ?3)",
            params![release.state_schema, release.version, now_ms],
        )?;
        Ok(())
    })?
    .publish()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/openclaw-2026.9.6"
    );

    fn master(path: &Path) -> Vec<(String, String, Option<String>)> {
        let conn = Connection::open_with_flags(
            format!("file:{}?immutable=1", path.display()),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI,
        )
        .unwrap();
        let mut stmt = conn
            .prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
            .unwrap();
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        rows
    }

    /// Each older release's embedded dumps are the schema that release's own import wrote: a
    /// database created for it has the schema objects and seed rows of its committed fixture's
    /// import where there is one (2026.8.2, 2026.9.5), and for every release the `before`
    /// schema of the upgrade path of the release it names (the reference suite's
    /// `legacy_import_at_release_schema*` compares with each release's own import).
    #[test]
    fn databases_created_for_an_older_release_have_its_schema() {
        let uncommented = |s: &str| {
            s.lines()
                .filter(|l| !l.starts_with("--"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let seeds = |p: &Path| -> Vec<String> {
            let conn = Connection::open_with_flags(
                format!("file:{}?immutable=1", p.display()),
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI,
            )
            .unwrap();
            let one = |sql: &str| -> String { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
            vec![
                one("SELECT role || '|' || schema_version || '|' || ifnull(agent_id, '') || '|' || app_version FROM schema_meta"),
                one("SELECT count(*) || '' FROM schema_meta"),
                one("SELECT user_version || '' FROM pragma_user_version"),
            ]
        };
        let older = &RELEASE_SCHEMAS[..RELEASE_SCHEMAS.len() - 1];
        assert_eq!(older.len(), 6);
        // The upgrade path each release's databases take: the release whose store it was
        // captured on (the same schema; docs/openclaw/RELEASES.md §1).
        let paths = [
            (
                "2026.8.2",
                "agent-19-to-23.from-2026.8.2",
                "state-15-to-18.from-2026.8.2",
            ),
            (
                "2026.9.1",
                "agent-19-to-23.from-2026.8.2",
                "state-15-to-18.from-2026.8.2",
            ),
            (
                "2026.9.2",
                "agent-19-to-23.from-2026.9.4",
                "state-15-to-18.from-2026.8.2",
            ),
            (
                "2026.9.3",
                "agent-19-to-23.from-2026.9.4",
                "state-16-to-18.from-2026.9.3",
            ),
            (
                "2026.9.4",
                "agent-19-to-23.from-2026.9.4",
                "state-17-to-18.from-2026.9.4",
            ),
            (
                "2026.9.5",
                "agent-21-to-23.from-2026.9.5",
                "state-17-to-18.from-2026.9.5",
            ),
        ];
        for release in older {
            let fixture = format!(
                "{}/tests/fixtures/openclaw-{}",
                env!("CARGO_MANIFEST_DIR"),
                release.version
            );
            let committed = Path::new(&fixture).is_dir();
            if committed {
                for (embedded, dump) in [
                    (release.agent_sql, "schema-agent.sql"),
                    (release.state_sql, "schema-state.sql"),
                ] {
                    let recorded =
                        std::fs::read_to_string(format!("{fixture}/report/{dump}")).unwrap();
                    assert_eq!(
                        uncommented(embedded),
                        uncommented(&recorded),
                        "{} {dump}",
                        release.version
                    );
                }
            }
            let (_, agent_path, state_path) = paths
                .iter()
                .find(|p| p.0 == release.version)
                .expect("every older release has its upgrade paths");
            let dir = tempfile::tempdir().unwrap();
            let agent = dir.path().join("openclaw-agent.sqlite");
            stage_agent_db(release, &agent, "main", 1)
                .unwrap()
                .publish()
                .unwrap();
            let conn = Connection::open(&agent).unwrap();
            let recognised =
                crate::store::db::upgrade::recognise(&conn, crate::store::DatabaseRole::Agent)
                    .unwrap()
                    .map(|p| p.name);
            assert_eq!(recognised, Some(*agent_path), "{}", release.version);
            let contract: (i64, String, i64) = conn
                .query_row(
                    "SELECT id, main_key, updated_at FROM session_key_contract",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .unwrap();
            assert_eq!(contract, (1, "main".to_string(), 0));
            drop(conn);
            assert_eq!(
                seeds(&agent),
                [
                    format!("agent|{}|main|{}", release.agent_schema, release.version),
                    "1".into(),
                    release.agent_schema.to_string()
                ]
            );
            let state = dir.path().join("openclaw.sqlite");
            create_state_db(release, &state, 1).unwrap();
            let conn = Connection::open(&state).unwrap();
            let recognised =
                crate::store::db::upgrade::recognise(&conn, crate::store::DatabaseRole::Global)
                    .unwrap()
                    .map(|p| p.name);
            assert_eq!(recognised, Some(*state_path), "{}", release.version);
            drop(conn);
            assert_eq!(
                seeds(&state)[0],
                format!("global|{}||{}", release.state_schema, release.version)
            );
            if committed {
                let reference =
                    format!("{fixture}/imported/.openclaw/agents/main/agent/openclaw-agent.sqlite");
                assert_eq!(master(&agent), master(Path::new(&reference)));
                assert_eq!(seeds(&agent), seeds(Path::new(&reference)));
                let reference = format!("{fixture}/imported/.openclaw/state/openclaw.sqlite");
                assert_eq!(master(&state), master(Path::new(&reference)));
            }
        }
        assert_eq!(
            ReleaseSchema::of_release("2026.9.5").unwrap().agent_schema,
            21
        );
        assert!(ReleaseSchema::of_release("2026.8.1-beta.1").is_none());
        for (named, import) in [
            ("2026.8.1", Some("2026.8.2")),
            ("2026.9.3", Some("2026.9.3")),
            ("2026.8.1-beta.1", None),
            ("2026.8.x", None),
        ] {
            assert_eq!(
                ReleaseSchema::of_named_release(named).map(|r| r.version),
                import,
                "{named}"
            );
        }
        assert_eq!(ReleaseSchema::current().version, OPENCLAW_VERSION);
    }

    /// The embedded dumps are OpenClaw's, and a created database has OpenClaw's schema.
    #[test]
    fn created_databases_have_openclaws_schema() {
        for (embedded, dump) in [
            (AGENT_SQL, "schema-agent.sql"),
            (STATE_SQL, "schema-state.sql"),
        ] {
            let recorded = std::fs::read_to_string(format!("{FIXTURE}/report/{dump}")).unwrap();
            assert_eq!(embedded, recorded, "{dump}");
        }
        let dir = tempfile::tempdir().unwrap();
        let agent = dir.path().join("agents/main/agent/openclaw-agent.sqlite");
        let staged = stage_agent_db(ReleaseSchema::current(), &agent, "main", 1).unwrap();
        assert!(!agent.exists(), "staged, not yet at its path");
        staged.publish().unwrap();
        let reference =
            format!("{FIXTURE}/imported/.openclaw/agents/main/agent/openclaw-agent.sqlite");
        assert_eq!(master(&agent), master(Path::new(&reference)));
        let state = dir.path().join("state/openclaw.sqlite");
        create_state_db(ReleaseSchema::current(), &state, 1).unwrap();
        let reference = format!("{FIXTURE}/imported/.openclaw/state/openclaw.sqlite");
        assert_eq!(master(&state), master(Path::new(&reference)));
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&agent).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert!(
            stage_agent_db(ReleaseSchema::current(), &agent, "main", 1)
                .unwrap()
                .publish()
                .is_err(),
            "never replaces a database"
        );
        let left: Vec<_> = std::fs::read_dir(agent.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            left,
            ["openclaw-agent.sqlite"],
            "a refused stage is removed"
        );
        drop(
            stage_agent_db(
                ReleaseSchema::current(),
                &dir.path().join("other.sqlite"),
                "x",
                1,
            )
            .unwrap(),
        );
        assert!(
            !std::fs::read_dir(dir.path())
                .unwrap()
                .any(|e| is_creation_stage(&e.unwrap().file_name().to_string_lossy())),
            "a stage dropped unpublished is removed"
        );
    }
}
