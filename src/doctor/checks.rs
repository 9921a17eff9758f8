use std::path::Path;

use rusqlite::types::Value as SqlValue;
use serde::Serialize;
use serde_json::Value;

use super::{older_release, Finding, Repair, Severity, Subject};
use crate::custody::{probe, LockReport, OwnerState, OwnershipProbe};
use crate::error::{Remedy, Result, ResultExt};
use crate::formats::session_key;
use crate::legacy::{classify_session_file, ArchiveReason, SessionFile};
use crate::paths::{AgentPaths, StateLayout};
use crate::store::db::{archives, event_index, events, meta, nodes, windows};
use crate::store::{
    sidecar_path, AgentStore, DatabaseRole, LeftoverKind, ReadOnlyDb, SchemaInfo, SchemaStatus,
    SessionEntry,
};
use crate::writer::{field_type_error, project_node_columns, LINEAGE_COLUMNS};

#[derive(Debug, Clone, Copy, Serialize)]
pub struct CheckInfo {
    pub id: &'static str,
    pub severity: Severity,
    pub description: &'static str,
}

const fn c(id: &'static str, severity: Severity, description: &'static str) -> CheckInfo {
    CheckInfo {
        id,
        severity,
        description,
    }
}

/// Every check, with the worst severity it reports.
pub const CHECKS: &[CheckInfo] = &[
    c(
        "integrity",
        Severity::Error,
        "SQLite quick_check (integrity_check with --full) and foreign_key_check",
    ),
    c(
        "schema",
        Severity::Error,
        "user_version and the schema_meta row (role, owning agent)",
    ),
    c(
        "releases",
        Severity::Error,
        "the databases of the state dir are of one OpenClaw release (which releases open the store)",
    ),
    c(
        "entry-json",
        Severity::Error,
        "entry_json parses to an object with sessionId and updatedAt",
    ),
    c(
        "canonical-keys",
        Severity::Error,
        "session keys and lineage keys pass OpenClaw's canonical-key rules (its read refuses the agent otherwise)",
    ),
    c(
        "text-encoding",
        Severity::Error,
        "every TEXT cell holds UTF-8 (labels, names, entries, events)",
    ),
    c(
        "projected-columns",
        Severity::Error,
        "projected session_nodes columns agree with entry_json (lineage columns are errors)",
    ),
    c(
        "current-window",
        Severity::Error,
        "current_session_id has its session_windows row",
    ),
    c(
        "orphans",
        Severity::Error,
        "windows, events, identities, active events, index and FTS rows without their parent",
    ),
    c(
        "transcript-header",
        Severity::Error,
        "seq 0 is the session header with the right id",
    ),
    c(
        "seq-gaps",
        Severity::Error,
        "transcript seq numbers run 0..n without gaps",
    ),
    c(
        "zstd-rows",
        Severity::Error,
        "compressed rows decode to event_utf8_bytes bytes",
    ),
    c(
        "duplicate-labels",
        Severity::Warning,
        "a label is used by one session only",
    ),
    c(
        "legacy-pending",
        Severity::Warning,
        "a legacy sessions.json waiting for import",
    ),
    c(
        "acpx-pending",
        Severity::Warning,
        "ACPX state in the old workspace location waiting for adoption",
    ),
    c(
        "stale-locks",
        Severity::Warning,
        "lock files whose owner is gone",
    ),
    c(
        "crash-state",
        Severity::Warning,
        "a hot journal, or a stale or torn -shm, left by a killed writer",
    ),
    c(
        "stray-sidecars",
        Severity::Warning,
        "-wal/-shm files without their database",
    ),
    c(
        "archive-files",
        Severity::Warning,
        "archive files without rows and rows without files (.reset files are normal: not reported)",
    ),
    c(
        "leftovers",
        Severity::Warning,
        "temporary files and staging directories left by interrupted runs, and deleted entries kept for archives that are gone",
    ),
    c(
        "wal-size",
        Severity::Warning,
        "a -wal larger than its database's live pages, with the rows that most likely grew it",
    ),
    c(
        "disk-budget",
        Severity::Warning,
        "disk use over session.maintenance.highWaterBytes",
    ),
];

#[derive(Debug, Clone, Default)]
pub struct DoctorOptions {
    pub full: bool,
    /// Only these check ids (all when empty).
    pub only: Vec<String>,
    /// Only these agents (`--agent`; every known agent when empty). Checks of the state dir
    /// itself (locks, ACPX, the state database's sidecars) run either way.
    pub agents: Vec<crate::paths::AgentId>,
}

struct Ctx<'a> {
    opts: &'a DoctorOptions,
    /// Where each finding goes once it is complete (the run holds none of them).
    sink: &'a mut dyn FnMut(Finding),
    /// The finding just added: a check may still set its remedy (`Ctx::remedy`).
    last: Option<Finding>,
    /// While an agent database of an older release is checked: its schema and what stops its
    /// repairs (`older_release::restrict`), applied to each of its findings.
    older: Option<(i64, older_release::Stop)>,
    /// Who holds the state dir, probed once a run and only if a check asks.
    ownership: std::cell::OnceCell<OwnershipProbe>,
}

impl Ctx<'_> {
    fn ownership(&self, layout: &StateLayout) -> &OwnershipProbe {
        self.ownership.get_or_init(|| probe(layout))
    }

    /// The pid of the live process that holds the state dir, if one does.
    fn live_owner(&self, layout: &StateLayout) -> Option<i64> {
        let owner = &self.ownership(layout).owner;
        owner.pid.filter(|_| owner.state == OwnerState::Live)
    }

    fn wants(&self, id: &str) -> bool {
        self.opts.only.is_empty() || self.opts.only.iter().any(|o| o == id)
    }

    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        check: &'static str,
        severity: Severity,
        subject: Subject,
        message: String,
        hint: &str,
        repair: Option<Repair>,
    ) {
        self.flush();
        self.last = Some(Finding {
            check,
            severity,
            subject,
            message,
            hint: hint.to_string(),
            fixable: repair.is_some(),
            // A safe repair is the remedy: the hint names it.
            remedy: repair.is_some().then_some(Remedy::DoctorFix),
            repair,
        });
    }

    /// The remedy of the finding just added (its hint names it by its phrase).
    fn remedy(&mut self, remedy: Remedy) {
        if let Some(f) = &mut self.last {
            f.remedy = Some(remedy);
        }
    }

    /// Hand the finding just added to the sink.
    fn flush(&mut self) {
        if let Some(mut f) = self.last.take() {
            if let Some((schema, stop)) = &self.older {
                older_release::restrict(std::slice::from_mut(&mut f), *schema, stop);
            }
            (self.sink)(f);
        }
    }
}

