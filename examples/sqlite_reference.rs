//! Plain-SQLite reference operations for the benchmarks (bench/run.sh), with the same bundled
//! SQLite as openclaw-sessions, so that a ratio measures our work and not a SQLite version:
//!
//!   sqlite_reference backup SRC DST      backup API copy, journal_mode=DELETE, VACUUM
//!   sqlite_reference quick-check DB...   PRAGMA quick_check on each database
//!   sqlite_reference free-pages DB MIB   leave MIB MiB of free pages (a filler table, dropped)
//!   sqlite_reference vacuum DB...        VACUUM and a WAL checkpoint on each database
//!   sqlite_reference copy-rows SRC DST   a new DST with SRC's schema, then SRC's session and
//!                                        transcript rows written into it, one statement a table
//!   sqlite_reference copy-rows-by-event SRC DST
//!                                        the same rows one at a time, in the order an import
//!                                        writes them
//! The last two are the floor of `migrate legacy`: SQLite alone writing the rows, indexes and
//! full-text index an import of the same transcripts must write, with nothing converted.

use rusqlite::{Connection, OpenFlags};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("backup") if args.len() == 3 => {
            let src = Connection::open_with_flags(
                format!("file:{}?mode=ro", args[1]),
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
            )?;
            let mut dst = Connection::open(&args[2])?;
            rusqlite::backup::Backup::new(&src, &mut dst)?.step(-1)?;
            dst.execute_batch("PRAGMA journal_mode = DELETE; VACUUM;")?;
        }
        Some("quick-check") => {
            for db in &args[1..] {
                let c = Connection::open_with_flags(
                    format!("file:{db}?immutable=1"),
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
                )?;
                let r: String = c.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
                println!("{db}: {r}");
            }
        }
        Some("free-pages") if args.len() == 3 => {
            let c = Connection::open(&args[1])?;
            let mib: u64 = args[2].parse()?;
            c.execute_batch("BEGIN; CREATE TABLE bench_filler(b BLOB);")?;
            for _ in 0..mib * 16 {
                c.execute("INSERT INTO bench_filler VALUES (zeroblob(65536))", [])?;
            }
            c.execute_batch(
                "COMMIT; DROP TABLE bench_filler; PRAGMA wal_checkpoint(TRUNCATE);",
            )?;
        }
        Some("vacuum") => {
            for db in &args[1..] {
                let c = Connection::open(db)?;
                c.execute_batch("VACUUM;")?;
                c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
            }
        }
        Some("copy-rows") if args.len() == 3 => copy_rows(&args[1], &args[2])?,
        Some("copy-rows-by-event") if args.len() == 3 => copy_rows_by_event(&args[1], &args[2])?,
        _ => {
            return Err(
                "usage: sqlite_reference backup SRC DST | quick-check DB... | free-pages DB MIB | vacuum DB... | copy-rows SRC DST | copy-rows-by-event SRC DST"
                    .into(),
            )
        }
    }
    Ok(())
}

/// The tables an import writes, in an order their foreign keys accept.
const IMPORTED_TABLES: [&str; 11] = [
    "session_nodes",
    "conversations",
    "session_windows",
    "session_conversations",
    "transcript_events",
    "transcript_rewrite_watermarks",
    "transcript_event_identities",
    "session_transcript_index_state",
    "session_transcript_active_events",
    "session_transcript_fts_rows",
    "session_participants",
];

/// SRC's rows written into a new DST the way the import writes a new database (no journal,
/// an 8 MiB page cache, foreign keys and triggers on), each table in one statement.
fn copy_rows(src: &str, dst: &str) -> Result<(), Box<dyn std::error::Error>> {
    let source = immutable(src)?;
    let c = new_with_schema(&source, dst)?;
    c.execute("ATTACH ?1 AS s", [format!("file:{src}?immutable=1")])?;
    c.execute_batch("BEGIN")?;
    for table in IMPORTED_TABLES {
        c.execute_batch(&format!(
            "INSERT OR IGNORE INTO main.{table} SELECT * FROM s.{table} ORDER BY rowid"
        ))?;
    }
    c.execute_batch(
        "INSERT INTO main.session_transcript_fts (rowid, text, session_id, message_id, role, timestamp) \
         SELECT rowid, text, session_id, message_id, role, timestamp FROM s.session_transcript_fts ORDER BY rowid; \
         COMMIT;",
    )?;
    Ok(())
}

/// A database read as a file nothing changes.
fn immutable(path: &str) -> rusqlite::Result<Connection> {
    Connection::open_with_flags(
        format!("file:{path}?immutable=1"),
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
    )
}

/// A new database with `source`'s schema, set up as the import sets up a database it creates.
fn new_with_schema(
    source: &Connection,
    dst: &str,
) -> Result<Connection, Box<dyn std::error::Error>> {
    let mut schema = source.prepare(
        "SELECT m.sql FROM sqlite_master m LEFT JOIN pragma_table_list t ON t.schema = 'main' AND t.name = m.name \
         WHERE m.sql IS NOT NULL AND m.name NOT LIKE 'sqlite_%' AND coalesce(t.type, '') != 'shadow' ORDER BY m.rowid",
    )?;
    let statements: Vec<String> = schema
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let c = Connection::open(dst)?;
    c.execute_batch(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -8192; \
         PRAGMA temp_store = MEMORY; PRAGMA foreign_keys = ON;",
    )?;
    c.execute_batch("BEGIN")?;
    for sql in &statements {
        c.execute_batch(sql)?;
    }
    c.execute_batch("COMMIT")?;
    Ok(c)
}

