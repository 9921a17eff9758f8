//! `migrate legacy`: import legacy `sessions.json` stores into SQLite as OpenClaw's
//! `doctor --session-sqlite import` does. A database that already exists is snapshotted
//! first (required); sources are moved into the import archive, never deleted.

use std::path::PathBuf;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{count, PlanGroup, PlanItem, PlanSummary};
use super::targets::{check_owned, Selection};
use crate::backup::SnapshotSource;
use crate::error::{Error, Result};
use crate::migrate::import::{
    self as legacy, AgentImportPlan, AgentImportReport, Applied, StoppedAgent,
};
use crate::paths::{AgentPaths, StateLayout};
use crate::store::db::create::ReleaseSchema;

pub use super::release_guard::schema_of_release;
use crate::units::format_bytes;

pub struct MigrateLegacyOp {
    pub selection: Selection,
    /// A dry run also reads every transcript, to name each line the import would stop at.
    pub scan_transcripts: bool,
    /// `--schema-of-release`: import at this release's schema rather than the owner's.
    pub schema_of_release: Option<&'static ReleaseSchema>,
    agents: Vec<AgentPaths>,
}

pub struct MigrateLegacyPlan {
    pub targets: Vec<AgentImportPlan>,
}

pub struct MigrateLegacyReport {
    /// One per target, in plan order, without their move lists (`moved` says whether the
    /// sources moved; the list is the plan's).
    pub agents: Vec<(AgentImportReport<'static>, bool)>,
    pub manifest: PathBuf,
    /// Interrupted archive moves an earlier run left, finished before planning.
    pub recovered: Vec<PathBuf>,
}

impl MigrateLegacyOp {
    pub fn new(selection: Selection) -> Self {
        MigrateLegacyOp {
            selection,
            scan_transcripts: false,
            schema_of_release: None,
            agents: Vec::new(),
        }
    }
}

/// One line on what importing `t` means.
pub fn describe(t: &AgentImportPlan) -> Result<String> {
    let counts = t.ledger.counts()?;
    let historical = counts.historical;
    let mut s = format!(
        "{}: {} session(s) from {} ({} transcript(s), {})",
        t.agent_id,
        counts.records - historical,
        t.store_path.display(),
        counts.with_transcript,
        format_bytes(t.transcript_bytes)
    );
    if historical > 0 {
        s.push_str(&format!(
            ", {historical} orphan transcript(s) as archived sessions"
        ));
    }
    let unreferenced = t.ledger.unreferenced_count()?;
    if unreferenced > 0 {
        s.push_str(&format!(", {unreferenced} unreferenced file(s) to archive"));
    }
    if !t.database_exists {
        s.push_str(&format!("; creates {}", t.sqlite_path.display()));
        if !std::ptr::eq(t.release, ReleaseSchema::current()) {
            s.push_str(&format!(
                " at schema {}, as OpenClaw {} creates it",
                t.release.agent_schema, t.release.version
            ));
        }
    }
    Ok(s)
}

/// The agents whose database the import creates.
fn creating(targets: &[AgentImportPlan]) -> Vec<&str> {
    targets
        .iter()
        .filter(|t| !t.database_exists)
        .map(|t| t.agent_id.as_str())
        .collect()
}

/// What an import a signal stopped had done and had not, agent by agent.
pub fn stopped_import(agents: &[StoppedAgent], manifest: &std::path::Path) -> String {
    let each: Vec<String> = agents
        .iter()
        .map(|a| {
            let what = match (a.imported, a.moved) {
                (true, true) => "imported, sources moved".to_string(),
                (true, false) if a.validation_failed => {
                    "imported, validation failed: sources stay".to_string()
                }
                (true, false) => "imported, sources not moved yet".to_string(),
                (false, _) if a.sessions_written > 0 => format!(
                    "{} written, the rest not yet",
                    count(a.sessions_written, "session")
                ),
                (false, _) => "not begun".to_string(),
            };
            format!("{} ({what})", a.agent_id)
        })
        .collect();
    format!(
        "import stopped by a signal: {}; every database holds whole sessions and every source is in place (run manifest {}); run the same command again to finish",
        each.join(", "),
        manifest.display()
    )
}

impl Operation for MigrateLegacyOp {
    type Plan = MigrateLegacyPlan;
    type Report = MigrateLegacyReport;

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::Required;
    /// An agent database of the release that owns the state dir is imported into as that
    /// release's own import does (`release_guard::import_release` says which release).
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] =
        crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        self.agents.clone()
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        self.agents = self.selection.whole_agents(layout, "migrate legacy")?;
        Ok(())
    }

    fn recover(&mut self, _layout: &StateLayout, hooks: &dyn Hooks) -> Result<()> {
        for p in legacy::recover_interrupted(&self.agents)? {
            hooks.note(format!(
                "finished the interrupted archive move of {}",
                p.display()
            ));
        }
        Ok(())
    }

    fn plan(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<MigrateLegacyPlan> {
        let mut targets = legacy::plan(&self.agents, crate::units::now_ms())?;
        // The release whose schema the import writes; a refusal is the check step's.
        if let Ok(release) = super::release_guard::import_release(
            layout,
            &creating(&targets),
            self.schema_of_release,
        ) {
            for t in &mut targets {
                t.release = release;
            }
        }
        if self.scan_transcripts && !targets.is_empty() {
            let progress = hooks.progress();
            progress.start(
                "reading transcripts",
                Some(targets.iter().map(|t| t.transcript_bytes).sum()),
            );
            for t in &mut targets {
                let found = legacy::scan_transcripts(t, progress)?;
                t.issues.extend(found);
            }
            progress.finish();
        }
        // The same places the import writes, refused before any snapshot.
        for t in &targets {
            let sessions = t.store_path.parent().unwrap_or(&t.sessions_dir);
            check_owned(
                layout,
                [sessions, t.archive_dir.as_path(), t.sqlite_path.as_path()],
            )?;
        }
        if !targets.is_empty() {
            check_owned(layout, [layout.migration_runs_dir().as_path()])?;
        }
        Ok(MigrateLegacyPlan { targets })
    }

    /// Before custody: the agents this import would create, beside the release that owns the
    /// state dir (the databases it would append to are checked at the check step).
    fn check_early(&self, layout: &StateLayout) -> Result<()> {
        let creates: Vec<&str> = self
            .agents
            .iter()
            .filter(|a| !a.db.exists() && a.legacy_index.as_ref().is_some_and(|p| p.is_file()))
            .map(|a| a.id.as_str())
            .collect();
        if creates.is_empty() && self.schema_of_release.is_none() {
            return Ok(());
        }
        super::release_guard::import_release(layout, &creates, self.schema_of_release).map(drop)
    }

    fn check(&self, layout: &StateLayout, plan: &MigrateLegacyPlan) -> Result<()> {
        if plan.targets.is_empty() {
            return Ok(());
        }
        let release = super::release_guard::import_release(
            layout,
            &creating(&plan.targets),
            self.schema_of_release,
        )?;
        // A database the import appends to is of that release's schema: the owner's
        // databases are (the release opens them as they are), and a chosen release must open
        // every database as it is.
        ensure(
            plan.targets
                .iter()
                .all(|t| std::ptr::eq(t.release, release)),
            || "the release of the import changed since it was planned".to_string(),
        )
    }

    fn summarize(&self, plan: &MigrateLegacyPlan, limit: usize) -> Result<PlanSummary> {
        let mut sessions = 0;
        for t in &plan.targets {
            sessions += t.ledger.counts()?.records;
        }
        let mut summary = PlanSummary::new(format!(
            "import {} of {} into SQLite and move the legacy files into session-sqlite-import-archive/",
            count(sessions, "session"),
            count(plan.targets.len(), "agent")
        ));
        for t in &plan.targets {
            let mut group = PlanGroup::new(Some(t.agent_id.clone()));
            group.push(PlanItem::change("import", describe(t)?, None), limit);
            for i in &t.issues {
                group.push(
                    PlanItem::left_alone(&i.code, i.message.clone(), None),
                    limit,
                );
            }
            summary.add(group);
        }
        Ok(summary)
    }

    fn snapshot_sources(
        &self,
        _layout: &StateLayout,
        plan: &MigrateLegacyPlan,
    ) -> Vec<SnapshotSource> {
        plan.targets
            .iter()
            .filter(|t| t.database_exists)
            .map(|t| SnapshotSource::Agent {
                agent_id: t.agent_id.clone(),
                db: t.sqlite_path.clone(),
                sessions_dir: t.sessions_dir.clone(),
            })
            .collect()
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut MigrateLegacyPlan,
        hooks: &dyn Hooks,
    ) -> Result<MigrateLegacyReport> {
        let interruption = hooks.interruption();
        let stop = move || interruption.requested();
        let applied = legacy::apply(
            layout,
            &plan.targets,
            &crate::units::now_ms,
            hooks.progress(),
            &stop,
        )?;
        let (reports, manifest) = match applied {
            Applied::Done(reports, manifest) => (reports, manifest),
            Applied::Stopped { agents, manifest } => {
                hooks.warn(stopped_import(&agents, &manifest).into());
                let states: Vec<_> = agents.iter().map(StoppedAgent::state).collect();
                hooks.stopped_with(serde_json::json!({
                    "agents": states,
                    "manifest": manifest,
                }));
                return Err(Error::Interrupted);
            }
        };
        Ok(MigrateLegacyReport {
            agents: reports.into_iter().map(AgentImportReport::detach).collect(),
            manifest,
            recovered: Vec::new(),
        })
    }

    /// The import validates each agent against its sources before moving them (the report's
    /// `validation`); what is left is that the manifest was written.
    fn verify(&self, _: &StateLayout, _: &Self::Plan, report: &Self::Report) -> Result<()> {
        ensure(report.manifest.is_file(), || {
            format!(
                "the migration manifest {} is missing",
                report.manifest.display()
            )
        })
    }
}
