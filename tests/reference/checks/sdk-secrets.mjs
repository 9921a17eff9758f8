// OpenClaw's SDK stores a tool result holding secrets (checks-secrets.sh): which of them
// 2026.9.6's write-time masking leaves in the clear.
//   sdk-secrets.mjs <agentId> <sessionKey> <sessionId> <secret>...
// Appends one toolResult message whose text holds every secret, reads the session back, and
// prints {"stored": [{"secret": i, "raw": bool}], "appended": bool}; exit 1 when it failed.
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");
const [agentId, sessionKey, sessionId, ...secrets] = process.argv.slice(2);
const lines = secrets.map((s, i) => (i % 2 ? `export SECRET_${i}=${s}` : `password=${s}`));
const text = `$ env\n${lines.join("\n")}\nHOME=/home/user`;
const before = (await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId })).length;
await tx.appendSessionTranscriptMessageByIdentity({
  agentId, sessionKey, sessionId,
  message: {
    role: "toolResult", toolCallId: "call_secrets_1", toolName: "exec",
    content: [{ type: "text", text }], isError: false, timestamp: Date.now(),
  },
  cwd: `/home/user/ws-${agentId}`,
});
const events = await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId });
const last = JSON.stringify(events[events.length - 1] ?? {});
const appended = events.length === before + 1;
const stored = secrets.map((s, i) => ({ secret: i, raw: last.includes(s) }));
console.log(JSON.stringify({ appended, stored }));
process.exit(appended ? 0 : 1);
