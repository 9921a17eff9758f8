//! The schema upgrade OpenClaw 2026.9.6's `openclaw doctor --fix` does to an older release's
//! databases (agent 19/21 -> 23, state 15/16/17 -> 18), as the statements it runs
//! (docs/openclaw/SCHEMA-UPGRADE.md). Each path is recognised by the whole schema of the
//! database before (the same `user_version` is a different schema in different releases) and
//! replayed statement by statement in one transaction; the steps OpenClaw runs from its own
//! code with values (the transcript payload copy, `schema_meta`, clock-bound cleanups) are
//! done here with the same SQL.

use rusqlite::functions::FunctionFlags;
use rusqlite::{params, Connection};

use crate::store::releases::DatabaseRole;

/// One upgrade path: the schema before, and OpenClaw's statements (`-- [js]` blocks mark the
/// steps OpenClaw runs with values from its code).
#[derive(Debug)]
pub struct UpgradePath {
    /// `agent-19-to-23.from-2026.8.2`.
    pub name: &'static str,
    pub role: DatabaseRole,
    pub to: i64,
    /// The release whose databases have exactly this schema before.
    pub written_by: &'static str,
    before: &'static str,
    steps: &'static str,
}

macro_rules! path {
    ($name:literal, $role:expr, $to:literal, $by:literal) => {
        UpgradePath {
            name: $name,
            role: $role,
            to: $to,
            written_by: $by,
            before: include_str!(concat!("schema/upgrade/", $name, ".before.sql")),
            steps: include_str!(concat!("schema/upgrade/", $name, ".steps.sql")),
        }
    };
}

/// Every path this tool replays.
pub static PATHS: [UpgradePath; 7] = [
    path!(
        "agent-19-to-23.from-2026.8.2",
        DatabaseRole::Agent,
        23,
        "2026.8.1 to 2026.9.1"
    ),
    path!(
        "agent-19-to-23.from-2026.9.4",
        DatabaseRole::Agent,
        23,
        "2026.9.2 to 2026.9.4"
    ),
    path!(
        "agent-21-to-23.from-2026.9.5",
        DatabaseRole::Agent,
        23,
        "2026.9.5"
    ),
    path!(
        "state-15-to-18.from-2026.8.2",
        DatabaseRole::Global,
        18,
        "2026.8.1 to 2026.9.2"
    ),
    path!(
        "state-16-to-18.from-2026.9.3",
        DatabaseRole::Global,
        18,
        "2026.9.3"
    ),
    path!(
        "state-17-to-18.from-2026.9.4",
        DatabaseRole::Global,
        18,
        "2026.9.4"
    ),
    path!(
        "state-17-to-18.from-2026.9.5",
        DatabaseRole::Global,
        18,
        "2026.9.5"
    ),
];

/// The whole schema of the main database, one object after the other in `sqlite_schema`
/// order: its SQL and `;`, or a comment for an index SQLite made itself. SQLite's statistics
/// tables (`ANALYZE`, `PRAGMA optimize`) are no part of a release's schema and are left out.
pub fn dump_schema(conn: &Connection) -> rusqlite::Result<String> {
    let mut stmt = conn.prepare(
        "SELECT type, name, tbl_name, sql FROM main.sqlite_schema \
         WHERE name NOT LIKE 'sqlite_stat%' ORDER BY rowid",
    )?;
    let mut rows = stmt.query([])?;
    let mut out = String::new();
    while let Some(r) = rows.next()? {
        let (kind, name, table, sql): (String, String, String, Option<String>) =
            (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
        match sql {
            Some(sql) => {
                out.push_str(&sql);
                out.push_str(";\n");
            }
            None => out.push_str(&format!(
                "-- {kind} {name} ON {table} (automatic, no SQL)\n"
            )),
        }
    }
    Ok(out)
}

/// The path whose schema before is exactly this database's (none: a schema this tool does
/// not know how to upgrade).
pub fn recognise(
    conn: &Connection,
    role: DatabaseRole,
) -> rusqlite::Result<Option<&'static UpgradePath>> {
    let dump = dump_schema(conn)?;
    Ok(PATHS
        .iter()
        .find(|p| p.role == role && p.before.trim_end() == dump.trim_end()))
}

/// How one stored event is kept in schema 23: plain, or compressed with its navigation.
pub enum EventPayload {
    Plain,
    Compressed { frame: Vec<u8>, navigation: String },
}

/// What an upgrade needs from above: the clock, the agent, the payload rule of the importer.
pub struct UpgradeInputs<'a> {
    pub now_ms: i64,
    /// The agent whose database this is (agent paths).
    pub agent_id: Option<&'a str>,
    /// OpenClaw's `prepareTranscriptPayload` for a stored event text.
    pub payload: &'a dyn Fn(&Connection, &str) -> rusqlite::Result<EventPayload>,
    /// Asked between transcript rows: true stops the upgrade (the transaction rolls back).
    pub stop: &'a dyn Fn() -> bool,
}