/// The first three columns of every row of a finding's query.
fn triples<A, B, C>(db: &ReadOnlyDb, sql: &str) -> Result<Vec<(A, B, C)>>
where
    A: rusqlite::types::FromSql,
    B: rusqlite::types::FromSql,
    C: rusqlite::types::FromSql,
{
    rows(db, sql, |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
}

fn rows<T, F>(db: &ReadOnlyDb, sql: &str, f: F) -> Result<Vec<T>>
where
    F: FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
{
    let mut stmt = db.conn().prepare(sql).at(db.path())?;
    let v = stmt
        .query_map([], f)
        .at(db.path())?
        .collect::<rusqlite::Result<Vec<T>>>()
        .at(db.path())?;
    Ok(v)
}

/// Each row of `sql`, read by `read` and handed to `visit` without collecting them.
fn each_row<T, F, V>(db: &ReadOnlyDb, sql: &str, mut read: F, mut visit: V) -> Result<()>
where
    F: FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    V: FnMut(T) -> Result<()>,
{
    let mut stmt = db.conn().prepare(sql).at(db.path())?;
    let mut rows = stmt.query([]).at(db.path())?;
    while let Some(row) = rows.next().at(db.path())? {
        visit(read(row).at(db.path())?)?;
    }
    Ok(())
}

/// A zero-byte database whose `-wal` and `-journal` are empty or absent: nothing anywhere
/// holds content (SQLite itself drops a WAL beside an empty file), so setting it aside loses
/// nothing (docs/openclaw/HOSTILE.md, section 3).
pub fn empty_without_content(db: &Path) -> bool {
    let empty = |p: &Path| std::fs::metadata(p).map_or(true, |m| m.len() == 0);
    std::fs::metadata(db).is_ok_and(|m| m.is_file() && m.len() == 0)
        && ["-wal", "-journal"]
            .iter()
            .all(|s| empty(&sidecar_path(db, s)))
}

/// Returns whether the file itself is damaged (then deeper checks are not attempted).
fn sqlite_checks(cx: &mut Ctx, agent: &str, db: &ReadOnlyDb) -> Result<bool> {
    let mut damaged = false;
    if cx.wants("integrity") {
        let result = if cx.opts.full {
            meta::integrity_check(db.conn(), None)
        } else {
            meta::quick_check(db.conn())
        };
        let problem = match result {
            Ok(lines) if lines.is_empty() => None,
            Ok(lines) => Some(format!(
                "{} reports: {}",
                db.path().display(),
                lines.iter().take(5).cloned().collect::<Vec<_>>().join("; ")
            )),
            Err(e) => Some(format!("{} cannot be checked: {e}", db.path().display())),
        };
        if let Some(message) = problem {
            damaged = true;
            cx.add(
                "integrity",
                Severity::Error,
                Subject::agent(agent).path(db.path()),
                message,
                "the file is damaged: restore the latest verified snapshot (in place)",
                None,
            );
            cx.remedy(Remedy::RestoreSnapshot);
        }
        let fk: Vec<(String, i64, String)> = rows(db, meta::FOREIGN_KEY_VIOLATIONS_SQL, |r| {
            Ok((
                r.get(0)?,
                r.get::<_, Option<i64>>(1)?.unwrap_or(-1),
                r.get(2)?,
            ))
        })
        .unwrap_or_default();
        // One finding per table, missing parent and session, naming every row: the admin
        // judges (and the orphans repair archives) a session, not a rowid.
        let mut by_session: FkBySession = std::collections::BTreeMap::new();
        let mut keys: std::collections::HashMap<String, Option<String>> = Default::default();
        for (table, rowid, parent) in fk {
            let row = if rowid >= 0 {
                meta::row_session(db.conn(), &table, rowid).unwrap_or_default()
            } else {
                meta::RowSession::default()
            };
            let key = match (&row.session_key, &row.session_id) {
                (Some(k), _) => Some(k.clone()),
                (None, Some(sid)) => keys
                    .entry(sid.clone())
                    .or_insert_with(|| events::key_of_session(db.conn(), sid).ok().flatten())
                    .clone(),
                (None, None) => None,
            };
            let e = by_session
                .entry((table, parent, row.session_id, key))
                .or_default();
            if rowid >= 0 {
                e.0.push(rowid);
            }
            e.1.extend(row.seq);
        }
        for ((table, parent, sid, key), (rowids, seqs)) in by_session {
            let ranges = seq_ranges(seqs);
            let mut message = format!(
                "{} foreign key violation(s): {table} {}",
                rowids.len().max(1),
                rowid_list(&rowids)
            );
            if let Some(sid) = &sid {
                message.push_str(&format!(" of session id {sid}"));
            }
            message.push_str(&key_text(key.as_deref()));
            message.push_str(&format!(" without their {parent} row"));
            message.push_str(&seq_ranges_suffix(&ranges));
            cx.add(
                "integrity",
                Severity::Error,
                Subject::agent(agent)
                    .key(key.as_deref())
                    .id(sid.as_deref())
                    .row(&table, rowids)
                    .seqs(ranges),
                message,
                "the orphans check says how the doctor's repair handles these rows",
                None,
            );
        }
    }
    if cx.wants("schema") {
        match SchemaInfo::read(db, DatabaseRole::Agent) {
            Err(e) => cx.add(
                "schema",
                Severity::Error,
                Subject::agent(agent).path(db.path()),
                e.to_string(),
                "this is not an agent database of this state dir",
                None,
            ),
            Ok(info) => {
                match info.status {
                    SchemaStatus::Known => {}
                    SchemaStatus::Newer => {
                        cx.add(
                            "schema",
                            Severity::Warning,
                            Subject::agent(agent).path(db.path()),
                            info.warning().unwrap_or_default(),
                            &format!(
                                "this tool reads it and changes nothing; {}",
                                crate::store::owner_routes_hint(info.app_version.as_deref())
                            ),
                            None,
                        );
                        cx.remedy(Remedy::OwnerWrites);
                    }
                    // Written as its release writes it: nothing to do, and an upgrade would
                    // cut that release off the store.
                    SchemaStatus::Older
                        if crate::store::AgentSchema::OLDER_WRITTEN
                            .contains(&info.user_version) =>
                    {
                        cx.add(
                            "schema",
                            Severity::Info,
                            Subject::agent(agent).path(db.path()),
                            format!(
                                "{}: read and changed at this schema, as those releases write it",
                                info.provenance()
                            ),
                            &format!(
                                "nothing to do; an upgrade of the store is one-way and only for OpenClaw {} or newer",
                                crate::store::releases::written().version
                            ),
                            None,
                        );
                    }
                    SchemaStatus::Older => {
                        cx.add(
                            "schema",
                            Severity::Info,
                            Subject::agent(agent).path(db.path()),
                            format!(
                                "{}: every read works, changes are refused until the store is upgraded",
                                info.provenance()
                            ),
                            &crate::store::upgrade_hint(crate::store::releases::written().version),
                            None,
                        );
                        cx.remedy(Remedy::UpgradeSchema);
                    }
                }
                match (&info.role, &info.agent_id) {
                    (None, _) => cx.add(
                        "schema",
                        Severity::Error,
                        Subject::agent(agent),
                        format!("{} has no schema_meta primary row", db.path().display()),
                        "OpenClaw refuses databases without their schema_meta row",
                        None,
                    ),
                    (Some(_), Some(owner)) if owner != agent => cx.add(
                        "schema",
                        Severity::Error,
                        Subject::agent(agent),
                        format!("{} belongs to agent {owner}", db.path().display()),
                        "check session.store in the config",
                        None,
                    ),
                    _ => {}
                }
            }
        }
    }
    Ok(damaged)
}

/// `rowid 7` / `rowids 7, 9, 12 and 40 more`: short enough for one line.
fn rowid_list(rowids: &[i64]) -> String {
    const SHOWN: usize = 5;
    let shown: Vec<String> = rowids.iter().take(SHOWN).map(i64::to_string).collect();
    let more = rowids.len().saturating_sub(SHOWN);
    let word = if rowids.len() == 1 { "rowid" } else { "rowids" };
    if more > 0 {
        format!("{word} {} and {more} more", shown.join(", "))
    } else {
        format!("{word} {}", shown.join(", "))
    }
}

/// `seq 4`, `seq 4-9`.
/// `, 3-7, 12, 20-31, ...`: the first three seq ranges of a finding, or nothing.
fn seq_ranges_suffix(ranges: &[[i64; 2]]) -> String {
    if ranges.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = ranges.iter().take(3).map(seq_range_text).collect();
    format!(
        ", {}{}",
        shown.join(", "),
        if ranges.len() > 3 { ", ..." } else { "" }
    )
}

fn seq_range_text(r: &[i64; 2]) -> String {
    if r[0] == r[1] {
        format!("seq {}", r[0])
    } else {
        format!("seq {}-{}", r[0], r[1])
    }
}

/// ` (key K)` when the key is known.
fn key_text(key: Option<&str>) -> String {
    key.map(|k| format!(" (key {k})")).unwrap_or_default()
}

/// `pinnedAt` -> `pinned_at`: a field's projected column name.
fn camel_to_snake(field: &str) -> String {
    let mut out = String::new();
    for c in field.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn sql_to_json(v: &SqlValue) -> Value {
    match v {
        SqlValue::Null => Value::Null,
        SqlValue::Integer(i) => Value::from(*i),
        SqlValue::Real(f) => Value::from(*f),
        SqlValue::Text(t) => Value::from(t.clone()),
        SqlValue::Blob(b) => Value::from(format!("<{} bytes>", b.len())),
    }
}

/// A `session_nodes` row as the entry checks read it.
struct NodeRow {
    key: String,
    json: String,
    valid: i64,
    rowid: i64,
    session_id: String,
}

/// Findings of one table column beyond which the rest are counted, not listed.
const BAD_TEXT_LISTED: usize = 20;

/// Text that is not UTF-8, anywhere in the database: OpenClaw's reads of such a row fail or
/// see other text than was written; our own reads show it with U+FFFD and go on.
fn text_encoding_check(cx: &mut Ctx, agent: &str, db: &ReadOnlyDb) -> Result<()> {
    let mut found: Vec<meta::BadText> = Vec::new();
    meta::invalid_utf8_cells(db.conn(), &mut |b| found.push(b)).at(db.path())?;
    let mut listed: std::collections::HashMap<(String, String), usize> = Default::default();
    for b in &found {
        let n = listed
            .entry((b.table.clone(), b.column.clone()))
            .or_default();
        *n += 1;
        if *n > BAD_TEXT_LISTED {
            continue;
        }
        let row = b
            .rowid
            .map(|r| meta::row_session(db.conn(), &b.table, r).unwrap_or_default())
            .unwrap_or_default();
        let mut subject = Subject::agent(agent)
            .key(row.session_key.as_deref())
            .id(row.session_id.as_deref());
        if let Some(r) = b.rowid {
            subject = subject.row(&b.table, vec![r]);
        }
        subject.columns = vec![b.column.clone()];
        let whose = match (&row.session_key, &row.session_id) {
            (Some(k), _) => format!(" (session {k})"),
            (None, Some(id)) => format!(" (session id {id})"),
            _ => String::new(),
        };
        let at = b.rowid.map(|r| format!(" rowid {r}")).unwrap_or_default();
        cx.add(
            "text-encoding",
            Severity::Error,
            subject,
            format!(
                "{}.{} of row{at}{whose} is not UTF-8: OpenClaw cannot read it",
                b.table, b.column
            ),
            if b.table == "session_nodes" {
                "the doctor's repair rewrites the row's columns from its entry, or rebuilds an unreadable entry from its columns; or set the field again with a patch"
            } else {
                "restore the session from a verified snapshot, or delete the session"
            },
            None,
        );
    }
    for ((table, column), n) in listed {
        if n > BAD_TEXT_LISTED {
            cx.add(
                "text-encoding",
                Severity::Error,
                Subject::agent(agent),
                format!(
                    "{table}.{column}: {} more rows are not UTF-8",
                    n - BAD_TEXT_LISTED
                ),
                "restore a verified snapshot",
                None,
            );
        }
    }
    Ok(())
}

fn entry_checks(cx: &mut Ctx, agent: &str, db: &ReadOnlyDb) -> Result<()> {
    let names: Vec<&str> = project_node_columns(&serde_json::Map::new())
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    let sql = nodes::with_columns_sql(&names);
    let read = |r: &rusqlite::Row<'_>| {
        let mut cols = Vec::new();
        // Text that is not UTF-8 reads with U+FFFD (`text-encoding` names it).
        for i in 0..names.len() {
            cols.push(meta::lossy(r.get_ref(5 + i)?));
        }
        let text = |i: usize| -> rusqlite::Result<String> {
            Ok(match meta::lossy(r.get_ref(i)?) {
                SqlValue::Text(t) => t,
                _ => String::new(),
            })
        };
        let node = NodeRow {
            key: text(0)?,
            json: text(1)?,
            valid: r.get(2)?,
            rowid: r.get(3)?,
            session_id: text(4)?,
        };
        Ok((node, cols))
    };
    let contract_main =
        session_key::normalize_main_key(meta::contract_main_key(db.conn()).as_deref());
    let lineage_at: Vec<usize> = [
        "parent_session_key",
        "spawned_by",
        "fork_source_session_key",
    ]
    .iter()
    .filter_map(|c| names.iter().position(|n| n == c))
    .collect();
    // Row by row: the store's sessions are never all in memory.
    each_row(
        db,
        &sql,
        read,
        |(node, stored): (NodeRow, Vec<SqlValue>)| {
            let NodeRow {
                key,
                json,
                valid,
                rowid,
                session_id,
            } = node;
            if valid == -1 && json == "{}" {
                return Ok(()); // a tombstone
            }
            let subject = Subject::agent(agent)
                .key(Some(&key))
                .id(Some(&session_id))
                .row("session_nodes", vec![rowid]);
            let entry = match SessionEntry::parse(&key, &json) {
                Ok(e) => e,
                Err(why) => {
                    if cx.wants("entry-json") {
                        cx.add("entry-json", Severity::Error, subject, format!("session {key} (id {session_id}, session_nodes rowid {rowid}): the entry is unreadable: {why}"), "OpenClaw cannot read this agent's sessions; the repair rebuilds the entry from the row's columns as OpenClaw's doctor does and keeps the row as it was (show prints it); or replace the entry (patch --replace-entry), or delete the session", Some(Repair::RebuildUnreadableEntry { key: key.clone() }));
                    }
                    return Ok(());
                }
            };
            if cx.wants("canonical-keys") {
                // OpenClaw's read path (`validateCanonicalSessionRow`) refuses every session of
                // the agent over one such row: the row's key, then its lineage columns.
                // The entry's own lineage values are read too (an empty one is refused).
                let key_why = session_key::stored_key_refusal(&key, &contract_main);
                let why = key_why
                    .clone()
                    .or_else(|| {
                        lineage_at.iter().find_map(|i| match &stored[*i] {
                            SqlValue::Text(v) => {
                                session_key::stored_lineage_refusal(v, &contract_main)
                            }
                            _ => None,
                        })
                    })
                    .or_else(|| {
                        session_key::entry_lineage_stored_refusal(
                            &key,
                            &entry.fields,
                            &contract_main,
                        )
                        .map(|(why, _)| why)
                    });
                if let Some(why) = why {
                    // Fixable when OpenClaw's doctor repairs it: the key and every lineage
                    // value read once normalized (the columns are projected again from the
                    // repaired entry).
                    let key_ok =
                        key_why.is_none() || session_key::key_fix(&key, &contract_main).is_some();
                    let mut probe = entry.fields.clone();
                    let entry_ok =
                        session_key::fix_entry_lineage(&mut probe, &contract_main).is_some();
                    let repair =
                        (key_ok && entry_ok).then(|| Repair::CanonicalizeKeys { key: key.clone() });
                    let hint = if repair.is_some() {
                        "the repair does what OpenClaw's doctor --fix does: it moves the row to its key normalized and rewrites each lineage value normalized (an empty one is removed), in the entry and its columns"
                    } else {
                        "OpenClaw's doctor --fix cannot repair this row either (the key is still refused once normalized); set the lineage field again with a patch, or delete the session"
                    };
                    cx.add(
                        "canonical-keys",
                        Severity::Error,
                        subject.clone(),
                        format!("session {key} (id {session_id}, session_nodes rowid {rowid}): OpenClaw refuses this agent's store: {why}"),
                        hint,
                        repair,
                    );
                }
            }
            if cx.wants("entry-json") {
                // A field of the wrong type is stored, but OpenClaw reads it as absent (a
                // projected column then stays NULL while the entry says otherwise).
                for (field, value) in &entry.fields {
                    if let Some(why) = field_type_error(field, value) {
                        let column = camel_to_snake(field);
                        let projected = names.contains(&column.as_str());
                        let mut s = subject.clone();
                        if projected {
                            s.columns = vec![column.clone()];
                        }
                        cx.add(
                            "entry-json",
                            Severity::Warning,
                            s,
                            format!(
                                "session {key} (id {session_id}, session_nodes rowid {rowid}): {why}{}",
                                if projected {
                                    format!("; OpenClaw reads it as absent and its column {column} stays NULL")
                                } else {
                                    "; OpenClaw reads it as absent".to_string()
                                }
                            ),
                            "set the field to a value of its type, or remove it, with a patch",
                            None,
                        );
                    }
                }
            }
            if cx.wants("projected-columns") {
                let expected = project_node_columns(&entry.fields);
                let mut lineage = Vec::new();
                let mut others = Vec::new();
                let mut columns = Vec::new();
                for ((col, want), have) in expected.iter().zip(stored.iter()) {
                    let same = match (want, have) {
                        (SqlValue::Integer(a), SqlValue::Real(b))
                        | (SqlValue::Real(b), SqlValue::Integer(a)) => (*a as f64) == *b,
                        (a, b) => a == b,
                    };
                    if !same {
                        columns.push(col.to_string());
                        let d = format!(
                            "{col} is {} but the entry says {}",
                            sql_to_json(have),
                            sql_to_json(want)
                        );
                        if LINEAGE_COLUMNS.contains(col) {
                            lineage.push(d);
                        } else {
                            others.push(d);
                        }
                    }
                }
                if valid != 1 {
                    columns.push("entry_valid".to_string());
                    lineage.push(format!("entry_valid is {valid}, not 1"));
                }
                let subject = Subject { columns, ..subject };
                let at = format!("session {key} (id {session_id}, session_nodes rowid {rowid})");
                let repair = Some(Repair::ReprojectColumns { key: key.clone() });
                if !lineage.is_empty() {
                    let mut all = lineage;
                    all.extend(others);
                    cx.add("projected-columns", Severity::Error, subject, format!("{at}: {}", all.join("; ")), "OpenClaw refuses to read this store until the row is repaired; the doctor's repair re-projects the columns from entry_json", repair.clone());
                } else if !others.is_empty() {
                    cx.add(
                        "projected-columns",
                        Severity::Warning,
                        subject,
                        format!("{at}: {}", others.join("; ")),
                        "the doctor's repair re-projects the columns from entry_json",
                        repair,
                    );
                }
            }
            Ok(())
        },
    )?;
    if cx.wants("current-window") {
        for (key, sid, rowid) in
            triples::<String, String, i64>(db, nodes::WITHOUT_CURRENT_WINDOW_SQL)?
        {
            cx.add(
                "current-window",
                Severity::Error,
                Subject::agent(agent)
                    .key(Some(&key))
                    .id(Some(&sid))
                    .row("session_nodes", vec![rowid]),
                format!("session {key} (session_nodes rowid {rowid}): current session id {sid} has no session_windows row"),
                "restore the session from a snapshot, or delete it",
                None,
            );
        }
    }
    if cx.wants("duplicate-labels") {
        for (label, keys) in rows(db, nodes::DUPLICATE_LABELS_SQL, |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })? {
            let keys: Vec<String> = crate::json_value::from_str(&keys).unwrap_or_default();
            cx.add(
                "duplicate-labels",
                Severity::Warning,
                Subject {
                    session_keys: keys.clone(),
                    ..Subject::agent(agent).row("session_nodes", Vec::new())
                },
                format!("label {label:?} is used by {}", keys.join(", ")),
                "rename all but one with a label patch",
                None,
            );
            cx.remedy(Remedy::PatchLabel);
        }
    }
    Ok(())
}

