use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::manifest::{snapshot_id, ArtifactManifest, DatabaseManifest, SnapshotManifest};
use super::{MANIFEST, PENDING, SNAPSHOT_DB};
use crate::custody::ensure_private_dir;
use crate::error::{Error, Remedy, Result, ResultExt};
use crate::fsutil::create_new_private;
use crate::progress::Progress;
use crate::store::db::{meta, state};
use crate::store::ReadOnlyDb;

/// What to snapshot.
#[derive(Debug, Clone)]
pub enum SnapshotSource {
    /// An agent database; cold archive files are read from `sessions_dir/cold/`.
    Agent {
        agent_id: String,
        db: PathBuf,
        sessions_dir: PathBuf,
    },
    /// The global state database.
    Global { db: PathBuf },
}

impl SnapshotSource {
    /// An agent's database, with its cold archives.
    pub fn agent(paths: &crate::paths::AgentPaths) -> Self {
        SnapshotSource::Agent {
            agent_id: paths.id.to_string(),
            db: paths.db.clone(),
            sessions_dir: paths.sessions_dir.clone(),
        }
    }

    pub fn db(&self) -> &Path {
        match self {
            SnapshotSource::Agent { db, .. } | SnapshotSource::Global { db } => db,
        }
    }
}

#[derive(Debug, Clone)]
pub struct SnapshotTarget {
    pub repository: PathBuf,
    /// Keep a copy of a store whose foreign keys are already broken (doctor's snapshot
    /// before it repairs them); every other check still applies.
    pub tolerate_foreign_key_violations: bool,
}

impl SnapshotTarget {
    pub fn new(repository: impl Into<PathBuf>) -> Self {
        SnapshotTarget {
            repository: repository.into(),
            tolerate_foreign_key_violations: false,
        }
    }
}

fn same_file(a: &Path, b: &Path) -> Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let (ma, mb) = (
        std::fs::symlink_metadata(a).at(a)?,
        std::fs::symlink_metadata(b).at(b)?,
    );
    Ok(ma.dev() == mb.dev() && ma.ino() == mb.ino() && ma.len() == mb.len())
}

/// Add the foreign key check to the integrity check's `problems`; an error names the first.
fn finish_check(
    conn: &Connection,
    path: &Path,
    mut problems: Vec<String>,
    tolerate_fk: bool,
) -> Result<()> {
    let fk: i64 = meta::foreign_key_violations(conn).at(path)?;
    if fk > 0 && !tolerate_fk {
        problems.push(format!("{fk} foreign key violation(s)"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::bad_input(
            format!(
                "{} fails its integrity check: {}",
                path.display(),
                problems.into_iter().take(5).collect::<Vec<_>>().join("; ")
            ),
            Some("run the doctor's full check".to_string()),
        )
        .with_remedy(Remedy::RunDoctorFull))
    }
}

/// The integrity check of a finished stage ([`check_integrity_split`]), with what the
/// manifest records of it: `(user_version, schema_meta role, schema_meta owner)`.
fn verify_stage(staged: &Path, tolerate_fk: bool) -> Result<(i64, Option<String>, Option<String>)> {
    let open = || Connection::open_with_flags(staged, OpenFlags::SQLITE_OPEN_READ_ONLY).at(staged);
    let problems = split_integrity_check(staged, open()?, open()?)?;
    let conn = open()?;
    finish_check(&conn, staged, problems, tolerate_fk)?;
    let user_version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .at(staged)?;
    let (role, owner) = meta::role_and_owner(&conn).unwrap_or((None, None));
    Ok((user_version, role, owner))
}

/// `integrity_check` and `foreign_key_check` of the database at `path` must both come back
/// clean. The `integrity_check` runs in two halves on two fresh read-only connections at
/// once (see [`split_integrity_check`]); `conn` (the caller's, which may write) runs the
/// foreign key check.
pub fn check_integrity_split(conn: &Connection, path: &Path, tolerate_fk: bool) -> Result<()> {
    let open = || Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).at(path);
    let problems = split_integrity_check(path, open()?, open()?)?;
    finish_check(conn, path, problems, tolerate_fk)
}