/// A step of a path's script.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// Statements run as one script.
    Sql(String),
    /// The per-row copy of `transcript_events` into its 23 layout (two `[js]` blocks, one pass).
    TranscriptCopy,
    /// The `schema_meta` upsert that ends the path.
    SchemaMeta,
    /// Delivery receipts past their own retention (`@now`).
    DeliveryRetention(String),
    /// Completed deliveries older than 30 days.
    CompletedDeliveries(String),
    /// Subagent runs bound to their task run (JavaScript's whitespace set for `trim`).
    SubagentTaskBinding(String),
}

const DAY_MS: i64 = 86_400_000;

/// Split a steps script at its `-- [js]` blocks.
fn steps(script: &str) -> Result<Vec<Step>, String> {
    let mut out = Vec::new();
    let mut sql = String::new();
    let mut lines = script.lines().peekable();
    while let Some(line) = lines.next() {
        if !line.starts_with("-- [js]") {
            sql.push_str(line);
            sql.push('\n');
            continue;
        }
        if !sql.trim().is_empty() {
            out.push(Step::Sql(std::mem::take(&mut sql)));
        }
        sql.clear();
        // The block: its statement as comment lines, then maybe its bound values.
        let mut text = String::new();
        while let Some(next) = lines.peek() {
            let Some(body) = next.strip_prefix("--   ") else {
                break;
            };
            if !body.starts_with("bound values:") {
                text.push_str(body);
                text.push('\n');
            }
            lines.next();
        }
        let step = if text.contains("transcript_events_payload_migration") {
            if out.last() == Some(&Step::TranscriptCopy) {
                continue;
            }
            Step::TranscriptCopy
        } else if text.contains("schema_meta") {
            Step::SchemaMeta
        } else if text.contains("completionRetention") {
            Step::DeliveryRetention(text)
        } else if text.contains("delete from \"delivery_queue_entries\"") {
            Step::CompletedDeliveries(text)
        } else if text.contains("WITH runs AS MATERIALIZED") {
            Step::SubagentTaskBinding(text)
        } else {
            return Err(format!(
                "an unknown step of OpenClaw's: {}",
                text.lines().next().unwrap_or("")
            ));
        };
        out.push(step);
    }
    if !sql.trim().is_empty() {
        out.push(Step::Sql(sql));
    }
    Ok(out)
}

/// The memory functions OpenClaw registers for the upgrade: whether an embedding is a JSON
/// array of finite numbers, and that array as little-endian float64 bytes (anything else: an
/// empty blob).
fn register_functions(conn: &Connection) -> rusqlite::Result<()> {
    fn floats(v: &rusqlite::types::ValueRef<'_>) -> Option<Vec<f64>> {
        let text = v.as_str().ok()?;
        let parsed: serde_json::Value = crate::json_value::from_str(text).ok()?;
        parsed
            .as_array()?
            .iter()
            .map(|n| n.as_f64().filter(|f| f.is_finite()))
            .collect()
    }
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    conn.create_scalar_function("openclaw_memory_embedding_json_valid", 1, flags, |ctx| {
        Ok(i64::from(floats(&ctx.get_raw(0)).is_some()))
    })?;
    conn.create_scalar_function("openclaw_memory_embedding_from_json", 1, flags, |ctx| {
        Ok(floats(&ctx.get_raw(0))
            .unwrap_or_default()
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect::<Vec<u8>>())
    })
}

/// Why an upgrade did not commit (it changed nothing).
#[derive(Debug)]
pub enum UpgradeError {
    Sqlite(rusqlite::Error),
    /// The path's script has a step this tool does not know (a bug of this tool).
    UnknownStep(String),
    /// `stop` said so.
    Stopped,
    /// Rows violate foreign keys after the steps: OpenClaw refuses such an upgrade too.
    ForeignKeys(i64),
}

impl From<rusqlite::Error> for UpgradeError {
    fn from(e: rusqlite::Error) -> Self {
        UpgradeError::Sqlite(e)
    }
}

