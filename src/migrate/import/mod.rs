//! `migrate legacy`: import a legacy file store (`sessions.json` + JSONL transcripts) into
//! the agent database as `openclaw doctor --session-sqlite import` does (docs/openclaw/IMPORT.md),
//! then move the sources into `session-sqlite-import-archive/` under a version-3 manifest.
//!
//! Crash safety: a new database is filled at a stage and published whole (a kill leaves only
//! the stage, removed by the next run); one that exists is written in transactions of 256
//! sessions, and a re-run skips every event already stored (exact JSON, then event id), so it
//! finishes without duplicates.
//! Sources move only after the database holds and validates everything, each by link then
//! unlink; a re-run completes a move a crash cut in half.

mod archive;
mod ledger;
mod manifest;
mod plan;
mod types;
mod write;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;

pub use ledger::{ImportLedger, MoveList, RecordCounts};
pub use manifest::{ManifestTarget, MigrationManifest};
pub use plan::AgentImportPlan;
pub use types::{ArtifactKind, ArtifactMove, FileIdentity, ImportIssue, ImportRecord};
pub use write::stable_stringify;

use crate::error::{Error, Remedy, Result, ResultExt};
use crate::paths::{AgentPaths, StateLayout};
use crate::progress::Progress;
use crate::store::db::create::{ReleaseSchema, StagedDb};
use crate::store::db::{meta, vacuum};
use crate::store::DatabaseRole;
use crate::writer::transcript::SearchRows;
use crate::writer::{crash_point, WritableDb};

/// Sessions per transaction, as OpenClaw's `SESSION_IMPORT_BATCH_SIZE`: one page of the plan.
const BATCH: usize = 256;
const _: () = assert!(BATCH == ledger::PAGE);
/// Issue codes that stop the sources from moving.
const BLOCKING: [&str; 4] = [
    "sqlite_entry_missing",
    "sqlite_entry_mismatch",
    "sqlite_transcript_count_mismatch",
    "sqlite_compact_failed",
];

/// The release whose schema an import writes unless an older one owns the state dir.
pub fn current_release() -> &'static str {
    ReleaseSchema::current().version
}

/// Plan the import of every selected agent that has a legacy `sessions.json`.
/// Agents are planned side by side, one a core (each reads its own index and transcripts).
pub fn plan(agents: &[AgentPaths], now_ms: i64) -> Result<Vec<AgentImportPlan>> {
    let legacy: Vec<_> = agents
        .iter()
        .filter_map(|a| {
            a.legacy_index
                .as_ref()
                .filter(|p| p.is_file())
                .map(|p| (a, p))
        })
        .collect();
    crate::parallel::map_in_order(legacy, crate::parallel::cores(), |(a, p)| {
        plan::plan_agent(a, p, now_ms)
    })
    .into_iter()
    .collect()
}

/// The outcome for one agent (`--json`: `agents[]`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentImportReport<'a> {
    pub agent_id: String,
    pub sqlite_path: PathBuf,
    pub store_path: PathBuf,
    pub database_created: bool,
    pub legacy_entries: usize,
    /// Sessions written (new or re-written rows).
    pub imported: usize,
    /// Sessions left as they were (already imported, cold-archived).
    pub skipped: usize,
    pub imported_transcript_events: u64,
    pub invalid: Vec<ImportIssue>,
    pub issues: Vec<ImportIssue>,
    /// The same list the manifest records as completed, read from the plan.
    pub moved: MoveList<'a>,
    pub validation: &'static str,
    pub manifest: PathBuf,
    /// The release whose schema the database has, as its own import writes it.
    pub schema_of_release: &'static str,
    /// `PRAGMA user_version` of that schema.
    pub schema: i64,
}

