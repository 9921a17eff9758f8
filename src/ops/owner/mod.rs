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
    /// The config this tool read (`--config`, `OPENCLAW_CONFIG_PATH`), given to the package's
    /// code as its own: unset, it finds the same one in the state dir.
    pub config: Option<PathBuf>,
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
        let mut child = self
            .command()
            .arg(&script.0)
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

    /// `node` with the package's environment: this state dir and config, one process (no
    /// respawn), no colour.
    fn command(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(&self.package.node);
        cmd.env("OPENCLAW_STATE_DIR", &self.state_dir)
            .env("OPENCLAW_NO_RESPAWN", "1")
            .env("NO_COLOR", "1")
            .env("FORCE_COLOR", "0")
            .env_remove("OPENCLAW_PROFILE");
        match &self.config {
            Some(config) => cmd.env("OPENCLAW_CONFIG_PATH", config),
            None => cmd.env_remove("OPENCLAW_CONFIG_PATH"),
        };
        cmd
    }

    /// The package's own command line (`<package>/openclaw.mjs`), for the commands it runs
    /// offline (`sessions cleanup --enforce --store ...`).
    pub fn cli_entry(&self) -> PathBuf {
        self.package.root.join("openclaw.mjs")
    }

    /// Refused before anything changes when the package has no command line to run.
    pub fn require_cli(&self, command: &str) -> Result<()> {
        if self.cli_entry().is_file() {
            return Ok(());
        }
        Err(refused(
            format!(
                "OpenClaw {} at {} has no command line (openclaw.mjs) to run `openclaw {command}`",
                self.package.version,
                self.package.root.display()
            ),
            &format!("OpenClaw {}", self.package.version),
        ))
    }

    /// Run `openclaw ARGS... --json` of the package offline and parse what it prints. An
    /// error: it failed or printed no JSON; what it changed is unknown (`what` names it).
    pub fn run_cli(&self, args: &[&OsStr], what: &str) -> Result<Value> {
        let unknown = |why: String| {
            Error::Internal(format!(
                "OpenClaw {}'s own `openclaw {what}` ({}) {why}; what it changed is unknown: look at the sessions, then run the command again",
                self.package.version,
                self.package.root.display(),
            ))
        };
        let out = self
            .command()
            .arg(self.cli_entry())
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| {
                unknown(format!(
                    "could not be started with {} ({e})",
                    self.package.node.display()
                ))
            })?;
        let said = || {
            let err = String::from_utf8_lossy(&out.stderr);
            err.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .to_string()
        };
        if !out.status.success() {
            return Err(unknown(format!("ended with {} ({})", out.status, said())));
        }
        serde_json::from_slice(&out.stdout)
            .map_err(|_| unknown(format!("printed no JSON answer ({})", said())))
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
    /// What of this run the owner's code cannot carry (an option its command has no setting
    /// for): refused before anything changes, naming what works.
    fn owner_refusal(&self, _owner: &OwnerWriter) -> Result<()> {
        Ok(())
    }

    /// Every planned change through `owner`, read back.
    fn apply_by_owner(
        &mut self,
        layout: &StateLayout,
        plan: &mut Self::Plan,
        owner: &OwnerWriter,
        hooks: &dyn Hooks,
    ) -> Result<Self::Report>;
}

/// Run `op` through the owner's code: the pipeline's order, its custody, question, snapshot
/// and verification, with the package's code applying the plan.
///
/// Custody is this tool's, held from the plan to the read-back: the package's code takes no
/// lock of its own for what it runs here (its plugin SDK writes and `sessions cleanup --store`
/// do not take `gateway.state.lock` nor its coordinators, tests/reference/openclaw/OPERATIONS.md
/// §7), so without ours a Gateway or an OpenClaw maintenance command could start in the middle
/// of the run; while ours is held they refuse to, and the package's code, taking none, is not
/// stopped by it.
pub fn run_owner<O: OwnerOperation>(
    op: &mut O,
    layout: &StateLayout,
    options: &RunOptions,
    hooks: &dyn Hooks,
    owner: &OwnerWriter,
) -> Result<Run<O::Plan, O::Report>> {
    op.owner_refusal(owner)?;
    hooks.step("resolve");
    op.resolve(layout)?;
    hooks.step("custody");
    let acquire = crate::custody::AcquireOptions {
        wait: options.wait,
        interruption: hooks.interruption(),
        inherit: options.inherit_custody.clone(),
    };
    let custody = crate::custody::Custody::acquire(layout, &acquire)?;
    for r in &custody.report.reclaimed {
        hooks.warn(format!("reclaimed a stale lock: {r}").into());
    }
    let custody_report = custody.report.clone();
    let result = run_owner_held(op, layout, options, hooks, owner);
    let released = custody.release();
    if result.is_ok() {
        released?;
    }
    let mut run = result?;
    run.custody = Some(custody_report);
    Ok(run)
}

fn run_owner_held<O: OwnerOperation>(
    op: &mut O,
    layout: &StateLayout,
    options: &RunOptions,
    hooks: &dyn Hooks,
    owner: &OwnerWriter,
) -> Result<Run<O::Plan, O::Report>> {
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
        |op, plan, report| {
            op.verify(layout, plan, report).map_err(|e| match e {
                // The read-back found what the owner's code did otherwise than the plan
                // shown: its decision, said as such, not as a fault of this tool's writer.
                Error::Internal(what) => Error::Conflict {
                    message: format!(
                        "{} did not leave the store as the plan shown ({})",
                        owner.words(),
                        what.strip_prefix("not as written: ").unwrap_or(&what)
                    ),
                    hint: Some(
                        "the sessions are as the owner's code left them; a snapshot taken before (--backup-dir) holds them as they were".into(),
                    ),
                },
                other => other,
            })
        },
    )?;
    // Only a run the package's code applied went through it; one with nothing to do (or
    // declined) never started it.
    if run.state == super::pipeline::RunState::Applied {
        run.owner = Some(owner.package.clone());
    } else {
        run.not_reached = Some(format!("OpenClaw {}'s own code", owner.package.version));
    }
    Ok(run)
}
