//! The prune plan (`planSessionEntryMaintenance` as `openclaw sessions cleanup` forces it),
//! kept in a private temporary SQLite database rather than in memory. The cap orders every
//! session of the store; SQLite's sorter and page cache spill to a temporary file where a
//! vector would grow with the store (BENCHMARKS.md measures it).
//! The `planned`/`kept_id` tables are this module's private scratch database: its SQL stays here.

use std::ops::ControlFlow;
use std::path::PathBuf;

use rusqlite::{params, Connection};
use serde::{Serialize, Serializer};

use super::{MaintenanceSettings, PlannerRow, PruneAction, PruneRules};
use crate::error::{Result, ResultExt};
use crate::store::open_scratch;
use crate::streamed::serialize_visited;

/// Model-run probes are pruned a day after their last update.
pub const MODEL_RUN_PRUNE_AFTER_MS: i64 = 86_400_000;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PruneItem {
    pub session_key: String,
    pub action: PruneAction,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PruneCounts {
    pub before_count: usize,
    pub after_count: usize,
    pub missing: usize,
    pub dm_scope_retired: usize,
    pub model_run_pruned: usize,
    pub archived: usize,
    pub cap_archived: usize,
    pub pruned: usize,
    pub capped: usize,
}

/// Collects the planner rows of one agent, as the store is read.
pub struct PlanBuilder {
    conn: Connection,
    /// Named in errors; computed once, since rows are pushed one at a time.
    at: PathBuf,
}

/// A row is left alone once archived (before or by this plan), removed, or preserved.
const OPEN: &str = "archived = 0 AND action IS NULL AND preserved = 0";

impl PlanBuilder {
    fn count(&self, sql: &str) -> Result<usize> {
        self.conn
            .query_row(sql, [], |r| r.get::<_, i64>(0))
            .map(|n| n as usize)
            .at(&self.at)
    }

    /// Marks the rows `sql` selects; how many.
    fn mark(&self, sql: &str, p: &[&dyn rusqlite::ToSql]) -> Result<usize> {
        self.conn.execute(sql, p).at(&self.at)
    }

    /// Step 1 of every rule set: model-run probes older than their age, when the store counts
    /// more than `maxEntries` (cleanup is forced: only then).
    fn prune_model_runs(&self, counted: usize, max_entries: i64, now: i64) -> Result<usize> {
        if counted as i64 <= max_entries {
            return Ok(0);
        }
        self.mark(
            &format!(
                "UPDATE planned SET step = 1, action = ?1 \
                 WHERE {OPEN} AND model_run = 1 AND updated_at < ?2"
            ),
            &[
                &PruneAction::PruneModelRun.code(),
                &(now - MODEL_RUN_PRUNE_AFTER_MS),
            ],
        )
    }

    /// The plan as marked, indexed in application order.
    fn finish(self, counts: PruneCounts) -> Result<PrunePlan> {
        self.conn
            .execute_batch(
                "CREATE INDEX planned_order ON planned (step, rank, key) WHERE step IS NOT NULL",
            )
            .at(&self.at)?;
        let actions = self.count("SELECT count(*) FROM planned WHERE step IS NOT NULL")?;
        let PlanBuilder { conn, at } = self;
        Ok(PrunePlan {
            conn,
            at,
            counts,
            actions,
        })
    }

    /// Step 0 of every release's plan, the counts it starts from: every row counted, then the
    /// rows `--fix-missing` and `--fix-dm-scope` marked removed first.
    fn fixes_first(&self) -> Result<PruneCounts> {
        let before_count = self.count("SELECT count(*) FROM planned")?;
        self.conn
            .execute(
                "UPDATE planned SET step = 0, action = fix WHERE fix IS NOT NULL",
                [],
            )
            .at(&self.at)?;
        let fixed = |a: PruneAction| {
            self.count(&format!(
                "SELECT count(*) FROM planned WHERE step = 0 AND action = {}",
                a.code()
            ))
        };
        Ok(PruneCounts {
            before_count,
            missing: fixed(PruneAction::PruneMissing)?,
            dm_scope_retired: fixed(PruneAction::RetireDmScope)?,
            ..Default::default()
        })
    }

    pub fn new() -> Result<Self> {
        let (conn, at) = open_scratch(
            "prune plan",
            512,
            "CREATE TABLE planned (
               key TEXT PRIMARY KEY NOT NULL,
               updated_at INTEGER NOT NULL,
               activity_at INTEGER NOT NULL,
               archived INTEGER NOT NULL,
               preserved INTEGER NOT NULL,
               synthetic INTEGER NOT NULL,
               model_run INTEGER NOT NULL,
               dashboard INTEGER NOT NULL,
               fix INTEGER,
               archived_at INTEGER,
               cap_archived INTEGER NOT NULL,
               pinned INTEGER NOT NULL,
               recent INTEGER NOT NULL,
               budget_kept INTEGER NOT NULL,
               step INTEGER,
               rank INTEGER,
               action INTEGER
             ) WITHOUT ROWID;
             CREATE TABLE kept_id (id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;",
        )?;
        Ok(PlanBuilder { conn, at })
    }

    pub fn push(&mut self, row: &PlannerRow) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO planned (key, updated_at, activity_at, archived, preserved, \
                 synthetic, model_run, dashboard, fix, archived_at, cap_archived, pinned, \
                 recent, budget_kept) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    &*row.key,
                    row.updated_at,
                    row.activity_at,
                    row.archived,
                    row.preserved,
                    row.synthetic,
                    row.model_run,
                    row.dashboard,
                    row.fix.map(PruneAction::code),
                    row.archived_at,
                    row.cap_archived,
                    row.pinned,
                    row.recent,
                    row.budget_kept
                ])
            })
            .at(&self.at)?;
        Ok(())
    }

    /// Plan over every pushed row by the rules of the release that owns the store, in its
    /// order: model-run probes, stale dashboards, age, then the cap.
    pub fn plan(
        self,
        settings: &MaintenanceSettings,
        now: i64,
        rules: PruneRules,
    ) -> Result<PrunePlan> {
        match rules {
            PruneRules::Current | PruneRules::OpenClaw2026_9_2 => {
                self.plan_current(settings, now, rules)
            }
            PruneRules::OpenClaw2026_8 | PruneRules::OpenClaw2026_9_1 => {
                self.plan_2026_8(settings, now, rules)
            }
        }
    }

    /// 2026.8.2's `applySessionEntryMaintenance` as its cleanup forces it
    /// (docs/openclaw/RELEASES.md §7): the store is read in key order; model-run probes, then
    /// stale dashboards archived without a reason, then every stale entry removed, then the
    /// cap, which counts archived entries and removes the oldest `updatedAt` (ties: the later
    /// keys), applied newest victim first. Removals are applied in that order.
    /// 2026.9.1's decides by the same rules but reads otherwise: its stale entries oldest first
    /// (`readSessionMaintenanceAgeCandidates`), and the cap's victims from the rows by
    /// `updatedAt`, then key, up to as many unpreserved ones as it caps
    /// (`readSessionMaintenanceCapCandidates`): ties go to the earlier key, and a dashboard
    /// it archives in this run takes a victim's place without being one.
    fn plan_2026_8(
        self,
        settings: &MaintenanceSettings,
        now: i64,
        rules: PruneRules,
    ) -> Result<PrunePlan> {
        // 0. `--fix-missing`, then `--fix-dm-scope`: removed before the plan sees the store.
        let mut counts = self.fixes_first()?;
        // Every entry left counts here, archived ones included.
        let left = self.count("SELECT count(*) FROM planned WHERE action IS NULL")?;
        counts.model_run_pruned = self.prune_model_runs(left, settings.max_entries, now)?;
        // `dashboard` already leaves out the pinned and the active one.
        if let Some(after) = settings.archive_dashboard_after_ms {
            counts.archived += self.mark(
                "UPDATE planned SET step = 2, action = ?1 \
                 WHERE archived = 0 AND action IS NULL AND dashboard = 1 \
                   AND activity_at > 0 AND activity_at < ?2",
                &[
                    &PruneAction::ArchiveDashboardUnreasoned.code(),
                    &(now - after),
                ],
            )?;
        }
        if let Some(after) = settings.prune_after_ms {
            counts.pruned = self.mark(
                &format!(
                    "UPDATE planned SET step = 3, action = ?1 WHERE {OPEN} AND updated_at < ?2"
                ),
                &[&PruneAction::PruneStale.code(), &(now - after)],
            )?;
        }
        // The cap: the entries still in the store (archived ones and this plan's archives
        // count) over maxEntries; the victims are the oldest by updatedAt, ties to the later
        // key (a stable sort, newest first, then the tail), applied in that sorted order.
        let live = self.count(&format!(
            "SELECT count(*) FROM planned WHERE action IS NULL OR action = {}",
            PruneAction::ArchiveDashboardUnreasoned.code()
        ))?;
        let overflow = live as i64 - settings.max_entries.max(0);
        if overflow > 0 && rules == PruneRules::OpenClaw2026_9_1 {
            // Read by `updatedAt`, then key, the archived dashboards of this run still
            // unarchived there; applied newest first, ties in key order (a stable sort).
            counts.capped = self.mark(
                "UPDATE planned SET step = 4, action = ?1, rank = capped.applied \
                 FROM (SELECT key, action, \
                         row_number() OVER (ORDER BY updated_at, key) AS read, \
                         row_number() OVER (ORDER BY updated_at DESC, key) AS applied \
                       FROM planned WHERE archived = 0 AND preserved = 0 \
                         AND (action IS NULL OR action = ?3)) AS capped \
                 WHERE planned.key = capped.key AND capped.read <= ?2 \
                   AND capped.action IS NULL",
                &[
                    &PruneAction::PruneCap.code(),
                    &overflow,
                    &PruneAction::ArchiveDashboardUnreasoned.code(),
                ],
            )?;
        } else if overflow > 0 {
            counts.capped = self.mark(
                &format!(
                    "UPDATE planned SET step = 4, action = ?1, rank = -capped.rank \
                     FROM (SELECT key, row_number() OVER (ORDER BY updated_at, key DESC) AS rank \
                           FROM planned WHERE {OPEN}) AS capped \
                     WHERE planned.key = capped.key AND capped.rank <= ?2"
                ),
                &[&PruneAction::PruneCap.code(), &overflow],
            )?;
        }
        if rules == PruneRules::OpenClaw2026_9_1 {
            // Its stale entries are read oldest first, ties to the larger key (the index on
            // `(updated_at DESC, session_key)`, read backwards), and removed in that order.
            self.conn.execute_batch(AGE_ORDER).at(&self.at)?;
        }
        let removed = counts.missing
            + counts.dm_scope_retired
            + counts.model_run_pruned
            + counts.pruned
            + counts.capped;
        counts.after_count = counts.before_count - removed;
        self.finish(counts)
    }

    /// 2026.9.5's and 2026.9.6's plan; 2026.9.2's differs in its age step, which removes every
    /// stale entry no rule preserves (machine-made or not), and in its stale dashboards,
    /// archived unless pinned or active, whatever else would preserve them (its preservation is
    /// 2026.8.2's, decided in [`PlannerRow::new`]).
    fn plan_current(
        self,
        settings: &MaintenanceSettings,
        now: i64,
        rules: PruneRules,
    ) -> Result<PrunePlan> {
        let as_2026_9_2 = rules == PruneRules::OpenClaw2026_9_2;
        // 0. `--fix-missing`, then `--fix-dm-scope`: removed before the plan sees the store.
        let mut counts = self.fixes_first()?;
        // 1. Model-run probes, counting the unarchived entries.
        let unarchived =
            self.count("SELECT count(*) FROM planned WHERE archived = 0 AND action IS NULL")?;
        counts.model_run_pruned = self.prune_model_runs(unarchived, settings.max_entries, now)?;
        // 2. Stale dashboards, by activity.
        if let Some(after) = settings.archive_dashboard_after_ms {
            // 2026.9.2's `dashboard` already leaves out the pinned and the active one.
            let open = if as_2026_9_2 {
                "archived = 0 AND action IS NULL"
            } else {
                OPEN
            };
            counts.archived += self.mark(
                &format!(
                    "UPDATE planned SET step = 2, action = ?1 \
                     WHERE {open} AND dashboard = 1 AND activity_at > 0 AND activity_at < ?2"
                ),
                &[&PruneAction::ArchiveDashboard.code(), &(now - after)],
            )?;
        }
        // 3. Age, by updatedAt: machine-made sessions are removed, the rest archived (by
        // 2026.9.2, removed too).
        if let Some(after) = settings.prune_after_ms {
            let cutoff = now - after;
            if as_2026_9_2 {
                counts.pruned = self.mark(
                    &format!(
                        "UPDATE planned SET step = 3, action = ?1 WHERE {OPEN} AND updated_at < ?2"
                    ),
                    &[&PruneAction::PruneStale.code(), &cutoff],
                )?;
            } else {
                let sql = format!(
                    "UPDATE planned SET step = 3, action = ?1 \
                     WHERE {OPEN} AND updated_at < ?2 AND synthetic = ?3"
                );
                counts.pruned =
                    self.mark(&sql, &[&PruneAction::PruneStale.code(), &cutoff, &true])?;
                counts.archived +=
                    self.mark(&sql, &[&PruneAction::ArchiveAge.code(), &cutoff, &false])?;
            }
        }
        // Steps 1 to 3 take OpenClaw's age candidates in its order. Removals are applied in
        // this order, as OpenClaw's are: the search index's segments then end as OpenClaw's.
        self.conn.execute_batch(AGE_ORDER).at(&self.at)?;
        // 4. Cap: oldest activity first, ties to the larger key.
        let live =
            self.count("SELECT count(*) FROM planned WHERE archived = 0 AND action IS NULL")?;
        let overflow = live as i64 - settings.max_entries.max(0);
        if overflow > 0 {
            counts.capped = self.mark(
                &format!(
                    "UPDATE planned SET step = 4, rank = capped.rank, \
                       action = CASE planned.synthetic WHEN 1 THEN ?1 ELSE ?2 END \
                     FROM (SELECT key, row_number() OVER (ORDER BY activity_at, key DESC) AS rank \
                           FROM planned WHERE {OPEN}) AS capped \
                     WHERE planned.key = capped.key AND capped.rank <= ?3"
                ),
                &[
                    &PruneAction::PruneCap.code(),
                    &PruneAction::ArchiveCap.code(),
                    &overflow,
                ],
            )?;
            counts.cap_archived = self.count(&format!(
                "SELECT count(*) FROM planned WHERE action = {}",
                PruneAction::ArchiveCap.code()
            ))?;
        }
        let removed = counts.missing
            + counts.dm_scope_retired
            + counts.model_run_pruned
            + counts.pruned
            + counts.capped
            - counts.cap_archived;
        counts.after_count = counts.before_count - removed;
        self.finish(counts)
    }
}

