//! `migrate acpx`: move the ACPX plugin's state from the old default `<workspace>/state` to
//! `<state>/acpx` (tests/reference/openclaw/FORMAT.md §i). Never relocates an explicit `stateDir`,
//! only fills an empty destination, only moves a directory that holds `sessions/*.json` records,
//! records its progress in plugin state (`completed:false`, then `true`), publishes without
//! overwriting, and never deletes the old copy.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result, ResultExt};
use crate::paths::StateLayout;
use crate::store::DatabaseRole;
use crate::writer::WritableDb;

pub use crate::status::{
    ACPX_ENTRY_KEY as ENTRY_KEY, ACPX_NAMESPACE as NAMESPACE, ACPX_PLUGIN_ID as PLUGIN_ID,
};

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AcpxPlan {
    pub source: PathBuf,
    pub destination: PathBuf,
    pub records: usize,
    pub files: usize,
    pub bytes: u64,
    /// An earlier run published the copy and died before marking the move done: only the
    /// marker is left to write.
    pub resume: bool,
    /// Why there is nothing to move (no records at the source, or the move already
    /// completed): "nothing to do" is a success, not an error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nothing_to_do: Option<String>,
}

/// Where OpenClaw's agents keep their workspace: `--workspace`, the config, or `<state>/workspace`.
pub fn workspace(layout: &StateLayout, flag: Option<&Path>) -> PathBuf {
    if let Some(w) = flag {
        return w.to_path_buf();
    }
    let configured = layout.config.workspace(layout.default_agent().as_str());
    match configured {
        Some(ws) => match (ws.strip_prefix("~/"), &layout.home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ => PathBuf::from(ws),
        },
        None => layout.state_dir.join("workspace"),
    }
}

fn dir_is_empty(p: &Path) -> bool {
    std::fs::read_dir(p)
        .map(|mut d| d.next().is_none())
        .unwrap_or(true)
}

fn walk(dir: &Path, files: &mut usize, bytes: &mut u64) -> Result<()> {
    for ent in std::fs::read_dir(dir).at(dir)? {
        let ent = ent.at(dir)?;
        let ft = ent.file_type().at(ent.path())?;
        if ft.is_symlink() {
            return Err(Error::unsafe_path(format!(
                "{} is a symbolic link; ACPX state is not moved through links",
                ent.path().display()
            )));
        }
        if ft.is_dir() {
            walk(&ent.path(), files, bytes)?;
        } else if !ft.is_file() {
            // A FIFO (an agent can make one there) would block the copy under custody.
            return Err(crate::fsutil::not_regular(&ent.path(), ft));
        } else {
            *files += 1;
            *bytes += ent.metadata().at(ent.path())?.len();
        }
    }
    Ok(())
}

/// What the migration would do, or why it must not run.
pub fn plan(layout: &StateLayout, workspace_flag: Option<&Path>) -> Result<AcpxPlan> {
    if let Some(explicit) = layout.config.acpx_state_dir() {
        return Err(Error::Conflict {
            message: format!("plugins.entries.acpx.config.stateDir is set to {explicit}; an explicit state dir is never relocated"),
            hint: None,
        });
    }
    let source = match workspace_flag {
        Some(w) => w.join("state"),
        None => {
            let mut found = crate::status::acpx_pending(layout);
            match found.len() {
                0 => workspace(layout, None).join("state"),
                1 => found.remove(0),
                _ => {
                    return Err(Error::invalid(format!(
                        "several workspaces hold ACPX state ({}); pick one with --workspace",
                        found
                            .iter()
                            .map(|p| p.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )))
                }
            }
        }
    };
    let destination = layout.state_dir.join("acpx");
    let records = std::fs::read_dir(source.join("sessions"))
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
                .count()
        })
        .unwrap_or(0);
    let nothing = |why: String| AcpxPlan {
        source: source.clone(),
        destination: destination.clone(),
        records,
        files: 0,
        bytes: 0,
        resume: false,
        nothing_to_do: Some(why),
    };
    if records == 0 {
        return Ok(nothing(format!(
            "no ACPX state to adopt: {} holds no sessions/*.json records",
            source.display()
        )));
    }
    let marker = read_marker(layout)?;
    if marker
        .as_ref()
        .is_some_and(|(dest, completed)| *dest == destination && *completed)
    {
        return Ok(nothing(format!(
            "the ACPX state was already moved to {}; the old copy {} is still there",
            destination.display(),
            source.display()
        )));
    }
    let resume = !dir_is_empty(&destination)
        && marker.is_some_and(|(dest, completed)| dest == destination && !completed)
        && same_tree(&source, &destination)?;
    if !resume && !dir_is_empty(&destination) {
        return Err(Error::TargetExists {
            message: format!("{} is not empty; the ACPX state is not moved over it", destination.display()),
            hint: Some(format!("inspect both directories; to keep using the old one, pin plugins.entries.acpx.config.stateDir to {}", source.display())),
        });
    }
    let (mut files, mut bytes) = (0, 0);
    walk(&source, &mut files, &mut bytes)?;
    Ok(AcpxPlan {
        source,
        destination,
        records,
        files,
        bytes,
        resume,
        nothing_to_do: None,
    })
}

/// The migration marker: its destination, and whether the move completed.
fn read_marker(layout: &StateLayout) -> Result<Option<(PathBuf, bool)>> {
    crate::status::acpx_marker(layout)
}

