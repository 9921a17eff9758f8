use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{Error, Result};
use crate::json_value::parse_json5_document;

/// The parts of `openclaw.json` (JSON5) this tool reads. The whole document is kept so
/// later readers can look up more without a second parse.
#[derive(Debug, Clone, Default)]
pub struct Config {
    pub path: Option<PathBuf>,
    pub root: Value,
}

/// `session.maintenance` with OpenClaw's defaults applied by the readers that need them.
#[derive(Debug, Clone, Default)]
pub struct MaintenanceConfig {
    pub raw: Value,
}

impl Config {
    /// Parse a config file. A syntax error names the file, line and column.
    pub fn load(path: &Path) -> Result<Self> {
        let text = crate::fsutil::read_regular_to_string(path)?;
        let root = parse_json5_document(&text).map_err(|(msg, line, col)| Error::BadInput {
            message: match line {
                Some(line) => format!(
                    "config {} does not parse as JSON5 at line {line}, column {}: {msg}",
                    path.display(),
                    col.unwrap_or(0)
                ),
                None => format!("config {} does not parse as JSON5: {msg}", path.display()),
            },
            hint: Some("fix the file, or point --config at another one".into()),
        })?;
        if !root.is_object() {
            return Err(Error::bad_input(
                format!("config {} is not a JSON5 object", path.display()),
                None,
            ));
        }
        Ok(Config {
            path: Some(path.to_path_buf()),
            root,
        })
    }

    fn at(&self, pointer: &str) -> Option<&Value> {
        self.root.pointer(pointer)
    }

    fn string_at(&self, pointer: &str) -> Option<&str> {
        self.at(pointer)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    /// `session.store` selector, raw.
    pub fn session_store(&self) -> Option<&str> {
        self.string_at("/session/store")
    }

    /// Whether `session.dmScope` is `main` (its default), which `--fix-dm-scope` needs
    /// (`cfg.session?.dmScope ?? "main"`, docs/openclaw/MAINTENANCE.md §3.2).
    pub fn dm_scope_is_main(&self) -> bool {
        match self.at("/session/dmScope") {
            None | Some(Value::Null) => true,
            Some(v) => v.as_str() == Some("main"),
        }
    }

    pub fn maintenance(&self) -> MaintenanceConfig {
        MaintenanceConfig {
            raw: self
                .at("/session/maintenance")
                .cloned()
                .unwrap_or(Value::Null),
        }
    }

    /// Agent ids listed under `agents.entries`, as written.
    pub fn agent_entries(&self) -> Vec<String> {
        match self.at("/agents/entries") {
            Some(Value::Object(map)) => map.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }

    /// The configured default agent: an entry marked `default: true`, else none.
    pub fn default_agent(&self) -> Option<String> {
        match self.at("/agents/entries") {
            Some(Value::Object(map)) => map
                .iter()
                .find(|(_, v)| v.get("default").and_then(Value::as_bool) == Some(true))
                .map(|(k, _)| k.clone()),
            _ => None,
        }
    }

    pub fn acpx_state_dir(&self) -> Option<&str> {
        self.string_at("/plugins/entries/acpx/config/stateDir")
    }

    /// Workspace of an agent: its own entry, else `agents.defaults.workspace`.
    pub fn workspace(&self, agent: &str) -> Option<&str> {
        self.string_at(&format!(
            "/agents/entries/{}/workspace",
            agent.replace('~', "~0").replace('/', "~1")
        ))
        .or_else(|| self.string_at("/agents/defaults/workspace"))
    }
}

impl MaintenanceConfig {
    /// `maxDiskBytes`: a number of bytes or a size string; `false`/0 disables. Default 10 GiB.
    pub fn max_disk_bytes(&self) -> Option<u64> {
        match self.raw.get("maxDiskBytes") {
            None | Some(Value::Null) => Some(10 * 1024 * 1024 * 1024),
            Some(Value::Bool(false)) => None,
            Some(Value::Number(n)) => n.as_u64().filter(|v| *v > 0),
            Some(Value::String(s)) => crate::units::parse_size(s).ok().filter(|v| *v > 0),
            _ => None,
        }
    }

    /// `highWaterBytes`: bytes, a size string, or a percentage of `maxDiskBytes` (default 80 %).
    pub fn high_water_bytes(&self) -> Option<u64> {
        let max = self.max_disk_bytes()?;
        let pct = |p: f64| Some((max as f64 * p / 100.0).floor() as u64);
        match self.raw.get("highWaterBytes") {
            None | Some(Value::Null) => pct(80.0),
            Some(Value::Number(n)) => n.as_u64(),
            Some(Value::String(s)) if s.trim().ends_with('%') => s
                .trim()
                .trim_end_matches('%')
                .trim()
                .parse::<f64>()
                .ok()
                .and_then(pct),
            Some(Value::String(s)) => crate::units::parse_size(s).ok(),
            _ => pct(80.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_error_names_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("openclaw.json");
        std::fs::write(
            &p,
            "{\n  // comment\n  session: { store: 'x', },\n  broken: [1,,]\n}\n",
        )
        .unwrap();
        let err = Config::load(&p).unwrap_err().to_string();
        assert!(err.contains("line 4"), "{err}");
        assert!(err.contains("openclaw.json"), "{err}");
    }

    #[test]
    fn reads_json5_fields() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("openclaw.json");
        std::fs::write(
            &p,
            "{session:{store:'~/s/{agentId}/sessions.json', maintenance:{maxDiskBytes:'1gb', highWaterBytes:'50%'}},\
             agents:{entries:{Work:{default:true}, main:{}}}, plugins:{entries:{acpx:{config:{stateDir:'/x'}}}}}",
        )
        .unwrap();
        let c = Config::load(&p).unwrap();
        assert_eq!(c.session_store(), Some("~/s/{agentId}/sessions.json"));
        assert_eq!(
            c.agent_entries(),
            vec!["Work".to_string(), "main".to_string()]
        );
        assert_eq!(c.default_agent().as_deref(), Some("Work"));
        assert_eq!(c.acpx_state_dir(), Some("/x"));
        assert_eq!(c.maintenance().max_disk_bytes(), Some(1 << 30));
        assert_eq!(c.maintenance().high_water_bytes(), Some(1 << 29));
    }
}
