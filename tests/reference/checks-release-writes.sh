# shellcheck shell=bash
# Changes written on an older release's own store (sourced by run.sh after checks-releases.sh,
# whose release_store / copy_release / ocr it uses): for each change, the same request through
# that release's own SDK and through ours, on two copies of its store, must leave the same rows in
# every table of the agent database (checks/compare-all-rows.mjs: SPEC §9's rule, the clock and
# generated ids aside), the same archive files, and the same rows in the state database; then the
# release itself reads our store back: its `openclaw sessions --all-agents --json`, its
# `doctor --session-sqlite validate`, and its SDK read-back of every session.
# docs/openclaw/RELEASES.md says which release writes which schema.

# ocr_sdk VER STATE SCRIPT ARGS... : checks/SCRIPT run against release VER's own plugin SDK.
ocr_sdk() {
  local ver="$1" state="$2" script="$3" pkg; shift 3
  pkg="$(OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" "$HARNESS/oc-release" "$ver" --path)" || return 1
  "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" \
    OPENCLAW_STATE_DIR="$state" OPENCLAW_NO_RESPAWN=1 OPENCLAW_REF_APP="$(dirname "$(dirname "$pkg")")" \
    timeout -k 10 60 "$OPENCLAW_REF_NODE" --import "$HARNESS/lib/openclaw-resolve.mjs" "$REF_ROOT/checks/$script" "$@" < /dev/null
}

# release_accepts VER STATE LABEL : release VER reads STATE back (on a throwaway copy: its reads
# write): its own list, its `doctor --session-sqlite validate`, and its SDK read-back of every
# session, which must name the same keys as its list.
release_accepts() {
  local ver="$1" state="$2" label="$3" copy rc k1 k2
  copy="$CHECK_DIR/stores/accept-$label"
  mkdir -p "$copy"; cp -a "$state" "$copy/.openclaw"; copy="$copy/.openclaw"
  rc=0; ocr_run "$label-list.json" "$ver" "$copy" sessions --all-agents --json --limit all || rc=$?
  [[ $rc -eq 0 ]] || { check_error "$label: openclaw@$ver sessions exited $rc"; return 0; }
  rc=0; ocr_run "$label-validate.txt" "$ver" "$copy" doctor --session-sqlite validate --session-sqlite-all-agents || rc=$?
  [[ $rc -eq 0 ]] || check_error "$label: openclaw@$ver doctor --session-sqlite validate exited $rc"
  rc=0; ocr_sdk "$ver" "$copy" sdk-readback.mjs > "$label-readback.json" 2> "$label-readback.err" || rc=$?
  if [[ $rc -ne 0 ]]; then
    check_error "$label: openclaw@$ver SDK read-back failed (exit $rc): $(jsonq "$label-readback.json" 'j.errors.slice(0,5).join("; ")' 2>/dev/null || tail -n 3 "$label-readback.err")"
    return 0
  fi
  k1="$(jsonq "$label-list.json" 'j.sessions.map(s=>s.agentId+" "+s.key).sort().join("\n")')"
  k2="$(jsonq "$label-readback.json" 'Object.entries(j.agents).flatMap(([a,r])=>r.keys.map(k=>a+" "+k[0])).sort().join("\n")')"
  [[ "$k1" == "$k2" && -n "$k1" ]] || check_error "$label: openclaw@$ver's list and SDK read-back differ: $(diff <(echo "$k1") <(echo "$k2") | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
}

# same_release_rows VER OURS THEIRS AGENT WHAT : every row of AGENT's database equal, and the
# archive files of its sessions/ the same (their stamp aside).
same_release_rows() {
  local ver="$1" a="$2" b="$3" agent="$4" what="$5"
  node_check compare-all-rows.mjs "$a/agents/$agent/agent/openclaw-agent.sqlite" "$b/agents/$agent/agent/openclaw-agent.sqlite" > cmp.txt 2>&1 ||
    { sed 's/^/  /' cmp.txt | head -n 12 >&2; check_error "$ver: $what: the rows differ from openclaw@$ver's"; return 0; }
  local stamp='s/\.deleted\.[^.]+\.[0-9]{3}Z\./.deleted.<stamp>./'
  diff <(ls "$a/agents/$agent/sessions" | sed -E "$stamp" | sort) <(ls "$b/agents/$agent/sessions" | sed -E "$stamp" | sort) > files.diff ||
    check_error "$ver: $what: archive files differ: $(head -n 5 files.diff | tr '\n' ' ')"
}

