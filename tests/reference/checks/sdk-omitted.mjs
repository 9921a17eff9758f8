// Read one transcript back through OpenClaw's SDK and count its image blocks: inline (`data`) and
// omitted (`omitted: true`, `bytes`, no `data`: the form OpenClaw gives an image it leaves out).
//   sdk-omitted.mjs <agentId> <sessionKey> <sessionId>
// Prints one JSON line {events, inline, omitted, omittedBytes, malformed}; exit 1 when the read fails.
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");
const [agentId, sessionKey, sessionId] = process.argv.slice(2);
const events = await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId });
let inline = 0, omitted = 0, omittedBytes = 0, malformed = 0;
for (const ev of events) {
  const content = ev?.message?.content;
  if (!Array.isArray(content)) continue;
  for (const b of content) {
    if (!b || b.type !== "image") continue;
    if (typeof b.data === "string") inline++;
    else if (b.omitted === true && Number.isInteger(b.bytes)) { omitted++; omittedBytes += b.bytes; }
    else malformed++;
  }
}
console.log(JSON.stringify({ events: events.length, inline, omitted, omittedBytes, malformed }));