impl AgentImportReport<'_> {
    /// The report without its borrowed move list, and whether the sources moved; the list is
    /// read from the plan again with `MoveList(Some(&plan.ledger))`.
    pub fn detach(self) -> (AgentImportReport<'static>, bool) {
        let moved = self.moved.0.is_some();
        let report = AgentImportReport {
            agent_id: self.agent_id,
            sqlite_path: self.sqlite_path,
            store_path: self.store_path,
            database_created: self.database_created,
            legacy_entries: self.legacy_entries,
            imported: self.imported,
            skipped: self.skipped,
            imported_transcript_events: self.imported_transcript_events,
            invalid: self.invalid,
            issues: self.issues,
            moved: MoveList::default(),
            validation: self.validation,
            manifest: self.manifest,
            schema_of_release: self.schema_of_release,
            schema: self.schema,
        };
        (report, moved)
    }
}

/// Make ready the database `target` imports into, as OpenClaw's first open does: the state
/// database is created if missing; an agent database that exists is registered in it; a new
/// one is staged (schema and seed rows, not yet at its path), to be filled without a journal
/// and then published and registered by [`import_target`].
fn ensure_database(
    layout: &StateLayout,
    target: &AgentImportPlan,
    now_ms: i64,
) -> Result<Option<StagedDb>> {
    let state_db = layout.state_db();
    if !state_db.is_file() {
        crate::store::db::create::create_state_db(target.release, &state_db, now_ms)?;
    }
    if target.sqlite_path.is_file() {
        register_database(layout, target, now_ms)?;
        return Ok(None);
    }
    crate::writer::check_owned_path(&layout.state_dir, &target.sqlite_path)?;
    let staged = crate::store::db::create::stage_agent_db(
        target.release,
        &target.sqlite_path,
        &target.agent_id,
        now_ms,
    )?;
    Ok(Some(staged))
}

/// Record the agent database in the state database (`agent_databases`), with its size now.
fn register_database(layout: &StateLayout, target: &AgentImportPlan, now_ms: i64) -> Result<()> {
    let state_db = layout.state_db();
    let mut state = WritableDb::open_role(&layout.state_dir, &state_db, DatabaseRole::Global)?;
    let rel = target
        .sqlite_path
        .strip_prefix(&layout.state_dir)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| target.sqlite_path.clone());
    let size = std::fs::metadata(&target.sqlite_path)
        .map(|m| m.len())
        .unwrap_or(0);
    let tx = state.transaction()?;
    crate::store::db::state::upsert_agent_database(
        &tx,
        target.agent_id.as_str(),
        &rel.to_string_lossy(),
        target.release.agent_schema,
        now_ms,
        size as i64,
    )
    .at(&state_db)?;
    tx.commit().at(&state_db)?;
    Ok(())
}

/// How an imported transcript's original is kept (manifest classification).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TranscriptClass {
    Verified,
    Repaired,
    Unknown,
}

impl TranscriptClass {
    fn code(self) -> i64 {
        self as i64
    }

    fn from_code(code: i64) -> Self {
        match code {
            0 => TranscriptClass::Verified,
            1 => TranscriptClass::Repaired,
            _ => TranscriptClass::Unknown,
        }
    }
}

/// What the import wrote. Per record, the converted event count and how the transcript
/// classifies go to the plan's ledger.
struct Imported {
    issues: Vec<ImportIssue>,
    imported: usize,
    skipped: usize,
    events: u64,
}

