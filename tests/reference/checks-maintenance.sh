# shellcheck shell=bash
# Checks of the maintenance commands (prune's cleanup parity, reclaim) against the real OpenClaw
# (docs/openclaw/MAINTENANCE.md). Sourced by run.sh after its own checks.

# ---- reclaim: free pages given back, and OpenClaw still accepts the store ------------------
# Two copies: databases as OpenClaw makes them (auto_vacuum INCREMENTAL: incremental vacuum) and
# rebuilt without auto_vacuum (a full VACUUM that leaves them incremental). In both: every agent
# shrinks by at least its free pages, integrity_check passes and `openclaw sessions` lists the
# same sessions as before; after the full VACUUM the SDK also reads every transcript back and
# preflight-agent says exact.
check_reclaim_accepted() {
  local variant s a db rc n=0 flag
  for variant in incremental vacuum; do
    s="$(copy_store live "reclaim-$variant")"
    flag=""; [[ $variant == vacuum ]] && flag="--no-auto-vacuum"
    for db in "$s"/agents/*/agent/openclaw-agent.sqlite; do
      a="$(basename "$(dirname "$(dirname "$db")")")"
      node_check free-pages.mjs "$db" 1048576 $flag > "free-$variant-$a.json" || check_error "$variant: could not free pages in $a"
    done
    # The sessions as OpenClaw lists them before (the same in both copies).
    if [[ ! -s before.json ]]; then
      rc=0; oc_run before.json "$s" sessions --all-agents --json --limit all || rc=$?
      [[ $rc -eq 0 ]] || check_error "openclaw sessions failed before reclaim ($rc)"
    fi
    rc=0; ours_run "reclaim-$variant.json" "$s" reclaim --all-agents --json || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$variant: ours reclaim exited $rc"; continue; }
    local bad
    bad="$(jsonq "reclaim-$variant.json" 'j.data.agents.filter(a => !(a.method === "'"$( [[ $variant == vacuum ]] && echo vacuum || echo incremental-vacuum)"'" && a.freePages > 0 && a.freePagesAfter === 0 && a.bytesBefore - a.bytesAfter >= (a.method === "vacuum" ? a.freeBytes - 4 * a.pageSize : a.freeBytes))).map(a => a.agentId + ": " + JSON.stringify(a)).join("; ")')"
    [[ -z "$bad" ]] || check_error "$variant: not given back as reported: $bad"
    n=$((n + $(jsonq "reclaim-$variant.json" 'j.data.agents.reduce((t, a) => t + a.reclaimedBytes, 0)')))
    node_check integrity.mjs "$s"/agents/*/agent/openclaw-agent.sqlite > "integrity-$variant.txt" 2>&1 \
      || check_error "$variant: integrity: $(head -n 3 "integrity-$variant.txt")"
    # The whole acceptance (sessions, SDK read-back, preflight-agent exact) after the full
    # rebuild, the bigger change; the incremental copy is listed by OpenClaw (the check stays
    # under two minutes).
    if [[ $variant == vacuum ]]; then
      openclaw_accepts "$s" "after-reclaim-$variant"
    else
      mkdir -p "accepts-after-reclaim-$variant"
      rc=0; oc_run "accepts-after-reclaim-$variant/sessions.json" "$s" sessions --all-agents --json --limit all || rc=$?
      [[ $rc -eq 0 ]] || check_error "$variant: openclaw sessions failed after reclaim ($rc)"
    fi
    local k1 k2
    k1="$(jsonq before.json 'j.sessions.map(s => [s.agentId, s.key, s.sessionId, s.updatedAt].join(" ")).sort().join("\n")')"
    k2="$(jsonq "accepts-after-reclaim-$variant/sessions.json" 'j.sessions.map(s => [s.agentId, s.key, s.sessionId, s.updatedAt].join(" ")).sort().join("\n")')"
    [[ "$k1" == "$k2" ]] || check_error "$variant: sessions differ after reclaim: $(diff <(echo "$k1") <(echo "$k2") | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
  done
  note "incremental and full vacuum: $n bytes given back, same sessions listed by OpenClaw, full acceptance after VACUUM"
}
CHECKS+=(reclaim_accepted)
