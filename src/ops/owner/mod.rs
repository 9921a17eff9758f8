//! The owner route (issue 48 items 3 and 4; docs/openclaw/RELEASES.md §8): where this tool has
//! not proven its own writes (a store of a newer release), or when asked (`--via-openclaw`), a
//! change is written by the OpenClaw package installed on the host, through its documented
//! plugin SDK (`openclaw/plugin-sdk/session-store-runtime`), run by the `node` on `PATH` with a
//! small script kept here (`write.mjs`). Inside this tool's pipeline: resolve -> plan
//! (read-only) -> check -> show ("written by OpenClaw X's own code, <path>") -> confirm ->
//! snapshot as the operation's policy says -> one run of the script for every change -> read
//! back. A package of another release than the store's owner, no package, or no `node` is
//! refused before anything changes, naming what works.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::pipeline::{Hooks, Operation, Run, RunOptions};
use crate::error::{Error, Result};
use crate::paths::StateLayout;
use crate::store::releases;

/// The script the package's own code runs (see its head comment).
const WRITE_SCRIPT: &str = include_str!("write.mjs");

/// An installed OpenClaw package and the `node` that runs it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenClawPackage {
    /// The package directory (`<prefix>/lib/node_modules/openclaw`).
    pub root: PathBuf,
    /// Its `package.json` version.
    pub version: String,
    /// The `node` found on `PATH`.
    pub node: PathBuf,
}

/// How the refusals name the routes that work, after what went wrong.
fn routes(owner: &str) -> String {
    // One release named ("OpenClaw 2026.9.8"): the version to install.
    let version = owner
        .strip_prefix("OpenClaw ")
        .filter(|v| !v.contains(' '))
        .unwrap_or("VERSION");
    format!(
        "install {owner} (`npm install -g openclaw@{version}` puts `openclaw` on PATH) or name its package with --openclaw PATH; or start its Gateway: the same command then goes through it"
    )
}

fn refused(message: String, owner: &str) -> Error {
    Error::UnsupportedSchema {
        message: format!("{message}; nothing was changed"),
        hint: Some(routes(owner)),
    }
}

