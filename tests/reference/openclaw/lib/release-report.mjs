// Report helpers for make-release-store.sh that work on the databases of any OpenClaw release
// (older agent schemas lack columns that report.mjs's stats/samples name). node:sqlite, read-only.
//   node release-report.mjs schema DB OUT.sql   every sqlite_schema row in creation (rowid) order:
//                                               "-- <rowid> <type> <name> ON <tbl_name>" then its sql
//                                               (automatic indexes have no sql: "-- (automatic)")
//   node release-report.mjs meta STATE          JSON: for every *.sqlite under STATE (sorted): user_version,
//                                               journal_mode, tables/indexes/triggers, schema_meta rows
//   node release-report.mjs stats STATE        JSON: per agent DB, row counts of the session tables it has
//   node release-report.mjs keys LIST.json      JSON: the sorted union of keys of `sessions --json` rows,
//                                               count, and the distinct `kind` values
//   node release-report.mjs agents-list CONFIG  rewrite gen-legacy.mjs's openclaw.json (keyed `agents.entries`,
//                                               which releases before 2026.8 reject) into the older
//                                               `agents.list` form: same ids and workspaces, the first default
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

const [cmd, ...args] = process.argv.slice(2);
const ro = (file) => new DatabaseSync(file, { readOnly: true });
function walk(root) {
  const out = [];
  const rec = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) rec(p);
      else if (e.isFile()) out.push(p);
    }
  };
  rec(root);
  return out;
}
const isSqlite = (f) => {
  if (fs.statSync(f).size < 100) return false;
  const fd = fs.openSync(f, "r");
  const b = Buffer.alloc(16);
  fs.readSync(fd, b, 0, 16, 0);
  fs.closeSync(fd);
  return b.toString("latin1") === "SQLite format 3\0";
};

if (cmd === "schema") {
  const [db, out] = args;
  const c = ro(db);
  const rows = c.prepare("SELECT rowid, type, name, tbl_name, sql FROM sqlite_schema ORDER BY rowid").all();
  c.close();
  const text = rows.map((r) => `-- ${r.rowid} ${r.type} ${r.name} ON ${r.tbl_name}\n${r.sql === null ? "-- (automatic)" : `${r.sql};`}\n`).join("");
  fs.writeFileSync(out, text);
} else if (cmd === "meta") {
  const [state] = args;
  const res = {};
  for (const f of walk(state).filter(isSqlite)) {
    const c = ro(f);
    const one = (sql) => Object.values(c.prepare(sql).get())[0];
    const count = (type) => one(`SELECT count(*) FROM sqlite_schema WHERE type='${type}'`);
    const m = {
      user_version: one("PRAGMA user_version"),
      journal_mode: one("PRAGMA journal_mode"),
      tables: count("table"), indexes: count("index"), triggers: count("trigger"), views: count("view"),
    };
    if (one("SELECT count(*) FROM sqlite_schema WHERE type='table' AND name='schema_meta'")) {
      m.schema_meta = c.prepare("SELECT * FROM schema_meta").all().map((r) => ({ ...r }));
    }
    c.close();
    res[path.relative(state, f)] = m;
  }
  console.log(JSON.stringify(res, null, 1));
} else if (cmd === "stats") {
  const [state] = args;
  const res = {};
  const agentsDir = path.join(state, "agents");
  for (const a of fs.existsSync(agentsDir) ? fs.readdirSync(agentsDir).sort() : []) {
    const db = path.join(agentsDir, a, "agent", "openclaw-agent.sqlite");
    if (!fs.existsSync(db)) continue;
    const c = ro(db);
    const tables = new Set(c.prepare("SELECT name FROM sqlite_schema WHERE type='table'").all().map((r) => r.name));
    const cols = (t) => new Set(c.prepare(`SELECT name FROM pragma_table_info('${t}')`).all().map((r) => r.name));
    const n = (sql) => Object.values(c.prepare(sql).get())[0];
    const s = { dbBytes: fs.statSync(db).size };
    for (const t of ["session_nodes", "session_windows", "transcript_events", "session_transcript_archives"]) {
      if (tables.has(t)) s[t] = n(`SELECT count(*) FROM ${t}`);
    }
    if (tables.has("transcript_events") && cols("transcript_events").has("event_zstd")) {
      s.transcript_events_zstd = n("SELECT count(*) FROM transcript_events WHERE event_zstd IS NOT NULL");
    }
    c.close();
    res[a] = s;
  }
  console.log(JSON.stringify(res));
} else if (cmd === "keys") {
  const [file] = args;
  const j = JSON.parse(fs.readFileSync(file, "utf8"));
  const rows = j.sessions ?? [];
  const keys = new Set();
  const kinds = new Set();
  for (const r of rows) {
    for (const k of Object.keys(r)) keys.add(k);
    if ("kind" in r) kinds.add(String(r.kind));
  }
  console.log(JSON.stringify({ count: rows.length, topLevelKeys: Object.keys(j), rowKeys: [...keys].sort(), kinds: [...kinds].sort() }));
} else if (cmd === "agents-list") {
  const [file] = args;
  const c = JSON.parse(fs.readFileSync(file, "utf8"));
  const entries = c.agents?.entries ?? {};
  const list = Object.keys(entries).map((id, i) => ({ id, ...(i === 0 ? { default: true } : {}), ...(entries[id].workspace ? { workspace: entries[id].workspace } : {}) }));
  fs.writeFileSync(file, `${JSON.stringify({ agents: { list } }, null, 2)}\n`, { mode: 0o600 });
} else {
  console.error("usage: release-report.mjs schema|meta|stats|keys|agents-list ...");
  process.exit(2);
}
