//! `secrets scrub`: the secrets the admin selects, replaced by OpenClaw's own redaction marker
//! everywhere `secrets scan` finds them (docs/SECRETS.md, "Scrubbing"). Planned from a scan
//! (read-only), applied under custody:
//!
//! - agent databases: each in one transaction with `secure_delete` on (freed bytes zeroed):
//!   the transcript rows rewritten (a zstd row decoded, replaced, encoded again as OpenClaw
//!   encodes it, `event_utf8_bytes` set to the new length), every other text found replaced
//!   in place, archive rows re-encoded with their `archive_sha256`; the projection of every
//!   session touched (active branch, search rows) rebuilt through the writer's own rebuild,
//!   the search index merged so no old term stays in it; then the WAL checkpointed and
//!   truncated;
//! - files (`.deleted`/`.reset` archives, cold archives, import archives, legacy JSONL): each
//!   rewritten beside itself, checked, and renamed over its old name (same name, valid zstd);
//! - snapshots holding a selected secret: listed; removed only on request (`--snapshots
//!   remove`).
//!
//! Nothing else in this tool redacts: only an explicit scrub, only what it selects.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use rusqlite::{OptionalExtension, TransactionBehavior};
use serde::Serialize;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{count, PlanGroup, PlanItem, PlanSummary};
use super::targets::Selection as AgentSelection;
use crate::backup::SnapshotSource;
use crate::digest::sha256_hex;
use crate::error::{Error, Result, ResultExt};
use crate::paths::{AgentPaths, StateLayout};
use crate::secrets::redact::{self, Selection};
use crate::secrets::{scan, Detectors, Finding, ScanOptions};
use crate::writer::WritableDb;

/// What to do with a snapshot that holds a selected secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SnapshotAction {
    /// Listed in the plan, left as it is.
    #[default]
    List,
    /// The snapshot directory removed.
    Remove,
}

/// Which findings, by what they are (rule, fingerprint, host value) and where (sessions).
#[derive(Debug, Clone, Default)]
pub struct ScrubSelection {
    pub secrets: Selection,
    /// Session keys or ids: only findings of these sessions (all when empty).
    pub sessions: Vec<String>,
}

impl ScrubSelection {
    fn selects(&self, f: &Finding, session_ids: &BTreeSet<String>) -> bool {
        let what = (self.secrets.host_values && f.rule == "host-value")
            || self.secrets.rules.contains(&f.rule)
            || self
                .secrets
                .fingerprints
                .iter()
                .any(|p| p.len() >= 8 && f.fingerprint.starts_with(p.as_str()));
        let place = self.sessions.is_empty()
            || f.location
                .session_key
                .as_ref()
                .is_some_and(|k| self.sessions.contains(k))
            || f.location
                .session_id
                .as_ref()
                .is_some_and(|id| session_ids.contains(id));
        what && place
    }

    /// The selection as the redaction core takes it: the fingerprints of the findings the
    /// plan selected (a session filter selects a secret there, not its every rule).
    fn redaction(&self, fingerprints: &BTreeSet<String>) -> Selection {
        Selection {
            rules: Vec::new(),
            fingerprints: fingerprints.iter().cloned().collect(),
            host_values: false,
        }
    }
}

/// One agent database to rewrite.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseScrub {
    pub agent_id: String,
    pub database: PathBuf,
    /// Findings per place (`transcript`, `entry`, `fts`, `archive-row`, `table`).
    pub places: BTreeMap<String, u64>,
    /// Transcript rows: (session id, seq).
    #[serde(skip)]
    events: BTreeSet<(String, i64)>,
    /// Other rows: (table, rowid) and the columns found in.
    #[serde(skip)]
    rows: BTreeMap<(String, i64), BTreeSet<String>>,
    /// Sessions whose projection is rebuilt.
    #[serde(skip)]
    sessions: BTreeSet<String>,
    /// Published archive files that are byte for byte their row's blob (the same digest):
    /// rewritten on both sides, they must stay so.
    #[serde(skip)]
    published: Vec<PathBuf>,
    /// After a real run: rows rewritten, secrets replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows_rewritten: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced: Option<u64>,
}

/// One session file to rewrite in place.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileScrub {
    pub agent_id: Option<String>,
    pub path: PathBuf,
    pub place: String,
    pub findings: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced: Option<u64>,
}

