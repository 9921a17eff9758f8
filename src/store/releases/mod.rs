//! Which OpenClaw release writes which schema, and which releases open a database of a given
//! schema (docs/openclaw/RELEASES.md, verified against each release's package). The releases
//! themselves are one table (`table.rs`): everything here is derived from its rows.

/// The two kinds of OpenClaw database: an agent's, and the state database (`global` in its
/// `schema_meta`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DatabaseRole {
    Agent,
    Global,
}

mod table;

pub use table::{
    markdown_table, Release, NEWEST_AGENT_SCHEMA, NEWEST_STATE_SCHEMA, OLDER_AGENT_SCHEMAS_WRITTEN,
    RELEASES,
};

impl Release {
    /// Whether the release keeps sessions in SQLite (2026.8.1-beta.1 and later); before,
    /// `sessions.json` and its JSONL files are the store.
    pub fn has_sqlite_sessions(&self) -> bool {
        self.agent_schema > 1
    }

    fn schema(&self, role: DatabaseRole) -> i64 {
        match role {
            DatabaseRole::Agent => self.agent_schema,
            DatabaseRole::Global => self.state_schema,
        }
    }
}

/// The newest release this table knows.
pub fn newest() -> &'static Release {
    &RELEASES[RELEASES.len() - 1]
}

/// The release whose schemas this tool writes.
pub fn written() -> &'static Release {
    newest()
}

/// The releases whose own code creates `role` databases at schema `version`.
pub fn creating(role: DatabaseRole, version: i64) -> Vec<&'static Release> {
    RELEASES
        .iter()
        .filter(|r| r.schema(role) == version)
        .collect()
}

/// How a release treats a database of a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Access {
    /// Its own schema: it reads and writes it as it is.
    Opens,
    /// An older state database: it upgrades it in place on its first command (one-way).
    Upgrades,
    /// An older agent database: it refuses it until its `openclaw doctor --fix` upgrades
    /// it (one-way).
    NeedsDoctorFix,
    /// A newer schema than it knows: it refuses the whole store.
    Refuses,
}

/// How `release` treats a `role` database at schema `version`.
pub fn access(release: &Release, role: DatabaseRole, version: i64) -> Access {
    let own = release.schema(role);
    match version.cmp(&own) {
        std::cmp::Ordering::Equal => Access::Opens,
        std::cmp::Ordering::Greater => Access::Refuses,
        std::cmp::Ordering::Less => match role {
            DatabaseRole::Global => Access::Upgrades,
            DatabaseRole::Agent => Access::NeedsDoctorFix,
        },
    }
}

/// The releases that open a `role` database at schema `version`, as it is or after upgrading
/// it themselves on their first command (an older state database), in words; and the releases
/// that need their `openclaw doctor --fix` first (an older agent database).
pub fn opening(role: DatabaseRole, version: i64) -> (String, String) {
    let (mut opens, mut after_fix) = (Vec::new(), Vec::new());
    for r in RELEASES {
        match access(r, role, version) {
            Access::Opens | Access::Upgrades => opens.push(r),
            Access::NeedsDoctorFix => after_fix.push(r),
            Access::Refuses => {}
        }
    }
    let words = |rs: &[&Release]| {
        if rs.is_empty() {
            String::new()
        } else {
            format!("OpenClaw {}", span(rs))
        }
    };
    (words(&opens), words(&after_fix))
}