/// Steps 1 to 3 ranked in the order OpenClaw 2026.9.1 and later read their age candidates
/// (`readSessionMaintenanceAgeCandidates`: `ORDER BY updated_at ASC`, read through the index
/// on `(updated_at DESC, session_key)`, so ties go to the larger key).
const AGE_ORDER: &str = "UPDATE planned SET rank = aged.rank \
     FROM (SELECT key, row_number() OVER (ORDER BY updated_at, key DESC) AS rank \
           FROM planned WHERE step IN (1, 2, 3)) AS aged \
     WHERE planned.key = aged.key";

/// A row the disk budget may delete once the plan is applied (the archive of the cap).
fn evictable() -> String {
    format!(
        "budget_kept = 0 AND ((archived = 1 AND archived_at IS NOT NULL AND cap_archived = 1) \
         OR coalesce(action, -1) = {})",
        PruneAction::ArchiveCap.code()
    )
}

/// One agent's planned actions, read back in application order as often as needed.
pub struct PrunePlan {
    conn: Connection,
    at: PathBuf,
    counts: PruneCounts,
    actions: usize,
}

/// Which of the planned actions to visit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionFilter {
    All,
    /// The sessions kept but archived.
    Archives,
    /// The sessions removed (their transcripts archived).
    Removals,
}

