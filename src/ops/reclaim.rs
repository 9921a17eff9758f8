//! `reclaim`: give an agent database's free pages back to the file system, offline and under
//! custody, the way OpenClaw's own offline compaction does (docs/openclaw/MAINTENANCE.md §6):
//! integrity checked first, WAL checkpointed, `incremental_vacuum` on a database made with
//! `auto_vacuum = INCREMENTAL` (every database OpenClaw creates), else a full `VACUUM` that
//! leaves it incremental, checkpointed again and checked again.
//!
//! Every step is one SQLite transaction, so a crash or a full disk at any point leaves a
//! database SQLite recovers on the next open, and a re-run finishes the job. The free disk is
//! checked before the first write against what the step needs (the temporary copy and WAL of
//! a `VACUUM`, or the WAL of one incremental pass): a compaction that cannot finish is refused
//! rather than started.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{count, PlanGroup, PlanItem, PlanSummary};
use super::targets::Selection;
use crate::backup::{check_integrity_split, SnapshotSource};
use crate::error::{Error, Result, ResultExt};
use crate::paths::{AgentPaths, StateLayout};
use crate::store::db::vacuum::{self, PageUse, AUTO_VACUUM_INCREMENTAL};
use crate::store::ReadOnlyDb;
use crate::units::format_bytes;
use crate::writer::WritableDb;

use super::disk_space::{
    free_bytes_at, same_file_system, sqlite_temp_dir, WAL_FRAME_HEADER, WAL_HEADER,
};

/// Free pages moved per incremental pass: each pass is one transaction whose WAL is emptied
/// before the next, so the WAL never needs more than a few of these at once.
fn pass_pages() -> u64 {
    crate::test_hooks::apply_batch().map_or(4096, |n| n as u64)
}

/// How the free pages are given back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// `PRAGMA incremental_vacuum` in passes: no copy of the database is needed.
    IncrementalVacuum,
    /// `VACUUM`: the database is rebuilt through a temporary copy.
    Vacuum,
}

/// Free space the compaction of one database needs, where it needs it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpaceCheck {
    /// Bytes needed on the database's file system (the WAL the step writes).
    pub needed_bytes: u64,
    /// Bytes free there for this user.
    pub available_bytes: u64,
    /// SQLite's temporary directory, when the step writes a temporary copy there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temp_dir: Option<PathBuf>,
    /// Bytes the temporary copy needs, and bytes free for it (the same file system as the
    /// database: counted in `neededBytes` too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temp_needed_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temp_available_bytes: Option<u64>,
}

impl SpaceCheck {
    pub fn enough(&self) -> bool {
        self.available_bytes >= self.needed_bytes
            && match (self.temp_needed_bytes, self.temp_available_bytes) {
                (Some(n), Some(a)) => a >= n,
                _ => true,
            }
    }

    fn shortfall(&self) -> String {
        let mut words = Vec::new();
        if self.available_bytes < self.needed_bytes {
            words.push(format!(
                "needs {} free beside the database, {} are",
                format_bytes(self.needed_bytes),
                format_bytes(self.available_bytes)
            ));
        }
        if let (Some(n), Some(a), Some(dir)) = (
            self.temp_needed_bytes,
            self.temp_available_bytes,
            &self.temp_dir,
        ) {
            if a < n {
                words.push(format!(
                    "needs {} free in the temporary directory {}, {} are",
                    format_bytes(n),
                    dir.display(),
                    format_bytes(a)
                ));
            }
        }
        words.join("; ")
    }
}

/// One agent database: what it holds now, and after the run what it was given back.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentReclaim {
    pub agent_id: String,
    pub database: PathBuf,
    pub method: Method,
    pub page_size: u64,
    pub page_count: u64,
    pub free_pages: u64,
    /// `free_pages × page_size`: at least what the file shrinks by.
    pub free_bytes: u64,
    /// The `-wal` beside it: checkpointed into the database and truncated to nothing first
    /// (a WAL grown past the database's live pages keeps a Gateway from starting; the
    /// doctor's `wal-size` finds it).
    pub wal_bytes: u64,
    /// The database and its WAL, before.
    pub bytes_before: u64,
    pub space: SpaceCheck,
    /// After a real run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes_after: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reclaimed_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free_pages_after: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wal_after: Option<u64>,
}

impl AgentReclaim {
    pub fn work(&self) -> bool {
        self.free_pages > 0 || self.wal_bytes > 0
    }
}

