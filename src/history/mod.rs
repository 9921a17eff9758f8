//! History: every archived transcript of an agent, wherever OpenClaw left it
//! (docs/openclaw/ARCHIVES.md): `session_transcript_archives` rows and their published
//! `<id>.jsonl.deleted.<stamp>.<generation>.zst` files, legacy `.reset`/`.deleted`/`.bak`
//! files in `sessions/`, transcripts moved into `session-sqlite-import-archive/` by the
//! import, and cold archives. Read-only: nothing here writes.

pub mod bundle;
pub mod search;

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result, ResultExt};
use crate::formats::SessionEntry;
use crate::legacy::{
    classify_session_file, for_each_index_entry, is_safe_session_id, ArchiveReason, IndexSource,
    SessionFile,
};
use crate::store::db::{archives, windows};
use crate::store::AgentStore;
use crate::transcript::{ArchiveBody, ArchiveEncoding, TranscriptSource};

/// Whether an archive's row and its file say the same thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agreement {
    /// Row and file both present, the file's sha256 the row's.
    Agree,
    /// A row whose file is not published yet (OpenClaw publishes it on its next pass).
    Unpublished,
    /// A row recorded as published whose file is gone.
    FileMissing,
    /// The file's bytes are not the ones the row records.
    FileDiffers,
    /// A `.deleted.*.<generation>.zst` file of a database store without its row.
    NoRow,
    /// A file that never had a row (legacy archives, the import archive).
    FileOnly,
}

/// Where an archive came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    Deleted,
    Reset,
    Bak,
    /// A legacy transcript the SQLite import moved aside.
    Imported,
    /// A transcript moved to cold storage (its session is still listed).
    Cold,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Deleted => "deleted",
            Reason::Reset => "reset",
            Reason::Bak => "bak",
            Reason::Imported => "imported",
            Reason::Cold => "cold",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [
            Reason::Deleted,
            Reason::Reset,
            Reason::Bak,
            Reason::Imported,
            Reason::Cold,
        ]
        .into_iter()
        .find(|r| r.as_str() == raw)
    }
}

/// One archived transcript.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchivedTranscript {
    pub agent_id: String,
    /// What `archives cat` takes: the archive's name (its file name; unique in an agent).
    pub name: String,
    pub session_id: String,
    /// The key the transcript belonged to, when a row or an index still says so.
    pub session_key: Option<String>,
    pub reason: Reason,
    /// Milliseconds since the epoch: the row's `created_at`, else the stamp in the name.
    pub archived_at: Option<i64>,
    /// Stored (encoded) bytes.
    pub bytes: u64,
    pub encoding: ArchiveEncoding,
    pub generation: Option<String>,
    /// The sha256 the row records (archive rows and cold archives).
    pub sha256: Option<String>,
    /// Whether a database row records it.
    pub row: bool,
    /// The file, when there is one.
    pub file: Option<PathBuf>,
    pub agreement: Agreement,
    /// Events it holds (counted by `count_events`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<u64>,
    /// Why it could not be read, when it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The entry `delete` kept with it (`writer::kept_entry`), which `undelete` restores;
    /// set by [`ArchivedTranscript::find_kept_entry`].
    pub kept_entry: Option<PathBuf>,
    #[serde(skip)]
    pub body: ArchiveBody,
}

impl ArchivedTranscript {
    /// Look for the entry kept with this archive under `state_dir`.
    pub fn find_kept_entry(&mut self, state_dir: &Path) {
        self.kept_entry =
            crate::writer::kept_entry::read_kept_entry(state_dir, &self.agent_id, &self.name)
                .filter(|(_, k)| k.session_id == self.session_id)
                .map(|(path, _)| path);
    }

    /// The archive as a transcript source (`transcript cat`/`export` read it like a live one).
    pub fn source(&self) -> TranscriptSource {
        TranscriptSource::Archive {
            session_id: self.session_id.clone(),
            body: self.body.clone(),
            encoding: self.encoding,
        }
    }

    /// Count the events, decoding the archive (bounded memory); a failure is kept in
    /// `problem`.
    pub fn count_events(&mut self, store: &AgentStore) {
        let mut n = 0u64;
        match self.source().for_each(store, 0, &mut |_| {
            n += 1;
            Ok(ControlFlow::Continue(()))
        }) {
            Ok(()) => self.events = Some(n),
            Err(e) => self.problem = Some(e.to_string()),
        }
    }
}