impl ActionFilter {
    fn admits(self, action: PruneAction) -> bool {
        match self {
            ActionFilter::All => true,
            ActionFilter::Archives => action.is_archive(),
            ActionFilter::Removals => !action.is_archive(),
        }
    }
}

impl PrunePlan {
    pub fn counts(&self) -> &PruneCounts {
        &self.counts
    }

    /// The number of planned actions.
    pub fn len(&self) -> usize {
        self.actions
    }

    pub fn is_empty(&self) -> bool {
        self.actions == 0
    }

    /// The number of planned actions `filter` admits.
    pub fn count(&self, filter: ActionFilter) -> Result<usize> {
        let mut n = 0;
        self.for_each(filter, |_| -> Result<_> {
            n += 1;
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(n)
    }

    /// Visit the planned actions in application order, one at a time. `visit` may return its
    /// caller's error type.
    pub fn for_each<E: From<crate::Error>>(
        &self,
        filter: ActionFilter,
        mut visit: impl FnMut(PruneItem) -> std::result::Result<ControlFlow<()>, E>,
    ) -> std::result::Result<(), E> {
        let at = &self.at;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT key, action FROM planned WHERE step IS NOT NULL ORDER BY step, rank, key",
            )
            .at(at)?;
        let mut rows = stmt.query([]).at(at)?;
        while let Some(r) = rows.next().at(at)? {
            let code: i64 = r.get(1).at(at)?;
            let action = PruneAction::from_code(code).expect("codes written by this planner");
            if !filter.admits(action) {
                continue;
            }
            let item = PruneItem {
                session_key: r.get(0).at(at)?,
                action,
            };
            if visit(item)?.is_break() {
                break;
            }
        }
        Ok(())
    }

    /// Whether the plan removes this session (an archived one stays in the store).
    pub fn removes(&self, key: &str) -> Result<bool> {
        let action: Option<Option<i64>> = self
            .conn
            .prepare_cached("SELECT action FROM planned WHERE key = ?1")
            .and_then(|mut s| {
                use rusqlite::OptionalExtension;
                s.query_row([key], |r| r.get(0)).optional()
            })
            .at(&self.at)?;
        Ok(action
            .flatten()
            .and_then(PruneAction::from_code)
            .is_some_and(|a| !a.is_archive()))
    }

    /// Whether the windows of this key are kept by its session after the plan: the session
    /// stays and is pinned, recent, or archived for good (an archive of the cap that no other
    /// rule preserves may itself be evicted, so it keeps nothing). OpenClaw's
    /// `addRetainedWindowSessionReferences` and `collectRecentSessionHistoryIds`
    /// (docs/openclaw/MAINTENANCE.md §3.3 4b).
    pub fn retains_windows_of(&self, key: &str) -> Result<bool> {
        use rusqlite::OptionalExtension;
        let sql = format!(
            "SELECT pinned OR recent OR ((archived = 1 OR coalesce(action, -1) IN ({}, {}, {})) \
               AND NOT ({})) \
             FROM planned WHERE key = ?1 AND (action IS NULL OR action IN ({0}, {1}, {2}))",
            PruneAction::ArchiveDashboard.code(),
            PruneAction::ArchiveAge.code(),
            PruneAction::ArchiveCap.code(),
            evictable(),
        );
        let kept: Option<bool> = self
            .conn
            .prepare_cached(&sql)
            .and_then(|mut s| s.query_row([key], |r| r.get(0)).optional())
            .at(&self.at)?;
        Ok(kept.unwrap_or(false))
    }

    /// The sessions the disk budget may delete after the plan, in its order: archived by the
    /// cap (before, or by this plan at `now`) and preserved by no rule, by `archived_at`, then
    /// key (`isSessionEntryDiskBudgetEvictable`, docs/openclaw/MAINTENANCE.md §3.3 4d).
    pub fn budget_evictable(&self, now: i64) -> Result<Vec<String>> {
        let sql = format!(
            "SELECT key FROM planned WHERE {} \
             ORDER BY CASE WHEN archived = 1 THEN archived_at ELSE ?1 END, key",
            evictable()
        );
        let mut stmt = self.conn.prepare_cached(&sql).at(&self.at)?;
        let rows = stmt
            .query_map([now], |r| r.get::<_, String>(0))
            .at(&self.at)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().at(&self.at)
    }

    /// Record a session id that a session kept by this plan refers to (`--artifacts`).
    pub fn keep_session_id(&mut self, id: &str) -> Result<()> {
        self.conn
            .prepare_cached("INSERT OR IGNORE INTO kept_id (id) VALUES (?1)")
            .and_then(|mut s| s.execute([id]))
            .at(&self.at)?;
        Ok(())
    }

    pub fn keeps_session_id(&self, id: &str) -> Result<bool> {
        self.conn
            .prepare_cached("SELECT 1 FROM kept_id WHERE id = ?1")
            .and_then(|mut s| s.exists([id]))
            .at(&self.at)
    }

    /// The planned actions as a JSON array, written as they are read.
    pub fn items(&self) -> PlannedList<'_> {
        PlannedList {
            plan: self,
            filter: ActionFilter::All,
            keys_only: false,
        }
    }

