# shellcheck shell=bash
# Checks of the mutating commands and custody against the real OpenClaw (issues: custody,
# patch/archive/delete, snapshots, doctor). Sourced by run.sh after its own checks.

# ---- custody: OpenClaw and openclaw-sessions exclude each other (openclaw/OPERATIONS.md §7) ---
# ours_bg STATE ARGS... : our binary in the background in its own session (pid = process group),
# so a test can kill it and everything it started.
ours_bg() {
  local state="$1"; shift
  setsid "${NEUTRAL_ENV[@]}" HOME="$WORK/home-ours" "$OURS" --state-dir "$state" "$@" < /dev/null &
}
wait_for_file() { local f="$1" i; for i in $(seq 1 200); do [[ -e "$f" ]] && return 0; sleep 0.1; done; return 1; }

check_custody_ours_blocks_openclaw() {
  local s hold rc
  s="$(copy_store live)"
  ours_bg "$s" custody run -- sleep 60 > hold.out 2> hold.err; hold=$!
  wait_for_file "$s/tmp/openclaw-$(id -u)/gateway.state.lock" || check_error "our custody never appeared"
  rc=0; oc_run import.out "$s" doctor --session-sqlite import --session-sqlite-all-agents || rc=$?
  [[ $rc -ne 0 ]] || check_error "openclaw doctor --session-sqlite import ran while we held custody"
  grep -q "owns this OpenClaw state directory" import.out import.out.err || check_error "import did not say the state dir is owned: $(tail -n 2 import.out.err)"
  note "doctor import refused: exit $rc, '$(grep -ho 'Cannot run[^.]*' import.out import.out.err | head -n 1)'"
  rc=0; oc_run gateway.out "$s" gateway run --bind loopback --port "$(free_port)" --allow-unconfigured --auth none || rc=$?
  [[ $rc -ne 0 ]] || check_error "openclaw gateway run started while we held custody"
  grep -q "another OpenClaw process owns gateway-lifecycle" gateway.out gateway.out.err || check_error "gateway did not report the lifecycle owner: $(tail -n 2 gateway.out.err)"
  note "gateway run refused: exit $rc"
  kill -TERM "$hold" 2>/dev/null || true; wait "$hold" 2>/dev/null || true
  [[ ! -e "$s/tmp/openclaw-$(id -u)/gateway.state.lock" ]] || check_error "SIGTERM did not release our custody"
  # After a kill -9 of our holder the next run proceeds and OpenClaw can start again.
  ours_bg "$s" custody run -- sleep 60 > hold2.out 2> hold2.err; hold=$!
  wait_for_file "$s/tmp/openclaw-$(id -u)/gateway.state.lock" || check_error "second custody never appeared"
  sleep 0.3
  kill -9 -- "-$hold"; wait "$hold" 2>/dev/null || true
  rc=0; ours_run after.json "$s" custody run -- true || rc=$?
  [[ $rc -eq 0 ]] || check_error "after kill -9 our next run exited $rc"
  grep -q "reclaimed a stale lock" after.json.err || check_error "the stale lock was not reported as reclaimed"
  rc=0; oc_run import2.out "$s" doctor --session-sqlite inspect --session-sqlite-all-agents || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw doctor inspect failed after our crash: exit $rc"
}
CHECKS+=(custody_ours_blocks_openclaw)

check_custody_openclaw_blocks_ours() {
  local s gw rc args
  s="$(copy_store live)"
  # In its own session, so the whole Gateway process tree can be killed at the end.
  setsid "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" OPENCLAW_STATE_DIR="$s" \
    OPENCLAW_NO_RESPAWN=1 "$HARNESS/oc" gateway run --bind loopback --port "$(free_port)" --allow-unconfigured --auth none \
    > gw.out 2> gw.err < /dev/null & gw=$!
  # The Gateway first runs its own maintenance, then holds the state dir as role gateway.
  local i ok=0
  for i in $(seq 1 600); do
    if grep -q '"role": "gateway"\|cronOwnerProjection' "$s/tmp/openclaw-$(id -u)/gateway.state.lock" 2>/dev/null; then ok=1; break; fi
    sleep 0.1
  done
  [[ $ok -eq 1 ]] || { kill -9 -- "-$gw" 2>/dev/null; check_skip "openclaw gateway did not come up here: $(tail -n 3 gw.err | tr '\n' ' ')"; }
  local cmds=(
    "patch agent:main:pinned-notes --set label=\"X\""
    "archive agent:main:telegram:direct:123454"
    "unarchive agent:main:scratch-2"
    "delete agent:main:pinned-notes --yes"
    "custody run -- true"
  )
  for args in "${cmds[@]}"; do
    rc=0
    eval "ours \"\$s\" --json $args" > out.json 2> out.err || rc=$?
    [[ $rc -eq 75 ]] || check_error "$args: exit $rc, expected 75"
    [[ "$(jsonq out.json 'j.error.code' 2>/dev/null)" == OWNER_UNAVAILABLE ]] || check_error "$args: not OWNER_UNAVAILABLE: $(head -c 300 out.json)"
  done
  ours_run list.json "$s" list --all-agents --json --limit all || check_error "list failed beside a live Gateway"
  kill -9 -- "-$gw" 2>/dev/null || true; wait "$gw" 2>/dev/null || true
  # The Gateway itself keeps writing (WAL, its own maintenance): judge what the refused commands
  # would have changed instead of bytes.
  local pinned telegram
  pinned="$(jsonq list.json 'JSON.stringify(j.data.find(r=>r.sessionKey==="agent:main:pinned-notes")?.entry?.label ?? null)')"
  telegram="$(jsonq list.json 'j.data.find(r=>r.sessionKey==="agent:main:telegram:direct:123454")?.entry?.archiveReason ?? "none"')"
  [[ "$pinned" != null && "$pinned" != '"X"' ]] || check_error "pinned-notes was deleted or patched: label $pinned"
  [[ "$telegram" != manual ]] || check_error "telegram direct was archived"
  note "every mutating command exited 75 beside a running Gateway; readers worked"
}
CHECKS+=(custody_openclaw_blocks_ours)