/// Orphan queries: (table, what is missing, SQL selecting rowids, repairable).
#[rustfmt::skip]
const ORPHANS: &[(&str, &str, &str, bool)] = &[
    ("session_windows", "their session node", windows::ORPHANS_SQL, false),
    ("transcript_events", "their window", events::ORPHANS_SQL, false),
    ("transcript_event_identities", "their event", events::ORPHAN_IDENTITIES_SQL, true),
    ("session_transcript_active_events", "their event", event_index::ORPHAN_ACTIVE_EVENTS_SQL, true),
    ("session_transcript_index_state", "their window", event_index::ORPHAN_STATES_SQL, true),
    ("session_transcript_fts_rows", "their window", event_index::ORPHAN_SEARCH_ROWS_SQL, true),
    ("transcript_rewrite_watermarks", "their window", events::ORPHAN_WATERMARKS_SQL, true),
];

/// The first row of a transcript: session id, seq, event_json, event_zstd, event_utf8_bytes, rowid.
type FirstRow = (
    String,
    i64,
    Option<String>,
    Option<Vec<u8>>,
    Option<i64>,
    i64,
);

/// An orphan query's row: rowid, session id, seq (events), the key it belonged to if known.
type OrphanRow = (i64, String, Option<i64>, Option<String>);