/// Whether anything is at `path` (a symbolic link is not followed), and the sha256 of the
/// regular file there, or why it is not read.
fn published_sha(path: &Path) -> (bool, std::result::Result<String, String>) {
    if std::fs::symlink_metadata(path).is_err() {
        return (false, Err(String::new()));
    }
    (
        true,
        crate::digest::sha256_file(path)
            .map(|(sha, _)| sha)
            .map_err(|e| e.to_string()),
    )
}

/// `2026-11-29T23-24-43.289Z` (an archive name's stamp) as milliseconds.
fn stamp_ms(stamp: &str) -> Option<i64> {
    let (date, time) = stamp.split_once('T')?;
    crate::units::parse_iso_ms(&format!("{date}T{}", time.replace('-', ":")))
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

fn list_dir(dir: &Path) -> Result<Vec<String>> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(dir, e)),
    };
    let mut names = Vec::new();
    for ent in rd {
        let ent = ent.at(dir)?;
        // Anything but a directory: a FIFO or a symbolic link named as an archive is listed
        // with a warning, never read.
        if !ent.file_type().at(ent.path())?.is_dir() {
            if let Some(n) = ent.file_name().to_str() {
                names.push(n.to_string());
            }
        }
    }
    names.sort();
    Ok(names)
}

/// Visit the names of the files in `dir` (none when it does not exist), in the directory's
/// order, without holding them.
fn for_each_file_name(dir: &Path, visit: &mut dyn FnMut(&str) -> Result<()>) -> Result<()> {
    let Some(rd) = crate::fsutil::read_dir_if_exists(dir)? else {
        return Ok(());
    };
    for ent in rd {
        let ent = ent.at(dir)?;
        if ent.file_type().at(ent.path())?.is_file() {
            if let Some(n) = ent.file_name().to_str() {
                visit(n)?;
            }
        }
    }
    Ok(())
}

/// Import-archive files read from the directory at a time (see [`import_window`]).
const IMPORT_WINDOW: usize = 2048;

/// Where an import-archive file sorts: `(ms, session id, name)`.
type ImportKey = (i64, String, String);

/// The at most `n` smallest import-archive transcripts of `dir` that sort after `after`,
/// in order: one read of the directory, holding `n` names whatever its size.
fn import_window(dir: &Path, after: Option<&ImportKey>, n: usize) -> Result<Vec<ImportKey>> {
    let mut heap: std::collections::BinaryHeap<ImportKey> = std::collections::BinaryHeap::new();
    for_each_file_name(dir, &mut |name| {
        let Some((sid, ms)) = imported_name(name) else {
            return Ok(());
        };
        let key = (ms, sid, name.to_string());
        if after.is_some_and(|a| key <= *a) {
            return Ok(());
        }
        if heap.len() == n {
            if heap.peek().is_some_and(|top| key >= *top) {
                return Ok(());
            }
            heap.pop();
        }
        heap.push(key);
        Ok(())
    })?;
    Ok(heap.into_sorted_vec())
}

/// An import-archive file name: `<keySlug>.<sessionId>.jsonl.imported-<ms>[.<n>]`
/// (docs/openclaw/ARCHIVES.md) as `(session id, ms)`. Session ids hold no `.`.
fn imported_name(name: &str) -> Option<(String, i64)> {
    let (stem, tail) = name.rsplit_once(".jsonl.imported-")?;
    let ms: i64 = tail.split('.').next()?.parse().ok()?;
    let sid = stem.rsplit_once('.').map_or(stem, |(_, s)| s);
    (!sid.is_empty()).then(|| (sid.to_string(), ms))
}

/// Keys of the session ids in `wanted`, from the index the import moved aside
/// (`legacy-store.sessions.json.imported-<ms>`, newest last so it wins).
fn imported_keys(dir: &Path, names: &[String], wanted: &HashSet<&str>) -> HashMap<String, String> {
    let mut keys = HashMap::new();
    if wanted.is_empty() {
        return keys;
    }
    for n in names {
        // Streamed, keeping only the pairs asked for: a whole index costs about four times
        // its text, and every pair of it as much again.
        let path = dir.join(n);
        let Ok(file) = crate::fsutil::open_regular(&path) else {
            continue;
        };
        let _ = for_each_index_entry(&path, IndexSource::File(&file), |key, value| {
            let entry = SessionEntry::from_value(&key, value);
            if let Some(e) = entry.ok().filter(|e| is_safe_session_id(e.session_id())) {
                if wanted.contains(e.session_id()) {
                    keys.insert(e.session_id().to_string(), key);
                }
            }
            Ok(())
        });
    }
    keys
}

