// Compare two upgraded copies of one database: OpenClaw's (a snapshot taken the instant its
// upgrade transaction committed, checks/snapshot-on-upgrade-commit.mjs) and ours (`migrate schema`).
//   compare-upgrade.mjs OPENCLAW.sqlite OURS.sqlite [--mask TABLE.COLUMN]...
// Compared (docs/openclaw/SCHEMA-UPGRADE.md §5): user_version; every sqlite_schema row (type, name,
// tbl_name, sql) in rowid order; every table's rows (FTS5 shadow tables included) in rowid order, or
// in primary-key order for a WITHOUT ROWID table, with storage classes and blobs byte for byte.
// Left out, as clock values: schema_meta.updated_at of the 'primary' row, and each --mask column
// (the state database's `agent_databases` registry, which OpenClaw updates after its snapshot of
// the state database was taken, when each agent database is done).
// Prints "N tables, M rows equal" on success; exit 1 with the first differences otherwise.
import { DatabaseSync } from "node:sqlite";

const [aPath, bPath, ...rest] = process.argv.slice(2);
const masked = new Set();
for (let i = 0; i < rest.length; i++) if (rest[i] === "--mask") masked.add(rest[++i]);
const open = (p) => { const db = new DatabaseSync(p); db.exec("PRAGMA query_only = ON"); return db; };
const a = open(aPath), b = open(bPath);
const errors = [];
const err = (m) => { if (errors.length < 20) errors.push(m); };

const uv = (db) => db.prepare("PRAGMA user_version").get().user_version;
if (uv(a) !== uv(b)) err(`user_version: openclaw ${uv(a)}, ours ${uv(b)}`);

const schema = (db) => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_stat%' ORDER BY rowid").all();
const sa = schema(a), sb = schema(b);
for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
  if (JSON.stringify(sa[i]) !== JSON.stringify(sb[i])) err(`sqlite_schema row ${i}: openclaw ${JSON.stringify(sa[i])?.slice(0, 200)}, ours ${JSON.stringify(sb[i])?.slice(0, 200)}`);
}

const cell = (v) => v instanceof Uint8Array ? "x'" + Buffer.from(v).toString("hex") + "'" : typeof v === "bigint" ? v.toString() + "n" : JSON.stringify(v);
let tables = 0, rows = 0;
for (const t of sa.filter((o) => o.type === "table" && !/^CREATE VIRTUAL/i.test(o.sql ?? "") && o.name !== "sqlite_sequence" && !o.name.startsWith("sqlite_stat"))) {
  const withoutRowid = /WITHOUT ROWID/i.test(t.sql ?? "");
  const cols = a.prepare(`SELECT name, pk FROM pragma_table_info(?)`).all(t.name);
  const order = withoutRowid ? cols.filter((c) => c.pk > 0).sort((x, y) => x.pk - y.pk).map((c) => `"${c.name}"`).join(", ") : "rowid";
  const select = `SELECT ${withoutRowid ? "" : "rowid AS __rowid, "}${cols.map((c) => `"${c.name}", typeof("${c.name}") AS "__type_${c.name}"`).join(", ")} FROM "${t.name}" ORDER BY ${order}`;
  const read = (db) => { const s = db.prepare(select); s.setReadBigInts(true); return s.all(); };
  const ra = read(a), rb = read(b);
  tables++; rows += ra.length;
  if (ra.length !== rb.length) { err(`${t.name}: openclaw ${ra.length} rows, ours ${rb.length}`); continue; }
  for (let i = 0; i < ra.length; i++) {
    for (const k of Object.keys(ra[i])) {
      if (t.name === "schema_meta" && (k === "updated_at" || k === "__type_updated_at") && ra[i].meta_key === "primary") continue;
      if (masked.has(`${t.name}.${k.replace(/^__type_/, "")}`)) continue;
      if (cell(ra[i][k]) !== cell(rb[i][k])) err(`${t.name} row ${i} (${cell(ra[i].__rowid ?? "")}) ${k}: openclaw ${cell(ra[i][k]).slice(0, 120)}, ours ${cell(rb[i][k]).slice(0, 120)}`);
    }
  }
}
if (errors.length) { console.error(errors.join("\n")); process.exit(1); }
console.log(`${tables} tables, ${rows} rows equal`);