/// Foreign key violations by (table, parent, session id, session key): (rowids, seqs).
type FkBySession = std::collections::BTreeMap<
    (String, String, Option<String>, Option<String>),
    (Vec<i64>, Vec<i64>),
>;

/// Orphan rows of one table by session id: (key, rowids, seqs).
type BySession = std::collections::BTreeMap<String, (Option<String>, Vec<i64>, Vec<i64>)>;

/// Consecutive seqs folded into inclusive ranges.
fn seq_ranges(mut seqs: Vec<i64>) -> Vec<[i64; 2]> {
    seqs.sort_unstable();
    seqs.dedup();
    let mut out: Vec<[i64; 2]> = Vec::new();
    for s in seqs {
        match out.last_mut() {
            Some(r) if r[1] + 1 == s => r[1] = s,
            _ => out.push([s, s]),
        }
    }
    out
}

/// The orphan rows of one session in one table.
struct Orphans<'a> {
    table: &'a str,
    parent: &'a str,
    fixable: bool,
    session_id: &'a str,
    session_key: Option<&'a str>,
}

fn orphan_finding(cx: &mut Ctx, agent: &str, o: &Orphans<'_>, ids: Vec<i64>, seqs: Vec<i64>) {
    let (table, sid, key) = (o.table, o.session_id, o.session_key);
    let ranges = seq_ranges(seqs);
    let (hint, repair) = if o.fixable {
        (
            "derived rows: the doctor's repair removes them (OpenClaw rebuilds projections)",
            Some(Repair::DeleteOrphans {
                table: table.to_string(),
                rowids: ids.clone(),
            }),
        )
    } else {
        (
            "these rows hold data: the doctor's repair archives them first (a transcript archive in OpenClaw's format, published beside the transcripts), then removes them",
            Some(Repair::ArchiveOrphans {
                session_id: sid.to_string(),
                session_key: key.map(String::from),
            }),
        )
    };
    let mut what = format!("{} {table} row(s) of session id {sid}", ids.len());
    if let Some(k) = key {
        what.push_str(&format!(" (key {k})"));
    }
    what.push_str(&format!(" without {}: {}", o.parent, rowid_list(&ids)));
    what.push_str(&seq_ranges_suffix(&ranges));
    cx.add(
        "orphans",
        Severity::Error,
        Subject::agent(agent)
            .key(key)
            .id(Some(sid))
            .row(table, ids)
            .seqs(ranges),
        what,
        hint,
        repair,
    );
}