/// Releases in words: `2026.9.5`, `2026.8.1 to 2026.9.4` for a run of consecutive ones
/// (runs joined by commas), or `no known release`.
pub fn span(releases: &[&Release]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for r in releases {
        let i = RELEASES
            .iter()
            .position(|k| k == *r)
            .expect("a release of the table");
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => runs.push((i, i)),
        }
    }
    if runs.is_empty() {
        return "no known release".into();
    }
    runs.iter()
        .map(|&(a, b)| {
            let name = |i: usize| {
                if i == 0 {
                    format!("{} and older", RELEASES[0].version)
                } else {
                    RELEASES[i].version.to_string()
                }
            };
            if a == b {
                name(a)
            } else {
                format!("{} to {}", RELEASES[a].version, RELEASES[b].version)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The releases that create `role` databases at `version`, in words ("OpenClaw 2026.8.1 to
/// 2026.9.4"), or what is known of a schema no release in the table creates.
pub fn describe(role: DatabaseRole, version: i64) -> String {
    let rs = creating(role, version);
    if !rs.is_empty() {
        return format!("OpenClaw {}", span(&rs));
    }
    if version > newest().schema(role) {
        format!("a release newer than OpenClaw {}", newest().version)
    } else {
        "no known OpenClaw release".into()
    }
}

/// One database of a state dir, as the release judgement sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseSchema {
    /// "the state database", "agent main".
    pub label: String,
    #[serde(skip)]
    pub role: DatabaseRole,
    pub schema: i64,
    /// The release its `schema_meta` names (the one that created it, or last upgraded it).
    #[serde(skip)]
    pub app_version: Option<String>,
}

impl DatabaseSchema {
    pub fn agent(id: &str, schema: i64) -> Self {
        DatabaseSchema {
            label: format!("agent {id}"),
            role: DatabaseRole::Agent,
            schema,
            app_version: None,
        }
    }

    pub fn state(schema: i64) -> Self {
        DatabaseSchema {
            label: "the state database".into(),
            role: DatabaseRole::Global,
            schema,
            app_version: None,
        }
    }

    /// The same database, naming the release its `schema_meta` names.
    pub fn named(mut self, app_version: Option<String>) -> Self {
        self.app_version = app_version;
        self
    }

    /// Whether its schema is newer than every release of the table knows.
    pub fn is_newer(&self) -> bool {
        self.schema > newest().schema(self.role)
    }

    /// "agent main at schema 19 (OpenClaw 2026.8.1 to 2026.9.4)".
    pub fn describe(&self) -> String {
        format!(
            "{} at schema {} ({})",
            self.label,
            self.schema,
            describe(self.role, self.schema)
        )
    }
}

/// Which releases open a state dir's databases, taken together.
#[derive(Debug, Clone, Default)]
pub struct StoreReleases {
    /// Releases that open every database as it is.
    pub as_is: Vec<&'static Release>,
    /// Releases that open the store after upgrading its older state database on their first
    /// command (one-way).
    pub after_state_upgrade: Vec<&'static Release>,
    /// Releases that refuse it until their `openclaw doctor --fix` upgrades its older agent
    /// databases (one-way), none being newer than theirs.
    pub after_doctor_fix: Vec<&'static Release>,
    /// Releases that refuse it, with the first database that is newer than theirs.
    pub refusing: Vec<(&'static Release, DatabaseSchema)>,
}

impl StoreReleases {
    /// Whether some release opens every database as it is.
    pub fn agree(&self) -> bool {
        !self.as_is.is_empty()
    }

    /// Whether no release opens the store without an admin's upgrade.
    pub fn unopenable(&self) -> bool {
        self.as_is.is_empty() && self.after_state_upgrade.is_empty()
    }
}

/// A state dir that belongs to a release newer than the table knows: its databases are newer
/// than the newest release's, or at its schema and naming that newer release (one that
/// changed only the other database's schema).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewerOwner {
    /// The release every database names, when they all name the same one the table does not
    /// know.
    pub release: Option<String>,
}

impl NewerOwner {
    /// "OpenClaw 2026.9.8", or "a release newer than OpenClaw 2026.9.6".
    pub fn words(&self) -> String {
        match &self.release {
            Some(v) => format!("OpenClaw {v}"),
            None => format!("a release newer than OpenClaw {}", newest().version),
        }
    }
}

/// The newer release these databases are all of (issue 48 item 2: such a store is one
/// release's, not databases that disagree), or `None`: no database is newer, or some are of a
/// release the table knows.
pub fn newer_owner(databases: &[DatabaseSchema]) -> Option<NewerOwner> {
    if !databases.iter().any(DatabaseSchema::is_newer) {
        return None;
    }
    let unknown = |v: &Option<String>| {
        v.as_deref()
            .filter(|v| !RELEASES.iter().any(|r| r.version == *v))
            .map(str::to_owned)
    };
    let first = unknown(&databases[0].app_version);
    let named_alike = first.is_some() && databases.iter().all(|d| unknown(&d.app_version) == first);
    let all_newer = databases.iter().all(DatabaseSchema::is_newer);
    let at_newest_or_newer = databases
        .iter()
        .all(|d| d.schema >= newest().schema(d.role));
    if all_newer || (named_alike && at_newest_or_newer) {
        Some(NewerOwner {
            release: if named_alike { first } else { None },
        })
    } else {
        None
    }
}

/// How every known release treats a store of these databases (an empty list: a store with no
/// database says nothing about its release).
pub fn judge(databases: &[DatabaseSchema]) -> StoreReleases {
    let mut out = StoreReleases::default();
    if databases.is_empty() {
        return out;
    }
    for r in RELEASES {
        let verdicts: Vec<(Access, &DatabaseSchema)> = databases
            .iter()
            .map(|d| (access(r, d.role, d.schema), d))
            .collect();
        // The database of the newest release is the one to name.
        let newest_refused = verdicts
            .iter()
            .filter(|(a, _)| *a == Access::Refuses)
            .max_by_key(|(_, d)| first_knowing(d.role, d.schema));
        if let Some((_, d)) = newest_refused {
            out.refusing.push((r, (*d).clone()));
        } else if verdicts.iter().any(|(a, _)| *a == Access::NeedsDoctorFix) {
            out.after_doctor_fix.push(r);
        } else if verdicts.iter().any(|(a, _)| *a == Access::Upgrades) {
            out.after_state_upgrade.push(r);
        } else {
            out.as_is.push(r);
        }
    }
    out
}

/// The position of the first release that knows `role` databases at `schema` (past the end
/// for a schema newer than every release).
fn first_knowing(role: DatabaseRole, schema: i64) -> usize {
    RELEASES
        .iter()
        .position(|r| r.schema(role) >= schema)
        .unwrap_or(RELEASES.len())
}

/// The releases that refuse a store, grouped by the database they refuse: "OpenClaw 2026.7.35
/// and older to 2026.9.5 (agent main at schema 23 (OpenClaw 2026.9.6) is newer than theirs)".
pub fn describe_refusals(refusing: &[(&'static Release, DatabaseSchema)]) -> Vec<String> {
    let mut groups: Vec<(Vec<&'static Release>, &DatabaseSchema)> = Vec::new();
    for (r, d) in refusing {
        match groups.last_mut() {
            Some((rs, last)) if *last == d => rs.push(r),
            _ => groups.push((vec![r], d)),
        }
    }
    let mut out = Vec::new();
    for (rs, d) in groups {
        // A release before SQLite sessions refuses nothing: it never looks at SQLite and
        // lists no session of it (docs/openclaw/RELEASES.md §4).
        let (blind, knowing): (Vec<&Release>, Vec<&Release>) =
            rs.into_iter().partition(|r| !r.has_sqlite_sessions());
        if !blind.is_empty() {
            out.push(format!(
                "OpenClaw {} see none of its SQLite sessions",
                span(&blind)
            ));
        }
        if !knowing.is_empty() {
            out.push(format!(
                "OpenClaw {} refuse it ({} is newer than theirs)",
                span(&knowing),
                d.describe()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_read_as_ranges() {
        for (role, version, words) in [
            (DatabaseRole::Agent, 19, "OpenClaw 2026.8.1 to 2026.9.4"),
            (DatabaseRole::Agent, 21, "OpenClaw 2026.9.5"),
            (DatabaseRole::Global, 17, "OpenClaw 2026.9.4 to 2026.9.5"),
            (DatabaseRole::Global, 1, "OpenClaw 2026.7.35 and older"),
            (
                DatabaseRole::Agent,
                24,
                "a release newer than OpenClaw 2026.9.6",
            ),
            (DatabaseRole::Agent, 20, "no known OpenClaw release"),
        ] {
            assert_eq!(describe(role, version), words, "{role:?} {version}");
        }
    }

    #[test]
    fn access_follows_the_upgrade_rules() {
        let r96 = creating(DatabaseRole::Agent, 23)[0];
        assert_eq!(access(r96, DatabaseRole::Agent, 23), Access::Opens);
        assert_eq!(access(r96, DatabaseRole::Agent, 19), Access::NeedsDoctorFix);
        assert_eq!(access(r96, DatabaseRole::Global, 15), Access::Upgrades);
        let r82 = RELEASES.iter().find(|r| r.version == "2026.8.2").unwrap();
        assert_eq!(access(r82, DatabaseRole::Agent, 23), Access::Refuses);
        assert_eq!(access(r82, DatabaseRole::Global, 18), Access::Refuses);
        assert_eq!(written().agent_schema, crate::store::KNOWN_AGENT_SCHEMA);
        assert_eq!(written().state_schema, crate::store::KNOWN_STATE_SCHEMA);
    }

    #[test]
    fn a_store_of_one_release_agrees_and_a_mixed_one_does_not() {
        let one = judge(&[DatabaseSchema::state(15), DatabaseSchema::agent("main", 19)]);
        assert!(one.agree());
        assert_eq!(span(&one.as_is), "2026.8.1 to 2026.9.2");
        assert_eq!(span(&one.after_state_upgrade), "2026.9.3 to 2026.9.4");
        assert_eq!(span(&one.after_doctor_fix), "2026.9.5 to 2026.9.6");

        let mixed = judge(&[DatabaseSchema::state(15), DatabaseSchema::agent("main", 23)]);
        assert!(!mixed.agree() && !mixed.unopenable());
        assert_eq!(span(&mixed.after_state_upgrade), "2026.9.6");
        assert_eq!(
            describe_refusals(&mixed.refusing),
            vec![
                "OpenClaw 2026.7.35 and older see none of its SQLite sessions",
                "OpenClaw 2026.8.1-beta.1 to 2026.9.5 refuse it (agent main at schema 23 (OpenClaw 2026.9.6) is newer than theirs)"
            ]
        );

        let split = judge(&[
            DatabaseSchema::state(18),
            DatabaseSchema::agent("main", 23),
            DatabaseSchema::agent("work", 19),
        ]);
        assert!(split.unopenable());
        assert_eq!(span(&split.after_doctor_fix), "2026.9.6");
        assert!(judge(&[]).as_is.is_empty());
    }

    #[test]
    fn a_store_of_one_newer_release_is_that_release_s() {
        let named = |d: DatabaseSchema, v: &str| d.named(Some(v.into()));
        let r98 = [
            named(DatabaseSchema::state(19), "2026.9.8"),
            named(DatabaseSchema::agent("main", 24), "2026.9.8"),
        ];
        assert_eq!(newer_owner(&r98).unwrap().words(), "OpenClaw 2026.9.8");
        // A release that changed the state schema only: its agents are at 23, named by it.
        let r97 = [
            named(DatabaseSchema::state(19), "2026.9.7"),
            named(DatabaseSchema::agent("main", 23), "2026.9.7"),
        ];
        assert_eq!(newer_owner(&r97).unwrap().words(), "OpenClaw 2026.9.7");
        // All newer, named differently or not at all: a newer release, unnamed.
        let unnamed = [DatabaseSchema::state(19), DatabaseSchema::agent("main", 24)];
        assert_eq!(
            newer_owner(&unnamed).unwrap().words(),
            "a release newer than OpenClaw 2026.9.6"
        );
        // A 2026.9.6 store whose state database alone is newer: no one release's.
        let mixed = [
            named(DatabaseSchema::state(19), "2026.9.6"),
            named(DatabaseSchema::agent("main", 23), "2026.9.6"),
        ];
        assert_eq!(newer_owner(&mixed), None);
        assert_eq!(newer_owner(&[DatabaseSchema::agent("main", 23)]), None);
    }
}
