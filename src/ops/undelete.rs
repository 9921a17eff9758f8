//! `undelete ARCHIVE|SESSION_ID`: a deleted session back from its archive into the live store
//! (`mutate::restore`). Snapshot on request: the change only adds one session's rows, in
//! one transaction, and the archive it reads stays where it is.

use std::path::PathBuf;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{PlanGroup, PlanItem, PlanSummary};
use super::targets::{check_owned_agent, Selection};
use crate::backup::SnapshotSource;
use crate::error::{Error, Result, ResultExt};
use crate::history::{archives_named, pick, ArchivedTranscript};
use crate::mutate::restore::{
    apply_undelete, plan_undelete, AgentSnapshot, UndeletePlan, UndeleteReport,
};
use crate::paths::{AgentPaths, StateLayout};
use crate::store::AgentStore;
use crate::writer::WritableDb;

pub struct UndeleteOp {
    pub selection: Selection,
    /// An archive name, a path to an archive file, or a session id.
    pub words: String,
    pub as_key: Option<String>,
    /// Snapshot repositories searched for the session's entry.
    pub repositories: Vec<PathBuf>,
    pub now: i64,
    found: Option<(AgentPaths, ArchivedTranscript)>,
}

impl UndeleteOp {
    pub fn new(
        selection: Selection,
        words: String,
        as_key: Option<String>,
        repositories: Vec<PathBuf>,
        now: i64,
    ) -> Self {
        UndeleteOp {
            selection,
            words,
            as_key,
            repositories,
            now,
            found: None,
        }
    }
}

pub struct UndeleteOpPlan {
    pub agent: AgentPaths,
    pub plan: UndeletePlan,
}

impl Operation for UndeleteOp {
    type Plan = UndeleteOpPlan;
    type Report = UndeleteReport;

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::OnRequest;
    /// The events are appended as each release stores them (`writer::AgentSchema`),
    /// proven against 2026.8.2, 2026.9.1, 2026.9.4 and 2026.9.5 (reference checks
    /// `undelete_on_release_stores`, `release_writes_of_2026_9_1`, `_9_4`).
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] =
        crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    /// The archive the words name, among the selected agents' archives.
    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        self.found.iter().map(|(p, _)| p.clone()).collect()
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        let mut all: Vec<(AgentPaths, ArchivedTranscript)> = Vec::new();
        for paths in self.selection.agents(layout)? {
            let store = AgentStore::open(paths.clone())?;
            // Only the archives the words may name: pick chooses among them as among all.
            for a in archives_named(&store, &self.words)? {
                all.push((paths.clone(), a));
            }
        }
        let flat: Vec<ArchivedTranscript> = all.iter().map(|(_, a)| a.clone()).collect();
        let chosen = pick(&flat, &self.words)?;
        let i = flat
            .iter()
            .position(|a| a.name == chosen.name && a.agent_id == chosen.agent_id)
            .ok_or_else(|| Error::Internal("archive lost".into()))?;
        self.found = Some(all.swap_remove(i));
        Ok(())
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<UndeleteOpPlan> {
        let (agent, archived) = self
            .found
            .clone()
            .ok_or_else(|| Error::Internal("undelete planned before it was resolved".into()))?;
        check_owned_agent(layout, &agent)?;
        let store = AgentStore::open(agent.clone())?;
        let snapshots = agent_snapshots(&self.repositories, agent.id.as_str());
        let plan = plan_undelete(
            &store,
            &archived,
            self.as_key.as_deref(),
            &layout.state_dir,
            &snapshots,
            self.now,
        )?;
        Ok(UndeleteOpPlan { agent, plan })
    }

    fn summarize(&self, plan: &UndeleteOpPlan, _limit: usize) -> Result<PlanSummary> {
        let p = &plan.plan;
        let mut summary = PlanSummary::new(format!(
            "bring back session {} ({}) from {}",
            p.session_key, p.session_id, p.archive
        ));
        let mut group = PlanGroup::new(Some(p.agent_id.clone()));
        group.push(
            PlanItem::change(
                "undelete",
                p.session_key.clone(),
                Some(format!(
                    "{} events, {}; the archive is kept",
                    p.events,
                    p.entry_source.describe(p.entry_updated_at, self.now)
                )),
            ),
            1,
        );
        summary.add(group);
        Ok(summary)
    }

    fn snapshot_sources(
        &self,
        _layout: &StateLayout,
        plan: &UndeleteOpPlan,
    ) -> Vec<SnapshotSource> {
        vec![SnapshotSource::agent(&plan.agent)]
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut UndeleteOpPlan,
        _hooks: &dyn Hooks,
    ) -> Result<UndeleteReport> {
        let mut db = WritableDb::open_accepting(
            &layout.state_dir,
            &plan.agent.db,
            Self::OLDER_SCHEMAS_WRITTEN,
        )?;
        apply_undelete(&mut db, &plan.plan, self.now)
    }

    fn record_actions(
        &self,
        plan: &UndeleteOpPlan,
        _report: Option<&UndeleteReport>,
    ) -> Vec<crate::oplog::Action> {
        let p = &plan.plan;
        vec![crate::oplog::Action {
            agent_id: p.agent_id.clone(),
            session_key: p.session_key.clone(),
            session_id: Some(p.session_id.clone()),
            action: "undelete".into(),
            archives: vec![p.archive.to_string()],
            ..Default::default()
        }]
    }

    fn not_undoable(&self) -> Option<String> {
        Some("an undelete is taken back by `delete` of the session it brought back".into())
    }

    /// The key names the session again and every event of the archive is stored.
    fn verify(
        &self,
        _: &StateLayout,
        plan: &UndeleteOpPlan,
        report: &UndeleteReport,
    ) -> Result<()> {
        let p = &plan.plan;
        let db = crate::store::ReadOnlyDb::open(&plan.agent.db)?;
        super::targets::ensure_key_names(&db, &p.session_key, &p.session_id)?;
        let stored = crate::store::db::events::count(db.conn(), &p.session_id).at(db.path())?;
        ensure(
            stored as u64 == p.events && report.events == p.events,
            || {
                format!(
                    "{} holds {stored} events, the archive {}",
                    p.session_id, p.events
                )
            },
        )
    }
}

/// The snapshots of `agent_id`'s database in `repositories` (an unreadable repository or
/// manifest is passed over: they are only searched for an older entry).
fn agent_snapshots(repositories: &[PathBuf], agent_id: &str) -> Vec<AgentSnapshot> {
    let mut out = Vec::new();
    for repo in repositories {
        let Ok(list) = crate::backup::list_snapshots(repo) else {
            continue;
        };
        for s in list {
            let Some(m) = s.manifest else { continue };
            if matches!(&m.database, crate::backup::DatabaseManifest::Agent { agent_id: a, .. } if a == agent_id)
            {
                out.push(AgentSnapshot {
                    db: s.path.join(crate::backup::SNAPSHOT_DB),
                    dir: s.path,
                    created_at: m.created_at,
                });
            }
        }
    }
    out
}
