use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use crate::error::{Error, Result, ResultExt};
use crate::store::{DatabaseRole, ReadOnlyDb, SchemaInfo};

/// A read-write connection to an agent database, opened only under custody, with the
/// settings OpenClaw's writers use (busy timeout, foreign keys, NORMAL sync, WAL kept).
pub struct WritableDb {
    pub conn: Connection,
    pub path: PathBuf,
    /// The state dir the database was checked against: every file written beside it must
    /// pass the same check ([`check_owned_path`]).
    pub state_dir: PathBuf,
    /// Its `PRAGMA user_version` when opened: the writers write what the release of that
    /// schema writes (docs/openclaw/RELEASES.md).
    pub user_version: i64,
}

/// Refuse a target that is a symlink, reached through one inside `root`, or hard-linked:
/// an in-place write there would change a file this store does not own.
pub fn check_owned_path(root: &Path, path: &Path) -> Result<()> {
    if let Ok(rel) = path.strip_prefix(root) {
        let mut cur = root.to_path_buf();
        for part in rel.components() {
            cur.push(part);
            if std::fs::symlink_metadata(&cur).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(Error::unsafe_path(format!(
                    "{} is a symbolic link; this tool never writes through one",
                    cur.display()
                )));
            }
        }
    } else {
        return Err(Error::unsafe_path(format!(
            "{} is outside the state dir {}; in-place changes are refused",
            path.display(),
            root.display()
        )));
    }
    use std::os::unix::fs::MetadataExt;
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if m.is_file() && m.nlink() > 1 {
            return Err(Error::unsafe_path(format!(
                "{} has {} hard links; remove the extra links before changing it",
                path.display(),
                m.nlink()
            )));
        }
    }
    Ok(())
}

impl WritableDb {
    /// Open for writing after the safety checks; the schema must be the known one.
    pub fn open(state_dir: &Path, path: &Path) -> Result<Self> {
        Self::open_role(state_dir, path, DatabaseRole::Agent)
    }

    /// Open an agent database of the known schema or one of the older schemas in `also`
    /// (the operation's `OLDER_SCHEMAS_WRITTEN`).
    pub fn open_accepting(state_dir: &Path, path: &Path, also: &[i64]) -> Result<Self> {
        Self::open_checked(state_dir, path, DatabaseRole::Agent, also)
    }

    /// Open a database of the given role (the global state database for plugin state).
    pub fn open_role(state_dir: &Path, path: &Path, role: DatabaseRole) -> Result<Self> {
        Self::open_checked(state_dir, path, role, &[])
    }

    fn open_checked(
        state_dir: &Path,
        path: &Path,
        role: DatabaseRole,
        also: &[i64],
    ) -> Result<Self> {
        if !path.is_file() {
            return Err(Error::not_found(
                format!("database {} does not exist", path.display()),
                None,
            ));
        }
        check_owned_path(state_dir, path)?;
        let user_version = {
            let ro = ReadOnlyDb::open(path)?;
            let info = SchemaInfo::read(&ro, role)?;
            // Agent databases must be the known schema (or a proven older one the operation
            // names); the state database only must not be newer (this tool writes one
            // plugin-state row there).
            if role == DatabaseRole::Agent || info.status == crate::store::SchemaStatus::Newer {
                info.require_writable_of(path, also)?;
            }
            info.user_version
        };
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .at(path)?;
        conn.busy_timeout(Duration::from_millis(5000)).at(path)?;
        conn.execute_batch(
            "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA trusted_schema = OFF;",
        )
        .at(path)?;
        // Every statement of a batched mutation stays prepared (the store's SQL modules use
        // prepare_cached).
        conn.set_prepared_statement_cache_capacity(64);
        Ok(WritableDb {
            conn,
            path: path.to_path_buf(),
            state_dir: state_dir.to_path_buf(),
            user_version,
        })
    }

    /// Keep this connection's statement journals in memory (`PRAGMA temp_store = MEMORY`), for
    /// the transactions that delete whole transcripts. Inside a transaction of several
    /// statements, SQLite saves the prior content of every page a statement with cascades or
    /// triggers changes (the `DELETE` of a window takes its events, identities and index rows
    /// with it), so that the statement alone can be undone; past 64 KiB that statement journal
    /// goes to an `etilqs_*` file of the temp dir: about 100 KB written per deleted session, so
    /// 150 MB for a prune of 3 x 500 sessions (docs/openclaw/MAINTENANCE.md §3.3, "Ours").
    /// In memory, it holds the pages of one statement at a time: at most the pages of the
    /// largest transcript deleted, whose text the archive step holds in memory anyway. Never
    /// for `VACUUM`, whose whole rebuilt copy would then be held in memory too.
    pub fn statement_journals_in_memory(&self) -> Result<()> {
        self.conn
            .execute_batch("PRAGMA temp_store = MEMORY;")
            .at(&self.path)
    }

    /// The agent schema this database is written at.
    pub fn schema(&self) -> crate::store::AgentSchema {
        crate::store::AgentSchema(self.user_version)
    }

    /// `BEGIN IMMEDIATE`: the write lock is taken up front, as OpenClaw's writers do.
    pub fn transaction(&mut self) -> Result<rusqlite::Transaction<'_>> {
        self.conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .at(&self.path)
    }
}
