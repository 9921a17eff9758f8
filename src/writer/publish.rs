//! Publishing a transcript archive file after its row committed
//! (tests/reference/openclaw/OPERATIONS.md §2 step 5): a private temp file, fsynced, hard-linked to
//! the final name (never replacing a file with other bytes), then the row stamped `published_at`.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::digest::sha256_hex;
use crate::error::{Error, Remedy, Result, ResultExt};
use crate::fsutil::create_new_private;
use crate::store::db::archives;

fn file_sha(path: &Path) -> Result<String> {
    Ok(sha256_hex(&crate::fsutil::read_regular(path)?))
}

/// Write `bytes` to `<dir>/<name>` without ever replacing a different file.
pub fn publish_file(dir: &Path, name: &str, bytes: &[u8], sha: &str) -> Result<()> {
    let mut staged = stage_file(dir, name, bytes, sha);
    sync_staged(std::slice::from_mut(&mut staged));
    if link_staged(staged, sha)? {
        sync_dir(dir);
    }
    Ok(())
}

/// The directory entries made so far, made durable.
fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// An archive file on its way to its name.
enum Staged {
    /// A file of that name with the same bytes is there already.
    Present,
    /// The bytes in a private temporary file, not yet synced.
    Temp {
        file: Option<std::fs::File>,
        tmp: PathBuf,
        target: PathBuf,
        synced: Result<()>,
    },
}

/// The first step of publishing: checks, and the bytes written to a temporary file beside
/// the target (synced by [`sync_staged`], linked by [`link_staged`]).
fn stage_file(dir: &Path, name: &str, bytes: &[u8], sha: &str) -> Result<Staged> {
    // The name comes from a database row: one plain file name, or nothing is written.
    if Path::new(name).file_name().and_then(|n| n.to_str()) != Some(name) {
        return Err(Error::unsafe_path(format!(
            "archive name {name:?} is not a plain file name; nothing is written"
        )));
    }
    crate::custody::ensure_private_dir(dir)?;
    let target = dir.join(name);
    if target.symlink_metadata().is_ok() {
        return if file_sha(&target)? == sha {
            Ok(Staged::Present)
        } else {
            Err(Error::Conflict {
                message: format!("transcript archive collision for {name}: a different file already has that name"),
                hint: Some("move the existing file aside and run the doctor's repairs".into()),
            }
            .with_remedy(Remedy::RunDoctorFix))
        };
    }
    let tmp = dir.join(format!("{name}.{}.tmp", uuid::Uuid::new_v4()));
    let mut f = create_new_private(&tmp)?;
    if let Err(e) = f.write_all(bytes) {
        drop(f);
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(&tmp, e));
    }
    Ok(Staged::Temp {
        file: Some(f),
        tmp,
        target,
        synced: Ok(()),
    })
}

/// Threads that sync staged files at once: the file system commits concurrent syncs
/// together, where one after another each waits for its own commit.
const SYNC_THREADS: usize = 8;

/// Sync every staged temporary file's bytes (each closed after).
fn sync_staged(staged: &mut [Result<Staged>]) {
    let mut files: Vec<(&mut Option<std::fs::File>, &PathBuf, &mut Result<()>)> = staged
        .iter_mut()
        .filter_map(|s| match s {
            Ok(Staged::Temp {
                file, tmp, synced, ..
            }) => Some((file, &*tmp, synced)),
            _ => None,
        })
        .collect();
    let sync =
        |(file, tmp, synced): &mut (&mut Option<std::fs::File>, &PathBuf, &mut Result<()>)| {
            if let Some(f) = file.take() {
                **synced = f.sync_all().at(tmp.as_path());
            }
        };
    if files.len() <= 1 {
        files.iter_mut().for_each(sync);
        return;
    }
    let per_thread = files.len().div_ceil(SYNC_THREADS);
    std::thread::scope(|scope| {
        for chunk in files.chunks_mut(per_thread) {
            scope.spawn(move || chunk.iter_mut().for_each(sync));
        }
    });
}

