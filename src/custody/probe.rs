use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::coordinator::{inspect, CoordinatorState};
use super::lock_file::LockPayload;
use super::process::{judge, Liveness};
use crate::paths::StateLayout;

/// A lock without a pid is stale after this long (`DEFAULT_STALE_MS`).
pub const STALE_MS: i64 = 30_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OwnerState {
    None,
    Live,
    Stale,
    Unknown,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReport {
    pub state: OwnerState,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// The uid whose lock directory (or lifecycle coordinator) holds the lock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uid: Option<u32>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LockReport {
    pub path: PathBuf,
    /// `state`, `config` or `lifecycle`.
    pub kind: &'static str,
    pub exists: bool,
    pub coordinator: CoordinatorState,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<LockPayload>,
    pub state: OwnerState,
    pub reason: String,
    /// The uid whose lock directory (`tmp/openclaw-<uid>/`, `/tmp/openclaw-state-locks-<uid>/`)
    /// holds it: OpenClaw keeps one per user, and an owner may run as any of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uid: Option<u32>,
}

/// Who owns a state dir, read without taking any lock.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnershipProbe {
    pub owner: OwnerReport,
    pub locks: Vec<LockReport>,
}

fn sha8(s: &str) -> String {
    let d = Sha256::digest(s.as_bytes());
    crate::units::hex(&d[..4])
}

