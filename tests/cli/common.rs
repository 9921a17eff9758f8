use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use sha2::{Digest, Sha256};
use tempfile::TempDir;

pub const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/openclaw-2026.9.6"
);

/// A private copy of one of the fixture stores (`legacy`, `imported`, `live`).
pub struct Store {
    pub dir: TempDir,
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for ent in std::fs::read_dir(from).unwrap() {
        let ent = ent.unwrap();
        let dest = to.join(ent.file_name());
        if ent.file_type().unwrap().is_dir() {
            copy_dir(&ent.path(), &dest);
        } else {
            std::fs::copy(ent.path(), &dest).unwrap();
            let mut perms = std::fs::metadata(&dest).unwrap().permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            std::fs::set_permissions(&dest, perms).unwrap();
        }
    }
}

impl Store {
    pub fn copy(which: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(
            &Path::new(FIXTURES).join(which).join(".openclaw"),
            &dir.path().join(".openclaw"),
        );
        Store { dir }
    }

    /// A private copy of a store written by an older OpenClaw release's own code
    /// (`tests/fixtures/openclaw-<release>/<variant>`).
    pub fn copy_release(release: &str, variant: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures")
                .join(format!("openclaw-{release}"))
                .join(variant)
                .join(".openclaw"),
            &dir.path().join(".openclaw"),
        );
        Store { dir }
    }

    pub fn state(&self) -> PathBuf {
        self.dir.path().join(".openclaw")
    }

    pub fn agent_db(&self, agent: &str) -> PathBuf {
        self.state()
            .join("agents")
            .join(agent)
            .join("agent")
            .join("openclaw-agent.sqlite")
    }

    /// The binary with a clean environment, pointed at this store.
    pub fn cmd(&self) -> Command {
        let mut c = bin();
        c.env("HOME", self.dir.path())
            .arg("--state-dir")
            .arg(self.state());
        c
    }

    /// Runs the binary on this store and asserts that it succeeded (stderr shown if not).
    pub fn run_ok<const N: usize>(&self, args: [&str; N]) -> std::process::Output {
        let out = self.cmd().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// A read-write connection for building faults (tests only).
    pub fn writable(&self, agent: &str) -> rusqlite::Connection {
        rusqlite::Connection::open(self.agent_db(agent)).unwrap()
    }
}

/// Limit the files the child may write to `bytes`: writes past it fail with EFBIG, as on a
/// full disk (SIGXFSZ ignored so the write fails instead of killing the process).
pub fn limit_file_size(cmd: &mut std::process::Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
            Ok(())
        });
    }
}

/// The binary with no OpenClaw environment leaking in.
pub fn bin() -> Command {
    Command::from_std(std_bin())
}

/// [`bin`] as a `std::process::Command`, for what assert_cmd cannot do: spawn a run to kill
/// it, or limit it before exec.
pub fn std_bin() -> std::process::Command {
    let path = assert_cmd::cargo::cargo_bin("openclaw-sessions");
    require_test_hooks(&path);
    let mut c = std::process::Command::new(path);
    for k in [
        "OPENCLAW_HOME",
        "OPENCLAW_STATE_DIR",
        "OPENCLAW_PROFILE",
        "OPENCLAW_CONFIG_PATH",
    ] {
        c.env_remove(k);
    }
    c.env("NO_COLOR", "1");
    c
}

/// The kill and clock tests need the binary built with the `test-hooks` feature, which
/// `cargo test` turns on. A plain `cargo build` of the same profile overwrites that binary,
/// and cargo does not put the test build's copy back while it is up to date: say so instead of
/// failing as if a crash point had been missed.
fn require_test_hooks(bin: &Path) {
    static CHECKED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let ok = *CHECKED.get_or_init(|| {
        let bytes = std::fs::read(bin).unwrap_or_default();
        let needle = b"OPENCLAW_SESSIONS_NOW_MS";
        bytes.windows(needle.len()).any(|w| w == needle)
    });
    assert!(
        ok,
        "{} has no test hooks: a plain `cargo build` replaced the test build's binary; run \
         `cargo build --features test-hooks` (or touch src/main.rs) and test again",
        bin.display()
    );
}

/// sha256 of every file under `dir` (sidecars included; a symlinked directory is followed).
pub fn checksums(dir: &Path) -> BTreeMap<PathBuf, String> {
    fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
        for ent in std::fs::read_dir(dir).unwrap() {
            let ent = ent.unwrap();
            if ent.path().is_dir() {
                walk(&ent.path(), out);
            } else {
                let bytes = std::fs::read(ent.path()).unwrap();
                out.insert(ent.path(), format!("{:x}", Sha256::digest(&bytes)));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, &mut out);
    out
}

pub fn json(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}):\n{}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

