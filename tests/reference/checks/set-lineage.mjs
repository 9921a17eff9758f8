// Write non-canonical lineage values into one agent database, as an old `patch` of ours wrote
// them (the entry and its projected column), for the canonical-keys differential.
//   set-lineage.mjs <db>                  plant the cases, print them as JSON
//   set-lineage.mjs <db> --read           print the lineage of the planted sessions as JSON
import { DatabaseSync } from "node:sqlite";

const [dbPath, mode] = process.argv.slice(2);
const cases = [
  ["agent:main:telegram:direct:123454", "parentSessionKey", "parent_session_key", "AGENT:MAIN:X"],
  ["agent:main:discord:channel:987654324", "parentSessionKey", "parent_session_key", "  agent:main:main  "],
  ["agent:main:dashboard:review-ui", "spawnedBy", "spawned_by", "agent:main:Upper"],
];
const db = new DatabaseSync(dbPath);
if (mode === "--read") {
  const out = {};
  for (const [key] of cases) {
    const row = db.prepare("SELECT entry_json, parent_session_key, spawned_by FROM session_nodes WHERE session_key = ?").get(key);
    if (!row) { out[key] = null; continue; }
    const e = JSON.parse(row.entry_json);
    out[key] = { parentSessionKey: e.parentSessionKey ?? null, spawnedBy: e.spawnedBy ?? null, parent_session_key: row.parent_session_key, spawned_by: row.spawned_by };
  }
  console.log(JSON.stringify(out));
} else {
  for (const [key, field, column, value] of cases) {
    const row = db.prepare("SELECT entry_json FROM session_nodes WHERE session_key = ?").get(key);
    if (!row) throw new Error(`no ${key}`);
    const e = JSON.parse(row.entry_json);
    e[field] = value;
    db.prepare(`UPDATE session_nodes SET entry_json = ?, ${column} = ? WHERE session_key = ?`).run(JSON.stringify(e), value, key);
  }
  console.log(JSON.stringify(cases));
}
db.close();
