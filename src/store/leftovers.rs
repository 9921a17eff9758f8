//! What killed runs leave inside a store, found by one set of name rules: the mutation that
//! next holds custody removes these files (`ops::leftovers`), and the doctor names them (check
//! `leftovers`). Only names this tool writes match.

use std::path::PathBuf;

use crate::legacy::is_interrupted_write;
use crate::paths::AgentPaths;
use crate::store::db::create::{creation_stage_pid, is_creation_stage};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftoverKind {
    /// A restore's staging directory beside the agent database (`.tmp-restore-*`,
    /// `.sqlite-snapshot-*`).
    StagingDir,
    /// The stage of a database being created (`*.sqlite.creating-<pid>`, or one of its
    /// sidecars), with the pid of the process that created it.
    CreationStage { pid: Option<i64> },
    /// A temporary publication file in `sessions/` (our own `*.tmp` names only).
    InterruptedWrite,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leftover {
    pub path: PathBuf,
    pub kind: LeftoverKind,
}

/// Every leftover of one agent: its database's directory first, then `sessions/`, each in
/// name order.
pub fn find_leftovers(paths: &AgentPaths) -> Vec<Leftover> {
    let mut found = Vec::new();
    if let Some(dir) = paths.db.parent() {
        for (name, path, kind) in entries(dir) {
            let is_dir = kind.is_some_and(|t| t.is_dir());
            let is_file = kind.is_some_and(|t| t.is_file());
            let kind = if name.starts_with(".tmp-restore-") || name.starts_with(".sqlite-snapshot-")
            {
                is_dir.then_some(LeftoverKind::StagingDir)
            } else if is_creation_stage(&name) {
                is_file.then(|| LeftoverKind::CreationStage {
                    pid: creation_stage_pid(&name),
                })
            } else {
                None
            };
            if let Some(kind) = kind {
                found.push(Leftover { path, kind });
            }
        }
    }
    for (name, path, kind) in entries(&paths.sessions_dir) {
        if kind.is_some_and(|t| t.is_file()) && is_interrupted_write(&name) {
            found.push(Leftover {
                path,
                kind: LeftoverKind::InterruptedWrite,
            });
        }
    }
    found
}

/// A directory's entries (name, path, kind; a symbolic link is neither a file nor a
/// directory), sorted by name; none when it cannot be read.
fn entries(dir: &std::path::Path) -> Vec<(String, PathBuf, Option<std::fs::FileType>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.path(),
                e.file_type().ok(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_only_our_names_by_their_kind() {
        let tmp = tempfile::tempdir().unwrap();
        let agent = tmp.path().join("agents/main");
        let db_dir = agent.join("agent");
        let sessions = agent.join("sessions");
        std::fs::create_dir_all(db_dir.join(".tmp-restore-1")).unwrap();
        std::fs::create_dir_all(&sessions).unwrap();
        for f in [
            "openclaw-agent.sqlite",
            "openclaw-agent.sqlite.creating-4242",
            "openclaw-agent.sqlite.creating-4242-wal",
            ".sqlite-snapshot-not-a-dir",
        ] {
            std::fs::write(db_dir.join(f), b"x").unwrap();
        }
        // A link named like a stage is not ours: the files found are files.
        std::os::unix::fs::symlink(
            db_dir.join("openclaw-agent.sqlite"),
            db_dir.join("openclaw-agent.sqlite.creating-7-shm"),
        )
        .unwrap();
        let tmp_name = ".sessions.json.0b9f3c1e7a4d4c2b9f1e2d3c4b5a6f70.tmp";
        std::fs::write(sessions.join(tmp_name), b"x").unwrap();
        std::fs::write(sessions.join("b.jsonl.tmp"), b"x").unwrap();
        let paths = AgentPaths {
            id: crate::paths::AgentId::parse("main").unwrap(),
            dir: agent.clone(),
            db: db_dir.join("openclaw-agent.sqlite"),
            sessions_dir: sessions.clone(),
            legacy_index: None,
            import_archive_dir: agent.join("import-archive"),
        };
        let found: Vec<(String, LeftoverKind)> = find_leftovers(&paths)
            .into_iter()
            .map(|l| {
                let name = l.path.file_name().unwrap().to_string_lossy().into_owned();
                (name, l.kind)
            })
            .collect();
        let stage = LeftoverKind::CreationStage { pid: Some(4242) };
        assert_eq!(
            found,
            vec![
                (".tmp-restore-1".to_string(), LeftoverKind::StagingDir),
                ("openclaw-agent.sqlite.creating-4242".to_string(), stage),
                ("openclaw-agent.sqlite.creating-4242-wal".to_string(), stage),
                (tmp_name.to_string(), LeftoverKind::InterruptedWrite),
            ]
        );
    }
}
