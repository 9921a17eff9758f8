//! Giving free pages back to the file system: the pragmas that measure a database's pages
//! and the statements that compact it. OpenClaw's own offline compaction does the same steps
//! (checkpoint, `auto_vacuum = INCREMENTAL`, `VACUUM` or `incremental_vacuum`, checkpoint;
//! docs/openclaw/MAINTENANCE.md §6).

use rusqlite::Connection;

/// `auto_vacuum` value of a database that can give pages back without a rebuild.
pub const AUTO_VACUUM_INCREMENTAL: i64 = 2;

/// How a database's pages are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageUse {
    pub page_size: u64,
    pub page_count: u64,
    /// Pages on the free list: what a compaction gives back.
    pub freelist_count: u64,
    /// 0 none, 1 full, 2 incremental.
    pub auto_vacuum: i64,
}

impl PageUse {
    pub fn free_bytes(&self) -> u64 {
        self.freelist_count * self.page_size
    }

    /// Pages holding data.
    pub fn used_pages(&self) -> u64 {
        self.page_count.saturating_sub(self.freelist_count)
    }
}

fn pragma(conn: &Connection, name: &str) -> rusqlite::Result<i64> {
    conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
}

pub fn page_use(conn: &Connection) -> rusqlite::Result<PageUse> {
    Ok(PageUse {
        page_size: pragma(conn, "page_size")?.max(0) as u64,
        page_count: pragma(conn, "page_count")?.max(0) as u64,
        freelist_count: pragma(conn, "freelist_count")?.max(0) as u64,
        auto_vacuum: pragma(conn, "auto_vacuum")?,
    })
}

/// The bytes the schema alone takes: the header page and one root page for each table and
/// index, what the database would weigh with no row at all.
pub fn schema_bytes(conn: &Connection) -> rusqlite::Result<u64> {
    let roots: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_schema WHERE rootpage > 0",
        [],
        |r| r.get(0),
    )?;
    let page_size = pragma(conn, "page_size")?.max(0) as u64;
    Ok(page_size * (1 + roots.max(0) as u64))
}

/// One table or index as `dbstat` measures it: the pages it takes and the bytes of the
/// records on them.
#[derive(Debug, Clone)]
pub struct ObjectPages {
    pub name: String,
    /// `table`, `index`, or `table` for a virtual table's shadow tables too.
    pub kind: String,
    /// The table an index belongs to (the table itself for a table).
    pub table: String,
    pub pages: u64,
    pub bytes: u64,
    /// Bytes of stored records (payload), the rest is page overhead and unused space.
    pub payload: u64,
}

/// Every table and index of the main database with its pages (`dbstat`, aggregated per
/// object): one pass over every page of the file, nothing kept but a row per object.
pub fn object_pages(conn: &Connection) -> rusqlite::Result<Vec<ObjectPages>> {
    let mut stmt = conn.prepare(
        "SELECT d.name, coalesce(s.type, 'table'), coalesce(s.tbl_name, d.name), \
         d.pageno, d.pgsize, d.payload \
         FROM dbstat('main', 1) d LEFT JOIN sqlite_schema s ON s.name = d.name \
         ORDER BY d.pgsize DESC, d.name",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(ObjectPages {
            name: r.get(0)?,
            kind: r.get(1)?,
            table: r.get(2)?,
            pages: r.get::<_, i64>(3)?.max(0) as u64,
            bytes: r.get::<_, i64>(4)?.max(0) as u64,
            payload: r.get::<_, i64>(5)?.max(0) as u64,
        })
    })?;
    rows.collect()
}

/// The FTS5 virtual tables: their shadow tables are named `<name>_data`, `_idx`, `_content`,
/// `_docsize`, `_config`.
pub fn fts5_tables(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' \
         AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%' ORDER BY name",
    )?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    rows.collect()
}

/// `wal_checkpoint(TRUNCATE)`: every frame copied into the database and the WAL emptied.
/// `false` when a reader or writer kept it from completing.
pub fn checkpoint_truncate(conn: &Connection) -> rusqlite::Result<bool> {
    let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
    Ok(busy == 0)
}

/// Move up to `pages` free pages to the end of the file and cut them off, in one transaction
/// (only on an `auto_vacuum = INCREMENTAL` database).
pub fn incremental_vacuum(conn: &Connection, pages: u64) -> rusqlite::Result<()> {
    // The pragma returns one row per page freed; they must be stepped through for it to work.
    let mut stmt = conn.prepare(&format!("PRAGMA incremental_vacuum({pages})"))?;
    let mut rows = stmt.query([])?;
    while rows.next()?.is_some() {}
    Ok(())
}

/// Rebuild the whole database, leaving it in `auto_vacuum = INCREMENTAL` as OpenClaw makes
/// its databases, so the next compaction is incremental.
pub fn vacuum_to_incremental(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch("PRAGMA auto_vacuum = INCREMENTAL; VACUUM;")
}
