//! The disk-budget pass of OpenClaw's applied cleanup (`enforceSqliteSessionHistoryDiskBudget`,
//! docs/openclaw/MAINTENANCE.md §3.3 step 4): when an agent's files are over `maxDiskBytes`,
//! remove, in OpenClaw's order and until the total is under `highWaterBytes`,
//! a. published transcript archives (file and row), oldest first, then retained
//!    `.deleted`/`.reset`/`.bak` files, oldest modification first;
//! b. historical windows no session refers to, oldest first, each archived first (and that
//!    archive pruned again while still over);
//! c. archives again;
//! d. sessions archived by the cap that no rule preserves, by `archived_at` then key.
//!
//! OpenClaw measures the disk after every step. We plan the whole pass before anything
//! changes (the plan is what the dry run shows and the prompt asks about, and the real run
//! carries it out exactly), so the bytes each step frees are estimated: files by their size,
//! rows by the bytes of their transcripts, archives by a quarter of the transcript they hold.
//! The differences by design: OpenClaw deletes the transcript of a session of step d for
//! good; ours leaves it as an archive, as every removal of transcript content does here. An
//! archive this same run writes (of a session it removes, of a window it evicts) is never
//! removed by its budget pass: a run does not archive a transcript and then throw the
//! archive away. And a budget below what the database's schema alone takes (no row at all)
//! is refused rather than carried out down to the last archive. Only an older archive being
//! evicted by the budget is removed without a trace, which is OpenClaw's contract for
//! archives.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{ActionFilter, PrunePlan};
use crate::error::{Error, Result, ResultExt};
use crate::mutate::{apply_delete, plan_delete, DeleteOptions, FoundSearchRows, References};
use crate::paths::AgentPaths;
use crate::store::db::{archives, events, vacuum, windows};
use crate::store::AgentStore;
use crate::writer::kept_entry::remove_kept_entry;
use crate::writer::WritableDb;

/// What one removal of the budget pass removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BudgetStep {
    /// A published transcript archive: its file and its row.
    Archive,
    /// A retained `.deleted`/`.reset`/`.bak` file of `sessions/`.
    RetainedFile,
    /// A historical window (transcript generation) no session refers to, archived first.
    Window,
    /// A session archived by the cap, deleted (its transcript archived, unlike OpenClaw).
    ArchivedSession,
}

/// One removal of the budget pass, in the order it is carried out.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetRemoval {
    pub step: BudgetStep,
    /// The archive or file name, the window's session id, or the session key.
    pub name: String,
    /// The session id of an archive or window.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// An archive this same run writes (of a session it removes or a window it evicts):
    /// found by its session id and the run's instant, since its generation may be new.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub written_by_this_run: bool,
    /// Estimated bytes given back.
    pub bytes: u64,
}

impl BudgetRemoval {
    pub fn is_file(&self) -> bool {
        matches!(self.step, BudgetStep::Archive | BudgetStep::RetainedFile)
    }
}

/// The planned budget pass of one agent.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetPlan {
    /// Estimated total when the pass starts (after the sessions and artifacts of the plan).
    pub total_bytes_before: u64,
    /// Estimated total when it ends.
    pub total_bytes_after: u64,
    pub max_bytes: u64,
    pub high_water_bytes: u64,
    pub removed: Vec<BudgetRemoval>,
}

impl BudgetPlan {
    pub fn removed_files(&self) -> usize {
        self.removed.iter().filter(|r| r.is_file()).count()
    }

    pub fn removed_entries(&self) -> usize {
        self.removed.len() - self.removed_files()
    }

    pub fn over_budget(&self) -> bool {
        self.total_bytes_before > self.max_bytes
    }
}

/// A candidate of one step, with what removing it frees and, for a window or session, what
/// the archive written first costs.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub step: BudgetStep,
    pub name: String,
    pub session_id: Option<String>,
    pub written_by_this_run: bool,
    pub frees: u64,
    /// Bytes of the archive written before the removal (0: none is written).
    pub archive_bytes: u64,
    /// The name that archive gets (its generation shown as `*` when it will be new).
    pub archive_name: String,
}

