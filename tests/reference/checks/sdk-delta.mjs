// OpenClaw's own raw transcript delta reader (SDK readSessionTranscriptRawDelta) on one session,
// for the delta differential check. Run with `ocnode` and OPENCLAW_STATE_DIR=<state>.
//   sdk-delta.mjs AGENT KEY [CURSOR [WALK_MAX_EVENTS [visible]]]
// Prints one JSON line: {kind, reason?, cursor?, events?: n, firstSeq?, issued}, where `issued`
// is the cursor of a first page of 2 events (an OpenClaw-issued cursor) when CURSOR is absent.
//   sdk-delta.mjs AGENT KEY --each CURSOR...   one such line per CURSOR (one Node start-up).
// With WALK_MAX_EVENTS, it pages on from CURSOR (WALK_MAX_EVENTS events a page) until the end
// and prints {pages: [{kind, reason, cursor, hasMore, events: [{seq, event}]}]}; with `visible`,
// the visible reader (readSessionTranscriptVisibleMessageDelta, WALK_MAX_EVENTS messages a page,
// its `entries` as `events`), starting from CURSOR or, when CURSOR is "", from the cursor of its
// own first page.
const store = await import("openclaw/plugin-sdk/session-store-runtime");
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");
const [agentId, sessionKey, cursor, walk] = process.argv.slice(2);
const entry = store.getSessionEntry({ agentId, sessionKey });
if (!entry) { console.error(`no session ${sessionKey}`); process.exit(2); }
const target = { agentId, sessionKey, sessionId: entry.sessionId };
if (cursor === "--each") {
  for (const c of process.argv.slice(5)) {
    const page = await tx.readSessionTranscriptRawDelta({ ...target, cursor: c });
    console.log(JSON.stringify({ kind: page.kind, reason: page.reason, events: page.events?.length, firstSeq: page.events?.[0]?.seq }));
  }
  process.exit(0);
}
if (walk !== undefined) {
  const visible = process.argv[6] === "visible";
  const read = (c) => visible
    ? tx.readSessionTranscriptVisibleMessageDelta({ ...target, ...(c ? { cursor: c } : {}), maxMessages: Number(walk) })
    : tx.readSessionTranscriptRawDelta({ ...target, cursor: c, maxEvents: Number(walk) });
  const pages = [];
  let next = cursor || (visible ? (await read(undefined)).cursor : cursor);
  const start = next;
  for (let i = 0; i < 1000; i++) {
    const page = await read(next);
    pages.push({ kind: page.kind, reason: page.reason, cursor: page.cursor, hasMore: page.hasMore, events: page.events ?? page.entries ?? [], start });
    if (page.kind !== "page" || !page.hasMore) break;
    next = page.cursor;
  }
  console.log(JSON.stringify({ pages }));
  process.exit(0);
}
const page = await tx.readSessionTranscriptRawDelta({ ...target, ...(cursor !== undefined ? { cursor } : { maxEvents: 2 }) });
const events = Array.isArray(page.events) ? page.events : [];
console.log(JSON.stringify({
  kind: page.kind,
  reason: page.reason,
  events: events.length,
  firstSeq: events[0]?.seq,
  issued: cursor === undefined ? page.cursor : undefined,
}));