/// Write every planned record, in transactions of `BATCH` sessions. When `stop` says so (a
/// signal), the sessions written so far are committed and the rest left for a re-run:
/// `Error::Interrupted`, with `written` counting what was committed.
fn import_rows(
    target: &AgentImportPlan,
    staged: Option<&StagedDb>,
    now_ms: i64,
    state_dir: &Path,
    progress: &dyn Progress,
    stop: &Stop,
    written: &mut usize,
) -> Result<Imported> {
    let path = staged
        .map_or(target.sqlite_path.as_path(), StagedDb::stage_path)
        .to_path_buf();
    // An existing database was checked to be of the release's schema (the schema guard).
    let mut db = WritableDb::open_accepting(state_dir, &path, &[target.release.agent_schema])?;
    let schema = db.schema();
    // Every statement of the import stays prepared. The page cache holds the pages the
    // session being written touches (the end of each index's run for its session id), not the
    // database: 8 MiB per database. With 64 MiB each, the three agents imported side by side
    // held 145 MB at 3 x 500 sessions and 243 MB at 3 x 5,000; with 8 MiB, 47 and 48 MB.
    // Statement journals stay in memory (`temp_store`): SQLite moves one to a temporary file
    // once it outgrows 64 KiB, and from then on every statement that journals pages (each
    // insert with a foreign key or trigger) wrote them to that file: 27,000 writes for 500
    // sessions. Each statement here touches a few pages of one session; the connection opens
    // no temporary tables.
    db.conn.set_prepared_statement_cache_capacity(128);
    db.conn
        .execute_batch("PRAGMA cache_size = -8192; PRAGMA temp_store = MEMORY;")
        .at(&path)?;
    if staged.is_some() {
        // A new database is written at its stage, which nothing else reads and which a failed
        // or killed run discards whole: no rollback journal, no WAL, no fsync until it is
        // published. Each page is then written once, where the WAL wrote it twice (the log,
        // then the checkpoint): 4.6 -> 3.9 s for 3 x 500 sessions. A statement that fails
        // still fails the whole import of this agent, so nothing relies on rolling back.
        db.conn
            .execute_batch("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
            .at(&path)?;
    }
    let mut result = Imported {
        issues: Vec::new(),
        imported: 0,
        skipped: 0,
        events: 0,
    };
    progress.start(
        &format!("importing {}", target.agent_id),
        Some(target.transcript_bytes),
    );
    let mut search = SearchRows::for_schema(schema);
    target.ledger.record_pages(|batch| {
        if stop() {
            return Err(Error::Interrupted);
        }
        let tx = db.transaction()?;
        let mut in_tx = 0;
        for (record, _) in &batch {
            // Between sessions: each one is whole in the transaction, which commits as is.
            if stop() {
                search.flush(&tx).at(&path)?;
                tx.commit().at(&path)?;
                *written += in_tx;
                return Err(Error::Interrupted);
            }
            let out = write::write_record(
                &tx,
                schema,
                &mut search,
                &path,
                &target.store_path,
                record,
                now_ms,
                progress,
            )?;
            if out.written {
                result.imported += 1;
            } else {
                result.skipped += 1;
            }
            result.events += out.events_inserted;
            let class = match (out.complete && out.recognised, out.repaired) {
                (true, false) => TranscriptClass::Verified,
                (true, true) => TranscriptClass::Repaired,
                (false, _) => TranscriptClass::Unknown,
            };
            target
                .ledger
                .set_outcome(record.seq, out.events_expected, class.code())?;
            result.issues.extend(out.issues);
            in_tx += 1;
            crash_point("import-record");
        }
        search.flush(&tx).at(&path)?;
        crash_point("import-before-commit");
        tx.commit().at(&path)?;
        *written += in_tx;
        crash_point("import-batch-committed");
        Ok(())
    })?;
    if staged.is_some() {
        // Compacted here, where no page is journaled, rather than after publication (the
        // free pages of merged FTS5 segments and rebuilt projections).
        let free = vacuum::page_use(&db.conn).at(&path)?.freelist_count;
        vacuum::incremental_vacuum(&db.conn, free).at(&path)?;
    }
    Ok(result)
}

/// `validateLegacySessionRecords(…, "before-archive")`: every record is in the database
/// under its key and session id, with at least the events its transcript converted to.
fn validate(target: &AgentImportPlan) -> Result<Vec<ImportIssue>> {
    let ro = crate::store::ReadOnlyDb::open(&target.sqlite_path)?;
    let conn = ro.conn();
    let path = &target.sqlite_path;
    let mut issues = Vec::new();
    target.ledger.for_each_record(|record, outcome| {
        let expected = outcome.map_or(0, |(e, _)| e);
        let key = &record.session_key;
        let stored: Option<String> =
            crate::store::db::nodes::valid_current_session_id(conn, key).at(path)?;
        match stored {
            None if !record.historical => {
                issues.push(ImportIssue::new(
                    "sqlite_entry_missing",
                    format!("SQLite entry is missing for {key}."),
                    Some(key),
                ));
                return Ok(());
            }
            Some(s) if s != record.session_id && !record.historical => {
                issues.push(ImportIssue::new(
                    "sqlite_entry_mismatch",
                    format!("SQLite sessionId {s} does not match {}.", record.session_id),
                    Some(key),
                ));
                return Ok(());
            }
            _ => {}
        }
        if record.transcript.is_some() {
            let count = crate::store::db::events::count(conn, &record.session_id).at(path)? as u64;
            if count < expected {
                issues.push(ImportIssue::new(
                    "sqlite_transcript_count_mismatch",
                    format!(
                        "SQLite transcript has {count} events; verified import expects {expected}."
                    ),
                    Some(key),
                ));
            }
        }
        Ok(())
    })?;
    Ok(issues)
}

/// `compactDoctorSessionSqliteTarget`: checkpoint, incremental vacuum, integrity and FK checks.
fn compact(path: &Path, state_dir: &Path, release: &ReleaseSchema) -> Result<()> {
    let db = WritableDb::open_accepting(state_dir, path, &[release.agent_schema])?;
    let conn = &db.conn;
    if !vacuum::checkpoint_truncate(conn).at(path)? {
        return Err(Error::Conflict {
            message: format!(
                "{} is busy; its write-ahead log could not be checkpointed",
                path.display()
            ),
            hint: Some("another process has the database open; stop it and run again".into()),
        });
    }
    let pages = vacuum::page_use(conn).at(path)?;
    if pages.auto_vacuum == vacuum::AUTO_VACUUM_INCREMENTAL {
        if pages.freelist_count > 0 {
            vacuum::incremental_vacuum(conn, pages.freelist_count).at(path)?;
        }
    } else {
        vacuum::vacuum_to_incremental(conn).at(path)?;
    }
    vacuum::checkpoint_truncate(conn).at(path)?;
    // The rows were just written in checked transactions: `quick_check` (every page, every
    // row, without re-deriving each index) plus the foreign keys is the check that fits.
    let problems = meta::quick_check(conn).at(path)?;
    let fk: i64 = meta::foreign_key_violations(conn).at(path)?;
    if !problems.is_empty() || fk > 0 {
        let quick = if problems.is_empty() {
            "ok".to_string()
        } else {
            problems.into_iter().take(5).collect::<Vec<_>>().join("; ")
        };
        return Err(Error::bad_input(
            format!(
                "{} fails its check after the import: {quick}, {fk} foreign key violation(s)",
                path.display()
            ),
            Some("run the doctor's full check".to_string()),
        )
        .with_remedy(Remedy::RunDoctorFull));
    }
    Ok(())
}

/// Plan the moves of one agent's sources into its ledger, in manifest order.
fn classify_moves(target: &AgentImportPlan, imported: &Imported, stamp_ms: i64) -> Result<()> {
    let ledger = &target.ledger;
    let dir_clean = imported.issues.is_empty() && target.issues.is_empty();
    let mut any_protected = false;
    // A file several entries share (one `sessionFile`) moves once; a second move would find
    // its source gone. As in OpenClaw's manifest (a map by source path): the move keeps the
    // first entry's place and archive name, and takes the last entry's key and class.
    let push = |kind,
                key: Option<&str>,
                archive_key: &str,
                source: &Path,
                class: (&'static str, &'static str),
                with_candidates: bool|
     -> Result<()> {
        let label = ledger::MoveLabel {
            kind,
            session_key: key,
            class,
            with_candidates,
        };
        if ledger.update_move(&label, source)? {
            return Ok(());
        }
        let identity = FileIdentity::read(source)?;
        let archive_path =
            archive::archive_name(&target.archive_dir, archive_key, source, stamp_ms, ledger)?;
        ledger.add_move(&label, source, &archive_path, &identity)
    };
    ledger.for_each_record(|record, outcome| {
        let Some(t) = &record.transcript else {
            return Ok(());
        };
        let transcript_class = outcome.map_or(TranscriptClass::Unknown, |(_, c)| {
            TranscriptClass::from_code(c)
        });
        // A transcript discovery found for an entry moves as OpenClaw moves a historical one.
        let class = match (
            record.historical || record.adopted,
            dir_clean,
            transcript_class,
        ) {
            (true, ..) => ("protected", "indexed-historical-primary"),
            (false, true, TranscriptClass::Verified) => ("imported", "verified-import-original"),
            (false, true, TranscriptClass::Repaired) => {
                ("repair-original", "verified-import-original")
            }
            _ => ("protected", "unimported-or-unknown-history"),
        };
        any_protected |= class.0 == "protected";
        let key = record.session_key.as_str();
        push(ArtifactKind::Transcript, Some(key), key, t, class, false)?;
        for tr in &record.trajectories {
            push(
                ArtifactKind::Trajectory,
                Some(key),
                key,
                tr,
                ("protected", "unimported-or-unknown-history"),
                false,
            )?;
        }
        Ok(())
    })?;
    ledger.for_each_unreferenced(|u| {
        push(
            ArtifactKind::UnreferencedJsonl,
            None,
            "archive-tier",
            &u,
            ("protected", "unreferenced-history"),
            false,
        )
    })?;
    let index_ok = dir_clean && !any_protected;
    let class = if index_ok {
        ("imported", "verified-index-import")
    } else {
        ("protected", "incomplete-index-import")
    };
    // Its dependencies: every candidate path once, in record order.
    push(
        ArtifactKind::LegacyStore,
        None,
        "legacy-store",
        &target.store_path,
        class,
        true,
    )
}

type TargetOutcome = Result<(Imported, Vec<ImportIssue>, bool)>;

/// Whether a signal asks the run to stop at its next consistent point.
pub type Stop = dyn Fn() -> bool + Sync;

/// One agent: rows, then (a new database) its publication, validation, compaction. Returns
/// the import, every issue, and whether validation passed; `written` counts the sessions
/// committed, also when `stop` cut it short (a staged database is published then too).
#[allow(clippy::too_many_arguments)]
fn import_target(
    layout: &StateLayout,
    target: &AgentImportPlan,
    staged: Option<StagedDb>,
    registering: &Mutex<()>,
    now_ms: i64,
    progress: &dyn Progress,
    stop: &Stop,
    written: &mut usize,
) -> TargetOutcome {
    let state_dir = &layout.state_dir;
    let rows = import_rows(
        target,
        staged.as_ref(),
        now_ms,
        state_dir,
        progress,
        stop,
        written,
    );
    if let Some(staged) = staged {
        match &rows {
            // A failed import leaves no database: the stage is dropped, and removed.
            Err(e) if !matches!(e, Error::Interrupted) => {}
            _ => {
                staged.publish()?;
                crash_point("import-published");
                let _one_writer = registering.lock().unwrap_or_else(|e| e.into_inner());
                register_database(layout, target, now_ms)?;
            }
        }
    }
    let imported = rows?;
    let mut issues: Vec<ImportIssue> = target.issues.clone();
    issues.extend(imported.issues.clone());
    let problems = validate(target)?;
    let passed = problems.is_empty();
    issues.extend(problems);
    if passed {
        if let Err(e) = compact(&target.sqlite_path, state_dir, target.release) {
            issues.push(ImportIssue::new(
                "sqlite_compact_failed",
                format!("SQLite database compact failed: {e}"),
                None,
            ));
        }
    }
    Ok((imported, issues, passed))
}

/// `import_target` for every target, on up to two threads per core (at most one per target);
/// outcomes in target order. More threads than cores lets unequal agents share the cores to the
/// end, where one thread per core left the last agent importing alone (3 agents on 2 cores:
/// 3.6–4.0 s against 2.8–3.4 s). Each thread's page cache is bounded, so memory stays bounded.
fn import_in_parallel(
    layout: &StateLayout,
    targets: &[AgentImportPlan],
    stages: Vec<Option<StagedDb>>,
    clock: &(dyn Fn() -> i64 + Sync),
    progress: &dyn Progress,
    stop: &Stop,
) -> Vec<(TargetOutcome, usize)> {
    let registering = Mutex::new(());
    let work: Vec<_> = targets.iter().zip(stages).collect();
    crate::parallel::map_in_order(work, 2 * crate::parallel::cores(), |(target, staged)| {
        let mut written = 0;
        // Between agents: one not begun when the signal came is not begun at all (its stage,
        // dropped here, is removed).
        let outcome = if stop() {
            Err(Error::Interrupted)
        } else {
            import_target(
                layout,
                target,
                staged,
                &registering,
                clock(),
                progress,
                stop,
                &mut written,
            )
        };
        (outcome, written)
    })
}

/// What an import stopped by a signal had done, agent by agent (docs/openclaw/HOSTILE.md,
/// section 5).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoppedAgent {
    pub agent_id: String,
    /// Sessions committed before the signal (all of them when `imported`).
    pub sessions_written: usize,
    /// Imported whole.
    pub imported: bool,
    /// Imported, but the database does not hold what the sources say: they stay in place.
    pub validation_failed: bool,
    /// Its sources moved into the import archive.
    pub moved: bool,
    /// How many source files moved.
    pub files_moved: usize,
    /// The run's last step for the agent (its moves, or none when they are blocked) ran.
    pub finished: bool,
}