/// A snapshot holding a selected secret.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotHolding {
    pub path: PathBuf,
    pub findings: u64,
    /// A snapshot directory (`database.sqlite` + `manifest.json`) that can be removed whole.
    pub removable: bool,
    pub removed: bool,
}

/// A finding the scrub does not reach, with why.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeftAlone {
    pub path: String,
    pub place: String,
    pub findings: u64,
    pub why: String,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScrubPlan {
    /// Findings selected, in every place.
    pub findings: u64,
    /// Distinct secrets selected, by fingerprint.
    pub fingerprints: BTreeSet<String>,
    pub databases: Vec<DatabaseScrub>,
    pub files: Vec<FileScrub>,
    pub snapshots: Vec<SnapshotHolding>,
    pub left_alone: Vec<LeftAlone>,
    /// Whether this run's safety snapshots are kept (`--keep-snapshot`).
    pub keep_snapshot: bool,
}

pub struct ScrubOp {
    pub agents_selected: AgentSelection,
    pub selection: ScrubSelection,
    pub detectors: Detectors,
    pub snapshot_dirs: Vec<PathBuf>,
    pub snapshots: SnapshotAction,
    pub keep_snapshot: bool,
    agents: Vec<AgentPaths>,
    session_ids: BTreeSet<String>,
    state_dir: PathBuf,
}

/// A path as the plan shows it: relative to the state dir when it is under it.
pub fn shown_path(state_dir: &Path, path: &Path) -> String {
    path.strip_prefix(state_dir)
        .unwrap_or(path)
        .display()
        .to_string()
}

impl ScrubOp {
    pub fn new(
        agents_selected: AgentSelection,
        selection: ScrubSelection,
        detectors: Detectors,
    ) -> Self {
        ScrubOp {
            agents_selected,
            selection,
            detectors,
            snapshot_dirs: Vec::new(),
            snapshots: SnapshotAction::List,
            keep_snapshot: false,
            agents: Vec::new(),
            session_ids: BTreeSet::new(),
            state_dir: PathBuf::new(),
        }
    }

    fn agent_of_db(&self, db: &Path) -> Option<&AgentPaths> {
        self.agents.iter().find(|a| a.db == db)
    }

    fn agent_of_file(&self, path: &Path) -> Option<&AgentPaths> {
        self.agents
            .iter()
            .find(|a| path.starts_with(&a.dir) || path.starts_with(&a.sessions_dir))
    }
}

/// A directory that is one snapshot: its database and its manifest, nothing of the store.
fn is_snapshot_dir(dir: &Path) -> bool {
    dir.join("manifest.json").is_file() && dir.join("database.sqlite").is_file()
}

fn is_zstd_blob(b: &[u8]) -> bool {
    b.len() >= 4 && b[..4] == [0x28, 0xb5, 0x2f, 0xfd]
}

/// The text of a value as the scan reads it (a zstd blob decoded), the selected secrets
/// replaced; `None` when none is in it.
fn redact_stored(
    detectors: &Detectors,
    selection: &Selection,
    bytes: &[u8],
) -> Result<Option<(Vec<u8>, usize, bool)>> {
    if is_zstd_blob(bytes) {
        let text = zstd::decode_all(bytes).map_err(|e| Error::Internal(e.to_string()))?;
        Ok(redact::redact_value(detectors, selection, &text).map(|(t, n)| (t, n, true)))
    } else {
        Ok(redact::redact_value(detectors, selection, bytes).map(|(t, n)| (t, n, false)))
    }
}

impl Operation for ScrubOp {
    type Plan = ScrubPlan;
    type Report = ();

