// Give sessions historical windows through OpenClaw's own SDK: each key gets a new sessionId
// twice (as a reset does, previousSessionId naming the one before), so its first transcript
// is kept only by its window, which no session refers to any more.
//   budget-history.mjs <agentId> <sessionKey>...   (on the store named by OPENCLAW_STATE_DIR)
import { randomUUID } from "node:crypto";
import { patchSessionEntry } from "openclaw/plugin-sdk/session-store-runtime";

const [agentId, ...keys] = process.argv.slice(2);
const out = [];
for (const sessionKey of keys) {
  const ids = [];
  for (let i = 0; i < 2; i++) {
    const r = await patchSessionEntry({
      agentId, sessionKey, skipMaintenance: true, preserveActivity: true, replaceEntry: true,
      update: (e) => { ids.push(e.sessionId); return { ...e, sessionId: randomUUID(), previousSessionId: e.sessionId }; },
    });
    if (!r) throw new Error(`no session ${sessionKey}`);
  }
  out.push({ sessionKey, historical: ids[0] });
}
console.log(JSON.stringify(out));
process.exit(0);
