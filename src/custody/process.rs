//! Is a lock's owner alive? (`resolveGatewayOwnerStatus`)

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Liveness {
    Alive,
    Dead,
    Unknown,
}

pub fn pid_alive(pid: i64) -> bool {
    if pid <= 0 || pid > i32::MAX as i64 {
        return false;
    }
    let Some(pid) = rustix::process::Pid::from_raw(pid as i32) else {
        return false;
    };
    // Signal 0 only checks for existence and permission: EPERM means it exists.
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        Err(e) => e == rustix::io::Errno::PERM,
    }
}

/// Field 22 of `/proc/<pid>/stat` (start time in clock ticks since boot).
pub fn start_time(pid: i64) -> Option<i64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
    let after = &stat[stat.rfind(')')? + 2..];
    after.split_whitespace().nth(19)?.parse().ok()
}

pub fn cmdline(pid: i64) -> Option<Vec<String>> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    Some(
        raw.split(|b| *b == 0)
            .filter(|s| !s.is_empty())
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .collect(),
    )
}

fn is_openclaw_argv(args: &[String]) -> bool {
    args.iter().any(|a| {
        let base = a.rsplit('/').next().unwrap_or(a);
        base == "openclaw" || base == "openclaw.mjs" || base.starts_with("openclaw-sessions")
    })
}

/// The owner of a lock payload, judged as OpenClaw judges it: a dead pid or a changed start
/// time is dead; without a start time the command line decides.
pub fn judge(pid: i64, start: Option<i64>, role: &str) -> Liveness {
    if !pid_alive(pid) {
        return Liveness::Dead;
    }
    if let Some(recorded) = start {
        if let Some(current) = start_time(pid) {
            return if current == recorded {
                Liveness::Alive
            } else {
                Liveness::Dead
            };
        }
    }
    match cmdline(pid) {
        None => Liveness::Unknown,
        Some(args) => {
            let ok = match role {
                "sqlite-maintenance" => {
                    is_openclaw_argv(&args)
                        && args
                            .iter()
                            .any(|a| a == "doctor" || a.starts_with("openclaw-sessions"))
                }
                "skill-workshop-apply" => {
                    is_openclaw_argv(&args) && args.iter().any(|a| a == "skills")
                }
                "agent-embedded" => is_openclaw_argv(&args),
                _ => is_openclaw_argv(&args) && args.iter().any(|a| a == "gateway"),
            };
            if ok {
                Liveness::Alive
            } else {
                Liveness::Dead
            }
        }
    }
}

/// Eight hex digits naming this process's PID namespace (the low bits of its inode). Our
/// lock owner ids start with it, so a lock of ours whose pid is gone is known to be dead: its
/// pid was one of this namespace, where it no longer runs. Any other lock with a pid that is
/// not running here may belong to a process we cannot see (docs/openclaw/HOSTILE.md, section 2).
pub fn pid_namespace_tag() -> String {
    use std::os::unix::fs::MetadataExt;
    let ino = std::fs::metadata("/proc/self/ns/pid")
        .map(|m| m.ino())
        .unwrap_or(0);
    format!("{:08x}", ino as u32)
}

/// A fresh owner id for a lock of ours: a random UUID whose first group is
/// [`pid_namespace_tag`].
pub fn new_owner_id() -> String {
    let random = uuid::Uuid::new_v4().to_string();
    format!("{}{}", pid_namespace_tag(), &random[8..])
}

/// Whether `owner_id` was made by [`new_owner_id`] in this PID namespace.
pub fn owner_id_of_this_namespace(owner_id: &str) -> bool {
    owner_id.len() == 36 && owner_id.starts_with(&format!("{}-", pid_namespace_tag()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_process_is_alive_with_start_time() {
        let me = std::process::id() as i64;
        let st = start_time(me).expect("linux /proc");
        assert_eq!(judge(me, Some(st), "sqlite-maintenance"), Liveness::Alive);
        assert_eq!(
            judge(me, Some(st + 1), "sqlite-maintenance"),
            Liveness::Dead
        );
        assert_eq!(judge(i32::MAX as i64, None, "gateway"), Liveness::Dead);
    }
}