    /// The databases it rewrites are snapshotted first; that snapshot would keep the secret,
    /// so it is removed once the run is verified, unless `--keep-snapshot` (the command does
    /// it with [`remove_safety_snapshots`]).
    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::Required;

    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        self.agents.clone()
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        self.agents = self.agents_selected.agents(layout)?;
        self.state_dir = layout.state_dir.clone();
        for words in &self.selection.sessions {
            let t = super::targets::resolve_target(layout, &self.agents_selected, words)?;
            match (&t.session_id, &t.missing) {
                (Some(id), _) => {
                    self.session_ids.insert(id.clone());
                }
                (None, Some(why)) => {
                    return Err(Error::bad_input(
                        format!("no session {words:?}: {why}"),
                        Some("name a session key or id as `list` shows it".into()),
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A run killed after a database's commit and before its checkpoint leaves the old pages
    /// in the database file (the new ones in its WAL): they are checkpointed here first. A
    /// file's rewrite killed before its rename leaves its temporary file: the pipeline's
    /// leftover cleanup removes those in `sessions/`, this one those in the import archive.
    fn recover(&mut self, _layout: &StateLayout, hooks: &dyn Hooks) -> Result<()> {
        for a in &self.agents {
            if let Some(rd) = crate::fsutil::read_dir_if_exists(&a.import_archive_dir)? {
                for e in rd.flatten() {
                    let name = e.file_name().to_string_lossy().to_string();
                    let ours = crate::legacy::is_interrupted_write(&name) && name.starts_with('.');
                    if ours && e.file_type().is_ok_and(|t| t.is_file()) {
                        std::fs::remove_file(e.path()).at(e.path())?;
                        hooks.note(format!(
                            "removed {}, left by an interrupted run",
                            e.path().display()
                        ));
                    }
                }
            }
            let wal = crate::paths::sqlite_file::sidecar(&a.db, "-wal");
            if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) && a.db.is_file() {
                let conn = rusqlite::Connection::open(&a.db).at(&a.db)?;
                crate::store::db::vacuum::checkpoint_truncate(&conn).at(&a.db)?;
            }
        }
        Ok(())
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<ScrubPlan> {
        let state_dir = &layout.state_dir;
        let options = ScanOptions {
            snapshot_dirs: self.snapshot_dirs.clone(),
            keep: 0,
            agents: self
                .agents
                .iter()
                .map(|a| a.id.to_string())
                .collect::<Vec<_>>(),
        };
        let mut selected: Vec<Finding> = Vec::new();
        let sel = &self.selection;
        let ids = &self.session_ids;
        scan(state_dir, &self.detectors, &options, &mut |f| {
            if sel.selects(f, ids) {
                selected.push(f.clone());
            }
        })?;
        let mut plan = ScrubPlan {
            keep_snapshot: self.keep_snapshot,
            ..ScrubPlan::default()
        };
        let mut dbs: BTreeMap<PathBuf, DatabaseScrub> = BTreeMap::new();
        let mut files: BTreeMap<PathBuf, FileScrub> = BTreeMap::new();
        let mut snaps: BTreeMap<PathBuf, SnapshotHolding> = BTreeMap::new();
        let mut alone: BTreeMap<(String, String), LeftAlone> = BTreeMap::new();
        let mut leave = |path: &str, place: &str, why: &str| {
            alone
                .entry((path.to_string(), place.to_string()))
                .or_insert_with(|| LeftAlone {
                    path: path.to_string(),
                    place: place.to_string(),
                    findings: 0,
                    why: why.to_string(),
                })
                .findings += 1;
        };
        for f in selected {
            plan.findings += 1;
            plan.fingerprints.insert(f.fingerprint.clone());
            let l = &f.location;
            let abs = state_dir.join(&l.path);
            if let Some(snap) = &l.snapshot {
                let dir = {
                    let d = state_dir.join(snap);
                    if d.exists() {
                        d
                    } else {
                        PathBuf::from(snap)
                    }
                };
                let removable = is_snapshot_dir(&dir);
                snaps
                    .entry(dir.clone())
                    .or_insert(SnapshotHolding {
                        path: dir,
                        findings: 0,
                        removable,
                        removed: false,
                    })
                    .findings += 1;
                continue;
            }
            let is_row = l.table.is_some();
            if is_row {
                let Some(agent) = self.agent_of_db(&abs) else {
                    leave(
                        &l.path,
                        &l.place,
                        "not an agent database (the state database's tables are not rewritten)",
                    );
                    continue;
                };
                let d = dbs.entry(abs.clone()).or_insert_with(|| DatabaseScrub {
                    agent_id: agent.id.to_string(),
                    database: abs.clone(),
                    places: BTreeMap::new(),
                    events: BTreeSet::new(),
                    rows: BTreeMap::new(),
                    sessions: BTreeSet::new(),
                    published: Vec::new(),
                    rows_rewritten: None,
                    replaced: None,
                });
                *d.places.entry(l.place.clone()).or_default() += 1;
                let table = l.table.clone().unwrap_or_default();
                match l.place.as_str() {
                    "transcript" => {
                        if let (Some(id), Some(seq)) = (&l.session_id, l.seq) {
                            d.events.insert((id.clone(), seq));
                            d.sessions.insert(id.clone());
                        }
                    }
                    "fts" => {
                        if let Some(id) = &l.session_id {
                            d.sessions.insert(id.clone());
                        }
                    }
                    _ => match (l.rowid, &l.column) {
                        (Some(rowid), Some(col)) => {
                            d.rows
                                .entry((table, rowid))
                                .or_default()
                                .insert(col.clone());
                        }
                        _ => {
                            d.places.entry(l.place.clone()).and_modify(|n| *n -= 1);
                            leave(&l.path, &l.place, "a table without rowid");
                        }
                    },
                }
                continue;
            }
            if self.agent_of_file(&abs).is_none() && l.agent_id.is_some() {
                leave(&l.path, &l.place, "outside the agents selected");
                continue;
            }
            files
                .entry(abs.clone())
                .or_insert(FileScrub {
                    agent_id: l.agent_id.clone(),
                    path: abs,
                    place: l.place.clone(),
                    findings: 0,
                    replaced: None,
                })
                .findings += 1;
        }
        for d in dbs.values_mut() {
            let agent = self
                .agent_of_db(&d.database)
                .expect("planned from the scope");
            super::targets::check_owned_agent(layout, agent)?;
            d.published = published_pairs(&d.database, &agent.sessions_dir, &d.rows)?;
        }
        plan.databases = dbs.into_values().collect();
        plan.files = files.into_values().collect();
        plan.snapshots = snaps.into_values().collect();
        plan.left_alone = alone.into_values().collect();
        Ok(plan)
    }

    fn check(&self, layout: &StateLayout, plan: &ScrubPlan) -> Result<()> {
        for f in &plan.files {
            crate::writer::check_owned_path(&layout.state_dir, &f.path)?;
        }
        if self.snapshots == SnapshotAction::Remove {
            for s in &plan.snapshots {
                if !s.removable {
                    return Err(Error::bad_input(
                        format!(
                            "{} holds a selected secret but is not a snapshot directory \
                             (database.sqlite beside manifest.json); it is not removed",
                            s.path.display()
                        ),
                        Some("move it aside yourself, or run without --snapshots remove".into()),
                    ));
                }
            }
        }
        Ok(())
    }

    fn summarize(&self, plan: &ScrubPlan, limit: usize) -> Result<PlanSummary> {
        let mut summary = PlanSummary::new(format!(
            "replace {} of {} with OpenClaw's redaction marker",
            count(plan.findings as usize, "finding"),
            count(plan.fingerprints.len(), "secret"),
        ));
        let mut groups: BTreeMap<Option<String>, PlanGroup> = BTreeMap::new();
        for d in &plan.databases {
            let places: Vec<String> = d
                .places
                .iter()
                .filter(|(_, n)| **n > 0)
                .map(|(p, n)| format!("{p} {n}"))
                .collect();
            let g = groups
                .entry(Some(d.agent_id.clone()))
                .or_insert_with(|| PlanGroup::new(Some(d.agent_id.clone())));
            g.push(
                PlanItem::change(
                    "rewrite",
                    shown_path(&self.state_dir, &d.database),
                    Some(format!(
                        "{}; {} reindexed",
                        places.join(", "),
                        count(d.sessions.len(), "session")
                    )),
                ),
                limit,
            );
        }
        for f in &plan.files {
            let g = groups
                .entry(f.agent_id.clone())
                .or_insert_with(|| PlanGroup::new(f.agent_id.clone()));
            g.push(
                PlanItem::change(
                    "rewrite",
                    shown_path(&self.state_dir, &f.path),
                    Some(format!("{} {}, in place", f.place, f.findings)),
                ),
                limit,
            );
        }
        let mut other = PlanGroup::new(None);
        for s in &plan.snapshots {
            let item = match self.snapshots {
                SnapshotAction::Remove => PlanItem::change(
                    "remove",
                    shown_path(&self.state_dir, &s.path),
                    Some(format!(
                        "snapshot holding {}",
                        count(s.findings as usize, "finding")
                    )),
                ),
                SnapshotAction::List => PlanItem::left_alone(
                    "kept",
                    shown_path(&self.state_dir, &s.path),
                    Some(format!(
                        "snapshot holding {}; --snapshots remove removes it",
                        count(s.findings as usize, "finding")
                    )),
                ),
            };
            other.push(item, limit);
        }
        for a in &plan.left_alone {
            other.push(
                PlanItem::left_alone(
                    "not scrubbed",
                    a.path.clone(),
                    Some(format!("{} {}: {}", a.place, a.findings, a.why)),
                ),
                limit,
            );
        }
        if !plan.databases.is_empty() {
            other.push(
                PlanItem::left_alone(
                    "taken",
                    "safety snapshot".to_string(),
                    Some(if plan.keep_snapshot {
                        "holds the secrets; kept (--keep-snapshot)".to_string()
                    } else {
                        "holds the secrets; removed once verified (--keep-snapshot)".to_string()
                    }),
                ),
                limit,
            );
        }
        if other.total > 0 {
            summary.add(other);
        }
        for (_, g) in groups {
            summary.add(g);
        }
        Ok(summary)
    }

    fn snapshot_sources(&self, _layout: &StateLayout, plan: &ScrubPlan) -> Vec<SnapshotSource> {
        plan.databases
            .iter()
            .filter_map(|d| self.agent_of_db(&d.database))
            .map(SnapshotSource::agent)
            .collect()
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut ScrubPlan,
        hooks: &dyn Hooks,
    ) -> Result<()> {
        let redaction = self.selection.redaction(&plan.fingerprints);
        for d in &mut plan.databases {
            if hooks.interruption().requested() {
                return Err(Error::Interrupted);
            }
            scrub_database(layout, &self.detectors, &redaction, d)?;
            crate::test_hooks::crash_point("scrub-database");
        }
        for f in &mut plan.files {
            if hooks.interruption().requested() {
                return Err(Error::Interrupted);
            }
            f.replaced = Some(scrub_file(&self.detectors, &redaction, &f.path)?);
        }
        if self.snapshots == SnapshotAction::Remove {
            for s in &mut plan.snapshots {
                std::fs::remove_dir_all(&s.path).at(&s.path)?;
                s.removed = true;
                crate::test_hooks::crash_point("scrub-snapshot-removed");
            }
        }
        Ok(())
    }

    /// Every place rewritten is read again: no selected secret is left in it, every zstd
    /// value decodes, every transcript row is what its length says.
    fn verify(&self, _layout: &StateLayout, plan: &ScrubPlan, _: &()) -> Result<()> {
        let redaction = self.selection.redaction(&plan.fingerprints);
        for d in &plan.databases {
            let ro = crate::store::ReadOnlyDb::open(&d.database)?;
            let conn = ro.conn();
            for (sid, seq) in &d.events {
                let (json, frame, len) = crate::store::db::events::payload(
                    conn,
                    crate::store::AgentSchema::CURRENT,
                    sid,
                    *seq,
                )
                .at(&d.database)?;
                let (text, _) =
                    crate::transcript::decode_event_row(sid, *seq, json, frame.as_deref(), len)?;
                ensure(
                    serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                    || format!("{}: event {sid}/{seq} is not JSON", d.database.display()),
                )?;
                ensure(
                    redact::redact_value(&self.detectors, &redaction, text.as_bytes()).is_none(),
                    || {
                        format!(
                            "{}: event {sid}/{seq} still holds a secret",
                            d.database.display()
                        )
                    },
                )?;
            }
            for ((table, rowid), cols) in &d.rows {
                for col in cols {
                    let v: Option<rusqlite::types::Value> = conn
                        .query_row(
                            &format!("SELECT \"{col}\" FROM \"{table}\" WHERE rowid = ?1"),
                            [rowid],
                            |r| r.get(0),
                        )
                        .optional()
                        .at(&d.database)?;
                    let bytes = match v {
                        Some(rusqlite::types::Value::Text(t)) => t.into_bytes(),
                        Some(rusqlite::types::Value::Blob(b)) => b,
                        _ => continue,
                    };
                    ensure(
                        redact_stored(&self.detectors, &redaction, &bytes)?.is_none(),
                        || {
                            format!(
                                "{}: {table}.{col} row {rowid} still holds a secret",
                                d.database.display()
                            )
                        },
                    )?;
                }
            }
            for sid in &d.sessions {
                let mut stmt = conn
                    .prepare("SELECT c0 FROM session_transcript_fts_content WHERE c1 = ?1")
                    .at(&d.database)?;
                let texts: Vec<Option<String>> = stmt
                    .query_map([sid], |r| r.get(0))
                    .at(&d.database)?
                    .collect::<rusqlite::Result<_>>()
                    .at(&d.database)?;
                for t in texts.into_iter().flatten() {
                    ensure(
                        redact::redact_value(&self.detectors, &redaction, t.as_bytes()).is_none(),
                        || {
                            format!(
                                "{}: the search row of {sid} still holds a secret",
                                d.database.display()
                            )
                        },
                    )?;
                }
            }
        }
        for f in &plan.files {
            let mut file = crate::fsutil::open_regular(&f.path)?;
            let mut raw = Vec::new();
            file.read_to_end(&mut raw).at(&f.path)?;
            let spans = if is_zstd_blob(&raw) {
                let mut dec = zstd::stream::read::Decoder::new(&raw[..]).at(&f.path)?;
                redact::spans_of(&self.detectors, &redaction, &mut dec).at(&f.path)?
            } else {
                redact::spans_of(&self.detectors, &redaction, &mut &raw[..]).at(&f.path)?
            };
            ensure(spans.is_empty(), || {
                format!("{} still holds a secret", f.path.display())
            })?;
        }
        for d in &plan.databases {
            ensure_pairs(&d.database, &d.published)?;
        }
        for s in plan.snapshots.iter().filter(|s| s.removed) {
            ensure(!s.path.exists(), || {
                format!("{} is still there", s.path.display())
            })?;
        }
        Ok(())
    }
}

/// The archive rows planned whose published file holds the same bytes (`archive_sha256`).
fn published_pairs(
    db: &Path,
    sessions_dir: &Path,
    rows: &BTreeMap<(String, i64), BTreeSet<String>>,
) -> Result<Vec<PathBuf>> {
    let ro = crate::store::ReadOnlyDb::open(db)?;
    let mut out = Vec::new();
    for (table, rowid) in rows.keys() {
        if table != "session_transcript_archives" {
            continue;
        }
        let found: Option<(String, String)> = ro
            .conn()
            .query_row(
                "SELECT archive_name, archive_sha256 FROM session_transcript_archives WHERE rowid = ?1",
                [rowid],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .at(db)?;
        let Some((name, sha)) = found else { continue };
        let file = sessions_dir.join(&name);
        if file.is_file() && sha256_hex(&crate::fsutil::read_regular(&file)?) == sha {
            out.push(file);
        }
    }
    Ok(out)
}

/// Each published file is still its row's blob.
fn ensure_pairs(db: &Path, files: &[PathBuf]) -> Result<()> {
    if files.is_empty() {
        return Ok(());
    }
    let ro = crate::store::ReadOnlyDb::open(db)?;
    for file in files {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let sha: Option<String> = ro
            .conn()
            .query_row(
                "SELECT archive_sha256 FROM session_transcript_archives WHERE archive_name = ?1",
                [&name],
                |r| r.get(0),
            )
            .optional()
            .at(db)?;
        let now = sha256_hex(&crate::fsutil::read_regular(file)?);
        ensure(sha.as_deref() == Some(now.as_str()), || {
            format!("{} is no longer its archive row's blob", file.display())
        })?;
    }
    Ok(())
}

/// A transcript row's `event_json`, `event_zstd`, `event_utf8_bytes`.
type Payload = (Option<String>, Option<Vec<u8>>, Option<i64>);

/// One agent database, in one transaction: the rows planned rewritten, the sessions'
/// projections rebuilt, the search index merged; then the WAL truncated.
fn scrub_database(
    layout: &StateLayout,
    detectors: &Detectors,
    selection: &Selection,
    d: &mut DatabaseScrub,
) -> Result<()> {
    let mut db = WritableDb::open(&layout.state_dir, &d.database)?;
    let schema = db.schema();
    let path = d.database.clone();
    // Freed cells and pages are zeroed, so no old copy of a secret stays in the file.
    db.conn
        .execute_batch("PRAGMA secure_delete = ON")
        .at(&path)?;
    let tx = db
        .conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .at(&path)?;
    let mut rows = 0u64;
    let mut replaced = 0u64;
    for (sid, seq) in &d.events {
        let found: Option<Payload> = tx
            .query_row(
                "SELECT event_json, event_zstd, event_utf8_bytes FROM transcript_events \
                 WHERE session_id = ?1 AND seq = ?2",
                rusqlite::params![sid, seq],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .at(&path)?;
        match found {
            Some((Some(json), _, len)) => {
                if let Some((text, n)) = redact::redact_value(detectors, selection, json.as_bytes())
                {
                    let text = String::from_utf8(text)
                        .map_err(|e| Error::Internal(format!("redacted event: {e}")))?;
                    tx.execute(
                        "UPDATE transcript_events SET event_json = ?3, \
                         event_utf8_bytes = CASE WHEN ?4 THEN ?5 ELSE NULL END \
                         WHERE session_id = ?1 AND seq = ?2",
                        rusqlite::params![sid, seq, text, len.is_some(), text.len() as i64],
                    )
                    .at(&path)?;
                    rows += 1;
                    replaced += n as u64;
                }
            }
            Some((None, Some(frame), _)) => {
                let text = zstd::decode_all(&frame[..]).at(&path)?;
                if let Some((text, n)) = redact::redact_value(detectors, selection, &text) {
                    let frame = crate::writer::transcript::payload::compress(&text).at(&path)?;
                    tx.execute(
                        "UPDATE transcript_events SET event_zstd = ?3, event_utf8_bytes = ?4 \
                         WHERE session_id = ?1 AND seq = ?2",
                        rusqlite::params![sid, seq, frame, text.len() as i64],
                    )
                    .at(&path)?;
                    rows += 1;
                    replaced += n as u64;
                }
            }
            _ => {}
        }
    }
    for ((table, rowid), cols) in &d.rows {
        for col in cols {
            let v: Option<rusqlite::types::Value> = tx
                .query_row(
                    &format!("SELECT \"{col}\" FROM \"{table}\" WHERE rowid = ?1"),
                    [rowid],
                    |r| r.get(0),
                )
                .optional()
                .at(&path)?;
            let (bytes, text_col) = match v {
                Some(rusqlite::types::Value::Text(t)) => (t.into_bytes(), true),
                Some(rusqlite::types::Value::Blob(b)) => (b, false),
                _ => continue,
            };
            let Some((new, n, was_zstd)) = redact_stored(detectors, selection, &bytes)? else {
                continue;
            };
            let stored: rusqlite::types::Value = if was_zstd {
                rusqlite::types::Value::Blob(crate::writer::archive::compress(&new)?)
            } else if text_col {
                rusqlite::types::Value::Text(
                    String::from_utf8(new.clone())
                        .map_err(|e| Error::Internal(format!("redacted text: {e}")))?,
                )
            } else {
                rusqlite::types::Value::Blob(new.clone())
            };
            let blob_sha = match &stored {
                rusqlite::types::Value::Blob(b) => Some((sha256_hex(b), b.len() as i64)),
                _ => None,
            };
            tx.execute(
                &format!("UPDATE \"{table}\" SET \"{col}\" = ?2 WHERE rowid = ?1"),
                rusqlite::params![rowid, stored],
            )
            .at(&path)?;
            // An archive row's digest (and sizes) describe its blob.
            if col == "archive_blob" {
                if let Some((sha, len)) = &blob_sha {
                    match table.as_str() {
                        "session_transcript_archives" => {
                            tx.execute(
                                "UPDATE session_transcript_archives SET archive_sha256 = ?2 WHERE rowid = ?1",
                                rusqlite::params![rowid, sha],
                            )
                            .at(&path)?;
                        }
                        "session_transcript_cold_archives" => {
                            tx.execute(
                                "UPDATE session_transcript_cold_archives SET archive_sha256 = ?2, \
                                 archive_bytes = ?3, raw_bytes = ?4 WHERE rowid = ?1",
                                rusqlite::params![rowid, sha, len, new.len() as i64],
                            )
                            .at(&path)?;
                        }
                        _ => {}
                    }
                }
            }
            rows += 1;
            replaced += n as u64;
        }
    }
    let now = crate::units::now_ms();
    for sid in &d.sessions {
        crate::writer::transcript::projection::rebuild_session(&tx, schema, sid, now).at(&path)?;
    }
    if !d.sessions.is_empty() {
        // The old rows' terms stay in the index's segments until they are merged.
        tx.execute_batch(
            "INSERT INTO session_transcript_fts(session_transcript_fts) VALUES('optimize')",
        )
        .at(&path)?;
    }
    crate::test_hooks::crash_point("scrub-database-before-commit");
    tx.commit().at(&path)?;
    crate::test_hooks::crash_point("scrub-database-committed");
    if !crate::store::db::vacuum::checkpoint_truncate(&db.conn).at(&path)? {
        return Err(Error::Conflict {
            message: format!(
                "the WAL of {} could not be checkpointed: another process is reading it",
                path.display()
            ),
            hint: Some("stop every OpenClaw process using this state dir and run it again".into()),
        });
    }
    d.rows_rewritten = Some(rows);
    d.replaced = Some(replaced);
    Ok(())
}

/// One file rewritten beside itself (`.<name>.<32 hex>.tmp`, a name the leftover cleanup
/// knows), checked, and renamed over its name; a zstd file stays zstd (as OpenClaw encodes
/// archives). Returns the secrets replaced.
fn scrub_file(detectors: &Detectors, selection: &Selection, path: &Path) -> Result<u64> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut head = [0u8; 4];
    let zst = {
        let mut f = crate::fsutil::open_regular(path)?;
        let n = f.read(&mut head).at(path)?;
        n == 4 && is_zstd_blob(&head)
    };
    let open = |p: &Path| -> Result<Box<dyn Read>> {
        let f = std::io::BufReader::new(crate::fsutil::open_regular(p)?);
        Ok(if zst {
            Box::new(zstd::stream::read::Decoder::new(f).at(p)?)
        } else {
            Box::new(f)
        })
    };
    let spans = redact::spans_of(detectors, selection, &mut open(path)?).at(path)?;
    if spans.is_empty() {
        return Ok(0);
    }
    let tmp = dir.join(format!(".{name}.{}.tmp", uuid::Uuid::new_v4().simple()));
    let result = (|| -> Result<()> {
        let file = crate::fsutil::create_new_private(&tmp)?;
        if let Ok(meta) = std::fs::metadata(path) {
            let _ = std::fs::set_permissions(&tmp, meta.permissions());
        }
        let mut out = std::io::BufWriter::new(file);
        if zst {
            let mut enc = zstd::stream::Encoder::new(&mut out, 3).at(&tmp)?;
            enc.include_checksum(false).at(&tmp)?;
            enc.include_contentsize(false).at(&tmp)?;
            redact::rewrite(&mut open(path)?, &mut enc, &spans).at(&tmp)?;
            enc.finish().at(&tmp)?;
        } else {
            redact::rewrite(&mut open(path)?, &mut out, &spans).at(&tmp)?;
        }
        out.flush().at(&tmp)?;
        out.get_ref().sync_all().at(&tmp)?;
        drop(out);
        // Read back before it takes the name: it decodes, and holds none of the secrets.
        let left = redact::spans_of(detectors, selection, &mut open(&tmp)?).at(&tmp)?;
        ensure(left.is_empty(), || {
            format!("{} still holds a secret", tmp.display())
        })
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    crate::test_hooks::crash_point("scrub-file-staged");
    std::fs::rename(&tmp, path).at(path)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    crate::test_hooks::crash_point("scrub-file-renamed");
    Ok(spans.len() as u64)
}

/// This run's safety snapshots, removed once the run is verified: each is a copy of a
/// database as it was, secrets included (docs/SECRETS.md).
pub fn remove_safety_snapshots(
    snapshots: &[super::pipeline::SnapshotTaken],
) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for s in snapshots {
        if is_snapshot_dir(&s.path) {
            std::fs::remove_dir_all(&s.path).at(&s.path)?;
            removed.push(s.path.clone());
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A published archive file and its row hold the same bytes (docs/openclaw/ARCHIVES.md):
    /// the file rewritten as a stream and the row's blob rewritten whole must stay identical,
    /// so the stream is encoded with the archive writer's settings, and zstd's output does not
    /// depend on how the input is fed.
    #[test]
    fn a_stream_encodes_to_the_same_bytes_as_the_archive_writer() {
        let mut text = Vec::new();
        for i in 0..60_000 {
            text.extend_from_slice(
                format!(
                    "{{\"seq\":{i},\"text\":\"line {} of a transcript\"}}\n",
                    i * 7919 % 1000
                )
                .as_bytes(),
            );
        }
        let whole = crate::writer::archive::compress(&text).unwrap();
        let mut out = Vec::new();
        {
            let mut enc = zstd::stream::Encoder::new(&mut out, 3).unwrap();
            enc.include_checksum(false).unwrap();
            enc.include_contentsize(false).unwrap();
            redact::rewrite(&mut &text[..], &mut enc, &[]).unwrap();
            enc.finish().unwrap();
        }
        assert_eq!(out, whole);
    }
}
