//! The secrets this host holds, by value: what `openclaw.json` resolves to (the Gateway's
//! token and password, provider keys, `env`), the auth profiles of each agent
//! (`agents/<id>/agent/auth-profiles.json`, and the `auth_profile_store` rows 2026.9.6 keeps
//! them in), and values an admin gives (`--value-from`). docs/SECRETS.md says which fields.

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};

/// Values shorter than this are too common to be told apart from ordinary text.
pub const MIN_VALUE_LEN: usize = 8;

/// One value to look for, and where it came from (never the value itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostValue {
    pub source: String,
    pub value: String,
}

/// Whether a field of that name holds a secret, as OpenClaw's config and auth profiles
/// name them (`token`, `password`, `apiKey`, `key`, `access`, `refresh`, `secret`,
/// `botToken`, `clientSecret`, `webhookSecret`, ...).
fn secret_field(name: &str) -> bool {
    let n: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    n == "key"
        || n == "access"
        || n == "refresh"
        || n.ends_with("token")
        || n.ends_with("password")
        || n.ends_with("secret")
        || n.ends_with("apikey")
        || n.ends_with("privatekey")
        || n == "passphrase"
}

/// A `${VAR}` reference or an `{source: "env", id}` secret reference, resolved from the
/// process environment as OpenClaw resolves it at start.
fn resolve(value: &Value, env: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    match value {
        Value::String(s) => {
            let t = s.trim();
            if let Some(var) = t.strip_prefix("${").and_then(|r| r.strip_suffix('}')) {
                return env(var);
            }
            Some(s.clone())
        }
        Value::Object(map) => {
            let source = map.get("source").and_then(Value::as_str)?;
            let id = map.get("id").and_then(Value::as_str)?;
            (source == "env").then(|| env(id)).flatten()
        }
        _ => None,
    }
}

fn push(out: &mut Vec<HostValue>, source: String, value: String) {
    let value = value.trim().to_string();
    if value.len() < MIN_VALUE_LEN || out.iter().any(|v| v.value == value) {
        return;
    }
    out.push(HostValue { source, value });
}

