// Print a transcript's stored rows as `transcript cat` must print them: each row's event JSON
// (event_json) and a newline, in seq order, read with node:sqlite (no OpenClaw code).
//   stored-events.mjs DATABASE SESSION_ID
// Rows stored compressed (event_zstd, schema 23) are printed as "<zstd>" and make the run fail:
// the release matrix compares stores of releases that never compress.
import { DatabaseSync } from "node:sqlite";

const [dbPath, sessionId] = process.argv.slice(2);
const db = new DatabaseSync(dbPath, { readOnly: true });
const cols = new Set(db.prepare("SELECT name FROM pragma_table_info('transcript_events')").all().map((r) => r.name));
const sql = `SELECT seq, event_json${cols.has("event_zstd") ? ", event_zstd" : ""} FROM transcript_events WHERE session_id = ? ORDER BY seq`;
let compressed = 0;
const out = [];
for (const row of db.prepare(sql).all(sessionId)) {
  if (row.event_json == null) { compressed++; out.push("<zstd>\n"); continue; }
  out.push(row.event_json + "\n");
}
process.stdout.write(out.join(""));
if (compressed) { console.error(`${compressed} compressed rows`); process.exit(1); }