/// Replay `path` on `conn` in one `BEGIN IMMEDIATE` transaction, foreign keys off as OpenClaw
/// runs it: all of it, or nothing (a failure or `stop` rolls back).
pub fn apply(
    conn: &mut Connection,
    path: &UpgradePath,
    inputs: &UpgradeInputs<'_>,
) -> Result<(), UpgradeError> {
    let steps = steps(path.steps).map_err(UpgradeError::UnknownStep)?;
    register_functions(conn)?;
    conn.execute_batch("PRAGMA foreign_keys = OFF; PRAGMA legacy_alter_table = OFF;")?;
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    if path.role == DatabaseRole::Agent {
        settle_entry_validity(&tx)?;
    }
    for step in &steps {
        match step {
            Step::Sql(sql) => tx.execute_batch(sql)?,
            Step::TranscriptCopy => copy_transcripts(&tx, inputs)?,
            Step::SchemaMeta => write_schema_meta(&tx, path, inputs)?,
            Step::DeliveryRetention(sql) => {
                tx.execute(
                    sql.as_str(),
                    rusqlite::named_params! {"@now": inputs.now_ms},
                )?;
            }
            Step::CompletedDeliveries(sql) => {
                tx.execute(
                    sql.as_str(),
                    params![
                        "completed",
                        inputs.now_ms - 30 * DAY_MS,
                        "completed_permanent",
                        "completed_bounded"
                    ],
                )?;
            }
            Step::SubagentTaskBinding(sql) => {
                let n = sql.matches('?').count();
                // JavaScript's `trim` whitespace, which OpenClaw binds for SQL `trim`.
                let js_whitespace: String = crate::formats::js::JS_WHITESPACE.iter().collect();
                let binds = vec![js_whitespace; n];
                tx.execute(sql.as_str(), rusqlite::params_from_iter(binds))?;
            }
        }
    }
    let violations: i64 =
        tx.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })?;
    if violations > 0 {
        return Err(UpgradeError::ForeignKeys(violations));
    }
    tx.commit()?;
    conn.execute_batch("PRAGMA foreign_keys = ON;")?;
    Ok(())
}

/// Rows whose entry was never judged (`entry_valid = 0`) get OpenClaw's verdict first: 1 when
/// `entry_json` is a JSON object whose `sessionId` is the row's `current_session_id` and whose
/// `updatedAt` is a finite number equal to `updated_at`, else -1 (SCHEMA-UPGRADE.md §2.2, step 4).
/// A row waiting for its verdict: key, entry text, current session id, `updated_at`.
type PendingEntry = (String, Option<String>, Option<String>, Option<i64>);

fn settle_entry_validity(tx: &Connection) -> rusqlite::Result<()> {
    let pending: Vec<PendingEntry> = tx
        .prepare(
            "SELECT session_key, CAST(entry_json AS TEXT), current_session_id, updated_at \
             FROM session_nodes WHERE entry_valid = 0 ORDER BY session_key",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut update =
        tx.prepare("UPDATE session_nodes SET entry_valid = ?1 WHERE session_key = ?2")?;
    for (key, entry, session_id, updated_at) in pending {
        let entry: Option<serde_json::Value> =
            entry.and_then(|e| crate::json_value::from_str(&e).ok());
        let valid = entry
            .as_ref()
            .and_then(serde_json::Value::as_object)
            .is_some_and(|e| {
                e.get("sessionId").and_then(serde_json::Value::as_str) == session_id.as_deref()
                    && session_id.is_some()
                    && match (
                        e.get("updatedAt").and_then(serde_json::Value::as_f64),
                        updated_at,
                    ) {
                        (Some(u), Some(col)) => u.is_finite() && u == col as f64,
                        _ => false,
                    }
            });
        update.execute(params![if valid { 1 } else { -1 }, key])?;
    }
    Ok(())
}

/// Rows the upgrade would rewrite with code this tool does not have (OpenClaw's cost-usage
/// rollups of the v2 format, re-serialised by JavaScript): their description, or none.
pub fn rows_needing_openclaw(conn: &Connection) -> rusqlite::Result<Option<String>> {
    if !super::meta::table_exists(conn, "cache_entries") {
        return Ok(None);
    }
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM main.cache_entries WHERE scope = 'session-cost-usage-rollup-v2'",
        [],
        |r| r.get(0),
    )?;
    Ok((n > 0).then(|| format!("{n} cost-usage rollup cache row(s) of the v2 format")))
}

