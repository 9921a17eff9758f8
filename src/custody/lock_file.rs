use serde::{Deserialize, Serialize};

/// The JSON payload of `gateway.state.lock` / `gateway.<h8>.lock`. The file is the
/// pretty-printed payload, a newline, then an opaque whitespace token line, so the whole
/// file still parses as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LockPayload {
    pub pid: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_id: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub config_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_dir: Option<String>,
    /// Absent for a Gateway.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i64>,
}

impl LockPayload {
    pub fn parse(text: &str) -> Option<Self> {
        serde_json::from_str(text).ok()
    }

    pub fn role_or_gateway(&self) -> &str {
        self.role.as_deref().unwrap_or("gateway")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_payload_with_token_line() {
        let text = format!(
            "{{\n  \"pid\": 9385,\n  \"ownerId\": \"u\",\n  \"createdAt\": \"2026-11-29T22:40:27.387Z\",\n  \"configPath\": \"/c\",\n  \"stateDir\": \"/s\",\n  \"role\": \"sqlite-maintenance\",\n  \"startTime\": 72255\n}}\n{}{}\n",
            "\t".repeat(8),
            " \t".repeat(64)
        );
        let p = LockPayload::parse(&text).unwrap();
        assert_eq!(p.pid, Some(9385));
        assert_eq!(p.start_time, Some(72255));
        assert_eq!(p.role_or_gateway(), "sqlite-maintenance");
        assert!(LockPayload::parse("{\"pid\": 1").is_none());
    }
}
