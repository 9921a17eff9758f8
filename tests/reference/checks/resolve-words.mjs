// What OpenClaw resolves for a few typed words on the store of OPENCLAW_STATE_DIR (run by oc_sdk):
// `main`, a bare key of the owner agent (as stored and upper-cased), and a session id of another
// agent. Prints one line per case: words TAB agentId TAB sessionKey (TAB-free words only).
//
// Keys go through the gateway's rule, resolveSessionStoreIdentity (resolveSessionStoreKey: the
// `main` alias, bare keys qualified with the owner agent, lower-casing), then getSessionEntry;
// words that name no key are tried as a session id with resolveExistingSessionKeyForRequest.
// Those two are not exported by the SDK: they are found in the bundle by name (hash-free).
import fs from "node:fs";
import path from "node:path";

const dist = path.join(process.env.OPENCLAW_REF_PKG, "dist");
async function bundled(name) {
  for (const f of fs.readdirSync(dist).sort()) {
    if (!f.endsWith(".mjs")) continue;
    const text = fs.readFileSync(path.join(dist, f), "utf8");
    if (!text.includes(`function ${name}(`)) continue;
    const m = text.match(new RegExp(`export \\{[^}]*\\b${name} as (\\w+)`));
    if (m) return (await import(path.join(dist, f)))[m[1]];
  }
  throw new Error(`${name} not found in ${dist}`);
}

const { loadConfig } = await import("openclaw/plugin-sdk/config-runtime");
const store = await import("openclaw/plugin-sdk/session-store-runtime");
const identity = await bundled("resolveSessionStoreIdentity");
const byRequest = await bundled("resolveExistingSessionKeyForRequest");
const cfg = loadConfig();

function resolve(words) {
  const { agentId, canonicalKey } = identity({ cfg, sessionKey: words });
  if (store.getSessionEntry({ agentId, sessionKey: canonicalKey })) return { agentId, sessionKey: canonicalKey };
  const r = byRequest({ cfg, sessionId: words });
  return r.sessionEntry ? { agentId: r.agentId, sessionKey: r.sessionKey } : null;
}

const owner = identity({ cfg, sessionKey: "main" }).agentId;
const keysOf = (agentId) =>
  store.listSessionEntries({ agentId, readOnly: true }).sort((a, b) => (a.sessionKey < b.sessionKey ? -1 : 1));
const prefix = `agent:${owner}:`;
const bare = keysOf(owner)
  .map(({ sessionKey }) => sessionKey.slice(prefix.length))
  .find((rest) => rest && !rest.includes(":") && rest !== "main");
const other = (cfg.agents?.entries ? Object.keys(cfg.agents.entries) : []).find((a) => a !== owner) ?? owner;
const id = keysOf(other)[0]?.entry.sessionId;

const words = ["main", bare, bare?.toUpperCase(), id].filter(Boolean);
for (const w of words) {
  const r = resolve(w);
  if (!r) throw new Error(`OpenClaw resolves nothing for ${JSON.stringify(w)}`);
  console.log(`${w}\t${r.agentId}\t${r.sessionKey}`);
}
process.exit(0);