# ---- patch, archive, delete: the same rows as OpenClaw's SDK (openclaw/OPERATIONS.md §1-§3) ---
check_mutations_match_sdk() {
  local a b key n=0 agent=main
  a="$(copy_store live ours)"; b="$(copy_store live openclaw)"
  local db_a="$a/agents/$agent/agent/openclaw-agent.sqlite" db_b="$b/agents/$agent/agent/openclaw-agent.sqlite"
  local keys; keys="$(node_check list-keys.mjs "$db_a")"
  for key in $keys; do
    case "$key" in *:scratch-1) continue ;; esac   # modelSelectionLocked: refused by both
    ours_run p.json "$a" patch "$key" --set 'label="Ops '"$n"'"' --set 'displayName="  Named  "' --set 'customField={"n":1}' --allow-unknown-field || check_error "ours patch $key"
    oc_sdk_mutate "$b" patch "$agent" "$key" '{"label":"Ops '"$n"'","displayName":"Named","customField":{"n":1}}' > s.json || check_error "sdk patch $key"
    node_check compare-stores.mjs "$db_a" "$db_b" "$key" || check_error "patch $key differs"
    n=$((n + 1))
  done
  [[ $n -ge 10 ]] || check_error "patch: only $n sessions compared (the fixture's main agent has 16)"
  note "patch: $n sessions compared"
  # archive, then unarchive, on agent work, as `openclaw sessions archive` asks OpenClaw's
  # Gateway to (sdk-mutate.mjs archive|unarchive: the same entry change through its SDK).
  local w=0 wa wb
  wa="$a/agents/work/agent/openclaw-agent.sqlite"; wb="$b/agents/work/agent/openclaw-agent.sqlite"
  # Sessions not archived yet (archiving an archived one is a no-op on both sides, compared by
  # noop_archive_matches_openclaw), not locked, not the main session.
  ours_run work-list.json "$a" --agent work list --json --limit all || check_error "ours list --agent work"
  for key in $(jsonq work-list.json 'j.data.filter(r=>!r.archived && !r.locked && !/:main$/.test(r.sessionKey)).map(r=>r.sessionKey).join(" ")'); do
    for op in archive unarchive; do
      ours_run ar.json "$a" "$op" "$key" || check_error "ours $op $key"
      oc_sdk_mutate "$b" "$op" work "$key" > s.json || check_error "sdk $op $key"
      node_check compare-stores.mjs "$wa" "$wb" "$key" || check_error "$op $key differs"
    done
    w=$((w + 1))
    [[ $w -lt 4 ]] || break
  done
  [[ $w -ge 4 ]] || check_error "archive/unarchive: only $w sessions compared"
  note "archive and unarchive: $w sessions compared"
  local d=0
  for key in $keys; do
    # scratch-1 is locked; the main session is refused by OpenClaw's Gateway and by us (the
    # SDK call below has no such guard: main_session_refused compares the refusals).
    case "$key" in *:scratch-1|*:main) continue ;; esac
    ours_run d.json "$a" delete "$key" --yes || check_error "ours delete $key"
    oc_sdk_mutate "$b" delete "$agent" "$key" > s.json || check_error "sdk delete $key"
    node_check compare-stores.mjs "$db_a" "$db_b" "$key" || check_error "delete $key differs"
    d=$((d + 1))
    [[ $d -lt 8 ]] || break
  done
  diff <(ls "$a/agents/$agent/sessions" | sed -E 's/\.deleted\.[^.]+\.[0-9]{3}Z\./.deleted.<stamp>./' | sort) \
       <(ls "$b/agents/$agent/sessions" | sed -E 's/\.deleted\.[^.]+\.[0-9]{3}Z\./.deleted.<stamp>./' | sort) > files.diff ||
    check_error "archive files differ: $(head -n 5 files.diff | tr '\n' ' ')"
  [[ $d -ge 8 ]] || check_error "delete: only $d sessions compared"
  note "delete: $d sessions compared (rows, archive rows with decompressed JSONL, published files)"
  openclaw_accepts "$a" after-ours
}
CHECKS+=(mutations_match_sdk)