/// Every candidate of the pass, each list in OpenClaw's order.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    pub archives: Vec<Candidate>,
    pub retained: Vec<Candidate>,
    pub windows: Vec<Candidate>,
    pub sessions: Vec<Candidate>,
}

/// Run the pass over estimates. `start` is the total when the pass starts; `free` what the
/// first compaction gives back (free pages, on a database that can give them back).
pub fn simulate(start: u64, free: u64, max: u64, high_water: u64, c: Candidates) -> BudgetPlan {
    let mut plan = BudgetPlan {
        total_bytes_before: start,
        total_bytes_after: start,
        max_bytes: max,
        high_water_bytes: high_water,
        removed: Vec::new(),
    };
    if start <= max {
        return plan;
    }
    let mut t = start.saturating_sub(free);
    let take = |t: &mut u64, removed: &mut Vec<BudgetRemoval>, c: &Candidate| {
        *t = (*t + c.archive_bytes).saturating_sub(c.frees);
        removed.push(BudgetRemoval {
            step: c.step,
            name: c.name.clone(),
            session_id: c.session_id.clone(),
            written_by_this_run: c.written_by_this_run,
            bytes: c.frees.saturating_sub(c.archive_bytes),
        });
    };
    // Never an archive this same run writes.
    let fresh = |a: &Candidate| !(a.step == BudgetStep::Archive && a.written_by_this_run);
    let kept: Vec<Candidate> = c.archives.into_iter().filter(fresh).collect();
    let mut archives = kept.into_iter().peekable();
    let mut retained = c.retained.into_iter().peekable();
    // a (and c): archives, then retained files, each while over the high-water mark.
    let prune =
        |t: &mut u64,
         removed: &mut Vec<BudgetRemoval>,
         archives: &mut std::iter::Peekable<std::vec::IntoIter<Candidate>>,
         retained: &mut std::iter::Peekable<std::vec::IntoIter<Candidate>>| {
            while *t > high_water {
                let Some(a) = archives.next() else { break };
                take(t, removed, &a);
            }
            while *t > high_water {
                let Some(f) = retained.next() else { break };
                take(t, removed, &f);
            }
        };
    prune(&mut t, &mut plan.removed, &mut archives, &mut retained);
    // b: historical windows, each archived (the archive is kept: it was written by this run).
    for w in &c.windows {
        if t <= high_water {
            break;
        }
        take(&mut t, &mut plan.removed, w);
        prune(&mut t, &mut plan.removed, &mut archives, &mut retained);
    }
    // c: archives again.
    prune(&mut t, &mut plan.removed, &mut archives, &mut retained);
    // d: sessions archived by the cap.
    for s in &c.sessions {
        if t <= high_water {
            break;
        }
        take(&mut t, &mut plan.removed, s);
    }
    plan.total_bytes_after = t;
    plan
}

/// The name the archive of a transcript written by this run gets: its generation is the
/// transcript's rewrite generation, else a new one (shown as `*`).
fn new_archive_name(
    conn: &rusqlite::Connection,
    path: &Path,
    sid: &str,
    now: i64,
) -> Result<String> {
    let generation = events::watermark_generation(conn, sid)
        .at(path)?
        .unwrap_or_else(|| "*".to_string());
    Ok(crate::writer::archive::archive_name(
        sid,
        now,
        &generation,
        true,
    ))
}

/// An archive holds about a quarter of the transcript it was made from (zstd over JSONL).
fn archive_estimate(transcript_bytes: u64) -> u64 {
    transcript_bytes.div_ceil(4)
}