/// The last step of publishing a staged file: hard-linked to its name (never replacing a
/// file with other bytes) and verified; the temporary file goes. Returns whether a new name
/// was linked (the directory then needs a sync before the file counts as published).
fn link_staged(staged: Result<Staged>, sha: &str) -> Result<bool> {
    let (tmp, target, synced) = match staged? {
        Staged::Present => return Ok(false),
        Staged::Temp {
            tmp,
            target,
            synced,
            ..
        } => (tmp, target, synced),
    };
    let result = (|| {
        synced?;
        super::crash_point("publish-temp-written");
        let name = target.display();
        match std::fs::hard_link(&tmp, &target) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if file_sha(&target)? != sha {
                    return Err(Error::Conflict {
                        message: format!("transcript archive collision for {name}"),
                        hint: None,
                    });
                }
            }
            Err(e) => return Err(Error::io(&target, e)),
        }
        super::crash_point("publish-linked");
        if file_sha(&target)? != sha {
            return Err(Error::Internal(format!(
                "published archive {name} does not hash to its row"
            )));
        }
        Ok(true)
    })();
    let _ = std::fs::remove_file(&tmp);
    result
}

/// Publish every archive row still waiting for its file; returns the names published and
/// the failures (recorded on the rows). Refused if `sessions_dir` leads outside the store.
pub fn publish_pending(
    db: &super::WritableDb,
    sessions_dir: &Path,
    now: i64,
) -> Result<(Vec<String>, Vec<String>)> {
    super::check_owned_path(&db.state_dir, sessions_dir)?;
    publish_checked(db, sessions_dir, now)
}

/// Archive files written and synced together.
const PUBLISH_GROUP: usize = 64;

/// [`publish_pending`] for a caller that has checked `sessions_dir` already. The files are
/// linked one by one, the directory synced once, and then the rows stamped together: a row
/// reads as published only once its file's name is durable.
pub(crate) fn publish_checked(
    db: &super::WritableDb,
    sessions_dir: &Path,
    now: i64,
) -> Result<(Vec<String>, Vec<String>)> {
    let (conn, db_path) = (&db.conn, db.path.as_path());
    // A group of files at a time is written, synced together, then linked: a group's
    // blobs are not held, only its open files.
    let mut outcomes = Vec::new();
    let mut linked = false;
    let mut group: Vec<(String, String, String, String, Result<Staged>)> = Vec::new();
    let mut finish = |group: &mut Vec<(String, String, String, String, Result<Staged>)>| {
        let mut staged: Vec<Result<Staged>> = group
            .iter_mut()
            .map(|g| std::mem::replace(&mut g.4, Ok(Staged::Present)))
            .collect();
        sync_staged(&mut staged);
        for ((sid, generation, name, sha, _), staged) in group.drain(..).zip(staged) {
            let outcome = link_staged(staged, &sha);
            linked |= matches!(outcome, Ok(true));
            outcomes.push((sid, generation, name, outcome.map(|_| ())));
        }
    };
    archives::for_each_pending(conn, |(sid, generation, name, blob, sha)| {
        let staged = stage_file(sessions_dir, &name, &blob, &sha);
        group.push((sid, generation, name, sha, staged));
        if group.len() == PUBLISH_GROUP {
            finish(&mut group);
        }
    })
    .at(db_path)?;
    finish(&mut group);
    if outcomes.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    if linked {
        sync_dir(sessions_dir);
    }
    let (mut done, mut failed) = (Vec::new(), Vec::new());
    let tx = rusqlite::Transaction::new_unchecked(conn, rusqlite::TransactionBehavior::Immediate)
        .at(db_path)?;
    for (sid, generation, name, outcome) in outcomes {
        match outcome {
            Ok(()) => {
                archives::mark_published(&tx, &sid, &generation, now).at(db_path)?;
                done.push(name);
            }
            Err(e) => {
                let msg: String = e.to_string().chars().take(1024).collect();
                archives::mark_publish_failed(&tx, &sid, &generation, now, &msg).at(db_path)?;
                failed.push(format!("{name}: {msg}"));
            }
        }
    }
    tx.commit().at(db_path)?;
    Ok((done, failed))
}
