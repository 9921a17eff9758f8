//! Publishing a transcript archive file after its row committed
//! (tests/reference/openclaw/OPERATIONS.md §2 step 5): a private temp file, fsynced, hard-linked to
//! the final name (never replacing a file with other bytes), then the row stamped `published_at`.

use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::error::{Error, Remedy, Result, ResultExt};
use crate::fsutil::create_new_private;
use crate::store::db::archives;

pub fn sha256_hex(bytes: &[u8]) -> String {
    crate::units::hex(&Sha256::digest(bytes))
}

fn file_sha(path: &Path) -> Result<String> {
    Ok(sha256_hex(&std::fs::read(path).at(path)?))
}

/// Write `bytes` to `<dir>/<name>` without ever replacing a different file.
pub fn publish_file(dir: &Path, name: &str, bytes: &[u8], sha: &str) -> Result<()> {
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
            Ok(())
        } else {
            Err(Error::Conflict {
                message: format!("transcript archive collision for {name}: a different file already has that name"),
                hint: Some("move the existing file aside and run the doctor's repairs".into()),
            }
            .with_remedy(Remedy::RunDoctorFix))
        };
    }
    let tmp = dir.join(format!("{name}.{}.tmp", uuid::Uuid::new_v4()));
    let result = (|| {
        let mut f = create_new_private(&tmp)?;
        f.write_all(bytes).at(&tmp)?;
        f.sync_all().at(&tmp)?;
        drop(f);
        super::crash_point("publish-temp-written");
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
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        if file_sha(&target)? != sha {
            return Err(Error::Internal(format!(
                "published archive {name} does not hash to its row"
            )));
        }
        Ok(())
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

/// [`publish_pending`] for a caller that has checked `sessions_dir` already.
pub(crate) fn publish_checked(
    db: &super::WritableDb,
    sessions_dir: &Path,
    now: i64,
) -> Result<(Vec<String>, Vec<String>)> {
    let (conn, db_path) = (&db.conn, db.path.as_path());
    let rows = archives::pending(conn).at(db_path)?;
    let (mut done, mut failed) = (Vec::new(), Vec::new());
    for (sid, generation, name, blob, sha) in rows {
        match publish_file(sessions_dir, &name, &blob, &sha) {
            Ok(()) => {
                archives::mark_published(conn, &sid, &generation, now).at(db_path)?;
                done.push(name);
            }
            Err(e) => {
                let msg: String = e.to_string().chars().take(1024).collect();
                archives::mark_publish_failed(conn, &sid, &generation, now, &msg).at(db_path)?;
                failed.push(format!("{name}: {msg}"));
            }
        }
    }
    Ok((done, failed))
}