/// Filters for insta snapshots: temp paths and times.
pub fn settings(store: &Store) -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.add_filter(&regex_escape(&store.dir.path().to_string_lossy()), "[TMP]");
    s.add_filter(r"\b\d+[smhd] ago +", "[AGE] ago ");
    s.set_snapshot_path("snapshots");
    s.set_prepend_module_to_snapshot(false);
    s
}

/// A table cell cut to the terminal keeps the head of a path, then `…`: any head of the store's
/// temp dir so cut reads `[TMP]…` (the store at [`Store::copy_at_fixed_length`] is cut at the
/// same place everywhere; only the head's letters depend on the machine's temp dir).
pub fn filter_cut_temp_paths(settings: &mut insta::Settings, store: &Store) {
    let dir = store.dir.path().to_string_lossy().into_owned();
    let heads: Vec<String> = (2..dir.len())
        .rev()
        .filter(|n| dir.is_char_boundary(*n))
        .map(|n| regex_escape(&dir[..n]))
        .collect();
    settings.add_filter(&format!("(?:{})…", heads.join("|")), "[TMP]…");
}

pub fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The research agent of the live fixture made to need every sub-step of the disk budget: a
/// historical window with a transcript (a copy of main's window under a new session id that
/// no session refers to) and `scratch-2` archived by the cap rather than by hand.
pub fn budget_store() -> Store {
    let store = Store::copy("live");
    let db = store.writable("research");
    db.execute_batch(
        "CREATE TEMP TABLE w AS SELECT * FROM session_windows WHERE session_key = 'agent:research:main';
         UPDATE w SET session_id = '00000000-0000-4000-8000-00000000b0d6', updated_at = 1;
         INSERT INTO session_windows SELECT * FROM w;
         CREATE TEMP TABLE e AS SELECT * FROM transcript_events WHERE session_id =
           (SELECT current_session_id FROM session_nodes WHERE session_key = 'agent:research:main');
         UPDATE e SET session_id = '00000000-0000-4000-8000-00000000b0d6';
         INSERT INTO transcript_events SELECT * FROM e;
         DELETE FROM session_canonical_validation_pending;
         UPDATE session_nodes SET entry_json = json_set(entry_json, '$.archiveReason', 'active-session-cap')
           WHERE session_key = 'agent:research:scratch-2';
         UPDATE session_nodes SET entry_valid = 1 WHERE session_key = 'agent:research:scratch-2';
         DELETE FROM session_canonical_validation_pending;",
    )
    .unwrap();
    store
}

/// A run refused for want of free disk (`doc`, its JSON, exited with `code`): exit 5, a
/// CONFLICT whose message names `needles`, a hint that nothing was changed, and every file
/// of the state as it was (`before`); custody's empty lock directory is all it leaves.
pub fn assert_refused_for_space(
    store: &Store,
    code: Option<i32>,
    doc: &serde_json::Value,
    needles: &[&str],
    before: &BTreeMap<PathBuf, String>,
) {
    assert_eq!(code, Some(5), "{doc}");
    assert_eq!(doc["error"]["code"], "CONFLICT");
    let message = doc["error"]["message"].as_str().unwrap();
    for needle in needles {
        assert!(message.contains(needle), "{message} lacks {needle:?}");
    }
    let hint = doc["error"]["hint"].as_str().unwrap();
    assert!(hint.contains("nothing was changed"), "{hint}");
    let mut now = checksums(&store.state());
    now.retain(|p, _| before.contains_key(p));
    assert_eq!(&now, before);
}

/// A test that cannot run here says so and returns; under CI (`CI=true`, as `.ci/run` runs)
/// it fails instead, so that a green CI never hides a skipped test (`.ci/run` installs what
/// the tests need).
pub fn cannot_run_here(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI must run this test, but {why}");
    }
    eprintln!("NOTICE: {why}; skipped");
}

impl Store {
    /// A private copy of a fixture store in a temp dir whose path has the same length on every
    /// machine (`FIXED_PATH_LEN` characters): a table cell laid out around the path pads the
    /// same everywhere once the path is filtered to `[TMP]`.
    pub fn copy_at_fixed_length(which: &str) -> Self {
        const FIXED_PATH_LEN: usize = 64;
        let tmp = std::env::temp_dir();
        let base = tmp.to_string_lossy().trim_end_matches('/').len() + 1;
        const RANDOM: usize = 8;
        assert!(
            base + RANDOM + 4 <= FIXED_PATH_LEN,
            "the temp dir {} is too long for a path of {FIXED_PATH_LEN} characters",
            tmp.display()
        );
        let prefix = "p".repeat(FIXED_PATH_LEN - base - RANDOM);
        let dir = tempfile::Builder::new()
            .prefix(&prefix)
            .rand_bytes(RANDOM)
            .tempdir_in(&tmp)
            .unwrap();
        assert_eq!(dir.path().to_string_lossy().len(), FIXED_PATH_LEN);
        copy_dir(
            &Path::new(FIXTURES).join(which).join(".openclaw"),
            &dir.path().join(".openclaw"),
        );
        Store { dir }
    }
}
