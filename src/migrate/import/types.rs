//! The records and file moves of an import plan, shared by the planner (`plan`), the ledger
//! that keeps them (`ledger`) and the mover (`archive`), which build on this module and not on
//! one another's types.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};

use crate::error::{Result, ResultExt};
use crate::streamed::serialize_visited;

/// A problem found while reading the legacy store (OpenClaw's issue codes).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ImportIssue {
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
}

impl ImportIssue {
    pub fn new(code: &str, message: String, key: Option<&str>) -> Self {
        ImportIssue {
            code: code.into(),
            message,
            session_key: key.map(String::from),
        }
    }
}

/// One session to import.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportRecord {
    /// Its place in the plan (the ledger's key).
    #[serde(skip)]
    pub seq: i64,
    pub session_key: String,
    pub session_id: String,
    /// The entry as it will be stored in `entry_json`, as text.
    #[serde(skip)]
    pub entry_json: String,
    /// The transcript to read, when one exists.
    pub transcript: Option<PathBuf>,
    /// Trajectory files that move with the transcript.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trajectories: Vec<PathBuf>,
    /// An orphan transcript imported as an archived "historical" session.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub historical: bool,
    /// An entry whose transcript was not where it said but was found by discovery: a
    /// primary transcript in the sessions dir whose header names its session id (OpenClaw's
    /// import gives the entry that file and moves it as a historical primary).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub adopted: bool,
    pub transcript_bytes: u64,
}

/// `{dev, ino, mtimeNs, size, sha256}` of a source, as the manifest records it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct FileIdentity {
    pub dev: String,
    pub ino: String,
    pub mtime_ns: String,
    pub size: u64,
    pub sha256: String,
}

impl FileIdentity {
    pub fn read(path: &Path) -> Result<Self> {
        let meta = std::fs::symlink_metadata(path).at(path)?;
        let (sha256, _) = crate::digest::sha256_file(path)?;
        Ok(FileIdentity {
            dev: meta.dev().to_string(),
            ino: meta.ino().to_string(),
            mtime_ns: (meta.mtime() as i128 * 1_000_000_000 + meta.mtime_nsec() as i128)
                .to_string(),
            size: meta.len(),
            sha256,
        })
    }

    pub(super) fn same_file(&self, meta: &std::fs::Metadata) -> bool {
        self.dev == meta.dev().to_string()
            && self.ino == meta.ino().to_string()
            && self.size == meta.len()
    }
}

/// What kind of artifact moves (manifest `kind`).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ArtifactKind {
    Transcript,
    Trajectory,
    UnreferencedJsonl,
    LegacyStore,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Disposal {
    pub state: &'static str,
}

/// Where the candidate transcript paths of a plan are read from (its ledger).
pub trait Candidates: std::fmt::Debug + Sync {
    /// Every candidate transcript path once, in the order the sessions named them.
    fn for_each_candidate(&self, visit: &mut dyn FnMut(PathBuf) -> Result<()>) -> Result<()>;
}

/// The files a move depends on: none, or every candidate transcript path of the plan (the
/// index's move), read from the plan as they are written out.
#[derive(Debug, Clone, Copy)]
pub enum Dependencies<'a> {
    None,
    Candidates(&'a dyn Candidates),
}

impl Serialize for Dependencies<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serialize_visited(serializer, |emit| match self {
            Dependencies::None => Ok(()),
            Dependencies::Candidates(plan) => plan.for_each_candidate(emit),
        })
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Artifact<'a> {
    pub identity: FileIdentity,
    pub classification: &'static str,
    pub reason: &'static str,
    pub dependencies: Dependencies<'a>,
    pub disposal: Disposal,
}

/// One planned or completed move (manifest `plannedMoves` / `completedMoves` item).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactMove<'a> {
    pub archive_path: PathBuf,
    pub artifact: Artifact<'a>,
    pub kind: ArtifactKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
    pub source_path: PathBuf,
}