/// OpenClaw's `resolveIdentityPathViaExistingAncestorSync`: realpath the deepest existing
/// ancestor, then append the rest.
pub(crate) fn identity_path(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut cur = path.to_path_buf();
    loop {
        if let Ok(real) = std::fs::canonicalize(&cur) {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (cur.file_name().map(|n| n.to_os_string()), cur.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                cur = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// `/tmp/openclaw-state-locks-<uid>/gateway-lifecycle.<h8>.lock.sqlite`.
pub(crate) fn lifecycle_coordinator(layout: &StateLayout) -> PathBuf {
    let uid = rustix::process::getuid().as_raw();
    let canonical = identity_path(&layout.state_db());
    PathBuf::from(format!("/tmp/openclaw-state-locks-{uid}")).join(format!(
        "gateway-lifecycle.{}.lock.sqlite",
        sha8(&canonical.to_string_lossy())
    ))
}

/// `gateway.<h8>.lock`, h8 from the config path string OpenClaw would use.
pub(crate) fn config_lock_name(layout: &StateLayout) -> String {
    let config = layout
        .config
        .path
        .clone()
        .unwrap_or_else(|| layout.state_dir.join("openclaw.json"));
    format!("gateway.{}.lock", sha8(&config.to_string_lossy()))
}

fn coordinator_of(lock: &Path) -> PathBuf {
    let mut s = lock.as_os_str().to_owned();
    s.push(".sqlite");
    PathBuf::from(s)
}

fn age_ms(path: &Path, payload: Option<&LockPayload>, now_ms: i64) -> Option<i64> {
    if let Some(created) = payload
        .and_then(|p| p.created_at.as_deref())
        .and_then(crate::units::parse_iso_ms)
    {
        return Some(now_ms - created);
    }
    let modified = std::fs::metadata(path).ok()?.modified().ok()?;
    let ms = modified
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_millis() as i64;
    Some(now_ms - ms)
}

/// The age of a lock file modified less than [`STALE_MS`] ago (its mtime, as OpenClaw's file
/// locks judge freshness), unless the lock is one of ours from this PID namespace.
fn fresh_lock_age(path: &Path, payload: &LockPayload, now_ms: i64) -> Option<i64> {
    if payload
        .owner_id
        .as_deref()
        .is_some_and(super::process::owner_id_of_this_namespace)
    {
        return None;
    }
    let modified = std::fs::metadata(path).ok()?.modified().ok()?;
    let ms = modified
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_millis() as i64;
    let age = (now_ms - ms).max(0);
    (age <= STALE_MS).then_some(age)
}

pub(crate) fn judge_lock(path: &Path, kind: &'static str, now_ms: i64) -> LockReport {
    let coordinator = inspect(&coordinator_of(path));
    let text = std::fs::read_to_string(path).ok();
    let exists = text.is_some();
    let payload = text.as_deref().and_then(LockPayload::parse);
    // A coordinator this process holds says nothing about the file: judge its payload.
    let own = std::process::id() as i32;
    let (state, reason) = match (&coordinator, exists, &payload) {
        (CoordinatorState::Held { pid }, _, _) if *pid != own => {
            (OwnerState::Live, format!("coordinator held by pid {pid}"))
        }
        (CoordinatorState::HeldByUnknown, _, _) => (
            OwnerState::Unknown,
            "coordinator held by a process outside this PID namespace".to_string(),
        ),
        (_, false, _) => (OwnerState::None, "no lock file".to_string()),
        (_, true, Some(p)) if p.pid.is_some_and(|pid| pid > 0) => {
            let pid = p.pid.unwrap_or_default();
            match judge(pid, p.start_time, p.role_or_gateway()) {
                Liveness::Alive => (OwnerState::Live, format!("pid {pid} is alive")),
                Liveness::Dead => match fresh_lock_age(path, p, now_ms) {
                    // OpenClaw leaves a lock younger than 30 s alone whatever its pid says
                    // (its owner may run where this pid means nothing); only a lock of ours
                    // from this PID namespace is known dead at once.
                    Some(age) => (
                        OwnerState::Unknown,
                        format!(
                            "pid {pid} is not running here, but the lock is {}s old: it may be owned from another PID namespace (OpenClaw reclaims it after 30s)",
                            age / 1000
                        ),
                    ),
                    None => (
                        OwnerState::Stale,
                        format!("pid {pid} is gone or is another process"),
                    ),
                },
                Liveness::Unknown => (
                    OwnerState::Unknown,
                    format!("pid {pid} cannot be inspected"),
                ),
            }
        }
        (_, true, p) => match age_ms(path, p.as_ref(), now_ms) {
            Some(age) if age > STALE_MS => (
                OwnerState::Stale,
                format!("no owner pid and {}s old", age / 1000),
            ),
            _ => (
                OwnerState::Live,
                "no owner pid, but younger than 30s (being written?)".to_string(),
            ),
        },
    };
    LockReport {
        path: path.to_path_buf(),
        kind,
        exists,
        coordinator,
        payload,
        state,
        reason,
        uid: path.parent().and_then(|d| uid_of_dir(d, "openclaw-")),
    }
}

/// The uid in a per-user lock directory's name (`<prefix><uid>`).
fn uid_of_dir(dir: &Path, prefix: &str) -> Option<u32> {
    dir.file_name()?
        .to_str()?
        .strip_prefix(prefix)?
        .parse()
        .ok()
}

/// The per-user directories `<parent>/<prefix><uid>` other than our own uid's where an
/// OpenClaw process that may own this store keeps its locks, sorted. OpenClaw itself looks
/// only in its own uid's directory; it makes `tmp/openclaw-<uid>/` as that uid and uses a
/// lifecycle directory only when it is a real directory of that uid with no access for
/// others (`ensurePrivateSqliteCoordinatorDirectory`, `private` here). So a directory counts
/// when it is what OpenClaw running as its uid would have made or accepted, and that uid is
/// one that can write the store:
/// root or the owner of the state dir. Any other user's locks are ignored, as OpenClaw
/// ignores them: a user who cannot write the store cannot own it, and must not be able to
/// stop every mutation by holding a lock in a directory of its own
/// (docs/openclaw/HOSTILE.md §1).
fn other_users_dirs(
    parent: &Path,
    prefix: &str,
    private: bool,
    store_owner: Option<u32>,
) -> Vec<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let me = rustix::process::getuid().as_raw();
    let may_own = |uid: u32| uid != me && (uid == 0 || Some(uid) == store_owner);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(parent)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let Some(uid) = uid_of_dir(p, prefix).filter(|u| may_own(*u)) else {
                return false;
            };
            std::fs::symlink_metadata(p)
                .is_ok_and(|m| m.is_dir() && m.uid() == uid && (!private || m.mode() & 0o077 == 0))
        })
        .collect();
    dirs.sort();
    dirs
}

/// A lifecycle coordinator, judged by whether any process holds it.
fn lifecycle_report(path: PathBuf) -> LockReport {
    let lc = inspect(&path);
    LockReport {
        exists: lc != CoordinatorState::Missing,
        uid: path
            .parent()
            .and_then(|d| uid_of_dir(d, "openclaw-state-locks-")),
        path,
        kind: "lifecycle",
        payload: None,
        state: match lc {
            CoordinatorState::Held { .. } => OwnerState::Live,
            CoordinatorState::HeldByUnknown => OwnerState::Unknown,
            _ => OwnerState::None,
        },
        reason: match lc {
            CoordinatorState::Held { pid } => format!("held by pid {pid}"),
            CoordinatorState::HeldByUnknown => {
                "held by a process outside this PID namespace".into()
            }
            CoordinatorState::Free => "free".into(),
            CoordinatorState::Missing => "not created yet".into(),
        },
        coordinator: lc,
    }
}

/// The locks of this state dir that other uids' OpenClaw processes take: their lifecycle
/// coordinators and every lock file in their lock directories.
pub(crate) fn other_users_locks(layout: &StateLayout, now_ms: i64) -> Vec<LockReport> {
    use std::os::unix::fs::MetadataExt;
    let mut locks = Vec::new();
    let store_owner = std::fs::metadata(&layout.state_dir).ok().map(|m| m.uid());
    let ours = lifecycle_coordinator(layout);
    if let (Some(runtime), Some(name)) = (ours.parent().and_then(|p| p.parent()), ours.file_name())
    {
        for dir in other_users_dirs(runtime, "openclaw-state-locks-", true, store_owner) {
            let path = dir.join(name);
            if path.exists() {
                locks.push(lifecycle_report(path));
            }
        }
    }
    let lock_dir = layout.lock_dir();
    if let Some(tmp) = lock_dir.parent() {
        for dir in other_users_dirs(tmp, "openclaw-", false, store_owner) {
            for path in lock_files(&dir) {
                locks.push(judge_lock(&path, lock_kind(&path), now_ms));
            }
        }
    }
    locks
}

/// The `gateway.*.lock` files of a lock directory, sorted.
fn lock_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.starts_with("gateway.") && n.ends_with(".lock")
        })
        .collect();
    files.sort();
    files
}

