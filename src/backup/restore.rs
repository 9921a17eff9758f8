use std::path::{Path, PathBuf};

use super::create::SnapshotSource;
use super::manifest::SnapshotManifest;
use super::verify::verify_snapshot;
use super::SNAPSHOT_DB;
use crate::digest::sha256_file;
use crate::error::{Error, Remedy, Result, ResultExt};

fn sidecars(path: &Path) -> Vec<PathBuf> {
    ["-wal", "-shm", "-journal"]
        .iter()
        .map(|s| crate::store::sidecar_path(path, s))
        .collect()
}

/// The manifest of a snapshot that verifies (sha256, integrity, owner), else why not.
pub fn verified(snapshot: &Path) -> Result<SnapshotManifest> {
    let report = verify_snapshot(snapshot);
    match (report.ok, report.manifest) {
        (true, Some(m)) => Ok(m),
        _ => Err(Error::bad_input(
            format!(
                "snapshot {} does not verify: {}",
                snapshot.display(),
                report.problems.join("; ")
            ),
            Some("verifying the snapshot shows the problems".to_string()),
        )
        .with_remedy(Remedy::VerifySnapshot)),
    }
}

/// Refuse a path reached through a symbolic link (any component) or that is hard-linked.
fn check_target_path(target: &Path) -> Result<()> {
    let mut cur = PathBuf::new();
    for part in target.components() {
        cur.push(part);
        if std::fs::symlink_metadata(&cur).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(Error::unsafe_path(format!(
                "{} is a symbolic link; restore never writes through one",
                cur.display()
            )));
        }
    }
    Ok(())
}

/// Copy the snapshot database to a private staging file beside `target`, verified.
fn stage_copy(
    snapshot: &Path,
    manifest: &SnapshotManifest,
    dir: &Path,
) -> Result<(PathBuf, PathBuf)> {
    let staging = dir.join(format!(".tmp-restore-{}", uuid::Uuid::new_v4()));
    std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
        .create(&staging)
        .at(&staging)?;
    let staged = staging.join(SNAPSHOT_DB);
    let result = (|| {
        let mut out = crate::fsutil::create_new_private(&staged)?;
        let mut input = crate::fsutil::open_regular(&snapshot.join(SNAPSHOT_DB))?;
        std::io::copy(&mut input, &mut out).at(&staged)?;
        out.sync_all().at(&staged)?;
        let (sha, _) = sha256_file(&staged)?;
        if sha != manifest.artifact.sha256 {
            return Err(Error::Internal(
                "the staged restore copy does not match the snapshot".into(),
            ));
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(e);
    }
    Ok((staging, staged))
}

/// `restore --target FILE`: a fresh path only; an existing file or sidecar is refused.
pub fn restore_fresh(snapshot: &Path, target: &Path) -> Result<SnapshotManifest> {
    let manifest = verified(snapshot)?;
    check_target_path(target)?;
    for p in std::iter::once(target.to_path_buf()).chain(sidecars(target)) {
        if p.symlink_metadata().is_ok() {
            return Err(Error::TargetExists {
                message: format!("fresh SQLite restore path already exists: {}", p.display()),
                hint: Some("restore to a new path, or use --in-place under custody".into()),
            });
        }
    }
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(Error::not_found(
            format!("directory {} does not exist", dir.display()),
            None,
        ));
    }
    let (staging, staged) = stage_copy(snapshot, &manifest, dir)?;
    let result = crate::fsutil::hard_link_new(&staged, target);
    let _ = std::fs::remove_dir_all(&staging);
    result?;
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .at(dir)?;
    Ok(manifest)
}

/// Whether the verified `snapshot` can replace the database of `source` in place: it is a
/// snapshot of that database, and the database is the state dir's own. Read-only.
pub fn check_restorable(
    snapshot: &Path,
    manifest: &SnapshotManifest,
    source: &SnapshotSource,
    state_dir: &Path,
) -> Result<()> {
    let live = source.db().to_path_buf();
    match (&manifest.database, source) {
        (
            super::DatabaseManifest::Agent { agent_id, .. },
            SnapshotSource::Agent { agent_id: want, .. },
        ) if agent_id == want => {}
        (super::DatabaseManifest::Global { .. }, SnapshotSource::Global { .. }) => {}
        _ => {
            return Err(Error::Conflict {
                message: format!(
                    "snapshot {} is not a snapshot of {}",
                    snapshot.display(),
                    live.display()
                ),
                hint: None,
            })
        }
    }
    crate::writer::check_owned_path(state_dir, &live)
}

/// `restore --in-place` of a snapshot `verified` gave `manifest` for (the caller holds
/// custody and has snapshotted the current database): fold its WAL away, swap the restored
/// file in by rename, and remove the old sidecars so SQLite can never replay a stale WAL over
/// the restored file. The staged copy must hash to the manifest's sha256, so what is
/// installed is what was verified. When `stop` says so (a signal) before the swap, the
/// staged copy is removed and nothing is changed: `Error::Interrupted`.
pub fn restore_in_place(
    snapshot: &Path,
    manifest: &SnapshotManifest,
    source: &SnapshotSource,
    state_dir: &Path,
    stop: &dyn Fn() -> bool,
) -> Result<()> {
    check_restorable(snapshot, manifest, source, state_dir)?;
    let live = source.db().to_path_buf();
    let dir = live
        .parent()
        .ok_or_else(|| Error::invalid("database has no directory"))?;
    let (staging, staged) = stage_copy(snapshot, manifest, dir)?;
    let result = (|| {
        crate::writer::crash_point("restore-staged");
        if stop() {
            return Err(Error::Interrupted);
        }
        // 1. Fold the live WAL into its file (custody excludes every writer).
        if live.exists() {
            let conn = rusqlite::Connection::open(&live).at(&live)?;
            conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
                .at(&live)?;
            conn.close().map_err(|(_, e)| Error::sqlite(&live, e))?;
        }
        crate::writer::crash_point("restore-before-swap");
        // The last moment to stop with nothing changed (the copy took the time).
        if stop() {
            return Err(Error::Interrupted);
        }
        // 2. Atomic swap, then 3. no sidecar of the old file survives.
        std::fs::rename(&staged, &live).at(&live)?;
        for s in sidecars(&live) {
            match std::fs::remove_file(&s) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io(&s, e)),
            }
        }
        std::fs::File::open(dir).and_then(|d| d.sync_all()).at(dir)
    })();
    let _ = std::fs::remove_dir_all(&staging);
    result
}