pub struct ReclaimPlan {
    pub agents: Vec<AgentReclaim>,
    paths: Vec<AgentPaths>,
}

pub struct ReclaimOp {
    pub selection: Selection,
    agents: Vec<AgentPaths>,
}

impl ReclaimOp {
    pub fn new(selection: Selection) -> Self {
        ReclaimOp {
            selection,
            agents: Vec::new(),
        }
    }
}

/// The database and its WAL (the `-shm` index is not data), in bytes.
pub fn database_bytes(db: &Path) -> Result<u64> {
    let mut total = 0;
    for path in [
        db.to_path_buf(),
        crate::paths::sqlite_file::sidecar(db, "-wal"),
    ] {
        match std::fs::metadata(&path) {
            Ok(m) => total += m.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&path, e)),
        }
    }
    Ok(total)
}

fn method_of(pages: &PageUse) -> Method {
    if pages.auto_vacuum == AUTO_VACUUM_INCREMENTAL {
        Method::IncrementalVacuum
    } else {
        Method::Vacuum
    }
}

/// What compacting `db` needs, against what is free: the checkpoint of its WAL first (it may
/// extend the database by every page the WAL holds), then the compaction of its free pages.
fn space_check(db: &Path, pages: &PageUse) -> Result<SpaceCheck> {
    let wal =
        std::fs::metadata(crate::paths::sqlite_file::sidecar(db, "-wal")).map_or(0, |m| m.len());
    let mut check = compaction_space(db, pages)?;
    check.needed_bytes += wal;
    Ok(check)
}

fn compaction_space(db: &Path, pages: &PageUse) -> Result<SpaceCheck> {
    let dir = db.parent().unwrap_or(Path::new("."));
    let available = free_bytes_at(dir)?;
    let frame = pages.page_size + WAL_FRAME_HEADER;
    if pages.freelist_count == 0 {
        // No free page: nothing is compacted, only the WAL checkpointed.
        return Ok(SpaceCheck {
            needed_bytes: 0,
            available_bytes: available,
            temp_dir: None,
            temp_needed_bytes: None,
            temp_available_bytes: None,
        });
    }
    Ok(match method_of(pages) {
        Method::IncrementalVacuum => {
            // One pass moves at most `pass` pages; each move rewrites the page, its parent
            // and a pointer-map page, plus a few free-list trunk pages.
            let pass = pages.freelist_count.min(pass_pages());
            SpaceCheck {
                needed_bytes: (3 * pass + 16) * frame + WAL_HEADER,
                available_bytes: available,
                temp_dir: None,
                temp_needed_bytes: None,
                temp_available_bytes: None,
            }
        }
        Method::Vacuum => {
            // The rebuilt copy of the used pages goes to a temporary file, and from there
            // through the WAL (one frame per page) into the database.
            let copy = pages.used_pages() * pages.page_size;
            let wal = pages.page_count * frame + WAL_HEADER;
            match sqlite_temp_dir() {
                Some(tmp) if !same_file_system(&tmp, dir) => SpaceCheck {
                    needed_bytes: wal,
                    available_bytes: available,
                    temp_available_bytes: Some(free_bytes_at(&tmp)?),
                    temp_dir: Some(tmp),
                    temp_needed_bytes: Some(copy),
                },
                tmp => SpaceCheck {
                    needed_bytes: wal + copy,
                    available_bytes: available,
                    temp_dir: tmp,
                    temp_needed_bytes: None,
                    temp_available_bytes: None,
                },
            }
        }
    })
}

fn refuse_short(agent: &str, db: &Path, space: &SpaceCheck) -> Error {
    Error::Conflict {
        message: format!(
            "not enough free disk to compact agent {agent}'s database {}: it {}",
            db.display(),
            space.shortfall()
        ),
        hint: Some(
            "free some space (or set SQLITE_TMPDIR to a directory with room) and run it again; \
             nothing was changed"
                .to_string(),
        ),
    }
}

