// Full read-back of a state dir through OpenClaw's own SDK ("OpenClaw accepts the store", tests/reference/README.md):
// listSessionEntries for every agent with an agent database, then readSessionTranscriptEvents for
// every listed session. Run with `ocnode` and OPENCLAW_STATE_DIR=<state> (lib.sh: oc_sdk).
//   sdk-readback.mjs [AGENT...]        default: every agents/<id>/agent/openclaw-agent.sqlite
// Prints one JSON line {agents: {<id>: {sessions, events, keys: [[key, sessionId, updatedAt, events]]}}, errors: [...]}.
// Exit 0 when every read succeeded, 1 otherwise.
import fs from "node:fs";
import path from "node:path";

const state = process.env.OPENCLAW_STATE_DIR;
if (!state) { console.error("sdk-readback.mjs: OPENCLAW_STATE_DIR is not set"); process.exit(2); }
const store = await import("openclaw/plugin-sdk/session-store-runtime");
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");

let agents = process.argv.slice(2);
if (!agents.length) {
  const dir = path.join(state, "agents");
  agents = (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
    .filter((a) => fs.existsSync(path.join(dir, a, "agent", "openclaw-agent.sqlite"))).sort();
}
const out = { agents: {}, errors: [] };
for (const agentId of agents) {
  const res = { sessions: 0, events: 0, keys: [] };
  out.agents[agentId] = res;
  let entries;
  try {
    entries = store.listSessionEntries({ agentId });
  } catch (e) {
    out.errors.push(`${agentId}: listSessionEntries: ${e?.message ?? e}`);
    continue;
  }
  res.sessions = entries.length;
  for (const { sessionKey, entry } of entries) {
    try {
      const events = await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId: entry.sessionId });
      const n = Array.isArray(events) ? events.length : 0;
      res.events += n;
      res.keys.push([sessionKey, entry.sessionId, entry.updatedAt, n]);
    } catch (e) {
      out.errors.push(`${agentId} ${sessionKey}: readSessionTranscriptEvents: ${e?.message ?? e}`);
    }
  }
  res.keys.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
console.log(JSON.stringify(out));
process.exit(out.errors.length ? 1 : 0); // the SDK keeps SQLite handles open
