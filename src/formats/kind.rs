use std::fmt;

/// Our own finer classification of a session (`category` in `list --json` and `show --json`),
/// from its key (tests/reference/openclaw/FORMAT.md §c key forms) and chat type. OpenClaw's
/// own `kind` is [`OpenClawKind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SessionKind {
    Main,
    Direct,
    Group,
    Channel,
    Thread,
    Subagent,
    Cron,
    Hook,
    Acp,
    Dashboard,
    Explicit,
}

impl SessionKind {
    /// Every category, in the order `list --category` offers them.
    pub const ALL: [SessionKind; 11] = [
        SessionKind::Main,
        SessionKind::Direct,
        SessionKind::Group,
        SessionKind::Channel,
        SessionKind::Thread,
        SessionKind::Subagent,
        SessionKind::Cron,
        SessionKind::Hook,
        SessionKind::Acp,
        SessionKind::Dashboard,
        SessionKind::Explicit,
    ];

    pub fn of(key: &str, chat_type: Option<&str>) -> SessionKind {
        let lower = key.to_ascii_lowercase();
        let rest = match lower.strip_prefix("agent:") {
            Some(r) => r.split_once(':').map(|(_, rest)| rest).unwrap_or(""),
            None => lower.as_str(),
        };
        let first = rest.split(':').next().unwrap_or("");
        let segments: Vec<&str> = rest.split(':').collect();
        match first {
            "main" if segments.len() == 1 => return SessionKind::Main,
            "global" if segments.len() == 1 => return SessionKind::Main,
            "subagent" => return SessionKind::Subagent,
            "cron" => return SessionKind::Cron,
            "hook" => return SessionKind::Hook,
            "acp" | "acp-bridge" => return SessionKind::Acp,
            "dashboard" => return SessionKind::Dashboard,
            "explicit" => return SessionKind::Explicit,
            _ => {}
        }
        if segments.contains(&"thread")
            || segments.contains(&"topic")
            || chat_type == Some("thread")
        {
            SessionKind::Thread
        } else if segments.contains(&"direct") || segments.contains(&"dm") {
            SessionKind::Direct
        } else if segments.contains(&"group") || chat_type == Some("group") {
            SessionKind::Group
        } else if segments.contains(&"channel") || chat_type == Some("channel") {
            SessionKind::Channel
        } else {
            // Operator-named keys (`agent:main:scratch-1`) are explicit sessions.
            SessionKind::Explicit
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SessionKind::Main => "main",
            SessionKind::Direct => "direct",
            SessionKind::Group => "group",
            SessionKind::Channel => "channel",
            SessionKind::Thread => "thread",
            SessionKind::Subagent => "subagent",
            SessionKind::Cron => "cron",
            SessionKind::Hook => "hook",
            SessionKind::Acp => "acp",
            SessionKind::Dashboard => "dashboard",
            SessionKind::Explicit => "explicit",
        }
    }
}

/// The `kind` of OpenClaw's `openclaw sessions --json`, computed as its `classifySessionKind`
/// does (OpenClaw 2026.9.6, `src/sessions/classify-session-kind.ts`), in its order: the
/// sentinel keys `global` and `unknown`; a cron key (`agent:<id>:cron:...`); an entry with
/// `spawnedBy` (`spawn-child`); a group or channel chat type, or `:group:`/`:channel:` in the
/// key (`group`); else `direct`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpenClawKind {
    Direct,
    Group,
    Cron,
    SpawnChild,
    Global,
    Unknown,
}

impl OpenClawKind {
    /// Every kind, in the order `list --kind` offers them.
    pub const ALL: [OpenClawKind; 6] = [
        OpenClawKind::Direct,
        OpenClawKind::Group,
        OpenClawKind::Cron,
        OpenClawKind::SpawnChild,
        OpenClawKind::Global,
        OpenClawKind::Unknown,
    ];

    /// `spawned_by`: whether the entry's `spawnedBy` is set (a JavaScript truthy value).
    pub fn of(key: &str, spawned_by: bool, chat_type: Option<&str>) -> OpenClawKind {
        if key == "global" {
            return OpenClawKind::Global;
        }
        if key == "unknown" {
            return OpenClawKind::Unknown;
        }
        if is_cron_key(key) {
            return OpenClawKind::Cron;
        }
        if spawned_by {
            return OpenClawKind::SpawnChild;
        }
        if matches!(chat_type, Some("group" | "channel"))
            || key.contains(":group:")
            || key.contains(":channel:")
        {
            return OpenClawKind::Group;
        }
        OpenClawKind::Direct
    }

