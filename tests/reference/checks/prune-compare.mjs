// Compare OpenClaw's own cleanup plan (oc-cleanup-plan.mjs output) with `openclaw-sessions
// prune --dry-run --json` for one agent: the same keys in each category.
//   prune-compare.mjs <openclaw-plan.json> <ours.json> <agentId>
import { readFileSync } from "node:fs";
const [ocPath, oursPath, agent] = process.argv.slice(2);
const oc = JSON.parse(readFileSync(ocPath, "utf8"))[agent];
const ours = JSON.parse(readFileSync(oursPath, "utf8")).data.agents.find((a) => a.agentId === agent);
const sorted = (xs) => [...(xs ?? [])].sort();
const byAction = (...acts) => sorted(ours.actions.filter((a) => acts.includes(a.action)).map((a) => a.sessionKey));
const cmp = [
  ["model-run probes removed", sorted(oc.modelRunPrunedKeys), byAction("prune-model-run")],
  ["dashboards archived", sorted(oc.archivedKeys), byAction("archive-dashboard")],
  ["age archived", sorted(oc.ageArchivedKeys), byAction("archive-age")],
  ["stale removed", sorted(oc.staleKeys), byAction("prune-stale")],
  ["cap archived", sorted(oc.capArchivedKeys), byAction("archive-cap")],
  // OpenClaw lists only the removed cap victims under cappedKeys (its capped count has both).
  ["cap removed", sorted(oc.cappedKeys), byAction("prune-cap")],
];
let bad = 0;
for (const [what, a, b] of cmp) {
  if (JSON.stringify(a) !== JSON.stringify(b)) { bad++; console.log(`DIFF ${what}: openclaw ${JSON.stringify(a)} / ours ${JSON.stringify(b)}`); }
}
for (const k of ["beforeCount", "afterCount", "modelRunPruned", "archived", "capArchived", "pruned", "capped"]) {
  if (oc.counts[k] !== ours.counts[k]) { bad++; console.log(`DIFF ${k}: openclaw ${oc.counts[k]} / ours ${ours.counts[k]}`); }
}
console.log(bad ? `${bad} difference(s)` : `same plan (${ours.actions.length} actions)`);
process.exit(bad ? 1 : 0);