fn plan_agent(paths: &AgentPaths, hooks: &dyn Hooks) -> Result<Option<AgentReclaim>> {
    if !paths.db.is_file() {
        if paths.legacy_index.as_ref().is_some_and(|p| p.is_file()) {
            hooks.warn(super::prune::legacy_only_warning(
                paths.id.as_str(),
                "reclaim",
            ));
        }
        return Ok(None);
    }
    let ro = ReadOnlyDb::open(&paths.db)?;
    let pages = vacuum::page_use(ro.conn()).at(&paths.db)?;
    drop(ro);
    Ok(Some(AgentReclaim {
        agent_id: paths.id.to_string(),
        database: paths.db.clone(),
        method: method_of(&pages),
        page_size: pages.page_size,
        page_count: pages.page_count,
        free_pages: pages.freelist_count,
        free_bytes: pages.free_bytes(),
        wal_bytes: std::fs::metadata(crate::paths::sqlite_file::sidecar(&paths.db, "-wal"))
            .map_or(0, |m| m.len()),
        bytes_before: database_bytes(&paths.db)?,
        space: space_check(&paths.db, &pages)?,
        bytes_after: None,
        reclaimed_bytes: None,
        free_pages_after: None,
        wal_after: None,
    }))
}

/// Empty the WAL into the database; under custody nothing should keep it from completing.
fn checkpoint(db: &WritableDb) -> Result<()> {
    if vacuum::checkpoint_truncate(&db.conn).at(&db.path)? {
        return Ok(());
    }
    Err(Error::Conflict {
        message: format!(
            "the WAL of {} could not be checkpointed: another process is reading or writing it",
            db.path.display()
        ),
        hint: Some("stop every OpenClaw process using this state dir and retry".to_string()),
    })
}

fn apply_agent(
    layout: &StateLayout,
    paths: &AgentPaths,
    plan: &mut AgentReclaim,
    hooks: &dyn Hooks,
) -> Result<()> {
    // The free disk is checked before the first write, the checkpoint included: copying the
    // WAL's pages into the database can extend it by as much as the WAL holds. It is checked
    // on a read-only connection: closing a writable one would checkpoint the WAL already.
    let ro = ReadOnlyDb::open(&paths.db)?;
    let pages = vacuum::page_use(ro.conn()).at(&paths.db)?;
    drop(ro);
    let space = space_check(&paths.db, &pages)?;
    if !space.enough() {
        return Err(refuse_short(&plan.agent_id, &paths.db, &space));
    }
    let db = WritableDb::open_accepting(
        &layout.state_dir,
        &paths.db,
        ReclaimOp::OLDER_SCHEMAS_WRITTEN,
    )?;
    // A damaged database is not rebuilt: VACUUM could drop what it cannot read.
    check_integrity_split(&db.conn, &db.path, false)?;
    checkpoint(&db)?;
    crate::test_hooks::crash_point("reclaim-after-checkpoint");
    let pages = vacuum::page_use(&db.conn).at(&db.path)?;
    crate::test_hooks::crash_point("reclaim-before-vacuum");
    match method_of(&pages) {
        _ if pages.freelist_count == 0 => {}
        Method::IncrementalVacuum => loop {
            let free = vacuum::page_use(&db.conn).at(&db.path)?.freelist_count;
            if free == 0 {
                break;
            }
            if hooks.interruption().requested() {
                return Err(Error::Interrupted);
            }
            vacuum::incremental_vacuum(&db.conn, free.min(pass_pages())).at(&db.path)?;
            crate::test_hooks::crash_point("reclaim-pass");
            checkpoint(&db)?;
        },
        Method::Vacuum => {
            vacuum::vacuum_to_incremental(&db.conn).at(&db.path)?;
            crate::test_hooks::crash_point("reclaim-after-vacuum");
            checkpoint(&db)?;
        }
    }
    check_integrity_split(&db.conn, &db.path, false)?;
    let after = vacuum::page_use(&db.conn).at(&db.path)?;
    drop(db);
    let bytes_after = database_bytes(&paths.db)?;
    plan.bytes_after = Some(bytes_after);
    plan.reclaimed_bytes = Some(plan.bytes_before.saturating_sub(bytes_after));
    plan.free_pages_after = Some(after.freelist_count);
    plan.wal_after = Some(
        std::fs::metadata(crate::paths::sqlite_file::sidecar(&paths.db, "-wal"))
            .map_or(0, |m| m.len()),
    );
    Ok(())
}

impl Operation for ReclaimOp {
    type Plan = ReclaimPlan;
    type Report = ();

