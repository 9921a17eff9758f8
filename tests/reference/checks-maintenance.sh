# shellcheck shell=bash
# Checks of the maintenance commands (prune's cleanup parity, reclaim) against the real OpenClaw
# (docs/openclaw/MAINTENANCE.md). Sourced by run.sh after its own checks.

# ---- reclaim: free pages given back, and OpenClaw still accepts the store ------------------
# Two copies: databases as OpenClaw makes them (auto_vacuum INCREMENTAL: incremental vacuum) and
# rebuilt without auto_vacuum (a full VACUUM that leaves them incremental). In both: every agent
# shrinks by at least its free pages, integrity_check passes, `openclaw sessions` lists the same
# sessions as before, the SDK reads every transcript back, and preflight-agent says exact.
check_reclaim_accepted() {
  local variant s a db rc n=0 flag
  for variant in incremental vacuum; do
    s="$(copy_store live "reclaim-$variant")"
    flag=""; [[ $variant == vacuum ]] && flag="--no-auto-vacuum"
    for db in "$s"/agents/*/agent/openclaw-agent.sqlite; do
      a="$(basename "$(dirname "$(dirname "$db")")")"
      node_check free-pages.mjs "$db" 2097152 $flag > "free-$variant-$a.json" || check_error "$variant: could not free pages in $a"
    done
    rc=0; oc_run "before-$variant.json" "$s" sessions --all-agents --json --limit all || rc=$?
    [[ $rc -eq 0 ]] || check_error "$variant: openclaw sessions failed before reclaim ($rc)"
    rc=0; ours_run "reclaim-$variant.json" "$s" reclaim --all-agents --json || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$variant: ours reclaim exited $rc"; continue; }
    local bad
    bad="$(jsonq "reclaim-$variant.json" 'j.data.agents.filter(a => !(a.method === "'"$( [[ $variant == vacuum ]] && echo vacuum || echo incremental-vacuum)"'" && a.freePages > 0 && a.freePagesAfter === 0 && a.bytesBefore - a.bytesAfter >= (a.method === "vacuum" ? a.freeBytes - 4 * a.pageSize : a.freeBytes))).map(a => a.agentId + ": " + JSON.stringify(a)).join("; ")')"
    [[ -z "$bad" ]] || check_error "$variant: not given back as reported: $bad"
    n=$((n + $(jsonq "reclaim-$variant.json" 'j.data.agents.reduce((t, a) => t + a.reclaimedBytes, 0)')))
    node_check integrity.mjs "$s"/agents/*/agent/openclaw-agent.sqlite > "integrity-$variant.txt" 2>&1 \
      || check_error "$variant: integrity: $(head -n 3 "integrity-$variant.txt")"
    rc=0; oc_run "after-$variant.json" "$s" sessions --all-agents --json --limit all || rc=$?
    [[ $rc -eq 0 ]] || check_error "$variant: openclaw sessions failed after reclaim ($rc)"
    local k1 k2
    k1="$(jsonq "before-$variant.json" 'j.sessions.map(s => [s.agentId, s.key, s.sessionId, s.updatedAt].join(" ")).sort().join("\n")')"
    k2="$(jsonq "after-$variant.json" 'j.sessions.map(s => [s.agentId, s.key, s.sessionId, s.updatedAt].join(" ")).sort().join("\n")')"
    [[ "$k1" == "$k2" ]] || check_error "$variant: sessions differ after reclaim: $(diff <(echo "$k1") <(echo "$k2") | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
    openclaw_accepts "$s" "after-reclaim-$variant"
  done
  note "incremental and full vacuum: $n bytes given back, same sessions, OpenClaw accepts both"
}
CHECKS+=(reclaim_accepted)
