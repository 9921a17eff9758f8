use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The parts of the process environment that steer store discovery. The binary fills it
/// from `std::env`; tests fill it by hand, so the core never reads the environment itself.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    pub openclaw_home: Option<String>,
    pub home: Option<String>,
    pub state_dir: Option<String>,
    pub profile: Option<String>,
    pub config_path: Option<String>,
    /// `XDG_DATA_HOME`: where the snapshot repositories live (docs/SNAPSHOTS.md).
    pub xdg_data_home: Option<String>,
}

impl Environment {
    pub fn from_process() -> Self {
        let get = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        Environment {
            openclaw_home: get("OPENCLAW_HOME"),
            home: get("HOME"),
            state_dir: get("OPENCLAW_STATE_DIR"),
            profile: get("OPENCLAW_PROFILE"),
            config_path: get("OPENCLAW_CONFIG_PATH"),
            xdg_data_home: get("XDG_DATA_HOME"),
        }
    }
}

/// How the state dir was chosen, reported by `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StateDirChoice {
    Flag,
    Env,
    Profile,
    Default,
    LegacyClawdbot,
}

fn expand_tilde(raw: &str, home: Option<&Path>) -> PathBuf {
    let raw = raw.trim();
    match (raw.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            home.join(rest.trim_start_matches('/'))
        }
        _ => PathBuf::from(raw),
    }
}

fn absolutize(p: PathBuf) -> PathBuf {
    if p.is_absolute() {
        p
    } else {
        std::env::current_dir().map(|cwd| cwd.join(&p)).unwrap_or(p)
    }
}

/// Home: `OPENCLAW_HOME` (with `~`), else `HOME`.
pub fn resolve_home(env: &Environment) -> Result<PathBuf> {
    let os_home = env.home.as_deref().map(PathBuf::from);
    if let Some(h) = &env.openclaw_home {
        return Ok(absolutize(expand_tilde(h, os_home.as_deref())));
    }
    os_home
        .map(absolutize)
        .ok_or_else(|| Error::InvalidArgument {
            message: "cannot find the home directory: neither OPENCLAW_HOME nor HOME is set".into(),
            hint: Some("pass --state-dir DIR".into()),
        })
}

fn validate_profile(name: &str) -> Result<()> {
    crate::paths::AgentId::parse(name)
        .map(|_| ())
        .map_err(|_| Error::InvalidArgument {
            message: format!("invalid profile name {name:?}"),
            hint: Some("profile names use letters, digits, '_' and '-'".into()),
        })
}

