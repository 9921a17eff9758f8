use std::path::Path;

use super::db::meta;
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

/// The first bytes of every SQLite 3 database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Refuse a file that is not an SQLite database at all (empty, cut short before its header,
/// or something else), saying what it is, instead of the first query's "no such table" or
/// "file is not a database" (docs/openclaw/HOSTILE.md, section 3).
pub fn require_sqlite_file(path: &Path) -> Result<()> {
    let size = std::fs::metadata(path).at(path)?.len();
    let mut head = [0u8; 100];
    let read = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .at(path)?;
    let what = if size == 0 {
        "is empty (0 bytes)".to_string()
    } else if read < head.len() || &head[..16] != SQLITE_HEADER {
        format!("is not an SQLite database ({size} bytes)")
    } else if let Some(whole) = header_size(&head).filter(|whole| size < *whole) {
        format!("is cut short ({size} of the {whole} bytes its header counts)")
    } else {
        return Ok(());
    };
    Err(not_a_database(path, &what))
}

/// The database size the header records (page size times page count), when SQLite itself
/// would trust it: the change counter equals the "version valid for" number (SQLite's file
/// format, "in-header database size").
fn header_size(head: &[u8; 100]) -> Option<u64> {
    let be32 = |at: usize| u32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    let page_size = match u16::from_be_bytes([head[16], head[17]]) {
        1 => 65_536,
        n => u64::from(n),
    };
    let pages = u64::from(be32(28));
    (be32(24) == be32(92) && pages > 0 && page_size >= 512).then_some(page_size * pages)
}

fn not_a_database(path: &Path, what: &str) -> Error {
    Error::UnsupportedSchema {
        message: format!("{} {what}: nothing in it can be read", path.display()),
        hint: Some(
            "see the damage with the doctor, then bring back a verified snapshot in place".into(),
        ),
    }
    .with_remedy(Remedy::DamagedDatabase)
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
