//! Taking and releasing offline custody (`acquireGatewayLock({role:"sqlite-maintenance"})`):
//! the gateway-lifecycle coordinator, then `gateway.state.lock`, then the config lock; each
//! lock file created exclusively (0600, written whole, then moved into place) while its own
//! coordinator is held; released in reverse order, also on error and on interruption.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand_token::token_line;

use super::coordinator::{ensure_private_dir, try_acquire, HeldCoordinator};
use super::lock_file::LockPayload;
use super::probe::{config_lock_name, identity_path, judge_lock, lifecycle_coordinator};
use super::process::start_time;
use super::{OwnerState, OwnershipProbe};
use crate::error::{Error, Result, ResultExt};
use crate::paths::StateLayout;

pub const ROLE: &str = "sqlite-maintenance";
/// How long one attempt waits for a busy coordinator (OpenClaw's maintenance timeout).
const ATTEMPT: Duration = Duration::from_millis(250);
const POLL: Duration = Duration::from_millis(25);

mod rand_token {
    /// 8 TABs, then 128 characters of space/TAB carrying the bits of 16 random bytes.
    pub fn token_line() -> String {
        let bytes = *uuid::Uuid::new_v4().as_bytes();
        let mut s = "\t".repeat(8);
        for b in bytes {
            for bit in 0..8 {
                s.push(if b >> bit & 1 == 1 { '\t' } else { ' ' });
            }
        }
        s
    }
}

/// What happened while taking custody, for the report.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AcquireReport {
    /// Stale lock files that were reclaimed, with why.
    pub reclaimed: Vec<String>,
    pub waited_ms: u64,
    /// Custody held by a parent `custody run`.
    pub inherited: bool,
}

/// Offline custody of a state dir. Dropping it releases everything.
#[derive(Debug)]
pub struct Custody {
    lifecycle: Option<HeldCoordinator>,
    state_coordinator: Option<HeldCoordinator>,
    config_coordinator: Option<HeldCoordinator>,
    lock_files: Vec<PathBuf>,
    pub owner_id: String,
    pub state_dir: PathBuf,
    pub report: AcquireReport,
}

#[derive(Debug, Clone, Default)]
pub struct AcquireOptions {
    /// Keep retrying while a live owner holds the state dir, up to this long.
    pub wait: Option<Duration>,
    /// Polled between retries: a requested stop aborts with `INTERRUPTED`.
    pub interruption: crate::interruption::Interruption,
    /// The owner id of a custody held by a parent (`custody run -- CMD`): when the live
    /// state lock carries it, the caller already has custody.
    pub inherit: Option<String>,
}

enum Attempt {
    Got(Box<Custody>),
    Busy(Error),
}

impl Custody {
    pub fn acquire(layout: &StateLayout, options: &AcquireOptions) -> Result<Custody> {
        layout.require_exists()?;
        check_no_symlinks(&layout.state_dir, &layout.lock_dir())?;
        if let Some(id) = &options.inherit {
            let state_lock = layout.lock_dir().join("gateway.state.lock");
            let report = judge_lock(&state_lock, "state", crate::units::now_ms());
            let ours =
                report.payload.as_ref().and_then(|p| p.owner_id.as_deref()) == Some(id.as_str());
            if ours && report.state == OwnerState::Live {
                return Ok(Custody {
                    lifecycle: None,
                    state_coordinator: None,
                    config_coordinator: None,
                    lock_files: Vec::new(),
                    owner_id: id.clone(),
                    state_dir: layout.state_dir.clone(),
                    report: AcquireReport {
                        inherited: true,
                        ..Default::default()
                    },
                });
            }
        }
        let started = Instant::now();
        let mut reclaimed = Vec::new();
        loop {
            match attempt(layout, &mut reclaimed)? {
                Attempt::Got(mut c) => {
                    c.report.reclaimed = reclaimed;
                    c.report.waited_ms = started.elapsed().as_millis() as u64;
                    return Ok(*c);
                }
                Attempt::Busy(err) => {
                    let waited = started.elapsed();
                    match options.wait {
                        Some(limit) if waited < limit => {}
                        _ => return Err(err),
                    }
                    if options.interruption.requested() {
                        return Err(Error::Interrupted);
                    }
                    std::thread::sleep(Duration::from_millis(250));
                }
            }
        }
    }

    /// Release in reverse order: lock files, their coordinators, then the lifecycle one.
    pub fn release(mut self) -> Result<()> {
        self.release_inner()
    }

    fn release_inner(&mut self) -> Result<()> {
        let mut first_err = None;
        for path in self.lock_files.drain(..).rev() {
            if let Err(e) = std::fs::remove_file(&path) {
                if e.kind() != std::io::ErrorKind::NotFound {
                    first_err.get_or_insert(Error::io(&path, e));
                }
            }
        }
        self.config_coordinator.take();
        self.state_coordinator.take();
        self.lifecycle.take();
        first_err.map_or(Ok(()), Err)
    }
}

