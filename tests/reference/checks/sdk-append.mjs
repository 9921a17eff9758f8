// Append one user message to a session through OpenClaw's SDK, then read the transcript back.
//   sdk-append.mjs <agentId> <sessionKey> <sessionId> <text>
// Prints {"before": n, "after": m}; exit 1 unless the read-back grew by one event or more.
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");
const [agentId, sessionKey, sessionId, text] = process.argv.slice(2);
const before = (await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId })).length;
await tx.appendSessionTranscriptMessageByIdentity({
  agentId, sessionKey, sessionId,
  message: { role: "user", content: [{ type: "text", text }], timestamp: Date.now() },
  cwd: `/home/user/ws-${agentId}`,
});
const events = await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId });
const last = JSON.stringify(events[events.length - 1] ?? null);
console.log(JSON.stringify({ before, after: events.length, appended: last.includes(text) }));
process.exit(events.length > before && last.includes(text) ? 0 : 1);