/// `name` on `path` (the `PATH` value), as the shell finds it.
fn on_path(name: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The installed package: `explicit` (`--openclaw`: the package directory, or its
/// `openclaw.mjs`), else `openclaw` on `path` as npm links it (a link to
/// `<prefix>/lib/node_modules/openclaw/openclaw.mjs`); and `node` on `path`. `owner` names the
/// store's release for the refusals.
pub fn find_package(
    explicit: Option<&Path>,
    path: Option<&OsStr>,
    owner: &str,
) -> Result<OpenClawPackage> {
    let entry = match explicit {
        Some(p) => p.to_path_buf(),
        None => on_path("openclaw", path).ok_or_else(|| {
            refused(
                "no OpenClaw package is installed here (`openclaw` is not on PATH)".into(),
                owner,
            )
        })?,
    };
    let resolved = std::fs::canonicalize(&entry).map_err(|e| {
        refused(
            format!(
                "the OpenClaw package {} cannot be read ({e})",
                entry.display()
            ),
            owner,
        )
    })?;
    let root = if resolved.is_dir() {
        resolved
    } else {
        resolved.parent().map(Path::to_path_buf).unwrap_or_default()
    };
    let manifest: Option<Value> = std::fs::read(root.join("package.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let version = match &manifest {
        Some(m) if m["name"] == "openclaw" => m["version"].as_str().unwrap_or_default().to_string(),
        _ => {
            return Err(refused(
                format!(
                    "{} is not an installed OpenClaw package (no package.json of `openclaw` in {})",
                    entry.display(),
                    root.display()
                ),
                owner,
            ))
        }
    };
    if !root
        .join("dist/plugin-sdk/session-store-runtime.js")
        .is_file()
    {
        return Err(refused(
            format!(
                "OpenClaw {version} at {} has no plugin SDK session store (dist/plugin-sdk/session-store-runtime.js)",
                root.display()
            ),
            owner,
        ));
    }
    let node = on_path("node", path).ok_or_else(|| {
        refused(
            format!(
                "OpenClaw {version} is installed at {}, but no `node` is on PATH to run it",
                root.display()
            ),
            owner,
        )
    })?;
    Ok(OpenClawPackage {
        root,
        version,
        node,
    })
}

/// The release the package must be for this store: the newer release every database names, or
/// one of the releases that open every database as it is. Refused otherwise, naming the owner.
pub fn require_owner(package: &OpenClawPackage, layout: &StateLayout) -> Result<()> {
    let databases = crate::status::database_schemas(layout);
    let owner = match releases::newer_owner(&databases) {
        Some(newer) => match &newer.release {
            Some(v) if *v == package.version => return Ok(()),
            _ => newer.words(),
        },
        None => {
            let verdict = releases::judge(&databases);
            if verdict.as_is.iter().any(|r| r.version == package.version) {
                return Ok(());
            }
            if verdict.as_is.is_empty() {
                "the release that owns it".to_string()
            } else {
                format!("OpenClaw {}", releases::span(&verdict.as_is))
            }
        }
    };
    Err(refused(
        format!(
            "the installed OpenClaw {} ({}) is not the release that owns this state dir ({owner}): its code would not write this store as its owner does",
            package.version,
            package.root.display()
        ),
        &owner,
    ))
}

/// One change the package's code writes.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum OwnerCall {
    /// The whole planned entry, replacing the stored one of the same session id
    /// (`patchSessionEntry`).
    #[serde(rename_all = "camelCase")]
    Replace {
        agent_id: String,
        session_key: String,
        expected_session_id: String,
        entry: Value,
    },
    /// The session removed, its transcript archived or not (`deleteSessionEntry`).
    #[serde(rename_all = "camelCase")]
    Delete {
        agent_id: String,
        session_key: String,
        expected_session_id: String,
        archive_transcript: bool,
    },
}

/// The package's code, writing the store of one state dir.
#[derive(Debug, Clone)]
pub struct OwnerWriter {
    pub package: OpenClawPackage,
    pub state_dir: PathBuf,
}

impl OwnerWriter {
    /// Run `calls` in one run of the script; each call's outcome, in order (`Err` with the
    /// package's words for one it refused). An error: the script did not run to its end, and
    /// which calls it applied is unknown.
    pub fn write(&self, calls: &[OwnerCall]) -> Result<Vec<std::result::Result<(), String>>> {
        if calls.is_empty() {
            return Ok(Vec::new());
        }
        let request = serde_json::json!({"package": self.package.root, "calls": calls});
        let unknown = |why: String| {
            Error::Internal(format!(
            "OpenClaw {}'s own code ({}) {why}; which of the {} changes it applied is unknown: look at the sessions, then run the command again",
            self.package.version,
            self.package.root.display(),
            calls.len()
        ))
        };
        // The script runs from a file of its own: the package's code starts workers with the
        // options of this process, and `--input-type` (for a script given with `-e`) makes
        // every one of them fail (2026.8.2's and 2026.9.5's deleteSessionEntry).
        let script = ScriptFile::write()
            .map_err(|e| unknown(format!("could not be given its script ({e})")))?;
        let mut child = std::process::Command::new(&self.package.node)
            .arg(&script.0)
            .env("OPENCLAW_STATE_DIR", &self.state_dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| {
                unknown(format!(
                    "could not be started with {} ({e})",
                    self.package.node.display()
                ))
            })?;
        let body = serde_json::to_vec(&request).map_err(|e| Error::Internal(e.to_string()))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(&body)
                .map_err(|e| unknown(format!("did not take the request ({e})")))?;
        }
        let out = child
            .wait_with_output()
            .map_err(|e| unknown(format!("was lost ({e})")))?;
        let answers: Vec<Value> = serde_json::from_slice(&out.stdout).map_err(|_| {
            let said = String::from_utf8_lossy(&out.stderr);
            let said = said
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            unknown(format!("ended with {} ({said})", out.status))
        })?;
        if answers.len() != calls.len() {
            return Err(unknown(format!(
                "answered {} of {} calls",
                answers.len(),
                calls.len()
            )));
        }
        Ok(answers
            .into_iter()
            .map(|a| {
                if a["ok"] == true {
                    Ok(())
                } else {
                    Err(a["error"].as_str().unwrap_or("refused").to_string())
                }
            })
            .collect())
    }

    /// "written by OpenClaw 2026.9.6's own code, <path>".
    pub fn words(&self) -> String {
        format!(
            "written by OpenClaw {}'s own code, {}",
            self.package.version,
            self.package.root.display()
        )
    }
}

/// The script in a private file of its own (`.mjs`: an ES module), removed when dropped.
struct ScriptFile(PathBuf);

impl ScriptFile {
    fn write() -> std::io::Result<Self> {
        use std::os::unix::fs::OpenOptionsExt;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!(
            "openclaw-sessions-owner-{}-{nanos}.mjs",
            std::process::id()
        ));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
            .open(&path)?;
        let file_path = ScriptFile(path);
        file.write_all(WRITE_SCRIPT.as_bytes())?;
        Ok(file_path)
    }
}

impl Drop for ScriptFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// An operation the owner's code can carry.
pub trait OwnerOperation: Operation {
    /// Every planned change through `owner`, read back.
    fn apply_by_owner(
        &mut self,
        layout: &StateLayout,
        plan: &mut Self::Plan,
        owner: &OwnerWriter,
        hooks: &dyn Hooks,
    ) -> Result<Self::Report>;
}

/// Run `op` through the owner's code: the pipeline's order, its question, snapshot and
/// verification, with the package's code applying the plan.
pub fn run_owner<O: OwnerOperation>(
    op: &mut O,
    layout: &StateLayout,
    options: &RunOptions,
    hooks: &dyn Hooks,
    owner: &OwnerWriter,
) -> Result<Run<O::Plan, O::Report>> {
    hooks.step("resolve");
    op.resolve(layout)?;
    hooks.step("plan");
    let plan = op.plan(layout, hooks)?;
    hooks.step("check");
    op.check(layout, &plan)?;
    let summary = op.summarize(&plan, options.summary_limit.max(1))?;
    if summary.changes > 0 {
        hooks.note(owner.words());
    }
    let mut run = super::pipeline::finish(
        op,
        layout,
        options,
        hooks,
        (plan, summary),
        None,
        crate::oplog::Route::Openclaw,
        |op, plan| op.apply_by_owner(layout, plan, owner, hooks),
        |op, plan, report| op.verify(layout, plan, report),
    )?;
    run.owner = Some(owner.package.clone());
    Ok(run)
}
