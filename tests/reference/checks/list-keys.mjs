// Live (non-tombstone) session keys of an agent database, one per line.
import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(process.argv[2], { readOnly: true });
for (const r of db.prepare("SELECT session_key FROM session_nodes WHERE NOT (entry_valid = -1 AND entry_json = '{}') ORDER BY session_key").all()) console.log(r.session_key);