# ---- snapshots interchange with OpenClaw's (openclaw/OPERATIONS.md §6) ------------------------
check_backup_interop() {
  local s repo snap rc theirs n=0
  s="$(copy_store live)"
  repo="$CHECK_DIR/private/ours"; mkdir -p -m 700 "$CHECK_DIR/private"
  ours_run create.json "$s" backup create --all-agents --verify --json --repository "$repo" || check_error "ours backup create"
  for snap in $(jsonq create.json 'j.data.snapshots.map(s=>s.path).join(" ")'); do
    n=$((n + 1))
    rc=0; oc_run v.json "$s" backup sqlite verify "$snap" --json || rc=$?
    [[ $rc -eq 0 && "$(jsonq v.json 'j.ok')" == true ]] || check_error "openclaw backup sqlite verify rejected $snap: $(cat v.json v.json.err | head -c 400)"
    local agent; agent="$(jsonq "$snap/manifest.json" 'j.database.agentId')"
    rc=0; oc_run pf.json "$s" database preflight-agent "$snap/database.sqlite" --agent-id "$agent" --json || rc=$?
    [[ "$(jsonq pf.json 'j.status')" == exact ]] || check_error "preflight-agent on our snapshot of $agent: $(jsonq pf.json 'j.status')"
    rc=0; oc_run r.json "$s" backup sqlite restore "$snap" --target "$CHECK_DIR/private/oc-restored-$agent.sqlite" --json || rc=$?
    [[ $rc -eq 0 ]] || check_error "openclaw backup sqlite restore of our snapshot failed: exit $rc"
  done
  rc=0; oc_run theirs.json "$s" backup sqlite create --agent work --repository "$CHECK_DIR/private/theirs" --json || rc=$?
  theirs="$(jsonq theirs.json 'j.snapshotPath')"
  ours_run ov.json "$s" backup verify "$theirs" --json || check_error "our verify rejected OpenClaw's snapshot"
  ours_run or.json "$s" backup restore "$theirs" --target "$CHECK_DIR/private/ours-restored.sqlite" || check_error "our restore of OpenClaw's snapshot failed"
  cmp -s "$theirs/database.sqlite" "$CHECK_DIR/private/ours-restored.sqlite" || check_error "restored bytes differ from the snapshot"
  [[ $n -ge 3 ]] || check_error "only $n of our snapshots to check (one per agent of the store: 3)"
  note "$n of our snapshots verified/restored by OpenClaw (preflight exact); OpenClaw's verified/restored by us"
}
CHECKS+=(backup_interop)

# ---- doctor --fix leaves a store OpenClaw accepts ---------------------------------------------
check_doctor_fix_accepted() {
  local s rc
  s="$(copy_store live)"
  node_check break-store.mjs "$s/agents/main/agent/openclaw-agent.sqlite" || check_error "could not build the faults"
  rc=0; oc_run before.json "$s" sessions --all-agents --json --limit all || rc=$?
  [[ $rc -ne 0 ]] || check_error "OpenClaw read the broken store (the fault did not bite)"
  rc=0; ours_run fix.json "$s" doctor --fix --yes --json || rc=$?
  note "doctor --fix: exit $rc, $(jsonq fix.json 'j.data.fixed.length') repair(s)"
  openclaw_accepts "$s" after-fix
}
CHECKS+=(doctor_fix_accepted)

