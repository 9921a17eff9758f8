//! `patch`, `archive`, `unarchive`: entry changes through OpenClaw's entry writer
//! (tests/reference/openclaw/OPERATIONS.md §1, §3), with the Gateway's `sessions.patch` guards.

use serde::Serialize;
use serde_json::{Map, Value};

use super::entry_writer::{canonical_entry, write_entry};
use super::WritableDb;
use crate::error::{Error, Remedy, Result, ResultExt};
use crate::store::SessionEntry;
use crate::transcript::catalog::truncate_utf16;

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
    entry: &SessionEntry,
    ops: &PatchOps,
    label_taken: &dyn Fn(&str) -> bool,
    now: i64,
) -> Result<PatchPlan> {
    check_expectations(entry, ops.expect_updated_at, &ops.expect_session_id)?;
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
    for (k, v) in &ops.set {
        new.insert(k.clone(), v.clone());
    }
    for k in &ops.unset {
        new.shift_remove(k);
    }
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
    // updatedAt: max(stored, patch, now), values from the future clamped to now.
    let stored = entry.updated_at();
    if ops.preserve_activity {
        new.insert(
            "updatedAt".into(),
            old.get("updatedAt").cloned().unwrap_or(Value::from(stored)),
        );
    } else {
        let patched = new
            .get("updatedAt")
            .and_then(Value::as_f64)
            .filter(|f| f.is_finite() && *f >= 0.0)
            .map(|f| (f as i64).min(now));
        new.insert(
            "updatedAt".into(),
            Value::from(stored.max(now).max(patched.unwrap_or(0))),
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
    let after = SessionEntry::from_value(&entry.key, Value::Object(canonical_entry(new)))
        .map_err(|why| Error::bad_input(format!("the patched entry is invalid: {why}"), None))?;
    let changes = diff(old, &after.fields);
    Ok(PatchPlan {
        key: entry.key.clone(),
        before: entry.clone(),
        after,
        changes,
        kept,
    })
}

/// `openclaw sessions archive`, offline: `archivedAt` (kept if set), reason `manual`,
/// no `archivedBy` (there is no calling actor), pin dropped, `updatedAt` bumped.
pub fn plan_archive(entry: &SessionEntry, now: i64) -> Result<PatchPlan> {
    let rest = entry
        .key
        .strip_prefix("agent:")
        .and_then(|r| r.split_once(':'))
        .map(|(_, r)| r);
    if rest == Some("main") || entry.key == "global" {
        return Err(Error::Conflict {
            message: "Cannot archive an agent's main session.".into(),
            hint: None,
        });
    }
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
pub fn plan_maintenance_archive(entry: &SessionEntry, reason: &str, now: i64) -> Result<PatchPlan> {
    let mut new = entry.fields.clone();
    new.insert("archivedAt".into(), Value::from(now));
    new.shift_remove("archivedBy");
    new.insert("archiveReason".into(), Value::from(reason));
    finish(entry, new)
}

pub fn plan_unarchive(entry: &SessionEntry, now: i64) -> Result<PatchPlan> {
    let mut new = entry.fields.clone();
    for f in ["archivedAt", "archivedBy", "archiveReason"] {
        new.shift_remove(f);
    }
    new.insert("updatedAt".into(), Value::from(entry.updated_at().max(now)));
    finish(entry, new)
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

/// Apply a plan in one `BEGIN IMMEDIATE` transaction that first re-reads the row: if it
/// changed since the plan was made, nothing is written (`CONFLICT`).
pub fn apply_patch(db: &mut WritableDb, plan: &PatchPlan) -> Result<SessionEntry> {
    let path = db.path.clone();
    let tx = db.transaction()?;
    let current: Option<String> = crate::store::db::nodes::entry_json(&tx, &plan.key).at(&path)?;
    let current = current.and_then(|j| SessionEntry::parse(&plan.key, &j).ok());
    if current.as_ref() != Some(&plan.before) {
        return Err(conflict(format!(
            "session {} changed while the patch was being planned",
            plan.key
        )));
    }
    let written = write_entry(&tx, &path, &plan.key, &plan.after, &plan.before)?;
    super::crash_point("patch-before-commit");
    tx.commit().at(&path)?;
    Ok(SessionEntry {
        key: plan.key.clone(),
        fields: written,
        stored_json: None,
    })
}
