// Compare two agent databases made by importing the same legacy store: ours (A) and
// `openclaw doctor --session-sqlite import` (B). Every table, every row, every column; zstd
// frames byte for byte.
//   compare-imports.mjs <dbA> <dbB>
// Differences allowed, and only these (clock and randomness):
//   any integer column named *_at / timestamp when both values are "now-ish" (events without a
//   timestamp, rebuilt index state, watermarks, schema_meta);
//   transcript_rewrite_watermarks.generation (a random UUID);
//   app_version in schema_meta is not compared (it names the writer).
import { DatabaseSync } from "node:sqlite";

const [dbA, dbB] = process.argv.slice(2);
const a = new DatabaseSync(dbA, { readOnly: true });
const b = new DatabaseSync(dbB, { readOnly: true });
let failures = 0, rows = 0;
const fail = (msg) => { failures++; if (failures <= 40) console.log(`DIFF ${msg}`); };
const isNow = (v) => typeof v === "number" && Math.abs(Date.now() - v) < 30 * 60 * 1000;
const show = (v) => v instanceof Uint8Array ? `<${v.length} bytes>` : JSON.stringify(v);
const same = (x, y) => {
  if (x instanceof Uint8Array && y instanceof Uint8Array) return Buffer.from(x).equals(Buffer.from(y));
  return JSON.stringify(x) === JSON.stringify(y);
};
const SKIP = new Set(["sqlite_sequence", "sqlite_stat1"]);
const tables = (db) => db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
  .filter((t) => !SKIP.has(t.name) && !/^'|_fts_(data|idx|docsize|config|content)$/.test(t.name) && !/\(id INTEGER PRIMARY KEY, block BLOB\)/.test(t.sql ?? ""))
  .map((t) => t.name);
const ta = tables(a), tb = tables(b);
if (JSON.stringify(ta) !== JSON.stringify(tb)) fail(`table lists differ: ${ta.filter((t) => !tb.includes(t))} / ${tb.filter((t) => !ta.includes(t))}`);
for (const t of ta.filter((x) => tb.includes(x))) {
  const isVirtual = /VIRTUAL/.test(a.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(t).sql);
  const cols = a.prepare(`PRAGMA table_info("${t}")`).all().map((c) => c.name);
  const key = isVirtual ? "rowid" : cols.map((c) => `"${c}"`).join(", ");
  const sel = `SELECT ${isVirtual ? "rowid AS _rowid, " : ""}* FROM "${t}" ORDER BY ${key}`;
  // Rows whose values depend on the clock are matched by their stable columns.
  const ra = a.prepare(sel).all(), rb = b.prepare(sel).all();
  if (ra.length !== rb.length) { fail(`${t}: ${ra.length} rows ours / ${rb.length} openclaw`); continue; }
  const stable = (r) => JSON.stringify(Object.entries(r).filter(([c, v]) => !(/(_at|^timestamp)$/.test(c) && isNow(v)) && !(t === "transcript_rewrite_watermarks" && c === "generation")).map(([c, v]) => v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v));
  ra.sort((x, y) => stable(x) < stable(y) ? -1 : stable(x) > stable(y) ? 1 : 0);
  rb.sort((x, y) => stable(x) < stable(y) ? -1 : stable(x) > stable(y) ? 1 : 0);
  ra.forEach((r, i) => {
    rows++;
    const o = rb[i];
    for (const c of Object.keys(r)) {
      if (t === "schema_meta" && c === "app_version") continue;
      if (t === "transcript_rewrite_watermarks" && c === "generation") {
        if (!/^[0-9a-f]{32}$/.test(r[c])) fail(`${t}.generation ${r[c]} is not 32 hex digits`);
        continue;
      }
      if (/(_at|^timestamp)$/.test(c) && isNow(r[c]) && isNow(o[c])) continue;
      if (!same(r[c], o[c])) fail(`${t}[${i}].${c}: ours ${show(r[c]).slice(0, 200)} / openclaw ${show(o[c]).slice(0, 200)}`);
    }
  });
}
console.log(`${rows} rows compared, ${failures} difference(s)`);
process.exit(failures ? 1 : 0);
