// The faults of `release_doctor_fix` on a store an older release wrote (its live store: agents
// main, work, research). One fault set a call:
//   break-release.mjs STATE_DIR columns       a label column and a lineage column out of step
//                                             with entry_json (main, research)
//   break-release.mjs STATE_DIR foreign-keys  a lineage column out of step and an orphan
//                                             identity row (foreign_key_check fails) in main,
//                                             and a lineage column out of step in research
//                                             and, in work, a window whose node is gone and
//                                             events whose window is gone (orphans: on 19 and
//                                             21 they fail foreign_key_check too)
//   break-release.mjs STATE_DIR entries       two unreadable entries in work: one entry_json
//                                             not JSON, one a JSON array (work's sessions are
//                                             ones the release's doctor otherwise leaves)
//   break-release.mjs STATE_DIR keys          in work, a session moved to a non-canonical key
//                                             (agent:work:scratch-1 as agent:work:Scratch-1,
//                                             with every row that names it), and a parent that
//                                             is not canonical (scratch-2's, agent:work:Main, in
//                                             its entry and column); every key listed, the move
//                                             as {moved: [canonical, stored]}
//   break-release.mjs STATE_DIR archive-files in work's sessions/: a published archive file
//                                             removed, and a copy of another under a name no
//                                             row has
// Prints one JSON object: {agents: {AGENT: [session keys whose columns were broken]}}, with
// archive-files {files: {removed, unrowed}} (names in work's sessions/).
import fs from "node:fs";
import { DatabaseSync } from "node:sqlite";

const [state, fault] = process.argv.slice(2);
const open = (agent) => {
  const db = new DatabaseSync(`${state}/agents/${agent}/agent/openclaw-agent.sqlite`);
  db.exec("PRAGMA foreign_keys = OFF");
  return db;
};
const one = (db, sql, ...args) => {
  const row = db.prepare(sql).get(...args);
  if (!row) throw new Error(`no row for: ${sql}`);
  return row;
};
const agents = {};
const main = open("main");
if (fault === "columns") {
  // A session with a label in its entry: the column drifts.
  const { k } = one(main, "SELECT session_key AS k FROM session_nodes WHERE json_extract(entry_json, '$.label') IS NOT NULL AND session_key <> 'agent:main:main' ORDER BY session_key LIMIT 1");
  main.prepare("UPDATE session_nodes SET label = 'drift' WHERE session_key = ?").run(k);
  agents.main = [k];
  // A subagent whose entry names its parent: the lineage column names another.
  const research = open("research");
  const { k: sub } = one(research, "SELECT session_key AS k FROM session_nodes WHERE json_extract(entry_json, '$.parentSessionKey') IS NOT NULL ORDER BY session_key LIMIT 1");
  research.prepare("UPDATE session_nodes SET parent_session_key = 'agent:research:other' WHERE session_key = ?").run(sub);
  research.close();
  agents.research = [sub];
} else if (fault === "foreign-keys") {
  const { k } = one(main, "SELECT session_key AS k FROM session_nodes WHERE json_extract(entry_json, '$.parentSessionKey') IS NULL AND session_key <> 'agent:main:main' ORDER BY session_key LIMIT 1");
  main.prepare("UPDATE session_nodes SET parent_session_key = 'agent:main:main' WHERE session_key = ?").run(k);
  const { id } = one(main, "SELECT current_session_id AS id FROM session_nodes WHERE session_key <> ? ORDER BY session_key LIMIT 1", k);
  main.prepare("INSERT INTO transcript_event_identities (session_id, event_id, seq, created_at) VALUES (?, 'dangling', 9999, 0)").run(id);
  agents.main = [k];
  // And a column in research, whose database is sound.
  const research = open("research");
  const { k: sub } = one(research, "SELECT session_key AS k FROM session_nodes WHERE json_extract(entry_json, '$.parentSessionKey') IS NOT NULL ORDER BY session_key LIMIT 1");
  research.prepare("UPDATE session_nodes SET parent_session_key = 'agent:research:other' WHERE session_key = ?").run(sub);
  research.close();
  agents.research = [sub];
  // Orphans in work: a copy of a window under a key no node has, a copy of a transcript's
  // events under a session id no window has.
  const work = open("work");
  const cols = (t) => work.prepare("SELECT name FROM pragma_table_info(?)").all(t).map((c) => c.name);
  const copyRow = (t, set, where) => {
    const c = cols(t);
    const n = work.prepare(`INSERT INTO ${t} (${c.join(", ")}) SELECT ${c.map((x) => set[x] ?? x).join(", ")} FROM ${t} WHERE ${where}`).run().changes;
    if (n === 0) throw new Error(`no row copied in ${t}`);
  };
  copyRow("session_windows", { session_id: "'orphan-window'", session_key: "'agent:work:gone'" }, "session_id = (SELECT min(session_id) FROM session_windows)");
  copyRow("transcript_events", { session_id: "'orphan-events'" }, "session_id = (SELECT min(session_id) FROM transcript_events)");
  work.close();
} else if (fault === "archive-files") {
  const dir = `${state}/agents/work/sessions`;
  const names = fs.readdirSync(dir).filter((n) => /\.jsonl\.deleted\..*\.[0-9a-f]{32}\.zst$/.test(n)).sort();
  if (names.length < 2) throw new Error(`fewer than 2 archive files in ${dir}`);
  const unrowed = names[1].replace(/\.[0-9a-f]{32}\.zst$/, ".0123456789abcdef0123456789abcdef.zst");
  fs.rmSync(`${dir}/${names[0]}`);
  fs.copyFileSync(`${dir}/${names[1]}`, `${dir}/${unrowed}`);
  main.close();
  console.log(JSON.stringify({ agents, files: { removed: names[0], unrowed } }));
  process.exit(0);
} else if (fault === "keys") {
  const work = open("work");
  const [from, to] = ["agent:work:scratch-1", "agent:work:Scratch-1"];
  const children = work.prepare("SELECT m.name AS t, f.\"from\" AS c FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f WHERE m.type = 'table' AND f.\"table\" = 'session_nodes'").all();
  if (work.prepare("UPDATE session_nodes SET session_key = ? WHERE session_key = ?").run(to, from).changes !== 1) throw new Error(`no row for ${from}`);
  for (const { t, c } of children) work.prepare(`UPDATE "${t}" SET "${c}" = ? WHERE "${c}" = ?`).run(to, from);
  const child = "agent:work:scratch-2";
  if (work.prepare("UPDATE session_nodes SET entry_json = json_set(entry_json, '$.parentSessionKey', 'agent:work:Main'), parent_session_key = 'agent:work:Main' WHERE session_key = ?").run(child).changes !== 1) throw new Error(`no row for ${child}`);
  work.prepare("UPDATE session_nodes SET entry_valid = 1 WHERE session_key = ?").run(child);
  work.close();
  agents.work = [from, to, child];
  main.close();
  console.log(JSON.stringify({ agents, moved: [from, to] }));
  process.exit(0);
} else if (fault === "entries") {
  const work = open("work");
  const keys = ["agent:work:discord:channel:987654324", "agent:work:pinned-notes"];
  for (const [k, text] of [[keys[0], "{not json"], [keys[1], "[1,2]"]]) {
    if (work.prepare("UPDATE session_nodes SET entry_json = ? WHERE session_key = ?").run(text, k).changes !== 1) throw new Error(`no row for ${k}`);
  }
  work.close();
  agents.work = keys;
} else {
  throw new Error(`unknown fault set ${fault}`);
}
main.close();
console.log(JSON.stringify({ agents }));
