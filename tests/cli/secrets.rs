//! `secrets scan`: secrets seeded in every place a conversation is kept are found there, with
//! where, and no output ever holds one (docs/SECRETS.md).

use std::collections::BTreeMap;
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
pub(crate) fn seeded() -> (Store, std::path::PathBuf) {
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

fn fingerprint_of(s: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(s.as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every zstd frame that decodes in `bytes` (a file that is one, a blob inside a page),
/// decoded as far as it goes.
fn decoded_frames(bytes: &[u8]) -> Vec<Vec<u8>> {
    let magic = [0x28u8, 0xb5, 0x2f, 0xfd];
    let mut out = Vec::new();
    for (i, w) in bytes.windows(4).enumerate() {
        if w != magic {
            continue;
        }
        let Ok(mut dec) = zstd::stream::read::Decoder::new(&bytes[i..]) else {
            continue;
        };
        let mut text = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            match std::io::Read::read(&mut dec, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => text.extend_from_slice(&buf[..n]),
            }
            if text.len() > 64 << 20 {
                break;
            }
        }
        out.push(text);
    }
    out
}

/// Every file under `dir` whose bytes (or any zstd frame in them, decoded) hold one of
/// `secrets`: (file, secret). The host's configuration, where the secrets belong, is not
/// a conversation and is left out.
fn raw_hits(dir: &Path, secrets: &[&str]) -> Vec<(String, String)> {
    let mut hits = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.file_name().unwrap().to_string_lossy();
            if name == "openclaw.json" || name == "auth-profiles.json" {
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            let mut texts = decoded_frames(&bytes);
            texts.push(bytes);
            for s in secrets {
                if texts
                    .iter()
                    .any(|t| t.windows(s.len()).any(|w| w == s.as_bytes()))
                {
                    hits.push((p.display().to_string(), s.to_string()));
                }
            }
        }
    }
    hits
}

/// The scrub's arguments selecting every seeded secret, each by another selector.
pub(crate) fn scrub_all(values: &Path) -> Vec<String> {
    vec![
        "secrets".into(),
        "scrub".into(),
        "--yes".into(),
        "--rule".into(),
        "aws-access-token".into(),
        "--rule".into(),
        "github-pat".into(),
        "--rule".into(),
        "host-value".into(),
        "--fingerprint".into(),
        fingerprint_of(PASSWORD),
        "--value-from".into(),
        values.display().to_string(),
        "--remove-snapshots".into(),
    ]
}

#[test]
fn scrub_leaves_no_byte_of_a_selected_secret_anywhere_and_the_store_reads_back() {
    let (store, values) = seeded();
    let state = store.state();
    assert!(!raw_hits(&state, &all()).is_empty());
    // The dry run lists every place and changes nothing.
    let before = checksums(&state);
    let mut args = scrub_all(&values);
    args.push("--dry-run".into());
    let out = store.cmd().args(&args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_no_secret("secrets scrub -n", &out);
    let plan = String::from_utf8_lossy(&out.stdout).to_string();
    for place in [
        "transcript",
        "entry",
        "fts",
        "deleted-archive",
        "reset-archive",
        "import-archive",
        "2026-12-01T00-00-00-000Z-seeded",
        "--keep-snapshot",
    ] {
        assert!(
            plan.contains(place),
            "the plan does not name {place}:\n{plan}"
        );
    }
    assert_eq!(before, checksums(&state));
    // The run.
    let mut args = scrub_all(&values);
    args.push("--json".into());
    let out = store.cmd().args(&args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_no_secret("secrets scrub", &out);
    let doc = json(&out);
    assert_eq!(doc["data"]["applied"], true);
    assert_eq!(
        doc["data"]["secrets"].as_array().unwrap().len(),
        all().len()
    );
    // The safety snapshot held the secrets: removed once verified.
    let taken = doc["data"]["safetySnapshots"].as_array().unwrap();
    assert!(!taken.is_empty());
    for s in taken {
        assert!(!Path::new(s.as_str().unwrap()).exists());
    }
    // No byte of any seeded secret under the state dir, nor in the snapshot repositories.
    assert_eq!(raw_hits(&state, &all()), Vec::<(String, String)>::new());
    if store.snapshots_home().exists() {
        assert_eq!(
            raw_hits(&store.snapshots_home(), &all()),
            Vec::<(String, String)>::new()
        );
    }
    // The scan finds nothing; the databases check; every transcript reads back.
    let out = store
        .cmd()
        .args(["secrets", "scan", "--value-from"])
        .arg(&values)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    for agent in ["main", "work"] {
        let conn = store.writable(agent);
        crate::common::assert_integrity(&conn, agent);
        crate::common::assert_foreign_keys(&conn, agent);
        let mut stmt = conn
            .prepare("SELECT session_id, seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events")
            .unwrap();
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<Vec<u8>>>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                ))
            })
            .unwrap();
        for row in rows {
            let (sid, seq, json, zst, len) = row.unwrap();
            let text = match (json, zst) {
                (Some(j), _) => j,
                (None, Some(z)) => {
                    let t = String::from_utf8(zstd::decode_all(&z[..]).unwrap()).unwrap();
                    assert_eq!(Some(t.len() as i64), len, "{sid}/{seq}");
                    t
                }
                _ => panic!("{sid}/{seq} has no payload"),
            };
            serde_json::from_str::<serde_json::Value>(&text)
                .unwrap_or_else(|e| panic!("{sid}/{seq}: {e}"));
        }
    }
    // OpenClaw's marker where the secrets were.
    let conn = store.writable("main");
    let marked: i64 = conn
        .query_row(
            "SELECT count(*) FROM transcript_events WHERE event_json LIKE '%AKIAQ7…6R5T%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(marked, 1);
    // The archives keep their names and stay valid zstd.
    let sessions = state.join("agents/main/sessions");
    let deleted = std::fs::read_dir(&sessions)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains(".jsonl.deleted."))
        .unwrap();
    let text = String::from_utf8(zstd::decode_all(&std::fs::read(&deleted).unwrap()[..]).unwrap())
        .unwrap();
    let line = text.lines().find(|l| l.contains("DB_PASSWORD")).unwrap();
    assert!(line.contains("DB_PASSWORD=Zq7wX3…8nR4"), "{line}");
    serde_json::from_str::<serde_json::Value>(line).unwrap();
    // A second run has nothing to do.
    let out = store.cmd().args(scrub_all(&values)).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to scrub"));
}

