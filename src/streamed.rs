//! JSON arrays written as their items are read (from a scratch database, a page at a time),
//! never collected.

use serde::ser::{Error as _, SerializeSeq};
use serde::{Serialize, Serializer};

use crate::error::{Error, Result};

/// Serialize a sequence as it is visited, without collecting it. A failed write stops the
/// visit and is the error returned.
pub fn serialize_visited<S: Serializer, T: Serialize>(
    serializer: S,
    visit_all: impl FnOnce(&mut dyn FnMut(T) -> Result<()>) -> Result<()>,
) -> std::result::Result<S::Ok, S::Error> {
    let mut seq = serializer.serialize_seq(None)?;
    let mut failed = None;
    let visited = visit_all(&mut |item| match seq.serialize_element(&item) {
        Ok(()) => Ok(()),
        Err(e) => {
            failed = Some(e);
            Err(Error::Internal("output stopped".into()))
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    visited.map_err(S::Error::custom)?;
    seq.end()
}
