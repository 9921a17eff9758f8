// Run one of OpenClaw's own Gateway session methods in-process (no Gateway server, no socket)
// on the store of OPENCLAW_STATE_DIR (run by oc_sdk), and print its answer as one JSON line:
// {ok, payload?, error?: {code, message}}, one line per METHOD PARAMS_JSON pair, in order.
//   gateway-method.mjs METHOD PARAMS_JSON [METHOD PARAMS_JSON...]
//   e.g. gateway-method.mjs sessions.delete '{"key":"main"}'
// Two more "methods" answer what `openclaw sessions archive` (a CLI over the Gateway) decides
// before any call: `sdk.getSessionEntry {agentId, sessionKey}` (the entry as the SDK reads it),
// and `lifecycle.archive {agentId, sessionKey}`: the command's own first step, which answers
// `already_archived` without calling `sessions.patch` when the listing row says `archived`
// (`entry.archivedAt !== undefined`); the two rules are checked to be in the bundle as quoted.
// The handler maps are found in the bundle by name (hash-free file names). The request context
// carries the loaded config and no-op hooks: enough for the checks that answer before any
// live session work (refusals, no-op patches).
import fs from "node:fs";
import path from "node:path";

const dist = path.join(process.env.OPENCLAW_REF_PKG, "dist");
async function bundled(name, prefix = "") {
  for (const f of fs.readdirSync(dist).sort()) {
    if (!f.endsWith(".mjs") || !f.startsWith(prefix)) continue;
    const text = fs.readFileSync(path.join(dist, f), "utf8");
    if (!text.includes(`const ${name} = {`) && !text.includes(`function ${name}(`)) continue;
    const m = text.match(new RegExp(`export \\{[^}]*\\b${name}\\b(?: as (\\w+))?`));
    if (m) return (await import(path.join(dist, f)))[m[1] ?? name];
  }
  throw new Error(`${name} not found in ${dist}`);
}

// Handler map and the file-name prefix of its chunk (only where it is looked for).
const handlerMaps = {
  "sessions.delete": ["sessionDeleteHandlers", "sessions-delete-"],
  "sessions.patch": ["sessionMutationHandlers", "sessions-mutations-"],
  "sessions.list": ["sessionReadHandlers", "sessions-read-"],
};
const { loadConfig } = await import("openclaw/plugin-sdk/config-runtime");
const noop = () => {};
const store = await import("openclaw/plugin-sdk/session-store-runtime");
function bundleHas(prefix, text) {
  return fs.readdirSync(dist).some((f) => f.startsWith(prefix) && f.endsWith(".mjs") && fs.readFileSync(path.join(dist, f), "utf8").includes(text));
}
const args = process.argv.slice(2);
for (let i = 0; i + 1 < args.length; i += 2) {
  const [method, paramsJson] = [args[i], args[i + 1]];
  if (method === "sdk.getSessionEntry" || method === "lifecycle.archive") {
    const { agentId, sessionKey } = JSON.parse(paramsJson);
    const entry = store.getSessionEntry({ agentId, sessionKey });
    if (method === "sdk.getSessionEntry") { console.log(JSON.stringify({ ok: entry !== undefined, payload: entry })); continue; }
    const rules = bundleHas("sessions-lifecycle-", 'if (operation === "archive" && session.archived === true) {')
      && bundleHas("session-row-prepared-read-", "archived: entry?.archivedAt !== void 0");
    if (!rules) throw new Error("the lifecycle command's already_archived rule is not in the bundle as quoted");
    const status = !entry ? "not_found" : entry.archivedAt !== undefined ? "already_archived" : "patch";
    console.log(JSON.stringify({ ok: entry !== undefined, payload: { status } }));
    continue;
  }
  if (!handlerMaps[method]) throw new Error(`no handler map for ${method}`);
  const handler = (await bundled(...handlerMaps[method]))[method];
  if (!handler) throw new Error(`no handler ${method}`);
  const cfg = loadConfig();
  // A context like OpenClaw's local embedded one (createLocalGatewayRequestContext, not
  // exported): the config, empty run registries, no-op hooks; optional services stay undefined.
  const base = {
    getRuntimeConfig: () => cfg,
    localEmbedded: true,
    getSessionEventSubscriberConnIds: () => new Set(),
    unavailableGatewayMethods: new Set(),
  };
  for (const k of ["agentRunSeq", "chatAbortControllers", "chatQueuedTurns", "dedupe", "wizardSessions", "systemAgentSessions"]) base[k] = new Map();
  const context = new Proxy(base, {
    get: (t, k) => (k in t ? t[k] : typeof k === "string" && /^(broadcast|emit|on[A-Z]|log|node[A-Z]|register|mark|purge)/.test(k) ? noop : undefined),
  });
  let answer;
  await handler({
    params: JSON.parse(paramsJson),
    respond: (ok, payload, error) => { answer ??= { ok, payload, error: error && { code: error.code, message: error.message } }; },
    client: null,
    context,
    req: { id: "check", method },
    isWebchatConnect: () => false,
  });
  console.log(JSON.stringify(answer ?? { ok: null }));
}
process.exit(0);
