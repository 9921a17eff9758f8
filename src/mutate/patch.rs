//! `patch`, `archive`, `unarchive`: entry changes through OpenClaw's entry writer
//! (tests/reference/openclaw/OPERATIONS.md §1, §3), with the Gateway's `sessions.patch` guards.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Error, Remedy, Result, ResultExt};
use crate::store::SessionEntry;
use crate::transcript::catalog::truncate_utf16;
use crate::writer::{
    canonical_entry, field_type_error, is_known_field, suggest_field, write_entry, WritableDb,
};

/// What a `patch` asks for, applied in this order: replace, merge, set, unset.
#[derive(Debug, Clone, Default)]
pub struct PatchOps {
    pub replace: Option<Map<String, Value>>,
    pub merge: Option<Map<String, Value>>,
    pub set: Vec<(String, Value)>,
    pub unset: Vec<String>,
    pub preserve_activity: bool,
    pub expect_updated_at: Option<i64>,
    /// `Some(None)`: expect no session id (refuses every normal row, as OpenClaw does).
    pub expect_session_id: Option<Option<String>>,
    /// Let the patch add top-level fields OpenClaw's entry shape does not have (a plugin's
    /// own slot, say); without it they are refused with the closest known name.
    pub allow_unknown_fields: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct FieldChange {
    pub field: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

#[derive(Debug, Clone)]
pub struct PatchPlan {
    pub key: String,
    pub before: SessionEntry,
    pub after: SessionEntry,
    pub changes: Vec<FieldChange>,
    /// Fields the writer keeps as they were (creation stamp), with why.
    pub kept: Vec<String>,
}

/// Model selection fields a `modelSelectionLocked` entry refuses to change.
const LOCKED_FIELDS: [&str; 6] = [
    "model",
    "modelProvider",
    "providerOverride",
    "modelOverride",
    "agentHarnessId",
    "modelSelectionLocked",
];
/// Set once, at creation: the writer keeps the stored value.
const CREATION_FIELDS: [&str; 6] = [
    "createdVia",
    "createdActor",
    "createdAt",
    "projectId",
    "repositoryWorkspaceId",
    "forkSource",
];
const MAX_LABEL_UNITS: usize = 512;
const MAX_DISPLAY_NAME_UNITS: usize = 500;

/// An entry that does not parse cannot be changed, only replaced or deleted.
fn unreadable(entry: &SessionEntry, what: &str) -> Error {
    let why = entry.require_readable().err().unwrap_or_default();
    Error::Conflict {
        message: format!("{why}: {what}"),
        hint: Some("show the session to see the stored text and why it does not parse".into()),
    }
}

fn conflict(message: String) -> Error {
    Error::Conflict {
        message,
        hint: Some("re-read the session (its whole entry) and retry".into()),
    }
    .with_remedy(Remedy::ShowSessionJson)
}

/// Check `--expect-*` guards against the current entry.
pub fn check_expectations(
    entry: &SessionEntry,
    updated_at: Option<i64>,
    session_id: &Option<Option<String>>,
) -> Result<()> {
    if let Some(want) = updated_at {
        if entry.updated_at() != want {
            return Err(conflict(format!(
                "session {} has updatedAt {}, not the expected {want}",
                entry.key,
                entry.updated_at()
            )));
        }
    }
    match session_id {
        Some(None) => Err(conflict(format!(
            "session {} has session id {}, expected none",
            entry.key,
            entry.session_id()
        ))),
        Some(Some(want)) if want != entry.session_id() => Err(conflict(format!(
            "session {} has session id {}, not the expected {want}",
            entry.key,
            entry.session_id()
        ))),
        _ => Ok(()),
    }
}

fn units(s: &str) -> usize {
    s.encode_utf16().count()
}

/// The changed fields, in the order of the new entry, then removed ones.
fn diff(before: &Map<String, Value>, after: &Map<String, Value>) -> Vec<FieldChange> {
    let mut out: Vec<FieldChange> = after
        .iter()
        .filter(|(k, v)| before.get(*k) != Some(v))
        .map(|(k, v)| FieldChange {
            field: k.clone(),
            before: before.get(k).cloned(),
            after: Some(v.clone()),
        })
        .collect();
    out.extend(
        before
            .iter()
            .filter(|(k, _)| !after.contains_key(*k))
            .map(|(k, v)| FieldChange {
                field: k.clone(),
                before: Some(v.clone()),
                after: None,
            }),
    );
    out
}

/// Compute the new entry. `label_taken` says whether another row of the store uses a label.
pub fn plan_patch(
    entry: SessionEntry,
    ops: &PatchOps,
    label_taken: &dyn Fn(&str) -> bool,
    now: i64,
) -> Result<PatchPlan> {
    check_expectations(&entry, ops.expect_updated_at, &ops.expect_session_id)?;
    // An unreadable entry can only be replaced whole: there is nothing to change it from.
    if entry.unreadable.is_some() && ops.replace.is_none() {
        return Err(unreadable(&entry, "replace it whole (--replace-entry)"));
    }
    let old = &entry.fields;
    let mut new = match &ops.replace {
        Some(whole) => whole.clone(),
        None => old.clone(),
    };
    if let Some(m) = &ops.merge {
        for (k, v) in m {
            new.insert(k.clone(), v.clone());
        }
    }
    for (path, v) in &ops.set {
        set_path(&mut new, path, v.clone())?;
    }
    for path in &ops.unset {
        // A field the entry does not hold and OpenClaw does not know is a typo (`lable`),
        // said as `--set` says it, not an "unchanged" that hides it.
        let top = segments(path)?[0];
        if !new.contains_key(top) && !is_known_field(top) && !ops.allow_unknown_fields {
            return Err(Error::InvalidArgument {
                message: format!(
                    "{top} is not a field of OpenClaw's session entry, nor of this one: nothing to unset"
                ),
                hint: Some(match suggest_field(top) {
                    Some(s) => format!("did you mean {s}?"),
                    None => "`show KEY --json` shows the entry's fields".to_string(),
                }),
            });
        }
        unset_path(&mut new, path)?;
    }
    check_fields(old, &new, ops.allow_unknown_fields)?;
    if new.get("sessionId") != old.get("sessionId") {
        return Err(Error::invalid(format!(
            "sessionId is not patchable (session {} keeps {})",
            entry.key,
            entry.session_id()
        )));
    }
    let mut kept = Vec::new();
    for f in CREATION_FIELDS {
        if let Some(v) = old.get(f) {
            if new.get(f) != Some(v) {
                kept.push(format!("{f} is set at creation and keeps its stored value"));
                new.insert(f.to_string(), v.clone());
            }
        }
    }
    // updatedAt: a value the patch gives is written as given (a timestamp, not in the
    // future); otherwise the writer makes it max(stored, now), or keeps it with
    // --preserve-activity. It is settled after the no-op check: a patch that changes
    // nothing writes nothing, so it never postpones maintenance.
    let stored = entry.updated_at();
    let explicit = new
        .get("updatedAt")
        .is_some_and(|v| Some(v) != old.get("updatedAt"));
    if explicit {
        if ops.preserve_activity {
            return Err(Error::invalid(
                "updatedAt is given and --preserve-activity keeps the stored one: choose one",
            ));
        }
        let given = new.get("updatedAt").and_then(Value::as_f64).unwrap_or(-1.0);
        if given > now as f64 {
            return Err(Error::invalid(format!(
                "updatedAt {given} is in the future (now is {now}); OpenClaw's writer would clamp it"
            )));
        }
    } else {
        new.insert(
            "updatedAt".into(),
            old.get("updatedAt").cloned().unwrap_or(Value::from(stored)),
        );
    }
    // model/modelProvider: trimmed; a new model without a provider drops the provider.
    fn touched(new: &Map<String, Value>, old: &Map<String, Value>, f: &str) -> bool {
        new.get(f) != old.get(f)
    }
    let model_touched = touched(&new, old, "model");
    let provider_touched = touched(&new, old, "modelProvider");
    if model_touched || provider_touched {
        for f in ["model", "modelProvider"] {
            if let Some(Value::String(s)) = new.get(f) {
                let t = s.trim().to_string();
                new.insert(f.to_string(), Value::from(t));
            }
        }
        if model_touched && !provider_touched {
            new.shift_remove("modelProvider");
        }
        if new
            .get("model")
            .and_then(Value::as_str)
            .is_some_and(str::is_empty)
        {
            new.shift_remove("model");
            new.shift_remove("modelProvider");
        }
    }
    if entry.locked() {
        if let Some(f) = LOCKED_FIELDS.iter().find(|f| new.get(**f) != old.get(**f)) {
            return Err(Error::Conflict {
                message: format!(
                    "model selection is locked for session {}: {f} cannot change",
                    entry.key
                ),
                hint: Some("locked sessions keep their model, provider and harness".into()),
            }
            .into_locked());
        }
    }
    if touched(&new, old, "displayName") {
        if let Some(v) = new.get("displayName").cloned() {
            let Value::String(s) = v else {
                return Err(Error::invalid("displayName must be a string"));
            };
            let (cut, _) = truncate_utf16(s.trim(), MAX_DISPLAY_NAME_UNITS);
            let cut = cut.trim_end();
            if cut.is_empty() {
                new.shift_remove("displayName");
            } else {
                new.insert("displayName".into(), Value::from(cut));
            }
        }
    }
    if touched(&new, old, "label") {
        match new.get("label").cloned() {
            None | Some(Value::Null) => {
                new.shift_remove("label");
            }
            Some(Value::String(s)) => {
                let t = s.trim();
                if t.is_empty() {
                    return Err(Error::invalid("invalid label: empty"));
                }
                if units(t) > MAX_LABEL_UNITS {
                    return Err(Error::invalid(format!(
                        "invalid label: too long (max {MAX_LABEL_UNITS})"
                    )));
                }
                if label_taken(t) {
                    return Err(conflict(format!("label already in use: {t}")));
                }
                new.insert("label".into(), Value::from(t));
            }
            Some(_) => return Err(Error::invalid("invalid label: must be a string")),
        }
    }
    let mut new = canonical_entry(new);
    // Nothing the patch asked for changes the entry (as the writer would store it): unchanged.
    if entry.unreadable.is_none() && new == canonical_entry(old.clone()) {
        return Ok(PatchPlan {
            key: entry.key.clone(),
            after: entry.clone(),
            before: entry,
            changes: Vec::new(),
            kept,
        });
    }
    if !explicit && !ops.preserve_activity {
        new.insert("updatedAt".into(), Value::from(stored.max(now)));
    }
    let after = SessionEntry::from_value(&entry.key, Value::Object(new))
        .map_err(|why| Error::bad_input(format!("the patched entry is invalid: {why}"), None))?;
    let changes = diff(old, &after.fields);
    // The entry moves into the plan: a large one is held once, not cloned.
    Ok(PatchPlan {
        key: entry.key.clone(),
        before: entry,
        after,
        changes,
        kept,
    })
}

/// `a.b.c`: the path of a nested field (each segment a key of an object).
fn segments(path: &str) -> Result<Vec<&str>> {
    let parts: Vec<&str> = path.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(Error::invalid(format!("{path:?} is not a field path")));
    }
    Ok(parts)
}

/// Set a top-level field, or with a dotted path a nested one (objects on the way are created).
fn set_path(map: &mut Map<String, Value>, path: &str, value: Value) -> Result<()> {
    let parts = segments(path)?;
    let (last, parents) = parts.split_last().expect("at least one segment");
    let mut at = map;
    for (i, p) in parents.iter().enumerate() {
        let slot = at
            .entry(p.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        at = slot.as_object_mut().ok_or_else(|| {
            Error::invalid(format!(
                "cannot set {path}: {} is not an object",
                parts[..=i].join(".")
            ))
        })?;
    }
    at.insert(last.to_string(), value);
    Ok(())
}

/// Remove a top-level or (dotted) nested field; a path that is not there is no change.
fn unset_path(map: &mut Map<String, Value>, path: &str) -> Result<()> {
    let parts = segments(path)?;
    let (last, parents) = parts.split_last().expect("at least one segment");
    let mut at = map;
    for p in parents {
        match at.get_mut(*p).and_then(Value::as_object_mut) {
            Some(next) => at = next,
            None => return Ok(()),
        }
    }
    at.shift_remove(*last);
    Ok(())
}

/// OpenClaw's entry shape: new top-level fields must be fields it knows (unless allowed), and
/// every field the patch changes must have the type OpenClaw reads it as.
fn check_fields(
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    allow_unknown: bool,
) -> Result<()> {
    for (k, v) in new {
        if old.get(k) == Some(v) {
            continue;
        }
        if !old.contains_key(k) && !allow_unknown && !is_known_field(k) {
            let hint = match suggest_field(k) {
                Some(s) => format!("did you mean {s}? (--allow-unknown-field adds it anyway)"),
                None => "--allow-unknown-field adds a field OpenClaw does not know".to_string(),
            };
            return Err(Error::InvalidArgument {
                message: format!("{k} is not a field of OpenClaw's session entry"),
                hint: Some(hint),
            });
        }
        // `label: null` removes the label, as the Gateway's patch does.
        if k == "label" && v.is_null() {
            continue;
        }
        if let Some(why) = field_type_error(k, v) {
            let hint = v
                .is_null()
                .then(|| format!("--unset {k} removes the field"));
            return Err(Error::InvalidArgument { message: why, hint });
        }
    }
    Ok(())
}

/// `openclaw sessions archive`, offline: `archivedAt` (kept if set), reason `manual`,
/// no `archivedBy` (there is no calling actor), pin dropped, `updatedAt` bumped.
pub fn plan_archive(entry: &SessionEntry, now: i64) -> Result<PatchPlan> {
    if entry.unreadable.is_some() {
        return Err(unreadable(
            entry,
            "replace the entry first, or delete the session",
        ));
    }
    // OpenClaw answers `already_archived` and writes nothing (docs/openclaw/REFUSALS.md).
    if entry.fields.contains_key("archivedAt") {
        return Ok(unchanged(entry));
    }
    // The main session (`session.mainKey`) is refused by the caller, which knows the config.
    if entry.key == "unknown" {
        return Err(Error::Conflict {
            message: "Cannot archive the unknown session sentinel.".into(),
            hint: None,
        });
    }
    let mut new = entry.fields.clone();
    if !new.contains_key("archivedAt") {
        new.insert("archivedAt".into(), Value::from(now));
    }
    new.insert("archiveReason".into(), Value::from("manual"));
    new.shift_remove("archivedBy");
    new.shift_remove("pinnedAt");
    new.insert("updatedAt".into(), Value::from(entry.updated_at().max(now)));
    finish(entry, new)
}

/// A maintenance archive (`stale-dashboard`, `age-retention`, `active-session-cap`): the
/// entry with `archivedAt`/`archiveReason` set and `archivedBy` dropped; activity untouched.
/// `reason` is `None` where the release archives without one (2026.8.x's stale dashboards).
pub fn plan_maintenance_archive(
    entry: &SessionEntry,
    reason: Option<&str>,
    now: i64,
) -> Result<PatchPlan> {
    let mut new = entry.fields.clone();
    new.insert("archivedAt".into(), Value::from(now));
    new.shift_remove("archivedBy");
    if let Some(reason) = reason {
        new.insert("archiveReason".into(), Value::from(reason));
    }
    finish(entry, new)
}

pub fn plan_unarchive(entry: &SessionEntry, now: i64) -> Result<PatchPlan> {
    if entry.unreadable.is_some() {
        return Err(unreadable(
            entry,
            "replace the entry first, or delete the session",
        ));
    }
    // Never archived: nothing to write (`already_active`).
    if !["archivedAt", "archivedBy", "archiveReason"]
        .iter()
        .any(|f| entry.fields.contains_key(*f))
    {
        return Ok(unchanged(entry));
    }
    let mut new = entry.fields.clone();
    for f in ["archivedAt", "archivedBy", "archiveReason"] {
        new.shift_remove(f);
    }
    new.insert("updatedAt".into(), Value::from(entry.updated_at().max(now)));
    finish(entry, new)
}

/// A plan that changes nothing.
fn unchanged(entry: &SessionEntry) -> PatchPlan {
    PatchPlan {
        key: entry.key.clone(),
        before: entry.clone(),
        after: entry.clone(),
        changes: Vec::new(),
        kept: Vec::new(),
    }
}

fn finish(entry: &SessionEntry, new: Map<String, Value>) -> Result<PatchPlan> {
    let after = SessionEntry::from_value(&entry.key, Value::Object(canonical_entry(new)))
        .map_err(|why| Error::bad_input(why, None))?;
    let changes = diff(&entry.fields, &after.fields);
    Ok(PatchPlan {
        key: entry.key.clone(),
        before: entry.clone(),
        after,
        changes,
        kept: Vec::new(),
    })
}

/// Apply plans in order in one `BEGIN IMMEDIATE` transaction, each re-reading its row first as
/// [`apply_patch`] does: if any changed since its plan was made, nothing is written. `stop` is
/// asked after each plan: when it says so, the transaction rolls back (`Interrupted`), so a
/// signal never lets a batch in flight commit.
pub fn apply_patch_batch(
    db: &mut WritableDb,
    plans: &[PatchPlan],
    stop: &dyn Fn() -> bool,
) -> Result<()> {
    // Each update fires the node's triggers: its statement journal stays in memory (a few
    // pages per statement) rather than in a temp file for the whole batch.
    db.statement_journals_in_memory()?;
    let path = db.path.clone();
    let tx = db.transaction()?;
    for plan in plans {
        if !still_as_planned(&tx, &path, plan)? {
            return Err(conflict(format!(
                "session {} changed while the patch was being planned",
                plan.key
            )));
        }
        write_entry(&tx, &path, &plan.key, &plan.after, &plan.before)?;
        crate::writer::crash_point("patch-before-commit");
        if stop() {
            return Err(Error::Interrupted);
        }
    }
    tx.commit().at(&path)?;
    Ok(())
}

/// Whether the stored entry is still the one the plan started from. The stored text is
/// dropped before the write: an entry can be large, and the write makes its own copies.
fn still_as_planned(
    tx: &rusqlite::Transaction<'_>,
    path: &std::path::Path,
    plan: &PatchPlan,
) -> Result<bool> {
    let current: Option<String> = crate::store::db::nodes::entry_json(tx, &plan.key).at(path)?;
    Ok(plan.before.matches_stored(current.as_deref()))
}

/// Apply a plan in one `BEGIN IMMEDIATE` transaction that first re-reads the row: if it
/// changed since the plan was made, nothing is written (`CONFLICT`).
pub fn apply_patch(db: &mut WritableDb, plan: &PatchPlan) -> Result<SessionEntry> {
    let path = db.path.clone();
    let tx = db.transaction()?;
    if !still_as_planned(&tx, &path, plan)? {
        return Err(conflict(format!(
            "session {} changed while the patch was being planned",
            plan.key
        )));
    }
    let written = write_entry(&tx, &path, &plan.key, &plan.after, &plan.before)?;
    crate::writer::crash_point("patch-before-commit");
    tx.commit().at(&path)?;
    Ok(SessionEntry {
        key: plan.key.clone(),
        fields: written,
        stored_json: None,
        unreadable: None,
    })
}