fn lock_kind(path: &Path) -> &'static str {
    if path.file_name().is_some_and(|n| n == "gateway.state.lock") {
        "state"
    } else {
        "config"
    }
}

/// Inspect every lock OpenClaw's maintenance would take, without taking any.
pub fn probe(layout: &StateLayout) -> OwnershipProbe {
    let now = crate::units::now_ms();
    let lock_dir = layout.lock_dir();
    let mut locks = Vec::new();
    locks.push(lifecycle_report(lifecycle_coordinator(layout)));
    locks.push(judge_lock(
        &lock_dir.join("gateway.state.lock"),
        "state",
        now,
    ));
    let config_lock = config_lock_name(layout);
    locks.push(judge_lock(&lock_dir.join(&config_lock), "config", now));
    // Config locks of other config paths (an owner started with another --config).
    if let Ok(rd) = std::fs::read_dir(&lock_dir) {
        let mut others: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                n.starts_with("gateway.")
                    && n.ends_with(".lock")
                    && n != "gateway.state.lock"
                    && n != config_lock
            })
            .collect();
        others.sort();
        for p in others {
            locks.push(judge_lock(&p, "config", now));
        }
    }
    locks.extend(other_users_locks(layout, now));
    let pick = |s: OwnerState| locks.iter().find(|l| l.state == s);
    let owner = if let Some(l) = pick(OwnerState::Live)
        .or_else(|| pick(OwnerState::Unknown))
        .or_else(|| pick(OwnerState::Stale))
    {
        let pid = l
            .payload
            .as_ref()
            .and_then(|p| p.pid)
            .or(match l.coordinator {
                CoordinatorState::Held { pid } => Some(pid as i64),
                _ => None,
            });
        // The payload of the state lock names the owner even when only a coordinator is held.
        let payload = l
            .payload
            .clone()
            .or_else(|| locks.iter().find_map(|x| x.payload.clone()));
        OwnerReport {
            state: l.state,
            role: payload.as_ref().map(|p| p.role_or_gateway().to_string()),
            pid: pid.or_else(|| payload.as_ref().and_then(|p| p.pid)),
            since: payload.and_then(|p| p.created_at),
            uid: l.uid,
        }
    } else {
        OwnerReport {
            state: OwnerState::None,
            role: None,
            pid: None,
            since: None,
            uid: None,
        }
    };
    OwnershipProbe { owner, locks }
}