/// Every archived transcript of one agent, oldest first. Events are not counted here.
pub fn archives_of(store: &AgentStore) -> Result<Vec<ArchivedTranscript>> {
    archives_where(store, &|_| true)
}

/// Visit every archived transcript of one agent, oldest first (the order of
/// [`archives_of`]), without holding them all; `visit` may stop the walk.
pub fn for_each_archive(
    store: &AgentStore,
    visit: &mut dyn FnMut(ArchivedTranscript) -> ControlFlow<()>,
) -> Result<()> {
    walk_archives(store, &|_| true, visit)
}

/// The archives of one agent that `words` may name (see [`pick`]), oldest first: `pick`
/// over them chooses what it chooses over all of them, and only these are kept in memory.
pub fn archives_named(store: &AgentStore, words: &str) -> Result<Vec<ArchivedTranscript>> {
    let names = Naming::of(words);
    let found = archives_where(store, &|a| names.may_name(a))?;
    if !found.is_empty() {
        return Ok(found);
    }
    // A session key, as `archives list` shows it (or bare): the archives whose key is known
    // and is that one, and those whose key is looked up only after this filter (legacy and
    // imported files), kept when their key turns out to be it.
    Ok(
        archives_where(store, &|a| a.session_key.is_none() || key_names(a, words))?
            .into_iter()
            .filter(|a| key_names(a, words))
            .collect(),
    )
}

/// `words` is the archive's session key: whole (`agent:main:chat`) or bare (`chat`, qualified
/// with the archive's agent), in any case (OpenClaw stores keys lower-cased).
fn key_names(a: &ArchivedTranscript, words: &str) -> bool {
    let Some(key) = a.session_key.as_deref() else {
        return false;
    };
    key.eq_ignore_ascii_case(words)
        || key
            .strip_prefix("agent:")
            .and_then(|rest| rest.split_once(':'))
            .is_some_and(|(agent, bare)| agent == a.agent_id && bare.eq_ignore_ascii_case(words))
}

/// What an archive's words are compared with (see [`pick`]).
struct Naming<'w> {
    words: &'w str,
    file_name: &'w str,
    canonical: Option<PathBuf>,
}

impl<'w> Naming<'w> {
    fn of(words: &'w str) -> Self {
        let as_path = Path::new(words);
        Naming {
            words,
            file_name: as_path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or(words),
            canonical: std::fs::canonicalize(as_path).ok(),
        }
    }

    /// The name or the file is the one named.
    fn names(&self, a: &ArchivedTranscript) -> bool {
        a.name == self.words
            || (self.canonical.is_some()
                && a.file.as_ref().and_then(|f| std::fs::canonicalize(f).ok()) == self.canonical)
    }

    /// Any of [`pick`]'s ways of naming an archive: name, file, file name, session id or
    /// its prefix.
    fn may_name(&self, a: &ArchivedTranscript) -> bool {
        self.names(a)
            || a.name == self.file_name
            || a.session_id == self.words
            || (self.words.len() >= 8 && a.session_id.starts_with(self.words))
    }
}

/// The archives of one agent that `keep` keeps, oldest first (each is built, then kept or
/// dropped). The keys of legacy and imported files are looked up after `keep`.
fn archives_where(
    store: &AgentStore,
    keep: &dyn Fn(&ArchivedTranscript) -> bool,
) -> Result<Vec<ArchivedTranscript>> {
    let mut found = Vec::new();
    walk_archives(store, keep, &mut |a| {
        found.push(a);
        ControlFlow::Continue(())
    })?;
    Ok(found)
}