    pub fn as_str(self) -> &'static str {
        match self {
            OpenClawKind::Direct => "direct",
            OpenClawKind::Group => "group",
            OpenClawKind::Cron => "cron",
            OpenClawKind::SpawnChild => "spawn-child",
            OpenClawKind::Global => "global",
            OpenClawKind::Unknown => "unknown",
        }
    }
}

/// OpenClaw's `isCronSessionKey`: an `agent:<id>:<rest>` key whose rest starts with `cron:`,
/// in any case.
fn is_cron_key(key: &str) -> bool {
    let key = key.trim();
    let Some(prefix) = key.get(..6) else {
        return false;
    };
    if !prefix.eq_ignore_ascii_case("agent:") {
        return false;
    }
    match key[6..].split_once(':') {
        Some((agent, rest)) => {
            !agent.trim().is_empty()
                && rest
                    .trim()
                    .get(..5)
                    .is_some_and(|p| p.eq_ignore_ascii_case("cron:"))
        }
        None => false,
    }
}

impl fmt::Display for OpenClawKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for SessionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::SessionKind::{self, *};

    /// `ALL` lists every variant once, in declaration order: a new variant fails to compile
    /// in these matches until it is given a place, and then this test until `ALL` has it.
    #[test]
    fn all_lists_every_variant_once() {
        fn category_index(k: SessionKind) -> usize {
            match k {
                Main => 0,
                Direct => 1,
                Group => 2,
                Channel => 3,
                Thread => 4,
                Subagent => 5,
                Cron => 6,
                Hook => 7,
                Acp => 8,
                Dashboard => 9,
                Explicit => 10,
            }
        }
        fn kind_index(k: super::OpenClawKind) -> usize {
            use super::OpenClawKind as K;
            match k {
                K::Direct => 0,
                K::Group => 1,
                K::Cron => 2,
                K::SpawnChild => 3,
                K::Global => 4,
                K::Unknown => 5,
            }
        }
        let categories: Vec<usize> = SessionKind::ALL.into_iter().map(category_index).collect();
        assert_eq!(categories, (0..SessionKind::ALL.len()).collect::<Vec<_>>());
        let kinds: Vec<usize> = super::OpenClawKind::ALL
            .into_iter()
            .map(kind_index)
            .collect();
        assert_eq!(
            kinds,
            (0..super::OpenClawKind::ALL.len()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn classifies_fixture_keys() {
        let cases = [
            ("agent:main:main", Main),
            ("agent:main:telegram:direct:123454", Direct),
            ("agent:main:telegram:group:-100123456784", Group),
            ("agent:main:discord:channel:987654324", Channel),
            (
                "agent:main:slack:direct:u04abcdef:thread:1777244748.777294",
                Thread,
            ),
            ("agent:main:subagent:461fb4b4", Subagent),
            ("agent:main:cron:nightly:run:884", Cron),
            ("agent:main:hook:7a41e6f5", Hook),
            ("agent:main:acp:9911cc46", Acp),
            ("agent:main:dashboard:review-ui", Dashboard),
            ("agent:main:explicit:cli-main", Explicit),
            ("agent:main:scratch-1", Explicit),
        ];
        for (key, kind) in cases {
            assert_eq!(SessionKind::of(key, None), kind, "{key}");
        }
    }

    #[test]
    fn openclaw_kinds_in_openclaws_order() {
        use super::OpenClawKind as K;
        let cases = [
            ("global", false, None, K::Global),
            ("unknown", true, None, K::Unknown),
            ("agent:main:cron:nightly:run:884", true, None, K::Cron),
            ("AGENT:main:CRON:x", false, None, K::Cron),
            ("cron:x", false, None, K::Direct),
            ("agent:main:subagent:461fb4b4", true, None, K::SpawnChild),
            ("agent:main:subagent:461fb4b4", false, None, K::Direct),
            (
                "agent:main:telegram:group:-100123456784",
                false,
                None,
                K::Group,
            ),
            (
                "agent:main:discord:channel:987654324",
                false,
                None,
                K::Group,
            ),
            ("agent:main:scratch-1", false, Some("channel"), K::Group),
            (
                "agent:main:slack:direct:u04abcdef:thread:1",
                false,
                None,
                K::Direct,
            ),
            ("agent:main:main", false, None, K::Direct),
        ];
        for (key, spawned, chat, kind) in cases {
            assert_eq!(K::of(key, spawned, chat), kind, "{key}");
        }
    }
}
