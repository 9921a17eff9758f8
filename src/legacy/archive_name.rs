//! File names in `agents/<id>/sessions/` (tests/reference/openclaw/FORMAT.md §e,
//! `dist/artifacts-*.mjs`).

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArchiveReason {
    Deleted,
    Reset,
    Bak,
}

/// What a file in a `sessions/` directory is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum SessionFile {
    /// The legacy index `sessions.json`.
    Index,
    /// `sessions.json.bak.<n>` and other index backups.
    IndexBackup,
    /// A live legacy transcript `<sessionId>.jsonl` (also topic transcripts).
    Transcript {
        session_id: String,
    },
    /// `<sessionId>.jsonl.<reason>.<stamp>[.<generation>][.zst]`.
    Archive {
        session_id: String,
        reason: ArchiveReason,
        stamp: String,
        generation: Option<String>,
        compressed: bool,
    },
    /// Checkpoints, trajectories, migration leftovers.
    Auxiliary,
    /// Temporary publication files (`*.tmp`) that a crash left behind.
    Temporary,
    Other,
}

/// Whether a `*.tmp` file in `sessions/` is one of this tool's own interrupted writes, which
/// the next mutation may remove: a transcript archive being published
/// (`<archive name>.<uuid>.tmp`) or a file written by rename (`.<name>.<32 hex>.tmp`). Other
/// `*.tmp` files (OpenClaw's own store writes among them) are left to prune's unreferenced-
/// artifact pass, which follows OpenClaw's age rules.
pub fn is_interrupted_write(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".tmp") else {
        return false;
    };
    let Some((base, id)) = stem.rsplit_once('.') else {
        return false;
    };
    let hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());
    if let Some(hidden) = base.strip_prefix('.') {
        return id.len() == 32 && hex(id) && !hidden.is_empty();
    }
    id.len() == 36
        && uuid::Uuid::try_parse(id).is_ok()
        && matches!(classify_session_file(base), SessionFile::Archive { .. })
}

/// Classify a file name found in `sessions/`.
pub fn classify_session_file(name: &str) -> SessionFile {
    if name == "sessions.json" {
        return SessionFile::Index;
    }
    if name.starts_with("sessions.json.") {
        return SessionFile::IndexBackup;
    }
    if name.ends_with(".tmp") {
        return SessionFile::Temporary;
    }
    if let Some((stem, rest)) = name.split_once(".jsonl.") {
        let mut parts = rest.splitn(2, '.');
        let reason = match parts.next() {
            Some("deleted") => Some(ArchiveReason::Deleted),
            Some("reset") => Some(ArchiveReason::Reset),
            Some("bak") => Some(ArchiveReason::Bak),
            _ => None,
        };
        if let (Some(reason), Some(tail)) = (reason, parts.next()) {
            let (tail, compressed) = match tail.strip_suffix(".zst") {
                Some(t) => (t, true),
                None => (tail, false),
            };
            // The stamp itself contains one '.' before the milliseconds: `...T08-00-00.000Z`.
            let (stamp, generation) = match tail.rsplit_once('.') {
                Some((s, g)) if g.len() == 32 && g.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    (s.to_string(), Some(g.to_string()))
                }
                _ => (tail.to_string(), None),
            };
            return SessionFile::Archive {
                session_id: stem.to_string(),
                reason,
                stamp,
                generation,
                compressed,
            };
        }
        return SessionFile::Auxiliary;
    }
    if let Some(stem) = name.strip_suffix(".jsonl") {
        if stem.contains(".checkpoint.") || stem.ends_with(".trajectory") {
            return SessionFile::Auxiliary;
        }
        return SessionFile::Transcript {
            session_id: stem.to_string(),
        };
    }
    if name.ends_with(".trajectory-path.json") {
        return SessionFile::Auxiliary;
    }
    SessionFile::Other
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_fixture_names() {
        assert_eq!(
            classify_session_file("f41211d0-f8c6.jsonl.deleted.2026-11-29T23-24-43.289Z.7601e05ea73643a98f220fed34913498.zst"),
            SessionFile::Archive {
                session_id: "f41211d0-f8c6".into(),
                reason: ArchiveReason::Deleted,
                stamp: "2026-11-29T23-24-43.289Z".into(),
                generation: Some("7601e05ea73643a98f220fed34913498".into()),
                compressed: true,
            }
        );
        assert_eq!(
            classify_session_file("ef600e04.jsonl.reset.2026-06-01T08-00-00.000Z"),
            SessionFile::Archive {
                session_id: "ef600e04".into(),
                reason: ArchiveReason::Reset,
                stamp: "2026-06-01T08-00-00.000Z".into(),
                generation: None,
                compressed: false,
            }
        );
        assert_eq!(
            classify_session_file("abc.jsonl"),
            SessionFile::Transcript {
                session_id: "abc".into()
            }
        );
        assert_eq!(classify_session_file("sessions.json"), SessionFile::Index);
        assert_eq!(
            classify_session_file("sessions.json.bak.2"),
            SessionFile::IndexBackup
        );
        assert_eq!(
            classify_session_file("abc.trajectory.jsonl"),
            SessionFile::Auxiliary
        );
    }
}

#[cfg(test)]
mod interrupted_write_tests {
    use super::is_interrupted_write;

    #[test]
    fn only_our_own_temporary_names() {
        assert!(is_interrupted_write(
            "9b1f.jsonl.deleted.2026-01-02T03-04-05.000Z.zst.0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.tmp"
        ));
        assert!(is_interrupted_write(
            ".sessions.json.0b9f3c1e7a4d4c2b9f1e2d3c4b5a6f70.tmp"
        ));
        assert!(!is_interrupted_write("notes.tmp"));
        assert!(!is_interrupted_write(
            "sessions.json.0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.tmp"
        ));
        assert!(!is_interrupted_write("9b1f.jsonl"));
    }
}