/// The walk under [`archives_where`] and [`for_each_archive`].
fn walk_archives(
    store: &AgentStore,
    keep: &dyn Fn(&ArchivedTranscript) -> bool,
    visit: &mut dyn FnMut(ArchivedTranscript) -> ControlFlow<()>,
) -> Result<()> {
    let agent_id = store.paths.id.to_string();
    let sessions_dir = &store.paths.sessions_dir;
    let mut out = Vec::new();
    macro_rules! push {
        ($a:expr) => {{
            let a = $a;
            if keep(&a) {
                out.push(a);
            }
        }};
    }
    let mut by_name: HashSet<String> = HashSet::new();
    let db = store.db();
    if let Some(db) = db {
        let conn = db.conn();
        if crate::store::db::meta::table_exists(conn, "session_transcript_archives") {
            for r in archives::all(conn).at(db.path())? {
                let file = sessions_dir.join(&r.archive_name);
                // Anything but a regular file there (a FIFO, a symbolic link) is not read: a
                // warning for this archive, and the listing goes on.
                let (present, sha) = published_sha(&file);
                let mut problem = None;
                let agreement = match (present, r.published_at.is_some()) {
                    (true, _) => match sha {
                        Ok(sha) if sha == r.archive_sha256 => Agreement::Agree,
                        Ok(_) => Agreement::FileDiffers,
                        Err(e) => {
                            problem = Some(e);
                            Agreement::FileDiffers
                        }
                    },
                    (false, true) => Agreement::FileMissing,
                    (false, false) => Agreement::Unpublished,
                };
                by_name.insert(r.archive_name.clone());
                push!(ArchivedTranscript {
                    agent_id: agent_id.clone(),
                    name: r.archive_name.clone(),
                    session_id: r.session_id.clone(),
                    session_key: Some(r.session_key.clone()),
                    reason: Reason::parse(&r.reason).unwrap_or(Reason::Deleted),
                    archived_at: Some(r.created_at),
                    bytes: r.blob_bytes,
                    encoding: if r.encoding == "zstd" {
                        ArchiveEncoding::Zstd
                    } else {
                        ArchiveEncoding::Identity
                    },
                    generation: Some(r.generation.clone()),
                    sha256: Some(r.archive_sha256.clone()),
                    row: true,
                    file: present.then_some(file),
                    agreement,
                    events: None,
                    problem,
                    kept_entry: None,
                    body: ArchiveBody::Row {
                        session_id: r.session_id,
                        generation: r.generation,
                    },
                });
            }
        }
        if crate::store::db::meta::table_exists(conn, "session_transcript_cold_archives") {
            for c in archives::cold_all(conn).at(db.path())? {
                let file = sessions_dir.join("cold").join(&c.archive_name);
                let mut problem = None;
                let (body, file, agreement) = if c.storage == "sqlite" {
                    let body = ArchiveBody::ColdRow {
                        session_id: c.session_id.clone(),
                    };
                    (body, None, Agreement::Agree)
                } else {
                    match published_sha(&file) {
                        (false, _) => (ArchiveBody::File(file), None, Agreement::FileMissing),
                        (true, Ok(sha)) => {
                            let agreement = if sha == c.archive_sha256 {
                                Agreement::Agree
                            } else {
                                Agreement::FileDiffers
                            };
                            (ArchiveBody::File(file.clone()), Some(file), agreement)
                        }
                        (true, Err(e)) => {
                            problem = Some(e);
                            (
                                ArchiveBody::File(file.clone()),
                                Some(file),
                                Agreement::FileDiffers,
                            )
                        }
                    }
                };
                let key = windows::session_key_of(conn, &c.session_id).at(db.path())?;
                by_name.insert(c.archive_name.clone());
                push!(ArchivedTranscript {
                    agent_id: agent_id.clone(),
                    name: c.archive_name,
                    session_id: c.session_id,
                    session_key: key,
                    reason: Reason::Cold,
                    archived_at: Some(c.archived_at),
                    bytes: c.archive_bytes.max(0) as u64,
                    encoding: ArchiveEncoding::ColdRecords,
                    generation: Some(c.generation),
                    sha256: Some(c.archive_sha256),
                    row: true,
                    file,
                    agreement,
                    events: None,
                    problem,
                    kept_entry: None,
                    body,
                });
            }
        }
    }
    // Keys of sessions the files belonged to: a window that still names it, else the live
    // legacy index, else the import's index (looked up afterwards, only for the files no
    // window names).
    let import_dir = &store.paths.import_archive_dir;
    let key_of = |sid: &str| -> Result<Option<String>> {
        if let Some(db) = db {
            if let Some(k) = windows::session_key_of(db.conn(), sid).at(db.path())? {
                return Ok(Some(k));
            }
        }
        Ok(None)
    };
    let files_from = out.len();
    for name in list_dir(sessions_dir)? {
        if by_name.contains(&name) {
            continue;
        }
        let SessionFile::Archive {
            session_id,
            reason,
            stamp,
            generation,
            compressed,
        } = classify_session_file(&name)
        else {
            continue;
        };
        let path = sessions_dir.join(&name);
        let problem = match std::fs::symlink_metadata(&path) {
            Ok(m) if !m.file_type().is_file() => {
                Some(crate::fsutil::not_regular(&path, m.file_type()).to_string())
            }
            _ => None,
        };
        let agreement = if db.is_some() && generation.is_some() && reason == ArchiveReason::Deleted
        {
            Agreement::NoRow
        } else {
            Agreement::FileOnly
        };
        push!(ArchivedTranscript {
            agent_id: agent_id.clone(),
            session_key: key_of(&session_id)?,
            name,
            session_id,
            reason: match reason {
                ArchiveReason::Deleted => Reason::Deleted,
                ArchiveReason::Reset => Reason::Reset,
                ArchiveReason::Bak => Reason::Bak,
            },
            archived_at: stamp_ms(&stamp),
            bytes: file_len(&path),
            encoding: if compressed {
                ArchiveEncoding::Zstd
            } else {
                ArchiveEncoding::Identity
            },
            generation,
            sha256: None,
            row: false,
            file: Some(path.clone()),
            agreement,
            events: None,
            problem,
            kept_entry: None,
            body: ArchiveBody::File(path),
        });
    }
    // The import's files, the bulk of a large agent, are never all held: one read of the
    // directory finds its indexes and the session ids no window names (their keys are
    // looked up in the indexes); they are then visited in order, [`IMPORT_WINDOW`] at a
    // time, each window the smallest names after the last one visited ([`import_window`]).
    let mut index_names: Vec<String> = Vec::new();
    let mut wanted_ids: HashSet<String> = HashSet::new();
    for_each_file_name(import_dir, &mut |name| {
        if name.starts_with("legacy-store.sessions.json.imported-") {
            index_names.push(name.to_string());
            return Ok(());
        }
        let Some(item) = imported_item(&agent_id, import_dir, name, None) else {
            return Ok(());
        };
        if keep(&item) && key_of(&item.session_id)?.is_none() {
            wanted_ids.insert(item.session_id);
        }
        Ok(())
    })?;
    // Newest last, so that it wins.
    index_names.sort();
    let wanted: HashSet<&str> = out[files_from..]
        .iter()
        .filter(|a| a.session_key.is_none())
        .map(|a| a.session_id.as_str())
        .chain(wanted_ids.iter().map(String::as_str))
        .collect();
    let mut keys = imported_keys(import_dir, &index_names, &wanted);
    if let Some(legacy) = store.legacy() {
        for e in legacy
            .entries
            .iter()
            .filter(|e| wanted.contains(e.session_id()))
        {
            keys.insert(e.session_id().to_string(), e.key.clone());
        }
    }
    drop(wanted);
    drop(wanted_ids);
    for a in &mut out[files_from..] {
        if a.session_key.is_none() {
            a.session_key = keys.get(&a.session_id).cloned();
        }
    }
    out.sort_by(|a, b| {
        (a.archived_at, &a.session_id, &a.name).cmp(&(b.archived_at, &b.session_id, &b.name))
    });
    // Merged in the order one sort of all of them gives (ties: rows, cold, sessions/ files,
    // then the import's files).
    let mut early = out.into_iter().peekable();
    // Smaller under the test hook, so that small fixtures cross windows.
    let size = crate::test_hooks::apply_batch().unwrap_or(IMPORT_WINDOW);
    let mut window = import_window(import_dir, None, size)?;
    let mut more = window.len() == size;
    let mut imports = std::mem::take(&mut window).into_iter().peekable();
    let mut last: Option<ImportKey> = None;
    loop {
        if imports.peek().is_none() && more {
            window = import_window(import_dir, last.as_ref(), size)?;
            more = window.len() == size;
            imports = std::mem::take(&mut window).into_iter().peekable();
        }
        let take_early = match (early.peek(), imports.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(a), Some((ms, sid, name))) => {
                (a.archived_at, a.session_id.as_str(), a.name.as_str())
                    <= (Some(*ms), sid.as_str(), name.as_str())
            }
        };
        let next = if take_early {
            early.next()
        } else {
            let k = imports.next();
            let item = k
                .as_ref()
                .and_then(|(_, _, name)| imported_item(&agent_id, import_dir, name, None))
                .filter(|a| keep(a));
            last = k;
            item
        };
        let Some(mut a) = next else { continue };
        if !take_early {
            a.session_key = match key_of(&a.session_id)? {
                Some(k) => Some(k),
                None => keys.get(&a.session_id).cloned(),
            };
        }
        if visit(a).is_break() {
            break;
        }
    }
    Ok(())
}