# release_entry_writes VER: patch, archive, unarchive, delete (archiving its transcript, and
# without) through ours and through VER's SDK (checks/sdk-mutate.mjs) on two copies of VER's live
# store, compared after every request; then the state databases; then VER reads ours back.
release_entry_writes() {
  local ver="$1" a b key n=0 op
  a="$(copy_release "$ver" live "ours-$ver")"; b="$(copy_release "$ver" live "openclaw-$ver")"
  # research: the kinds the import made (ACP, subagent, cron run, hook, Telegram direct).
  local research; research="$(node_check list-keys.mjs "$a/agents/research/agent/openclaw-agent.sqlite")"
  pick() { grep -E "$1" <<< "$research" | head -n 1; }
  for key in "$(pick ':pinned-notes$')" "$(pick ':acp:')" "$(pick ':subagent:')" "$(pick ':cron:')" "$(pick ':telegram:direct:')"; do
    [[ -n "$key" ]] || { check_error "$ver: research lacks a session kind the store guarantees"; continue; }
    ours_run p.json "$a" patch "$key" --agent research --set 'label="Ops '"$n"'"' --set 'displayName="  Named  "' --set 'customField={"n":1}' --allow-unknown-field ||
      { check_error "$ver: ours patch $key: $(head -c 300 p.json.err)"; continue; }
    ocr_sdk "$ver" "$b" sdk-mutate.mjs patch research "$key" '{"label":"Ops '"$n"'","displayName":"Named","customField":{"n":1}}' > s.json 2> s.err ||
      { check_error "$ver: SDK patch $key: $(tail -n 3 s.err)"; continue; }
    same_release_rows "$ver" "$a" "$b" research "patch $key"
    n=$((n + 1))
  done
  for key in agent:work:pinned-notes agent:work:discord:channel:987654324 agent:work:sdk-made-1; do
    for op in archive unarchive; do
      ours_run ar.json "$a" "$op" "$key" --agent work || { check_error "$ver: ours $op $key: $(head -c 300 ar.json.err)"; continue; }
      ocr_sdk "$ver" "$b" sdk-mutate.mjs "$op" work "$key" > s.json 2> s.err || { check_error "$ver: SDK $op $key: $(tail -n 3 s.err)"; continue; }
      same_release_rows "$ver" "$a" "$b" work "$op $key"
      n=$((n + 1))
    done
  done
  for key in "$(pick ':acp:')" "$(pick ':subagent:')" "$(pick ':hook:')" "$(pick ':explicit:')" "$(pick ':telegram:group:')"; do
    ours_run d.json "$a" delete "$key" --agent research --yes || { check_error "$ver: ours delete $key: $(head -c 300 d.json.err)"; continue; }
    ocr_sdk "$ver" "$b" sdk-mutate.mjs delete research "$key" > s.json 2> s.err || { check_error "$ver: SDK delete $key: $(tail -n 3 s.err)"; continue; }
    same_release_rows "$ver" "$a" "$b" research "delete $key"
    n=$((n + 1))
  done
  [[ "$(ls "$a/agents/research/sessions" | grep -c '\.deleted\.')" -ge 5 ]] || check_error "$ver: fewer than 5 archive files after 5 deletions"
  ours_run d.json "$a" delete agent:main:sdk-made-0 --yes || check_error "$ver: ours delete sdk-made-0"
  ocr_sdk "$ver" "$b" sdk-mutate.mjs delete main agent:main:sdk-made-0 > s.json 2> s.err || check_error "$ver: SDK delete sdk-made-0: $(tail -n 3 s.err)"
  same_release_rows "$ver" "$a" "$b" main "delete agent:main:sdk-made-0"
  ours_run d.json "$a" delete agent:main:pinned-notes --no-archive --yes || check_error "$ver: ours delete --no-archive"
  ocr_sdk "$ver" "$b" sdk-mutate.mjs delete-keep main agent:main:pinned-notes > s.json 2> s.err || check_error "$ver: SDK delete (no archive): $(tail -n 3 s.err)"
  same_release_rows "$ver" "$a" "$b" main "delete agent:main:pinned-notes --no-archive"
  n=$((n + 2))
  # The state database: ours at its own schema, as the release leaves it (its process's own
  # bookkeeping aside: config health, its database lease, when it last saw each database).
  node_check compare-all-rows.mjs "$a/state/openclaw.sqlite" "$b/state/openclaw.sqlite" --skip config_health_entries \
    --skip agent_database_leases --mask agent_databases.last_seen_at --mask agent_databases.size_bytes > cmp-state.txt 2>&1 ||
    { sed 's/^/  /' cmp-state.txt | head -n 12 >&2; check_error "$ver: the state database differs from openclaw@$ver's"; }
  release_accepts "$ver" "$a" "ours-$ver"
  note "$ver: $n requests, the same rows as openclaw@$ver's SDK after each; openclaw@$ver lists, validates and reads back our store"
}
# owner_route_of VER : the owner route (docs/openclaw/RELEASES.md §8) on VER's own store, with
# VER's installed package named by --openclaw and the reference `node` on PATH: patch, archive,
# unarchive and delete (its archive files and kept entries too) through VER's own code ("via": "openclaw") and through this tool's writer, on two
# copies of the store, leave the same rows in every table of the agent database after each
# request (compare-all-rows.mjs); so do `prune` of research through VER's own offline
# `sessions cleanup --enforce` and this tool's prune, and a second prune with nothing due takes
# no route; VER then reads the routed store back. A package of another release is refused
# before anything changes.
owner_route_of() {
  local ver="$1" a b pkg other n=0 key op rc
  if [[ "$ver" == 2026.9.6 ]]; then
    a="$(copy_store live "owner-ours-$ver")"; b="$(copy_store live "owner-route-$ver")"
    pkg="$OPENCLAW_REF_DIR/app/node_modules/openclaw"; other="$(OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" "$HARNESS/oc-release" 2026.9.5 --path)"
  else
    a="$(copy_release "$ver" live "owner-ours-$ver")" || { check_error "no $ver store"; return 0; }
    b="$(copy_release "$ver" live "owner-route-$ver")"
    pkg="$(OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" "$HARNESS/oc-release" "$ver" --path)"; other="$OPENCLAW_REF_DIR/app/node_modules/openclaw"
  fi
  local path="$(dirname "$OPENCLAW_REF_NODE"):$PATH"
  for key in agent:work:pinned-notes agent:work:discord:channel:987654324; do
    ours_run p.json "$a" patch "$key" --agent work --set 'label="Owner '"$n"'"' --json || { check_error "$ver: ours patch $key: $(head -c 300 p.json.err)"; continue; }
    PATH="$path" ours_run o.json "$b" patch "$key" --agent work --set 'label="Owner '"$n"'"' --openclaw "$pkg" --json ||
      { check_error "$ver: the owner route's patch $key: $(head -c 300 o.json.err)"; continue; }
    [[ "$(jsonq o.json 'j.data.via + " " + j.data.openclaw.version')" == "openclaw $ver" ]] || check_error "$ver: patch $key did not go through $ver's code: $(head -c 300 o.json)"
    same_release_rows "$ver" "$a" "$b" work "patch $key through the owner route"
    n=$((n + 1))
    for op in archive unarchive; do
      ours_run ar.json "$a" "$op" "$key" --agent work || { check_error "$ver: ours $op $key: $(head -c 300 ar.json.err)"; continue; }
      PATH="$path" ours_run o.json "$b" "$op" "$key" --agent work --openclaw "$pkg" --json || { check_error "$ver: the owner route's $op $key: $(head -c 300 o.json.err)"; continue; }
      same_release_rows "$ver" "$a" "$b" work "$op $key through the owner route"
      n=$((n + 1))
    done
  done
  for key in agent:work:sdk-made-1 agent:main:sdk-made-0; do
    local agent="${key#agent:}"; agent="${agent%%:*}"
    ours_run d.json "$a" delete "$key" --agent "$agent" --yes || { check_error "$ver: ours delete $key: $(head -c 300 d.json.err)"; continue; }
    PATH="$path" ours_run o.json "$b" delete "$key" --agent "$agent" --yes --openclaw "$pkg" --json ||
      { check_error "$ver: the owner route's delete $key: $(head -c 300 o.json.err)"; continue; }
    same_release_rows "$ver" "$a" "$b" "$agent" "delete $key through the owner route"
    n=$((n + 1))
  done
  # prune: OpenClaw's own offline cleanup (`sessions cleanup --enforce`) through the route, and
  # this tool's prune, on research (untouched above): the same rows and archive files; then, with
  # nothing due, neither route is taken ("via": "none").
  ours_run pr.json "$a" --json prune --agent research --enforce --yes || check_error "$ver: ours prune: $(head -c 300 pr.json.err)"
  PATH="$path" ours_run po.json "$b" --json prune --agent research --enforce --yes --openclaw "$pkg" ||
    check_error "$ver: the owner route's prune: $(head -c 300 po.json.err)"
  [[ "$(jsonq po.json 'j.data.via + " " + j.data.openclaw.version + " " + j.data.openclawCleanup.length')" == "openclaw $ver 1" ]] ||
    check_error "$ver: prune did not go through $ver's own cleanup: $(head -c 300 po.json)"
  [[ "$(jsonq po.json 'j.data.openclawCleanup[0].afterCount')" == "$(jsonq pr.json 'j.data.agents[0].cleanup.afterCount')" &&
    "$(jsonq pr.json 'j.data.agents[0].cleanup.pruned + j.data.agents[0].cleanup.archived')" -gt 0 ]] ||
    check_error "$ver: prune: openclaw's afterCount $(jsonq po.json 'j.data.openclawCleanup[0].afterCount'), ours $(jsonq pr.json 'j.data.agents[0].cleanup.afterCount') (nothing due proves nothing)"
  same_release_rows "$ver" "$a" "$b" research "prune through the owner route"
  PATH="$path" ours_run po2.json "$b" --json prune --agent research --enforce --yes --openclaw "$pkg" || check_error "$ver: a second prune: $(head -c 300 po2.json.err)"
  [[ "$(jsonq po2.json 'j.data.via + " " + j.data.notReached')" == "none OpenClaw $ver's own code" ]] ||
    check_error "$ver: a prune with nothing due: $(head -c 300 po2.json)"
  n=$((n + 1))
  cp -a "$b" "$CHECK_DIR/stores/owner-before-refusal"
  rc=0; PATH="$path" ours_run w.json "$b" patch agent:work:pinned-notes --agent work --set 'label="x"' --openclaw "$other" --json || rc=$?
  [[ $rc -eq 6 ]] || check_error "$ver: a package of another release: exit $rc"
  node_check compare-all-rows.mjs "$b/agents/work/agent/openclaw-agent.sqlite" "$CHECK_DIR/stores/owner-before-refusal/agents/work/agent/openclaw-agent.sqlite" > /dev/null 2>&1 ||
    check_error "$ver: the refused run changed the store"
  release_accepts "$ver" "$b" "owner-$ver"
  [[ $CHECK_ERRORS -ne 0 ]] ||
    note "$ver: $n requests through $ver's own code (--openclaw; prune through its own cleanup), the same rows as this tool's writer after each; another release's package refused with 6, nothing changed; $ver reads the store back"
}
check_owner_route_of_2026_8_2() { owner_route_of 2026.8.2; }
check_owner_route_of_2026_9_5() { owner_route_of 2026.9.5; }
check_owner_route_of_2026_9_6() { owner_route_of 2026.9.6; }
CHECKS+=(owner_route_of_2026_8_2 owner_route_of_2026_9_5 owner_route_of_2026_9_6)