/// The same files with the same bytes under both directories.
fn same_tree(a: &Path, b: &Path) -> Result<bool> {
    fn listing(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, bool)>) -> Result<()> {
        for ent in std::fs::read_dir(dir).at(dir)? {
            let ent = ent.at(dir)?;
            let is_dir = ent.file_type().at(ent.path())?.is_dir();
            let rel = ent
                .path()
                .strip_prefix(root)
                .unwrap_or(&ent.path())
                .to_path_buf();
            out.push((rel, is_dir));
            if is_dir {
                listing(root, &ent.path(), out)?;
            }
        }
        Ok(())
    }
    let (mut la, mut lb) = (Vec::new(), Vec::new());
    listing(a, a, &mut la)?;
    listing(b, b, &mut lb)?;
    la.sort();
    lb.sort();
    if la != lb {
        return Ok(false);
    }
    for (rel, is_dir) in &la {
        if !is_dir
            && crate::fsutil::read_regular(&a.join(rel))?
                != crate::fsutil::read_regular(&b.join(rel))?
        {
            return Ok(false);
        }
    }
    Ok(true)
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
        .create(to)
        .at(to)?;
    for ent in std::fs::read_dir(from).at(from)? {
        let ent = ent.at(from)?;
        let dest = to.join(ent.file_name());
        if ent.file_type().at(ent.path())?.is_dir() {
            copy_tree(&ent.path(), &dest)?;
        } else {
            let mut out = crate::fsutil::create_new_private(&dest)?;
            let mut input = crate::fsutil::open_regular(&ent.path())?;
            std::io::copy(&mut input, &mut out).at(&dest)?;
            out.sync_all().at(&dest)?;
        }
    }
    std::fs::File::open(to).and_then(|d| d.sync_all()).at(to)
}

fn set_marker(layout: &StateLayout, destination: &Path, completed: bool, now: i64) -> Result<()> {
    let path = layout.state_db();
    let db = WritableDb::open_role(&layout.state_dir, &path, DatabaseRole::Global)?;
    let value = serde_json::json!({"destination": destination, "completed": completed}).to_string();
    crate::store::db::state::set_plugin_state(
        &db.conn, PLUGIN_ID, NAMESPACE, ENTRY_KEY, &value, now,
    )
    .at(&path)?;
    Ok(())
}

const STAGING_PREFIX: &str = ".acpx-migrate-";

/// Staging copies of runs that were killed before they could remove them. Under custody no
/// other run is alive, so every one is dead: partial copies of a source that is still there.
fn remove_dead_staging(state_dir: &Path) -> Result<()> {
    for ent in std::fs::read_dir(state_dir).at(state_dir)?.flatten() {
        if ent
            .file_name()
            .to_string_lossy()
            .starts_with(STAGING_PREFIX)
        {
            std::fs::remove_dir_all(ent.path()).at(ent.path())?;
        }
    }
    Ok(())
}

/// A failed move, said as OpenClaw's plugin documentation says it: the old location stays in
/// use, and how to pin it.
fn not_moved(e: &Error, source: &Path) -> Error {
    let message = format!(
        "ACPX state was not moved ({e}); the old location {} stays in use",
        source.display()
    );
    let hint = format!(
        "pin plugins.entries.acpx.config.stateDir to {} to keep using it, or fix the cause and run the migration again",
        source.display()
    );
    match e {
        Error::Io { source: io, .. } => Error::Io {
            path: source.to_path_buf(),
            source: std::io::Error::new(io.kind(), format!("{message}; {hint}")),
        },
        _ => Error::Conflict {
            message,
            hint: Some(hint),
        },
    }
}

/// Apply the plan (the caller holds custody). Returns the old directory, which stays.
pub fn apply(layout: &StateLayout, plan: &AcpxPlan, now: i64) -> Result<PathBuf> {
    remove_dead_staging(&layout.state_dir)?;
    if plan.resume {
        set_marker(layout, &plan.destination, true, now)?;
        return Ok(plan.source.clone());
    }
    set_marker(layout, &plan.destination, false, now)?;
    crate::writer::crash_point("acpx-before-copy");
    let staging = layout
        .state_dir
        .join(format!("{STAGING_PREFIX}{}", uuid::Uuid::new_v4()));
    let published = (|| {
        copy_tree(&plan.source, &staging)?;
        crate::writer::crash_point("acpx-before-publish");
        if plan.destination.is_dir() && dir_is_empty(&plan.destination) {
            std::fs::remove_dir(&plan.destination).at(&plan.destination)?;
        }
        crate::fsutil::rename_noreplace(&staging, &plan.destination)
            .map_err(|e| Error::io(&plan.destination, e))
    })();
    if let Err(e) = published {
        let _ = std::fs::remove_dir_all(&staging);
        // A destination that appeared meanwhile is a conflict; a full disk or a failing read
        // stays the I/O error it is (exit 1, not a guard's refusal).
        let appeared = matches!(&e, Error::Io { source, .. }
            if source.kind() == std::io::ErrorKind::AlreadyExists);
        if !appeared {
            // Any failure (a full disk, a failing read): the old location stays in use, and
            // the admin is told how to keep it so; the marker stays `completed:false`, which
            // the next run resumes or redoes and `status`/`doctor` report.
            return Err(not_moved(&e, &plan.source));
        }
        return Err(Error::Conflict {
            message: format!(
                "ACPX state was not moved ({e}); the old location {} stays in use",
                plan.source.display()
            ),
            hint: Some(format!(
                "pin plugins.entries.acpx.config.stateDir to {} until the move succeeds",
                plan.source.display()
            )),
        });
    }
    if let Ok(d) = std::fs::File::open(&layout.state_dir) {
        let _ = d.sync_all();
    }
    crate::writer::crash_point("acpx-before-marker");
    set_marker(layout, &plan.destination, true, now)?;
    Ok(plan.source.clone())
}
