//! The operation log: one record per change this tool made to a state dir, written by the
//! mutation pipeline itself (`ops::pipeline`), read by `log` and `undo` (docs/OPLOG.md).
//!
//! JSON lines under `<state dir>/openclaw-sessions-oplog/`, beside this tool's other
//! artifacts there (`openclaw-sessions-deleted`, `openclaw-sessions-quarantine`); OpenClaw
//! never reads it. A record is two lines appended to the newest file: `begin` (fsynced before
//! the apply step writes anything) and `end` (after verification). A record without its
//! `end` is a run that was stopped half way: `interrupted`, until the next run of the same
//! command, under custody, completes it as `resumed`.
//!
//! Files are named after the id of their first record and rotate at [`ROTATE_BYTES`]; the
//! oldest files go when more than [`KEEP_RECORDS`] records are kept or their newest record is
//! older than [`KEEP_DAYS`] days.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result, ResultExt};

/// Under the state dir, beside `openclaw-sessions-deleted`.
pub const OPLOG_DIR: &str = "openclaw-sessions-oplog";
pub const FORMAT: &str = "openclaw-sessions.oplog";
pub const VERSION: u32 = 1;
/// A file is closed for appends past this size and a new one started.
pub const ROTATE_BYTES: u64 = 1024 * 1024;
/// The retention rule: at most this many records...
pub const KEEP_RECORDS: usize = 10_000;
/// ...and none whose file's newest record is older than this.
pub const KEEP_DAYS: i64 = 180;

/// The directory of the log of `state_dir`.
pub fn dir_of(state_dir: &Path) -> PathBuf {
    state_dir.join(OPLOG_DIR)
}

/// How a run reached the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// This tool's own writer, under offline custody.
    Offline,
    /// The installed OpenClaw package's own code (`ops::owner`).
    Openclaw,
    /// A live Gateway's RPC (`ops::online`).
    Gateway,
}

/// How a run ended, as the log shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Applied and verified.
    Done,
    /// Stopped half way (a signal, a kill): no `end` line, or an `end` a signal wrote.
    Interrupted,
    /// Stopped half way, then completed by a later run of the same command.
    Resumed,
    /// An error stopped the apply or its verification.
    Failed,
    /// Every change was refused at write time (the rows changed after planning).
    Refused,
    /// The `begin` line is written and its process is still running.
    Running,
}

impl Outcome {
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Done => "done",
            Outcome::Interrupted => "interrupted",
            Outcome::Resumed => "resumed",
            Outcome::Failed => "failed",
            Outcome::Refused => "refused",
            Outcome::Running => "running",
        }
    }

    pub fn parse(word: &str) -> Option<Self> {
        [
            Outcome::Done,
            Outcome::Interrupted,
            Outcome::Resumed,
            Outcome::Failed,
            Outcome::Refused,
            Outcome::Running,
        ]
        .into_iter()
        .find(|o| o.word() == word)
    }
}

/// One session a run changed (or planned to change: the `begin` line holds the plan's, the
/// `end` line what was written).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Action {
    pub agent_id: String,
    pub session_key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// `delete`, `archive`, `unarchive`, `patch`, `undelete`.
    pub action: String,
    /// The archive the session's transcript went to (delete, prune), or came from (undelete).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub archives: Vec<String>,
    /// A patch's fields before it, each `null` when the entry did not have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Map<String, Value>>,
    /// The same fields after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Map<String, Value>>,
    /// The entry's `updatedAt` as the run left it (what `undo` compares).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<i64>,
    /// Why a planned change was not made (refused at write time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// A snapshot the run took, as the pipeline reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub database: PathBuf,
    pub path: PathBuf,
}

/// Who ran it, where.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    pub user: Option<String>,
    pub uid: u32,
    pub host: Option<String>,
    pub pid: u32,
}

impl Origin {
    pub fn current() -> Self {
        let uid = rustix::process::getuid().as_raw();
        Origin {
            user: user_name(uid),
            uid,
            host: host_name(),
            pid: std::process::id(),
        }
    }
}

