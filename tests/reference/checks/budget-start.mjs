// What OpenClaw's disk-budget pass measures when it starts, on a copy whose budget it does not
// exceed: OpenClaw's own `sessions cleanup --enforce` (runSessionsCleanup, in-process) for one
// agent, then OpenClaw's own measure (readSessionPhysicalDiskUsage) of the files as the run left
// them (the pass itself measured and removed nothing), then again once the WAL is checkpointed.
//   budget-start.mjs <agentId> <store.sqlite>   (on the store named by OPENCLAW_STATE_DIR)
// Prints {diskBudget, start, checkpointed}; start and checkpointed are
// {databaseMainBytes, databaseWalBytes, sessionFilesBytes, totalBytes}.
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

const dist = path.join(process.env.OPENCLAW_REF_PKG, "dist");
// An exported function of the bundle, found by name in the chunks whose names start with prefix.
async function bundled(name, prefix) {
  for (const f of fs.readdirSync(dist).sort()) {
    if (!f.endsWith(".mjs") || !f.startsWith(prefix)) continue;
    const text = fs.readFileSync(path.join(dist, f), "utf8");
    if (!text.includes(`function ${name}(`)) continue;
    const m = text.match(new RegExp(`export \\{[^}]*\\b${name}\\b(?: as (\\w+))?`));
    if (m) return (await import(path.join(dist, f)))[m[1] ?? name];
  }
  throw new Error(`${name} not found in ${dist}`);
}

const [agent, store] = process.argv.slice(2);
const { loadConfig } = await import("openclaw/plugin-sdk/config-runtime");
const runSessionsCleanup = await bundled("runSessionsCleanup", "cleanup-service-");
const measure = await bundled("readSessionPhysicalDiskUsage", "disk-budget-files-");
const res = await runSessionsCleanup({ cfg: loadConfig(), opts: { enforce: true, agent, store } });
const summary = res.appliedSummaries[0];
if (!summary?.diskBudget) throw new Error(`no disk budget in ${JSON.stringify(res)}`);
const start = await measure(store);
const db = new DatabaseSync(store);
db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
db.close();
const checkpointed = await measure(store);
console.log(JSON.stringify({ diskBudget: summary.diskBudget, start, checkpointed }));
process.exit(0);
