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
  jsonq ours.json 'j.error.message' | grep -q "has schema version 24, newer than the 23" ||
    check_error "our refusal reads otherwise: $(jsonq ours.json 'j.error.message')"
  [[ "$(sha256sum < "$s/agents/main/agent/openclaw-agent.sqlite")" == "$live_before" ]] ||
    check_error "our refused restore changed the live database"
  note "OpenClaw: '$(grep -ho 'Use a build that supports schema 24 or newer' oc.json oc.json.err | head -n 1)'; ours: exit 6 UNSUPPORTED_SCHEMA"
}
CHECKS+=(newer_schema_snapshot_refused)