type Row = Vec<rusqlite::types::Value>;

fn rows_of(
    source: &Connection,
    table: &str,
    column: &str,
    key: &str,
) -> rusqlite::Result<Vec<Row>> {
    let mut stmt = source.prepare_cached(&format!(
        "SELECT * FROM {table} WHERE {column} = ?1 ORDER BY rowid"
    ))?;
    let n = stmt.column_count();
    let rows = stmt.query_map([key], |r| {
        (0..n).map(|i| r.get(i)).collect::<rusqlite::Result<Row>>()
    })?;
    rows.collect()
}

/// One row into `table`; the statement's text is built once a table, so a row costs what a
/// prepared insert costs (as the import's `prepare_cached` statements do).
fn insert_row(c: &Connection, table: &'static str, row: &Row) -> rusqlite::Result<()> {
    thread_local! {
        static SQL: std::cell::RefCell<std::collections::HashMap<&'static str, String>> =
            Default::default();
    }
    SQL.with(|sql| {
        let mut sql = sql.borrow_mut();
        let text = sql.entry(table).or_insert_with(|| {
            let marks = vec!["?"; row.len()].join(", ");
            format!("INSERT OR IGNORE INTO {table} VALUES ({marks})")
        });
        c.prepare_cached(text)?
            .execute(rusqlite::params_from_iter(row.iter()))?;
        Ok(())
    })
}

/// The same rows written one at a time, as an import writes them: per session its node and
/// window, then per event its row, identity and active row (and one search key, in order);
/// the FTS rows of 256 sessions after them, in one transaction per 256 sessions.
fn copy_rows_by_event(src: &str, dst: &str) -> Result<(), Box<dyn std::error::Error>> {
    let source = immutable(src)?;
    let c = new_with_schema(&source, dst)?;
    let windows: Vec<(String, String)> = source
        .prepare("SELECT session_id, session_key FROM session_windows ORDER BY rowid")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    c.execute("ATTACH ?1 AS s", [format!("file:{src}?immutable=1")])?;
    c.execute_batch("INSERT INTO main.conversations SELECT * FROM s.conversations ORDER BY rowid")?;
    let seq_of = |table: &str, column: &str| -> rusqlite::Result<usize> {
        let stmt = source.prepare(&format!("SELECT * FROM {table} LIMIT 0"))?;
        stmt.column_index(column)
    };
    let (id_seq, active_seq) = (
        seq_of("transcript_event_identities", "seq")?,
        seq_of("session_transcript_active_events", "event_seq")?,
    );
    let int = |v: &rusqlite::types::Value| match v {
        rusqlite::types::Value::Integer(i) => *i,
        _ => i64::MAX,
    };
    let mut fts: Vec<Row> = Vec::new();
    for batch in windows.chunks(256) {
        c.execute_batch("BEGIN")?;
        for (sid, key) in batch {
            for r in rows_of(&source, "session_nodes", "session_key", key)? {
                insert_row(&c, "session_nodes", &r)?;
            }
            for r in rows_of(&source, "session_windows", "session_id", sid)? {
                insert_row(&c, "session_windows", &r)?;
            }
            let events = rows_of(&source, "transcript_events", "session_id", sid)?;
            let identities = rows_of(&source, "transcript_event_identities", "session_id", sid)?;
            let active = rows_of(
                &source,
                "session_transcript_active_events",
                "session_id",
                sid,
            )?;
            let keys = rows_of(&source, "session_transcript_fts_rows", "session_id", sid)?;
            for r in rows_of(&source, "transcript_rewrite_watermarks", "session_id", sid)? {
                insert_row(&c, "transcript_rewrite_watermarks", &r)?;
            }
            let (mut next_identity, mut next_active) = (0, 0);
            for (i, e) in events.iter().enumerate() {
                insert_row(&c, "transcript_events", e)?;
                let seq = int(&e[1]);
                while identities
                    .get(next_identity)
                    .is_some_and(|r| int(&r[id_seq]) <= seq)
                {
                    insert_row(
                        &c,
                        "transcript_event_identities",
                        &identities[next_identity],
                    )?;
                    next_identity += 1;
                }
                while active
                    .get(next_active)
                    .is_some_and(|r| int(&r[active_seq]) <= seq)
                {
                    insert_row(&c, "session_transcript_active_events", &active[next_active])?;
                    next_active += 1;
                }
                if let Some(r) = keys.get(i) {
                    insert_row(&c, "session_transcript_fts_rows", r)?;
                    if let rusqlite::types::Value::Integer(id) = r[0] {
                        let mut stmt = source.prepare_cached(
                            "SELECT rowid, text, session_id, message_id, role, timestamp FROM session_transcript_fts WHERE rowid = ?1",
                        )?;
                        fts.push(stmt.query_row([id], |r| {
                            (0..6).map(|i| r.get(i)).collect::<rusqlite::Result<Row>>()
                        })?);
                    }
                }
            }
            for r in rows_of(&source, "session_transcript_index_state", "session_id", sid)? {
                insert_row(&c, "session_transcript_index_state", &r)?;
            }
        }
        for r in fts.drain(..) {
            c.prepare_cached("INSERT INTO session_transcript_fts (rowid, text, session_id, message_id, role, timestamp) VALUES (?, ?, ?, ?, ?, ?)")?
                .execute(rusqlite::params_from_iter(r.iter()))?;
        }
        c.execute_batch("COMMIT")?;
    }
    c.execute_batch(
        "INSERT OR IGNORE INTO main.session_conversations SELECT * FROM s.session_conversations ORDER BY rowid",
    )?;
    Ok(())
}
