use std::path::Path;

use super::db::meta;
use super::sqlite_header::{not_a_database, require_sqlite_file};
use super::ReadOnlyDb;
use crate::error::{Error, Remedy, Result, ResultExt};

/// The schemas of the newest release of the table (`store::releases`).
pub const KNOWN_AGENT_SCHEMA: i64 = super::releases::NEWEST_AGENT_SCHEMA;
pub const KNOWN_STATE_SCHEMA: i64 = super::releases::NEWEST_STATE_SCHEMA;

pub use super::releases::DatabaseRole;

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
    /// Which kind of database it was read as.
    #[serde(skip)]
    pub database: DatabaseRole,
    /// The releases whose own code creates this schema, in words ("OpenClaw 2026.8.1 to
    /// 2026.9.4").
    pub releases: String,
    /// The releases that open it (an older state database they upgrade themselves on their
    /// first command, one-way), in words.
    pub opened_by: String,
    /// The releases that open it only after their `openclaw doctor --fix` upgraded it
    /// (one-way), in words; empty when none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub opened_after_doctor_fix: String,
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
            database: expected,
            releases: super::releases::describe(expected, user_version),
            opened_by: super::releases::opening(expected, user_version).0,
            opened_after_doctor_fix: super::releases::opening(expected, user_version).1,
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

    fn kind(&self) -> &'static str {
        match self.database {
            DatabaseRole::Agent => "agent",
            DatabaseRole::Global => "state",
        }
    }

    /// "schema 19 (created by OpenClaw 2026.8.2; the schema of OpenClaw 2026.8.1 to 2026.9.4)".
    pub fn provenance(&self) -> String {
        let created = match &self.app_version {
            Some(v) => format!("created by OpenClaw {v}; "),
            None => String::new(),
        };
        format!(
            "{} schema {} ({created}the schema of {})",
            self.kind(),
            self.user_version,
            self.releases
        )
    }

    /// The warning readers print for a database they can only partly vouch for. It names no
    /// path: every database of one newer release gives the same words, and a run says them once
    /// (issue 48 item 2; the printer drops a warning already given).
    pub fn warning(&self) -> Option<String> {
        match self.status {
            SchemaStatus::Known => None,
            SchemaStatus::Newer => {
                let written = super::releases::written();
                let by = match &self.app_version {
                    Some(v) => format!("written by OpenClaw {v}"),
                    None => "written by a newer release".into(),
                };
                let what = match self.database {
                    DatabaseRole::Agent => "agent databases",
                    DatabaseRole::Global => "a state database",
                };
                Some(format!(
                    "this state dir has {what} at schema {} ({by}), newer than the releases this tool knows (up to OpenClaw {}): reading what it knows of them; changes go through that release's own code",
                    self.user_version, written.version,
                ))
            }
            // Reads of an older schema are complete (what that release holds is read), so
            // only a change is worth a word, and that is said when one is asked for.
            SchemaStatus::Older => None,
        }
    }

    /// Mutations need the exact known schema.
    pub fn require_writable(&self, path: &Path) -> Result<()> {
        self.require_writable_of(path, &[])
    }

    /// Mutations need the known schema, or one of the older `also` schemas whose writer the
    /// operation has proven against the releases that create it (an operation's
    /// `Operation::OLDER_SCHEMAS_WRITTEN`; agent databases only).
    pub fn require_writable_of(&self, path: &Path, also: &[i64]) -> Result<()> {
        if self.status == SchemaStatus::Older
            && self.database == DatabaseRole::Agent
            && also.contains(&self.user_version)
        {
            return Ok(());
        }
        let written = super::releases::written();
        let known = match self.database {
            DatabaseRole::Agent => KNOWN_AGENT_SCHEMA,
            DatabaseRole::Global => KNOWN_STATE_SCHEMA,
        };
        match self.status {
            SchemaStatus::Known => Ok(()),
            SchemaStatus::Newer => Err(Error::UnsupportedSchema {
                message: format!(
                    "{} has {}, newer than the {} schema {known} (OpenClaw {}) this tool writes; nothing was changed",
                    path.display(),
                    self.provenance(),
                    self.kind(),
                    written.version,
                ),
                hint: Some(owner_routes_hint(self.app_version.as_deref())),
            }
            .with_remedy(Remedy::OwnerWrites)),
            SchemaStatus::Older => Err(Error::UnsupportedSchema {
                // The schemas this command does write, so that a refusal after another
                // command worked on the same store says why.
                message: format!(
                    "{} has {}; this command changes only {} schema {} so far; nothing was changed",
                    path.display(),
                    self.provenance(),
                    self.kind(),
                    written_schemas(
                        std::iter::once((known, format!("OpenClaw {}", written.version)))
                            .chain(also.iter().map(|v| {
                                (*v, super::releases::describe(self.database, *v))
                            }))
                            .collect()
                    ),
                ),
                hint: Some(upgrade_hint(written.version)),
            }
            .with_remedy(Remedy::UpgradeSchema)),
        }
    }
}

/// `23 (OpenClaw 2026.9.6), 19 (...) and 21 (...)`.
fn written_schemas(schemas: Vec<(i64, String)>) -> String {
    let words: Vec<String> = schemas
        .into_iter()
        .map(|(v, by)| format!("{v} ({by})"))
        .collect();
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The routes that change a store of a release this tool does not write (docs/openclaw/RELEASES.md,
/// "The owner writes"): that release's own code, through its live Gateway or its own commands.
/// `owner`: the release the database names, when it names one.
pub fn owner_routes_hint(owner: Option<&str>) -> String {
    // A database that names a release this table knows, at a schema newer than that release's,
    // was relabelled or made by hand: its name says nothing of its owner.
    let owner = owner.filter(|v| !super::releases::RELEASES.iter().any(|r| r.version == *v));
    let release = match owner {
        Some(v) => format!("OpenClaw {v}"),
        None => "that release".into(),
    };
    format!(
        "{}: with {release}'s Gateway running, the same command goes through it; offline, use {release}'s own `openclaw` commands",
        Remedy::OwnerWrites.phrase()
    )
}

/// The two upgrades that work on an older store, and what they cost.
pub fn upgrade_hint(written: &str) -> String {
    format!(
        "upgrade the store first, one-way (OpenClaw releases before {written} can no longer open it afterwards): \
         upgrade OpenClaw to {written} or newer and run `openclaw doctor --fix`, or the schema upgrade of this tool"
    )
}
