// The same transcript archives in two agents: archive rows (key, reason, published) and the
// files in sessions/, names compared with their time stamps masked.
//   compare-archive-files.mjs AGENT_DIR_OURS AGENT_DIR_OPENCLAW [OURS_ONLY_KEYS_JSON [NEVER_KEYS_JSON]]
// OURS_ONLY_KEYS_JSON: session keys whose archives exist only in ours by design (the archives
// a prune writes, which OpenClaw's disk budget removes again, and those of the sessions the
// budget deletes, whose transcripts OpenClaw drops and ours archives): their rows and files
// are left out of our side and counted on a line `ours only: N files, B bytes`. NEVER_KEYS_JSON
// (a subset): the keys OpenClaw never archives at all, counted on a last line
// `never written by openclaw: N files, B bytes`.
import { DatabaseSync } from "node:sqlite";
import { readdirSync, statSync } from "node:fs";

let oursOnlyFiles = 0, oursOnlyBytes = 0, neverFiles = 0, neverBytes = 0;

const describe = (dir, oursOnly = [], never = []) => {
  const db = new DatabaseSync(`${dir}/agent/openclaw-agent.sqlite`, { readOnly: true });
  const all = db.prepare("SELECT session_key, session_id, reason, published_at IS NOT NULL AS published FROM session_transcript_archives ORDER BY session_key, reason").all();
  const skip = new Set(all.filter((r) => oursOnly.includes(r.session_key)).map((r) => r.session_id));
  const neverIds = new Set(all.filter((r) => never.includes(r.session_key)).map((r) => r.session_id));
  const rows = all.filter((r) => !oursOnly.includes(r.session_key)).map((r) => `${r.session_key} ${r.reason} ${r.published}`);
  db.close();
  let files = [];
  try { files = readdirSync(`${dir}/sessions`); } catch {}
  for (const f of files.filter((f) => skip.has(f.split(".jsonl")[0]))) {
    const size = statSync(`${dir}/sessions/${f}`).size;
    oursOnlyFiles += 1;
    oursOnlyBytes += size;
    if (neverIds.has(f.split(".jsonl")[0])) { neverFiles += 1; neverBytes += size; }
  }
  files = files.filter((f) => !skip.has(f.split(".jsonl")[0])).map((f) => f.replace(/\.(deleted|reset|bak)\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z/, ".$1.<stamp>")).sort();
  return [...rows, "--", ...files].join("\n");
};
const [a, b, oursOnly, never] = process.argv.slice(2);
const [x, y] = [describe(a, oursOnly ? JSON.parse(oursOnly) : [], never ? JSON.parse(never) : []), describe(b)];
if (x !== y) { console.log(`ours:\n${x}\nopenclaw:\n${y}`); process.exit(1); }
console.log(`same archives: ${x.split("\n").length - 1} rows and files`);
console.log(`ours only: ${oursOnlyFiles} files, ${oursOnlyBytes} bytes`);
console.log(`never written by openclaw: ${neverFiles} files, ${neverBytes} bytes`);