impl Drop for Custody {
    fn drop(&mut self) {
        let _ = self.release_inner();
    }
}

/// Refuse a state dir reached through a symlinked component inside it.
fn check_no_symlinks(state_dir: &Path, lock_dir: &Path) -> Result<()> {
    let Ok(rel) = lock_dir.strip_prefix(state_dir) else {
        return Ok(());
    };
    let mut cur = state_dir.to_path_buf();
    for part in rel.components() {
        cur.push(part);
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(Error::unsafe_path(format!(
                    "{} is a symbolic link; custody files are never written through one",
                    cur.display()
                )))
            }
            _ => {}
        }
    }
    Ok(())
}

fn owner_error(
    layout: &StateLayout,
    probe_state: OwnerState,
    payload: Option<&LockPayload>,
    why: &str,
) -> Error {
    let who = match payload {
        Some(p) => format!(
            "{} (pid {}{})",
            p.role_or_gateway(),
            p.pid.map(|x| x.to_string()).unwrap_or_else(|| "?".into()),
            p.created_at
                .as_deref()
                .map(|s| format!(", since {s}"))
                .unwrap_or_default()
        ),
        None => "another process".to_string(),
    };
    if probe_state == OwnerState::Unknown {
        return Error::GatewayStateOwnerRequired {
            message: format!(
                "the OpenClaw state dir {} is owned by {who} that cannot be inspected from here ({why})",
                layout.state_dir.display()
            ),
            hint: Some("run the operation inside the owner's environment (its container or PID namespace)".into()),
        };
    }
    Error::OwnerUnavailable {
        message: format!("the OpenClaw state dir {} is owned by {who} ({why})", layout.state_dir.display()),
        hint: Some(
            "stop the Gateway (`openclaw gateway stop`), wait for embedded runs and other maintenance to finish, then retry; or pass --wait SECONDS"
                .into(),
        ),
    }
}

fn acquire_coordinator(path: &Path) -> Result<Option<HeldCoordinator>> {
    let deadline = Instant::now() + ATTEMPT;
    loop {
        if let Some(c) = try_acquire(path)? {
            return Ok(Some(c));
        }
        if Instant::now() >= deadline {
            return Ok(None);
        }
        std::thread::sleep(POLL);
    }
}

fn payload_text(payload: &LockPayload) -> String {
    format!(
        "{}\n{}\n",
        serde_json::to_string_pretty(payload).unwrap_or_default(),
        token_line()
    )
}

/// Write the whole lock file beside `path` first, then move it into place without replacing
/// anything: the lock appears with its payload or not at all. A lock created empty and then
/// written (as OpenClaw does) can be cut short by `kill -9` or a full disk, and a lock without
/// a pid reads as "being written" for 30 s, turning every next run away.
fn link_new_lock(path: &Path, payload: &LockPayload) -> std::io::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", uuid::Uuid::new_v4().simple()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)?;
        f.write_all(payload_text(payload).as_bytes())?;
        f.sync_all()?;
        match crate::fsutil::rename_noreplace(&tmp, path) {
            // No RENAME_NOREPLACE on this file system: a link fails on an existing lock too.
            Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => {
                std::fs::hard_link(&tmp, path)
            }
            other => other,
        }
    })();
    let _ = std::fs::remove_file(&tmp);
    written
}

/// Leftovers of [`link_new_lock`] from runs that died between writing and linking. Only
/// called under the lock's coordinator, so no live writer owns them.
fn remove_dead_temp_locks(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!(".{}.", name.to_string_lossy());
    for ent in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let n = ent.file_name().to_string_lossy().into_owned();
        if n.starts_with(&prefix) && n.ends_with(".tmp") {
            let _ = std::fs::remove_file(ent.path());
        }
    }
}