/// An agent of a stopped import as data (docs/openclaw/HOSTILE.md, section 5).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoppedAgentState {
    pub agent_id: String,
    /// `done`, `interrupted` (begun, not finished) or `not_started`.
    pub state: &'static str,
    /// Sessions written into its database.
    pub imported: usize,
    /// Source files moved into the import archive.
    pub moved: usize,
    /// Imported, but validation failed: the sources stay.
    pub validation_failed: bool,
}

impl StoppedAgent {
    pub fn state(&self) -> StoppedAgentState {
        StoppedAgentState {
            agent_id: self.agent_id.clone(),
            state: if self.finished {
                "done"
            } else if self.imported || self.sessions_written > 0 {
                "interrupted"
            } else {
                "not_started"
            },
            imported: self.sessions_written,
            moved: self.files_moved,
            validation_failed: self.validation_failed,
        }
    }
}

/// How an import ended: done, or stopped by a signal at a consistent point.
pub enum Applied<'a> {
    Done(Vec<AgentImportReport<'a>>, PathBuf),
    /// Every database holds whole sessions and every source is in place or wholly moved; a
    /// re-run skips what is imported and finishes the rest.
    Stopped {
        agents: Vec<StoppedAgent>,
        manifest: PathBuf,
    },
}

/// Import every planned agent, then move the sources; `clock` gives the current time. When
/// `stop` says so (a signal), the run ends at its next consistent point: between agents,
/// between sessions, before the sources of the next agent move.
pub fn apply<'a>(
    layout: &StateLayout,
    targets: &'a [AgentImportPlan],
    clock: &(dyn Fn() -> i64 + Sync),
    progress: &dyn Progress,
    stop: &Stop,
) -> Result<Applied<'a>> {
    // Sources move out of sessions/ into the import archive: neither may lead elsewhere.
    for t in targets {
        if let Some(sessions) = t.store_path.parent() {
            crate::writer::check_owned_path(&layout.state_dir, sessions)?;
        }
        crate::writer::check_owned_path(&layout.state_dir, &t.archive_dir)?;
    }
    crate::writer::check_owned_path(&layout.state_dir, &layout.migration_runs_dir())?;
    let mut manifest = MigrationManifest::new(
        &layout.migration_runs_dir(),
        clock(),
        targets
            .iter()
            .map(|t| ManifestTarget {
                agent_id: t.agent_id.clone(),
                sqlite_path: t.sqlite_path.clone(),
                store_path: t.store_path.clone(),
                completed_moves: MoveList::default(),
                issues: Vec::new(),
                planned_moves: MoveList::default(),
                validation_before_archive: None,
            })
            .collect(),
    );
    if let Some(t) = targets.first() {
        // The manifest names the release whose import this is, as that release's own does.
        manifest.open_claw_version = t.release.version;
    }
    manifest.write()?;
    let mut reports = Vec::new();
    let mut imports = Vec::new();
    let mut created = Vec::with_capacity(targets.len());
    let mut stages = Vec::with_capacity(targets.len());
    let mut stopped: Vec<StoppedAgent> = targets
        .iter()
        .map(|t| StoppedAgent {
            agent_id: t.agent_id.clone(),
            sessions_written: 0,
            imported: false,
            validation_failed: false,
            moved: false,
            files_moved: 0,
            finished: false,
        })
        .collect();
    let stopped_run = |manifest: &MigrationManifest, agents| Applied::Stopped {
        agents,
        manifest: manifest.path.clone(),
    };
    for target in targets {
        if stop() {
            return Ok(stopped_run(&manifest, stopped));
        }
        let staged = ensure_database(layout, target, clock())?;
        created.push(staged.is_some());
        stages.push(staged);
        crash_point("import-database-ready");
    }
    // Agents are separate databases: import them side by side, one thread per core.
    progress.start(
        "importing",
        Some(targets.iter().map(|t| t.transcript_bytes).sum()),
    );
    let outcomes = import_in_parallel(layout, targets, stages, clock, progress, stop);
    progress.finish();
    let mut interrupted = false;
    let mut results = Vec::with_capacity(targets.len());
    for (i, (outcome, written)) in outcomes.into_iter().enumerate() {
        stopped[i].sessions_written = written;
        match outcome {
            Err(Error::Interrupted) => interrupted = true,
            Err(e) => return Err(e),
            Ok(r) => {
                stopped[i].imported = true;
                stopped[i].validation_failed = !r.2;
                results.push(r);
            }
        }
    }
    if interrupted {
        // Whatever else was imported stays; its sources stay in place until a re-run, which
        // skips every stored session and moves them.
        return Ok(stopped_run(&manifest, stopped));
    }
    for (i, (target, outcome)) in targets.iter().zip(results).enumerate() {
        let (imported, issues, passed) = outcome;
        manifest.targets[i].validation_before_archive =
            Some(if passed { "passed" } else { "failed" });
        manifest.targets[i].issues = issues.clone();
        reports.push(AgentImportReport {
            agent_id: target.agent_id.clone(),
            sqlite_path: target.sqlite_path.clone(),
            store_path: target.store_path.clone(),
            database_created: created[i],
            legacy_entries: target.legacy_entries,
            imported: imported.imported,
            skipped: imported.skipped,
            imported_transcript_events: imported.events,
            invalid: issues
                .iter()
                .filter(|i| i.code == "entry_invalid")
                .cloned()
                .collect(),
            issues,
            moved: MoveList::default(),
            validation: if passed { "passed" } else { "failed" },
            manifest: manifest.path.clone(),
            schema_of_release: target.release.version,
            schema: target.release.agent_schema,
        });
        imports.push(imported);
    }
    manifest.write()?;
    crash_point("import-validated");
    // Sources move only for targets whose import holds up.
    let stamp = clock();
    let blocked =
        |r: &AgentImportReport| r.issues.iter().any(|i| BLOCKING.contains(&i.code.as_str()));
    // Planning the moves hashes every source: side by side, one agent a core.
    let unblocked: Vec<usize> = (0..targets.len())
        .filter(|&i| !blocked(&reports[i]))
        .collect();
    let classified = crate::parallel::map_in_order(
        unblocked,
        2 * crate::parallel::cores(),
        |i| -> Result<usize> {
            crate::fsutil::create_private_dir_all(&targets[i].archive_dir)?;
            classify_moves(&targets[i], &imports[i], stamp)?;
            Ok(i)
        },
    );
    for i in classified {
        let i = i?;
        manifest.targets[i].planned_moves = MoveList(Some(&targets[i].ledger));
    }
    manifest.write()?;
    for (i, _) in targets.iter().enumerate() {
        // Before the sources of each agent move; an agent's moves run whole.
        if stop() {
            return Ok(stopped_run(&manifest, stopped));
        }
        let planned = manifest.targets[i].planned_moves;
        archive::perform_moves(planned)?;
        manifest.targets[i].completed_moves = planned;
        reports[i].moved = planned;
        stopped[i].moved = planned.0.is_some();
        stopped[i].files_moved = if planned.0.is_some() {
            planned.len()?
        } else {
            0
        };
        stopped[i].finished = true;
        manifest.write()?;
    }
    let failures: Vec<ImportIssue> = reports
        .iter()
        .filter(|r| blocked(r))
        .flat_map(|r| {
            r.issues
                .iter()
                .filter(|i| BLOCKING.contains(&i.code.as_str()))
                .cloned()
        })
        .collect();
    let now = crate::units::iso_from_ms(clock());
    if !failures.is_empty() {
        manifest.failed_at = Some(now.clone());
        manifest.failure_reports = failures;
    }
    manifest.completed_at = Some(now);
    manifest.write()?;
    Ok(Applied::Done(reports, manifest.path.clone()))
}

