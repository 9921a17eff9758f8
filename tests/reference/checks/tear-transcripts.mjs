// Transcripts for `--fix-missing` in one agent database: KEY_GONE loses every transcript row,
// KEY_HEADER keeps only its first row, KEY_TORN keeps its non-message rows and one message row
// torn mid-write (its event_json cut off). Prints {gone, header, torn} session ids.
//   tear-transcripts.mjs DB KEY_GONE KEY_HEADER KEY_TORN
import { DatabaseSync } from "node:sqlite";

const [path, gone, header, torn] = process.argv.slice(2);
const db = new DatabaseSync(path);
db.exec("PRAGMA foreign_keys = ON");
const id = (key) => db.prepare("SELECT current_session_id AS id FROM session_nodes WHERE session_key = ?").get(key).id;
const ids = { gone: id(gone), header: id(header), torn: id(torn) };
db.exec("BEGIN IMMEDIATE");
db.prepare("DELETE FROM transcript_events WHERE session_id = ?").run(ids.gone);
db.prepare("DELETE FROM transcript_events WHERE session_id = ?1 AND seq > (SELECT min(seq) FROM transcript_events WHERE session_id = ?1)").run(ids.header);
const messages = db.prepare("SELECT seq FROM transcript_events WHERE session_id = ? AND event_json LIKE '%\"type\":\"message\"%' ORDER BY seq").all(ids.torn).map((r) => r.seq);
const zstdMessages = db.prepare("SELECT count(*) AS n FROM transcript_events WHERE session_id = ? AND event_json IS NULL").get(ids.torn).n;
if (!messages.length) throw new Error(`${torn} has no plain message row to tear`);
for (const seq of messages.slice(1)) db.prepare("DELETE FROM transcript_events WHERE session_id = ? AND seq = ?").run(ids.torn, seq);
db.prepare("DELETE FROM transcript_events WHERE session_id = ? AND event_json IS NULL").run(ids.torn);
db.prepare(`UPDATE transcript_events SET event_json = '{"type":"message","message":{"role":"us' WHERE session_id = ? AND seq = ?`).run(ids.torn, messages[0]);
db.exec("COMMIT");
db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
console.log(JSON.stringify({ ...ids, tornSeq: messages[0], zstdRowsDropped: zstdMessages }));
