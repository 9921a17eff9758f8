// OpenClaw's SDK reads a scrubbed session back (checks-secrets.sh, secrets_scrub_openclaw_reads_back).
//   sdk-secrets-readback.mjs <agentId> <sessionKey> <sessionId> <secret>...
// Prints {"events": n, "raw": [bool per secret], "marker": bool}: whether any event OpenClaw
// reads holds a secret, and whether the tool result sdk-secrets.mjs appended now holds the
// redaction marker (`…` or `***`) where its secrets were.
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");
const [agentId, sessionKey, sessionId, ...secrets] = process.argv.slice(2);
const events = await tx.readSessionTranscriptEvents({ agentId, sessionKey, sessionId });
const text = JSON.stringify(events);
const raw = secrets.map((s) => text.includes(s));
const tool = events.map((e) => JSON.stringify(e)).filter((e) => e.includes("call_secrets_1"));
const marker = tool.length > 0 && tool.every((e) => e.includes("…") || e.includes("***"));
console.log(JSON.stringify({ events: events.length, raw, marker }));