    /// The keys of the planned actions the filter admits, as a JSON array.
    pub fn keys(&self, filter: ActionFilter) -> PlannedList<'_> {
        PlannedList {
            plan: self,
            filter,
            keys_only: true,
        }
    }
}

/// A view of a plan that serializes as a sequence without collecting it.
pub struct PlannedList<'a> {
    plan: &'a PrunePlan,
    filter: ActionFilter,
    keys_only: bool,
}

impl Serialize for PlannedList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let each = |emit: &mut dyn FnMut(PruneItem) -> Result<()>| {
            self.plan.for_each(self.filter, |item| -> Result<_> {
                emit(item)?;
                Ok(ControlFlow::Continue(()))
            })
        };
        if self.keys_only {
            serialize_visited(serializer, |emit: &mut dyn FnMut(String) -> Result<()>| {
                each(&mut |item| emit(item.session_key))
            })
        } else {
            serialize_visited(serializer, each)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The planner as it was written over a vector (and as OpenClaw's reads): the oracle the
    /// SQL plan must equal.
    fn plan_in_memory(
        rows: &mut [PlannerRow],
        settings: &MaintenanceSettings,
        now: i64,
    ) -> (Vec<(String, PruneAction)>, PruneCounts) {
        rows.sort_unstable_by(|a, b| a.key.cmp(&b.key));
        let rows = &*rows;
        let mut counts = PruneCounts {
            before_count: rows.len(),
            ..Default::default()
        };
        let mut archived: Vec<bool> = rows.iter().map(|r| r.archived).collect();
        let mut removed = vec![false; rows.len()];
        let mut items = Vec::new();
        let item = |i: usize, action| (rows[i].key.to_string(), action);
        let keep = |i: usize, archived: &[bool], removed: &[bool]| {
            archived[i] || removed[i] || rows[i].preserved
        };
        for (i, r) in rows.iter().enumerate() {
            if let Some(action) = r.fix {
                removed[i] = true;
                match action {
                    PruneAction::PruneMissing => counts.missing += 1,
                    _ => counts.dm_scope_retired += 1,
                }
                items.push(item(i, action));
            }
        }
        // Steps 1 to 3 visit OpenClaw's age candidates in its order: oldest `updatedAt` first,
        // ties to the larger key.
        let mut aged: Vec<usize> = (0..rows.len()).collect();
        aged.sort_by(|&a, &b| {
            rows[a]
                .updated_at
                .cmp(&rows[b].updated_at)
                .then_with(|| rows[b].key.cmp(&rows[a].key))
        });
        let unarchived = (0..rows.len())
            .filter(|i| !rows[*i].archived && !removed[*i])
            .count();
        if unarchived as i64 > settings.max_entries {
            for &i in &aged {
                if !keep(i, &archived, &removed)
                    && rows[i].model_run
                    && rows[i].updated_at < now - MODEL_RUN_PRUNE_AFTER_MS
                {
                    removed[i] = true;
                    counts.model_run_pruned += 1;
                    items.push(item(i, PruneAction::PruneModelRun));
                }
            }
        }
        if let Some(after) = settings.archive_dashboard_after_ms {
            for &i in &aged {
                let a = rows[i].activity_at;
                if rows[i].dashboard && !keep(i, &archived, &removed) && a > 0 && a < now - after {
                    archived[i] = true;
                    counts.archived += 1;
                    items.push(item(i, PruneAction::ArchiveDashboard));
                }
            }
        }
        if let Some(after) = settings.prune_after_ms {
            for &i in &aged {
                if !keep(i, &archived, &removed) && rows[i].updated_at < now - after {
                    if rows[i].synthetic {
                        removed[i] = true;
                        counts.pruned += 1;
                        items.push(item(i, PruneAction::PruneStale));
                    } else {
                        archived[i] = true;
                        counts.archived += 1;
                        items.push(item(i, PruneAction::ArchiveAge));
                    }
                }
            }
        }
        let live = (0..rows.len())
            .filter(|i| !archived[*i] && !removed[*i])
            .count();
        let overflow = live as i64 - settings.max_entries.max(0);
        if overflow > 0 {
            let mut eligible: Vec<usize> = (0..rows.len())
                .filter(|i| !archived[*i] && !removed[*i] && !rows[*i].preserved)
                .collect();
            eligible.reverse();
            eligible.sort_by_key(|i| rows[*i].activity_at);
            for i in eligible.into_iter().take(overflow as usize) {
                counts.capped += 1;
                if rows[i].synthetic {
                    removed[i] = true;
                    items.push(item(i, PruneAction::PruneCap));
                } else {
                    archived[i] = true;
                    counts.cap_archived += 1;
                    items.push(item(i, PruneAction::ArchiveCap));
                }
            }
        }
        counts.after_count = rows.len() - removed.iter().filter(|r| **r).count();
        (items, counts)
    }

    fn planned(rows: &[PlannerRow], settings: &MaintenanceSettings, now: i64) -> PrunePlan {
        let mut b = PlanBuilder::new().unwrap();
        for r in rows {
            b.push(r).unwrap();
        }
        b.plan(settings, now, PruneRules::Current).unwrap()
    }

    fn listed(plan: &PrunePlan, filter: ActionFilter) -> Vec<(String, PruneAction)> {
        let mut out = Vec::new();
        plan.for_each(filter, |i| -> Result<_> {
            out.push((i.session_key, i.action));
            Ok(ControlFlow::Continue(()))
        })
        .unwrap();
        out
    }

    fn row() -> impl Strategy<Value = PlannerRow> {
        // Few distinct times, so that ties (ordered by key) are common.
        ("[a-e]{1,3}", 0i64..6, 0i64..6, any::<[bool; 6]>()).prop_map(
            |(key, updated_at, activity, f)| PlannerRow {
                key: key.into(),
                updated_at: updated_at * 10,
                activity_at: (updated_at.max(activity)) * 10,
                archived: f[0],
                preserved: f[1],
                synthetic: f[2] || f[3],
                model_run: f[3],
                dashboard: f[4] && !f[3],
                fix: (f[5] && f[1]).then_some(if f[2] {
                    PruneAction::PruneMissing
                } else {
                    PruneAction::RetireDmScope
                }),
                ..Default::default()
            },
        )
    }

    fn settings() -> impl Strategy<Value = MaintenanceSettings> {
        (
            0i64..12,
            proptest::option::of(1i64..6),
            proptest::option::of(1i64..6),
        )
            .prop_map(|(max_entries, prune, dash)| MaintenanceSettings {
                mode: "enforce".into(),
                prune_after_ms: prune.map(|p| p * 10),
                archive_dashboard_after_ms: dash.map(|d| d * 10),
                max_entries,
                preserve_recent_ms: None,
                reset_archive_retention_ms: None,
                max_disk_bytes: None,
                high_water_bytes: None,
                max_disk_bytes_given: false,
            })
    }

    proptest! {
        #[test]
        fn the_sql_plan_equals_the_in_memory_plan(
            rows in proptest::collection::btree_map("[a-e]{1,3}", row(), 0..40),
            settings in settings(),
            now in 0i64..90,
        ) {
            let now = now + MODEL_RUN_PRUNE_AFTER_MS - 40;
            let mut rows: Vec<PlannerRow> = rows
                .into_iter()
                .map(|(k, mut r)| { r.key = k.into(); r })
                .collect();
            let plan = planned(&rows, &settings, now);
            let (items, counts) = plan_in_memory(&mut rows, &settings, now);
            prop_assert_eq!(plan.counts(), &counts);
            prop_assert_eq!(plan.len(), items.len());
            prop_assert_eq!(listed(&plan, ActionFilter::All), items.clone());
            let removals: Vec<_> = items.iter().filter(|i| i.1.archive_reason().is_none()).cloned().collect();
            prop_assert_eq!(listed(&plan, ActionFilter::Removals), removals.clone());
            for (key, _) in &removals {
                prop_assert!(plan.removes(key).unwrap());
            }
        }
    }

    /// Enough rows to overflow the plan's page cache, so that the table and the cap's sort
    /// spill to the temporary file.
    #[test]
    fn a_plan_larger_than_its_cache_equals_the_in_memory_plan() {
        const DAY: i64 = MODEL_RUN_PRUNE_AFTER_MS;
        let mut rows: Vec<PlannerRow> = (0..30_000u32)
            .map(|i| {
                let h = i.wrapping_mul(2_654_435_761);
                PlannerRow {
                    key: format!("agent:main:explicit:{:08x}-{i}", h).into(),
                    updated_at: i64::from(h % 1000) * DAY / 500,
                    activity_at: i64::from(h % 1000 + (h >> 20) % 50) * DAY / 500,
                    archived: h % 17 == 0,
                    preserved: h % 13 == 0,
                    synthetic: h % 5 == 0,
                    model_run: h % 25 == 0,
                    dashboard: h % 7 == 0,
                    fix: None,
                    ..Default::default()
                }
            })
            .collect();
        let settings = MaintenanceSettings {
            mode: "enforce".into(),
            prune_after_ms: Some(DAY * 3 / 2),
            archive_dashboard_after_ms: Some(DAY * 6 / 5),
            max_entries: 2_000,
            preserve_recent_ms: None,
            reset_archive_retention_ms: None,
            max_disk_bytes: None,
            high_water_bytes: None,
            max_disk_bytes_given: false,
        };
        let now = 2 * DAY;
        let plan = planned(&rows, &settings, now);
        let (items, counts) = plan_in_memory(&mut rows, &settings, now);
        // Every step plans something.
        assert!(
            counts.model_run_pruned > 100
                && counts.pruned > 100
                && counts.archived > 1_000
                && counts.cap_archived > 1_000
                && counts.capped > counts.cap_archived,
            "{counts:?}"
        );
        assert_eq!(plan.counts(), &counts);
        assert_eq!(listed(&plan, ActionFilter::All), items);
    }

    #[test]
    fn lists_serialize_as_arrays_without_collecting() {
        let r = |key: &str, updated_at, synthetic| PlannerRow {
            key: key.into(),
            updated_at,
            activity_at: updated_at,
            archived: false,
            preserved: false,
            synthetic,
            model_run: false,
            dashboard: false,
            fix: None,
            ..Default::default()
        };
        let settings = MaintenanceSettings {
            mode: "enforce".into(),
            prune_after_ms: Some(100),
            archive_dashboard_after_ms: None,
            max_entries: 1,
            preserve_recent_ms: None,
            reset_archive_retention_ms: None,
            max_disk_bytes: None,
            high_water_bytes: None,
            max_disk_bytes_given: false,
        };
        let plan = planned(
            &[
                r("b", 10, false),
                r("a", 10, true),
                r("c", 500, false),
                r("d", 400, false),
            ],
            &settings,
            300,
        );
        assert_eq!(
            serde_json::to_value(plan.items()).unwrap(),
            // Both of age 10: the larger key first, as OpenClaw reads its age candidates.
            serde_json::json!([
                {"sessionKey": "b", "action": "archive-age"},
                {"sessionKey": "a", "action": "prune-stale"},
                {"sessionKey": "d", "action": "archive-cap"},
            ])
        );
        assert_eq!(
            serde_json::to_value(plan.keys(ActionFilter::Archives)).unwrap(),
            serde_json::json!(["b", "d"])
        );
        assert_eq!(
            serde_json::to_value(plan.keys(ActionFilter::Removals)).unwrap(),
            serde_json::json!(["a"])
        );
        assert_eq!(plan.counts().after_count, 3);
    }

    /// 2026.8.2's rules: a stale entry is removed whether machine-made or not; a stale
    /// dashboard is archived even when another rule preserves it, and keeps counting toward
    /// the cap; the cap removes the oldest `updatedAt` (ties: the later key), newest first.
    #[test]
    fn the_rules_of_2026_8() {
        let r = |key: &str, updated_at, preserved, dashboard, archived| PlannerRow {
            key: key.into(),
            updated_at,
            activity_at: updated_at,
            archived,
            preserved,
            dashboard,
            ..Default::default()
        };
        let settings = MaintenanceSettings {
            mode: "enforce".into(),
            prune_after_ms: Some(100),
            archive_dashboard_after_ms: Some(50),
            max_entries: 4,
            preserve_recent_ms: None,
            reset_archive_retention_ms: None,
            max_disk_bytes: None,
            high_water_bytes: None,
            max_disk_bytes_given: false,
        };
        let mut b = PlanBuilder::new().unwrap();
        for row in [
            r("stale", 10, false, false, false),
            r("dash", 220, true, true, false),
            r("old-archived", 5, false, false, true),
            r("p", 250, false, false, false),
            r("q", 250, false, false, false),
            r("n", 240, false, false, false),
            r("kept", 290, true, false, false),
        ] {
            b.push(&row).unwrap();
        }
        let plan = b.plan(&settings, 300, PruneRules::OpenClaw2026_8).unwrap();
        // Left after age: dash, old-archived, p, q, n, kept (6 over 4): the cap takes n, then
        // q of the two at 250, and applies them newest first.
        assert_eq!(
            serde_json::to_value(plan.items()).unwrap(),
            serde_json::json!([
                {"sessionKey": "dash", "action": "archive-dashboard-unreasoned"},
                {"sessionKey": "stale", "action": "prune-stale"},
                {"sessionKey": "q", "action": "prune-cap"},
                {"sessionKey": "n", "action": "prune-cap"},
            ])
        );
        let c = plan.counts();
        assert_eq!(
            (
                c.archived,
                c.pruned,
                c.capped,
                c.cap_archived,
                c.after_count
            ),
            (1, 1, 2, 0, 4)
        );
    }

    fn plan_of(
        rows: &[PlannerRow],
        settings: &MaintenanceSettings,
        rules: PruneRules,
    ) -> Vec<(String, PruneAction)> {
        let mut b = PlanBuilder::new().unwrap();
        for row in rows {
            b.push(row).unwrap();
        }
        listed(&b.plan(settings, 300, rules).unwrap(), ActionFilter::All)
    }

    fn ordinary(key: &str, updated_at: i64) -> PlannerRow {
        PlannerRow {
            key: key.into(),
            updated_at,
            activity_at: updated_at,
            ..Default::default()
        }
    }

    fn settings_of(max_entries: i64) -> MaintenanceSettings {
        MaintenanceSettings {
            mode: "enforce".into(),
            prune_after_ms: Some(100),
            archive_dashboard_after_ms: Some(50),
            max_entries,
            preserve_recent_ms: None,
            reset_archive_retention_ms: None,
            max_disk_bytes: None,
            high_water_bytes: None,
            max_disk_bytes_given: false,
        }
    }

    /// 2026.9.1's rules select as 2026.8.2's but remove the stale entries oldest first, and its
    /// cap reads its victims by `updatedAt`, then key: ties go to the earlier key, and a
    /// dashboard the run archives takes a victim's place.
    #[test]
    fn the_rules_of_2026_9_1() {
        use PruneAction::*;
        let k = |v: &[(&str, PruneAction)]| -> Vec<(String, PruneAction)> {
            v.iter().map(|(k, a)| (k.to_string(), *a)).collect()
        };
        let dash = PlannerRow {
            dashboard: true,
            ..ordinary("dash", 220)
        };
        let rows = [
            ordinary("stale-a", 20),
            ordinary("stale-b", 10),
            dash,
            ordinary("n", 240),
            ordinary("p", 250),
            ordinary("q", 250),
        ];
        // Left after age: dash (archived), n, p, q: one over 3.
        assert_eq!(
            plan_of(&rows, &settings_of(3), PruneRules::OpenClaw2026_8),
            k(&[
                ("dash", ArchiveDashboardUnreasoned),
                ("stale-a", PruneStale),
                ("stale-b", PruneStale),
                ("n", PruneCap),
            ])
        );
        assert_eq!(
            plan_of(&rows, &settings_of(3), PruneRules::OpenClaw2026_9_1),
            k(&[
                ("dash", ArchiveDashboardUnreasoned),
                ("stale-b", PruneStale),
                ("stale-a", PruneStale),
            ])
        );
        // Without the dashboard, two over 1: n and a tie at 250.
        let rows = [ordinary("n", 240), ordinary("p", 250), ordinary("q", 250)];
        assert_eq!(
            plan_of(&rows, &settings_of(1), PruneRules::OpenClaw2026_8),
            k(&[("q", PruneCap), ("n", PruneCap)])
        );
        assert_eq!(
            plan_of(&rows, &settings_of(1), PruneRules::OpenClaw2026_9_1),
            k(&[("p", PruneCap), ("n", PruneCap)])
        );
    }

    /// 2026.9.2's rules: an ordinary stale entry removed (2026.9.5 archives it), a stale
    /// dashboard archived with its reason even when another rule preserves it, and the cap
    /// archives as 2026.9.5's.
    #[test]
    fn the_rules_of_2026_9_2() {
        use PruneAction::*;
        let rows = [
            ordinary("cli", 10),
            PlannerRow {
                dashboard: true,
                preserved: true,
                ..ordinary("dash", 220)
            },
            ordinary("n", 240),
            ordinary("p", 250),
            PlannerRow {
                synthetic: true,
                ..ordinary("s", 245)
            },
        ];
        let k = |v: &[(&str, PruneAction)]| -> Vec<(String, PruneAction)> {
            v.iter().map(|(k, a)| (k.to_string(), *a)).collect()
        };
        assert_eq!(
            plan_of(&rows, &settings_of(1), PruneRules::OpenClaw2026_9_2),
            k(&[
                ("dash", ArchiveDashboard),
                ("cli", PruneStale),
                ("n", ArchiveCap),
                ("s", PruneCap),
            ])
        );
        assert_eq!(
            plan_of(&rows, &settings_of(1), PruneRules::Current),
            // The dashboard stays unarchived and counts: one more over the cap.
            k(&[
                ("cli", ArchiveAge),
                ("n", ArchiveCap),
                ("s", PruneCap),
                ("p", ArchiveCap),
            ])
        );
    }
}
