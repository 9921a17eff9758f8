// Per-key actions of OpenClaw's own `sessions cleanup --dry-run` planner (same code path as the CLI).
// usage: [PLAN_NOW_MS=<ms>] OPENCLAW_STATE_DIR=<copy>/.openclaw ocnode oc-cleanup-plan.mjs [agent]
// PLAN_NOW_MS fixes the planner's clock (its maintenance code reads Date.now()).
const pkg = process.env.OPENCLAW_REF_PKG;
if (process.env.PLAN_NOW_MS) {
  const fixed = Number(process.env.PLAN_NOW_MS);
  if (!Number.isSafeInteger(fixed)) throw new Error(`PLAN_NOW_MS is not an integer: ${process.env.PLAN_NOW_MS}`);
  Date.now = () => fixed;
}
const { n: runSessionsCleanup } = await import(`${pkg}/dist/cleanup-service-BprRquxp.mjs`);
const { r: getRuntimeConfig } = await import(`${pkg}/dist/io.runtime-hPN4FOBi.mjs`);
const cfg = getRuntimeConfig();
const res = await runSessionsCleanup({ cfg, opts: process.argv[2] ? { dryRun: true, agent: process.argv[2] } : { dryRun: true, allAgents: true } });
const out = {};
for (const r of res.previewResults) {
  const s = r.summary;
  const sets = ["modelRunPrunedKeys","archivedKeys","ageArchivedKeys","capArchivedKeys","staleKeys","cappedKeys","missingKeys","dmScopeRetiredKeys"];
  out[s.agentId] = { counts: { beforeCount: s.beforeCount, afterCount: s.afterCount, modelRunPruned: s.modelRunPruned, archived: s.archived, capArchived: s.capArchived, pruned: s.pruned, capped: s.capped, wouldMutate: s.wouldMutate },
    ...Object.fromEntries(sets.map((k) => [k, [...r[k]]]).filter(([, v]) => v.length)) };
}
console.log(JSON.stringify(out, null, 1));
process.exit(0);
