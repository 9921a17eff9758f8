use std::path::{Path, PathBuf};

use serde::Serialize;

use super::create::check_integrity_split_read_only;
use super::manifest::{DatabaseManifest, SnapshotManifest};
use super::{MANIFEST, PENDING, SNAPSHOT_DB};
use crate::digest::sha256_file;
use crate::error::{Error, Result, ResultExt};
use crate::store::ReadOnlyDb;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyReport {
    pub path: PathBuf,
    pub ok: bool,
    pub problems: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manifest: Option<SnapshotManifest>,
}

/// Check a snapshot as `openclaw backup sqlite verify` does: only the two files, the exact
/// manifest with its id equal to the directory name, size and sha256, `integrity_check`,
/// the owner in `schema_meta` and `user_version`. Never writes anything.
pub fn verify_snapshot(dir: &Path) -> VerifyReport {
    let mut problems = Vec::new();
    let manifest = check(dir, &mut problems);
    VerifyReport {
        path: dir.to_path_buf(),
        ok: problems.is_empty(),
        problems,
        manifest,
    }
}

fn check(dir: &Path, problems: &mut Vec<String>) -> Option<SnapshotManifest> {
    let entries: Vec<String> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(e) => {
            problems.push(format!("cannot read {}: {e}", dir.display()));
            return None;
        }
    };
    for extra in entries
        .iter()
        .filter(|n| *n != SNAPSHOT_DB && *n != MANIFEST)
    {
        problems.push(if extra == PENDING {
            "publication did not finish (.pending marker present)".to_string()
        } else {
            format!("unexpected file {extra} in the snapshot")
        });
    }
    for file in [SNAPSHOT_DB, MANIFEST] {
        match std::fs::symlink_metadata(dir.join(file)) {
            Ok(m) if m.file_type().is_symlink() => {
                problems.push(format!("{file} is a symbolic link"))
            }
            Ok(m) if std::os::unix::fs::MetadataExt::nlink(&m) > 1 && file == SNAPSHOT_DB => {
                problems.push(format!("{file} has extra hard links"))
            }
            Ok(_) => {}
            Err(_) => problems.push(format!("{file} is missing")),
        }
    }
    let manifest = match SnapshotManifest::read(&dir.join(MANIFEST)) {
        Ok(m) => m,
        Err(e) => {
            problems.push(e.to_string());
            return None;
        }
    };
    let dir_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if manifest.snapshot_id != dir_name {
        problems.push(format!(
            "manifest id {} does not match directory {dir_name}",
            manifest.snapshot_id
        ));
    }
    let db_path = dir.join(SNAPSHOT_DB);
    match sha256_file(&db_path) {
        Ok((sha, size)) => {
            if size != manifest.artifact.size_bytes {
                problems.push(format!(
                    "artifact size {size} differs from the manifest's {}",
                    manifest.artifact.size_bytes
                ));
            }
            if sha != manifest.artifact.sha256 {
                problems.push(format!(
                    "artifact hash mismatch: expected {}, got {sha}",
                    manifest.artifact.sha256
                ));
            }
        }
        Err(e) => problems.push(e.to_string()),
    }
    if !problems.is_empty() {
        return Some(manifest);
    }
    // The file is a standalone rollback-journal database: opened immutable, nothing is created.
    match ReadOnlyDb::open(&db_path) {
        Err(e) => problems.push(e.to_string()),
        Ok(db) => {
            if let Err(e) = check_integrity_split_read_only(&db, false) {
                problems.push(e.to_string());
            }
            let uv: i64 = db
                .conn()
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .unwrap_or(-1);
            if uv != manifest.database.user_version() {
                problems.push(format!(
                    "user_version mismatch: expected {}, got {uv}",
                    manifest.database.user_version()
                ));
            }
            let meta: Option<(String, Option<String>)> =
                crate::store::db::meta::role_and_owner(db.conn()).ok();
            match (&manifest.database, meta) {
                (DatabaseManifest::Agent { agent_id, .. }, Some((role, owner)))
                    if role == "agent" && owner.as_deref() == Some(agent_id.as_str()) => {}
                (DatabaseManifest::Global { .. }, Some((role, _))) if role == "global" => {}
                (_, meta) => problems.push(format!(
                    "schema_meta ({meta:?}) does not match the manifest's database"
                )),
            }
        }
    }
    Some(manifest)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SnapshotState {
    Complete,
    /// Publication stopped before its marker was removed (a crash).
    Pending,
    /// A leftover staging directory (`.tmp-*`), never a snapshot.
    Staging,
    Incomplete,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedSnapshot {
    pub path: PathBuf,
    pub state: SnapshotState,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manifest: Option<SnapshotManifest>,
}

/// Snapshots in a repository, newest first, then what crashes left behind.
pub fn list_snapshots(repo: &Path) -> Result<Vec<ListedSnapshot>> {
    let rd = std::fs::read_dir(repo).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Error::not_found(
                format!("snapshot repository {} does not exist", repo.display()),
                None,
            )
        } else {
            Error::io(repo, e)
        }
    })?;
    let mut out = Vec::new();
    for ent in rd {
        let ent = ent.at(repo)?;
        if !ent.file_type().at(ent.path())?.is_dir() {
            continue;
        }
        let name = ent.file_name().to_string_lossy().into_owned();
        let path = ent.path();
        if name.starts_with(".tmp-") {
            out.push(ListedSnapshot {
                path,
                state: SnapshotState::Staging,
                manifest: None,
            });
            continue;
        }
        let manifest = SnapshotManifest::read(&path.join(MANIFEST)).ok();
        let state = match (
            manifest.is_some() && path.join(SNAPSHOT_DB).is_file(),
            path.join(PENDING).exists(),
        ) {
            (true, false) => SnapshotState::Complete,
            (_, true) => SnapshotState::Pending,
            (false, false) => SnapshotState::Incomplete,
        };
        out.push(ListedSnapshot {
            path,
            state,
            manifest,
        });
    }
    out.sort_by(|a, b| {
        let key = |s: &ListedSnapshot| {
            s.manifest
                .as_ref()
                .map(|m| (m.created_at.clone(), m.snapshot_id.clone()))
        };
        (a.state != SnapshotState::Complete)
            .cmp(&(b.state != SnapshotState::Complete))
            .then(key(b).cmp(&key(a)))
    });
    Ok(out)
}