# ---- prune selects what OpenClaw's maintenance selects (openclaw/OPERATIONS.md §3) --------------
# The research agent's rows are re-timed relative to now (checks/prune-spec-research.json: 24
# rows, synthetic and protected kinds, ties, pins, running, recent), then each maintenance
# setting is planned by OpenClaw's own cleanup code (checks/oc-cleanup-plan.mjs) and by ours.
PRUNE_SETTINGS=(
  '{}'
  '{"pruneAfter":"1d"}'
  '{"maxEntries":5}'
  '{"maxEntries":17}'
  '{"maxEntries":18}'
  '{"maxEntries":17,"archiveDashboardAfter":false}'
  '{"pruneAfter":"1d","archiveDashboardAfter":false}'
  '{"pruneAfter":"1d","preserveRecent":"2d"}'
  '{"pruneAfter":1.5}'
  '{"pruneAfter":"1d20h"}'
)
set_maintenance() { # STATE JSON
  node_check set-maintenance.mjs "$1" "$2"
}
check_prune_matches_openclaw() {
  local base s i=0 m rc total=0
  # The scenario names the committed fixture's keys (tests/fixtures), so it starts from that store.
  base="$CHECK_DIR/stores/base/.openclaw"; mkdir -p "$(dirname "$base")"
  cp -a "$REPO_ROOT/tests/fixtures/openclaw-2026.9.6/live/.openclaw" "$base"; chmod -R u+w "$base"
  oc_sdk "$base" prune-retime.mjs "$base" "$REF_ROOT/checks/prune-spec-research.json" > retime.json || check_error "re-timing failed"
  # Both planners read the re-timing instant as "now", so a slow machine cannot move a row across
  # a threshold between the re-timing and either plan.
  local now; now="$(jsonq retime.json 'j.now')"
  [[ "$now" =~ ^[0-9]+$ ]] || check_error "re-timing printed no instant"
  for m in "${PRUNE_SETTINGS[@]}"; do
    i=$((i + 1))
    s="$CHECK_DIR/stores/s$i/.openclaw"; mkdir -p "$(dirname "$s")"; cp -a "$base" "$s"
    set_maintenance "$s" "$m"
    rc=0; PLAN_NOW_MS="$now" oc_sdk "$s" oc-cleanup-plan.mjs research > "oc-$i.json" 2> "oc-$i.err" || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$m: OpenClaw's planner failed: $(tail -n 2 "oc-$i.err")"; continue; }
    s="$CHECK_DIR/stores/o$i/.openclaw"; mkdir -p "$(dirname "$s")"; cp -a "$base" "$s"
    set_maintenance "$s" "$m"
    OURS_NOW_MS="$now" ours_run "ours-$i.json" "$s" prune --agent research --dry-run --json || check_error "$m: ours exited $?"
    node_check prune-compare.mjs "oc-$i.json" "ours-$i.json" research > "cmp-$i.txt" 2>&1 || { cat "cmp-$i.txt" >&2; check_error "$m: plans differ"; }
    total=$((total + $(jsonq "ours-$i.json" 'j.data.agents[0].actions.length')))
  done
  [[ $total -gt 30 ]] || check_error "the settings did not take effect (only $total actions planned in all)"
  note "${#PRUNE_SETTINGS[@]} settings, $total planned actions, same keys in every category"
  # Applied: after our prune OpenClaw lists exactly the sessions its own enforce run keeps.
  m='{"pruneAfter":"1d","maxEntries":12}'
  local ours_s oc_s
  ours_s="$CHECK_DIR/stores/apply-ours/.openclaw"; mkdir -p "$(dirname "$ours_s")"; cp -a "$base" "$ours_s"; set_maintenance "$ours_s" "$m"
  oc_s="$CHECK_DIR/stores/apply-oc/.openclaw"; mkdir -p "$(dirname "$oc_s")"; cp -a "$base" "$oc_s"; set_maintenance "$oc_s" "$m"
  ours_run applied.json "$ours_s" prune --agent research --yes --json || check_error "ours prune exited $?"
  rc=0; oc_run oc-applied.json "$oc_s" sessions cleanup --enforce --agent research --store "$oc_s/agents/research/agent/openclaw-agent.sqlite" --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw sessions cleanup --enforce exited $rc"
  oc_run list-ours.json "$ours_s" sessions --agent research --json --limit all || check_error "OpenClaw cannot list our pruned store"
  oc_run list-oc.json "$oc_s" sessions --agent research --json --limit all || check_error "OpenClaw cannot list its pruned store"
  local a b
  a="$(jsonq list-ours.json 'j.sessions.map(s=>s.key).sort().join(" ")')"
  b="$(jsonq list-oc.json 'j.sessions.map(s=>s.key).sort().join(" ")')"
  [[ "$a" == "$b" ]] || check_error "survivors differ: ours [$a] / openclaw [$b]"
  node_check compare-archived.mjs "$ours_s/agents/research/agent/openclaw-agent.sqlite" "$oc_s/agents/research/agent/openclaw-agent.sqlite" || check_error "archive reasons differ"
  openclaw_accepts "$ours_s" after-prune
  note "applied: same survivors and archive reasons as openclaw sessions cleanup --enforce"
}
CHECKS+=(prune_matches_openclaw)