fn transcript_checks(cx: &mut Ctx, agent: &str, db: &ReadOnlyDb) -> Result<()> {
    if cx.wants("orphans") {
        for (table, parent, sql, fixable) in ORPHANS {
            let found: Vec<OrphanRow> = rows(db, sql, |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?;
            // One finding per session: the admin judges (and the repair archives) a session.
            let mut by_session: BySession = std::collections::BTreeMap::new();
            for (rowid, sid, seq, key) in found {
                let e = by_session.entry(sid).or_default();
                if e.0.is_none() {
                    e.0 = key;
                }
                e.1.push(rowid);
                e.2.extend(seq);
            }
            for (sid, (key, ids, seqs)) in by_session {
                let orphan = Orphans {
                    table,
                    parent,
                    fixable: *fixable,
                    session_id: &sid,
                    session_key: key.as_deref(),
                };
                orphan_finding(cx, agent, &orphan, ids, seqs);
            }
        }
    }
    if cx.wants("transcript-header") {
        let sql = events::FIRST_ROWS_SQL;
        let read = |r: &rusqlite::Row<'_>| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        };
        each_row(
            db,
            sql,
            read,
            |(sid, seq, json, frame, len, rowid): FirstRow| {
                let text =
                    crate::transcript::decode_event_row(&sid, seq, json, frame.as_deref(), len)
                        .map(|(t, _)| t)
                        .unwrap_or_default();
                let v: Value = crate::json_value::from_str(&text).unwrap_or(Value::Null);
                let ok = seq == 0
                    && v.get("type").and_then(Value::as_str) == Some("session")
                    && v.get("id").and_then(Value::as_str) == Some(sid.as_str());
                if !ok {
                    let key = events::key_of_session(db.conn(), &sid).at(db.path())?;
                    let subject = Subject::agent(agent)
                        .key(key.as_deref())
                        .id(Some(&sid))
                        .row("transcript_events", vec![rowid])
                        .seqs(vec![[seq, seq]]);
                    cx.add("transcript-header", Severity::Error, subject, format!("transcript {sid}{} does not start with its session header (first row seq {seq}, rowid {rowid})", key_text(key.as_deref())), "OpenClaw cannot replay this transcript; restore it from a snapshot or archive", None);
                }
                Ok(())
            },
        )?;
    }
    if cx.wants("seq-gaps") {
        for (sid, n, max) in triples::<String, i64, i64>(db, events::SEQ_GAPS_SQL)? {
            let key = events::key_of_session(db.conn(), &sid).at(db.path())?;
            let missing: Vec<[i64; 2]> = events::missing_seq_ranges(db.conn(), &sid)
                .at(db.path())?
                .into_iter()
                .map(|(a, b)| [a, b])
                .collect();
            let shown: Vec<String> = missing.iter().take(5).map(seq_range_text).collect();
            cx.add(
                "seq-gaps",
                Severity::Error,
                Subject::agent(agent)
                    .key(key.as_deref())
                    .id(Some(&sid))
                    .row("transcript_events", Vec::new())
                    .seqs(missing.clone()),
                format!(
                    "transcript {sid}{} has {n} events but seq runs to {max}: missing {}",
                    key_text(key.as_deref()),
                    shown.join(", ")
                ),
                // The damaged session is replaced from a snapshot from before the gap (its
                // current transcript archived first, as delete archives it).
                if key.is_some() {
                    "replace it from a snapshot"
                } else {
                    "no session names this transcript; its archives are in the archive listing"
                },
                None,
            );
            if key.is_some() {
                cx.remedy(Remedy::ReplaceFromSnapshot);
            }
        }
    }
    if cx.wants("zstd-rows") {
        let mut stmt = db
            .conn()
            .prepare(events::COMPRESSED_ROWS_SQL)
            .at(db.path())?;
        let mut rs = stmt.query([]).at(db.path())?;
        let mut bad = Vec::new();
        while let Some(r) = rs.next().at(db.path())? {
            let sid: String = r.get(0).at(db.path())?;
            let seq: i64 = r.get(1).at(db.path())?;
            let frame = r.get_ref(2).at(db.path())?.as_blob_or_null().ok().flatten();
            let rowid: i64 = r.get(4).at(db.path())?;
            if let Err(e) =
                crate::transcript::decode_event_row(&sid, seq, None, frame, r.get(3).at(db.path())?)
            {
                bad.push((sid, seq, rowid, e.to_string()));
            }
        }
        drop(rs);
        for (sid, seq, rowid, why) in bad {
            let key = events::key_of_session(db.conn(), &sid).at(db.path())?;
            cx.add(
                "zstd-rows",
                Severity::Error,
                Subject::agent(agent)
                    .key(key.as_deref())
                    .id(Some(&sid))
                    .row("transcript_events", vec![rowid])
                    .seqs(vec![[seq, seq]]),
                format!(
                    "transcript_events rowid {rowid}{}: {why}",
                    key_text(key.as_deref())
                ),
                "the row is damaged: restore the transcript from a snapshot or archive",
                None,
            );
        }
    }
    Ok(())
}

/// Entries `delete` kept (`writer::kept_entry`) whose archive is gone, neither a row nor a
/// file (OpenClaw's disk budget removed it, or a deletion was killed before its commit), and
/// the temporary files of a killed write there: nothing reads them.
fn kept_entry_leftovers(
    cx: &mut Ctx,
    layout: &StateLayout,
    paths: &AgentPaths,
    db: Option<&ReadOnlyDb>,
) -> Result<()> {
    let agent = paths.id.as_str();
    let dir = crate::writer::kept_entry::kept_entries_dir(&layout.state_dir, agent);
    if !dir.is_dir() {
        return Ok(());
    }
    let names: std::collections::HashSet<String> = match db {
        Some(db) => rows(db, archives::NAMES_SQL, |r| r.get::<_, String>(0))?
            .into_iter()
            .collect(),
        None => Default::default(),
    };
    let mut files: Vec<std::fs::DirEntry> = std::fs::read_dir(&dir).at(&dir)?.flatten().collect();
    files.sort_by_key(|e| e.file_name());
    for ent in files {
        let file = ent.file_name().to_string_lossy().into_owned();
        let message = if file.starts_with('.') && file.ends_with(".tmp") {
            format!(
                "temporary file {} left by an interrupted deletion",
                ent.path().display()
            )
        } else if let Some(archive) = file.strip_suffix(".entry.json") {
            if names.contains(archive) || paths.sessions_dir.join(archive).is_file() {
                continue;
            }
            format!(
                "entry kept for archive {archive}, which is gone (removed by OpenClaw's disk budget, or a deletion stopped before it committed)"
            )
        } else {
            continue;
        };
        cx.add(
            "leftovers",
            Severity::Info,
            Subject::agent(agent).path(&ent.path()),
            message,
            "nothing reads it; the doctor's repair removes it",
            Some(Repair::RemoveLeftover { path: ent.path() }),
        );
    }
    Ok(())
}

/// An archive row: name, published_at, rowid, session id, key.
type ArchiveRow = (String, Option<i64>, i64, String, String);

fn file_checks(
    cx: &mut Ctx,
    layout: &StateLayout,
    paths: &AgentPaths,
    db: Option<&ReadOnlyDb>,
) -> Result<()> {
    let agent = paths.id.as_str();
    if cx.wants("legacy-pending") {
        if let Some(idx) = paths.legacy_index.as_ref().filter(|p| p.is_file()) {
            // A read-only doctor may run beside an import (ours or OpenClaw's): its index is
            // pending only until that run moves it. Manifests are read only beside a live
            // maintenance owner.
            let maintenance = cx.live_owner(layout).filter(|_| {
                cx.ownership(layout).owner.role.as_deref() == Some(crate::custody::ROLE)
            });
            let importing = maintenance.and_then(|pid| {
                let since = cx.ownership(layout).owner.since.as_deref();
                crate::status::unfinished_run_for(
                    &layout.migration_runs_dir(),
                    idx,
                    since.and_then(crate::units::parse_iso_ms),
                )
                .map(|run| (run, pid))
            });
            match importing {
                Some((run, pid)) => cx.add(
                    "legacy-pending",
                    Severity::Info,
                    Subject::agent(agent).path(idx),
                    format!(
                        "{} is being imported by running process {pid} (run {run})",
                        idx.display()
                    ),
                    "it moves into the import archive when that run finishes; check again then",
                    None,
                ),
                None => {
                    cx.add("legacy-pending", Severity::Warning, Subject::agent(agent).path(idx), format!("{} is waiting for import", idx.display()), "import it with the legacy import (OpenClaw's Gateway will not start while it remains)", None);
                    cx.remedy(Remedy::ImportLegacy);
                }
            }
        }
    }
    if cx.wants("stray-sidecars") && !paths.db.exists() {
        for s in ["-wal", "-shm"] {
            let p = sidecar_path(&paths.db, s);
            if p.exists() {
                cx.add("stray-sidecars", Severity::Warning, Subject::agent(agent).path(&p), format!("{} exists without its database", p.display()), "a -wal may hold the only copy of recent writes: keep it until you know where its database went", None);
            }
        }
    }
    if cx.wants("leftovers") {
        // A read-only doctor may run beside an import: the stage of the live process that
        // holds the state dir is its work in progress, not a leftover.
        for leftover in crate::store::find_leftovers(paths) {
            let path = &leftover.path;
            let (severity, message, hint, repair) = match leftover.kind {
                LeftoverKind::CreationStage { pid: Some(pid) }
                    if cx.live_owner(layout) == Some(pid) =>
                {
                    (
                        Severity::Info,
                        format!(
                            "new database {} is being created by running process {pid}",
                            path.display()
                        ),
                        "it is published under its name when that run finishes; check again then",
                        None,
                    )
                }
                kind => {
                    let (severity, what, by) = match kind {
                        LeftoverKind::StagingDir => (Severity::Warning, "staging directory", "run"),
                        LeftoverKind::CreationStage { .. } => {
                            (Severity::Warning, "unpublished new database", "run")
                        }
                        LeftoverKind::InterruptedWrite => {
                            (Severity::Info, "temporary file", "publication")
                        }
                    };
                    (
                        severity,
                        format!("{what} {} left by an interrupted {by}", path.display()),
                        "the doctor's repair removes it",
                        Some(Repair::RemoveLeftover { path: path.clone() }),
                    )
                }
            };
            cx.add(
                "leftovers",
                severity,
                Subject::agent(agent).path(path),
                message,
                hint,
                repair,
            );
        }
        kept_entry_leftovers(cx, layout, paths, db)?;
    }
    if cx.wants("archive-files") {
        let rows_by_name: Vec<ArchiveRow> = match db {
            Some(db) => rows(db, archives::NAMES_SQL, |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })?,
            None => Vec::new(),
        };
        for ent in std::fs::read_dir(&paths.sessions_dir)
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = ent.file_name().to_string_lossy().into_owned();
            match classify_session_file(&name) {
                // A `.jsonl.reset.*` file is what OpenClaw's reset leaves: normal, kept until
                // the disk budget needs the space, so a healthy store reports nothing.
                SessionFile::Archive {
                    reason: ArchiveReason::Deleted,
                    generation: Some(_),
                    compressed: true,
                    ..
                } if db.is_some() && !rows_by_name.iter().any(|(n, ..)| *n == name) => {
                    cx.add("archive-files", Severity::Warning, Subject::agent(agent).path(&ent.path()), format!("archive file {name} has no row in session_transcript_archives"), "it is still a valid archive: keep it, or remove it once you no longer need it", None);
                }
                _ => {}
            }
        }
        for (name, published, rowid, sid, key) in &rows_by_name {
            if !paths.sessions_dir.join(name).is_file() {
                let what = if published.is_some() {
                    "its published file is missing"
                } else {
                    "its file was never published"
                };
                cx.add(
                    "archive-files",
                    Severity::Warning,
                    Subject::agent(agent)
                        .key(Some(key))
                        .id(Some(sid))
                        .row("session_transcript_archives", vec![*rowid])
                        .path(&paths.sessions_dir.join(name)),
                    format!("archive row {name} (rowid {rowid}, key {key}): {what}"),
                    "the doctor's repair publishes the file from the row",
                    Some(Repair::PublishArchives),
                );
            }
        }
    }
    if cx.wants("disk-budget") {
        if let Ok(store) = AgentStore::open(paths.clone()) {
            let du = crate::du::agent_disk_use(paths, &store, &layout.config.maintenance())?;
            if du.over_high_water {
                cx.add(
                    "disk-budget",
                    Severity::Warning,
                    Subject::agent(agent),
                    format!(
                        "agent {agent} uses {} on disk, over the high-water mark {}",
                        crate::units::format_bytes(du.budget_bytes),
                        crate::units::format_bytes(du.high_water_bytes.unwrap_or(0))
                    ),
                    "prune the store or raise session.maintenance.maxDiskBytes",
                    None,
                );
                cx.remedy(Remedy::Prune);
            }
        }
    }
    Ok(())
}