/// The snapshot the user's words name (docs/SNAPSHOTS.md): a snapshot directory's path; else,
/// looked up in `repositories` (the first that holds a match wins): `latest` (the newest
/// complete snapshot), a snapshot id as `backup list` prints it (the directory's name, or the
/// manifest's `snapshotId`), or a unique prefix of one or of its uuid part. Neither found nor
/// unique is an error naming what is there.
pub fn find_snapshot(words: &Path, repositories: &[PathBuf]) -> Result<PathBuf> {
    if words.is_dir() && words.join(MANIFEST).exists() {
        return Ok(words.to_path_buf());
    }
    let text = words.to_string_lossy();
    let bare = words.components().count() == 1 && !text.is_empty();
    if !bare {
        return Err(Error::not_found(
            format!("no snapshot at {}", words.display()),
            Some(
                "name a snapshot by its id as `backup list` shows it, `latest`, or its directory"
                    .into(),
            ),
        ));
    }
    let mut searched = Vec::new();
    for repo in repositories {
        let listed = match list_snapshots(repo) {
            Ok(l) => l,
            Err(e) if e.kind() == crate::error::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        searched.push(repo.display().to_string());
        let complete: Vec<&ListedSnapshot> = listed
            .iter()
            .filter(|s| s.state == SnapshotState::Complete)
            .collect();
        if text == "latest" {
            // Newest first (list_snapshots' order).
            if let Some(s) = complete.first() {
                return Ok(s.path.clone());
            }
            continue;
        }
        let name = |s: &ListedSnapshot| {
            s.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let id = |s: &ListedSnapshot| s.manifest.as_ref().map(|m| m.snapshot_id.clone());
        if let Some(s) = listed
            .iter()
            .find(|s| name(s) == text || id(s).as_deref() == Some(&*text))
        {
            return Ok(s.path.clone());
        }
        // A prefix of the name (the time it was made) or of its uuid (the last 36 characters).
        let matches: Vec<&ListedSnapshot> = complete
            .iter()
            .copied()
            .filter(|s| {
                let n = name(s);
                let uuid = n.get(n.len().saturating_sub(36)..).unwrap_or_default();
                n.starts_with(&*text) || uuid.starts_with(&*text)
            })
            .collect();
        match matches.as_slice() {
            [] => continue,
            [one] => return Ok(one.path.clone()),
            many => {
                let names: Vec<String> = many.iter().take(5).map(|s| name(s)).collect();
                return Err(Error::InvalidArgument {
                    message: format!(
                        "snapshot {text} is ambiguous in {}: {} match ({}{})",
                        repo.display(),
                        many.len(),
                        names.join(", "),
                        if many.len() > 5 { ", ..." } else { "" }
                    ),
                    hint: Some("give more of the id".into()),
                });
            }
        }
    }
    Err(Error::not_found(
        if text == "latest" {
            format!("no snapshot to be the latest in {}", searched.join(", "))
        } else {
            format!(
                "no snapshot {text} in {}",
                if searched.is_empty() {
                    "any repository (none exists yet)".to_string()
                } else {
                    searched.join(", ")
                }
            )
        },
        Some("`backup list` shows the snapshots and their ids".into()),
    ))
}
