// OpenClaw's own raw transcript delta reader (SDK readSessionTranscriptRawDelta) on one session,
// for the delta differential check. Run with `ocnode` and OPENCLAW_STATE_DIR=<state>.
//   sdk-delta.mjs AGENT KEY [CURSOR]
// Prints one JSON line: {kind, reason?, cursor?, events?: n, firstSeq?, issued}, where `issued`
// is the cursor of a first page of 2 events (an OpenClaw-issued cursor) when CURSOR is absent.
const store = await import("openclaw/plugin-sdk/session-store-runtime");
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");
const [agentId, sessionKey, cursor] = process.argv.slice(2);
const entry = store.getSessionEntry({ agentId, sessionKey });
if (!entry) { console.error(`no session ${sessionKey}`); process.exit(2); }
const target = { agentId, sessionKey, sessionId: entry.sessionId };
const page = await tx.readSessionTranscriptRawDelta({ ...target, ...(cursor !== undefined ? { cursor } : { maxEvents: 2 }) });
const events = Array.isArray(page.events) ? page.events : [];
console.log(JSON.stringify({
  kind: page.kind,
  reason: page.reason,
  events: events.length,
  firstSeq: events[0]?.seq,
  issued: cursor === undefined ? page.cursor : undefined,
}));
