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

    /// A private copy of a fixture store whose state dir sits under a directory named `name`
    /// (a home directory in another language: `josé`, `用户`).
    pub fn copy_under(which: &str, name: &str) -> (Self, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join(name).join(".openclaw");
        copy_dir(&Path::new(FIXTURES).join(which).join(".openclaw"), &state);
        (Store { dir }, state)
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

    /// This store's snapshot repositories' directory, outside the state dir
    /// (`$HOME/.local/share/openclaw-sessions/snapshots/<name>-<digest>`, docs/SNAPSHOTS.md).
    pub fn snapshots_home(&self) -> PathBuf {
        let state = self.state();
        let digest = openclaw_sessions::digest::sha256_hex(state.as_os_str().as_encoded_bytes());
        self.dir
            .path()
            .join(".local/share/openclaw-sessions/snapshots")
            .join(format!("openclaw-{}", &digest[..12]))
    }

    /// The admin's default snapshot repository (`backup create` without `--repository`).
    pub fn snapshot_repo(&self) -> PathBuf {
        self.snapshots_home().join("manual")
    }

    /// Where `doctor --fix` and the mutations put their safety snapshots by default.
    pub fn safety_repo(&self) -> PathBuf {
        self.snapshots_home().join("safety")
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
    #[track_caller]
    pub fn run_ok<const N: usize>(&self, args: [&str; N]) -> std::process::Output {
        self.run_code(args, 0)
    }

    /// A read-write connection for building faults (tests only).
    pub fn writable(&self, agent: &str) -> rusqlite::Connection {
        rusqlite::Connection::open(self.agent_db(agent)).unwrap()
    }
}

/// Limits a run's address space to `bytes` (RLIMIT_AS): a run that tried to hold a decoded
/// bomb would fail to allocate and abort.
pub fn limit_address_space(cmd: &mut std::process::Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
            Ok(())
        });
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
        "OPENCLAW_GATEWAY_TOKEN",
        "OPENCLAW_GATEWAY_PASSWORD",
        "OPENCLAW_GATEWAY_PORT",
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

