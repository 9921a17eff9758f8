//! `bundle export` / `bundle import` (issue 54) on copies of the real fixture stores: a round
//! trip writes every row the session had, across releases the transcript reads back event for
//! event, a damaged, truncated or newer bundle and a taken key or id are refused with nothing
//! changed, and a kill -9 at any moment of an import leaves the session absent or whole.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::common::{
    assert_foreign_keys, assert_integrity, checksums, expect_exit, json, std_bin, Store,
};
use crate::undelete::{session_id, session_rows, KEY};

const NOW: &str = "1780000000000";

/// The queue of keys waiting for OpenClaw's canonical-key validation.
const PENDING: &str = "session_canonical_validation_pending";

type Rows = std::collections::BTreeMap<String, Vec<String>>;

/// A session's rows without what differs by design between the fixture (written by the
/// legacy import) and a session written as OpenClaw writes one: the validation queue and the
/// window's transcript clock.
fn comparable(rows: &Rows) -> Rows {
    let mut out = rows.clone();
    out.remove(PENDING);
    if let Some(windows) = out.get_mut("session_windows") {
        for w in windows.iter_mut() {
            let mut v: serde_json::Value = serde_json::from_str(w).unwrap();
            v.as_object_mut().unwrap().remove("transcript_updated_at");
            *w = v.to_string();
        }
    }
    out
}

/// Every file of the state dir but custody's lock coordinators (`tmp/`), which every
/// mutation takes before it plans.
fn store_files(store: &Store) -> std::collections::BTreeMap<PathBuf, String> {
    let tmp = store.state().join("tmp");
    let mut sums = checksums(&store.state());
    sums.retain(|p, _| !p.starts_with(&tmp));
    sums
}

/// `bundle export FILE KEY...` into the store's temp dir (outside the state dir).
fn export(store: &Store, name: &str, agent: &str, keys: &[&str]) -> PathBuf {
    let path = store.dir.path().join(name);
    let out = store
        .cmd()
        .env("OPENCLAW_SESSIONS_NOW_MS", NOW)
        .args(["--agent", agent, "bundle", "export"])
        .arg(&path)
        .args(keys)
        .output()
        .unwrap();
    expect_exit(&out, 0);
    path
}

fn import(store: &Store, bundle: &Path, args: &[&str]) -> std::process::Output {
    store
        .cmd()
        .args(["bundle", "import"])
        .arg(bundle)
        .args(args)
        .output()
        .unwrap()
}

