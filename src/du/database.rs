//! `du --database`: an agent database's own split — tables and indexes (`dbstat`), the FTS5
//! indexes with their shadow tables, free pages, and the WAL and other sidecars beside it.

use serde::Serialize;

use crate::error::{Result, ResultExt};
use crate::store::db::vacuum;
use crate::store::ReadOnlyDb;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectUse {
    pub name: String,
    /// `table`, `index`, or `fts` (a shadow table of an FTS5 index).
    pub kind: String,
    /// The table it belongs to (an index's table, a shadow table's FTS5 table).
    pub table: String,
    pub pages: u64,
    pub bytes: u64,
    pub payload_bytes: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SidecarUse {
    pub suffix: String,
    pub bytes: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseUse {
    pub agent_id: String,
    pub file_bytes: u64,
    pub page_size: u64,
    pub page_count: u64,
    pub free_pages: u64,
    pub free_bytes: u64,
    pub table_bytes: u64,
    pub index_bytes: u64,
    pub fts_bytes: u64,
    /// Every table and index, largest first.
    pub objects: Vec<ObjectUse>,
    /// `-wal`, `-shm`, `-journal` when present.
    pub sidecars: Vec<SidecarUse>,
}

pub fn database_use(agent_id: &str, db: &ReadOnlyDb) -> Result<DatabaseUse> {
    let conn = db.conn();
    let pages = vacuum::page_use(conn).at(db.path())?;
    let fts = vacuum::fts5_tables(conn).at(db.path())?;
    let shadow_of = |name: &str| {
        fts.iter()
            .find(|t| {
                name.strip_prefix(t.as_str())
                    .and_then(|r| r.strip_prefix('_'))
                    .is_some_and(|r| ["data", "idx", "content", "docsize", "config"].contains(&r))
            })
            .cloned()
    };
    let mut out = DatabaseUse {
        agent_id: agent_id.to_string(),
        file_bytes: std::fs::metadata(db.path()).map_or(0, |m| m.len()),
        page_size: pages.page_size,
        page_count: pages.page_count,
        free_pages: pages.freelist_count,
        free_bytes: pages.free_bytes(),
        table_bytes: 0,
        index_bytes: 0,
        fts_bytes: 0,
        objects: Vec::new(),
        sidecars: Vec::new(),
    };
    for o in vacuum::object_pages(conn).at(db.path())? {
        let (kind, table) = match shadow_of(&o.name) {
            Some(t) => {
                out.fts_bytes += o.bytes;
                ("fts".to_string(), t)
            }
            None if o.kind == "index" => {
                out.index_bytes += o.bytes;
                (o.kind, o.table)
            }
            None => {
                out.table_bytes += o.bytes;
                (o.kind, o.table)
            }
        };
        out.objects.push(ObjectUse {
            name: o.name,
            kind,
            table,
            pages: o.pages,
            bytes: o.bytes,
            payload_bytes: o.payload,
        });
    }
    for suffix in ["-wal", "-shm", "-journal"] {
        let p = crate::store::sidecar_path(db.path(), suffix);
        if let Ok(m) = std::fs::symlink_metadata(&p) {
            out.sidecars.push(SidecarUse {
                suffix: suffix.to_string(),
                bytes: m.len(),
            });
        }
    }
    Ok(out)
}