/// The `begin` line: everything known before the apply step writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Begin {
    pub id: String,
    pub time: i64,
    pub command: String,
    /// The command line, secrets elided ([`elide_secrets`]).
    pub argv: Vec<String>,
    pub origin: Origin,
    pub route: Route,
    /// The release(s) that open the store as it was ("2026.9.6"), and its databases' schemas.
    #[serde(default)]
    pub release: Option<String>,
    #[serde(default)]
    pub headline: String,
    #[serde(default)]
    pub actions: Vec<Action>,
    #[serde(default)]
    pub snapshots: Vec<Snapshot>,
    /// The record this run takes back (`undo`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    /// Why `undo` cannot take this run back, said when the run is recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_undoable: Option<String>,
}

/// The `end` line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct End {
    pub id: String,
    pub time: i64,
    pub outcome: Outcome,
    /// What was written, when the run knows it better than its plan did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<Action>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The run that completed this interrupted one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed_by: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum Line {
    Begin {
        format: String,
        version: u32,
        #[serde(flatten)]
        begin: Box<Begin>,
    },
    End(End),
}

/// One operation, its two lines merged.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    #[serde(flatten)]
    pub begin: Begin,
    pub outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumed_by: Option<String>,
    /// The undo that took it back (its record id), when one is done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undone_by: Option<String>,
}

impl Record {
    pub fn id(&self) -> &str {
        &self.begin.id
    }

    pub fn actions(&self) -> &[Action] {
        &self.begin.actions
    }

    /// Whether it changed or may have changed the store (what `undo` can take back).
    pub fn may_have_changed(&self) -> bool {
        !matches!(self.outcome, Outcome::Refused)
    }

    /// The agents it touched.
    pub fn agents(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for a in &self.begin.actions {
            if !out.contains(&a.agent_id.as_str()) {
                out.push(&a.agent_id);
            }
        }
        out
    }
}

/// A new record id: the time in milliseconds (11 hex digits, so that ids sort by time) and 4
/// random hex digits.
pub fn new_id(now_ms: i64) -> String {
    let random = uuid::Uuid::new_v4().as_u128() as u16;
    format!("{:011x}{random:04x}", now_ms.max(0))
}

/// The operation log of one state dir.
pub struct OpLog {
    dir: PathBuf,
}

