//! Replays every input kept under `fuzz/regressions/<target>/` through the function the
//! cargo-fuzz target of that name calls (`openclaw_sessions::fuzzing`, see fuzz/README.md),
//! on the stable toolchain. Only the absence of panics is asserted. The fixture transcripts
//! and `sessions.json` files also go through the `jsonl_transcript` and `sessions_json` paths.

use std::path::{Path, PathBuf};

use openclaw_sessions::fuzzing::{cursor, entry, jsonl_transcript, sessions_json, zstd_row};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every file under `fuzz/regressions/<target>/`: seeds made from the fixtures (real rows,
/// and the same damaged) and the inputs that once failed; a target without any fails, so that
/// a replay never passes over nothing.
fn regressions(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(ROOT).join("fuzz/regressions").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file());
    files.sort();
    assert!(
        files.len() >= 4,
        "fuzz/regressions/{target} holds {} inputs",
        files.len()
    );
    files
}

/// Every file in the legacy fixture's `agents/*/sessions/` directories.
fn fixture_sessions() -> Vec<PathBuf> {
    let agents = Path::new(ROOT).join("tests/fixtures/openclaw-2026.9.6/legacy/.openclaw/agents");
    let mut files = Vec::new();
    for agent in std::fs::read_dir(agents).unwrap() {
        if let Ok(dir) = std::fs::read_dir(agent.unwrap().path().join("sessions")) {
            files.extend(dir.map(|e| e.unwrap().path()).filter(|p| p.is_file()));
        }
    }
    files.sort();
    assert!(!files.is_empty(), "no legacy fixture sessions found");
    files
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn fuzz_regressions_jsonl_transcript() {
    for path in regressions("jsonl_transcript")
        .iter()
        .chain(&fixture_sessions())
    {
        let scratch = tempfile::NamedTempFile::new().unwrap();
        jsonl_transcript(&read(path), scratch.path());
    }
}

#[test]
fn fuzz_regressions_sessions_json() {
    for path in regressions("sessions_json")
        .iter()
        .chain(&fixture_sessions())
    {
        sessions_json(&read(path));
    }
}

#[test]
fn fuzz_regressions_cursor() {
    for path in regressions("cursor") {
        cursor(&read(&path));
    }
}

#[test]
fn fuzz_regressions_entry() {
    for path in regressions("entry") {
        entry(&read(&path));
    }
}

#[test]
fn fuzz_regressions_zstd_row() {
    for path in regressions("zstd_row") {
        zstd_row(&read(&path));
    }
}