    /// Nothing is removed: the same rows, in fewer pages. `--backup-dir` still snapshots.
    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::OnRequest;
    /// Nothing a person could decline to lose: it runs without a question, as `archive` does.
    const ASKS_FIRST: bool = false;
    /// It writes no row, only gives pages back (incremental vacuum, as 2026.8.2 and 2026.9.5
    /// also do, or a VACUUM), so every schema keeps its rows and objects: proven on both
    /// releases' stores by the reference check `release_reclaim`.
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] =
        crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        self.agents.clone()
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        self.agents = self.selection.agents(layout)?;
        Ok(())
    }

    fn plan(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<ReclaimPlan> {
        let mut agents = Vec::new();
        let mut paths = Vec::new();
        for p in &self.agents {
            if let Some(a) = plan_agent(p, hooks)? {
                if a.work() {
                    super::targets::check_owned_agent(layout, p)?;
                    if !a.space.enough() {
                        hooks.warn(
                            refuse_short(&a.agent_id, &a.database, &a.space)
                                .to_string()
                                .into(),
                        );
                    }
                }
                agents.push(a);
                paths.push(p.clone());
            }
        }
        Ok(ReclaimPlan { agents, paths })
    }

    fn summarize(&self, plan: &ReclaimPlan, limit: usize) -> Result<PlanSummary> {
        let due: Vec<&AgentReclaim> = plan.agents.iter().filter(|a| a.work()).collect();
        let bytes: u64 = due.iter().map(|a| a.free_bytes + a.wal_bytes).sum();
        let mut summary = PlanSummary::new(format!(
            "compact {} (give back {})",
            count(due.len(), "database"),
            format_bytes(bytes)
        ));
        for a in due {
            let mut group = PlanGroup::new(Some(a.agent_id.clone()));
            if a.wal_bytes > 0 {
                group.push(
                    PlanItem::change(
                        "checkpoint and truncate the WAL",
                        crate::paths::sqlite_file::sidecar(&a.database, "-wal")
                            .display()
                            .to_string(),
                        Some(format!(
                            "{} into the database; needs up to {} free, {} are",
                            format_bytes(a.wal_bytes),
                            format_bytes(a.wal_bytes),
                            format_bytes(a.space.available_bytes)
                        )),
                    ),
                    limit,
                );
            }
            if a.free_pages == 0 {
                summary.add(group);
                continue;
            }
            group.push(
                PlanItem::change(
                    match a.method {
                        Method::IncrementalVacuum => "incremental vacuum",
                        Method::Vacuum => "vacuum",
                    },
                    a.database.display().to_string(),
                    Some(format!(
                        "{} free pages of {}, {}; needs {} free, {} are",
                        a.free_pages,
                        format_bytes(a.page_size),
                        format_bytes(a.free_bytes),
                        format_bytes(a.space.needed_bytes + a.space.temp_needed_bytes.unwrap_or(0)),
                        format_bytes(a.space.available_bytes)
                    )),
                ),
                limit,
            );
            summary.add(group);
        }
        Ok(summary)
    }

    fn snapshot_sources(&self, _layout: &StateLayout, plan: &ReclaimPlan) -> Vec<SnapshotSource> {
        plan.agents
            .iter()
            .zip(&plan.paths)
            .filter(|(a, _)| a.work())
            .map(|(_, p)| SnapshotSource::agent(p))
            .collect()
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut ReclaimPlan,
        hooks: &dyn Hooks,
    ) -> Result<()> {
        for (a, p) in plan.agents.iter_mut().zip(&plan.paths) {
            if a.work() {
                apply_agent(layout, p, a, hooks)?;
            }
        }
        Ok(())
    }

    fn verify(&self, _: &StateLayout, plan: &ReclaimPlan, _: &()) -> Result<()> {
        for a in plan.agents.iter().filter(|a| a.work()) {
            ensure(a.free_pages_after == Some(0), || {
                format!("agent {}: free pages left after the compaction", a.agent_id)
            })?;
            ensure(a.wal_after == Some(0), || {
                format!("agent {}: the WAL was not truncated", a.agent_id)
            })?;
            // A rebuild that turns incremental vacuum on adds one pointer-map page per
            // page_size / 5 pages; nothing else may grow the file.
            let pointer_maps = match a.method {
                Method::Vacuum => (a.page_count / (a.page_size / 5).max(1) + 1) * a.page_size,
                Method::IncrementalVacuum => 0,
            };
            ensure(
                a.bytes_after
                    .is_some_and(|b| b <= a.bytes_before + pointer_maps),
                || format!("agent {}: the database grew", a.agent_id),
            )?;
        }
        Ok(())
    }
}
