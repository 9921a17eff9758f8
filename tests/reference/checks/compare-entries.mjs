// Compare the session rows of two agent databases (read-only): every session_nodes row, its
// entry_json parsed, must agree; an updated time (`updated_at`, the entry's `updatedAt`) may
// differ only where both sides took it from a clock at or after SINCE (the run's own start).
//   compare-entries.mjs A.sqlite B.sqlite SINCE_MS
import { DatabaseSync } from "node:sqlite";

const [pathA, pathB, sinceArg] = process.argv.slice(2);
const since = Number(sinceArg);
const read = (p) => {
  const db = new DatabaseSync(p, { readOnly: true });
  const rows = new Map();
  for (const row of db.prepare("SELECT * FROM session_nodes ORDER BY session_key").all()) rows.set(row.session_key, row);
  return rows;
};
const a = read(pathA), b = read(pathB);
const clocked = (x, y) => typeof x === "number" && typeof y === "number" && x >= since && y >= since;
let problems = 0;
for (const key of new Set([...a.keys(), ...b.keys()])) {
  const x = a.get(key), y = b.get(key);
  if (!x || !y) { problems++; console.error(`${key}: only in ${x ? "A" : "B"}`); continue; }
  for (const col of new Set([...Object.keys(x), ...Object.keys(y)])) {
    if (col === "entry_json") {
      let ex, ey;
      try { ex = JSON.parse(x[col]); ey = JSON.parse(y[col]); } catch { ex = x[col]; ey = y[col]; }
      if (typeof ex !== "object" || typeof ey !== "object" || !ex || !ey) {
        if (x[col] !== y[col]) { problems++; console.error(`${key} entry_json differs`); }
        continue;
      }
      for (const f of new Set([...Object.keys(ex), ...Object.keys(ey)])) {
        if (JSON.stringify(ex[f]) === JSON.stringify(ey[f])) continue;
        if (f === "updatedAt" && clocked(ex[f], ey[f])) continue;
        problems++;
        console.error(`${key} entry.${f}: ${JSON.stringify(ex[f])?.slice(0, 80)} vs ${JSON.stringify(ey[f])?.slice(0, 80)}`);
      }
      continue;
    }
    if (String(x[col]) === String(y[col])) continue;
    if (col === "updated_at" && clocked(Number(x[col]), Number(y[col]))) continue;
    problems++;
    console.error(`${key} ${col}: ${String(x[col]).slice(0, 80)} vs ${String(y[col]).slice(0, 80)}`);
  }
}
console.log(`${a.size} sessions compared, ${problems} differences`);
process.exit(problems ? 1 : 0);