/// Before planning under custody: finish moves an earlier run left half done.
pub fn recover_interrupted(agents: &[AgentPaths]) -> Result<Vec<PathBuf>> {
    let mut done = Vec::new();
    for a in agents {
        if a.sessions_dir.is_dir() {
            done.extend(archive::finish_interrupted_moves(
                &a.sessions_dir,
                &a.import_archive_dir,
            )?);
        }
    }
    Ok(done)
}

/// For a dry run: read every planned transcript line by line (bounded memory) and report
/// the lines the import would stop at (`transcript_malformed`: only the prefix before the
/// line is imported, and the original is kept protected).
pub fn scan_transcripts(
    target: &AgentImportPlan,
    progress: &dyn Progress,
) -> Result<Vec<ImportIssue>> {
    use std::io::BufRead;
    let mut issues = Vec::new();
    target.ledger.for_each_record(|record, _| {
        let Some(path) = &record.transcript else {
            return Ok(());
        };
        let file = match crate::fsutil::open_regular(path) {
            Ok(file) => file,
            Err(e) => {
                issues.push(ImportIssue::new(
                    "transcript_unreadable",
                    format!("{} cannot be opened: {e}", path.display()),
                    Some(&record.session_key),
                ));
                return Ok(());
            }
        };
        let mut reader = std::io::BufReader::with_capacity(256 * 1024, file);
        let mut line = Vec::new();
        let mut line_no = 0u64;
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) => break,
                Ok(n) => progress.advance(n as u64),
                Err(e) => {
                    issues.push(ImportIssue::new(
                        "transcript_unreadable",
                        format!("{}: {e}", path.display()),
                        Some(&record.session_key),
                    ));
                    break;
                }
            }
            line_no += 1;
            let problem = match std::str::from_utf8(&line) {
                Err(e) => Some(e.to_string()),
                Ok(s) => {
                    let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
                    (!t.is_empty())
                        .then(|| {
                            crate::json_value::from_str::<serde::de::IgnoredAny>(t)
                                .err()
                                .map(|e| e.to_string())
                        })
                        .flatten()
                }
            };
            if let Some(e) = problem {
                issues.push(ImportIssue::new(
                    "transcript_malformed",
                    format!(
                        "{}: line {line_no}: {e}. Only the readable prefix can be imported; the original remains protected for recovery.",
                        path.display()
                    ),
                    Some(&record.session_key),
                ));
                break;
            }
        }
        Ok(())
    })?;
    Ok(issues)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free_pages(path: &Path) -> u64 {
        let conn = rusqlite::Connection::open(path).unwrap();
        vacuum::page_use(&conn).unwrap().freelist_count
    }

    /// The compaction after an import gives every free page back (`incremental_vacuum` yields
    /// one row a page freed: stepped once, it freed one page).
    #[test]
    fn compact_gives_back_every_free_page() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("agents/main/agent/openclaw-agent.sqlite");
        crate::store::db::create::stage_agent_db(ReleaseSchema::current(), &db, "main", 1)
            .unwrap()
            .publish()
            .unwrap();
        {
            let conn = rusqlite::Connection::open(&db).unwrap();
            conn.execute_batch(
                "CREATE TABLE filler (b BLOB); \
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) \
                 INSERT INTO filler SELECT zeroblob(4000) FROM n; \
                 DROP TABLE filler;",
            )
            .unwrap();
        }
        assert!(free_pages(&db) > 100);
        compact(&db, dir.path(), ReleaseSchema::current()).unwrap();
        assert_eq!(free_pages(&db), 0);
    }
}