check_release_entry_writes_19() { release_entry_writes "$(set -- $RELEASE_MATRIX; echo "$1")"; }
check_release_entry_writes_21() { release_entry_writes "$(set -- $RELEASE_MATRIX; echo "${2:-$1}")"; }
CHECKS+=(release_entry_writes_19 release_entry_writes_21)

# release_reclaim: `reclaim` on each matrix release's store writes no row: after free pages were
# left in every agent database (checks/free-pages.mjs, as deleted sessions leave them), ours gives
# them back (incremental vacuum, as these releases also do), every row of every table equals the
# copy before, the schema stays the release's, and the release reads our store back.
check_release_reclaim() {
  local ver s before db a n=0
  for ver in $RELEASE_MATRIX; do
    s="$(copy_release "$ver" live "reclaim-$ver")"
    for db in "$s"/agents/*/agent/openclaw-agent.sqlite; do
      node_check free-pages.mjs "$db" 1048576 > /dev/null || check_error "$ver: could not free pages in $db"
    done
    before="$CHECK_DIR/stores/reclaim-before-$ver"; cp -a "$s" "$before"
    ours_run "reclaim-$ver.json" "$s" --json reclaim --all-agents || { check_error "$ver: ours reclaim exited $?: $(head -c 300 "reclaim-$ver.json")"; continue; }
    local bad
    bad="$(jsonq "reclaim-$ver.json" 'j.data.agents.filter(a => !(a.freePages > 0 && a.freePagesAfter === 0 && a.reclaimedBytes > 0)).map(a => a.agentId).join(" ")')"
    [[ -z "$bad" ]] || check_error "$ver: pages not given back in: $bad"
    for db in "$s"/agents/*/agent/openclaw-agent.sqlite; do
      a="$(basename "$(dirname "$(dirname "$db")")")"
      node_check compare-all-rows.mjs "$db" "$before/agents/$a/agent/openclaw-agent.sqlite" > "cmp-$ver-$a.txt" 2>&1 ||
        { sed 's/^/  /' "cmp-$ver-$a.txt" | head -n 8 >&2; check_error "$ver: reclaim changed rows of $a"; }
      n=$((n + 1))
    done
    node_check integrity.mjs "$s"/agents/*/agent/openclaw-agent.sqlite > "integrity-$ver.txt" 2>&1 ||
      check_error "$ver: integrity: $(head -n 3 "integrity-$ver.txt")"
    release_accepts "$ver" "$s" "reclaim-$ver"
    note "$ver: $(jsonq "reclaim-$ver.json" 'j.data.agents.reduce((t, a) => t + a.reclaimedBytes, 0)') bytes given back, same rows"
  done
  [[ $n -ge 6 ]] || check_error "only $n databases compared"
}
CHECKS+=(release_reclaim)

# release_prune VER KEYS STORE: `prune --enforce` on release VER's store against that release's own
# `openclaw sessions cleanup --enforce` (offline through --store) on copies with the same
# settings: age, stale dashboards, the entry cap, `--fix-dm-scope`, and the disk budget. The
# summary counts KEYS the same, then every row of every table and every archive file the same;
# under the budget, but for what ours keeps by design: the archives of the sessions this run
# removes, which OpenClaw's budget evicts again, and of the sessions archived by the cap that the
# budget deletes, which OpenClaw deletes without one (docs/openclaw/MAINTENANCE.md §3.3; its byte
# figures differ by its WAL, as explained there). The release reads each of our stores back.
# STORE is the path given as --store under the agent's directory; further arguments are cases
# of their own (AGENT|SETTINGS|OPTIONS).
release_prune() {
  local ver="$1" keys="$2" store="$3" a b rc i=0 agent m extra k theirs mine diffs
  shift 3
  local cases=(
    'research|{}|'
    'research|{"pruneAfter":"365d","maxEntries":3}|'
    'main|{"pruneAfter":"1d"}|--fix-missing --fix-dm-scope'
    'research|{"maxDiskBytes":"600kb"}|'
    "$@"
  )
  local c
  for c in "${cases[@]}"; do
    i=$((i + 1))
    IFS='|' read -r agent m extra <<< "$c"
    a="$(copy_release "$ver" live "prune-ours-$ver-$i")"; b="$(copy_release "$ver" live "prune-oc-$ver-$i")"
    set_maintenance "$a" "$m"; set_maintenance "$b" "$m"
    # shellcheck disable=SC2086
    rc=0; ocr_run "oc-$ver-$i.json" "$ver" "$b" sessions cleanup --enforce --agent "$agent" --store "$b/agents/$agent/$store" --json $extra || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$ver $m: openclaw sessions cleanup exited $rc"; continue; }
    # shellcheck disable=SC2086
    rc=0; ours_run "ours-$ver-$i.json" "$a" --json prune --agent "$agent" --enforce --yes $extra || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$ver $m: ours prune exited $rc: $(head -c 300 "ours-$ver-$i.json")"; continue; }
    diffs=""
    for k in $keys; do
      theirs="$(jsonq "oc-$ver-$i.json" "j.$k")"; mine="$(jsonq "ours-$ver-$i.json" "j.data.agents[0].cleanup.$k")"
      [[ "$theirs" == "$mine" ]] || diffs+="$k: openclaw $theirs, ours $mine; "
    done
    [[ -z "$diffs" ]] || check_error "$ver $m: counts differ: $diffs"
    # The budget's removals: OpenClaw's count includes the archives of this run it evicts.
    local ran; ran="$(jsonq "ours-$ver-$i.json" 'j.data.agents[0].cleanup.diskBudget ? j.data.agents[0].cleanup.diskBudget.overBudget : false')"
    local kept=0 opt=()
    if [[ "$ran" == true ]]; then
      # Ours keeps every archive it writes: of the sessions the plan removes, and of the
      # sessions archived by the cap that the budget deletes (which OpenClaw deletes without one).
      local removed
      removed="$(jsonq "ours-$ver-$i.json" 'j.data.agents[0].deleted.length')"
      kept=$(( $(ls "$a/agents/$agent/sessions" | grep -c '\.jsonl\.deleted\.' || true) -
        $(ls "$(release_store "$ver")/live/.openclaw/agents/$agent/sessions" | grep -c '\.jsonl\.deleted\.' || true) ))
      [[ "$(jsonq "oc-$ver-$i.json" 'j.diskBudget.removedFiles')" -ge "$removed" && "$kept" -ge "$removed" && "$kept" -gt 0 ]] ||
        check_error "$ver $m: OpenClaw's budget removed fewer files than the archives this run wrote"
      opt=(--ours-run-archives "$kept")
    fi
    node_check compare-all-rows.mjs "$a/agents/$agent/agent/openclaw-agent.sqlite" "$b/agents/$agent/agent/openclaw-agent.sqlite" "${opt[@]}" > "cmp-$ver-$i.txt" 2>&1 ||
      { sed 's/^/  /' "cmp-$ver-$i.txt" | head -n 12 >&2; check_error "$ver $m: the rows differ from openclaw@$ver's cleanup"; }
    # Files: the same, but for the archives of this run ours keeps under the budget.
    local stamp='s/\.deleted\.[^.]+\.[0-9]{3}Z\./.deleted.<stamp>./' only
    only="$(diff <(ls "$a/agents/$agent/sessions" | sed -E "$stamp" | sort) <(ls "$b/agents/$agent/sessions" | sed -E "$stamp" | sort) | grep '^[<>]' || true)"
    if [[ "$ran" == true ]]; then
      [[ -z "$(grep '^>' <<< "$only")" && "$(grep -c '^< .*\.jsonl\.deleted\.' <<< "$only")" == "$kept" && "$(grep -c '^<' <<< "$only")" == "$kept" ]] ||
        check_error "$ver $m: archive files differ beyond the $kept this run keeps: $(head -n 5 <<< "$only" | tr '\n' ' ')"
    else
      [[ -z "$only" ]] || check_error "$ver $m: archive files differ: $(head -n 5 <<< "$only" | tr '\n' ' ')"
    fi
    note "$ver $m $extra: $(tail -n 1 "cmp-$ver-$i.txt")"
    [[ $i -ne 1 && $i -ne ${#cases[@]} ]] || release_accepts "$ver" "$a" "prune-$ver-$i"
  done
}

# release_prune_21: 2026.9.5 plans and applies as 2026.9.6 does (age: machine-made sessions
# removed, the others archived; the cap archives).
check_release_prune_21() {
  release_prune "$(set -- $RELEASE_MATRIX; echo "${2:-$1}")" \
    "beforeCount afterCount missing dmScopeRetired modelRunPruned archived capArchived pruned capped" \
    agent/openclaw-agent.sqlite
}
CHECKS+=(release_prune_21)

# release_doctor_fix: `doctor --fix` on each matrix release's store against that release's own
# `openclaw doctor --fix --non-interactive`, fault set by fault set (checks/break-release.mjs:
# a label and a lineage column out of step; a lineage column out of step beside orphan rows, an
# identity in main, a window and events in work, so that foreign_key_check fails; unreadable
# entries, a non-canonical key and archive files, below). That doctor rewrites every entry and adds tables on any
# store, broken or not, so what it does about a fault is read off two runs of it: on a broken
# copy and on an unbroken one. Every row of an agent database equal: it repaired the fault
# there (its entry writer projects the columns again); not equal: it left the fault (while
# main's foreign keys fail, neither repairs a column in any database). Ours, on a third broken copy, must then leave every row of the unbroken store where
# the release repaired (on 21 but for the canonical-validation queue, which that doctor empties
# of every key: ours takes the repaired keys off it, and neither leaves them on it) and every
# row of the broken copy where the release left it; the release then lists, validates and
# reads back our store.
# The entries fault set (two unreadable entries in work, whose rows that doctor otherwise leaves)
# is compared in two parts: every row but the broken keys' must be as without the fault (the
# release's: as its doctor leaves the unbroken store; ours: as the unbroken store), and the broken
# keys' rows in every table (node, window, on 21 the validation queue) ours equal to the
# release's, which rebuilt them from the row's columns.
# 2026.9.1 to 2026.9.4 also write agent schema 19; their doctors act as 2026.8.2's on every fault
# set here (release_doctor_fix_19_of_2026_9_1 to _9_4), so ours makes the same repairs there.
release_doctor_fix() {
  local ver="$1" fault clean theirs ours broken db agent keys rc n=0 repaired left
  clean="$(copy_release "$ver" live "doctor-clean-$ver")"
  rc=0; ocr_run "oc-clean-$ver.txt" "$ver" "$clean" doctor --fix --non-interactive || rc=$?
  [[ $rc -eq 0 ]] || { check_error "$ver: openclaw doctor --fix exited $rc on its own unbroken store"; return 0; }
  for fault in columns foreign-keys entries; do
    broken="$(copy_release "$ver" live "doctor-broken-$ver-$fault")"
    node_check break-release.mjs "$broken" "$fault" > "faults-$ver-$fault.json" || { check_error "$ver $fault: could not break the store"; continue; }
    if [[ "$fault" == entries ]]; then
      node_check break-release.mjs "$broken" keys > "faults-$ver-keys.json" &&
        node_check break-release.mjs "$broken" archive-files > "faults-$ver-archive-files.json" || { check_error "$ver keys, archive-files: could not break the store"; continue; }
    fi
    theirs="$CHECK_DIR/stores/doctor-oc-$ver-$fault"; ours="$CHECK_DIR/stores/doctor-ours-$ver-$fault"
    mkdir -p "$theirs" "$ours"; cp -a "$broken" "$theirs/.openclaw"; cp -a "$broken" "$ours/.openclaw"
    theirs="$theirs/.openclaw"; ours="$ours/.openclaw"
    rc=0; ocr_run "oc-$ver-$fault.txt" "$ver" "$theirs" doctor --fix --non-interactive || rc=$?
    note "$ver $fault: openclaw doctor --fix exited $rc"
    # Exit 3: findings left for a human (the foreign keys, and what they stop).
    local want=0; [[ "$fault" != foreign-keys ]] || want=3
    rc=0; ours_run "ours-$ver-$fault.json" "$ours" --json doctor --fix --yes || rc=$?
    [[ $rc -eq $want ]] || { check_error "$ver $fault: ours doctor --fix exited $rc, not $want: $(head -c 300 "ours-$ver-$fault.json")"; continue; }
    if [[ "$fault" == entries ]]; then
      release_doctor_entries "$ver" "$clean" "$broken" "$theirs" "$ours"
      n=$((n + 3))
      continue
    fi
    repaired=""; left=""
    for db in "$ours"/agents/*/agent/openclaw-agent.sqlite; do
      agent="$(basename "$(dirname "$(dirname "$db")")")"
      if node_check compare-all-rows.mjs "$theirs/agents/$agent/agent/openclaw-agent.sqlite" "$clean/agents/$agent/agent/openclaw-agent.sqlite" > "rel-$ver-$fault-$agent.txt" 2>&1; then
        repaired+=" $agent"
        node_check compare-all-rows.mjs "$db" "$(release_store "$ver")/live/.openclaw/agents/$agent/agent/openclaw-agent.sqlite" --skip session_canonical_validation_pending > "cmp-$ver-$fault-$agent.txt" 2>&1 ||
          { sed 's/^/  /' "cmp-$ver-$fault-$agent.txt" | head -n 8 >&2; check_error "$ver $fault: openclaw@$ver repaired $agent; ours does not leave the unbroken rows"; }
        keys="$(jsonq "faults-$ver-$fault.json" "(j.agents['$agent'] || []).join(' ')")"
        if [[ -n "$keys" ]] && node_check sql-rows.mjs "$db" "SELECT name FROM sqlite_master WHERE name = 'session_canonical_validation_pending'" | grep -q pending; then
          for k in $keys; do
            [[ -z "$(node_check sql-rows.mjs "$db" "SELECT session_key FROM session_canonical_validation_pending WHERE session_key = '$k'")" ]] || check_error "$ver $fault: ours left the repaired $k on the validation queue"
            [[ -z "$(node_check sql-rows.mjs "$theirs/agents/$agent/agent/openclaw-agent.sqlite" "SELECT session_key FROM session_canonical_validation_pending WHERE session_key = '$k'")" ]] || check_error "$ver $fault: openclaw left the repaired $k on the validation queue"
          done
        fi
      else
        left+=" $agent"
        # Left: the broken columns are still as broken in the release's doctor's copy.
        for k in $(jsonq "faults-$ver-$fault.json" "(j.agents['$agent'] || []).join(' ')"); do
          local q="SELECT label, parent_session_key FROM session_nodes WHERE session_key = '$k'"
          [[ "$(node_check sql-rows.mjs "$theirs/agents/$agent/agent/openclaw-agent.sqlite" "$q")" == "$(node_check sql-rows.mjs "$broken/agents/$agent/agent/openclaw-agent.sqlite" "$q")" ]] ||
            check_error "$ver $fault: openclaw@$ver changed $k's columns in $agent, which it otherwise left"
        done
        node_check compare-all-rows.mjs "$db" "$broken/agents/$agent/agent/openclaw-agent.sqlite" > "cmp-$ver-$fault-$agent.txt" 2>&1 ||
          { sed 's/^/  /' "cmp-$ver-$fault-$agent.txt" | head -n 8 >&2; check_error "$ver $fault: openclaw@$ver left $agent as it was; ours changed it"; }
      fi
      n=$((n + 1))
    done
    # The fault sets are built to be repaired (columns) and left (foreign keys): a release
    # that did otherwise has changed, and this check no longer says what it did.
    case "$fault" in
      columns) [[ "$repaired" == *main* && "$repaired" == *research* ]] || check_error "$ver columns: openclaw@$ver no longer repairs main and research (repaired:$repaired; left:$left)" ;;
      foreign-keys) [[ "$left" == *main* && "$left" == *research* ]] || check_error "$ver foreign-keys: openclaw@$ver repaired main or research despite main's failing foreign keys (repaired:$repaired; left:$left)" ;;
    esac
    note "$ver $fault: openclaw@$ver repaired [$repaired ] left [$left ]; ours the same, every row"
    if [[ "$fault" == columns ]]; then
      release_accepts "$ver" "$ours" "doctor-$ver-$fault"
    else
      # The fault left: the release refuses to list its own doctor's store as it does ours.
      local r1=0 r2=0
      release_lists "$ver" "$theirs" "list-oc-$ver.json" || r1=$?
      release_lists "$ver" "$ours" "list-ours-$ver.json" || r2=$?
      [[ $r1 -ne 0 && $r1 -eq $r2 ]] || check_error "$ver $fault: openclaw@$ver lists its doctor's store with exit $r1, ours with $r2"
    fi
  done
  [[ $n -ge 9 ]] || check_error "$ver: only $n databases compared"
}
check_release_doctor_fix() {
  local ver
  for ver in $RELEASE_MATRIX; do release_doctor_fix "$ver"; done
}
check_release_doctor_fix_19_of_2026_9_1() { release_doctor_fix 2026.9.1; }
check_release_doctor_fix_19_of_2026_9_2() { release_doctor_fix 2026.9.2; }
check_release_doctor_fix_19_of_2026_9_3() { release_doctor_fix 2026.9.3; }
check_release_doctor_fix_19_of_2026_9_4() { release_doctor_fix 2026.9.4; }
CHECKS+=(release_doctor_fix release_doctor_fix_19_of_2026_9_1 release_doctor_fix_19_of_2026_9_2)
CHECKS+=(release_doctor_fix_19_of_2026_9_3 release_doctor_fix_19_of_2026_9_4)

