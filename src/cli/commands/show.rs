use clap::Args;
use serde::Serialize;
use serde_json::{Map, Value};

use openclaw_sessions::doctor::quarantine::{self, QuarantinedEntry};
use openclaw_sessions::store::{ArchiveRow, WindowRow};
use openclaw_sessions::units::{format_bytes, iso_from_ms};

use crate::cli::exit::Outcome;
use crate::cli::shown::{self, value};
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// A session key, `main`, a key without its `agent:<id>:` prefix, a session id, or a
    /// unique session-id prefix of at least 8 characters.
    #[arg(value_name = "KEY|SESSION_ID")]
    session: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ShowData {
    agent_id: String,
    session_key: String,
    session_id: String,
    matched_by: &'static str,
    /// OpenClaw's `kind` (`openclaw sessions --json`).
    kind: String,
    /// Our own classification by key shape.
    category: String,
    /// Null when the stored entry is unreadable (`entryError`, `entryRaw`).
    entry: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    entry_error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    entry_raw: Option<String>,
    columns: Map<String, Value>,
    windows: Vec<WindowRow>,
    archives: Vec<ArchiveRow>,
    acp: Option<Value>,
    cli_bindings: Option<Value>,
    /// Rows of this key that `doctor --fix` found unreadable and rebuilt, as they were
    /// (docs/openclaw/REFUSALS.md, "An unreadable entry").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    quarantined: Vec<QuarantinedEntry>,
}

pub fn run(ctx: &Ctx, args: &ShowArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let (store, found) = ctx.find_session(&layout, &args.session)?;
    let e = &found.entry;
    let acp = match (e.fields.get("acp"), e.fields.get("acpSessionBinding")) {
        (None, None) => None,
        (a, b) => Some(serde_json::json!({"acp": a, "acpSessionBinding": b})),
    };
    let cli = match (
        e.fields.get("cliSessionIds"),
        e.fields.get("cliSessionBindings"),
    ) {
        (None, None) => None,
        (a, b) => Some(serde_json::json!({"cliSessionIds": a, "cliSessionBindings": b})),
    };
    let data = ShowData {
        agent_id: store.paths.id.to_string(),
        session_key: e.key.clone(),
        session_id: e.session_id().to_string(),
        matched_by: found.matched_by,
        kind: e.openclaw_kind().to_string(),
        category: e.kind().to_string(),
        entry: if e.unreadable.is_some() {
            Value::Null
        } else {
            // The full entry, as OpenClaw's own full read gives it: with the fields a newer
            // release keeps beside `entry_json` (schema 24's `session_entry_snapshots`).
            let mut entry = e.to_value();
            if let Value::Object(map) = &mut entry {
                map.extend(store.moved_fields(&e.key)?);
            }
            entry
        },
        entry_error: e.unreadable.clone(),
        entry_raw: e.unreadable.as_ref().and(e.stored_json.clone()),
        columns: store.columns(&e.key)?,
        windows: store.windows(e)?,
        archives: store.archives(&e.key)?,
        acp,
        cli_bindings: cli,
        quarantined: quarantine::entries_for(&layout, &store.paths.id.to_string(), &e.key)?,
    };
    if ctx.printer.json {
        ctx.printer.json_data(&data)?;
        return Ok(Outcome::Done);
    }
    let mut out = format!(
        "Session {}\n  agent:      {}\n  session id: {}\n  kind:       {}\n  category:   {}\n  updated:    {}\n",
        value(&data.session_key),
        value(&data.agent_id),
        value(&data.session_id),
        value(&data.kind),
        value(&data.category),
        iso_from_ms(e.updated_at())
    );
    if let Some(l) = e.label() {
        out.push_str(&format!("  label:      {}\n", value(l)));
    }
    if let Some(m) = e.model() {
        out.push_str(&format!("  model:      {}\n", value(&m)));
    }
    let flags: Vec<&str> = [
        (e.archived(), "archived"),
        (e.pinned(), "pinned"),
        (e.locked(), "locked"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    if !flags.is_empty() {
        out.push_str(&format!("  flags:      {}\n", flags.join(", ")));
    }
    match (&data.entry_error, &data.entry_raw) {
        (Some(why), Some(raw)) => {
            out.push_str(&format!(
                "\nEntry (unreadable: {}), as stored:\n{}\n",
                value(why),
                value(raw)
            ));
        }
        _ => {
            out.push_str("\nEntry:\n");
            out.push_str(&shown::json(&serde_json::to_string_pretty(&data.entry)?));
            out.push('\n');
        }
    }
    if !data.columns.is_empty() {
        out.push_str("\nColumns:\n");
        for (k, v) in &data.columns {
            if !v.is_null() {
                out.push_str(&format!("  {} = {}\n", value(k), ctx.printer.value_line(v)));
            }
        }
    }
    out.push_str("\nTranscript windows:\n");
    ctx.printer.out(&out)?;
    let mut t = ctx.printer.table(&[
        "SESSION ID",
        "CURRENT",
        "REASON",
        "SCOPE",
        "EVENTS",
        "BYTES",
        "UPDATED",
        "COLD",
    ]);
    for w in &data.windows {
        t.add_row(vec![
            w.row.session_id.clone(),
            if w.current {
                "yes".into()
            } else {
                String::new()
            },
            w.row.reason.clone().unwrap_or_default(),
            w.row.session_scope.clone(),
            w.events.to_string(),
            format_bytes(w.bytes),
            iso_from_ms(w.row.updated_at),
            w.row.cold_archive.clone().unwrap_or_default(),
        ]);
    }
    ctx.printer.print_table(&t)?;
    if !data.archives.is_empty() {
        ctx.printer.out("\nArchives:\n")?;
        let mut t = ctx
            .printer
            .table(&["NAME", "REASON", "BYTES", "CREATED", "FILE"]);
        for a in &data.archives {
            t.add_row(vec![
                a.row.archive_name.clone(),
                a.row.reason.clone(),
                format_bytes(a.row.blob_bytes),
                iso_from_ms(a.row.created_at),
                if a.file_present {
                    "present".into()
                } else {
                    "missing".into()
                },
            ]);
        }
        ctx.printer.print_table(&t)?;
    }
    for q in &data.quarantined {
        let raw = match (&q.entry_json, &q.entry_json_hex) {
            (Some(text), _) => value(text).into_owned(),
            (None, Some(hex)) => format!("(not UTF-8, hex) {hex}"),
            (None, None) => String::new(),
        };
        ctx.printer.out(&format!(
            "\nUnreadable entry rebuilt by doctor --fix at {} (session id {}, rowid {}; {}), kept in {}:\n{raw}\n",
            iso_from_ms(q.quarantined_at),
            value(&q.session_id),
            q.rowid,
            value(&q.parse_error),
            q.file.display()
        ))?;
    }
    Ok(Outcome::Done)
}
