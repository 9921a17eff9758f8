//! How much disk a write needs and where it has it: free bytes on a file system, the
//! directory SQLite puts its temporary files in, and the size of a WAL of so many pages
//! (shared by `prune`'s and `reclaim`'s checks before any change).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// WAL frame header (24 bytes per page) and WAL file header (32 bytes), as SQLite writes them.
pub(crate) const WAL_FRAME_HEADER: u64 = 24;
pub(crate) const WAL_HEADER: u64 = 32;

/// Bytes free for this user on the file system holding `dir`.
pub(crate) fn free_bytes_at(dir: &Path) -> Result<u64> {
    if let Some(n) = crate::test_hooks::free_bytes() {
        return Ok(n);
    }
    let s = rustix::fs::statvfs(dir).map_err(|e| Error::io(dir, e.into()))?;
    Ok(s.f_bavail.saturating_mul(s.f_frsize))
}

/// The directory SQLite writes temporary files to on Unix: `SQLITE_TMPDIR`, `TMPDIR`,
/// `/var/tmp`, `/usr/tmp`, `/tmp`, the first that is a directory this user may write to
/// (the order of SQLite's `unixTempFileDir`).
pub(crate) fn sqlite_temp_dir() -> Option<PathBuf> {
    let from_env = ["SQLITE_TMPDIR", "TMPDIR"]
        .into_iter()
        .filter_map(std::env::var_os)
        .map(PathBuf::from);
    let fixed = ["/var/tmp", "/usr/tmp", "/tmp"]
        .into_iter()
        .map(PathBuf::from);
    from_env.chain(fixed).find(|d| {
        d.is_dir()
            && rustix::fs::access(
                d.as_path(),
                rustix::fs::Access::WRITE_OK | rustix::fs::Access::EXEC_OK,
            )
            .is_ok()
    })
}

pub(crate) fn same_file_system(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev(),
        _ => false,
    }
}