/// The transcript as `transcript cat` prints it (one event per line).
fn events(store: &Store, agent: &str, key: &str) -> Vec<String> {
    let out = store
        .cmd()
        .args(["--agent", agent, "transcript", "cat", key])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn decompressed(path: &Path) -> Vec<u8> {
    let mut out = Vec::new();
    zstd::stream::read::Decoder::new(std::fs::File::open(path).unwrap())
        .unwrap()
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn compressed(dir: &Path, name: &str, plain: &[u8]) -> PathBuf {
    let path = dir.join(name);
    let mut enc = zstd::stream::write::Encoder::new(std::fs::File::create(&path).unwrap(), 3)
        .unwrap()
        .auto_finish();
    enc.write_all(plain).unwrap();
    drop(enc);
    path
}

#[test]
fn a_bundle_brings_back_every_row_the_session_had() {
    let store = Store::copy("live");
    let sid = session_id(&store, KEY);
    let before = session_rows(&store, KEY, &sid);
    let transcript = events(&store, "main", KEY);
    let bundle = export(&store, "notes.bundle", "main", &[KEY]);
    // Through stdout, the same bytes (at the same clock).
    let piped = store
        .cmd()
        .env("OPENCLAW_SESSIONS_NOW_MS", NOW)
        .args(["--agent", "main", "bundle", "export", "-", KEY])
        .output()
        .unwrap();
    expect_exit(&piped, 0);
    assert_eq!(piped.stdout, std::fs::read(&bundle).unwrap());
    // The manifest comes first and names the session, its events and the source.
    let plain = String::from_utf8(decompressed(&bundle)).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(plain.lines().next().unwrap()).unwrap();
    assert_eq!(manifest["format"], "openclaw-sessions-bundle");
    assert_eq!(manifest["formatVersion"], 1);
    assert_eq!(manifest["source"]["agentSchema"], 23);
    assert_eq!(manifest["sessions"][0]["key"], KEY);
    assert_eq!(manifest["sessions"][0]["sessionId"], sid.as_str());
    assert_eq!(
        manifest["sessions"][0]["events"].as_u64().unwrap() as usize,
        transcript.len()
    );
    assert!(plain.lines().last().unwrap().contains(r#""type":"end""#));
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&bundle).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the bundle is private");
    }
    // --json says where, how big, and the manifest.
    let listed = store
        .cmd()
        .args(["--json", "--agent", "main", "bundle", "export"])
        .arg(store.dir.path().join("again.bundle"))
        .arg(KEY)
        .output()
        .unwrap();
    expect_exit(&listed, 0);
    let doc = json(&listed);
    assert_eq!(doc["command"], "bundle export");
    assert_eq!(doc["data"]["manifest"]["sessions"][0]["key"], KEY);
    assert_eq!(
        doc["data"]["bytes"].as_u64().unwrap(),
        std::fs::metadata(store.dir.path().join("again.bundle"))
            .unwrap()
            .len()
    );

    store.run_ok(["delete", KEY, "--yes"]);
    assert!(session_rows(&store, KEY, &sid)["session_nodes"].is_empty());
    let dry = import(&store, &bundle, &["--dry-run", "--json"]);
    expect_exit(&dry, 0);
    let dry = json(&dry);
    assert_eq!(dry["data"]["applied"], false);
    assert_eq!(dry["data"]["sessions"][0]["key"], KEY);
    assert!(session_rows(&store, KEY, &sid)["session_nodes"].is_empty());
    let out = import(&store, &bundle, &["--yes", "--json"]);
    expect_exit(&out, 0);
    assert_eq!(json(&out)["data"]["events"], transcript.len());
    let after = session_rows(&store, KEY, &sid);
    let (b, a) = (comparable(&before), comparable(&after));
    for (table, rows) in &b {
        assert_eq!(rows, &a[table], "{table}");
    }
    // The fixture's key was left waiting for validation by the legacy import; the bundle's
    // session is written as OpenClaw's writers write one, which certify the key.
    assert_eq!(before[PENDING].len(), 1);
    assert!(after[PENDING].is_empty());
    // The window's transcript clock is the last event's time, as for a session whose events
    // OpenClaw appended (the fixture's is the legacy import's run time).
    let window: serde_json::Value = serde_json::from_str(&after["session_windows"][0]).unwrap();
    assert_eq!(
        window["transcript_updated_at"],
        window["transcript_observed_at"]
    );
    assert_eq!(events(&store, "main", KEY), transcript);
    let doctor = store.cmd().args(["doctor", "--json"]).output().unwrap();
    assert!(
        doctor.status.success(),
        "{}",
        String::from_utf8_lossy(&doctor.stdout)
    );
}

/// 2026.8.2's store (schema 19) into 2026.9.6's (23) and back, each written at the
/// destination's schema; the transcript reads back event for event.
#[test]
fn a_bundle_moves_between_releases_both_ways() {
    let old = Store::copy_release("2026.8.2", "live");
    let new = Store::copy("live");
    let key = "agent:research:cron:nightly:run:888";
    // From 2026.8.2's research agent into 2026.9.6's main agent, under a new key.
    let bundle = export(&old, "old.bundle", "research", &[key]);
    let out = import(
        &new,
        &bundle,
        &["--agent", "main", "--as", "from-old", "--yes"],
    );
    expect_exit(&out, 0);
    assert_eq!(
        events(&old, "research", key),
        events(&new, "main", "agent:main:from-old")
    );
    // And from 2026.9.6 into 2026.8.2's main agent.
    let bundle = export(&new, "new.bundle", "research", &[key]);
    let out = import(&old, &bundle, &["--agent", "main", "--yes"]);
    expect_exit(&out, 0);
    assert_eq!(
        events(&new, "research", key),
        events(&old, "main", "agent:main:cron:nightly:run:888")
    );
    for (store, what) in [(&old, "2026.8.2"), (&new, "2026.9.6")] {
        let conn = store.writable("main");
        assert_integrity(&conn, what);
        assert_foreign_keys(&conn, what);
        let doctor = store
            .cmd()
            .args(["--agent", "main", "doctor", "--json"])
            .output()
            .unwrap();
        assert!(
            doctor.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&doctor.stdout)
        );
    }
    let schema: i64 = old
        .writable("main")
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(schema, 19, "the older store keeps its schema");
}

/// A flipped byte anywhere, a truncated file, data after the end, and a bundle of a newer
/// format are refused before anything changes.
#[test]
fn a_damaged_truncated_or_newer_bundle_is_refused_with_nothing_changed() {
    let store = Store::copy("live");
    let bundle = export(&store, "good.bundle", "main", &[KEY]);
    store.run_ok(["delete", KEY, "--yes"]);
    let bytes = std::fs::read(&bundle).unwrap();
    let dir = store.dir.path();
    let mut bad: Vec<(String, PathBuf, i32)> = Vec::new();
    for at in [0, 7, bytes.len() / 3, bytes.len() / 2, bytes.len() - 5] {
        let mut b = bytes.clone();
        b[at] ^= 0x20;
        let p = dir.join(format!("flip-{at}.bundle"));
        std::fs::write(&p, b).unwrap();
        bad.push((format!("flipped byte {at}"), p, 6));
    }
    for len in [bytes.len() / 2, bytes.len() - 1] {
        let p = dir.join(format!("cut-{len}.bundle"));
        std::fs::write(&p, &bytes[..len]).unwrap();
        bad.push((format!("cut at {len}"), p, 6));
    }
    // Cut at a line, recompressed: only the missing end line tells.
    let plain = decompressed(&bundle);
    let text = String::from_utf8(plain.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = lines[..lines.len() - 1].join("\n") + "\n";
    bad.push((
        "no end line".into(),
        compressed(dir, "noend.bundle", cut.as_bytes()),
        6,
    ));
    let mut extra = plain.clone();
    extra.extend_from_slice(b"{\"type\":\"end\"}\n");
    bad.push((
        "data after the end".into(),
        compressed(dir, "extra.bundle", &extra),
        6,
    ));
    let newer = text.replacen("\"formatVersion\":1", "\"formatVersion\":2", 1);
    bad.push((
        "newer format".into(),
        compressed(dir, "newer.bundle", newer.as_bytes()),
        6,
    ));
    let sums = checksums(&store.state());
    for (what, path, code) in bad {
        let out = import(&store, &path, &["--yes", "--json"]);
        expect_exit(&out, code);
        let doc = json(&out);
        assert_eq!(doc["ok"], false, "{what}");
        let message = doc["error"]["message"].as_str().unwrap().to_string();
        if what == "newer format" {
            assert_eq!(doc["error"]["code"], "UNSUPPORTED_SCHEMA", "{what}");
            assert!(message.contains("format version 2"), "{what}: {message}");
        } else {
            assert_eq!(doc["error"]["code"], "BAD_INPUT", "{what}");
            assert!(message.contains("does not verify"), "{what}: {message}");
        }
        assert_eq!(checksums(&store.state()), sums, "{what}: nothing changed");
    }
    // The good one still imports.
    expect_exit(&import(&store, &bundle, &["--yes"]), 0);
}

#[test]
fn a_taken_key_or_id_is_refused_unless_renamed() {
    let store = Store::copy("live");
    let sid = session_id(&store, KEY);
    let bundle = export(&store, "b.bundle", "main", &[KEY]);
    let sums = store_files(&store);
    let out = import(&store, &bundle, &["--yes", "--json"]);
    expect_exit(&out, 5);
    let doc = json(&out);
    assert_eq!(doc["error"]["code"], "CONFLICT");
    assert!(doc["error"]["hint"].as_str().unwrap().contains("--as"));
    // A free key, but the id is still the live session's.
    let out = import(&store, &bundle, &["--as", "copy", "--yes", "--json"]);
    expect_exit(&out, 5);
    assert!(json(&out)["error"]["hint"]
        .as_str()
        .unwrap()
        .contains("--new-ids"));
    assert_eq!(store_files(&store), sums, "nothing changed");
    // The label stays unique in the store, as OpenClaw's writers keep it.
    let out = import(
        &store,
        &bundle,
        &["--as", "copy", "--new-ids", "--yes", "--json"],
    );
    expect_exit(&out, 5);
    assert!(json(&out)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("label already in use"));
    store.run_ok(["patch", KEY, "--set", "label=\"the original\""]);
    let out = import(
        &store,
        &bundle,
        &["--as", "copy", "--new-ids", "--yes", "--json"],
    );
    expect_exit(&out, 0);
    let new_id = json(&out)["data"]["sessions"][0]["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(new_id, sid);
    let copy = events(&store, "main", "agent:main:copy");
    let original = events(&store, "main", KEY);
    assert_eq!(copy.len(), original.len());
    // The header names the new id; every other event is the same.
    let header: serde_json::Value = serde_json::from_str(&copy[0]).unwrap();
    assert_eq!(header["type"], "session");
    assert_eq!(header["id"], new_id.as_str());
    assert_eq!(copy[1..], original[1..]);
    assert_eq!(
        store.entry("main", "agent:main:copy").unwrap()["sessionId"],
        new_id.as_str()
    );
}

/// kill -9 at every crash point of an import and after each of its first moments: the store
/// passes its checks and the session is absent or whole; a re-run finishes.
#[test]
fn bundle_import_killed_at_many_moments() {
    let template = Store::copy("live");
    let sid = session_id(&template, KEY);
    let before = session_rows(&template, KEY, &sid);
    let bundle_dir = tempfile::tempdir().unwrap();
    let bundle = {
        let b = export(&template, "b.bundle", "main", &[KEY]);
        let to = bundle_dir.path().join("b.bundle");
        std::fs::copy(&b, &to).unwrap();
        to
    };
    let mut faults: Vec<(&str, String)> = [
        "bundle-import-session",
        "bundle-import-first-event",
        "bundle-import-before-commit",
        "bundle-import-after-commit",
    ]
    .iter()
    .map(|p| ("OPENCLAW_SESSIONS_CRASH_AT", p.to_string()))
    .collect();
    faults.extend((1..=6).map(|n| ("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())));
    let mut crashed = 0;
    // Whole: every row as the source had it, the key certified as OpenClaw's writers leave it.
    let whole = |now: &Rows| comparable(now) == comparable(&before) && now[PENDING].is_empty();
    for (var, val) in faults {
        let store = Store::copy("live");
        store.run_ok(["delete", KEY, "--yes"]);
        let deleted = session_rows(&store, KEY, &sid);
        let status = std_bin()
            .env("HOME", store.dir.path())
            .env(var, &val)
            .arg("--state-dir")
            .arg(store.state())
            .args(["bundle", "import"])
            .arg(&bundle)
            .arg("--yes")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        {
            use std::os::unix::process::ExitStatusExt;
            if status.signal() == Some(libc::SIGABRT) {
                crashed += 1;
            } else {
                assert!(
                    var == "OPENCLAW_SESSIONS_CRASH_AFTER" && status.success(),
                    "{var}={val}: not crashed and not finished: {status}"
                );
            }
        }
        let conn = store.writable("main");
        assert_integrity(&conn, &format!("{var}={val}"));
        assert_foreign_keys(&conn, &format!("{var}={val}"));
        drop(conn);
        let now = session_rows(&store, KEY, &sid);
        let absent = now == deleted;
        assert!(
            absent || whole(&now),
            "{var}={val}: neither absent nor whole"
        );
        if absent {
            let again = import(&store, &bundle, &["--yes"]);
            expect_exit(&again, 0);
        }
        assert!(whole(&session_rows(&store, KEY, &sid)), "{var}={val}");
    }
    eprintln!("bundle import: crashed at {crashed} of 10 points");
    assert!(crashed >= 7, "only {crashed} crash points were reached");
}

/// The plan, the dry run and the result for people, at 80 and 200 columns.
#[test]
fn bundle_human_output_at_80_and_200_columns() {
    let store = Store::copy("live");
    let bundle = export(
        &store,
        "two.bundle",
        "research",
        &["cron:nightly:run:888", "explicit:cli-research"],
    );
    let mut s = crate::common::settings(&store);
    crate::common::filter_cut_temp_paths(&mut s, &store);
    for width in ["80", "200"] {
        let out = store
            .cmd()
            .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", width)
            .env_remove("COLUMNS")
            .args(["--agent", "main", "bundle", "import"])
            .arg(&bundle)
            .arg("--dry-run")
            .output()
            .unwrap();
        expect_exit(&out, 0);
        let text = String::from_utf8(out.stdout).unwrap();
        if width == "80" {
            for line in text.lines() {
                assert!(line.chars().count() <= 80, "{line:?}");
            }
        }
        s.bind(|| insta::assert_snapshot!(format!("bundle_import_plan_{width}"), text));
    }
    let out = store
        .cmd()
        .args(["--agent", "main", "bundle", "import"])
        .arg(&bundle)
        .arg("--yes")
        .output()
        .unwrap();
    expect_exit(&out, 0);
    s.bind(|| {
        insta::assert_snapshot!(
            "bundle_import_applied",
            String::from_utf8(out.stdout).unwrap()
        )
    });
}

/// A store of a release this tool does not write (2026.9.8, schema 24) is refused before any
/// change, naming the owner's routes, as every other write is.
#[test]
fn a_newer_release_s_store_is_refused_with_the_owner_route() {
    let source = Store::copy("live");
    let bundle = export(&source, "b.bundle", "research", &["cron:nightly:run:888"]);
    let store = crate::releases::newer_release_store();
    let before = checksums(&store.state());
    let out = store
        .cmd()
        .env("PATH", "/nonexistent")
        .args(["--json", "--agent", "main", "bundle", "import"])
        .arg(&bundle)
        .arg("--yes")
        .output()
        .unwrap();
    expect_exit(&out, 6);
    let doc = json(&out);
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(message.contains("OpenClaw 2026.9.8"), "{message}");
    let hint = doc["error"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("2026.9.8") && !hint.contains("upgrade openclaw-sessions"),
        "{hint}"
    );
    assert_eq!(checksums(&store.state()), before, "nothing changed");
}

/// Keys of one agent, exact, bare or repeated, name each session once; keys of two agents and
/// a bundle on stdin are refused.
#[test]
fn export_names_each_session_once_and_import_wants_a_file() {
    let store = Store::copy("live");
    let bundle = export(
        &store,
        "b.bundle",
        "main",
        &["sdk-made-1", KEY, "agent:main:sdk-made-1", KEY],
    );
    let plain = String::from_utf8(decompressed(&bundle)).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(plain.lines().next().unwrap()).unwrap();
    let keys: Vec<&str> = manifest["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["agent:main:sdk-made-1", KEY]);
    let out = store
        .cmd()
        .args(["bundle", "export"])
        .arg(store.dir.path().join("two.bundle"))
        .args([KEY, "agent:work:sdk-made-1"])
        .output()
        .unwrap();
    expect_exit(&out, 2);
    assert!(!store.dir.path().join("two.bundle").exists());
    let out = store
        .cmd()
        .args(["--json", "bundle", "import", "-", "--yes"])
        .output()
        .unwrap();
    expect_exit(&out, 2);
    assert_eq!(json(&out)["error"]["code"], "USAGE");
}