/// The import's file `name`, when it is one of its transcripts.
fn imported_item(
    agent_id: &str,
    import_dir: &Path,
    name: &str,
    session_key: Option<String>,
) -> Option<ArchivedTranscript> {
    let (session_id, ms) = imported_name(name)?;
    let path = import_dir.join(name);
    Some(ArchivedTranscript {
        agent_id: agent_id.to_string(),
        session_key,
        name: name.to_string(),
        session_id,
        reason: Reason::Imported,
        archived_at: Some(ms),
        bytes: file_len(&path),
        encoding: ArchiveEncoding::Identity,
        generation: None,
        sha256: None,
        row: false,
        file: Some(path.clone()),
        agreement: Agreement::FileOnly,
        events: None,
        problem: None,
        kept_entry: None,
        body: ArchiveBody::File(path),
    })
}

/// Filters of `archives list`.
#[derive(Debug, Clone, Default)]
pub struct ArchiveFilter {
    /// A session key or id (or an 8+ character id prefix).
    pub session: Option<String>,
    pub reasons: Vec<Reason>,
}

impl ArchiveFilter {
    pub fn matches(&self, a: &ArchivedTranscript) -> bool {
        if !self.reasons.is_empty() && !self.reasons.contains(&a.reason) {
            return false;
        }
        match &self.session {
            None => true,
            Some(s) => {
                a.session_key.as_deref() == Some(s.as_str())
                    || a.session_id == *s
                    || (s.len() >= 8 && a.session_id.starts_with(s.as_str()))
                    || a.session_key.as_deref().is_some_and(|k| {
                        k.strip_prefix("agent:")
                            .and_then(|r| r.split_once(':'))
                            .is_some_and(|(_, bare)| bare == s)
                    })
            }
        }
    }
}

