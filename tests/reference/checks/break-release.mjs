// The faults of `release_doctor_fix` on a store an older release wrote (its live store: agents
// main, work, research). One fault set a call:
//   break-release.mjs STATE_DIR columns       a label column and a lineage column out of step
//                                             with entry_json (main, research)
//   break-release.mjs STATE_DIR foreign-keys  a lineage column out of step and an orphan
//                                             identity row (foreign_key_check fails) in main,
//                                             and a lineage column out of step in research
// Prints one JSON object: {agents: {AGENT: [session keys whose columns were broken]}}.
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
} else {
  throw new Error(`unknown fault set ${fault}`);
}
main.close();
console.log(JSON.stringify({ agents }));
