# shellcheck shell=bash
# Refusals of hostile stores, ours side by side with OpenClaw's own (docs/openclaw/HOSTILE.md,
# section 3). Sourced by run.sh.

# An agent database whose schema_meta names another agent: OpenClaw's SDK refuses to write it
# ("belongs to agent B; requested agent A"), and so does every mutation of ours, with the same
# words, changing nothing.
check_foreign_owner_refused() {
  local ours_s oc_s a b key rc oc_rc before
  ours_s="$(copy_store live ours)"; oc_s="$(copy_store live openclaw)"
  mapfile -t agents < <(cd "$ours_s/agents" && ls | LC_ALL=C sort)
  [[ ${#agents[@]} -ge 2 ]] || check_skip "the store has fewer than two agents"
  a="${agents[0]}"; b="${agents[1]}"
  for s in "$ours_s" "$oc_s"; do
    node_check set-db-meta.mjs owner "$s/agents/$a/agent/openclaw-agent.sqlite" "$b"
  done
  key="$(node_check list-keys.mjs "$ours_s/agents/$a/agent/openclaw-agent.sqlite" | head -n 1)"
  [[ -n "$key" ]] || { check_error "agent $a has no session"; return 0; }
  rc=0; oc_sdk "$oc_s" sdk-mutate.mjs patch "$a" "$key" '{"label":"hostile"}' > oc.json 2> oc.err || rc=$?
  oc_rc=$rc
  [[ $rc -ne 0 ]] || check_error "OpenClaw's SDK patched a database that belongs to agent $b"
  grep -q "belongs to agent $b; requested agent $a" oc.err ||
    check_error "OpenClaw's refusal reads otherwise: $(grep -m1 -i 'belongs\|error' oc.err | head -c 300)"
  before="$(tree_manifest "$ours_s")"
  rc=0; ours_run ours.json "$ours_s" --json patch "$key" --set 'label="hostile"' || rc=$?
  [[ $rc -eq 5 ]] || check_error "our patch exited $rc, not 5"
  [[ "$(jsonq ours.json 'j.error.code')" == CONFLICT ]] || check_error "our error: $(head -c 300 ours.json)"
  jsonq ours.json 'j.error.message' | grep -q "belongs to agent $b; requested agent $a" ||
    check_error "our refusal reads otherwise: $(jsonq ours.json 'j.error.message')"
  # Custody's lock files come and go; nothing else may change.
  [[ "$(tree_manifest "$ours_s" | grep -Ev '\./tmp($|/openclaw-)')" == "$(grep -Ev '\./tmp($|/openclaw-)' <<< "$before")" ]] ||
    check_error "our refused patch changed the store"
  note "OpenClaw: exit $oc_rc '...$(grep -o "belongs to agent $b; requested agent $a" oc.err | head -n 1)'; ours: exit 5 CONFLICT, same words"
}
CHECKS+=(foreign_owner_refused)

# A snapshot whose database has a schema newer than 2026.9.6: OpenClaw's restore refuses it
# ("Use a build that supports schema 24 or newer"), and so does our restore --in-place, unless
# --allow-newer-schema; the live database stays as it was.
check_newer_schema_snapshot_refused() {
  local s snap rc live_before
  s="$(copy_store live store)"
  ours_run made.json "$s" --json backup create --agent main --repository "$CHECK_DIR/private/repo" ||
    { check_error "backup create failed"; return 0; }
  snap="$(jsonq made.json 'j.data.snapshots[0].path')"
  node_check set-db-meta.mjs snapshot-version "$snap" 24
  rc=0; oc_run oc.json "$s" backup sqlite restore "$snap" --target "$CHECK_DIR/private/oc-restored.sqlite" --json || rc=$?
  [[ $rc -ne 0 ]] || check_error "OpenClaw restored a schema 24 snapshot"
  grep -q "supports schema 24 or newer" oc.json oc.json.err ||
    check_error "OpenClaw's refusal reads otherwise: $(tail -n 3 oc.json.err | head -c 300)"
  live_before="$(sha256sum < "$s/agents/main/agent/openclaw-agent.sqlite")"
  rc=0; ours_run ours.json "$s" --json backup restore "$snap" --in-place --yes || rc=$?
  [[ $rc -eq 6 ]] || check_error "our restore exited $rc, not 6"
  [[ "$(jsonq ours.json 'j.error.code')" == UNSUPPORTED_SCHEMA ]] || check_error "our error: $(head -c 300 ours.json)"
  jsonq ours.json 'j.error.message' | grep -q "has agent schema 24 (.*the schema of a release newer than OpenClaw 2026.9.6).*installing it changes the schema" ||
    check_error "our refusal reads otherwise: $(jsonq ours.json 'j.error.message')"
  [[ "$(sha256sum < "$s/agents/main/agent/openclaw-agent.sqlite")" == "$live_before" ]] ||
    check_error "our refused restore changed the live database"
  note "OpenClaw: '$(grep -ho 'Use a build that supports schema 24 or newer' oc.json oc.json.err | head -n 1)'; ours: exit 6 UNSUPPORTED_SCHEMA"
}
CHECKS+=(newer_schema_snapshot_refused)

# Our mutations stopped by SIGINT or SIGTERM at named points inside the run (our test hook,
# OURS_SIGNAL_AT): each run exits 130 (INTERRUPTED), every database passes integrity_check and
# foreign_key_check, OpenClaw's SDK reads every session and transcript of the store as it was
# left (the whole of openclaw_accepts, CLI list, backups and preflight, on one of them: each
# costs tens of seconds), and a re-run of the same command finishes (docs/openclaw/HOSTILE.md,
# section 5).
check_signalled_mutations_accepted() {
  local n=0 s spec rc keys snap gone t=$SECONDS times=()
  # signalled_run LABEL STATE SPEC ARGS... : one signalled run, then the store's checks
  # (openclaw_accepts in full when FULL_ACCEPTS is set).
  signalled_run() {
    local label="$1" state="$2" at="$3" db; shift 3
    n=$((n + 1))
    rc=0; OURS_SIGNAL_AT="$at" ours_run "$label.json" "$state" --json "$@" || rc=$?
    [[ $rc -eq 130 && "$(jsonq "$label.json" 'j.error.code' 2>/dev/null)" == INTERRUPTED ]] ||
      check_error "$label: signalled at $at, exited $rc: $(head -c 300 "$label.json")"
    local dbs=(); for db in "$state"/agents/*/agent/openclaw-agent.sqlite "$state"/state/openclaw.sqlite; do
      [[ -f "$db" ]] && dbs+=("$db"); done
    node_check integrity.mjs "${dbs[@]}" > "$label-integrity.txt" 2>&1 ||
      { head -n 5 "$label-integrity.txt" >&2; check_error "$label: a database fails its integrity check"; }
    if [[ -n "${FULL_ACCEPTS:-}" ]]; then
      openclaw_accepts "$state" "$label"
    else
      oc_sdk "$state" sdk-readback.mjs > "$label-readback.json" 2> "$label-readback.err" ||
        check_error "$label: OpenClaw's SDK cannot read the store back: $(jsonq "$label-readback.json" 'j.errors.slice(0,3).join("; ")' 2>/dev/null || tail -n 2 "$label-readback.err")"
    fi
  }
  # main_keys STATE : agent main's live session keys, one a line.
  main_keys() { node_check list-keys.mjs "$1/agents/main/agent/openclaw-agent.sqlite"; }
  # rerun LABEL STATE ARGS... : the same command again, without the signal.
  rerun() {
    local label="$1" state="$2"; shift 2
    rc=0; ours_run "$label-rerun.json" "$state" --json "$@" || rc=$?
    [[ $rc -eq 0 ]] || check_error "$label: the re-run exited $rc: $(head -c 300 "$label-rerun.json")"
  }

  # delete: four keys of main, stopped between keys.
  local listed; listed="$(main_keys "$STORE/live/.openclaw")"
  mapfile -t keys < <(grep -v ':main$' <<< "$listed" | head -n 4)
  [[ ${#keys[@]} -eq 4 ]] || { check_error "agent main has fewer than 4 sessions"; return 0; }
  for spec in delete-before-commit@2 delete-before-publish@3:TERM; do
    s="$(copy_store live "delete-${spec//[@:]/-}")"
    signalled_run "delete-$spec" "$s" "$spec" --agent main delete "${keys[@]}" --yes
    gone=0; listed="$(main_keys "$s")"
    for k in "${keys[@]}"; do grep -qxF "$k" <<< "$listed" || gone=$((gone + 1)); done
    [[ $gone -ge 1 && $gone -lt 4 ]] || check_error "delete-$spec: $gone of 4 keys deleted before the signal took effect"
    # The deleted keys are now unknown: the re-run deletes the rest (exit 0) or names them (3).
    rc=0; ours_run "delete-$spec-rerun.json" "$s" --json --agent main delete "${keys[@]}" --yes || rc=$?
    [[ $rc -eq 0 || $rc -eq 3 ]] || check_error "delete-$spec: the re-run exited $rc"
    listed="$(main_keys "$s")"
    for k in "${keys[@]}"; do
      if grep -qxF "$k" <<< "$listed"; then check_error "delete-$spec: $k left after the re-run"; fi
    done
  done

  times+=("delete $((SECONDS - t)) s"); t=$SECONDS
  # prune of every agent: stopped after the first archive, and after the first deletions.
  for spec in patch-before-commit@1 delete-before-commit@1:TERM; do
    s="$(copy_store live "prune-${spec//[@:]/-}")"
    signalled_run "prune-$spec" "$s" "$spec" prune --all-agents --enforce --older-than 1d --yes
    rerun "prune-$spec" "$s" prune --all-agents --enforce --older-than 1d --yes
    [[ "$(jsonq "prune-$spec-rerun.json" 'j.data.agents.reduce((n,a)=>n+a.actions.length,0)')" -gt 0 ]] ||
      check_error "prune-$spec: the re-run had nothing left to do"
  done

  times+=("prune $((SECONDS - t)) s"); t=$SECONDS
  # migrate legacy: stopped between sessions, and between two agents' moves.
  for spec in import-record@5 import-move-link@1:TERM; do
    s="$(copy_store legacy "import-${spec//[@:]/-}")"
    local full=; if [[ $spec == import-record@5 ]]; then full=1; fi
    FULL_ACCEPTS=$full signalled_run "import-$spec" "$s" "$spec" migrate legacy --all-agents --yes
    [[ -n "$(find "$s/agents" -name sessions.json)" ]] || check_error "import-$spec: every index moved before the signal took effect"
    rerun "import-$spec" "$s" migrate legacy --all-agents --yes
    [[ -z "$(find "$s/agents" -name sessions.json)" ]] || check_error "import-$spec: a sessions.json was left after the re-run"
  done

  times+=("import $((SECONDS - t)) s"); t=$SECONDS
  # backup restore --in-place: stopped after the staged copy, and just before the swap; the
  # sessions are as they were until the re-run brings the deleted one back.
  for spec in restore-staged restore-before-swap:TERM; do
    s="$(copy_store live "restore-${spec//[@:]/-}")"
    ours_run "restore-$spec-made.json" "$s" --json backup create --agent main --repository "$CHECK_DIR/private/repo-$spec" ||
      { check_error "backup create failed"; continue; }
    snap="$(jsonq "restore-$spec-made.json" 'j.data.snapshots[0].path')"
    ours_run "restore-$spec-del.json" "$s" --json --agent main delete "${keys[0]}" --yes || check_error "delete ${keys[0]} failed"
    local before; before="$(main_keys "$s")"
    signalled_run "restore-$spec" "$s" "$spec" backup restore "$snap" --in-place --yes
    [[ "$(main_keys "$s")" == "$before" ]] ||
      check_error "restore-$spec: the signalled restore changed the sessions"
    rerun "restore-$spec" "$s" backup restore "$snap" --in-place --yes
    listed="$(main_keys "$s")"
    grep -qxF "${keys[0]}" <<< "$listed" ||
      check_error "restore-$spec: ${keys[0]} not back after the re-run"
  done
  note "$n signalled runs (delete, prune, migrate legacy, backup restore --in-place): each exited 130, every store sound and read back by OpenClaw's SDK (one through the whole openclaw_accepts), every re-run finished (${times[*]/%/,} restore $((SECONDS - t)) s)"
}
CHECKS+=(signalled_mutations_accepted)

# canonical_keys_fixed_as_openclaw: lineage values OpenClaw's read refuses (`AGENT:MAIN:X`, a padded
# key, `agent:main:Upper`; checks/set-lineage.mjs) make `openclaw sessions` fail; our doctor names
# each row, and our `doctor --fix` leaves the same lineage values as OpenClaw's own `doctor --fix` on
# another copy; OpenClaw then reads our store (docs/openclaw/HOSTILE.md §8).
check_canonical_keys_fixed_as_openclaw() {
  local v s db rc
  for v in broken ours theirs; do
    s="$(copy_store live "$v")"; db="$s/agents/main/agent/openclaw-agent.sqlite"
    node_check set-lineage.mjs "$db" > "planted-$v.json"
  done
  rc=0; oc_run broken.json "$CHECK_DIR/stores/broken/.openclaw" sessions --agent main --json --limit all || rc=$?
  [[ $rc -ne 0 ]] || check_error "OpenClaw read the planted store: the cases prove nothing"
  rc=0; ours_run doctor.json "$CHECK_DIR/stores/ours/.openclaw" --json doctor canonical-keys || rc=$?
  [[ "$(jsonq doctor.json 'j.data.findings.filter(f=>f.check==="canonical-keys").length')" -ge 3 ]] ||
    check_error "our doctor named fewer than 3 rows: $(head -c 400 doctor.json)"
  rc=0; ours_run fix.json "$CHECK_DIR/stores/ours/.openclaw" doctor --fix --yes || rc=$?
  [[ $rc -eq 0 || $rc -eq 3 ]] || check_error "our doctor --fix exited $rc"
  rc=0; oc_run oc-fix.out "$CHECK_DIR/stores/theirs/.openclaw" doctor --fix --non-interactive || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw doctor --fix exited $rc"
  node_check set-lineage.mjs "$CHECK_DIR/stores/ours/.openclaw/agents/main/agent/openclaw-agent.sqlite" --read > ours.json
  node_check set-lineage.mjs "$CHECK_DIR/stores/theirs/.openclaw/agents/main/agent/openclaw-agent.sqlite" --read > theirs.json
  if ! cmp -s ours.json theirs.json; then
    check_error "lineage after the repairs differs: ours $(cat ours.json), OpenClaw $(cat theirs.json)"
  fi
  openclaw_accepts "$CHECK_DIR/stores/ours/.openclaw" ours-fixed
  note "3 planted rows; OpenClaw refused the store before; lineage after our --fix = after OpenClaw's: $(cat ours.json | head -c 200)"
}
CHECKS+=(canonical_keys_fixed_as_openclaw)

# lineage_patches_keep_openclaw_reading: a fixed list of lineage values (case, blanks, padding,
# empty, unicode, other agents', sentinels) patched by ours into parentSessionKey, spawnedBy or
# forkSource.sessionKey: each is refused (exit 5, store unchanged) or, once written, OpenClaw still
# reads the whole agent.
check_lineage_patches_keep_openclaw_reading() {
  local s rc i=0 ok=0 refused=0 field value key=agent:main:telegram:direct:123454 before
  local values=('"AGENT:MAIN:X"' '"agent:main:x"' '"  agent:main:main  "' '""' '"agent:main:"' '"agent:work:Upper"'
    '"agent:main:ünïcode"' '"global"' '"unknown"' '"agent:main:telegram:group:-100123456784"' '"agent:Main:main"' '"main"')
  local fields=(parentSessionKey spawnedBy forkSource.sessionKey)
  s="$(copy_store live store)"
  for value in "${values[@]}"; do
    field="${fields[$((i % 3))]}"; i=$((i + 1))
    before="$(tree_manifest "$s" | grep -v '/tmp/openclaw-')"
    rc=0; ours_run "p-$i.json" "$s" --json patch "$key" --set "$field=$value" || rc=$?
    if [[ $rc -eq 5 ]]; then
      refused=$((refused + 1))
      [[ "$(tree_manifest "$s" | grep -v '/tmp/openclaw-')" == "$before" ]] || check_error "refused $field=$value changed the store"
      continue
    fi
    [[ $rc -eq 0 ]] || { check_error "patch $field=$value exited $rc"; continue; }
    ok=$((ok + 1))
    rc=0; release_lists_current "$s" "oc-$i.json" || rc=$?
    [[ $rc -eq 0 ]] || check_error "after our patch $field=$value OpenClaw no longer reads agent main: $(tail -n 2 "oc-$i.json.err" | tr '\n' ' ')"
  done
  [[ $ok -ge 3 && $refused -ge 3 ]] || check_error "only $ok written and $refused refused of ${#values[@]}"
  note "${#values[@]} lineage values: $ok written (OpenClaw read the agent after each), $refused refused with the store unchanged"
}
CHECKS+=(lineage_patches_keep_openclaw_reading)

# release_lists_current STATE OUT : OpenClaw 2026.9.6's list of agent main on a throwaway copy.
release_lists_current() {
  local copy="$CHECK_DIR/stores/list-$RANDOM$RANDOM"
  mkdir -p "$copy"; cp -a "$1" "$copy/.openclaw"
  oc_run "$2" "$copy/.openclaw" sessions --agent main --json --limit all
}
