// SDK phase of make-release-store.sh: sdk-phase.mjs for the plugin SDK of ANY OpenClaw release with
// SQLite sessions (2026.8.x and later). Same writes, same seeded ids, on an imported state dir:
//   upsertSessionEntry (3 new sessions per agent), appendSessionTranscriptMessageByIdentity (4 messages
//   each), patchSessionEntry, deleteSessionEntry({ archiveTranscript: true }) on the first agent.
// An export the release lacks is skipped and said so ("[sdk-phase] skipped ..."); a release without
// upsertSessionEntry or appendSessionTranscriptMessageByIdentity makes it fail (exit 3).
// `openclaw/...` resolves to the release through lib/openclaw-resolve.mjs with OPENCLAW_REF_APP set to
// the release's install dir (make-release-store.sh does that). Env: SDK_AGENTS=a,b, SDK_SEED=N.
import crypto from "node:crypto";

const store = await import("openclaw/plugin-sdk/session-store-runtime");
const tx = await import("openclaw/plugin-sdk/session-transcript-runtime");

const seed = Number(process.env.SDK_SEED ?? 0);
const SEEDP = seed === 0 ? "" : `seed${seed}/`;
const uuidFrom = (s) => {
  const h = crypto.createHash("sha256").update(SEEDP + s).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[parseInt(h[16], 16) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const log = (...a) => console.log("[sdk-phase]", ...a);
const has = (mod, name) => typeof mod[name] === "function";
for (const [mod, name] of [[store, "upsertSessionEntry"], [tx, "appendSessionTranscriptMessageByIdentity"]]) {
  if (!has(mod, name)) { console.error(`[sdk-phase] this release's SDK has no ${name}`); process.exit(3); }
}
{
  const fs = await import("node:fs");
  const pj = `${process.env.OPENCLAW_REF_APP}/node_modules/openclaw/package.json`;
  log("openclaw", fs.existsSync(pj) ? JSON.parse(fs.readFileSync(pj, "utf8")).version : "(unknown)");
}

const agents = (process.env.SDK_AGENTS ?? "main,work").split(",").filter(Boolean);
// Unlike sdk-phase.mjs (fixed 2026-07-01), the new sessions' times are recent (two hours before the run,
// on the hour): 2026.8.x runs session maintenance (mode "enforce", prune after 30 days) on every SDK
// write, which would otherwise delete the sessions just written. Entries a release prunes that way are
// logged ("pruned by the release").
const BASE = Number(process.env.SDK_BASE_MS ?? Math.floor((Date.now() - 2 * 3600e3) / 3600e3) * 3600e3);
const keysOf = (agentId) => store.listSessionEntries({ agentId }).map((e) => e.sessionKey).sort();
const before = Object.fromEntries(agents.map((a) => [a, keysOf(a)]));
const results = { created: [], appended: 0, patched: [], deleted: [] };

for (const [ai, agentId] of agents.entries()) {
  for (let i = 0; i < 3; i++) {
    const sessionKey = `agent:${agentId}:sdk-made-${i}`;
    const sessionId = uuidFrom(`sdk:${agentId}:${i}`);
    const now = BASE + ai * 1e6 + i * 1e4;
    await store.upsertSessionEntry({
      agentId,
      sessionKey,
      entry: {
        sessionId,
        updatedAt: now,
        sessionStartedAt: now,
        chatType: "direct",
        label: `SDK session ${agentId} ${i}`,
        ...(i === 1 ? { thinkingLevel: "low", pluginExtensions: { "sdk-ext": { n: i } } } : {}),
        ...(i === 2 ? { cliSessionBindings: { "codex-cli": { sessionId: uuidFrom(`cli2:${agentId}`) } }, cliSessionIds: { "codex-cli": uuidFrom(`cli2:${agentId}`) } } : {}),
      },
    });
    results.created.push(sessionKey);
    for (let m = 0; m < 4; m++) {
      const role = m % 2 === 0 ? "user" : "assistant";
      const big = m === 3 ? ` ${"zstd-friendly repeated payload ".repeat(80)}` : "";
      const message = role === "user"
        ? { role, content: [{ type: "text", text: `sdk user msg ${m} for ${sessionKey}` }], timestamp: now + m * 1000 }
        : { role, content: [{ type: "text", text: `sdk assistant msg ${m}${big}` }], api: "openai-responses", provider: "openai", model: "gpt-5",
            usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
            stopReason: "stop", timestamp: now + m * 1000 };
      const r = await tx.appendSessionTranscriptMessageByIdentity({ agentId, sessionKey, sessionId, message, cwd: `/home/user/ws-${agentId}` });
      if (m === 0) log("append result", JSON.stringify(r)?.slice(0, 300));
      results.appended += 1;
    }
  }
  // Patch one SDK-made session's label/displayName.
  if (!has(store, "patchSessionEntry")) { log("skipped patchSessionEntry (not exported)"); continue; }
  const patched = await store.patchSessionEntry({
    agentId,
    sessionKey: `agent:${agentId}:sdk-made-0`,
    update: () => ({ label: `Renamed by SDK (${agentId})`, displayName: "SDK display name" }),
  });
  results.patched.push(patched?.label);
}

// Delete one session of the first agent, archiving its transcript.
if (!has(store, "deleteSessionEntry")) log("skipped deleteSessionEntry (not exported)");
else {
  const agentId = agents[0];
  const sessionKey = `agent:${agentId}:sdk-made-2`;
  const ok = await store.deleteSessionEntry({ agentId, sessionKey, archiveTranscript: true });
  results.deleted.push({ sessionKey, ok });
}

for (const a of agents) {
  const after = new Set(keysOf(a));
  const gone = before[a].filter((k) => !after.has(k));
  log("pruned by the release", a, JSON.stringify(gone));
  results[`pruned:${a}`] = gone.length;
}
const listed = store.listSessionEntries({ agentId: agents[0] });
log("listed", agents[0], listed.length, "entries");
const one = store.getSessionEntry({ agentId: agents[0], sessionKey: `agent:${agents[0]}:sdk-made-1` });
log("getSessionEntry", JSON.stringify(one));
const events = !has(store, "loadTranscriptEventsSync") || !one ? [] : store.loadTranscriptEventsSync({ agentId: agents[0], sessionKey: `agent:${agents[0]}:sdk-made-1`, sessionId: one?.sessionId });
log("events", events.length, JSON.stringify(events[0]));
log(JSON.stringify(results));
// The SDK keeps its SQLite handles open (no public close); exit explicitly. OpenClaw therefore
// leaves -wal/-shm sidecars, which make-store.sh checkpoints afterwards.
process.exit(0);
