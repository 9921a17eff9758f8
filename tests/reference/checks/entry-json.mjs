// The stored entry_json of sessions, or break it.
//   entry-json.mjs break <agent.sqlite> <key>...   entry_json = '{"oops":' (does not parse)
//   entry-json.mjs get <agent.sqlite> <key>...     prints {"<key>": "<entry_json>"}
import { DatabaseSync } from "node:sqlite";
const [mode, file, ...keys] = process.argv.slice(2);
const db = new DatabaseSync(file);
if (mode === "break") {
  const st = db.prepare("UPDATE session_nodes SET entry_json = '{\"oops\":' WHERE session_key = ?");
  for (const k of keys) if (st.run(k).changes !== 1) throw new Error(`no session ${k}`);
} else if (mode === "get") {
  const st = db.prepare("SELECT entry_json FROM session_nodes WHERE session_key = ?");
  console.log(JSON.stringify(Object.fromEntries(keys.map((k) => [k, st.get(k)?.entry_json ?? null]))));
} else {
  throw new Error(`usage: entry-json.mjs break|get <agent.sqlite> <key>...`);
}
db.close();