/// The archive `words` names among `found` (one agent's or several): its name, a path to
/// its file, a session id or a session key as `archives list` shows it, whole or bare (the
/// newest archive of that session wins). An ambiguous name is refused with the candidates.
pub fn pick<'a>(found: &'a [ArchivedTranscript], words: &str) -> Result<&'a ArchivedTranscript> {
    let as_path = Path::new(words);
    let file_name = as_path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(words);
    let canonical = std::fs::canonicalize(as_path).ok();
    let mut hits: Vec<&ArchivedTranscript> = found
        .iter()
        .filter(|a| {
            a.name == words
                || (canonical.is_some()
                    && a.file.as_ref().and_then(|f| std::fs::canonicalize(f).ok()) == canonical)
        })
        .collect();
    if hits.is_empty() && file_name != words {
        hits = found.iter().filter(|a| a.name == file_name).collect();
    }
    if hits.is_empty() {
        // A session id, or a unique prefix of at least 8 characters: its newest archive.
        let mut by_id: Vec<&ArchivedTranscript> =
            found.iter().filter(|a| a.session_id == words).collect();
        if by_id.is_empty() && words.len() >= 8 {
            let ids: std::collections::BTreeSet<(&str, &str)> = found
                .iter()
                .filter(|a| a.session_id.starts_with(words))
                .map(|a| (a.agent_id.as_str(), a.session_id.as_str()))
                .collect();
            if ids.len() == 1 {
                by_id = found
                    .iter()
                    .filter(|a| a.session_id.starts_with(words))
                    .collect();
            } else if ids.len() > 1 {
                return Err(Error::InvalidArgument {
                    message: format!(
                        "{words:?} is the start of several session ids: {}",
                        ids.iter()
                            .map(|(a, s)| format!("{s} ({a})"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    hint: Some("give more of the id".into()),
                });
            }
        }
        if by_id.is_empty() {
            // A session key (whole or bare): the newest archive of that session.
            by_id = found.iter().filter(|a| key_names(a, words)).collect();
        }
        if let Some(newest) = by_id.iter().max_by_key(|a| a.archived_at) {
            let agents: std::collections::BTreeSet<&str> =
                by_id.iter().map(|a| a.agent_id.as_str()).collect();
            if agents.len() == 1 {
                return Ok(newest);
            }
            hits = by_id;
        }
    }
    match hits.as_slice() {
        [one] => Ok(one),
        [] => Err(Error::not_found(
            format!("no archive named {words:?}, nor of a session with that id or key"),
            Some(
                "the archive list shows every archive by name (--all-agents for every agent)"
                    .into(),
            ),
        )),
        many => Err(Error::InvalidArgument {
            message: format!(
                "{words:?} names {} archives: {}",
                many.len(),
                many.iter()
                    .map(|a| format!("{} ({})", a.name, a.agent_id))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            hint: Some("name one archive and its agent with --agent".into()),
        }),
    }
}
