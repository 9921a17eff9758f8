use std::fmt;

/// What a session is, from its key (tests/reference/openclaw/FORMAT.md §c key forms) and
/// chat type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
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

impl fmt::Display for SessionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::SessionKind::{self, *};

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
}