# release_doctor_entries VER CLEAN BROKEN THEIRS OURS: the entries fault set of release_doctor_fix,
# with the keys and archive-files ones in the same store (work): a session under a non-canonical
# key, which the release moves to its canonical key, and a parent not canonical, which it
# rewrites normalized (their rows compared as the rebuilt entries');
# the archive files, which the release leaves as they are (a published file missing, a file
# without its row), and so does ours, leaving findings.
release_doctor_entries() {
  local ver="$1" clean="$2" broken="$3" theirs="$4" ours="$5" keys db="agents/work/agent/openclaw-agent.sqlite" agent q f
  local unbroken; unbroken="$(release_store "$ver")/live/.openclaw"
  keys="$(jsonq "faults-$ver-entries.json" "j.agents.work.join(',')")"
  q="SELECT count(*) FROM session_nodes WHERE session_key IN ('$(sed "s/,/','/g" <<< "$keys")') AND json_type(entry_json) = 'object' AND entry_valid = 1"
  [[ "$(node_check sql-rows.mjs "$theirs/$db" "$q")" == "[2]" ]] || check_error "$ver entries: openclaw@$ver no longer rebuilds both unreadable entries"
  local moved; moved="$(jsonq "faults-$ver-keys.json" "j.moved.join(',')")"
  q="SELECT group_concat(session_key) FROM session_nodes WHERE session_key IN ('$(sed "s/,/','/g" <<< "$moved")')"
  [[ "$(node_check sql-rows.mjs "$theirs/$db" "$q")" == "[\"${moved%%,*}\"]" ]] || check_error "$ver keys: openclaw@$ver no longer moves ${moved#*,} to ${moved%%,*}"
  q="SELECT json_extract(entry_json, '$.parentSessionKey'), parent_session_key FROM session_nodes WHERE session_key = 'agent:work:scratch-2'"
  [[ "$(node_check sql-rows.mjs "$theirs/$db" "$q")" == '["agent:work:main","agent:work:main"]' ]] || check_error "$ver keys: openclaw@$ver no longer normalizes scratch-2's parent"
  keys+=",$(jsonq "faults-$ver-keys.json" "j.agents.work.join(',')")"
  node_check compare-all-rows.mjs "$theirs/$db" "$clean/$db" --except-keys "$keys" > "rel-$ver-entries.txt" 2>&1 ||
    { sed 's/^/  /' "rel-$ver-entries.txt" | head -n 8 >&2; check_error "$ver entries: openclaw@$ver changed more than the unreadable entries' rows"; }
  node_check compare-all-rows.mjs "$ours/$db" "$unbroken/$db" --except-keys "$keys" > "cmp-$ver-entries-rest.txt" 2>&1 ||
    { sed 's/^/  /' "cmp-$ver-entries-rest.txt" | head -n 8 >&2; check_error "$ver entries: ours changed more than the unreadable entries' rows"; }
  node_check compare-all-rows.mjs "$ours/$db" "$theirs/$db" --only-keys "$keys" > "cmp-$ver-entries-keys.txt" 2>&1 ||
    { sed 's/^/  /' "cmp-$ver-entries-keys.txt" | head -n 8 >&2; check_error "$ver entries: the rebuilt rows differ from openclaw@$ver's"; }
  for agent in main research; do
    node_check compare-all-rows.mjs "$ours/agents/$agent/agent/openclaw-agent.sqlite" "$unbroken/agents/$agent/agent/openclaw-agent.sqlite" > "cmp-$ver-entries-$agent.txt" 2>&1 ||
      { sed 's/^/  /' "cmp-$ver-entries-$agent.txt" | head -n 8 >&2; check_error "$ver entries: ours changed $agent, which has no fault"; }
  done
  for f in "$theirs" "$ours"; do
    diff <(ls "$broken/agents/work/sessions") <(ls "$f/agents/work/sessions") > files.diff ||
      check_error "$ver archive-files: $f: the archive files changed: $(head -n 4 files.diff | tr '\n' ' ')"
  done
  local removed unrowed
  removed="$(jsonq "faults-$ver-archive-files.json" 'j.files.removed')"; unrowed="$(jsonq "faults-$ver-archive-files.json" 'j.files.unrowed')"
  for f in "$removed" "$unrowed"; do
    [[ "$(jsonq "ours-$ver-entries.json" "j.data.findings.filter(x => x.check === 'archive-files' && x.message.includes('$f') && !x.fixable).length")" == 1 ]] ||
      check_error "$ver archive-files: ours does not leave a finding for $f"
  done
  note "$ver entries, keys: openclaw@$ver rebuilt and moved [${keys//,/ }]; ours the same rows ($(tail -n 1 "cmp-$ver-entries-keys.txt")), every other row untouched"
  release_accepts "$ver" "$ours" "doctor-$ver-entries"
}

