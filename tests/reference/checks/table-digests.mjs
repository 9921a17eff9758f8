// A digest of every row of the transcript tables of an agent database, read with node:sqlite (no
// OpenClaw code): each cell as stored (a blob's bytes, a number as SQLite holds it), per table.
//   table-digests.mjs DATABASE
// Prints one JSON line {<table>: {rows, sha256}}; the FTS5 table by rowid and text.
import { DatabaseSync } from "node:sqlite";
import { createHash } from "node:crypto";

const [dbPath] = process.argv.slice(2);
const db = new DatabaseSync(dbPath, { readOnly: true });
const have = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name));
const tables = [
  "transcript_events", "transcript_event_identities", "transcript_rewrite_watermarks",
  "session_transcript_active_events", "session_transcript_fts_rows", "session_transcript_index_state",
  "session_windows", "session_nodes",
];
const out = {};
const digest = (rows) => {
  const h = createHash("sha256");
  for (const row of rows) {
    for (const v of Object.values(row)) {
      if (v instanceof Uint8Array) { h.update("b"); h.update(String(v.length)); h.update(v); }
      else { h.update(typeof v); h.update(JSON.stringify(typeof v === "bigint" ? String(v) : v) ?? "null"); }
      h.update("\x1f");
    }
    h.update("\x1e");
  }
  return h.digest("hex");
};
for (const t of tables) {
  if (!have.has(t)) continue;
  const rows = db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all();
  out[t] = { rows: rows.length, sha256: digest(rows) };
}
if (have.has("session_transcript_fts")) {
  const rows = db.prepare("SELECT rowid, * FROM session_transcript_fts ORDER BY rowid").all();
  out.session_transcript_fts = { rows: rows.length, sha256: digest(rows) };
}
console.log(JSON.stringify(out));