# ---- transcript delta cursors: OpenClaw's page as OpenClaw pages them, malformed ones reset ----
# (SPEC §5, docs/openclaw/READERS.md). OpenClaw's SDK reader answers its own cursor with a
# page and a malformed one with `reset`/`invalid_cursor`; ours answers every cursor as OpenClaw
# does, and the pages fetched on from an OpenClaw-issued cursor are OpenClaw's (events, cursors,
# hasMore). Our own cursor carries its store: on another copy it resets with `scope_mismatch`.
check_delta_cursors_match_openclaw() {
  local s key=agent:main:pinned-notes issued c ours_kind ours_reason oc_kind oc_reason next i other
  s="$(copy_store live openclaw)"
  oc_sdk "$s" sdk-delta.mjs main "$key" > first.json 2> first.err || { check_error "sdk delta: $(tail -n 3 first.err)"; return 0; }
  issued="$(jsonq first.json 'j.issued')"
  [[ -n "$issued" && "$issued" != undefined ]] || { check_error "OpenClaw issued no cursor"; return 0; }
  # OpenClaw decodes base64url leniently (Node's Buffer.from): its cursor with a stray
  # trailing character or padding may still be its cursor; ours must answer the same.
  local long; long="$(printf 'A%.0s' $(seq 1 5000))"
  local cursors=('garbage!' 'e30' 'bm90IGpzb24' "$long" "$issued" "${issued}A" "${issued}==" "${issued:0:10}!${issued:10}")
  oc_sdk "$s" sdk-delta.mjs main "$key" --each "${cursors[@]}" > oc-each.jsonl 2> oc-each.err || { check_error "sdk delta --each: $(tail -n 3 oc-each.err)"; return 0; }
  [[ "$(sed -n 5p oc-each.jsonl)" == *'"kind":"page"'* ]] || check_error "OpenClaw did not page its own cursor: $(sed -n 5p oc-each.jsonl)"
  i=0
  for c in "${cursors[@]}"; do
    i=$((i + 1)); sed -n "${i}p" oc-each.jsonl > oc.json
    ours_run ours.json "$s" --json transcript delta "$key" --cursor "$c" || { check_error "ours delta $c"; continue; }
    oc_kind="$(jsonq oc.json 'j.kind')"; oc_reason="$(jsonq oc.json 'j.reason ?? ""')"
    ours_kind="$(jsonq ours.json 'j.data.kind')"; ours_reason="$(jsonq ours.json 'j.data.reason ?? ""')"
    [[ "$ours_kind/$ours_reason" == "$oc_kind/$oc_reason" ]] || check_error "cursor ${c:0:40}: OpenClaw $oc_kind/$oc_reason, ours $ours_kind/$ours_reason"
  done
  # Page on from OpenClaw's cursor, 3 events a page, with both readers: the same pages.
  oc_sdk "$s" sdk-delta.mjs main "$key" "$issued" 3 > oc-walk.json 2> oc-walk.err || { check_error "sdk delta walk: $(tail -n 3 oc-walk.err)"; return 0; }
  : > ours-walk.jsonl; next="$issued"
  for ((i = 0; i < 1000; i++)); do
    ours_run page.json "$s" --json transcript delta "$key" --max-events 3 --cursor "$next" || { check_error "ours delta page $i"; break; }
    cat page.json >> ours-walk.jsonl; echo >> ours-walk.jsonl
    [[ "$(jsonq page.json 'j.data.kind + " " + j.data.hasMore')" == "page true" ]] || break
    next="$(jsonq page.json 'j.data.cursor')"
  done
  node_check compare-delta-pages.mjs oc-walk.json ours-walk.jsonl > walk.txt 2>&1 || check_error "pages from OpenClaw's cursor differ: $(tail -n 1 walk.txt)"
  # The visible reader too, from the cursor of OpenClaw's first visible page of 3 messages.
  oc_sdk "$s" sdk-delta.mjs main "$key" "" 3 visible > oc-vwalk.json 2> oc-vwalk.err || { check_error "sdk visible walk: $(tail -n 3 oc-vwalk.err)"; return 0; }
  : > ours-vwalk.jsonl; next="$(jsonq oc-vwalk.json 'j.pages[0].start')"
  for ((i = 0; i < 1000; i++)); do
    ours_run page.json "$s" --json transcript delta "$key" --visible --max-events 3 --cursor "$next" || { check_error "ours visible delta page $i"; break; }
    cat page.json >> ours-vwalk.jsonl; echo >> ours-vwalk.jsonl
    [[ "$(jsonq page.json 'j.data.kind + " " + j.data.hasMore')" == "page true" ]] || break
    next="$(jsonq page.json 'j.data.cursor')"
  done
  node_check compare-delta-pages.mjs oc-vwalk.json ours-vwalk.jsonl > vwalk.txt 2>&1 || check_error "visible pages from OpenClaw's cursor differ: $(tail -n 1 vwalk.txt)"
  # Our own cursor on another copy of the store: out of scope there.
  ours_run own.json "$s" --json transcript delta "$key" --max-events 2 || check_error "ours first page"
  other="$(copy_store live other)"
  ours_run there.json "$other" --json transcript delta "$key" --cursor "$(jsonq own.json 'j.data.cursor')" || check_error "ours delta on the other copy"
  [[ "$(jsonq there.json 'j.data.kind + "/" + j.data.reason')" == reset/scope_mismatch ]] || check_error "our cursor on another store: $(jsonq there.json 'j.data.kind + "/" + j.data.reason')"
  note "8 cursors answered as OpenClaw answers them; from OpenClaw's cursor: raw $(cat walk.txt), visible $(cat vwalk.txt); our cursor on another store: reset/scope_mismatch"
}
CHECKS+=(delta_cursors_match_openclaw)