# release_prune_19: 2026.8.2's own rules (docs/openclaw/RELEASES.md §7): every stale entry
# removed, a stale dashboard archived without a reason, the cap removing the oldest updatedAt.
# Its summary has no capArchived: ours must report none. Its store is named by its own default
# path, sessions/sessions.json (what its Gateway passes): 2026.8.2 measures the disk budget and
# looks for retained files in the directory of that path, so given the database's path it never
# sees sessions/ and keeps its .reset files, which it removes when it runs as it does by itself.
check_release_prune_19() {
  local ver; ver="$(set -- $RELEASE_MATRIX; echo "$1")"
  release_prune "$ver" "beforeCount afterCount missing dmScopeRetired modelRunPruned archived pruned capped" \
    sessions/sessions.json
  local f bad=""
  for f in ours-"$ver"-*.json; do
    [[ "$(jsonq "$f" 'j.data.agents[0].cleanup.capArchived')" == 0 ]] || bad+="$f "
  done
  [[ -z "$bad" ]] || check_error "$ver: ours archived by the cap, which 2026.8.x never does: $bad"
}
CHECKS+=(release_prune_19)

# release_prune_19_of_2026_9_3, release_prune_19_of_2026_9_4: 2026.9.3 and 2026.9.4 write agent
# schema 19 (beside state 16 and 17) but prune as 2026.9.5 does; ours follows them there
# (docs/openclaw/RELEASES.md §7). Their stores are generated on first use, as the matrix's are.
# Named by their default store path, as 2026.8.2's (their budget, too, looks in the directory of
# the path it is given).
release_prune_as_2026_9_5() {
  release_prune "$1" "beforeCount afterCount missing dmScopeRetired modelRunPruned archived capArchived pruned capped" \
    sessions/sessions.json
}
check_release_prune_19_of_2026_9_3() { release_prune_as_2026_9_5 2026.9.3; }
# release_prune_19_of_2026_9_1, release_prune_19_of_2026_9_2: 2026.9.1 and 2026.9.2 write agent
# schema 19 beside state 15, as 2026.8.x does, and prune by their own rules (docs/openclaw/
# RELEASES.md §7): 2026.9.1 by 2026.8.2's, its stale entries removed oldest first; 2026.9.2 with
# 2026.8.2's age and preservation but 2026.9.5's cap, which archives. The same four settings
# against their own cleanup, named by their default store path as the others.
check_release_prune_19_of_2026_9_1() {
  release_prune 2026.9.1 "beforeCount afterCount missing dmScopeRetired modelRunPruned archived pruned capped" \
    sessions/sessions.json
  local f bad=""
  for f in ours-2026.9.1-*.json; do
    [[ "$(jsonq "$f" 'j.data.agents[0].cleanup.capArchived')" == 0 ]] || bad+="$f "
  done
  [[ -z "$bad" ]] || check_error "2026.9.1: ours archived by the cap, which 2026.9.1 never does: $bad"
}
check_release_prune_19_of_2026_9_2() {
  # And the cap's archives under the disk budget, which from 2026.9.2 may delete them.
  release_prune 2026.9.2 "beforeCount afterCount missing dmScopeRetired modelRunPruned archived capArchived pruned capped" \
    sessions/sessions.json 'research|{"pruneAfter":"365d","maxEntries":3,"maxDiskBytes":"600kb"}|'
}
CHECKS+=(release_prune_19_of_2026_9_1 release_prune_19_of_2026_9_2)
check_release_prune_19_of_2026_9_4() { release_prune_as_2026_9_5 2026.9.4; }
CHECKS+=(release_prune_19_of_2026_9_3 release_prune_19_of_2026_9_4)