/// sha256 of every file under `dir` (sidecars included; a symlinked directory is followed),
/// but this tool's operation log (docs/OPLOG.md), a journal of its own runs that a run through
/// a live Gateway writes too (tests/cli/oplog.rs reads it).
pub fn checksums(dir: &Path) -> BTreeMap<PathBuf, String> {
    fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
        for ent in std::fs::read_dir(dir).unwrap() {
            let ent = ent.unwrap();
            if ent.file_name() == "openclaw-sessions-oplog" {
                continue;
            }
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

/// Asserts a run's exit code, showing both streams when it is another.
#[track_caller]
pub fn expect_exit(out: &std::process::Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "exit {:?}, expected {code}\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `PRAGMA integrity_check` of a database is `ok` (`what` names it in a failure).
#[track_caller]
pub fn assert_integrity(conn: &rusqlite::Connection, what: &str) {
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok", "integrity_check: {what}");
}

/// No foreign key of a database is broken (`what` names it in a failure).
#[track_caller]
pub fn assert_foreign_keys(conn: &rusqlite::Connection, what: &str) {
    let broken: i64 = conn
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(broken, 0, "foreign_key_check: {what}");
}

impl Store {
    /// Runs the binary on this store and asserts its exit code.
    #[track_caller]
    pub fn run_code<const N: usize>(&self, args: [&str; N], code: i32) -> std::process::Output {
        let out = self.cmd().args(args).output().unwrap();
        expect_exit(&out, code);
        out
    }

    /// Runs the binary (its arguments should include `--json`), asserts success and returns
    /// its one JSON document.
    #[track_caller]
    pub fn json_ok<const N: usize>(&self, args: [&str; N]) -> serde_json::Value {
        json(&self.run_code(args, 0))
    }

    /// The stored `entry_json` of a session, parsed.
    pub fn entry(&self, agent: &str, key: &str) -> Option<serde_json::Value> {
        use rusqlite::OptionalExtension;
        self.writable(agent)
            .query_row(
                "SELECT entry_json FROM session_nodes WHERE session_key = ?1",
                [key],
                |r| r.get::<_, String>(0),
            )
            .optional()
            .unwrap()
            .map(|j| serde_json::from_str(&j).unwrap())
    }
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

/// A whole store as data, to compare after a fault: every row of every table of every SQLite
/// database under the state dir (the agents' and `state/openclaw.sqlite`), and the sha256 of
/// every other file (transcript archives, imported sources, snapshots), each keyed by its path
/// relative to the state dir. Times of the run itself (milliseconds or ISO dates at or after
/// [`run_began_ms`]) read `[NOW]`, and random identifiers (32 hex digits: an archive's
/// generation) `[ID]`, so that two runs of one command dump the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dump {
    /// (database, table) -> rows, each row its columns rendered, sorted.
    pub rows: BTreeMap<(String, String), Vec<String>>,
    pub files: BTreeMap<String, String>,
}

/// When this test process began (ms since the epoch, a minute early): every time a command
/// under test writes is later, every time in a fixture earlier.
pub fn run_began_ms() -> i64 {
    static BEGAN: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *BEGAN.get_or_init(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        now - 60_000
    })
}

/// `text` with the run's own times as `[NOW]`: 13-digit milliseconds at or after
/// [`run_began_ms`], and ISO dates (`YYYY-MM-DDThh...`) on or after its day, whole.
fn mask_run_times(text: &str) -> String {
    let began = run_began_ms();
    let day = {
        // Days since the epoch to a civil date (Howard Hinnant's algorithm).
        let z = began.div_euclid(86_400_000) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        let y = yoe + era * 400 + i64::from(m <= 2);
        format!("{y:04}-{m:02}-{d:02}")
    };
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        // An identifier first: a random one may begin with thirteen digits.
        let alnum_before = i > 0 && b[i - 1].is_ascii_alphanumeric();
        let hex = b[i..]
            .iter()
            .take_while(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(*c))
            .count();
        let alnum_after = b.get(i + hex).is_some_and(|c| c.is_ascii_alphanumeric());
        if !alnum_before && hex == 32 && !alnum_after {
            out.push_str("[ID]");
            i += 32;
            continue;
        }
        let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let boundary = i == 0 || !b[i - 1].is_ascii_digit();
        if boundary && digits == 13 {
            let v: i64 = text[i..i + 13].parse().unwrap();
            if v >= began {
                out.push_str("[NOW]");
                i += 13;
                continue;
            }
        }
        if boundary && digits == 4 && b.len() >= i + 13 && b[i + 10] == b'T' {
            let date = &text[i..i + 10];
            let iso = date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-';
            if iso && date >= day.as_str() {
                // The date-time runs to its `Z` (or to the end of the digits and separators).
                let len = b[i..]
                    .iter()
                    .position(|c| *c == b'Z')
                    .filter(|p| *p <= 30)
                    .map(|p| p + 1)
                    .unwrap_or(19);
                out.push_str("[NOW]");
                i += len.min(b.len() - i);
                continue;
            }
        }
        if digits > 0 {
            out.push_str(&text[i..i + digits]);
            i += digits;
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// A safety snapshot's name (its directory, its manifest's `snapshotId`), its time and a random
/// UUID, as `[NOW]-[UUID]` once its time is masked.
fn snapshot_names(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("[NOW]-") {
        let (head, tail) = rest.split_at(at + "[NOW]-".len());
        out.push_str(head);
        let uuid = tail.get(..36).filter(|u| {
            u.char_indices().all(|(i, c)| match i {
                8 | 13 | 18 | 23 => c == '-',
                _ => c.is_ascii_hexdigit(),
            })
        });
        match uuid {
            Some(_) => {
                out.push_str("[UUID]");
                rest = &tail[36..];
            }
            None => rest = tail,
        }
    }
    out.push_str(rest);
    out
}

fn is_sqlite(path: &Path) -> bool {
    let mut head = [0u8; 16];
    use std::io::Read;
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == b"SQLite format 3\0"
}

type Tables = BTreeMap<(String, String), Vec<String>>;

/// Every row of every table of the database at `path` (read-only, its WAL included). A
/// database that cannot be read (a copy a kill cut short) is an error, for the caller to
/// record as such.
fn dump_database(path: &Path, name: &str) -> rusqlite::Result<Tables> {
    let mut rows = Tables::new();
    let db = rusqlite::Connection::open_with_flags(
        path,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let tables: Vec<(String, String)> = db
        .prepare(
            "SELECT name, coalesce(sql, '') FROM sqlite_master WHERE type = 'table' ORDER BY name",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    // An FTS5 index's segments (`<name>_data`, `<name>_idx`) depend on the order its rows came
    // and went, not on what it holds: its rows are read through the index itself instead.
    let segments: Vec<String> = tables
        .iter()
        .filter(|(_, sql)| sql.to_ascii_lowercase().contains("using fts5"))
        .flat_map(|(name, _)| [format!("{name}_data"), format!("{name}_idx")])
        .collect();
    for (table, _) in tables {
        if segments.contains(&table) {
            continue;
        }
        let mut stmt = db.prepare(&format!("SELECT * FROM \"{}\"", table.replace('"', "\"\"")))?;
        let names: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
        let mut got: Vec<String> = stmt
            .query_map([], |r| {
                let mut cells = Vec::with_capacity(names.len());
                for (i, name) in names.iter().enumerate() {
                    use rusqlite::types::ValueRef;
                    cells.push(
                        format!("{name}=")
                            + &match r.get_ref(i)? {
                                ValueRef::Null => "NULL".to_string(),
                                ValueRef::Integer(v) => v.to_string(),
                                ValueRef::Real(v) => format!("{v:?}"),
                                ValueRef::Text(t) => format!("{:?}", String::from_utf8_lossy(t)),
                                ValueRef::Blob(b) => format!("x{:x}", Sha256::digest(b)),
                            },
                    );
                }
                Ok(mask_run_times(&cells.join("|")))
            })?
            .collect::<rusqlite::Result<_>>()?;
        got.sort();
        rows.insert((name.to_string(), table), got);
    }
    Ok(rows)
}

/// The whole store under `state` as data ([`Dump`]). SQLite's own sidecars (`-wal`, `-shm`,
/// `-journal`) are read through their database, not hashed (a database that cannot be read is
/// a file that says so); custody's lock directory
/// (`tmp/openclaw-<uid>`: lock files named by a hash of the store's path, which a killed run
/// leaves for the next to reclaim; tests/cli/custody.rs) is left out.
pub fn dump_store(state: &Path) -> Dump {
    fn walk(root: &Path, dir: &Path, dump: &mut Dump) {
        let mut ents: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        ents.sort_by_key(|e| e.file_name());
        for ent in ents {
            let path = ent.path();
            let rel = snapshot_names(&mask_run_times(
                &path.strip_prefix(root).unwrap().to_string_lossy(),
            ));
            let name = ent.file_name().to_string_lossy().into_owned();
            if ent.file_type().unwrap().is_dir() {
                // This tool's operation log (docs/OPLOG.md): a journal of the runs themselves
                // (their ids, pids, outcomes), not the store; tests/cli/oplog.rs reads it.
                if rel.starts_with("tmp/openclaw-") || rel == "openclaw-sessions-oplog" {
                    continue;
                }
                walk(root, &path, dump);
            } else if ["-wal", "-shm", "-journal"]
                .iter()
                .any(|s| name.ends_with(s))
            {
                continue;
            } else if is_sqlite(&path) {
                match dump_database(&path, &rel) {
                    Ok(rows) => dump.rows.extend(rows),
                    Err(e) => {
                        dump.files.insert(rel, format!("unreadable database: {e}"));
                    }
                }
            } else {
                // A text file's own times of the run (a manifest's, a lock's) read `[NOW]` too.
                let bytes = std::fs::read(&path).unwrap();
                let bytes = match String::from_utf8(bytes) {
                    Ok(text) => snapshot_names(&mask_run_times(&text)).into_bytes(),
                    Err(e) => e.into_bytes(),
                };
                dump.files
                    .insert(rel, format!("{:x}", Sha256::digest(&bytes)));
            }
        }
    }
    let mut dump = Dump {
        rows: BTreeMap::new(),
        files: BTreeMap::new(),
    };
    walk(state, state, &mut dump);
    dump
}

/// A random identifier that begins with thirteen digits reads `[ID]`, not a masked time
/// followed by the rest of it (that made the fault comparison fail by chance).
#[test]
fn an_identifier_that_begins_with_a_time_is_masked_whole() {
    let id = format!("{}b548b1c3353118df03c", run_began_ms() + 1);
    assert_eq!(id.len(), 32);
    assert_eq!(
        mask_run_times(&format!("generation={id}|")),
        "generation=[ID]|"
    );
    assert_eq!(
        mask_run_times(&format!("updated_at={}", run_began_ms() + 5)),
        "updated_at=[NOW]"
    );
}