/// Take one lock file under its (already held) coordinator, reclaiming a stale one.
fn take_lock_file(
    layout: &StateLayout,
    kind: &'static str,
    path: &Path,
    payload: &LockPayload,
    reclaimed: &mut Vec<String>,
) -> Result<std::result::Result<(), Error>> {
    remove_dead_temp_locks(path);
    for _ in 0..3 {
        match link_new_lock(path, payload) {
            Ok(()) => return Ok(Ok(())),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let report = judge_lock(path, kind, crate::units::now_ms());
                match report.state {
                    OwnerState::Stale => {
                        std::fs::remove_file(path).at(path)?;
                        reclaimed.push(format!("{}: {}", path.display(), report.reason));
                    }
                    OwnerState::None => {}
                    state => {
                        return Ok(Err(owner_error(
                            layout,
                            state,
                            report.payload.as_ref(),
                            &report.reason,
                        )))
                    }
                }
            }
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    Ok(Err(owner_error(
        layout,
        OwnerState::Live,
        None,
        "lock file keeps reappearing",
    )))
}

fn attempt(layout: &StateLayout, reclaimed: &mut Vec<String>) -> Result<Attempt> {
    let lock_dir = layout.lock_dir();
    let busy = |state: OwnerState, why: &str| {
        let probe: OwnershipProbe = super::probe(layout);
        let payload = probe.locks.iter().find_map(|l| l.payload.clone());
        let state = if probe.owner.state == OwnerState::Unknown {
            OwnerState::Unknown
        } else {
            state
        };
        Attempt::Busy(owner_error(layout, state, payload.as_ref(), why))
    };
    // 1. gateway-lifecycle coordinator (held by a running Gateway for its whole life).
    let lifecycle_path = lifecycle_coordinator(layout);
    let Some(lifecycle) = acquire_coordinator(&lifecycle_path)? else {
        return Ok(busy(
            OwnerState::Live,
            "its gateway-lifecycle coordinator is held",
        ));
    };
    // 1b. An owner running as another uid keeps its locks in its own directories.
    if let Some(other) = super::probe::other_users_locks(layout, crate::units::now_ms())
        .into_iter()
        .find(|l| matches!(l.state, OwnerState::Live | OwnerState::Unknown))
    {
        let why = format!(
            "{} of uid {} ({})",
            other.path.display(),
            other
                .uid
                .map(|u| u.to_string())
                .unwrap_or_else(|| "?".into()),
            other.reason
        );
        return Ok(Attempt::Busy(owner_error(
            layout,
            other.state,
            other.payload.as_ref(),
            &why,
        )));
    }
    ensure_private_dir(&lock_dir)?;
    let state_dir = identity_path(&layout.state_dir);
    let config_path = layout
        .config
        .path
        .clone()
        .unwrap_or_else(|| layout.state_dir.join("openclaw.json"));
    let owner_id = super::process::new_owner_id();
    let pid = std::process::id() as i64;
    let payload = LockPayload {
        pid: Some(pid),
        owner_id: Some(owner_id.clone()),
        created_at: Some(crate::units::iso_from_ms(crate::units::now_ms())),
        config_path: Some(config_path.to_string_lossy().into_owned()),
        state_dir: Some(state_dir.to_string_lossy().into_owned()),
        role: Some(ROLE.to_string()),
        start_time: start_time(pid),
        port: None,
    };
    let mut custody = Custody {
        lifecycle: Some(lifecycle),
        state_coordinator: None,
        config_coordinator: None,
        lock_files: Vec::new(),
        owner_id,
        state_dir: layout.state_dir.clone(),
        report: AcquireReport::default(),
    };
    // 2. state lock, 3. config lock: coordinator first, then the file.
    for (name, kind) in [
        ("gateway.state.lock".to_string(), "state"),
        (config_lock_name(layout), "config"),
    ] {
        let path = lock_dir.join(&name);
        let mut coord_path = path.as_os_str().to_owned();
        coord_path.push(".sqlite");
        let Some(coordinator) = acquire_coordinator(Path::new(&coord_path))? else {
            return Ok(busy(OwnerState::Live, &format!("{name} is held")));
        };
        if kind == "state" {
            custody.state_coordinator = Some(coordinator);
        } else {
            custody.config_coordinator = Some(coordinator);
        }
        match take_lock_file(layout, kind, &path, &payload, reclaimed)? {
            Ok(()) => custody.lock_files.push(path),
            Err(e) => return Ok(Attempt::Busy(e)),
        }
    }
    Ok(Attempt::Got(Box::new(custody)))
}

/// Remove stale lock files (dead owner, changed start time, or no pid and older than 30 s),
/// each only while holding its coordinator. A live lock is never touched.
pub fn clear_stale(layout: &StateLayout) -> Result<Vec<String>> {
    layout.require_exists()?;
    let mut removed = Vec::new();
    let lock_dir = layout.lock_dir();
    let Ok(rd) = std::fs::read_dir(&lock_dir) else {
        return Ok(removed);
    };
    let mut locks: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("gateway.") && n.ends_with(".lock"))
        })
        .collect();
    locks.sort();
    for path in locks {
        let mut coord = path.as_os_str().to_owned();
        coord.push(".sqlite");
        let Some(_held) = try_acquire(Path::new(&coord))? else {
            continue;
        };
        let report = judge_lock(&path, "state", crate::units::now_ms());
        if report.state == OwnerState::Stale {
            std::fs::remove_file(&path).at(&path)?;
            removed.push(format!("{}: {}", path.display(), report.reason));
        }
    }
    Ok(removed)
}
