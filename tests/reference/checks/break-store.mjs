// Faults `doctor --fix` must repair: a lineage column out of step (every OpenClaw reader
// fails on it), a label column out of step, and orphan identity rows.
import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(process.argv[2]);
db.exec("PRAGMA foreign_keys = OFF");
db.exec("UPDATE session_nodes SET parent_session_key = 'agent:main:main' WHERE session_key = 'agent:main:pinned-notes'");
db.exec("UPDATE session_nodes SET label = 'drift' WHERE session_key = 'agent:main:telegram:direct:123454'");
const sid = db.prepare("SELECT current_session_id AS id FROM session_nodes WHERE session_key = 'agent:main:cron:nightly:run:884'").get().id;
db.prepare("INSERT INTO transcript_event_identities (session_id, event_id, seq, created_at) VALUES (?, 'dangling', 9999, 0)").run(sid);
db.close();