/// A WAL larger than the database's live pages: single rows past the autocheckpoint, or a
/// reader that kept checkpoints from finishing, leave a WAL that a Gateway must replay on
/// every start (docs/openclaw/MAINTENANCE.md §6). Names the largest rows of the last day of
/// writes, the likeliest cause; `reclaim` checkpoints and truncates it.
fn wal_size_check(cx: &mut Ctx, agent: &str, db: &ReadOnlyDb) -> Result<()> {
    let wal = sidecar_path(db.path(), "-wal");
    let wal_bytes = std::fs::metadata(&wal).map_or(0, |m| m.len());
    if wal_bytes == 0 {
        return Ok(());
    }
    let pages = crate::store::db::vacuum::page_use(db.conn()).at(db.path())?;
    let live = pages.used_pages() * pages.page_size;
    if wal_bytes <= live {
        return Ok(());
    }
    let schema = crate::store::AgentSchema::of(db.conn()).at(db.path())?;
    let rows = if crate::store::db::meta::table_exists(db.conn(), "transcript_events") {
        crate::store::db::events::largest_recent(db.conn(), schema, 86_400_000, 3).at(db.path())?
    } else {
        Vec::new()
    };
    let named: Vec<String> = rows
        .iter()
        .map(|(id, key, seq, at, bytes)| {
            format!(
                "{} seq {seq} at {} ({})",
                key.as_deref().unwrap_or(id),
                crate::units::iso_from_ms(*at),
                crate::units::format_bytes(*bytes as u64)
            )
        })
        .collect();
    let mut subject = Subject::agent(agent).path(&wal);
    if let Some((id, key, _, _, _)) = rows.first() {
        subject = subject.key(key.as_deref()).id(Some(id));
    }
    cx.add(
        "wal-size",
        Severity::Warning,
        subject,
        format!(
            "{} is {}, more than the {} of live pages in its database{}",
            wal.display(),
            crate::units::format_bytes(wal_bytes),
            crate::units::format_bytes(live),
            if named.is_empty() {
                String::new()
            } else {
                format!("; largest recent rows: {}", named.join(", "))
            }
        ),
        "with OpenClaw stopped, reclaim checkpoints it into the database and truncates it (free disk checked first)",
        None,
    );
    Ok(())
}

