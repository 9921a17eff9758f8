//! Moving imported sources into `session-sqlite-import-archive/` the way OpenClaw's
//! `archiveLegacyArtifacts` does: a name per artifact, a hard link that never overwrites,
//! then the unlink of the source, each step flushed.

use std::collections::{BTreeSet, HashSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::ledger::{ImportLedger, MoveList};
use crate::error::{Error, Result, ResultExt};

fn slug(raw: &str, max: usize, fallback: &str) -> String {
    let mut out = String::new();
    let mut in_run = false;
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('_');
            in_run = true;
        }
    }
    let cut: String = out.chars().take(max).collect();
    if cut.is_empty() {
        fallback.to_string()
    } else {
        cut
    }
}

/// `<keySlug>.<baseName>.imported-<ms>[.<n>]`, unused on disk and in this run.
pub fn archive_name(
    dir: &Path,
    archive_key: &str,
    source: &Path,
    stamp_ms: i64,
    reserved: &ImportLedger,
) -> Result<PathBuf> {
    let base = source
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = format!(
        "{}.{}.imported-{stamp_ms}",
        slug(archive_key, 120, "session"),
        slug(&base, 160, "artifact")
    );
    for n in 0..100 {
        let name = if n == 0 {
            stem.clone()
        } else {
            format!("{stem}.{n}")
        };
        let p = dir.join(name);
        if !reserved.archive_name_taken(&p)? && std::fs::symlink_metadata(&p).is_err() {
            return Ok(p);
        }
    }
    Err(Error::Conflict {
        message: format!(
            "no free archive name for {} in {}",
            source.display(),
            dir.display()
        ),
        hint: Some("clear old entries from the import archive directory".into()),
    })
}

/// Move every source to its archive name in two flushed phases: link each (never
/// replacing, identity checked, hard-linked inputs refused), flush the archive directory,
/// then unlink each source and flush its directory. A crash leaves each file under one
/// name or both, never none; `finish_interrupted_moves` completes the second phase. The
/// moves are read from the plan twice rather than held.
pub fn perform_moves(moves: MoveList<'_>) -> Result<()> {
    let Some(ledger) = moves.0 else {
        return Ok(());
    };
    let mut archive_dirs = BTreeSet::new();
    ledger.for_each_move(|mv| {
        let src = &mv.source_path;
        let meta = std::fs::symlink_metadata(src).at(src)?;
        if !meta.is_file() || meta.nlink() != 1 || !mv.artifact.identity.same_file(&meta) {
            return Err(Error::Conflict {
                message: format!(
                    "{} changed since it was imported (or is linked elsewhere); it was not moved",
                    src.display()
                ),
                hint: Some("run the import again to pick up the change".into()),
            });
        }
        crate::writer::crash_point("import-move-link");
        crate::fsutil::hard_link_new(src, &mv.archive_path)?;
        if let Some(d) = mv.archive_path.parent() {
            archive_dirs.insert(d.to_path_buf());
        }
        Ok(())
    })?;
    for d in &archive_dirs {
        crate::fsutil::fsync_dir(d)?;
    }
    let mut source_dirs = BTreeSet::new();
    ledger.for_each_move(|mv| {
        crate::writer::crash_point("import-move-unlink");
        let archived = std::fs::symlink_metadata(&mv.archive_path).at(&mv.archive_path)?;
        let source = std::fs::symlink_metadata(&mv.source_path).at(&mv.source_path)?;
        if archived.ino() != source.ino() || archived.dev() != source.dev() {
            return Err(Error::Conflict {
                message: format!(
                    "{} is not the file just linked; {} was left in place",
                    mv.archive_path.display(),
                    mv.source_path.display()
                ),
                hint: None,
            });
        }
        std::fs::remove_file(&mv.source_path).at(&mv.source_path)?;
        if let Some(d) = mv.source_path.parent() {
            source_dirs.insert(d.to_path_buf());
        }
        Ok(())
    })?;
    for d in &source_dirs {
        crate::fsutil::fsync_dir(d)?;
    }
    Ok(())
}

/// Finish moves a crash cut between link and unlink: a source with two links whose other
/// name is in the import archive loses its source name. Returns the files finished.
pub fn finish_interrupted_moves(sessions_dir: &Path, archive_dir: &Path) -> Result<Vec<PathBuf>> {
    let Ok(entries) = std::fs::read_dir(archive_dir) else {
        return Ok(Vec::new());
    };
    let archived: HashSet<(u64, u64)> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".imported-"))
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| (m.dev(), m.ino()))
        .collect();
    let mut finished = Vec::new();
    for e in std::fs::read_dir(sessions_dir)
        .at(sessions_dir)?
        .filter_map(|e| e.ok())
    {
        let Ok(m) = e.metadata() else { continue };
        if m.is_file() && m.nlink() == 2 && archived.contains(&(m.dev(), m.ino())) {
            let p = e.path();
            std::fs::remove_file(&p).at(&p)?;
            finished.push(p);
        }
    }
    if !finished.is_empty() {
        crate::fsutil::fsync_dir(sessions_dir)?;
    }
    Ok(finished)
}
