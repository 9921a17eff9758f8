// The transcripts of sessions as OpenClaw's SDK reads them: listSessionEntries of each KEY's
// agent (`agent:<id>:...`), then readSessionTranscriptEvents of its current session. Run with
// `ocnode` and OPENCLAW_STATE_DIR=<state> (lib.sh: oc_sdk).
//   sdk-events.mjs KEY...
// Prints one JSON document {<key>: {sessionId, events: [...]}}; a key that is not listed is
// {missing: true}. Exit 0 when every read succeeded, 1 otherwise.
const store = await import("openclaw/plugin-sdk/session-store-runtime");
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");

const keys = process.argv.slice(2);
const lists = new Map();
const listed = (agentId) => {
  if (!lists.has(agentId)) {
    lists.set(agentId, new Map(store.listSessionEntries({ agentId }).map(({ sessionKey, entry }) => [sessionKey, entry])));
  }
  return lists.get(agentId);
};
const out = {};
let failed = false;
for (const key of keys) {
  const agentId = key.split(":")[1];
  const entry = listed(agentId).get(key);
  if (!entry) { out[key] = { missing: true }; failed = true; continue; }
  try {
    const events = await tx.readSessionTranscriptEvents({ agentId, sessionKey: key, sessionId: entry.sessionId });
    out[key] = { sessionId: entry.sessionId, events };
  } catch (e) {
    out[key] = { error: String(e?.message ?? e) };
    failed = true;
  }
}
console.log(JSON.stringify(out));
process.exit(failed ? 1 : 0); // the SDK keeps SQLite handles open
