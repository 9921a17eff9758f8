// The fault corpus of `doctor_fix_corpus_accepted`: one store, broken in each database way a
// crash, a bad tool or a hand edit leaves (file faults are made by the check itself).
//   break-corpus.mjs STATE_DIR
// Prints one JSON object: {faults: [{name, check, agentId, sessionKey?, sessionId?, table?}],
// orphanEvents: {sessionId, lines}} (the JSON Lines of the synthetic orphaned transcript).
import { DatabaseSync } from "node:sqlite";

const state = process.argv[2];
const open = (agent) => {
  const db = new DatabaseSync(`${state}/agents/${agent}/agent/openclaw-agent.sqlite`);
  db.exec("PRAGMA foreign_keys = OFF");
  return db;
};
const faults = [];
const sidOf = (db, key) => db.prepare("SELECT current_session_id AS id FROM session_nodes WHERE session_key = ?").get(key).id;

const main = open("main");
// A window (and its events) whose session node is gone.
{
  const key = "agent:main:sdk-made-1";
  const sessionId = sidOf(main, key);
  main.prepare("DELETE FROM session_nodes WHERE session_key = ?").run(key);
  faults.push({ name: "orphan window", check: "orphans", agentId: "main", sessionKey: key, sessionId, table: "session_windows" });
}
// Events without any window or node (a transcript whose rows were half removed).
const orphanId = "0f0e0d0c-0b0a-4909-8807-060504030201";
const lines = [
  JSON.stringify({ type: "session", version: 3, id: orphanId, timestamp: "2026-06-01T10:00:00.000Z", cwd: "/home/user" }),
  JSON.stringify({ type: "message", id: "m1", parentId: null, timestamp: "2026-06-01T10:00:01.000Z", message: { role: "user", content: [{ type: "text", text: "orphaned words that must survive" }], timestamp: 1780308001000 } }),
];
lines.forEach((l, seq) => main.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)").run(orphanId, seq, l, 1780308000000 + seq));
faults.push({ name: "orphan events", check: "orphans", agentId: "main", sessionId: orphanId, table: "transcript_events" });
// Identity and search rows without their event / window.
{
  const key = "agent:main:cron:nightly:run:884";
  const sessionId = sidOf(main, key);
  main.prepare("INSERT INTO transcript_event_identities (session_id, event_id, seq, created_at) VALUES (?, 'dangling', 9999, 0)").run(sessionId);
  faults.push({ name: "orphan identity", check: "orphans", agentId: "main", sessionId, table: "transcript_event_identities" });
  main.exec("INSERT INTO session_transcript_fts (rowid, text, session_id, message_id) VALUES (990001, 'ghost text', 'gone-window', 'm1')");
  main.exec("INSERT INTO session_transcript_fts_rows (id, session_id, message_id) VALUES (990001, 'gone-window', 'm1')");
  faults.push({ name: "orphan search rows", check: "orphans", agentId: "main", sessionId: "gone-window", table: "session_transcript_fts_rows" });
}
// Projected columns out of step with entry_json: a lineage column and the label.
main.exec("UPDATE session_nodes SET parent_session_key = 'agent:main:main' WHERE session_key = 'agent:main:pinned-notes'");
faults.push({ name: "lineage column out of step", check: "projected-columns", agentId: "main", sessionKey: "agent:main:pinned-notes" });
main.exec("UPDATE session_nodes SET label = 'drift' WHERE session_key = 'agent:main:telegram:direct:123454'");
faults.push({ name: "label column out of step", check: "projected-columns", agentId: "main", sessionKey: "agent:main:telegram:direct:123454" });
// A seq gap (a lost row).
{
  const key = "agent:main:discord:channel:987654324";
  const sessionId = sidOf(main, key);
  const max = main.prepare("SELECT max(seq) AS m FROM transcript_events WHERE session_id = ?").get(sessionId).m;
  if (max < 2) throw new Error(`${key} has too few events for a gap`);
  main.prepare("DELETE FROM transcript_events WHERE session_id = ? AND seq = 1").run(sessionId);
  faults.push({ name: "seq gap", check: "seq-gaps", agentId: "main", sessionKey: key, sessionId });
}
main.close();

const work = open("work");
// An entry_json that does not parse.
{
  const key = "agent:work:pinned-notes";
  work.prepare("UPDATE session_nodes SET entry_json = '{\"oops\":' WHERE session_key = ?").run(key);
  faults.push({ name: "unreadable entry_json", check: "entry-json", agentId: "work", sessionKey: key });
}
work.close();

const research = open("research");
// Two sessions with one label.
{
  const keys = research.prepare("SELECT session_key AS k FROM session_nodes WHERE session_key <> 'agent:research:main' ORDER BY session_key LIMIT 2").all().map((r) => r.k);
  for (const k of keys) {
    research.prepare("UPDATE session_nodes SET label = 'Dup', entry_json = json_set(entry_json, '$.label', 'Dup') WHERE session_key = ?").run(k);
    research.prepare("UPDATE session_nodes SET entry_valid = 1 WHERE session_key = ?").run(k);
  }
  faults.push({ name: "duplicate label", check: "duplicate-labels", agentId: "research" });
}
research.close();

console.log(JSON.stringify({ faults, orphanEvents: { sessionId: orphanId, lines } }));
