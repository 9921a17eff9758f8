//! Naming and copying an SQLite file without touching it: its sidecars, its `file:` URI, and a
//! private copy to read through when its WAL has no shared-memory file (shared by the owner
//! read here and by `store::ReadOnlyDb`).

use std::path::{Path, PathBuf};

use crate::error::{Result, ResultExt};

/// `<path><suffix>`: `-wal`, `-shm`, `-journal`.
pub fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// A `file:` URI for `path`, percent-encoding what such a URI cannot carry literally.
pub fn uri_path(path: &Path) -> String {
    let mut out = String::from("file:");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'%' | b'?' | b'#' => out.push_str(&format!("%{b:02X}")),
            _ => out.push(b as char),
        }
    }
    out
}

/// A database and its `-wal` copied into a fresh 0700 directory, removed on drop: SQLite
/// rebuilds the WAL index there, so nothing is ever written beside the original.
pub struct PrivateCopy {
    dir: PathBuf,
    /// The copied database.
    pub db: PathBuf,
}

impl PrivateCopy {
    pub fn make(db: &Path) -> Result<Self> {
        use std::os::unix::fs::DirBuilderExt;
        let dir =
            std::env::temp_dir().join(format!("openclaw-sessions-read-{}", uuid::Uuid::new_v4()));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .at(&dir)?;
        let copy = PrivateCopy {
            db: dir.join(db.file_name().unwrap_or_default()),
            dir,
        };
        std::fs::copy(db, &copy.db).at(db)?;
        std::fs::copy(sidecar(db, "-wal"), sidecar(&copy.db, "-wal")).at(sidecar(db, "-wal"))?;
        Ok(copy)
    }
}

impl Drop for PrivateCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