#[test]
fn scrub_needs_a_selection_and_leaves_snapshots_unless_asked() {
    let (store, values) = seeded();
    let before = checksums(&store.state());
    let out = store.run_code(["secrets", "scrub", "--yes"], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("say which secrets"));
    let out = store.run_code(["secrets", "scrub", "--yes", "--fingerprint", "xyz"], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("hex"));
    let out = store.run_code(["secrets", "scrub", "--yes", "--rule", "github-pta"], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("github-pat"));
    assert_eq!(before, checksums(&store.state()));
    // Only the AWS key, only in the live store: the snapshot is listed and kept.
    let out = store
        .cmd()
        .args(["secrets", "scrub", "--yes", "--rule", "aws-access-token"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("--remove-snapshots"), "{text}");
    let hits = raw_hits(&store.state(), &[AWS, GITHUB]);
    let aws: Vec<&String> = hits
        .iter()
        .filter(|(_, s)| s == AWS)
        .map(|(f, _)| f)
        .collect();
    assert!(!aws.is_empty());
    assert!(
        aws.iter()
            .all(|f| f.contains("openclaw-sessions-snapshots")),
        "{hits:?}"
    );
    assert!(hits
        .iter()
        .any(|(f, s)| s == GITHUB && !f.contains("snapshots")));
    drop(values);
}

/// Item 3 of docs/SECRETS.md: nothing redacts at write time. A token written by an ordinary
/// change is stored as it was given.
#[test]
fn a_normal_write_keeps_a_token_shape() {
    let store = Store::copy("live");
    let key: String = store
        .writable("main")
        .query_row("SELECT min(session_key) FROM session_nodes", [], |r| {
            r.get(0)
        })
        .unwrap();
    let label = format!("\"deploy {AWS}\"");
    store
        .cmd()
        .args(["patch", &key, "--yes", "--set"])
        .arg(format!("label={label}"))
        .assert()
        .success();
    let entry: String = store
        .writable("main")
        .query_row(
            "SELECT entry_json FROM session_nodes WHERE session_key = ?1",
            [&key],
            |r| r.get(0),
        )
        .unwrap();
    assert!(entry.contains(AWS), "{entry}");
}

#[test]
fn one_finding_of_one_secret_is_said_in_the_singular() {
    let (store, _) = seeded();
    let one = store.dir.path().join("one.txt");
    std::fs::write(&one, format!("{PASSWORD}\n")).unwrap();
    let out = store
        .cmd()
        .args([
            "secrets",
            "scan",
            "--rule",
            "none",
            "--no-host-values",
            "--value-from",
        ])
        .arg(&one)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\n1 finding of 1 secret. "), "{text}");
    assert_no_secret("secrets scan", &out);
}

/// The findings `secrets scan` makes outside snapshots, per file.
fn live_findings(store: &Store, values: &Path) -> BTreeMap<String, u64> {
    let out = store
        .cmd()
        .args([
            "secrets",
            "scan",
            "--json",
            "--limit",
            "100000",
            "--value-from",
        ])
        .arg(values)
        .output()
        .unwrap();
    let doc = json(&out);
    let mut by_path = BTreeMap::new();
    for f in doc["data"]["findings"].as_array().unwrap() {
        let l = &f["location"];
        if l["snapshot"].is_null() {
            *by_path
                .entry(l["path"].as_str().unwrap().to_string())
                .or_default() += 1;
        }
    }
    by_path
}

/// kill -9 at each of the scrub's crash points: each place is left as it was or scrubbed
/// (a database in one transaction, a file by rename), never half; a re-run finishes, and then
/// no byte of a seeded secret is left.
#[test]
fn scrub_killed_at_each_point_leaves_old_or_scrubbed_and_a_rerun_finishes() {
    for point in [
        "pipeline-apply",
        "scrub-database-before-commit",
        "scrub-database-committed",
        "scrub-database",
        "scrub-file-staged",
        "scrub-file-renamed",
        "scrub-snapshot-removed",
        "pipeline-applied",
    ] {
        let (store, values) = seeded();
        let state = store.state();
        let before = checksums(&state);
        let found_before = live_findings(&store, &values);
        let out = store
            .cmd()
            .env("OPENCLAW_SESSIONS_CRASH_AT", point)
            .args(scrub_all(&values))
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            None,
            "{point}: not killed there: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Each place: every finding it had, or none.
        let found = live_findings(&store, &values);
        for (path, n) in &found {
            assert_eq!(
                found_before.get(path),
                Some(n),
                "{point}: {path} is half scrubbed"
            );
            if !path.ends_with(".sqlite") {
                let abs = state.join(path);
                let now = checksums(&state);
                assert_eq!(
                    before.get(&abs),
                    now.get(&abs),
                    "{point}: {path} holds a secret but changed"
                );
            }
        }
        for agent in ["main", "work"] {
            crate::common::assert_integrity(&store.writable(agent), agent);
        }
        // The re-run finishes.
        let out = store.cmd().args(scrub_all(&values)).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{point}: re-run: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            raw_hits(&state, &all()),
            Vec::<(String, String)>::new(),
            "{point}"
        );
        if store.snapshots_home().exists() {
            assert_eq!(
                raw_hits(&store.snapshots_home(), &all()),
                Vec::<(String, String)>::new(),
                "{point}"
            );
        }
        let leftovers: Vec<String> = checksums(&state)
            .keys()
            .map(|p| p.display().to_string())
            .filter(|p| p.ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{point}: {leftovers:?}");
    }
}

/// The plan and the report, for people, at 80 columns: every place with its count, never a
/// secret.
#[test]
fn scrub_plan_and_report_at_80_columns() {
    let (store, values) = seeded();
    let mut args = scrub_all(&values);
    args.retain(|a| a != "--yes");
    args.push("--dry-run".into());
    let out = store
        .cmd()
        .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", "80")
        .args(&args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_no_secret("secrets scrub -n", &out);
    let plan = String::from_utf8_lossy(&out.stdout).to_string();
    let out = store
        .cmd()
        .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", "80")
        .args(scrub_all(&values))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_no_secret("secrets scrub", &out);
    let report = String::from_utf8_lossy(&out.stdout).to_string();
    crate::common::settings(&store).bind(|| {
        insta::assert_snapshot!("secrets_scrub_plan_80", plan);
        insta::assert_snapshot!("secrets_scrub_report_80", report);
    });
}

/// A published archive is its row's blob byte for byte (the row's `archive_sha256` is the
/// file's): with a secret in both, the scrub rewrites both, and they stay the same bytes.
#[test]
fn a_published_archive_and_its_row_stay_the_same_bytes() {
    let store = Store::copy("live");
    let conn = store.writable("main");
    let (rowid, name, blob): (i64, String, Vec<u8>) = conn
        .query_row(
            "SELECT rowid, archive_name, archive_blob FROM session_transcript_archives WHERE encoding = 'zstd' LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    let file = store.state().join("agents/main/sessions").join(&name);
    assert_eq!(std::fs::read(&file).unwrap(), blob);
    let mut text = zstd::decode_all(&blob[..]).unwrap();
    text.extend_from_slice(tool_result(&format!("export GH_TOKEN={GITHUB}")).as_bytes());
    text.push(b'\n');
    let blob = zstd::encode_all(&text[..], 3).unwrap();
    let sha = {
        use sha2::Digest;
        format!("{:x}", sha2::Sha256::digest(&blob))
    };
    conn.execute(
        "UPDATE session_transcript_archives SET archive_blob = ?2, archive_sha256 = ?3 WHERE rowid = ?1",
        rusqlite::params![rowid, blob, sha],
    )
    .unwrap();
    drop(conn);
    std::fs::write(&file, &blob).unwrap();
    store.run_ok(["secrets", "scrub", "--yes", "--rule", "github-pat"]);
    let (blob, sha): (Vec<u8>, String) = store
        .writable("main")
        .query_row(
            "SELECT archive_blob, archive_sha256 FROM session_transcript_archives WHERE rowid = ?1",
            [rowid],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let on_disk = std::fs::read(&file).unwrap();
    assert_eq!(on_disk, blob, "the file is no longer its row's blob");
    let digest = {
        use sha2::Digest;
        format!("{:x}", sha2::Sha256::digest(&on_disk))
    };
    assert_eq!(digest, sha);
    let text = String::from_utf8(zstd::decode_all(&blob[..]).unwrap()).unwrap();
    assert!(
        !text.contains(GITHUB) && text.contains("ghp_aB…z5Ab"),
        "{text}"
    );
    // The archive listing finds row and file in agreement.
    let doc = store.json_ok(["archives", "list", "--json"]);
    let it = doc["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name.as_str())
        .unwrap();
    assert_eq!(it["agreement"], "agree", "{it}");
}
