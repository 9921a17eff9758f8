// Every row of every table that holds the given sessions, for comparing a store before a
// deletion with the store after `undelete` / `backup restore --session`.
//   session-rows.mjs [--strict] <agent.sqlite> <key>...      prints {"<key>": {"<table>": [rows...]}}
// Tables: every table with a `session_key` or `session_id` column (the archive table aside:
// the deletion adds its row and the restore keeps it), plus the FTS content of the windows.
// Clock and random columns are left out, named here:
const EXEMPT = {
  transcript_events: ["created_at"],               // append wall time (not in any archive)
  transcript_event_identities: ["created_at"],     // the same
  session_transcript_index_state: ["updated_at"],  // projection clock
  transcript_rewrite_watermarks: ["generation", "updated_at"], // random generation, clock
  session_transcript_fts_rows: ["id"],             // rowid, also the FTS rowid
};
const argv = process.argv.slice(2);
const STRICT = argv[0] === "--strict";
if (STRICT) argv.shift();
if (STRICT) {
  // A copy out of a snapshot keeps the clocks: only the fresh ids and generation differ.
  for (const t of ["transcript_events", "transcript_event_identities", "session_transcript_index_state"]) delete EXEMPT[t];
}
import { DatabaseSync } from "node:sqlite";

const [dbPath, ...keys] = argv;
const db = new DatabaseSync(dbPath, { readOnly: true });
const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%'").all()
  .map((r) => r.name).filter((t) => !/^session_transcript_fts_(config|content|data|docsize|idx)$/.test(t) && t !== "session_transcript_archives");
const cols = Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT name FROM pragma_table_info(?)`).all(t).map((r) => r.name)]));
const render = (v) => (v instanceof Uint8Array ? "blob:" + Buffer.from(v).toString("hex") : typeof v === "bigint" ? Number(v) : v);
const out = {};
for (const key of keys) {
  const ids = db.prepare("SELECT session_id FROM session_windows WHERE session_key = ?").all(key).map((r) => r.session_id);
  const res = {};
  for (const t of tables) {
    const byKey = cols[t].includes("session_key");
    const byId = cols[t].includes("session_id");
    if (!byKey && !byId) continue;
    const rows = [];
    const add = (r) => {
      for (const c of EXEMPT[t] ?? []) delete r[c];
      rows.push(JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, render(v)]))));
    };
    if (byKey && t !== "session_windows") for (const r of db.prepare(`SELECT * FROM "${t}" WHERE session_key = ?`).all(key)) add(r);
    else for (const id of ids) for (const r of db.prepare(`SELECT * FROM "${t}" WHERE session_id = ?`).all(id)) add(r);
    rows.sort();
    if (rows.length) res[t] = rows;
  }
  const fts = [];
  for (const id of ids) for (const r of db.prepare("SELECT text, session_id, message_id, role, timestamp FROM session_transcript_fts WHERE session_id = ?").all(id)) fts.push(JSON.stringify(r));
  fts.sort();
  if (fts.length) res.session_transcript_fts = fts;
  out[key] = res;
}
console.log(JSON.stringify(out));