/// A retained archive name as OpenClaw recognizes one (`isRetainedSessionTranscriptArchiveName`):
/// `.deleted.`, `.reset.` or `.bak.` followed by a stamp `YYYY-MM-DDTHH-MM-SS[.mmm]Z` and
/// an optional 32-hex generation, before an optional `.zst`.
pub fn is_retained_archive_name(name: &str) -> bool {
    let name = name.strip_suffix(".zst").unwrap_or(name);
    ["deleted", "reset", "bak"].iter().any(|reason| {
        let marker = format!(".{reason}.");
        let Some(i) = name.rfind(&marker) else {
            return false;
        };
        let raw = &name[i + marker.len()..];
        let (stamp, generation) = match raw.split_once('Z') {
            Some((s, rest)) => (s, rest),
            None => return false,
        };
        let generation_ok = generation.is_empty()
            || generation.strip_prefix('.').is_some_and(|g| {
                g.len() == 32 && g.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
            });
        let b = stamp.as_bytes();
        let digits = |r: std::ops::Range<usize>| r.clone().all(|i| b[i].is_ascii_digit());
        let base = b.len() >= 19
            && digits(0..4)
            && b[4] == b'-'
            && digits(5..7)
            && b[7] == b'-'
            && digits(8..10)
            && b[10] == b'T'
            && digits(11..13)
            && b[13] == b'-'
            && digits(14..16)
            && b[16] == b'-'
            && digits(17..19);
        let millis = b.len() == 19 || (b.len() == 23 && b[19] == b'.' && digits(20..23));
        base && millis && generation_ok
    })
}

/// A file of `sessions/` the plan's artifact pass leaves in place, renames, or removes.
pub struct ArtifactEffect {
    pub path: PathBuf,
    pub archive_to: Option<PathBuf>,
}

/// What the budget pass needs of one agent once its plan is made.
pub struct BudgetInput<'a> {
    pub paths: &'a AgentPaths,
    pub store: &'a AgentStore,
    pub plan: &'a PrunePlan,
    pub artifacts: &'a [ArtifactEffect],
    /// The total measured before anything changes (OpenClaw's physical measure).
    pub measured: u64,
    pub max_bytes: u64,
    pub high_water_bytes: u64,
    pub now: i64,
}

fn mtime_ns(meta: &std::fs::Metadata) -> i128 {
    meta.modified()
        .ok()
        .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0)
}