# ---- the main session: OpenClaw's refusals are ours ----------------------------------------------
# (docs/openclaw/REFUSALS.md). OpenClaw's own Gateway handlers, run in-process
# (checks/gateway-method.mjs: `sessions.delete`, and `sessions.patch` with `archived: true` as
# `openclaw sessions archive` sends it), refuse the agent's main session; ours refuses the same
# words with result `refused` (a `patch --set archivedAt=...`: its error), exit 5, and writes
# nothing.
check_main_session_refused() {
  local s before cases i words method params oc_msg rc result reason
  s="$(copy_store live openclaw)"
  # words TAB our command TAB OpenClaw's method TAB its params
  cases=(
    $'main\tdelete\tsessions.delete\t{"key":"main"}'
    $'AGENT:MAIN:MAIN\tdelete\tsessions.delete\t{"key":"AGENT:MAIN:MAIN"}'
    $'agent:work:main\tdelete\tsessions.delete\t{"key":"agent:work:main"}'
    $'agent:main:main\tarchive\tsessions.patch\t{"key":"agent:main:main","archived":true}'
    $'agent:main:main\tpatch\tsessions.patch\t{"key":"agent:main:main","archived":true}'
    $'main\tpatch-dry\tsessions.patch\t{"key":"main","archived":true}'
  )
  local gw_args=()
  for c in "${cases[@]}"; do IFS=$'\t' read -r words cmd method params <<< "$c"; gw_args+=("$method" "$params"); done
  oc_sdk "$s" gateway-method.mjs "${gw_args[@]}" > oc.jsonl 2> oc.err || { check_error "gateway handlers: $(tail -n 3 oc.err)"; return 0; }
  before="$(tree_manifest "$s" | grep -v ' ./tmp/')"   # after OpenClaw's run (its quarantine db)
  i=0
  for c in "${cases[@]}"; do
    IFS=$'\t' read -r words cmd method params <<< "$c"
    i=$((i + 1)); sed -n "${i}p" oc.jsonl > oc.json
    [[ "$(jsonq oc.json 'j.ok + " " + j.error?.code')" == "false INVALID_REQUEST" ]] || { check_error "$method $params: OpenClaw answered $(cat oc.json)"; continue; }
    oc_msg="$(jsonq oc.json 'j.error.message')"
    rc=0
    if [[ "$cmd" == patch* ]]; then
      # A patch that sets archivedAt archives: one target, so the refusal is the error.
      local dry=(); [[ "$cmd" == patch-dry ]] && dry=(--dry-run)
      ours_run ours.json "$s" --json patch "$words" --set archivedAt=1780000000000 --yes "${dry[@]}" || rc=$?
      result="$(jsonq ours.json 'j.error?.code === "LOCKED_SESSION" ? "refused" : JSON.stringify(j)')"; reason="$(jsonq ours.json 'j.error?.message')"
    else
      ours_run ours.json "$s" --json "$cmd" "$words" --yes || rc=$?
      result="$(jsonq ours.json 'j.data.results[0].result')"; reason="$(jsonq ours.json 'j.data.results[0].reason')"
    fi
    [[ "$rc/$result" == 5/refused ]] || check_error "$cmd $words: ours exit $rc, result $result (OpenClaw: $oc_msg)"
    [[ "$reason" == "$oc_msg" ]] || check_error "$cmd $words: ours says \"$reason\", OpenClaw \"$oc_msg\""
  done
  [[ "$(tree_manifest "$s" | grep -v ' ./tmp/')" == "$before" ]] || check_error "the store changed: $(diff <(echo "$before") <(tree_manifest "$s" | grep -v ' ./tmp/') | head -n 4 | tr '\n' ' ')"
  note "${#cases[@]} refusals (delete main by 3 spellings, archive main, patch archivedAt on main and its dry run): same words as OpenClaw's handlers, ours exit 5 refused, nothing written"
}
CHECKS+=(main_session_refused)

# ---- archive and unarchive that change nothing -------------------------------------------------
# (docs/openclaw/REFUSALS.md). `openclaw sessions archive` answers `already_archived` for an
# archived session before calling anything (checks/gateway-method.mjs `lifecycle.archive`, its
# rule checked in the bundle); OpenClaw has no unarchive command, and its Gateway's
# `sessions.patch` with `archived: false` on an active session (run in-process) answers ok and
# bumps `updatedAt` (no `already_active`). Ours: `already_archived` and `already_active`, exit 0,
# nothing written on a copy of the same store (so maintenance ages the session as before).
check_noop_archive_matches_openclaw() {
  local oc_s ours_s archived=agent:main:scratch-2 active=agent:main:sdk-made-0 sid before rc
  oc_s="$(copy_store live openclaw)"; ours_s="$(copy_store live ours)"
  ours_run show.json "$ours_s" --json show "$active" || { check_error "ours show $active"; return 0; }
  sid="$(jsonq show.json 'j.data.entry.sessionId')"
  oc_sdk "$oc_s" gateway-method.mjs \
    lifecycle.archive "{\"agentId\":\"main\",\"sessionKey\":\"$archived\"}" \
    sdk.getSessionEntry "{\"agentId\":\"main\",\"sessionKey\":\"$active\"}" \
    sessions.patch "{\"key\":\"$active\",\"archived\":false,\"expectedSessionId\":\"$sid\"}" \
    sdk.getSessionEntry "{\"agentId\":\"main\",\"sessionKey\":\"$active\"}" > oc.jsonl 2> oc.err || { check_error "OpenClaw: $(tail -n 3 oc.err)"; return 0; }
  for i in 1 2 3 4; do sed -n "${i}p" oc.jsonl > "oc$i.json"; done
  [[ "$(jsonq oc1.json 'j.payload?.status')" == already_archived ]] || check_error "OpenClaw's archive of $archived: $(cat oc1.json)"
  [[ "$(jsonq oc3.json 'j.ok')" == true ]] || check_error "OpenClaw's unarchive of $active: $(cat oc3.json)"
  local rest='(({updatedAt, ...r}) => JSON.stringify(r))(j.payload)' bumped
  bumped="$(( $(jsonq oc4.json 'j.payload.updatedAt') > $(jsonq oc2.json 'j.payload.updatedAt') )) $([[ "$(jsonq oc2.json "$rest")" == "$(jsonq oc4.json "$rest")" ]] && echo same || echo differs)"
  [[ "$bumped" == "1 same" ]] || check_error "OpenClaw's no-op unarchive: expected only updatedAt bumped, got [$bumped]"
  before="$(tree_manifest "$ours_s" | grep -v ' ./tmp/')"
  rc=0; ours_run a.json "$ours_s" --json archive "$archived" --yes || rc=$?
  [[ "$rc/$(jsonq a.json 'j.data.results[0].result')" == 0/already_archived ]] || check_error "ours archive $archived: exit $rc, $(jsonq a.json 'j.data.results[0].result')"
  rc=0; ours_run u.json "$ours_s" --json unarchive "$active" --yes || rc=$?
  [[ "$rc/$(jsonq u.json 'j.data.results[0].result')" == 0/already_active ]] || check_error "ours unarchive $active: exit $rc, $(jsonq u.json 'j.data.results[0].result')"
  [[ "$(tree_manifest "$ours_s" | grep -v ' ./tmp/')" == "$before" ]] || check_error "ours wrote something for a no-op"
  note "archive of an archived session: already_archived on both sides, nothing written; unarchive of an active one: OpenClaw's Gateway bumps only updatedAt, ours already_active and writes nothing"
}
CHECKS+=(noop_archive_matches_openclaw)

