// Compare every row of every table of two copies of one database after the same request, made
// by openclaw-sessions (A) and by an OpenClaw release's own SDK or CLI (B): the differential rule
// of the release matrix (SPEC §9: same rows, modulo the clock and generated ids).
//   compare-all-rows.mjs <dbA> <dbB> [--mask TABLE.COLUMN]... [--skip TABLE]... [--ours-run-archives N]
//                        [--except-keys K1,K2 | --only-keys K1,K2]
// Both must have the same schema (user_version and every sqlite_schema row). Each table's rows
// (FTS5 shadow tables included, the virtual tables themselves through them) are compared as
// multisets, rowids left out, storage classes kept. Left out, and only these:
// - a clock value written now (within 15 minutes of this run) on both sides: any `*_at` column,
//   and `updatedAt` / `archivedAt` inside `entry_json`;
// - `transcript_rewrite_watermarks.generation` (random);
// - each --mask column, and each --skip table (the bookkeeping an OpenClaw process does for
//   itself in the state database whatever it is asked: `config_health_entries`, the
//   `agent_databases.last_seen_at` it was run at);
// - with --ours-run-archives N: exactly N archive rows written by this run (created now) that
//   only ours has: the disk budget's one difference by design (docs/openclaw/MAINTENANCE.md
//   §3.3: ours keeps the archive of a session the run removes, OpenClaw's budget evicts it);
// - an archive's stamp in its name (`.deleted.<ISO time>.`), and its blob when it is zstd: the
//   decompressed bytes must be equal, the compression may differ.
// With --except-keys, the rows whose `session_key` is one of the keys are left out of every table;
// with --only-keys, only those rows are compared (tables without a `session_key` column skipped):
// the two split one comparison in two, where a repair is compared with another store than the
// rest of the rows (the schemas are compared by the --except-keys half).
// Prints "N tables, M rows equal"; exit 1 with the first differences otherwise.
import { DatabaseSync } from "node:sqlite";
import { zstdDecompressSync } from "node:zlib";

const [aPath, bPath, ...rest] = process.argv.slice(2);
const masked = new Set(), skipped = new Set();
let runArchives = null, keyFilter = null;
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === "--mask") masked.add(rest[++i]);
  else if (rest[i] === "--ours-run-archives") runArchives = Number(rest[++i]);
  else if (rest[i] === "--skip") skipped.add(rest[++i]);
  else if (rest[i] === "--except-keys" || rest[i] === "--only-keys") keyFilter = { only: rest[i] === "--only-keys", keys: new Set(rest[++i].split(",")) };
  else { console.error(`unknown argument ${rest[i]}`); process.exit(2); }
}
const open = (p) => { const db = new DatabaseSync(p, { readOnly: true }); return db; };
const a = open(aPath), b = open(bPath);
const errors = [];
const err = (m) => { if (errors.length < 30) errors.push(m); };

const uv = (db) => db.prepare("PRAGMA user_version").get().user_version;
if (uv(a) !== uv(b)) err(`user_version: ours ${uv(a)}, openclaw ${uv(b)}`);
const schema = (db) => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_stat%' ORDER BY rowid").all();
const sa = schema(a), sb = schema(b);
// With --only-keys the schemas are not compared: the rest of the rows are, by another run.
if (!keyFilter?.only && JSON.stringify(sa) !== JSON.stringify(sb)) err(`sqlite_schema differs (ours ${sa.length} objects, openclaw ${sb.length})`);

const NOW_MS = Date.now();
const isNow = (v) => {
  const n = typeof v === "bigint" ? Number(v) : v;
  return typeof n === "number" && Math.abs(NOW_MS - n) < 15 * 60 * 1000;
};
const cell = (v) => (v instanceof Uint8Array ? "x'" + Buffer.from(v).toString("hex") + "'" : typeof v === "bigint" ? v.toString() : JSON.stringify(v));
function render(table, row) {
  const out = {};
  for (const [k, v] of Object.entries(row)) {
    if (masked.has(`${table}.${k.replace(/^__type_/, "")}`)) continue;
    if (k.startsWith("__type_")) { out[k] = v; continue; }
    if (/_at$/.test(k) && isNow(v)) { out[k] = "<now>"; continue; }
    if (table === "transcript_rewrite_watermarks" && k === "generation") { out[k] = "<generated>"; continue; }
    if (k === "entry_json" && typeof v === "string") {
      try {
        const e = JSON.parse(v);
        for (const f of ["updatedAt", "archivedAt"]) if (isNow(e[f])) e[f] = "<now>";
        out[k] = JSON.stringify(e);
        continue;
      } catch { /* compared as text */ }
    }
    if (k === "archive_name" && typeof v === "string") { out[k] = v.replace(/\.deleted\.[^.]+\.\d{3}Z\./, ".deleted.<stamp>."); continue; }
    out[k] = cell(v);
  }
  if (row.archive_blob instanceof Uint8Array && row.encoding === "zstd") {
    out.archive_blob = "zstd:" + zstdDecompressSync(Buffer.from(row.archive_blob)).toString("hex");
    delete out.archive_sha256; delete out.archive_bytes; delete out.__type_archive_sha256;
  }
  return JSON.stringify(out);
}

let tables = 0, rows = 0, ourRunArchives = 0;
for (const t of sa.filter((o) => o.type === "table" && !/^CREATE VIRTUAL/i.test(o.sql ?? "") && !o.name.startsWith("sqlite_") && !skipped.has(o.name))) {
  const cols = a.prepare("SELECT name FROM pragma_table_info(?)").all(t.name).map((c) => c.name);
  if (keyFilter?.only && !cols.includes("session_key")) continue;
  const select = `SELECT ${cols.map((c) => `"${c}", typeof("${c}") AS "__type_${c}"`).join(", ")} FROM "${t.name}"`;
  const kept = (r) => !keyFilter || !cols.includes("session_key") || keyFilter.keys.has(r.session_key) === keyFilter.only;
  const read = (db) => { const s = db.prepare(select); s.setReadBigInts(true); return s.all().filter(kept).map((r) => render(t.name, r)).sort(); };
  const ra = read(a), rb = read(b);
  tables++; rows += ra.length;
  const count = new Map();
  for (const r of ra) count.set(r, (count.get(r) ?? 0) + 1);
  for (const r of rb) count.set(r, (count.get(r) ?? 0) - 1);
  for (const [r, n] of count) {
    if (n > 0 && runArchives !== null && t.name === "session_transcript_archives" && JSON.parse(r).created_at === "<now>") {
      ourRunArchives += n;
      continue;
    }
    if (n > 0) err(`${t.name}: only ours (${n}x): ${r.slice(0, 400)}`);
    if (n < 0) err(`${t.name}: only openclaw's (${-n}x): ${r.slice(0, 400)}`);
  }
}
if (runArchives !== null && ourRunArchives !== runArchives) err(`ours keeps ${ourRunArchives} archives of this run OpenClaw's budget evicted, expected ${runArchives}`);
if (errors.length) { console.error(errors.join("\n")); process.exit(1); }
console.log(`${tables} tables, ${rows} rows equal${runArchives ? ` (and the ${runArchives} archives of this run ours keeps)` : ""}`);
