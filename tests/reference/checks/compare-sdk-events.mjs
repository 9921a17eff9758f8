// Compare transcripts read by sdk-events.mjs in two stores, event for event.
//   compare-sdk-events.mjs SOURCE.json DEST.json [FROM_PREFIX TO_PREFIX]
// Each key of SOURCE (with FROM_PREFIX replaced by TO_PREFIX) must be read back in DEST with
// the same session id and the same events. Prints the number of events compared; exit 1 on a
// difference.
import fs from "node:fs";

const [a, b, from, to] = process.argv.slice(2);
const src = JSON.parse(fs.readFileSync(a, "utf8"));
const dst = JSON.parse(fs.readFileSync(b, "utf8"));
const map = (k) => (from && k.startsWith(from) ? to + k.slice(from.length) : k);
let n = 0;
const bad = [];
for (const [k, v] of Object.entries(src)) {
  const w = dst[map(k)];
  if (!v.events) { bad.push(`${k}: not read in the source`); continue; }
  if (!w || !w.events) { bad.push(`${map(k)}: not read back`); continue; }
  if (w.sessionId !== v.sessionId) bad.push(`${map(k)}: session id ${w.sessionId}, source ${v.sessionId}`);
  if (JSON.stringify(w.events) !== JSON.stringify(v.events)) {
    bad.push(`${map(k)}: ${w.events.length} events, not the source's ${v.events.length}`);
  }
  n += v.events.length;
}
if (bad.length) { console.error(bad.join("; ")); process.exit(1); }
console.log(n);