# ---- doctor --fix on a fault corpus: OpenClaw accepts the store, nothing is lost ----------------
# One copy of the store broken in each way (checks/break-corpus.mjs for the database faults:
# orphan window, orphan events, orphan identity and search rows, lineage and label columns out
# of step, seq gap, unreadable entry_json, duplicate label; here: a stale lock, an archive row
# without its file, an archive file without its row, a stray -wal). `doctor` names each fault's
# agent, session and table; `doctor --fix` repairs the safe ones; integrity and foreign key
# checks pass; what is left for a human is still named; the unreadable entry is rebuilt as
# OpenClaw's doctor rebuilds it, its row kept and shown back; OpenClaw accepts the store; every
# orphaned or removed transcript reads back with `archives cat`.
check_doctor_fix_corpus_accepted() {
  local s rc lock zst fake sid faults missing left fixable unreadable
  s="$(copy_store live corpus)"
  ours_run window-before.jsonl "$s" transcript cat agent:main:sdk-made-1 || check_error "ours transcript cat before the faults"
  node_check break-corpus.mjs "$s" > corpus.json || { check_error "could not build the faults"; return 0; }
  unreadable="$(jsonq corpus.json 'j.faults.find((f) => f.check === "entry-json").sessionKey')"
  ours_run unreadable-before.jsonl "$s" transcript cat "$unreadable" --agent work || check_error "ours transcript cat of the unreadable session"
  # File faults.
  lock="$s/tmp/openclaw-$(id -u)/gateway.state.lock"; mkdir -p "${lock%/*}"
  printf '{"pid": 2147483000, "createdAt": "2026-01-01T00:00:00.000Z", "configPath": "x", "startTime": 1}\n' > "$lock"
  touch -d '-2 minutes' "$lock"
  zst="$(find "$s/agents/main/sessions" -name '*.jsonl.deleted.*.zst' | head -n 1)"
  [[ -n "$zst" ]] || { check_error "the store has no archive file to move"; return 0; }
  # main's archive file moves to work: a row without its file there, a file without its row here.
  fake="$s/agents/work/sessions/${zst##*/}"
  mv "$zst" "$fake"
  ours_run fake-before.jsonl "$s" archives cat "$fake" || check_error "archives cat of the moved archive file"
  mkdir -p "$s/agents/ghost/agent"; printf 'x' > "$s/agents/ghost/agent/openclaw-agent.sqlite-wal"
  local file_faults='[{"name":"stale lock","check":"stale-locks"},{"name":"archive row without its file","check":"archive-files","agentId":"main"},{"name":"archive file without its row","check":"archive-files","agentId":"work"},{"name":"stray -wal","check":"stray-sidecars"}]'
  faults="$(jsonq corpus.json "JSON.stringify(j.faults.concat($file_faults))")"
  # Each fault is named, with its agent, session and table as fields.
  ours_run doctor-before.json "$s" doctor --json || true
  missing="$(FAULTS="$faults" jsonq doctor-before.json '
    JSON.parse(process.env.FAULTS).filter((x) => !j.data.findings.some((f) => f.check === x.check && f.severity !== "info"
      && ["agentId", "sessionKey", "sessionId", "table"].every((k) => x[k] === undefined || f[k] === x[k]))).map((x) => x.name).join(", ")')"
  [[ -z "$missing" ]] || check_error "doctor does not name: $missing"
  # The safe repairs.
  rc=0; ours_run fix.json "$s" doctor --fix --yes --json || rc=$?
  node_check integrity.mjs "$s"/agents/*/agent/openclaw-agent.sqlite > integrity.txt || check_error "after --fix: $(head -n 3 integrity.txt | tr '\n' ' ')"
  # What is left is named still, and nothing fixable is left.
  ours_run doctor-after.json "$s" doctor --json || true
  left="$(jsonq doctor-after.json '[...new Set(j.data.findings.filter((f) => f.severity !== "info").map((f) => f.check))].sort().join(" ")')"
  fixable="$(jsonq doctor-after.json 'j.data.findings.filter((f) => f.fixable).map((f) => f.check + ": " + f.message).join("; ")')"
  [[ -z "$fixable" ]] || check_error "fixable findings left after --fix: $fixable"
  [[ "$left" == "archive-files duplicate-labels seq-gaps stray-sidecars" ]] || check_error "left after --fix: [$left]"
  # OpenClaw refuses a whole store with an unreadable entry ("invalid persisted session row
  # requires repair"); --fix rebuilds it from the row's columns as OpenClaw's doctor does
  # (same key and session id, transcript untouched) and keeps the row as it was, which
  # `show` prints back.
  unreadable="$(jsonq corpus.json 'j.faults.find((f) => f.check === "entry-json").sessionKey')"
  ours_run unreadable-show.json "$s" --json show "$unreadable" || check_error "ours show of the rebuilt entry"
  [[ "$(jsonq unreadable-show.json 'j.data.quarantined.length === 1 && j.data.quarantined[0].entryJson === "{\"oops\":" && j.data.quarantined[0].sessionKey === j.data.sessionKey && j.data.entryError === undefined')" == true ]] \
    || check_error "show does not print the quarantined row back: $(head -c 400 unreadable-show.json)"
  ours_run unreadable-after.jsonl "$s" transcript cat "$(jsonq unreadable-show.json 'j.data.sessionId')" --agent work || check_error "ours transcript cat of the rebuilt session"
  cmp -s unreadable-before.jsonl unreadable-after.jsonl || check_error "the rebuilt session's transcript changed"
  openclaw_accepts "$s" after-fix
  # Every transcript the faults orphaned or the human removed reads back from an archive.
  ours_run window-archive.jsonl "$s" archives cat "$(jsonq corpus.json 'j.faults[0].sessionId')" --agent main || check_error "archives cat of the orphaned window"
  cmp -s window-before.jsonl window-archive.jsonl || check_error "the orphaned window's archive differs from its transcript before the fault"
  sid="$(jsonq corpus.json 'j.orphanEvents.sessionId')"
  jsonq corpus.json 'j.orphanEvents.lines.join("\n")' > events-before.jsonl
  ours_run events-archive.jsonl "$s" archives cat "$sid" --agent main || check_error "archives cat of the orphaned events"
  cmp -s events-before.jsonl events-archive.jsonl || check_error "the orphaned events' archive differs from the events"
  ours_run fake-after.jsonl "$s" archives cat "$fake" || check_error "archives cat of the file without its row"
  cmp -s fake-before.jsonl fake-after.jsonl || check_error "the archive file without its row does not read back"
  ours_run published.jsonl "$s" archives cat "${zst##*/}" --agent main || check_error "archives cat of the republished archive (row without its file)"
  cmp -s fake-before.jsonl published.jsonl || check_error "the republished archive differs from the file it replaces"
  note "$(jsonq <(echo "$faults") 'j.length') faults named; doctor --fix $(jsonq fix.json 'j.data.fixed.length') repair(s), exit $rc; left for a human: $left; the unreadable entry rebuilt (row kept, shown back, transcript unchanged); OpenClaw accepts; every orphaned or removed transcript reads back"
}
CHECKS+=(doctor_fix_corpus_accepted)

