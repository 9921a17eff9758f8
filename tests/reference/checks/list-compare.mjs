// Compare `openclaw sessions --all-agents --json --limit all` with
// `openclaw-sessions list --all-agents --json --limit all` on copies of the same store.
//   list-compare.mjs OPENCLAW.json OURS.json [--counts-only]
// Compared: the multiset of (agentId, sessionKey, sessionId, updatedAt, kind) tuples, the fields
// both lists have (OpenClaw: sessions[].{agentId,key,sessionId,updatedAt,kind}; ours (README.md,
// Commands): data[].{agentId,sessionKey,sessionId,updatedAt,kind}); kind only when OpenClaw's
// rows carry it (ours means OpenClaw's kind; our own classification is `category`).
// Our JSON envelope is validated too. --counts-only: validate both documents, print counts, compare nothing.
// Prints "openclaw=N ours=M" as its last line on success. Exit 0 = equal (or counts-only), 1 = differs/invalid.
import fs from "node:fs";

const [ocFile, oursFile, ...flags] = process.argv.slice(2);
const countsOnly = flags.includes("--counts-only");
const errors = [];
const err = (m) => errors.push(m);

function readJson(file, who) {
  const text = fs.readFileSync(file, "utf8");
  try {
    return JSON.parse(text);
  } catch (e) {
    // tolerate log lines before the document (only for OpenClaw; ours must print exactly one document)
    const i = who === "openclaw" ? text.search(/^\{/m) : -1;
    if (i > 0) {
      try { return JSON.parse(text.slice(i)); } catch { /* fall through */ }
    }
    console.error(`${who}: stdout is not one JSON document: ${e.message}; starts with: ${JSON.stringify(text.slice(0, 200))}`);
    process.exit(1);
  }
}

const oc = readJson(ocFile, "openclaw");
const ours = readJson(oursFile, "ours");

// ---- OpenClaw's document
if (!Array.isArray(oc.sessions)) err("openclaw: no sessions[] array");
const ocRows = (oc.sessions ?? []).map((s) => ({ agentId: s.agentId, sessionKey: s.key, sessionId: s.sessionId, updatedAt: s.updatedAt, kind: s.kind }));
const withKind = ocRows.length > 0 && ocRows.every((r) => typeof r.kind === "string");
if (oc.hasMore) err(`openclaw: hasMore=true despite --limit all (count ${oc.count}, totalCount ${oc.totalCount})`);
if (typeof oc.count === "number" && oc.count !== ocRows.length) err(`openclaw: count ${oc.count} != sessions.length ${ocRows.length}`);

// ---- our envelope (README.md, Commands)
if (ours.schemaVersion !== 1) err(`ours: schemaVersion is ${JSON.stringify(ours.schemaVersion)}, expected 1`);
if (ours.command !== "list") err(`ours: command is ${JSON.stringify(ours.command)}, expected "list"`);
if (ours.ok !== true) err(`ours: ok is ${JSON.stringify(ours.ok)}${ours.error ? `, error ${JSON.stringify(ours.error)}` : ""}`);
if (!Array.isArray(ours.data)) err("ours: data is not an array");
if (!Array.isArray(ours.warnings)) err("ours: warnings is not an array");
const oursRows = (Array.isArray(ours.data) ? ours.data : []).map((r) => ({ agentId: r.agentId, sessionKey: r.sessionKey, sessionId: r.sessionId, updatedAt: r.updatedAt, kind: r.kind }));
let entryNotes = 0;
for (const r of Array.isArray(ours.data) ? ours.data : []) {
  for (const f of ["agentId", "sessionKey", "sessionId", "updatedAt"]) {
    if (!(f in r)) { err(`ours: row ${JSON.stringify(r.sessionKey)} has no ${f}`); }
  }
  if (r.entry === null || typeof r.entry !== "object") { err(`ours: row ${JSON.stringify(r.sessionKey)} has no entry object`); continue; }
  // informational: the row's sessionId/updatedAt normally mirror the entry's
  if ((r.entry.sessionId !== undefined && r.entry.sessionId !== r.sessionId) || (r.entry.updatedAt !== undefined && r.entry.updatedAt !== r.updatedAt)) {
    if (entryNotes++ < 5) console.log(`note: ours ${r.agentId} ${r.sessionKey}: row sessionId/updatedAt ${r.sessionId}/${r.updatedAt} vs entry ${r.entry.sessionId}/${r.entry.updatedAt}`);
  }
}
if (Array.isArray(ours.warnings) && ours.warnings.length) console.log(`note: ours warnings: ${JSON.stringify(ours.warnings).slice(0, 500)}`);

if (!countsOnly) {
  const tuple = (r) => JSON.stringify([r.agentId, r.sessionKey, r.sessionId, r.updatedAt, withKind ? r.kind : null]);
  const count = (rows) => { const m = new Map(); for (const r of rows) m.set(tuple(r), (m.get(tuple(r)) ?? 0) + 1); return m; };
  const a = count(ocRows), b = count(oursRows);
  const onlyOc = [], onlyOurs = [];
  for (const [k, n] of a) { const d = n - (b.get(k) ?? 0); for (let i = 0; i < d; i++) onlyOc.push(k); }
  for (const [k, n] of b) { const d = n - (a.get(k) ?? 0); for (let i = 0; i < d; i++) onlyOurs.push(k); }
  if (onlyOc.length || onlyOurs.length) {
    // explain per (agentId, sessionKey): missing, extra, or which field differs
    const byKey = (rows) => { const m = new Map(); for (const r of rows) { const k = `${r.agentId} ${r.sessionKey}`; m.set(k, [...(m.get(k) ?? []), r]); } return m; };
    const ka = byKey(ocRows), kb = byKey(oursRows);
    const lines = [];
    for (const k of [...new Set([...ka.keys(), ...kb.keys()])].sort()) {
      const x = ka.get(k) ?? [], y = kb.get(k) ?? [];
      if (!y.length) lines.push(`missing in ours: ${k} sessionId=${x[0].sessionId} updatedAt=${x[0].updatedAt}`);
      else if (!x.length) lines.push(`extra in ours:   ${k} sessionId=${y[0].sessionId} updatedAt=${y[0].updatedAt}`);
      else if (x.length !== y.length) lines.push(`row count differs for ${k}: openclaw ${x.length}, ours ${y.length}`);
      else if (tuple(x[0]) !== tuple(y[0])) {
        const d = ["sessionId", "updatedAt", ...(withKind ? ["kind"] : [])].filter((f) => x[0][f] !== y[0][f]).map((f) => `${f} openclaw=${JSON.stringify(x[0][f])} ours=${JSON.stringify(y[0][f])}`);
        lines.push(`differs:         ${k} ${d.join(" ")}`);
      }
    }
    err(`tuple sets differ: ${onlyOc.length} only in openclaw, ${onlyOurs.length} only in ours`);
    for (const l of lines.slice(0, 40)) console.log(`  ${l}`);
    if (lines.length > 40) console.log(`  ... ${lines.length - 40} more`);
  }
}

for (const e of errors) console.log(`ERROR: ${e}`);
const agents = (rows) => [...new Set(rows.map((r) => r.agentId))].sort().join(",");
console.log(`openclaw=${ocRows.length} ours=${oursRows.length} kind=${withKind ? "compared" : "-"} agents(openclaw)=${agents(ocRows) || "-"} agents(ours)=${agents(oursRows) || "-"}`);
process.exit(errors.length ? 1 : 0);
