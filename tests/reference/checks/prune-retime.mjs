// Rewrites session times (and optionally clones rows) in an OpenClaw 2026.9.6 agent DB so that
// maintenance ages are relative to "now". Keeps every row valid (openclaw/OPERATIONS.md §0):
// entry_json/updated_at/projected columns agree, entry_valid=1 afterwards.
// usage: ocnode mutate.mjs <stateDir> <spec.json>
// spec: {"agent":"research","rows":[{"key":..., "clone":<templateKey>?, "updatedAgoH":n,
//        "interactionAgoH":n?, "set":{...}?, "unset":[...]?}]}
import { DatabaseSync } from "node:sqlite";
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
const [stateDir, specPath] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specPath, "utf8"));
const H = 3600e3;
const now = Date.now();
const db = new DatabaseSync(`${stateDir}/agents/${spec.agent}/agent/openclaw-agent.sqlite`);
db.exec("PRAGMA foreign_keys=ON");
const get = db.prepare("SELECT * FROM session_nodes WHERE session_key=?");
const num = (v) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const text = (v) => (typeof v === "string" && v.trim() ? v.trim() : null);
db.exec("BEGIN IMMEDIATE");
for (const r of spec.rows) {
  const src = get.get(r.clone ?? r.key);
  if (!src) throw new Error(`no row ${r.clone ?? r.key}`);
  const e = JSON.parse(src.entry_json);
  if (r.clone) { e.sessionId = randomUUID(); delete e.label; delete e.displayName; delete e.previousSessionId; delete e.usageFamilySessionIds; delete e.usageFamilyKey; }
  const upd = now - Math.round(r.updatedAgoH * H);
  const li = now - Math.round((r.interactionAgoH ?? r.updatedAgoH) * H);
  e.updatedAt = upd; e.lastInteractionAt = li; e.sessionStartedAt = Math.min(upd, li) - 60e3;
  delete e.lastActivityAt;
  for (const k of r.unset ?? []) delete e[k];
  Object.assign(e, r.set ?? {});
  const cols = {
    current_session_id: e.sessionId, entry_json: JSON.stringify(e), updated_at: e.updatedAt,
    status: ["running","done","failed","killed","timeout"].includes(e.status) ? e.status : null,
    parent_session_key: text(e.parentSessionKey) ?? text(e.spawnedBy), spawned_by: text(e.spawnedBy),
    label: text(e.label), display_name: text(e.displayName), pinned_at: num(e.pinnedAt), archived_at: num(e.archivedAt),
    last_interaction_at: num(e.lastInteractionAt), last_activity_at: num(e.lastActivityAt),
  };
  if (r.clone) {
    const row = { ...src, ...cols, session_key: r.key, entry_valid: 0 };
    const names = Object.keys(row);
    db.prepare(`INSERT INTO session_nodes (${names.join(",")}) VALUES (${names.map(() => "?").join(",")})`).run(...names.map((n) => row[n]));
  } else {
    const names = Object.keys(cols);
    db.prepare(`UPDATE session_nodes SET ${names.map((n) => `${n}=?`).join(",")} WHERE session_key=?`).run(...names.map((n) => cols[n]), r.key);
  }
  db.prepare("UPDATE session_nodes SET entry_valid=1 WHERE session_key=?").run(r.key);
}
db.exec("COMMIT");
console.log(JSON.stringify({ now, agent: spec.agent, rows: spec.rows.length }));
db.close();
