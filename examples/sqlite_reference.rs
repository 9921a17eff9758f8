//! Plain-SQLite reference operations for the benchmarks (bench/run.sh), with the same bundled
//! SQLite as openclaw-sessions, so that a ratio measures our work and not a SQLite version:
//!
//!   sqlite_reference backup SRC DST      backup API copy, journal_mode=DELETE, VACUUM
//!   sqlite_reference quick-check DB...   PRAGMA quick_check on each database
//!   sqlite_reference free-pages DB MIB   leave MIB MiB of free pages (a filler table, dropped)
//!   sqlite_reference vacuum DB...        VACUUM and a WAL checkpoint on each database

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
        _ => {
            return Err(
                "usage: sqlite_reference backup SRC DST | quick-check DB... | free-pages DB MIB | vacuum DB..."
                    .into(),
            )
        }
    }
    Ok(())
}
