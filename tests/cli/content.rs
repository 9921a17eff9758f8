//! What the state dir holds beside its content.

use std::path::PathBuf;

use crate::common::Store;

/// `<state>/tmp/openclaw-<uid>`: custody's lock files and their coordinators, which come and
/// go with every run (the only part of a store a comparison may leave out).
pub fn custody_dir(store: &Store) -> PathBuf {
    store
        .state()
        .join(format!("tmp/openclaw-{}", unsafe { libc::getuid() }))
}