impl OpLog {
    pub fn of(state_dir: &Path) -> Self {
        OpLog {
            dir: dir_of(state_dir),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The record's `begin` line, durable before this returns.
    pub fn begin(&self, begin: &Begin) -> Result<()> {
        let line = Line::Begin {
            format: FORMAT.into(),
            version: VERSION,
            begin: Box::new(begin.clone()),
        };
        self.append(&line, &begin.id)
    }

    /// The record's `end` line, durable before this returns.
    pub fn end(&self, end: &End) -> Result<()> {
        self.append(&Line::End(end.clone()), &end.id)
    }

    fn files(&self) -> Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        let Some(entries) = crate::fsutil::read_dir_if_exists(&self.dir)? else {
            return Ok(out);
        };
        for e in entries {
            let e = e.at(&self.dir)?;
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            if name.ends_with(".jsonl") && e.file_type().at(&self.dir)?.is_file() {
                out.push(e.path());
            }
        }
        out.sort();
        Ok(out)
    }

    fn append(&self, line: &Line, id: &str) -> Result<()> {
        let created = !self.dir.is_dir();
        crate::fsutil::create_private_dir_all(&self.dir)?;
        let files = self.files()?;
        let current = match files.last() {
            Some(f) if std::fs::metadata(f).at(f)?.len() < ROTATE_BYTES => f.clone(),
            _ => self.dir.join(format!("{id}.jsonl")),
        };
        let new_file = !current.exists();
        let mut text = serde_json::to_string(line)
            .map_err(|e| Error::Internal(format!("an oplog line: {e}")))?;
        text.push('\n');
        let mut f: File = OpenOptions::new()
            .append(true)
            .create(true)
            .mode(0o600)
            .open(&current)
            .at(&current)?;
        f.write_all(text.as_bytes()).at(&current)?;
        f.sync_all().at(&current)?;
        if new_file || created {
            crate::fsutil::fsync_dir(&self.dir)?;
            if new_file && files.len() > 1 {
                self.retain(crate::units::now_ms())?;
            }
        }
        Ok(())
    }

    /// The retention rule, applied when a new file is started: the oldest files go while the
    /// rest hold at least [`KEEP_RECORDS`] records, and every file whose newest line is older
    /// than [`KEEP_DAYS`] days. The newest file always stays.
    pub fn retain(&self, now_ms: i64) -> Result<Vec<PathBuf>> {
        let files = self.files()?;
        let mut removed = Vec::new();
        let mut counts = Vec::with_capacity(files.len());
        for f in &files {
            let (records, newest) = count_records(f)?;
            counts.push((records, newest));
        }
        let cutoff = now_ms - KEEP_DAYS * 24 * 3600 * 1000;
        let mut kept_after: usize = counts.iter().map(|c| c.0).sum();
        for (i, f) in files.iter().enumerate() {
            if i + 1 == files.len() {
                break;
            }
            let (records, newest) = counts[i];
            let too_many = kept_after - records >= KEEP_RECORDS;
            let too_old = newest.is_some_and(|t| t < cutoff);
            if !(too_many || too_old) {
                continue;
            }
            std::fs::remove_file(f).at(f)?;
            kept_after -= records;
            removed.push(f.clone());
        }
        if !removed.is_empty() {
            crate::fsutil::fsync_dir(&self.dir)?;
        }
        Ok(removed)
    }

    /// Every record, oldest first (lines that do not parse are passed over: a torn last line
    /// of a killed run, a file of a newer version).
    pub fn read(&self) -> Result<Vec<Record>> {
        let mut records: Vec<Record> = Vec::new();
        let mut at: HashMap<String, usize> = HashMap::new();
        let mut ends: Vec<End> = Vec::new();
        for f in self.files()? {
            let file = crate::fsutil::open_regular(&f)?;
            for line in BufReader::new(file).lines() {
                let line = line.at(&f)?;
                match parse_line(&line) {
                    Some(Parsed::Begin(begin)) => {
                        at.insert(begin.id.clone(), records.len());
                        records.push(Record {
                            begin,
                            outcome: Outcome::Interrupted,
                            ended: None,
                            error: None,
                            resumed_by: None,
                            undone_by: None,
                        });
                    }
                    Some(Parsed::End(end)) => ends.push(end),
                    None => continue,
                }
            }
        }
        for end in ends {
            let Some(&i) = at.get(&end.id) else { continue };
            let r = &mut records[i];
            r.outcome = end.outcome;
            r.ended = Some(end.time);
            r.error = end.error.or(r.error.take());
            r.resumed_by = end.resumed_by.or(r.resumed_by.take());
            if let Some(actions) = end.actions {
                r.begin.actions = actions;
            }
        }
        // A record without its end whose process still runs here is running, not stopped.
        let here = host_name();
        for r in &mut records {
            if r.ended.is_none()
                && r.begin.origin.host == here
                && Path::new(&format!("/proc/{}", r.begin.origin.pid)).exists()
                && r.begin.origin.pid != std::process::id()
            {
                r.outcome = Outcome::Running;
            }
        }
        let undone: Vec<(String, String)> = records
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Done | Outcome::Resumed))
            .filter_map(|r| Some((r.begin.undoes.clone()?, r.begin.id.clone())))
            .collect();
        for (target, by) in undone {
            if let Some(&i) = at.get(&target) {
                records[i].undone_by = Some(by);
            }
        }
        Ok(records)
    }

    /// The record `words` names: its id or a unique prefix of it.
    pub fn find(&self, words: &str) -> Result<Record> {
        let records = self.read()?;
        find_in(records, words)
    }
}

