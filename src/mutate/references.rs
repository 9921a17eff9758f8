//! Which session keys refer to which session ids (`collectSessionStateIdsForEntry`), read once
//! per store for deletions. Kept in a private temporary SQLite database rather than a map: it
//! has a row per session and reference, and a deletion run needs it whole. A deletion marks
//! its key forgotten rather than dropping it, so plans made before the run can still read the
//! references as they were.
//! The `ref` table is this module's private scratch database: its SQL stays here.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;

use crate::error::{Result, ResultExt};
use crate::store::open_scratch;

/// Session ids an entry refers to (`collectSessionStateIdsForEntry`).
pub(super) fn state_ids(entry: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    let mut add = |v: Option<&Value>| {
        if let Some(s) = v
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            if !out.iter().any(|o| o == s) {
                out.push(s.to_string());
            }
        }
    };
    add(entry.get("sessionId"));
    add(entry.get("previousSessionId"));
    if let Some(Value::Array(ids)) = entry.get("usageFamilySessionIds") {
        for id in ids {
            add(Some(id));
        }
    }
    out
}

pub struct References {
    conn: Connection,
    at: PathBuf,
}

impl std::fmt::Debug for References {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("References")
    }
}

/// The references at one moment of a run.
#[derive(Debug, Clone, Copy)]
pub struct ReferenceView<'a> {
    refs: &'a References,
    with_forgotten: bool,
}

impl References {
    pub fn read(conn: &Connection, path: &Path) -> Result<Self> {
        let (refs, at) = open_scratch(
            "session references",
            1024,
            "CREATE TABLE ref (
               session_id TEXT NOT NULL,
               key TEXT NOT NULL,
               forgotten INTEGER NOT NULL DEFAULT 0,
               PRIMARY KEY (session_id, key)
             ) WITHOUT ROWID;
             CREATE INDEX ref_by_key ON ref (key);",
        )?;
        let mut insert = refs
            .prepare("INSERT OR IGNORE INTO ref (session_id, key) VALUES (?1, ?2)")
            .at(&at)?;
        crate::store::db::nodes::for_each_reference(conn, path, |key, current, json| {
            insert.execute(params![current, key]).at(&at)?;
            if let Ok(Value::Object(e)) = crate::json_value::from_str::<Value>(&json) {
                for id in state_ids(&e) {
                    insert.execute(params![id, key]).at(&at)?;
                }
            }
            Ok(())
        })?;
        drop(insert);
        Ok(References { conn: refs, at })
    }

    /// A deleted key refers to nothing any more (as of `now`).
    pub fn forget(&mut self, key: &str) -> Result<()> {
        self.conn
            .prepare_cached("UPDATE ref SET forgotten = 1 WHERE key = ?1")
            .and_then(|mut s| s.execute([key]))
            .at(&self.at)?;
        Ok(())
    }

    /// The references as they are now: a forgotten key refers to nothing.
    pub fn now(&self) -> ReferenceView<'_> {
        ReferenceView {
            refs: self,
            with_forgotten: false,
        }
    }

    /// The references as they were read, before any key was forgotten.
    pub fn as_read(&self) -> ReferenceView<'_> {
        ReferenceView {
            refs: self,
            with_forgotten: true,
        }
    }
}

impl ReferenceView<'_> {
    /// The first other key (in key order) that refers to `session_id`.
    pub fn other_owner(&self, session_id: &str, deleted: &str) -> Result<Option<String>> {
        self.refs
            .conn
            .prepare_cached(
                "SELECT key FROM ref WHERE session_id = ?1 AND key <> ?2 \
                 AND (?3 OR forgotten = 0) ORDER BY key LIMIT 1",
            )
            .and_then(|mut s| {
                s.query_row(params![session_id, deleted, self.with_forgotten], |r| {
                    r.get(0)
                })
                .optional()
            })
            .at(&self.refs.at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(rows: &[(&str, &str, &str)]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE session_nodes (session_key TEXT NOT NULL PRIMARY KEY, \
             current_session_id TEXT NOT NULL, entry_json TEXT NOT NULL)",
        )
        .unwrap();
        for (key, id, json) in rows {
            conn.execute(
                "INSERT INTO session_nodes VALUES (?1, ?2, ?3)",
                [key, id, json],
            )
            .unwrap();
        }
        conn
    }

    #[test]
    fn owners_in_key_order_before_and_after_a_deletion() {
        let conn = store(&[
            ("b", "s2", r#"{"sessionId":"s2","previousSessionId":"s1"}"#),
            ("a", "s1", r#"{"sessionId":"s1"}"#),
            (
                "c",
                "s3",
                r#"{"sessionId":"s3","usageFamilySessionIds":["s1"," s1 ",""]}"#,
            ),
            ("Z", "s4", "not json"),
        ]);
        let mut refs = References::read(&conn, Path::new("db")).unwrap();
        let owner =
            |v: ReferenceView<'_>, id: &str, deleted: &str| v.other_owner(id, deleted).unwrap();
        // Keys compare as bytes: "Z" < "a" < "b" < "c".
        assert_eq!(owner(refs.now(), "s1", "a").as_deref(), Some("b"));
        assert_eq!(owner(refs.now(), "s1", "x").as_deref(), Some("a"));
        assert_eq!(owner(refs.now(), "s4", "x").as_deref(), Some("Z"));
        assert_eq!(owner(refs.now(), "s4", "Z"), None);
        refs.forget("b").unwrap();
        assert_eq!(owner(refs.now(), "s1", "a").as_deref(), Some("c"));
        assert_eq!(owner(refs.as_read(), "s1", "a").as_deref(), Some("b"));
        refs.forget("c").unwrap();
        assert_eq!(owner(refs.now(), "s1", "a"), None);
        assert_eq!(owner(refs.as_read(), "s2", "x").as_deref(), Some("b"));
    }
}