# ---- an unreadable entry: our --fix rebuilds what OpenClaw's own doctor --fix rebuilds -----------
# The same three entries broken on two copies; OpenClaw's `doctor --fix` (its canonical-key
# repair, hydrateCanonicalRepairEntry) on one, ours on the other: the rebuilt entry_json is the
# same text. OpenClaw's doctor also runs its session-title repair, which adds a `displayName`
# to sessions without one; that field aside (only when ours has none), they are identical.
check_unreadable_entry_rebuilt_as_openclaw() {
  local a b keys=(agent:work:pinned-notes agent:work:telegram:group:-100123456784 agent:work:subagent:dabaf245-23e5-4383-8533-5d1ad297b08c) rc diff
  a="$(copy_store live oc-fix)"; b="$(copy_store live ours-fix)"
  node_check entry-json.mjs break "$a/agents/work/agent/openclaw-agent.sqlite" "${keys[@]}" || { check_error "could not break the entries"; return 0; }
  node_check entry-json.mjs break "$b/agents/work/agent/openclaw-agent.sqlite" "${keys[@]}" || { check_error "could not break the entries"; return 0; }
  rc=0; oc_run oc-doctor.txt "$a" doctor --fix --non-interactive --yes || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw doctor --fix exited $rc"
  rc=0; ours_run ours-fix.json "$b" doctor entry-json --fix --yes --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "ours doctor --fix exited $rc"
  node_check entry-json.mjs get "$a/agents/work/agent/openclaw-agent.sqlite" "${keys[@]}" > oc-entries.json
  node_check entry-json.mjs get "$b/agents/work/agent/openclaw-agent.sqlite" "${keys[@]}" > ours-entries.json
  diff="$(OURS="$(cat ours-entries.json)" jsonq oc-entries.json '
    const ours = JSON.parse(process.env.OURS);
    Object.keys(j).flatMap((k) => {
      let oc = j[k];
      try {
        const o = JSON.parse(j[k]), m = JSON.parse(ours[k] ?? "null");
        if (m && !("displayName" in m)) { delete o.displayName; oc = JSON.stringify(o); }
      } catch {}
      return oc === ours[k] ? [] : [k + ": openclaw " + j[k] + " / ours " + ours[k]];
    }).join("; ")')"
  [[ -z "$diff" ]] || check_error "rebuilt entries differ: $diff"
  # (That OpenClaw accepts the store ours rebuilt is doctor_fix_corpus_accepted's.)
  note "${#keys[@]} unreadable entries: ours rebuilt the same entry_json as openclaw doctor --fix (its title repair's displayName aside)"
}
CHECKS+=(unreadable_entry_rebuilt_as_openclaw)