/// Plan the budget pass of one agent, against the store as the plan will leave it: the
/// archives its removals write, the windows they take with them, the files its artifact pass
/// renames or removes, and the sessions it archives by the cap.
pub fn plan_budget(input: &BudgetInput<'_>) -> Result<BudgetPlan> {
    let BudgetInput {
        paths, store, plan, ..
    } = *input;
    let db = store.db().expect("sqlite store");
    let (conn, path) = (db.conn(), db.path());
    // A budget the schema alone exceeds could only be met by removing everything, and not
    // even then: refused, naming what the least budget is.
    let schema = vacuum::schema_bytes(conn).at(path)?;
    if input.max_bytes < schema {
        return Err(Error::invalid(format!(
            "the disk budget of {} (--max-disk-bytes or session.maintenance.maxDiskBytes) is below the {} agent {}'s database takes for its schema alone; give at least {schema} bytes, or a budget its sessions fit in",
            crate::units::format_bytes(input.max_bytes),
            crate::units::format_bytes(schema),
            paths.id,
        )));
    }
    let pages = vacuum::page_use(conn).at(path)?;
    let shrinks = pages.auto_vacuum == vacuum::AUTO_VACUUM_INCREMENTAL;
    // Rows given back to the file only where the database can give pages back.
    let db_bytes = |n: u64| if shrinks { n } else { 0 };
    let mut refs = References::read(conn, path)?;
    let opts = DeleteOptions {
        archive: true,
        ..Default::default()
    };
    // The sessions the plan removes: their archives are written, their rows and windows go.
    let mut removed_keys = Vec::new();
    plan.for_each(ActionFilter::Removals, |i| -> Result<_> {
        removed_keys.push(i.session_key);
        Ok(std::ops::ControlFlow::Continue(()))
    })?;
    let mut gone_ids: HashSet<String> = HashSet::new();
    let mut new_archives: Vec<(String, u64, String)> = Vec::new();
    let mut start = input.measured;
    let mut freed_by_plan = 0u64;
    for key in &removed_keys {
        let Some(entry) = store.entry_by_exact_key(key)? else {
            continue;
        };
        let by_key = HashMap::from([(key.clone(), entry)]);
        let dp = plan_delete(store, refs.as_read(), &by_key, key, &opts)?;
        for g in &dp.generations {
            gone_ids.insert(g.session_id.clone());
            freed_by_plan += g.bytes;
            if g.events > 0 {
                let a = archive_estimate(g.bytes);
                // The file, and the same bytes as the row's blob.
                start += a + a;
                let name = new_archive_name(conn, path, &g.session_id, input.now)?;
                new_archives.push((g.session_id.clone(), a, name));
            }
        }
    }
    for key in &removed_keys {
        refs.forget(key)?;
    }
    new_archives.sort();
    // The artifact pass: removed files free their bytes, renamed ones become retained files.
    let mut retained: Vec<(i128, String, u64)> = Vec::new();
    let mut artifact_paths: HashSet<&Path> = HashSet::new();
    for a in input.artifacts {
        artifact_paths.insert(a.path.as_path());
        let Ok(meta) = std::fs::metadata(&a.path) else {
            continue;
        };
        match &a.archive_to {
            None => start = start.saturating_sub(meta.len()),
            Some(to) => {
                let name = to
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if is_retained_archive_name(&name) {
                    retained.push((mtime_ns(&meta), name, meta.len()));
                }
            }
        }
    }
    // a. Published archives, then retained files.
    let published = archives::published_in_budget_order(conn).at(path)?;
    let canonical: HashSet<&str> = published.iter().map(|p| p.0.as_str()).collect();
    let unpublished: HashSet<String> = archives::unpublished_names(conn)
        .at(path)?
        .into_iter()
        .collect();
    let mut c = Candidates::default();
    for (name, sid, _generation, blob) in &published {
        // An archive past its retention goes with the artifact pass (`--artifacts`) already.
        if artifact_paths.contains(paths.sessions_dir.join(name).as_path()) {
            continue;
        }
        let file = std::fs::metadata(paths.sessions_dir.join(name))
            .map(|m| m.len())
            .unwrap_or(0);
        c.archives.push(Candidate {
            step: BudgetStep::Archive,
            name: name.clone(),
            session_id: Some(sid.clone()),
            written_by_this_run: false,
            frees: file + db_bytes(*blob as u64),
            archive_bytes: 0,
            archive_name: String::new(),
        });
    }
    for (sid, bytes, name) in &new_archives {
        c.archives.push(Candidate {
            step: BudgetStep::Archive,
            name: name.clone(),
            session_id: Some(sid.clone()),
            written_by_this_run: true,
            frees: bytes + db_bytes(*bytes),
            archive_bytes: 0,
            archive_name: String::new(),
        });
    }
    if let Ok(rd) = std::fs::read_dir(&paths.sessions_dir) {
        for ent in rd.flatten() {
            let Ok(meta) = ent.metadata() else { continue };
            let name = ent.file_name().to_string_lossy().into_owned();
            if !meta.is_file()
                || artifact_paths.contains(ent.path().as_path())
                || !is_retained_archive_name(&name)
                || canonical.contains(name.as_str())
                || unpublished.contains(&name)
            {
                continue;
            }
            retained.push((mtime_ns(&meta), name, meta.len()));
        }
    }
    retained.sort();
    c.retained = retained
        .into_iter()
        .map(|(_, name, bytes)| Candidate {
            step: BudgetStep::RetainedFile,
            name,
            session_id: None,
            written_by_this_run: false,
            frees: bytes,
            archive_bytes: 0,
            archive_name: String::new(),
        })
        .collect();
    let free = if shrinks {
        pages.free_bytes() + freed_by_plan
    } else {
        0
    };
    let (max, high_water) = (input.max_bytes, input.high_water_bytes);
    // The later steps are read only when the earlier ones cannot reach the mark: each step
    // runs to its end before the next one starts.
    let after = |t: u64, list: &[Candidate]| {
        list.iter()
            .fold(t, |t, c| (t + c.archive_bytes).saturating_sub(c.frees))
    };
    let after_a = after(after(start.saturating_sub(free), &c.archives), &c.retained);
    if start <= max || after_a <= high_water {
        return Ok(simulate(start, free, max, high_water, c));
    }
    // b. Historical windows: no session refers to them and no kept session retains them.
    let removes: HashSet<&str> = removed_keys.iter().map(String::as_str).collect();
    let mut evicted: HashSet<String> = HashSet::new();
    for (sid, key, _updated) in windows::in_budget_order(conn).at(path)? {
        if gone_ids.contains(&sid)
            || removes.contains(key.as_str())
            || refs.now().other_owner(&sid, "")?.is_some()
            || plan.retains_windows_of(&key)?
            || archives::is_cold(conn, &sid).at(path)?
        {
            continue;
        }
        let (n, bytes) = events::stats(conn, &sid).at(path)?;
        let bytes = bytes.max(0) as u64;
        let archive = if n > 0 { archive_estimate(bytes) } else { 0 };
        c.windows.push(Candidate {
            step: BudgetStep::Window,
            name: sid.clone(),
            session_id: Some(sid.clone()),
            written_by_this_run: false,
            frees: db_bytes(bytes),
            archive_bytes: archive + db_bytes(archive),
            archive_name: new_archive_name(conn, path, &sid, input.now)?,
        });
        evicted.insert(sid);
    }
    // Each window's archive stays (written by this run).
    let after_b = after(after_a, &c.windows);
    if after_b <= high_water {
        return Ok(simulate(start, free, max, high_water, c));
    }
    // d. Sessions archived by the cap (their windows not already evicted above).
    for key in plan.budget_evictable(input.now)? {
        let Some(entry) = store.entry_by_exact_key(&key)? else {
            continue;
        };
        let by_key = HashMap::from([(key.clone(), entry)]);
        let dp = plan_delete(store, refs.as_read(), &by_key, &key, &opts)?;
        let (mut frees, mut archive) = (0, 0);
        for g in dp
            .generations
            .iter()
            .filter(|g| !evicted.contains(&g.session_id))
        {
            frees += db_bytes(g.bytes);
            if g.events > 0 {
                let a = archive_estimate(g.bytes);
                archive += a + db_bytes(a);
            }
        }
        c.sessions.push(Candidate {
            step: BudgetStep::ArchivedSession,
            name: key,
            session_id: None,
            written_by_this_run: false,
            frees,
            archive_bytes: archive,
            archive_name: String::new(),
        });
    }
    Ok(simulate(start, free, max, high_water, c))
}

