//! `secrets scan`: secrets seeded in every place a conversation is kept are found there, with
//! where, and no output ever holds one (docs/SECRETS.md).

use std::io::Write;
use std::path::Path;

use crate::common::{checksums, json, Store};

const AWS: &str = "AKIAQ7X2LMNB4RT56R5T";
const GITHUB: &str = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1x3z5Ab";
const GATEWAY: &str = "gw-token-5b1e0c9a7f3d42e8";
const PASSWORD: &str = "Zq7wX3mK9pL2vB8nR4";
const GIVEN: &str = "value-from-secret-7c4d1a";
const PROFILE: &str = "auth-profile-key-93jd72hs";

fn all() -> [&'static str; 6] {
    [AWS, GITHUB, GATEWAY, PASSWORD, GIVEN, PROFILE]
}

fn tool_result(text: &str) -> String {
    format!(
        r#"{{"type":"message","id":"5eed0001","parentId":null,"timestamp":"2026-06-01T12:00:07.000Z","message":{{"role":"toolResult","toolCallId":"call_1","toolName":"exec","content":[{{"type":"text","text":"{text}"}}],"isError":false,"timestamp":1780315207000}}}}"#
    )
}

fn append_line(path: &Path, line: &str) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    writeln!(f, "{line}").unwrap();
}

/// The live store with a secret in each place: a plain transcript row, a zstd one, the
/// search index, an entry, a deleted archive (zstd), a reset archive, an import archive, a
/// snapshot; the config, an auth profile and a value file name three of them.
fn seeded() -> (Store, std::path::PathBuf) {
    let store = Store::copy("live");
    let state = store.state();
    std::fs::write(
        state.join("openclaw.json"),
        format!(r#"{{"gateway":{{"auth":{{"mode":"token","token":"{GATEWAY}"}}}}}}"#),
    )
    .unwrap();
    std::fs::write(
        state.join("agents/work/agent/auth-profiles.json"),
        format!(
            r#"{{"version":1,"profiles":{{"anthropic:default":{{"type":"api_key","provider":"anthropic","key":"{PROFILE}"}}}}}}"#
        ),
    )
    .unwrap();
    let conn = store.writable("main");
    // A plain row: a tool's output of `env`.
    let (sid, seq): (String, i64) = conn
        .query_row(
            "SELECT session_id, seq FROM transcript_events WHERE event_json LIKE '%toolResult%' LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    conn.execute(
        "UPDATE transcript_events SET event_json = ?1 WHERE session_id = ?2 AND seq = ?3",
        rusqlite::params![
            tool_result(&format!("AWS_ACCESS_KEY_ID={AWS}\\nHOME=/home/user")),
            sid,
            seq
        ],
    )
    .unwrap();
    // A zstd row: decoded, the token put in, encoded again.
    let (zsid, zseq, blob): (String, i64, Vec<u8>) = conn
        .query_row(
            "SELECT session_id, seq, event_zstd FROM transcript_events WHERE event_zstd IS NOT NULL LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    let text = String::from_utf8(zstd::decode_all(&blob[..]).unwrap()).unwrap();
    assert!(!text.contains(GITHUB));
    let text = text.replacen('{', &format!("{{\"leak\":\"export GH_TOKEN={GITHUB}\","), 1);
    conn.execute(
        "UPDATE transcript_events SET event_zstd = ?1 WHERE session_id = ?2 AND seq = ?3",
        rusqlite::params![zstd::encode_all(text.as_bytes(), 3).unwrap(), zsid, zseq],
    )
    .unwrap();
    // The search index's text, and an entry's label, hold the Gateway's token.
    conn.execute(
        "UPDATE session_transcript_fts SET text = text || ' token ' || ?1 WHERE rowid = (SELECT min(rowid) FROM session_transcript_fts)",
        [GATEWAY],
    )
    .unwrap();
    conn.execute(
        "UPDATE session_nodes SET entry_json = json_set(entry_json, '$.label', ?1) WHERE session_key = (SELECT min(session_key) FROM session_nodes)",
        [format!("deploy with {GATEWAY}")],
    )
    .unwrap();
    drop(conn);
    // A deleted archive (zstd JSONL), decoded, a line added, encoded in place.
    let sessions = state.join("agents/main/sessions");
    let deleted = std::fs::read_dir(&sessions)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains(".jsonl.deleted."))
        .unwrap();
    let mut text = zstd::decode_all(&std::fs::read(&deleted).unwrap()[..]).unwrap();
    text.extend_from_slice(tool_result(&format!("DB_PASSWORD={PASSWORD}")).as_bytes());
    text.push(b'\n');
    std::fs::write(&deleted, zstd::encode_all(&text[..], 3).unwrap()).unwrap();
    // A reset archive (plain JSONL) of another agent: the given value and the profile's key.
    let work = state.join("agents/work/sessions");
    let reset = std::fs::read_dir(&work)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains(".jsonl.reset."))
        .unwrap();
    append_line(&reset, &tool_result(&format!("{GIVEN} and {PROFILE}")));
    // An import archive (the legacy transcript OpenClaw moved aside).
    let import_dir = state.join("agents/main/session-sqlite-import-archive");
    let import = std::fs::read_dir(&import_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains(".jsonl.imported-"))
        .unwrap();
    append_line(&import, &tool_result(&format!("token={GITHUB}")));
    // A snapshot in this tool's repository: the seeded database as it is now.
    let snap = state.join("openclaw-sessions-snapshots/2026-12-01T00-00-00-000Z-seeded");
    std::fs::create_dir_all(&snap).unwrap();
    std::fs::copy(store.agent_db("main"), snap.join("database.sqlite")).unwrap();
    std::fs::write(snap.join("manifest.json"), "{}").unwrap();
    let values = store.dir.path().join("values.txt");
    std::fs::write(&values, format!("# given by the admin\n{GIVEN}\n")).unwrap();
    (store, values)
}

