use std::path::Path;

use super::db::meta;
use super::sqlite_header::{not_a_database, require_sqlite_file};
use super::ReadOnlyDb;
use crate::error::{Error, Remedy, Result, ResultExt};

pub const KNOWN_AGENT_SCHEMA: i64 = 23;
pub const KNOWN_STATE_SCHEMA: i64 = 18;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DatabaseRole {
    Agent,
    Global,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SchemaStatus {
    /// The version this tool was built against: everything works.
    Known,
    /// Written by a newer OpenClaw: reads work with a warning, mutations are refused.
    Newer,
    /// An older layout: reads work where the data is there.
    Older,
}

/// `PRAGMA user_version` and the `schema_meta` row `primary`.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SchemaInfo {
    pub user_version: i64,
    pub role: Option<String>,
    pub agent_id: Option<String>,
    pub app_version: Option<String>,
    pub status: SchemaStatus,
}

/// [`require_sqlite_file`], and an SQLite file without a single table (made by opening a
/// missing path) holds nothing of OpenClaw's either: not "an older schema version 0".
pub fn require_database(db: &ReadOnlyDb) -> Result<()> {
    require_sqlite_file(db.path())?;
    let conn = db.conn();
    let user_version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .at(db.path())?;
    if user_version == 0 && meta::table_names(conn).at(db.path())?.is_empty() {
        return Err(not_a_database(
            db.path(),
            "is an SQLite database without any table",
        ));
    }
    Ok(())
}

impl SchemaInfo {
    pub fn read(db: &ReadOnlyDb, expected: DatabaseRole) -> Result<Self> {
        require_database(db)?;
        let conn = db.conn();
        let user_version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .at(db.path())?;
        let has_meta: bool = meta::has_schema_meta(conn).at(db.path())?;
        let (role, agent_id, app_version) = if has_meta {
            meta::identity(conn)
                .at(db.path())?
                .unwrap_or((None, None, None))
        } else {
            (None, None, None)
        };
        let known = match expected {
            DatabaseRole::Agent => KNOWN_AGENT_SCHEMA,
            DatabaseRole::Global => KNOWN_STATE_SCHEMA,
        };
        let status = match user_version.cmp(&known) {
            std::cmp::Ordering::Equal => SchemaStatus::Known,
            std::cmp::Ordering::Greater => SchemaStatus::Newer,
            std::cmp::Ordering::Less => SchemaStatus::Older,
        };
        let info = SchemaInfo {
            user_version,
            role,
            agent_id,
            app_version,
            status,
        };
        let want = match expected {
            DatabaseRole::Agent => "agent",
            DatabaseRole::Global => "global",
        };
        if let Some(role) = &info.role {
            if role != want {
                return Err(Error::UnsupportedSchema {
                    message: format!(
                        "{} is an OpenClaw {role} database, not an {want} database",
                        db.path().display()
                    ),
                    hint: None,
                });
            }
        }
        Ok(info)
    }

    /// The warning readers print for a database they can only partly vouch for.
    pub fn warning(&self, path: &Path) -> Option<String> {
        match self.status {
            SchemaStatus::Known => None,
            SchemaStatus::Newer => Some(format!(
                "{} has schema version {} (newer than {}, written by OpenClaw {}); reading it anyway, mutations are refused",
                path.display(),
                self.user_version,
                KNOWN_AGENT_SCHEMA,
                self.app_version.as_deref().unwrap_or("?")
            )),
            SchemaStatus::Older => Some(format!(
                "{} has an older schema version {}; showing what it holds",
                path.display(),
                self.user_version
            )),
        }
    }

    /// Mutations need the exact known schema.
    pub fn require_writable(&self, path: &Path) -> Result<()> {
        match self.status {
            SchemaStatus::Known => Ok(()),
            SchemaStatus::Newer => Err(Error::UnsupportedSchema {
                message: format!(
                    "{} has schema version {}, newer than the {} this tool writes",
                    path.display(),
                    self.user_version,
                    KNOWN_AGENT_SCHEMA
                ),
                hint: Some("upgrade this tool".into()),
            }
            .with_remedy(Remedy::Upgrade)),
            SchemaStatus::Older => Err(Error::UnsupportedSchema {
                message: format!(
                    "{} has an older schema version {}",
                    path.display(),
                    self.user_version
                ),
                hint: Some(
                    "let OpenClaw upgrade it first, or import it with `openclaw doctor --session-sqlite import`"
                        .into(),
                ),
            }),
        }
    }
}
