// The same rows are archived, with the same reasons, in two agent databases.
import { DatabaseSync } from "node:sqlite";
const rows = (p) => new DatabaseSync(p, { readOnly: true })
  .prepare("SELECT session_key, json_extract(entry_json, '$.archiveReason') AS reason FROM session_nodes WHERE archived_at IS NOT NULL ORDER BY session_key").all()
  .map((r) => `${r.session_key}=${r.reason}`).join("\n");
const [a, b] = process.argv.slice(2);
if (rows(a) !== rows(b)) { console.log(`ours:\n${rows(a)}\nopenclaw:\n${rows(b)}`); process.exit(1); }
console.log("same archived rows and reasons");