/// Walk a JSON document: every secret-named field's resolved value; under `env`, every value.
fn walk(
    value: &Value,
    path: &mut Vec<String>,
    under_env: bool,
    label: &str,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut Vec<HostValue>,
) {
    match value {
        Value::Object(map) => {
            // A secret reference object is a value, not a section.
            if map.contains_key("source") && map.contains_key("id") {
                if let Some(v) = resolve(value, env) {
                    push(out, format!("{label} {}", path.join(".")), v);
                }
                return;
            }
            for (k, v) in map {
                path.push(k.clone());
                let named = secret_field(k);
                if (named || under_env) && !v.is_object() && !v.is_array() {
                    if let Some(s) = resolve(v, env) {
                        push(out, format!("{label} {}", path.join(".")), s);
                    }
                } else if named && v.is_object() {
                    if let Some(s) = resolve(v, env) {
                        push(out, format!("{label} {}", path.join(".")), s);
                    } else {
                        walk(v, path, under_env || k == "env", label, env, out);
                    }
                } else {
                    walk(
                        v,
                        path,
                        under_env || (path.len() == 1 && k == "env"),
                        label,
                        env,
                        out,
                    );
                }
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(i.to_string());
                walk(v, path, under_env, label, env, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The secret values of a config document (`openclaw.json`, already parsed).
pub fn from_config(root: &Value, env: &dyn Fn(&str) -> Option<String>) -> Vec<HostValue> {
    let mut out = Vec::new();
    walk(root, &mut Vec::new(), false, "openclaw.json", env, &mut out);
    out
}

/// The secret values of an auth-profile store (the file, or a row's `store_json`).
pub fn from_auth_profiles(label: &str, text: &str, out: &mut Vec<HostValue>) {
    let Ok(doc) = serde_json::from_str::<Value>(text) else {
        return;
    };
    walk(&doc, &mut Vec::new(), false, label, &|_| None, out);
}

/// `--value-from FILE` (or `-`, standard input): one value a line; blank lines and lines
/// starting with `#` are skipped. A value shorter than [`MIN_VALUE_LEN`] is refused: it
/// would match ordinary words.
pub fn from_value_file(label: &str, text: &str, out: &mut Vec<HostValue>) -> Result<()> {
    for (n, line) in text.lines().enumerate() {
        let v = line.trim();
        if v.is_empty() || v.starts_with('#') {
            continue;
        }
        if v.len() < MIN_VALUE_LEN {
            return Err(Error::InvalidArgument {
                message: format!(
                    "{label} line {}: a value of {} characters is too short to look for (at least {MIN_VALUE_LEN})",
                    n + 1,
                    v.len()
                ),
                hint: Some("give whole secrets, one a line".into()),
            });
        }
        push(out, format!("{label} line {}", n + 1), v.to_string());
    }
    Ok(())
}

/// Every value the host holds: the config's, then each agent's auth profiles (the
/// `auth-profiles.json` file and the database's `auth_profile_store` rows).
pub fn collect(
    state_dir: &Path,
    config: &Value,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<HostValue>> {
    let mut out = from_config(config, env);
    let agents = state_dir.join("agents");
    let Some(rd) = crate::fsutil::read_dir_if_exists(&agents)? else {
        return Ok(out);
    };
    let mut dirs: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    dirs.sort();
    for dir in dirs {
        let id = dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let file = dir.join("agent").join("auth-profiles.json");
        if let Ok(text) = std::fs::read_to_string(&file) {
            from_auth_profiles(
                &format!("agents/{id}/agent/auth-profiles.json"),
                &text,
                &mut out,
            );
        }
        let db = dir.join("agent").join("openclaw-agent.sqlite");
        if db.is_file() {
            if let Ok(db) = crate::store::ReadOnlyDb::open_as_stored(&db) {
                let stores = crate::store::db::all_values::auth_profile_stores(db.conn())
                    .map_err(|e| Error::sqlite(db.path(), e))?;
                for text in stores {
                    from_auth_profiles(&format!("agent {id} auth_profile_store"), &text, &mut out);
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_secrets_are_resolved_and_plain_settings_are_not() {
        let cfg = serde_json::json!({
            "gateway": {"auth": {"mode": "token", "token": "gw-0123456789abcdef"}},
            "models": {"providers": {"openai": {"apiKey": "${OPENAI_API_KEY}", "baseUrl": "https://api.example"}}},
            "channels": {"telegram": {"botToken": {"source": "env", "id": "TG"}}},
            "env": {"DEPLOY_PASSWORD": "hunter2hunter2"},
            "session": {"store": "sqlite-store-path"}
        });
        let env = |k: &str| match k {
            "OPENAI_API_KEY" => Some("sk-test-abcdefghijklmnop".to_string()),
            "TG" => Some("123456:AAbbccddeeff".to_string()),
            _ => None,
        };
        let got: Vec<(String, String)> = from_config(&cfg, &env)
            .into_iter()
            .map(|v| (v.source, v.value))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "openclaw.json gateway.auth.token".into(),
                    "gw-0123456789abcdef".into()
                ),
                (
                    "openclaw.json models.providers.openai.apiKey".into(),
                    "sk-test-abcdefghijklmnop".into()
                ),
                (
                    "openclaw.json channels.telegram.botToken".into(),
                    "123456:AAbbccddeeff".into()
                ),
                (
                    "openclaw.json env.DEPLOY_PASSWORD".into(),
                    "hunter2hunter2".into()
                ),
            ]
        );
    }

    #[test]
    fn a_short_value_file_line_is_refused() {
        let mut out = Vec::new();
        assert!(from_value_file("-", "# c\n\nlong-enough-value\n", &mut out).is_ok());
        assert_eq!(out.len(), 1);
        assert!(from_value_file("-", "short\n", &mut out).is_err());
    }
}