/// Every `transcript_events` row, in rowid order with its rowid, into the table of 23's layout
/// the script made (`transcript_events_payload_migration`): compressed where OpenClaw's rule
/// says so, else plain with its UTF-8 length.
fn copy_transcripts(tx: &Connection, inputs: &UpgradeInputs<'_>) -> Result<(), UpgradeError> {
    let mut read = tx.prepare("SELECT rowid, event_json FROM transcript_events ORDER BY rowid")?;
    let mut plain = tx.prepare(
        "INSERT INTO transcript_events_payload_migration \
         (rowid, session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json) \
         SELECT rowid, session_id, seq, event_json, created_at, NULL, octet_length(event_json), NULL \
         FROM transcript_events WHERE rowid = ?1",
    )?;
    let mut compressed = tx.prepare(
        "INSERT INTO transcript_events_payload_migration \
         (rowid, session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json) \
         SELECT rowid, session_id, seq, NULL, created_at, ?1, ?2, ?3 \
         FROM transcript_events WHERE rowid = ?4",
    )?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        if (inputs.stop)() {
            return Err(UpgradeError::Stopped);
        }
        let rowid: i64 = r.get(0)?;
        let payload = match r.get_ref(1)? {
            rusqlite::types::ValueRef::Text(t) => match std::str::from_utf8(t) {
                Ok(text) => (inputs.payload)(tx, text)?,
                // Text that is not UTF-8 is copied as it is.
                Err(_) => EventPayload::Plain,
            },
            _ => EventPayload::Plain,
        };
        match payload {
            EventPayload::Plain => plain.execute([rowid])?,
            EventPayload::Compressed { frame, navigation } => {
                let bytes = match r.get_ref(1)? {
                    rusqlite::types::ValueRef::Text(t) => t.len() as i64,
                    _ => 0,
                };
                compressed.execute(params![frame, bytes, navigation, rowid])?
            }
        };
    }
    Ok(())
}

/// The `schema_meta` row `primary` at the path's version, as OpenClaw's doctor writes it: an
/// agent database records release 2026.9.6 and its agent; the state database keeps the
/// release that created it (docs/openclaw/SCHEMA-UPGRADE.md, §2.3 and §1.3).
fn write_schema_meta(
    tx: &Connection,
    path: &UpgradePath,
    inputs: &UpgradeInputs<'_>,
) -> rusqlite::Result<()> {
    let now = inputs.now_ms;
    match path.role {
        DatabaseRole::Agent => {
            let agent = inputs.agent_id.unwrap_or_default();
            let release = crate::store::releases::written().version;
            tx.execute(
                "INSERT INTO \"schema_meta\" (\"meta_key\", \"role\", \"schema_version\", \"agent_id\", \"app_version\", \"created_at\", \"updated_at\") \
                 VALUES ('primary', 'agent', ?1, ?2, ?3, ?4, ?4) \
                 ON CONFLICT (\"meta_key\") DO UPDATE SET \"role\" = 'agent', \"schema_version\" = ?1, \"agent_id\" = ?2, \"app_version\" = ?3, \"updated_at\" = ?4 \
                 WHERE (\"schema_meta\".\"schema_version\" != ?1 OR \"schema_meta\".\"app_version\" IS NULL OR \"schema_meta\".\"app_version\" != ?3 OR \"schema_meta\".\"agent_id\" != ?2)",
                params![path.to, agent, release, now],
            )?;
        }
        DatabaseRole::Global => {
            tx.execute(
                "INSERT INTO schema_meta (meta_key, role, schema_version, agent_id, app_version, created_at, updated_at) \
                 VALUES ('primary', 'global', ?1, NULL, NULL, ?2, ?3) \
                 ON CONFLICT(meta_key) DO UPDATE SET schema_version = excluded.schema_version, updated_at = excluded.updated_at",
                params![path.to, now, now],
            )?;
        }
    }
    Ok(())
}

/// The state database's registry row of an agent database, after its upgrade: its schema, when
/// it was seen and its size, as OpenClaw's doctor records them.
pub fn record_agent_database(
    state: &Connection,
    agent_id: &str,
    schema: i64,
    now_ms: i64,
    size_bytes: i64,
) -> rusqlite::Result<usize> {
    state.execute(
        "UPDATE agent_databases SET schema_version = ?2, last_seen_at = ?3, size_bytes = ?4 WHERE agent_id = ?1",
        params![agent_id, schema, now_ms, size_bytes],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_splits_into_known_steps() {
        for p in &PATHS {
            let s = steps(p.steps).unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert!(s.contains(&Step::SchemaMeta), "{}", p.name);
            assert_eq!(
                s.iter().filter(|s| **s == Step::TranscriptCopy).count(),
                usize::from(p.role == DatabaseRole::Agent),
                "{}",
                p.name
            );
            assert!(p.before.contains("CREATE TABLE schema_meta"), "{}", p.name);
        }
    }

    #[test]
    fn embeddings_convert_as_openclaw_converts_them() {
        let conn = Connection::open_in_memory().unwrap();
        register_functions(&conn).unwrap();
        let hex: String = conn
            .query_row(
                "SELECT hex(openclaw_memory_embedding_from_json('[0.5,-1.25,3]')), \
                 openclaw_memory_embedding_json_valid('[1,\"x\"]')",
                [],
                |r| {
                    Ok(format!(
                        "{}:{}",
                        r.get::<_, String>(0)?,
                        r.get::<_, i64>(1)?
                    ))
                },
            )
            .unwrap();
        assert_eq!(hex, "000000000000E03F000000000000F4BF0000000000000840:0");
    }
}
