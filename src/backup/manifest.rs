use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// `database` of a manifest: an agent database (with its owner) or the global one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase", deny_unknown_fields)]
pub enum DatabaseManifest {
    Agent {
        #[serde(rename = "agentId")]
        agent_id: String,
        basename: String,
        #[serde(rename = "userVersion")]
        user_version: i64,
    },
    Global {
        basename: String,
        #[serde(rename = "userVersion")]
        user_version: i64,
    },
}

impl DatabaseManifest {
    pub fn user_version(&self) -> i64 {
        match self {
            DatabaseManifest::Agent { user_version, .. }
            | DatabaseManifest::Global { user_version, .. } => *user_version,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArtifactManifest {
    pub path: String,
    pub sha256: String,
    pub size_bytes: u64,
}

/// `manifest.json`: exactly these keys, in this order (OpenClaw rejects anything else).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SnapshotManifest {
    pub schema_version: u32,
    pub snapshot_id: String,
    pub created_at: String,
    pub database: DatabaseManifest,
    pub artifact: ArtifactManifest,
}

impl SnapshotManifest {
    /// As OpenClaw writes it: `JSON.stringify(manifest, null, 2)` and a newline.
    pub fn to_text(&self) -> String {
        format!(
            "{}\n",
            serde_json::to_string_pretty(self).unwrap_or_default()
        )
    }

    pub fn read(path: &Path) -> Result<Self> {
        let text = crate::fsutil::read_regular_to_string(path)?;
        let m: SnapshotManifest = serde_json::from_str(&text).map_err(|e| {
            Error::bad_input(
                format!("snapshot manifest {} is invalid: {e}", path.display()),
                None,
            )
        })?;
        let bad = |what: &str| {
            Error::bad_input(
                format!("snapshot manifest {} has an invalid {what}", path.display()),
                None,
            )
        };
        if m.schema_version != 1 {
            return Err(bad("schemaVersion"));
        }
        let id_ok = !m.snapshot_id.is_empty()
            && m.snapshot_id.len() <= 255
            && m.snapshot_id
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
            && m.snapshot_id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
        if !id_ok {
            return Err(bad("snapshotId"));
        }
        if crate::units::parse_iso_ms(&m.created_at)
            .map(crate::units::iso_from_ms)
            .as_deref()
            != Some(m.created_at.as_str())
        {
            return Err(bad("createdAt (not canonical ISO 8601)"));
        }
        if m.artifact.path != super::SNAPSHOT_DB
            || m.artifact.sha256.len() != 64
            || !m
                .artifact
                .sha256
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            return Err(bad("artifact"));
        }
        Ok(m)
    }
}

/// `<ISO time with : and . as ->-<uuid>`.
pub fn snapshot_id(now_ms: i64) -> String {
    format!(
        "{}-{}",
        crate::units::iso_from_ms(now_ms).replace([':', '.'], "-"),
        uuid::Uuid::new_v4()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fixture_manifest_and_writes_it_back_identically() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/openclaw-2026.9.6/snapshot"
        );
        let snap = std::fs::read_dir(dir)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let path = snap.join("manifest.json");
        let m = SnapshotManifest::read(&path).unwrap();
        assert_eq!(m.to_text(), std::fs::read_to_string(&path).unwrap());
        assert!(
            matches!(m.database, DatabaseManifest::Agent { ref agent_id, .. } if agent_id == "main")
        );
    }
}
