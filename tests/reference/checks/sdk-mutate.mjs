// Apply one mutation through OpenClaw's own SDK, on the store named by OPENCLAW_STATE_DIR.
//   sdk-mutate.mjs patch  <agentId> <sessionKey> <patch-json> [preserve]
//   sdk-mutate.mjs delete <agentId> <sessionKey>
//   sdk-mutate.mjs delete-keep <agentId> <sessionKey>      (without archiveTranscript)
//   sdk-mutate.mjs archive|unarchive <agentId> <sessionKey>
import { getSessionEntry, patchSessionEntry, deleteSessionEntry } from "openclaw/plugin-sdk/session-store-runtime";

const [op, agentId, sessionKey, arg, flag] = process.argv.slice(2);
let result;
if (op === "patch") {
  const patch = JSON.parse(arg);
  result = await patchSessionEntry({ agentId, sessionKey, update: () => patch, preserveActivity: flag === "preserve", skipMaintenance: true });
} else if (op === "delete") {
  result = await deleteSessionEntry({ agentId, sessionKey, archiveTranscript: true });
} else if (op === "delete-keep") {
  result = await deleteSessionEntry({ agentId, sessionKey });
} else if (op === "archive") {
  // What `openclaw sessions archive` asks the gateway for: archivedAt now (kept if set),
  // archiveReason manual, no archivedBy offline, pin dropped, updatedAt bumped.
  result = await patchSessionEntry({
    agentId, sessionKey, skipMaintenance: true,
    update: (e) => {
      const next = { ...e, archivedAt: e.archivedAt ?? Date.now(), archiveReason: "manual", updatedAt: Date.now() };
      delete next.archivedBy; delete next.pinnedAt;
      return next;
    },
    replaceEntry: true,
  });
} else if (op === "unarchive") {
  result = await patchSessionEntry({
    agentId, sessionKey, skipMaintenance: true, replaceEntry: true,
    update: (e) => { const next = { ...e, updatedAt: Date.now() }; delete next.archivedAt; delete next.archivedBy; delete next.archiveReason; return next; },
  });
} else {
  throw new Error(`unknown op ${op}`);
}
console.log(JSON.stringify({ op, sessionKey, result: result ?? null, after: getSessionEntry({ agentId, sessionKey }) ?? null }));
process.exit(0);