/// State dir resolution, in OpenClaw's order (tests/reference/openclaw/FORMAT.md §a).
pub fn resolve_state_dir(
    flag: Option<&Path>,
    profile_flag: Option<&str>,
    env: &Environment,
) -> Result<(PathBuf, StateDirChoice)> {
    let os_home = env.home.as_deref().map(PathBuf::from);
    if let Some(dir) = flag {
        let s = dir.to_string_lossy();
        return Ok((
            absolutize(expand_tilde(&s, os_home.as_deref())),
            StateDirChoice::Flag,
        ));
    }
    if let Some(dir) = &env.state_dir {
        return Ok((
            absolutize(expand_tilde(dir, os_home.as_deref())),
            StateDirChoice::Env,
        ));
    }
    let home = resolve_home(env)?;
    if let Some(profile) = profile_flag.or(env.profile.as_deref()) {
        let profile = profile.trim();
        validate_profile(profile)?;
        let name = if profile.eq_ignore_ascii_case("default") {
            ".openclaw".to_string()
        } else {
            format!(".openclaw-{}", profile.to_ascii_lowercase())
        };
        return Ok((home.join(name), StateDirChoice::Profile));
    }
    let primary = home.join(".openclaw");
    if primary.exists() {
        return Ok((primary, StateDirChoice::Default));
    }
    let legacy = home.join(".clawdbot");
    if legacy.exists() {
        return Ok((legacy, StateDirChoice::LegacyClawdbot));
    }
    Ok((primary, StateDirChoice::Default))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_with_home(home: &Path) -> Environment {
        Environment {
            home: Some(home.to_string_lossy().into()),
            ..Default::default()
        }
    }

    #[test]
    fn order_flag_env_profile_default() {
        let tmp = tempfile::tempdir().unwrap();
        let mut env = env_with_home(tmp.path());
        let (d, c) = resolve_state_dir(None, None, &env).unwrap();
        assert_eq!(
            (d, c),
            (tmp.path().join(".openclaw"), StateDirChoice::Default)
        );
        std::fs::create_dir(tmp.path().join(".clawdbot")).unwrap();
        let (d, c) = resolve_state_dir(None, None, &env).unwrap();
        assert_eq!(
            (d, c),
            (tmp.path().join(".clawdbot"), StateDirChoice::LegacyClawdbot)
        );
        std::fs::create_dir(tmp.path().join(".openclaw")).unwrap();
        assert_eq!(
            resolve_state_dir(None, None, &env).unwrap().0,
            tmp.path().join(".openclaw")
        );
        assert_eq!(
            resolve_state_dir(None, Some("Dev"), &env).unwrap().0,
            tmp.path().join(".openclaw-dev")
        );
        assert_eq!(
            resolve_state_dir(None, Some("default"), &env).unwrap().0,
            tmp.path().join(".openclaw")
        );
        assert!(resolve_state_dir(None, Some("../x"), &env).is_err());
        env.state_dir = Some("~/custom".into());
        assert_eq!(
            resolve_state_dir(None, None, &env).unwrap().0,
            tmp.path().join("custom")
        );
        let flag = tmp.path().join("flag");
        assert_eq!(resolve_state_dir(Some(&flag), None, &env).unwrap().0, flag);
    }

    #[test]
    fn openclaw_home_with_tilde() {
        let env = Environment {
            home: Some("/home/user".into()),
            openclaw_home: Some("~/oc".into()),
            ..Default::default()
        };
        assert_eq!(resolve_home(&env).unwrap(), PathBuf::from("/home/user/oc"));
    }
}

/// The owner of a state dir as one opened directory gives it, and that directory's identity,
/// so that a caller can check the path still names it after acting on the owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirOwner {
    pub uid: u32,
    pub gid: u32,
    dev: u64,
    ino: u64,
}

impl DirOwner {
    /// Open `dir` (a directory, by its path) and read its owner from the open descriptor.
    pub fn of(dir: &Path) -> std::io::Result<Self> {
        use rustix::fs::{Mode, OFlags};
        let fd = rustix::fs::open(
            dir,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let st = rustix::fs::fstat(&fd)?;
        Ok(DirOwner {
            uid: st.st_uid,
            gid: st.st_gid,
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
        })
    }

    /// Whether `dir` still names the directory this owner was read from. One that cannot be
    /// opened any more (gone, or not this user's to search) is not called replaced: every
    /// later use of it fails the same way, and says why.
    pub fn still_names(&self, dir: &Path) -> bool {
        DirOwner::of(dir).map_or(true, |now| now == *self)
    }
}

/// The first directory on the way to `state_dir` (its parents, by the path as given and by its
/// resolved form) that a user other than root can change: one such a user owns, or one group
/// or others may write without the sticky bit. That user could swap the state dir for another
/// directory at any moment, so root must not act in it as root (docs/openclaw/HOSTILE.md §13).
pub fn changeable_by_another_user(state_dir: &Path) -> Option<(PathBuf, u32)> {
    use std::os::unix::fs::MetadataExt;
    let mut dirs: Vec<PathBuf> = state_dir
        .ancestors()
        .skip(1)
        .map(Path::to_path_buf)
        .collect();
    if let Ok(real) = std::fs::canonicalize(state_dir) {
        dirs.extend(real.ancestors().skip(1).map(Path::to_path_buf));
    }
    dirs.into_iter()
        .filter(|d| !d.as_os_str().is_empty())
        .find_map(|d| {
            let m = std::fs::metadata(&d).ok()?;
            let sticky = m.mode() & 0o1000 != 0;
            (m.uid() != 0 || (m.mode() & 0o022 != 0 && !sticky)).then_some((d, m.uid()))
        })
}
