// OpenClaw's SDK on several sessions in one process (the history checks, checks-history.sh):
//   sdk-history.mjs delete <agentId> <key>...            deleteSessionEntry with archiveTranscript: true
//   sdk-history.mjs append <agentId> <key>=<sessionId>... one user message each, then read back
// Prints one JSON line per session; exit 1 when one failed.
const store = await import("openclaw/plugin-sdk/session-store-runtime");
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");
const [op, agentId, ...items] = process.argv.slice(2);
let failed = 0;
for (const item of items) {
  try {
    if (op === "delete") {
      const result = await store.deleteSessionEntry({ agentId, sessionKey: item, archiveTranscript: true });
      const gone = !store.getSessionEntry({ agentId, sessionKey: item });
      console.log(JSON.stringify({ sessionKey: item, result: result ?? null, gone }));
      if (!gone) failed++;
    } else if (op === "append") {
      const [sessionKey, sessionId] = item.split("=");
      const text = `appended after the restore to ${sessionKey}`;
      const before = (await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId })).length;
      await tx.appendSessionTranscriptMessageByIdentity({
        agentId, sessionKey, sessionId,
        message: { role: "user", content: [{ type: "text", text }], timestamp: Date.now() },
        cwd: `/home/user/ws-${agentId}`,
      });
      const events = await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId });
      const appended = events.length === before + 1 && JSON.stringify(events[events.length - 1]).includes(text);
      console.log(JSON.stringify({ sessionKey, before, after: events.length, appended }));
      if (!appended) failed++;
    } else {
      throw new Error(`unknown op ${op}`);
    }
  } catch (e) {
    failed++;
    console.log(JSON.stringify({ item, error: String(e?.message ?? e) }));
  }
}
process.exit(failed ? 1 : 0);