/// What the pass did, measured.
#[derive(Debug, Clone, Copy, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetOutcome {
    pub total_bytes_before: u64,
    pub total_bytes_after: u64,
}

/// OpenClaw's physical measure of an agent (docs/openclaw/MAINTENANCE.md §3.2).
pub fn measure(paths: &AgentPaths) -> Result<u64> {
    let store = AgentStore::open(paths.clone())?;
    Ok(
        crate::du::agent_disk_use(paths, &store, &crate::paths::MaintenanceConfig::default())?
            .budget_bytes,
    )
}

/// Give the free pages back (on a database that can) and empty the WAL, as OpenClaw's
/// `reclaimSqliteFreePages` does between the steps.
fn reclaim_pages(db: &WritableDb) -> Result<()> {
    let pages = vacuum::page_use(&db.conn).at(&db.path)?;
    if pages.auto_vacuum == vacuum::AUTO_VACUUM_INCREMENTAL && pages.freelist_count > 0 {
        vacuum::incremental_vacuum(&db.conn, pages.freelist_count).at(&db.path)?;
    }
    vacuum::checkpoint_truncate(&db.conn).at(&db.path)?;
    Ok(())
}

fn remove_file(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// Carry out a planned budget pass, one removal at a time (each its own transaction or file
/// operation: a run stopped between two leaves a valid store, and a re-run plans the rest).
/// `interrupted` is asked before each removal. The database is of the schema this tool writes
/// or one of `also` (the operation's proven older schemas).
pub fn apply_budget(
    state_dir: &Path,
    paths: &AgentPaths,
    plan: &BudgetPlan,
    now: i64,
    also: &[i64],
    interrupted: &dyn Fn() -> bool,
) -> Result<BudgetOutcome> {
    let open = || WritableDb::open_accepting(state_dir, &paths.db, also);
    let before = measure(paths)?;
    if plan.removed.is_empty() {
        return Ok(BudgetOutcome {
            total_bytes_before: before,
            total_bytes_after: before,
        });
    }
    let dir = &paths.sessions_dir;
    let opts = DeleteOptions {
        archive: true,
        ..Default::default()
    };
    reclaim_pages(&open()?)?;
    for r in &plan.removed {
        if interrupted() {
            return Err(Error::Interrupted);
        }
        match r.step {
            BudgetStep::Archive => {
                let db = open()?;
                let names = match (&r.session_id, r.written_by_this_run) {
                    (Some(sid), true) => archives::of_session_created_at(&db.conn, sid, now)
                        .at(&db.path)?
                        .into_iter()
                        .map(|(name, _)| name)
                        .collect(),
                    _ => vec![r.name.clone()],
                };
                for name in names {
                    // The file first, then its row, as OpenClaw does: a run stopped between
                    // leaves a row whose file is gone, which the next run removes.
                    remove_file(&dir.join(&name))?;
                    crate::writer::crash_point("budget-archive-file");
                    archives::delete_named(&db.conn, &name).at(&db.path)?;
                    // The entry kept with it is of no use without it (last: a run stopped
                    // before leaves a file nothing reads).
                    remove_kept_entry(state_dir, paths.id.as_str(), &name)?;
                }
                reclaim_pages(&db)?;
            }
            BudgetStep::RetainedFile => {
                remove_file(&dir.join(&r.name))?;
                remove_kept_entry(state_dir, paths.id.as_str(), &r.name)?;
            }
            BudgetStep::Window => {
                let mut db = open()?;
                db.statement_journals_in_memory()?;
                let sid = r.session_id.as_deref().unwrap_or(&r.name);
                let path = db.path.clone();
                let tx = db.transaction()?;
                let key: Option<String> = windows::session_key_of(&tx, sid).at(&path)?;
                crate::writer::archive::archive_orphan_transcript(
                    &tx,
                    &path,
                    key.as_deref(),
                    sid,
                    now,
                )?;
                crate::writer::crash_point("budget-window");
                tx.commit().at(&path)?;
                crate::writer::publish::publish_checked(&db, dir, crate::units::now_ms())?;
                reclaim_pages(&db)?;
            }
            BudgetStep::ArchivedSession => {
                let store = AgentStore::open(paths.clone())?;
                let Some(entry) = store.entry_by_exact_key(&r.name)? else {
                    continue;
                };
                let refs = {
                    let db = store.db().expect("sqlite store");
                    References::read(db.conn(), db.path())?
                };
                let by_key = HashMap::from([(r.name.clone(), entry)]);
                let dp = plan_delete(&store, refs.as_read(), &by_key, &r.name, &opts)?;
                drop(store);
                let mut db = open()?;
                // One session: its search rows are found as it is deleted.
                let found = FoundSearchRows::default();
                apply_delete(&mut db, &dp, refs.now(), dir, now, &found)?;
                reclaim_pages(&db)?;
            }
        }
    }
    let after = measure(paths)?;
    Ok(BudgetOutcome {
        total_bytes_before: before,
        total_bytes_after: after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(step: BudgetStep, name: &str, frees: u64, archive_bytes: u64) -> Candidate {
        Candidate {
            step,
            name: name.into(),
            session_id: Some(name.into()),
            written_by_this_run: false,
            frees,
            archive_bytes,
            archive_name: format!("{name}.jsonl.deleted.<stamp>.*.zst"),
        }
    }

    fn names(p: &BudgetPlan) -> Vec<(BudgetStep, String)> {
        p.removed.iter().map(|r| (r.step, r.name.clone())).collect()
    }

    #[test]
    fn retained_archive_names_as_openclaw_reads_them() {
        for n in [
            "a.jsonl.reset.2026-06-01T08-00-00.000Z",
            "a.jsonl.deleted.2026-06-01T08-00-00Z",
            "a.jsonl.deleted.2026-06-01T08-00-00.000Z.0123456789abcdef0123456789abcdef.zst",
            "a.jsonl.bak.2026-06-01T08-00-00.000Z",
        ] {
            assert!(is_retained_archive_name(n), "{n}");
        }
        for n in [
            "a.jsonl",
            "a.jsonl.deleted.yesterday",
            "a.jsonl.deleted.2026-06-01T08:00:00.000Z",
            "a.jsonl.deleted.2026-06-01T08-00-00.000Z.XYZ",
            "sessions.json.bak.12",
        ] {
            assert!(!is_retained_archive_name(n), "{n}");
        }
    }

    #[test]
    fn an_archive_written_by_the_same_run_is_never_removed() {
        let mut fresh = cand(BudgetStep::Archive, "new.jsonl.deleted.stamp.zst", 1000, 0);
        fresh.written_by_this_run = true;
        let c = Candidates {
            archives: vec![fresh, cand(BudgetStep::Archive, "old", 10, 0)],
            ..Default::default()
        };
        let p = simulate(2000, 0, 10, 8, c);
        assert_eq!(names(&p), vec![(BudgetStep::Archive, "old".into())]);
        assert_eq!(p.total_bytes_after, 1990);
    }

    #[test]
    fn under_the_maximum_nothing_is_removed() {
        let c = Candidates {
            archives: vec![cand(BudgetStep::Archive, "a", 10, 0)],
            ..Default::default()
        };
        let p = simulate(100, 0, 100, 80, c);
        assert!(p.removed.is_empty() && !p.over_budget());
        assert_eq!(p.total_bytes_after, 100);
    }

    #[test]
    fn every_step_in_openclaws_order_down_to_the_high_water_mark() {
        let c = Candidates {
            archives: vec![
                cand(BudgetStep::Archive, "a1", 10, 0),
                cand(BudgetStep::Archive, "a2", 10, 0),
            ],
            retained: vec![cand(BudgetStep::RetainedFile, "r1", 10, 0)],
            windows: vec![
                cand(BudgetStep::Window, "w1", 40, 8),
                cand(BudgetStep::Window, "w2", 40, 8),
            ],
            sessions: vec![
                cand(BudgetStep::ArchivedSession, "s1", 30, 5),
                cand(BudgetStep::ArchivedSession, "s2", 30, 5),
            ],
        };
        // 300 → 270 after a; w1: 270 - 40 + 8 = 238 (its archive, written by this run,
        // stays); w2: 206; s1: 181; s2: 156, still over 80 with nothing left.
        let p = simulate(300, 0, 200, 80, c.clone());
        assert_eq!(
            names(&p),
            vec![
                (BudgetStep::Archive, "a1".into()),
                (BudgetStep::Archive, "a2".into()),
                (BudgetStep::RetainedFile, "r1".into()),
                (BudgetStep::Window, "w1".into()),
                (BudgetStep::Window, "w2".into()),
                (BudgetStep::ArchivedSession, "s1".into()),
                (BudgetStep::ArchivedSession, "s2".into()),
            ]
        );
        assert_eq!(p.total_bytes_after, 156);
        assert_eq!((p.removed_files(), p.removed_entries()), (3, 4));
        assert!(p.removed.iter().all(|r| !r.written_by_this_run));
        // Stops as soon as the total is at the mark: the first archive is enough.
        let p = simulate(300, 0, 200, 295, c.clone());
        assert_eq!(names(&p), vec![(BudgetStep::Archive, "a1".into())]);
        // Free pages given back first can be enough on their own.
        let p = simulate(300, 50, 200, 260, c);
        assert!(p.removed.is_empty() && p.over_budget());
        assert_eq!(p.total_bytes_after, 250);
    }
}