/// [`check_integrity_split`] of a database read through `db` (a snapshot in a repository,
/// opened so that nothing is created beside it): both halves on connections opened the same
/// way, with SQLite's default page cache.
pub fn check_integrity_split_read_only(db: &ReadOnlyDb, tolerate_fk: bool) -> Result<()> {
    const SQLITE_DEFAULT_CACHE_KIB: u32 = 2000;
    let problems = split_integrity_check(
        db.path(),
        db.second_connection(SQLITE_DEFAULT_CACHE_KIB)?,
        db.second_connection(SQLITE_DEFAULT_CACHE_KIB)?,
    )?;
    finish_check(db.conn(), db.path(), problems, tolerate_fk)
}

/// The complaints of a whole `integrity_check`, in two halves on two connections at once:
/// this thread checks every B-tree, row and index on a connection that knows no virtual
/// table module (SQLite then skips the modules' own checks), while a second thread runs
/// `integrity_check(<table>)` of each virtual table, which is only its module's check:
/// FTS5 re-tokenizing every indexed message against its index, about half the whole
/// check's time. Together they are the checks of one `PRAGMA integrity_check`.
fn split_integrity_check(
    path: &Path,
    btrees: Connection,
    modules: Connection,
) -> Result<Vec<String>> {
    meta::forget_virtual_table_modules(&btrees).at(path)?;
    let virtual_tables = meta::virtual_tables(&btrees).at(path)?;
    let (btree_problems, module_problems) = std::thread::scope(|scope| {
        let module_check = scope.spawn(move || -> Result<Vec<String>> {
            let mut found = Vec::new();
            for table in &virtual_tables {
                found.extend(meta::integrity_check(&modules, Some(table)).at(path)?);
            }
            Ok(found)
        });
        let btree_problems = meta::integrity_check(&btrees, None).at(path);
        let module_problems = module_check
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (btree_problems, module_problems)
    });
    let mut problems = btree_problems?;
    problems.extend(module_problems?);
    Ok(problems)
}

