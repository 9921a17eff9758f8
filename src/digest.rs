//! SHA-256 as lower-case hex, of bytes and of a file read in bounded chunks: the digests
//! OpenClaw's archives, our snapshots and the import's records name.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::error::{Result, ResultExt};

pub fn sha256_hex(bytes: &[u8]) -> String {
    crate::units::hex(&Sha256::digest(bytes))
}

/// The digest of a regular file and its length (never through a symlink), read up to a MiB at
/// a time (snapshots of databases of gigabytes are hashed).
pub fn sha256_file(path: &Path) -> Result<(String, u64)> {
    use std::io::Read;
    let mut f = crate::fsutil::open_regular(path)?;
    let mut h = Sha256::new();
    // A MiB for a database, no more than the file for the many small archives a listing hashes.
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let mut buf = vec![0u8; len.clamp(8 << 10, 1 << 20) as usize];
    let mut total = 0u64;
    loop {
        let n = f.read(&mut buf).at(path)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        total += n as u64;
    }
    Ok((crate::units::hex(&h.finalize()), total))
}