fn assert_no_secret(what: &str, out: &std::process::Output) {
    for s in all() {
        for stream in [&out.stdout, &out.stderr] {
            let text = String::from_utf8_lossy(stream);
            assert!(!text.contains(s), "{what} printed a secret ({s}):\n{text}");
        }
    }
}

#[test]
fn a_secret_in_every_place_is_found_there_and_never_printed() {
    let (store, values) = seeded();
    let before = checksums(&store.state());
    let out = store
        .cmd()
        .args([
            "secrets",
            "scan",
            "--json",
            "--limit",
            "1000",
            "--value-from",
        ])
        .arg(&values)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_no_secret("secrets scan --json", &out);
    let doc = json(&out);
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["error"]["code"], "SECRETS_FOUND");
    let findings = doc["data"]["findings"].as_array().unwrap();
    let fp = |s: &str| {
        use sha2::Digest;
        sha2::Sha256::digest(s.as_bytes())[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let places_of = |secret: &str| -> Vec<String> {
        let f = fp(secret);
        let mut v: Vec<String> = findings
            .iter()
            .filter(|x| x["fingerprint"] == f.as_str())
            .map(|x| {
                let l = &x["location"];
                match l["snapshot"].as_str() {
                    Some(_) => format!("snapshot:{}", l["place"].as_str().unwrap()),
                    None => l["place"].as_str().unwrap().to_string(),
                }
            })
            .collect();
        v.sort();
        v.dedup();
        v
    };
    assert_eq!(places_of(AWS), ["snapshot:transcript", "transcript"]);
    assert_eq!(
        places_of(GITHUB),
        ["import-archive", "snapshot:transcript", "transcript"]
    );
    assert_eq!(
        places_of(GATEWAY),
        ["entry", "fts", "snapshot:entry", "snapshot:fts"]
    );
    assert_eq!(places_of(PASSWORD), ["deleted-archive"]);
    assert_eq!(places_of(GIVEN), ["reset-archive"]);
    assert_eq!(places_of(PROFILE), ["reset-archive"]);
    // Where, precisely: the row's agent, key and seq; the archive's line.
    let aws = findings
        .iter()
        .find(|x| x["fingerprint"] == fp(AWS).as_str() && x["location"]["snapshot"].is_null())
        .unwrap();
    assert_eq!(aws["rule"], "aws-access-token");
    assert_eq!(aws["masked"], "AKIAQ7…6R5T");
    assert_eq!(aws["location"]["agentId"], "main");
    assert!(aws["location"]["sessionKey"]
        .as_str()
        .unwrap()
        .starts_with("agent:main:"));
    assert!(aws["location"]["seq"].is_i64());
    let gateway = findings
        .iter()
        .find(|x| x["fingerprint"] == fp(GATEWAY).as_str())
        .unwrap();
    assert_eq!(gateway["rule"], "host-value");
    let github = findings
        .iter()
        .find(|x| x["fingerprint"] == fp(GITHUB).as_str())
        .unwrap();
    assert_eq!(github["rule"], "github-pat");
    assert_eq!(gateway["source"], "openclaw.json gateway.auth.token");
    let deleted = findings
        .iter()
        .find(|x| x["fingerprint"] == fp(PASSWORD).as_str())
        .unwrap();
    assert!(deleted["location"]["line"].as_u64().unwrap() > 1);
    assert_eq!(
        doc["data"]["total"].as_u64().unwrap(),
        findings.len() as u64
    );
    // Read-only.
    assert_eq!(before, checksums(&store.state()));
    // Human output, at 80 columns and wide, names the same secrets and holds none.
    for cols in ["80", "200"] {
        let out = store
            .cmd()
            .env("COLUMNS", cols)
            .args(["secrets", "scan", "--value-from"])
            .arg(&values)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert_no_secret("secrets scan", &out);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        for s in all() {
            assert!(
                text.contains(&fp(s)),
                "{s} not listed at {cols} columns:\n{text}"
            );
        }
        if cols == "80" {
            crate::common::settings(&store)
                .bind(|| insta::assert_snapshot!("secrets_scan_seeded", text));
        }
    }
}

#[test]
fn a_clean_store_exits_0_and_a_wrong_rule_is_a_usage_error() {
    let store = Store::copy("live");
    let out = store.run_ok(["secrets", "scan"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("No secrets found."));
    let doc = store.json_ok(["secrets", "scan", "--json"]);
    assert_eq!(doc["data"]["total"], 0);
    assert!(doc["data"]["read"]["databases"].as_u64().unwrap() >= 4);
    let out = store.run_code(["secrets", "scan", "--rule", "github-pta"], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("github-pat"));
}

#[test]
fn a_value_too_short_to_look_for_is_refused() {
    let store = Store::copy("live");
    let out = store
        .cmd()
        .args(["secrets", "scan", "--value-from", "-"])
        .write_stdin("abc\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("too short"));
}
