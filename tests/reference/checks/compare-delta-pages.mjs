// Compare OpenClaw's delta pages (sdk-delta.mjs walk output) with ours (one `transcript delta
// --json` answer a line): kind, reason, cursor, hasMore and every event (seq and JSON; for the
// visible reader, every message item, which OpenClaw calls `entries` and we `messages`).
//   compare-delta-pages.mjs OC.json OURS.jsonl
// Prints the number of pages and events compared; exits 1 with the first difference.
import fs from "node:fs";
const [ocFile, oursFile] = process.argv.slice(2);
const oc = JSON.parse(fs.readFileSync(ocFile, "utf8")).pages;
const ours = fs.readFileSync(oursFile, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).data);
const fail = (msg) => { console.error(msg); process.exit(1); };
if (oc.length !== ours.length) fail(`pages: openclaw ${oc.length}, ours ${ours.length}`);
let events = 0;
oc.forEach((a, i) => {
  const b = ours[i];
  for (const k of ["kind", "reason", "cursor", "hasMore"]) {
    if ((a[k] ?? null) !== (b[k] ?? null)) fail(`page ${i}: ${k} openclaw ${a[k]}, ours ${b[k]}`);
  }
  const item = (e) => JSON.stringify(e.event !== undefined ? [e.seq, e.event] : e);
  const ea = a.events.map(item);
  const eb = (b.events ?? b.messages ?? []).map(item);
  if (ea.length !== eb.length) fail(`page ${i}: ${ea.length} events from openclaw, ${eb.length} from ours`);
  ea.forEach((x, j) => { if (x !== eb[j]) fail(`page ${i} event ${j}: openclaw ${x.slice(0, 200)} / ours ${eb[j].slice(0, 200)}`); });
  events += ea.length;
});
console.log(`${oc.length} pages, ${events} events identical`);