/// What a killed writer left beside `db`, with the repair SQLite itself would make.
fn crash_state_check(cx: &mut Ctx, agent: Option<&str>, db: &Path) {
    if !db.is_file() {
        return;
    }
    let Some(state) = crate::paths::sqlite_file::crash_state(db) else {
        return;
    };
    let subject = match agent {
        Some(a) => Subject::agent(a),
        None => Subject::none(),
    };
    cx.add(
        "crash-state",
        Severity::Warning,
        subject.path(db),
        format!("{}: {}", db.display(), state.describe()),
        "readers see it as SQLite recovers it; the doctor's repair lets SQLite recover it in place (as OpenClaw's next write would)",
        Some(Repair::RecoverCrashState {
            path: db.to_path_buf(),
        }),
    );
}

/// Run the selected checks over every agent of the state dir.
/// The databases of one state dir at schemas of different releases: which release opens the
/// store, and what the others do with it (docs/openclaw/RELEASES.md).
fn releases_check(cx: &mut Ctx, layout: &StateLayout) {
    use crate::store::releases::{describe_refusals, judge, span};
    let databases = crate::status::database_schemas(layout);
    let verdict = judge(&databases);
    if databases.is_empty() || verdict.agree() {
        return;
    }
    // Every database of one newer release: its store, read as far as this tool knows it (each
    // database's schema finding says so), not databases that disagree (issue 48 item 2).
    if crate::store::releases::newer_owner(&databases).is_some() {
        return;
    }
    let mut what = vec![format!(
        "the databases of this state dir are of different OpenClaw releases: {}",
        databases
            .iter()
            .map(|d| d.describe())
            .collect::<Vec<_>>()
            .join(", ")
    )];
    if !verdict.after_state_upgrade.is_empty() {
        what.push(format!(
            "OpenClaw {} open it after upgrading the state database on their first command (one-way)",
            span(&verdict.after_state_upgrade)
        ));
    }
    if !verdict.after_doctor_fix.is_empty() {
        what.push(format!(
            "OpenClaw {} refuse it until `openclaw doctor --fix` upgrades its older agent databases (one-way)",
            span(&verdict.after_doctor_fix)
        ));
    }
    what.extend(describe_refusals(&verdict.refusing));
    let severity = if verdict.unopenable() {
        Severity::Error
    } else {
        Severity::Warning
    };
    let written = crate::store::releases::written().version;
    cx.add(
        "releases",
        severity,
        Subject::none().path(&layout.state_dir),
        what.join("; "),
        &format!(
            "bring every database to one release: restore the older ones' counterparts from a snapshot of that release, or {}",
            crate::store::upgrade_hint(written)
        ),
        None,
    );
    cx.remedy(Remedy::UpgradeSchema);
}

