//! The owning agent a database records in `schema_meta`, read while the layout is worked out
//! (a custom `session.store` selector may hold one database per agent), before any store is
//! opened. The file is opened the way `store::ReadOnlyDb` opens it, so that reading the owner
//! never writes, checkpoints or creates a file beside the database.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::sqlite_file::{sidecar, uri_path, PrivateCopy};

/// The owning agent recorded in a database's `schema_meta`, if the file is readable.
pub fn read_owner(path: &Path) -> Option<String> {
    if !path.is_file() {
        return None;
    }
    let wal_len = std::fs::metadata(sidecar(path, "-wal"))
        .map(|m| m.len())
        .ok();
    let has_shm = sidecar(path, "-shm").exists();
    let has_journal = sidecar(path, "-journal").exists();
    let (params, copy) = match (wal_len, has_shm, has_journal) {
        // No WAL frames to replay: the file alone is the database, read as is.
        (None | Some(0), _, false) => ("?mode=ro&immutable=1", None),
        // Frames but no -shm to read them through: read a private copy instead.
        (Some(_), false, _) => ("?mode=ro", Some(PrivateCopy::make(path).ok()?)),
        // Through the WAL, the shared-memory file opened read-only.
        _ => ("?mode=ro&readonly_shm=1", None),
    };
    let target = copy.as_ref().map_or(path, |c| c.db.as_path());
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(format!("{}{params}", uri_path(target)), flags).ok()?;
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
        true,
    )
    .ok()?;
    conn.busy_timeout(Duration::from_millis(5000)).ok()?;
    conn.execute_batch("PRAGMA query_only = ON; PRAGMA trusted_schema = OFF;")
        .ok()?;
    let owner = conn
        .query_row(
            "SELECT agent_id FROM schema_meta WHERE meta_key='primary'",
            [],
            |r| r.get(0),
        )
        .ok()
        .flatten();
    drop(conn);
    drop(copy);
    owner
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn reads_the_owner_without_creating_sidecars() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("a.sqlite");
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE schema_meta (meta_key TEXT PRIMARY KEY, agent_id TEXT);
             INSERT INTO schema_meta VALUES ('primary', 'work');",
        )
        .unwrap();
        drop(conn);
        assert_eq!(read_owner(&db).as_deref(), Some("work"));
        assert_eq!(names(dir.path()), ["a.sqlite"]);
        assert_eq!(read_owner(&dir.path().join("missing.sqlite")), None);
        std::fs::write(dir.path().join("b.sqlite"), "not a database").unwrap();
        assert_eq!(read_owner(&dir.path().join("b.sqlite")), None);
    }

    #[test]
    fn reads_wal_frames_without_a_shm_from_a_private_copy() {
        let live = tempfile::tempdir().unwrap();
        let db = live.path().join("a.sqlite");
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
             CREATE TABLE schema_meta (meta_key TEXT PRIMARY KEY, agent_id TEXT);
             INSERT INTO schema_meta VALUES ('primary', 'work');",
        )
        .unwrap();
        // A crash leftover: the database and its frames, no shared-memory file.
        let left = tempfile::tempdir().unwrap();
        for name in ["a.sqlite", "a.sqlite-wal"] {
            std::fs::copy(live.path().join(name), left.path().join(name)).unwrap();
        }
        drop(conn);
        assert_eq!(
            read_owner(&left.path().join("a.sqlite")).as_deref(),
            Some("work")
        );
        assert_eq!(names(left.path()), ["a.sqlite", "a.sqlite-wal"]);
    }
}