# release_writes_of_2026_9_X, release_restores_of_2026_9_X: the other owners of agent schema 19
# (2026.9.1 to 2026.9.4, beside state 15 to 17) write entries, delete and snapshot with their own
# SDK and CLI; the same comparisons as release_entry_writes_19, undelete_on_release_stores,
# restore_session_on_release_stores and backup_on_release_stores (checks-releases.sh), on a store
# their own code wrote (generated on first use, as the matrix's are). 2026.9.2 and 2026.9.3, between
# them, gave the same result run once; they are left out for the suite's time (~3 min a release).
release_writes_of() { release_entry_writes "$1"; release_history "$1" undelete; }
release_restores_of() {
  release_history "$1" restore
  BACKUP_COMPARED=0; backup_on_release "$1"
  note "$1: $BACKUP_COMPARED snapshots compared with its own, accepted both ways"
}
check_release_writes_of_2026_9_1() { release_writes_of 2026.9.1; }
check_release_writes_of_2026_9_4() { release_writes_of 2026.9.4; }
check_release_restores_of_2026_9_1() { release_restores_of 2026.9.1; }
check_release_restores_of_2026_9_4() { release_restores_of 2026.9.4; }
CHECKS+=(release_writes_of_2026_9_1 release_writes_of_2026_9_4 release_restores_of_2026_9_1 release_restores_of_2026_9_4)
