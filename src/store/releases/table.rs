//! The one table of the OpenClaw releases this tool knows (issue 48 item 1): a row per release,
//! saying what its own code creates and what this tool does on its store. Every other place
//! that depends on a release derives from these rows or is tied to them by a test (the schema
//! constants, the older schemas the operations write, the import dumps of `store::db::create`,
//! the doctor's mirrored repairs, the owner's prune rules), and the table in
//! docs/openclaw/RELEASES.md ("What this tool does per release") is generated from it
//! (`UPDATE_DOCS=1 cargo test --test cli docs`).

/// One OpenClaw release: the schemas its own code creates, and what this tool reproduces of it
/// (each proven against the release in the reference suite; docs/openclaw/RELEASES.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    pub version: &'static str,
    /// `PRAGMA user_version` of the agent databases it creates (1: no sessions in SQLite).
    pub agent_schema: i64,
    /// `PRAGMA user_version` of the state database it creates.
    pub state_schema: i64,
    /// This tool's legacy import writes databases at this release's schema, as its own
    /// `openclaw doctor --session-sqlite import` does (`store::db::create::RELEASE_SCHEMAS`).
    pub import: bool,
    /// This tool's writer changes its store (patch, archive, unarchive, delete, prune, undelete,
    /// restore of one session, reclaim) as the release's own code does.
    pub writes: bool,
    /// The doctor's repairs on its store are the ones its own `openclaw doctor --fix` makes
    /// (`doctor::older_release` for an older schema).
    pub doctor_repairs: bool,
    /// Whose session cleanup a prune of its store follows (`ops::prune`'s owner rules): the
    /// release whose rules are reproduced, or `None` where none is.
    pub prune_rules_of: Option<&'static str>,
}

const fn rel(version: &'static str, agent_schema: i64, state_schema: i64) -> Release {
    Release {
        version,
        agent_schema,
        state_schema,
        import: false,
        writes: false,
        doctor_repairs: false,
        prune_rules_of: None,
    }
}

/// A release whose store this tool writes as it does, its import reproduced too.
const fn proven(
    version: &'static str,
    agent_schema: i64,
    state_schema: i64,
    prune_rules_of: &'static str,
) -> Release {
    Release {
        import: true,
        writes: true,
        doctor_repairs: true,
        prune_rules_of: Some(prune_rules_of),
        ..rel(version, agent_schema, state_schema)
    }
}

/// The releases, oldest first. 2026.7.35 stands for every release before SQLite sessions; the
/// last row is the release whose schema this tool writes by default.
pub const RELEASES: &[Release] = &[
    rel("2026.7.35", 1, 1),
    rel("2026.8.1-beta.1", 16, 6),
    // 2026.8.1 creates what 2026.8.2 creates; its import is 2026.8.2's.
    Release {
        import: false,
        ..proven("2026.8.1", 19, 15, "2026.8.2")
    },
    proven("2026.8.2", 19, 15, "2026.8.2"),
    proven("2026.9.1", 19, 15, "2026.9.1"),
    proven("2026.9.2", 19, 15, "2026.9.2"),
    proven("2026.9.3", 19, 16, "2026.9.5"),
    proven("2026.9.4", 19, 17, "2026.9.5"),
    proven("2026.9.5", 21, 17, "2026.9.5"),
    proven("2026.9.6", 23, 18, "2026.9.5"),
];

/// The agent schema of the newest release (the one this tool writes by default).
pub const NEWEST_AGENT_SCHEMA: i64 = RELEASES[RELEASES.len() - 1].agent_schema;
/// The state schema of the newest release.
pub const NEWEST_STATE_SCHEMA: i64 = RELEASES[RELEASES.len() - 1].state_schema;

/// The older agent schemas this tool writes, as the rows with `writes` say (each operation
/// names which of them it writes: `Operation::OLDER_SCHEMAS_WRITTEN`). A constant for the
/// operations' associated constants; the test below ties it to the rows.
pub const OLDER_AGENT_SCHEMAS_WRITTEN: &[i64] = &[19, 21];

/// The table of docs/openclaw/RELEASES.md, "What this tool does per release", in Markdown.
pub fn markdown_table() -> String {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let mut out = String::from(
        "| release | agent schema | state schema | import at its schema | changes written as it writes them | doctor repairs as its own | prune follows the cleanup of |\n|---|---|---|---|---|---|---|\n",
    );
    for r in RELEASES {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            r.version,
            r.agent_schema,
            r.state_schema,
            yes(r.import),
            yes(r.writes),
            yes(r.doctor_repairs),
            r.prune_rules_of.unwrap_or("(refused)"),
        ));
    }
    out.push_str(&format!(
        "| newer | > {NEWEST_AGENT_SCHEMA} | > {NEWEST_STATE_SCHEMA} | no | no: the owner writes | no | (refused) |\n"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_older_schemas_written_are_the_rows_that_say_so() {
        let mut written: Vec<i64> = RELEASES
            .iter()
            .filter(|r| r.writes && r.agent_schema != NEWEST_AGENT_SCHEMA)
            .map(|r| r.agent_schema)
            .collect();
        written.dedup();
        assert_eq!(written, OLDER_AGENT_SCHEMAS_WRITTEN);
    }

    #[test]
    fn the_imports_reproduced_are_the_rows_that_say_so() {
        let rows: Vec<&str> = RELEASES
            .iter()
            .filter(|r| r.import)
            .map(|r| r.version)
            .collect();
        let dumps: Vec<&str> = crate::store::db::create::RELEASE_SCHEMAS
            .iter()
            .map(|r| r.version)
            .collect();
        assert_eq!(rows, dumps);
        for d in &crate::store::db::create::RELEASE_SCHEMAS {
            let row = RELEASES.iter().find(|r| r.version == d.version).unwrap();
            assert_eq!(
                (row.agent_schema, row.state_schema),
                (d.agent_schema, d.state_schema),
                "{}",
                d.version
            );
        }
    }
}