/// Lease rows never survive a restore; the global snapshot also drops queued deliveries,
/// expiring plugin blobs and the exec socket token (`openclaw-state-snapshot-sanitizer`).
fn sanitize(conn: &Connection, path: &Path, global: bool) -> Result<()> {
    for t in ["state_leases", "agent_database_leases"] {
        if meta::table_exists(conn, t) {
            state::clear_leases(conn, t).at(path)?;
        }
    }
    if !global {
        return Ok(());
    }
    if meta::table_exists(conn, "delivery_queue_entries") {
        state::clear_delivery_queue(conn).at(path)?;
    }
    if meta::table_exists(conn, "plugin_blob_entries") {
        state::delete_expiring_plugin_blobs(conn).at(path)?;
    }
    if meta::table_exists(conn, "exec_approvals_config") {
        let rows: Vec<(String, String)> = state::exec_approvals_configs(conn).at(path)?;
        for (key, raw) in rows {
            if let Ok(mut v) = crate::json_value::from_str::<serde_json::Value>(&raw) {
                if let Some(socket) = v.get_mut("socket").and_then(|s| s.as_object_mut()) {
                    if socket.shift_remove("token").is_some() {
                        let text =
                            format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default());
                        state::set_exec_approvals_config(conn, &key, &text).at(path)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Cold archives kept in files are embedded, so the snapshot stands alone.
fn embed_cold_archives(conn: &Connection, path: &Path, sessions_dir: &Path) -> Result<()> {
    if !meta::table_exists(conn, "session_transcript_cold_archives") {
        return Ok(());
    }
    let rows = crate::store::db::archives::cold_files(conn).at(path)?;
    for (sid, name, sha, len) in rows {
        let file = sessions_dir.join("cold").join(&name);
        let bytes = crate::fsutil::read_regular(&file).map_err(|e| {
            Error::bad_input(
                format!(
                    "cold archive {} of transcript {sid} cannot be read: {e}",
                    file.display()
                ),
                Some("run the doctor".to_string()),
            )
            .with_remedy(Remedy::RunDoctor)
        })?;
        let actual = crate::digest::sha256_hex(&bytes);
        if bytes.len() as i64 != len || actual != sha {
            return Err(Error::bad_input(
                format!("cold archive {} failed verification", file.display()),
                None,
            ));
        }
        crate::store::db::archives::embed_cold(conn, &sid, &bytes).at(path)?;
    }
    Ok(())
}

/// Copy and compact into `staged` (a fresh private file), then verify.
///
/// One pass: `VACUUM INTO` from the source's read transaction writes a compact copy, in
/// rollback mode, straight into the stage (the backup API followed by a `VACUUM` of the copy
/// wrote every page twice). The stage is then fsynced, hashed and checked at once, on
/// separate threads, as all three only read it.
fn build_copy(
    source: &SnapshotSource,
    staged: &Path,
    tolerate_fk: bool,
    progress: &dyn Progress,
) -> Result<(DatabaseManifest, String, u64)> {
    let src_path = source.db();
    loop {
        drop(create_new_private(staged)?);
        let src = ReadOnlyDb::open_for_snapshot(src_path)?;
        progress.start("copying", None);
        // VACUUM INTO reads the source in one read transaction, WAL included, and fills the
        // empty private stage. `query_only` refuses it as a statement that writes, but the
        // connection is opened read-only (`mode=ro`), so the source still cannot change.
        // The stage takes the connection's `synchronous`: off, as it is fsynced once below.
        src.conn()
            .execute_batch("PRAGMA query_only = OFF; PRAGMA synchronous = OFF;")
            .at(src_path)?;
        src.conn()
            .execute("VACUUM INTO ?1", [staged.to_string_lossy()])
            .at(src_path)?;
        if !src.still_consistent() {
            // A writer appeared during an immutable read: copy again, through its WAL.
            drop(src);
            std::fs::remove_file(staged).at(staged)?;
            continue;
        }
        drop(src);
        let dst =
            Connection::open_with_flags(staged, OpenFlags::SQLITE_OPEN_READ_WRITE).at(staged)?;
        // The stage is private and discarded on any failure: no journal or syncs of its own
        // (it is fsynced before it is published). A snapshot records rollback mode either way.
        dst.execute_batch(
            "PRAGMA journal_mode = DELETE; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;",
        )
        .at(staged)?;
        let global = matches!(source, SnapshotSource::Global { .. });
        let before = dst.total_changes();
        sanitize(&dst, staged, global)?;
        if let SnapshotSource::Agent { sessions_dir, .. } = source {
            embed_cold_archives(&dst, staged, sessions_dir)?;
        }
        if dst.total_changes() != before {
            // Leases dropped or cold archives embedded: compact once more, so a snapshot never
            // carries free pages with the rows it dropped.
            progress.start("compacting", None);
            dst.execute_batch("VACUUM;").at(staged)?;
        }
        dst.close().map_err(|(_, e)| Error::sqlite(staged, e))?;
        progress.start("verifying", None);
        // The stage is complete: its fsync, its hashing and its check only read it, so they
        // run at once; it is published only once all three are done.
        let (synced, hashed, checked) = std::thread::scope(|scope| {
            let syncer = scope.spawn(|| {
                std::fs::File::open(staged)
                    .and_then(|f| f.sync_all())
                    .at(staged)
            });
            let hasher = scope.spawn(|| crate::digest::sha256_file(staged));
            let checked = verify_stage(staged, tolerate_fk);
            let hashed = hasher
                .join()
                .unwrap_or_else(|_| Err(Error::Internal("the hashing thread panicked".into())));
            let synced = syncer
                .join()
                .unwrap_or_else(|_| Err(Error::Internal("the fsync thread panicked".into())));
            (synced, hashed, checked)
        });
        synced?;
        let (user_version, role, owner) = checked?;
        let (sha256, size_bytes) = hashed?;
        let basename = src_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return match source {
            SnapshotSource::Agent { agent_id, .. } => {
                if role.as_deref() != Some("agent") || owner.as_deref() != Some(agent_id.as_str()) {
                    return Err(Error::UnsupportedSchema {
                        message: format!(
                            "{} is not the agent database of {agent_id} (schema_meta says {} {})",
                            src_path.display(),
                            role.unwrap_or_default(),
                            owner.unwrap_or_default()
                        ),
                        hint: None,
                    });
                }
                Ok((
                    DatabaseManifest::Agent {
                        agent_id: agent_id.clone(),
                        basename,
                        user_version,
                    },
                    sha256,
                    size_bytes,
                ))
            }
            SnapshotSource::Global { .. } => {
                if role.as_deref() != Some("global") {
                    return Err(Error::UnsupportedSchema {
                        message: format!(
                            "{} is not OpenClaw's global state database",
                            src_path.display()
                        ),
                        hint: None,
                    });
                }
                Ok((
                    DatabaseManifest::Global {
                        basename,
                        user_version,
                    },
                    sha256,
                    size_bytes,
                ))
            }
        };
    }
}

/// A repository that is a symbolic link is never written through: in a store another user
/// owns, that user may have pointed it anywhere, a directory only root may write included
/// (docs/openclaw/HOSTILE.md §13). Everything below it is created anew (`mkdir`, `O_EXCL`,
/// hard links), which follows no link.
fn refuse_symlinked_repository(repo: &Path) -> Result<()> {
    match std::fs::symlink_metadata(repo) {
        Ok(m) if m.file_type().is_symlink() => Err(Error::unsafe_path(format!(
            "the snapshot repository {} is a symbolic link; snapshots are never written through one",
            repo.display()
        ))),
        _ => Ok(()),
    }
}

/// Make one snapshot in `repository`; returns its directory and manifest.
pub fn create_snapshot(
    source: &SnapshotSource,
    target: &SnapshotTarget,
    progress: &dyn Progress,
    now_ms: i64,
) -> Result<(PathBuf, SnapshotManifest)> {
    if !source.db().is_file() {
        return Err(Error::not_found(
            format!("database {} does not exist", source.db().display()),
            None,
        ));
    }
    let repo = &target.repository;
    refuse_symlinked_repository(repo)?;
    ensure_private_dir(repo)?;
    remove_dead_staging(repo);
    let staging = repo.join(format!(".tmp-{}", uuid::Uuid::new_v4()));
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&staging)
        .at(&staging)?;
    // Held until the staging directory is gone: a run that finds it unlocked knows its
    // builder died (see `remove_dead_staging`).
    let _building = lock_dir_exclusive(&staging, true).at(&staging)?;
    let result = (|| {
        let staged = staging.join(SNAPSHOT_DB);
        let (database, sha256, size_bytes) = build_copy(
            source,
            &staged,
            target.tolerate_foreign_key_violations,
            progress,
        )?;
        crate::writer::crash_point("backup-after-copy");
        let id = snapshot_id(now_ms);
        let manifest = SnapshotManifest {
            schema_version: 1,
            snapshot_id: id.clone(),
            created_at: crate::units::iso_from_ms(now_ms),
            database,
            artifact: ArtifactManifest {
                path: SNAPSHOT_DB.into(),
                sha256,
                size_bytes,
            },
        };
        let staged_manifest = staging.join(MANIFEST);
        {
            use std::io::Write;
            let mut f = create_new_private(&staged_manifest)?;
            f.write_all(manifest.to_text().as_bytes())
                .at(&staged_manifest)?;
            f.sync_all().at(&staged_manifest)?;
        }
        fsync_dir(&staging)?;
        // Publish: the directory with a `.pending` marker first, then the files by hard link
        // (never replacing anything), then the marker goes.
        let dir = repo.join(&id);
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    crate::fsutil::target_exists(&dir)
                } else {
                    Error::io(&dir, e)
                }
            })?;
        let publish = || -> Result<()> {
            let pending = dir.join(PENDING);
            create_new_private(&pending)?.sync_all().at(&pending)?;
            fsync_dir(&dir)?;
            fsync_dir(repo)?;
            crate::writer::crash_point("backup-pending");
            for name in [SNAPSHOT_DB, MANIFEST] {
                std::fs::hard_link(staging.join(name), dir.join(name)).at(dir.join(name))?;
            }
            fsync_dir(&dir)?;
            // The published name must be the very file that was hashed.
            if !same_file(&staging.join(SNAPSHOT_DB), &dir.join(SNAPSHOT_DB))? {
                return Err(Error::Internal(format!(
                    "published snapshot {} does not match its manifest",
                    dir.display()
                )));
            }
            std::fs::remove_file(&pending).at(&pending)?;
            fsync_dir(&dir)
        };
        if let Err(e) = publish() {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(e);
        }
        Ok((dir, manifest))
    })();
    let _ = std::fs::remove_dir_all(&staging);
    let _ = fsync_dir(repo);
    progress.finish();
    result
}

/// An exclusive `flock` on a directory, released when the returned handle is dropped (or its
/// process dies); `None` when another process holds it and `wait` is false.
fn lock_dir_exclusive(dir: &Path, wait: bool) -> std::io::Result<Option<std::fs::File>> {
    use rustix::fs::FlockOperation;
    let handle = std::fs::File::open(dir)?;
    let operation = if wait {
        FlockOperation::LockExclusive
    } else {
        FlockOperation::NonBlockingLockExclusive
    };
    match rustix::fs::flock(&handle, operation) {
        Ok(()) => Ok(Some(handle)),
        Err(rustix::io::Errno::WOULDBLOCK) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Remove the staging directories (`.tmp-*`) of snapshot runs that died: each is locked by
/// its builder for its whole life, so one that can be locked here has no live builder.
/// Returns what was removed; a directory that cannot be judged is left alone.
pub fn remove_dead_staging(repo: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    for ent in std::fs::read_dir(repo).into_iter().flatten().flatten() {
        let path = ent.path();
        let staging = ent.file_name().to_string_lossy().starts_with(".tmp-")
            && ent.file_type().is_ok_and(|t| t.is_dir());
        // A directory made a moment ago may not be locked by its builder yet.
        let young = ent
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_none_or(|age| age < std::time::Duration::from_secs(60));
        if !staging || young {
            continue;
        }
        if let Ok(Some(_dead)) = lock_dir_exclusive(&path, false) {
            if std::fs::remove_dir_all(&path).is_ok() {
                removed.push(path);
            }
        }
    }
    removed
}

use std::os::unix::fs::DirBuilderExt;

use crate::fsutil::fsync_dir;

#[cfg(test)]
mod tests {
    use super::*;

    /// A database with an FTS5 index and a CHECK constraint, and `damage` done to it.
    fn stage(damage: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stage.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE t(x INTEGER NOT NULL CHECK (x > 0));
             CREATE INDEX t_x ON t(x);
             INSERT INTO t VALUES (1), (2);
             CREATE VIRTUAL TABLE f USING fts5(text);
             INSERT INTO f(text) VALUES ('hello world'), ('another message');",
        )
        .unwrap();
        conn.execute_batch(damage).unwrap();
        drop(conn);
        (dir, path)
    }

    fn complaint(damage: &str) -> Option<String> {
        let (_dir, path) = stage(damage);
        verify_stage(&path, false).err().map(|e| e.to_string())
    }

    #[test]
    fn a_sound_stage_passes_both_halves() {
        assert_eq!(complaint(""), None);
    }

    /// The virtual table half: FTS5's own check sees text its index does not hold.
    #[test]
    fn a_full_text_index_out_of_step_fails() {
        let found = complaint("UPDATE f_content SET c0 = 'changed words' WHERE id = 1;");
        assert!(
            found
                .as_deref()
                .is_some_and(|m| m.contains("malformed inverted index")),
            "{found:?}"
        );
    }

    /// The B-tree half: a table page that is not a B-tree page any more.
    #[test]
    fn a_damaged_table_page_fails() {
        let (_dir, path) = stage("");
        let root: u64 = Connection::open(&path)
            .unwrap()
            .query_row(
                "SELECT rootpage FROM sqlite_schema WHERE name = 't'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        // The page's type byte (4,096-byte pages): no B-tree page has type 0xff.
        bytes[((root - 1) * 4096) as usize] = 0xff;
        std::fs::write(&path, bytes).unwrap();
        // SQLite reports it as a complaint or stops the check with SQLITE_CORRUPT.
        let found = verify_stage(&path, false).err().map(|e| e.to_string());
        assert!(
            found
                .as_deref()
                .is_some_and(|m| m.contains("integrity check") || m.contains("malformed")),
            "{found:?}"
        );
    }
}
