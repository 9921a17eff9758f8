// Compare two session-rows.mjs outputs: every table of every key must hold the same rows.
//   compare-session-rows.mjs <before.json> <after.json> [TABLE.COLUMN,...]
// The columns named third are left out of both sides (a clock a caller names as rewritten).
import fs from "node:fs";
const [a, b] = process.argv.slice(2, 4).map((p) => JSON.parse(fs.readFileSync(p, "utf8")));
const ignored = (process.argv[4] ?? "").split(",").filter(Boolean).map((c) => c.split("."));
for (const side of [a, b]) {
  for (const tables of Object.values(side)) {
    for (const [t, list] of Object.entries(tables)) {
      const cols = ignored.filter(([table]) => table === t).map(([, c]) => c);
      if (!cols.length || !Array.isArray(list)) continue;
      tables[t] = list.map((r) => {
        const o = JSON.parse(r);
        for (const c of cols) delete o[c];
        return JSON.stringify(o);
      });
    }
  }
}
let problems = 0, rows = 0;
for (const [key, tables] of Object.entries(a)) {
  const other = b[key] ?? {};
  for (const t of new Set([...Object.keys(tables), ...Object.keys(other)])) {
    const x = tables[t] ?? [], y = other[t] ?? [];
    rows += x.length;
    if (JSON.stringify(x) !== JSON.stringify(y)) {
      problems++;
      const missing = x.filter((r) => !y.includes(r)).slice(0, 2), extra = y.filter((r) => !x.includes(r)).slice(0, 2);
      console.error(`${key} ${t}: ${x.length} rows before, ${y.length} after\n  only before: ${missing.join("\n    ")}\n  only after: ${extra.join("\n    ")}`);
    }
  }
  if (!Object.keys(tables).length) { problems++; console.error(`${key}: no rows before (nothing to compare)`); }
}
console.log(`${Object.keys(a).length} sessions, ${rows} rows compared, ${problems} differences`);
process.exit(problems ? 1 : 0);