/// The record `words` names among `records`.
pub fn find_in(records: Vec<Record>, words: &str) -> Result<Record> {
    let words = words.trim();
    if words.is_empty() {
        return Err(Error::invalid("an operation id is empty"));
    }
    let mut hits: Vec<Record> = records
        .into_iter()
        .filter(|r| r.begin.id.starts_with(words))
        .collect();
    match hits.len() {
        0 => Err(Error::not_found(
            format!("no operation {words:?} in the log"),
            Some("`log` lists the operations and their ids".to_string()),
        )),
        1 => Ok(hits.remove(0)),
        n => Err(Error::invalid(format!(
            "{words:?} is the start of {n} operation ids ({}); give more of it",
            hits.iter()
                .take(4)
                .map(|r| r.begin.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

enum Parsed {
    Begin(Begin),
    End(End),
}

/// One line, read straight into its struct (the `type`, `format` and `version` fields are
/// passed over as unknown ones): an internally tagged enum would buffer every line first,
/// which doubled the time of `log` at 10,000 records. `None` for a line that does not parse or
/// is of a format version this tool does not know.
fn parse_line(line: &str) -> Option<Parsed> {
    #[derive(Deserialize)]
    struct Head {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        version: Option<u32>,
    }
    // The writer puts `type` (and `format`, `version`) first: read only that far.
    let head_end = line.find(",\"id\"").unwrap_or(line.len());
    let head: Head = serde_json::from_str(&format!("{}}}", &line[..head_end]))
        .or_else(|_| serde_json::from_str(line))
        .ok()?;
    match head.kind.as_str() {
        "begin" if head.version.is_none_or(|v| v <= VERSION) => {
            serde_json::from_str(line).ok().map(Parsed::Begin)
        }
        "end" => serde_json::from_str(line).ok().map(Parsed::End),
        _ => None,
    }
}

/// Records in a file and the time of its newest line.
fn count_records(f: &Path) -> Result<(usize, Option<i64>)> {
    let file = crate::fsutil::open_regular(f)?;
    let mut n = 0;
    let mut newest: Option<i64> = None;
    for line in BufReader::new(file).lines() {
        let line = line.at(f)?;
        match parse_line(&line) {
            Some(Parsed::Begin(begin)) => {
                n += 1;
                newest = newest.max(Some(begin.time));
            }
            Some(Parsed::End(end)) => newest = newest.max(Some(end.time)),
            None => {}
        }
    }
    Ok((n, newest))
}

/// Option names whose value is a secret: it is logged as `<elided>`.
const SECRET_WORDS: [&str; 6] = [
    "token",
    "password",
    "passwd",
    "secret",
    "credential",
    "api-key",
];

/// The command line as logged: the value of every option that names a secret (`--token X`,
/// `--password=X`, `--gateway-token X`) replaced by `<elided>`. A file option's path is kept
/// (`--token-file F`): it is no secret.
pub fn elide_secrets(argv: &[String]) -> Vec<String> {
    let is_secret = |name: &str| {
        let name = name.trim_start_matches('-').to_ascii_lowercase();
        !name.ends_with("-file") && SECRET_WORDS.iter().any(|w| name.contains(w))
    };
    let mut out = Vec::with_capacity(argv.len());
    let mut elide_next = false;
    for a in argv {
        if elide_next {
            out.push("<elided>".to_string());
            elide_next = false;
            continue;
        }
        if a.starts_with("--") {
            if let Some((name, _)) = a.split_once('=') {
                if is_secret(name) {
                    out.push(format!("{name}=<elided>"));
                    continue;
                }
            } else if is_secret(a) {
                elide_next = true;
            }
        }
        out.push(a.clone());
    }
    out
}

fn user_name(uid: u32) -> Option<String> {
    let text = std::fs::read_to_string("/etc/passwd").ok();
    let from_passwd = text.as_deref().and_then(|text| {
        text.lines().find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            (fields.len() >= 3 && fields[2].parse::<u32>().ok() == Some(uid))
                .then(|| fields[0].to_string())
        })
    });
    from_passwd.or_else(|| std::env::var("USER").ok())
}

fn host_name() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn begin(id: &str, time: i64) -> Begin {
        Begin {
            id: id.into(),
            time,
            command: "delete".into(),
            argv: vec!["delete".into(), "k".into()],
            origin: Origin::current(),
            route: Route::Offline,
            release: None,
            headline: String::new(),
            actions: vec![],
            snapshots: vec![],
            undoes: None,
            not_undoable: None,
        }
    }

    #[test]
    fn secrets_are_elided_in_both_forms() {
        let argv: Vec<String> = [
            "patch",
            "--token",
            "abc",
            "--password=pw",
            "--gateway-token-file",
            "/f",
            "k",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            elide_secrets(&argv),
            [
                "patch",
                "--token",
                "<elided>",
                "--password=<elided>",
                "--gateway-token-file",
                "/f",
                "k"
            ]
        );
    }

    #[test]
    fn a_begin_without_its_end_reads_as_interrupted_and_an_undo_marks_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let log = OpLog::of(dir.path());
        let mut a = begin("00000000001aaaa", 1);
        a.origin.pid = u32::MAX; // no such process
        log.begin(&a).unwrap();
        let b = begin("00000000002bbbb", 2);
        log.begin(&b).unwrap();
        log.end(&End {
            id: b.id.clone(),
            time: 3,
            outcome: Outcome::Done,
            actions: None,
            error: None,
            resumed_by: None,
        })
        .unwrap();
        let mut u = begin("00000000003cccc", 4);
        u.undoes = Some(b.id.clone());
        log.begin(&u).unwrap();
        log.end(&End {
            id: u.id.clone(),
            time: 5,
            outcome: Outcome::Done,
            actions: None,
            error: None,
            resumed_by: None,
        })
        .unwrap();
        let records = log.read().unwrap();
        assert_eq!(records[0].outcome, Outcome::Interrupted);
        assert_eq!(records[1].outcome, Outcome::Done);
        assert_eq!(records[1].undone_by.as_deref(), Some(u.id.as_str()));
        assert!(find_in(records.clone(), "0000000000").is_err());
        assert_eq!(find_in(records, "00000000002").unwrap().id(), b.id);
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(&log.files().unwrap()[0])
                .unwrap()
                .permissions(),
        );
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn retention_drops_the_oldest_files_past_the_record_limit_and_the_age_limit() {
        let dir = tempfile::tempdir().unwrap();
        let log = OpLog::of(dir.path());
        crate::fsutil::create_private_dir_all(log.dir()).unwrap();
        let day = 24 * 3600 * 1000;
        let now = 400 * day;
        // Three files: an old one, and two of KEEP_RECORDS / 2 + 1 records each.
        let write = |name: &str, n: usize, time: i64| {
            let mut text = String::new();
            for i in 0..n {
                let line = Line::Begin {
                    format: FORMAT.into(),
                    version: VERSION,
                    begin: Box::new(begin(&format!("{name}{i:06}"), time)),
                };
                text.push_str(&serde_json::to_string(&line).unwrap());
                text.push('\n');
            }
            std::fs::write(log.dir().join(format!("{name}.jsonl")), text).unwrap();
        };
        write("a", 3, now - 200 * day);
        write("b", KEEP_RECORDS / 2 + 1, now - day);
        write("c", KEEP_RECORDS / 2 + 1, now);
        let removed = log.retain(now).unwrap();
        let names: Vec<String> = removed
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.jsonl"]);
        write("d", KEEP_RECORDS / 2 - 1, now);
        let removed = log.retain(now).unwrap();
        assert_eq!(removed.len(), 1, "b goes: c and d still hold the limit");
        assert_eq!(log.files().unwrap().len(), 2);
    }
}
