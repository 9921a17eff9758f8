// The same transcript archives in two agents: archive rows (key, reason, published) and the
// files in sessions/, names compared with their time stamps masked.
//   compare-archive-files.mjs AGENT_DIR_OURS AGENT_DIR_OPENCLAW [OURS_ONLY_KEYS_JSON]
// OURS_ONLY_KEYS_JSON: session keys whose archives exist only in ours by design (the sessions
// the disk budget deletes, whose transcripts OpenClaw drops and ours archives): their rows
// and files are left out of our side. Their files are named on the last line with their bytes:
// `ours only: N files, B bytes`.
import { DatabaseSync } from "node:sqlite";
import { readdirSync, statSync } from "node:fs";

let oursOnlyFiles = 0, oursOnlyBytes = 0;

const describe = (dir, oursOnly = []) => {
  const db = new DatabaseSync(`${dir}/agent/openclaw-agent.sqlite`, { readOnly: true });
  const all = db.prepare("SELECT session_key, session_id, reason, published_at IS NOT NULL AS published FROM session_transcript_archives ORDER BY session_key, reason").all();
  const skip = new Set(all.filter((r) => oursOnly.includes(r.session_key)).map((r) => r.session_id));
  const rows = all.filter((r) => !oursOnly.includes(r.session_key)).map((r) => `${r.session_key} ${r.reason} ${r.published}`);
  db.close();
  let files = [];
  try { files = readdirSync(`${dir}/sessions`); } catch {}
  for (const f of files.filter((f) => skip.has(f.split(".jsonl")[0]))) {
    oursOnlyFiles += 1;
    oursOnlyBytes += statSync(`${dir}/sessions/${f}`).size;
  }
  files = files.filter((f) => !skip.has(f.split(".jsonl")[0])).map((f) => f.replace(/\.(deleted|reset|bak)\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z/, ".$1.<stamp>")).sort();
  return [...rows, "--", ...files].join("\n");
};
const [a, b, oursOnly] = process.argv.slice(2);
const [x, y] = [describe(a, oursOnly ? JSON.parse(oursOnly) : []), describe(b)];
if (x !== y) { console.log(`ours:\n${x}\nopenclaw:\n${y}`); process.exit(1); }
console.log(`same archives: ${x.split("\n").length - 1} rows and files`);
console.log(`ours only: ${oursOnlyFiles} files, ${oursOnlyBytes} bytes`);
