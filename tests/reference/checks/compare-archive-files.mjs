// The same transcript archives in two agents: archive rows (key, reason, published) and the
// files in sessions/, names compared with their time stamps masked.
//   compare-archive-files.mjs AGENT_DIR_OURS AGENT_DIR_OPENCLAW
import { DatabaseSync } from "node:sqlite";
import { readdirSync } from "node:fs";

const describe = (dir) => {
  const db = new DatabaseSync(`${dir}/agent/openclaw-agent.sqlite`, { readOnly: true });
  const rows = db.prepare("SELECT session_key, reason, published_at IS NOT NULL AS published FROM session_transcript_archives ORDER BY session_key, reason").all()
    .map((r) => `${r.session_key} ${r.reason} ${r.published}`);
  db.close();
  let files = [];
  try { files = readdirSync(`${dir}/sessions`); } catch {}
  files = files.map((f) => f.replace(/\.(deleted|reset|bak)\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z/, ".$1.<stamp>")).sort();
  return [...rows, "--", ...files].join("\n");
};
const [a, b] = process.argv.slice(2);
const [x, y] = [describe(a), describe(b)];
if (x !== y) { console.log(`ours:\n${x}\nopenclaw:\n${y}`); process.exit(1); }
console.log(`same archives: ${x.split("\n").length - 1} rows and files`);