/// The older schema of a database whose release's doctor repairs this tool mirrors
/// (`older_release`), if it is one.
fn older_release_schema(db: &ReadOnlyDb) -> Option<i64> {
    let info = SchemaInfo::read(db, DatabaseRole::Agent).ok()?;
    (info.status == SchemaStatus::Older && older_release::SCHEMAS.contains(&info.user_version))
        .then_some(info.user_version)
}

/// The first agent of an older release's schema (of every known agent, as the release's
/// doctor walks them all) whose database fails `foreign_key_check`.
fn first_stopping_database(layout: &StateLayout) -> Option<String> {
    layout.known_agents().0.into_iter().find_map(|id| {
        let db = ReadOnlyDb::open(&layout.agent(&id).db).ok()?;
        older_release_schema(&db)?;
        let fails = meta::foreign_key_violations(db.conn()).map_or(true, |n| n > 0);
        fails.then(|| id.to_string())
    })
}

pub fn run_checks(layout: &StateLayout, opts: &DoctorOptions) -> Result<Vec<Finding>> {
    let mut out = Vec::new();
    each_finding(layout, opts, &mut |f| out.push(f))?;
    Ok(out)
}

/// The findings of [`run_checks`], each handed to `sink` as it is found, in the same order,
/// none kept: memory does not grow with the findings (issue 55, `doctor` of a store with a
/// million of them).
pub fn each_finding(
    layout: &StateLayout,
    opts: &DoctorOptions,
    sink: &mut dyn FnMut(Finding),
) -> Result<()> {
    layout.require_exists()?;
    let mut cx = Ctx {
        opts,
        sink,
        last: None,
        older: None,
        ownership: std::cell::OnceCell::new(),
    };
    if cx.wants("stale-locks") {
        let stale: Vec<LockReport> = (cx.ownership(layout).locks.iter())
            .filter(|l| l.state == OwnerState::Stale)
            .cloned()
            .collect();
        for l in &stale {
            cx.add(
                "stale-locks",
                Severity::Warning,
                Subject::none().path(&l.path),
                format!("stale lock {}: {}", l.path.display(), l.reason),
                "the doctor's repair (or clearing stale locks) removes it",
                Some(Repair::ClearStaleLocks),
            );
            cx.remedy(Remedy::ClearStaleLocks);
        }
    }
    if cx.wants("releases") {
        releases_check(&mut cx, layout);
    }
    if cx.wants("acpx-pending") {
        use crate::status::AcpxProblem;
        for p in crate::status::acpx_problems(layout) {
            let path = match &p {
                AcpxProblem::Pending { source, .. }
                | AcpxProblem::HiddenBesideOccupied { source, .. }
                | AcpxProblem::LeftoverAfterAdoption { source, .. } => source.clone(),
                AcpxProblem::Incomplete { destination } => destination.clone(),
            };
            cx.add(
                "acpx-pending",
                Severity::Warning,
                Subject::none().path(&path),
                p.describe(),
                &p.resolution(),
                None,
            );
            if p.migration_resolves() {
                cx.remedy(Remedy::MigrateAcpx);
            }
        }
    }
    if cx.wants("crash-state") && opts.agents.is_empty() {
        crash_state_check(&mut cx, None, &layout.state_db());
    }
    let agents = if opts.agents.is_empty() {
        layout.known_agents().0
    } else {
        opts.agents.clone()
    };
    // An older release's database failing its foreign keys stops that release's repairs for
    // every agent (`older_release`).
    let stopping = first_stopping_database(layout);
    for id in agents {
        let paths = layout.agent(&id);
        if cx.wants("crash-state") {
            crash_state_check(&mut cx, Some(id.as_str()), &paths.db);
        }
        let db = if paths.db.is_file() {
            // An empty or non-SQLite file is one finding, not a failed check.
            let opened = crate::store::require_sqlite_file(&paths.db)
                .and_then(|()| ReadOnlyDb::open(&paths.db))
                .and_then(|db| crate::store::require_database(&db).map(|()| db));
            match opened {
                Ok(db) => Some(db),
                Err(e) if empty_without_content(&paths.db) => {
                    cx.add(
                        "integrity",
                        Severity::Error,
                        Subject::agent(id.as_str()).path(&paths.db),
                        e.to_string(),
                        "it holds nothing: the doctor's repair sets it aside as <name>.empty-<stamp>, and OpenClaw creates a new database on its next start",
                        Some(Repair::SetAsideEmpty {
                            path: paths.db.clone(),
                        }),
                    );
                    None
                }
                Err(e) => {
                    cx.add(
                        "integrity",
                        Severity::Error,
                        Subject::agent(id.as_str()).path(&paths.db),
                        e.to_string(),
                        "restore the latest verified snapshot",
                        None,
                    );
                    None
                }
            }
        } else {
            None
        };
        // Each finding of an older release's database is restricted to the repairs its
        // release's doctor makes; what stops them is known before any check runs. (The
        // findings added before, of the crash state, repair no database.)
        if let Some(schema) = db.as_ref().and_then(older_release_schema) {
            let stop = if db
                .as_ref()
                .is_some_and(|db| meta::foreign_key_violations(db.conn()).map_or(true, |n| n > 0))
            {
                older_release::Stop::OwnForeignKeys
            } else {
                match &stopping {
                    Some(agent) => older_release::Stop::OtherForeignKeys {
                        agent: agent.clone(),
                    },
                    None => older_release::Stop::None,
                }
            };
            cx.flush();
            cx.older = Some((schema, stop));
        }
        if let Some(db) = &db {
            // A damaged file may not be safe to walk further.
            if !sqlite_checks(&mut cx, id.as_str(), db)? {
                if cx.wants("text-encoding") {
                    text_encoding_check(&mut cx, id.as_str(), db)?;
                }
                entry_checks(&mut cx, id.as_str(), db)?;
                transcript_checks(&mut cx, id.as_str(), db)?;
            }
            if cx.wants("wal-size") {
                wal_size_check(&mut cx, id.as_str(), db)?;
            }
        }
        file_checks(&mut cx, layout, &paths, db.as_ref())?;
        cx.flush();
        cx.older = None;
    }
    if cx.wants("stray-sidecars") && !layout.state_db().exists() {
        for s in ["-wal", "-shm"] {
            let p = sidecar_path(&layout.state_db(), s);
            if p.exists() {
                cx.add(
                    "stray-sidecars",
                    Severity::Warning,
                    Subject::none().path(&p),
                    format!("{} exists without its database", p.display()),
                    "keep it until you know where its database went",
                    None,
                );
            }
        }
    }
    cx.flush();
    Ok(())
}
