# History recovery checks (sourced by run.sh): OpenClaw's SDK deletes sessions, our `undelete`
# and `backup restore --session` bring them back; every row of every table for those sessions
# equals the rows before the deletion (clock and random columns named in
# checks/session-rows.mjs), OpenClaw accepts the store and appends to the restored sessions.

# Sessions of the live store's main agent: imported ones (branches, zstd rows, search rows)
# and ones OpenClaw's SDK made.
HISTORY_KEYS=(agent:main:pinned-notes agent:main:scratch-2 agent:main:telegram:direct:123454 agent:main:sdk-made-1)

# The session ids of HISTORY_KEYS, one per line, read with our `show`.
history_ids() {
  local s="$1" key
  for key in "${HISTORY_KEYS[@]}"; do
    ours_run show.json "$s" show "$key" --json || { check_error "show $key"; continue; }
    jsonq show.json 'j.data.sessionId'
  done
}

# OpenClaw's SDK deletes HISTORY_KEYS with archiveTranscript: true (checks/sdk-history.mjs).
history_sdk_delete() {
  oc_sdk "$1" sdk-history.mjs delete main "${HISTORY_KEYS[@]}" > sdk-delete.json 2> sdk-delete.err ||
    check_error "SDK delete: $(cat sdk-delete.json sdk-delete.err | grep -v '"gone":true' | tail -n 3)"
}

# OpenClaw appends to each restored session and reads it back.
history_sdk_append() {
  local pairs=() i=0 sid
  while read -r sid; do pairs+=("${HISTORY_KEYS[$i]}=$sid"); i=$((i + 1)); done < ids.txt
  oc_sdk "$1" sdk-history.mjs append main "${pairs[@]}" > append.json 2> append.err ||
    check_error "SDK append after the restore: $(cat append.json append.err | grep -v '"appended":true' | tail -n 3)"
}

check_undelete_after_openclaw_delete() {
  local s db sid rc n=0
  s="$(copy_store live)"
  db="$s/agents/main/agent/openclaw-agent.sqlite"
  history_ids "$s" > ids.txt
  node_check session-rows.mjs "$db" "${HISTORY_KEYS[@]}" > before.json || check_error "rows before"
  # The entries come back from the newest snapshot that holds them: one OpenClaw made.
  rc=0; oc_run snap.json "$s" backup sqlite create --agent main --repository "$CHECK_DIR/snapshots" --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw backup sqlite create exited $rc"
  history_sdk_delete "$s"
  node_check session-rows.mjs "$db" "${HISTORY_KEYS[@]}" > deleted.json
  [[ "$(jsonq deleted.json 'Object.values(j).filter(t=>t.session_nodes).length')" == 0 ]] ||
    check_error "the SDK left nodes behind"
  while read -r sid; do
    n=$((n + 1))
    ours_run "undelete-$n.json" "$s" undelete "$sid" --snapshots "$CHECK_DIR/snapshots" --yes --json ||
      { check_error "undelete $sid"; continue; }
    [[ "$(jsonq "undelete-$n.json" 'j.data.entrySource.kind')" == snapshot ]] ||
      check_error "undelete $sid took its entry from $(jsonq "undelete-$n.json" 'j.data.entrySource.kind')"
  done < ids.txt
  node_check session-rows.mjs "$db" "${HISTORY_KEYS[@]}" > after.json
  if node_check compare-session-rows.mjs before.json after.json > cmp.txt 2> cmp.err; then
    note "undelete: $(cat cmp.txt)"
  else
    cat cmp.err >&2; check_error "rows differ after undelete: $(cat cmp.txt)"
  fi
  openclaw_accepts "$s" after-undelete
  history_sdk_append "$s"
}
CHECKS+=(undelete_after_openclaw_delete)

check_restore_session_from_openclaw_snapshot() {
  local s db snap key rc n=0
  s="$(copy_store live)"
  db="$s/agents/main/agent/openclaw-agent.sqlite"
  history_ids "$s" > ids.txt
  node_check session-rows.mjs --strict "$db" "${HISTORY_KEYS[@]}" > before.json || check_error "rows before"
  rc=0; oc_run snap.json "$s" backup sqlite create --agent main --repository "$CHECK_DIR/snapshots" --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw backup sqlite create exited $rc"
  snap="$(jsonq snap.json 'j.snapshotPath')"
  history_sdk_delete "$s"
  ours_run others-before.json "$s" list --all-agents --json --limit all || check_error "list"
  for key in "${HISTORY_KEYS[@]}"; do
    n=$((n + 1))
    ours_run "restore-$n.json" "$s" backup restore "$snap" --session "$key" --yes --json ||
      check_error "backup restore --session $key"
  done
  node_check session-rows.mjs --strict "$db" "${HISTORY_KEYS[@]}" > after.json
  if node_check compare-session-rows.mjs before.json after.json > cmp.txt 2> cmp.err; then
    note "restore --session: $(cat cmp.txt)"
  else
    cat cmp.err >&2; check_error "rows differ after restore --session: $(cat cmp.txt)"
  fi
  # The sessions that were not restored are as they were.
  local keys_js; keys_js="[$(printf '"%s",' "${HISTORY_KEYS[@]}")]"
  ours_run others-after.json "$s" list --all-agents --json --limit all || check_error "list"
  [[ "$(jsonq others-before.json 'j.data.map(r=>r.sessionKey+" "+r.sessionId+" "+r.updatedAt).sort().join(",")')" == \
     "$(jsonq others-after.json "j.data.filter(r=>!${keys_js}.includes(r.sessionKey)).map(r=>r.sessionKey+' '+r.sessionId+' '+r.updatedAt).sort().join(',')")" ]] ||
    check_error "sessions that were not restored changed"
  openclaw_accepts "$s" after-restore-session
  history_sdk_append "$s"
}
CHECKS+=(restore_session_from_openclaw_snapshot)

# delete_then_undo (docs/OPLOG.md): our `delete` of HISTORY_KEYS, then our `undo` of that
# operation: every row of every table for those sessions equals the rows before the delete
# (clock and random columns named in checks/session-rows.mjs; and the window's
# `transcript_updated_at` and `updated_at`, clocks the window rebuilt from the entry `delete`
# kept takes from that entry, and OpenClaw's next append sets again); OpenClaw lists each
# session again, reads it back and appends to its transcript.
check_delete_then_undo() {
  local s db key
  s="$(copy_store live)"
  db="$s/agents/main/agent/openclaw-agent.sqlite"
  history_ids "$s" > ids.txt
  node_check session-rows.mjs "$db" "${HISTORY_KEYS[@]}" > before.json || check_error "rows before"
  ours_run delete.json "$s" delete "${HISTORY_KEYS[@]}" --yes --json || check_error "delete"
  ours_run undo.json "$s" undo --yes --json || check_error "undo"
  [[ "$(jsonq undo.json 'j.data.results.filter(r=>r.result==="undeleted").length')" == "${#HISTORY_KEYS[@]}" ]] ||
    check_error "undo brought back $(jsonq undo.json 'j.data.results.map(r=>r.sessionKey+" "+r.result).join(", ")')"
  ours_run log.json "$s" log --json || check_error "log"
  [[ "$(jsonq log.json 'j.data.operations[1].undoneBy === j.data.operations[0].id')" == true ]] ||
    check_error "the log does not say the delete is undone"
  node_check session-rows.mjs "$db" "${HISTORY_KEYS[@]}" > after.json
  if node_check compare-session-rows.mjs before.json after.json \
    session_windows.transcript_updated_at,session_windows.updated_at > cmp.txt 2> cmp.err; then
    note "delete then undo: $(cat cmp.txt)"
  else
    cat cmp.err >&2; check_error "rows differ after delete then undo: $(cat cmp.txt)"
  fi
  openclaw_accepts "$s" after-undo
  for key in "${HISTORY_KEYS[@]}"; do
    [[ "$(jsonq accepts-after-undo/sessions.json "j.sessions.some(x=>x.key===\"$key\")")" == true ]] ||
      check_error "openclaw sessions does not list $key after the undo"
  done
  history_sdk_append "$s"
}
CHECKS+=(delete_then_undo)

# undelete_after_openclaw_maintenance: OpenClaw's own maintenance (`openclaw sessions cleanup
# --enforce`, age and entry cap) deletes the research agent's machine-made and capped sessions,
# archiving their transcripts; our `undelete` brings every deleted one back, row for row.
check_undelete_after_openclaw_maintenance() {
  local s db rc keys_before keys_after key n=0 sid
  s="$CHECK_DIR/stores/m/.openclaw"; mkdir -p "$(dirname "$s")"
  cp -a "$REPO_ROOT/tests/fixtures/openclaw-2026.9.6/live/.openclaw" "$s"; chmod -R u+w "$s"
  oc_sdk "$s" prune-retime.mjs "$s" "$REF_ROOT/checks/prune-spec-research.json" > retime.json || check_error "re-timing failed"
  node_check set-maintenance.mjs "$s" '{"pruneAfter":"1d","maxEntries":12}'
  db="$s/agents/research/agent/openclaw-agent.sqlite"
  ours_run before.json "$s" list --agent research --json --limit all || check_error "list before"
  keys_before="$(jsonq before.json 'j.data.map(r=>r.sessionKey).sort().join(" ")')"
  # shellcheck disable=SC2086
  node_check session-rows.mjs "$db" $keys_before > rows-before.json || check_error "rows before"
  rc=0; oc_run snap.json "$s" backup sqlite create --agent research --repository "$CHECK_DIR/snapshots" --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw backup sqlite create exited $rc"
  rc=0; oc_run cleanup.json "$s" sessions cleanup --enforce --agent research --store "$db" --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw sessions cleanup --enforce exited $rc"
  ours_run after.json "$s" list --agent research --json --limit all || check_error "list after"
  keys_after="$(jsonq after.json 'j.data.map(r=>r.sessionKey).sort().join(" ")')"
  local deleted=() gone=()
  for key in $keys_before; do [[ " $keys_after " == *" $key "* ]] || gone+=("$key"); done
  [[ ${#gone[@]} -gt 0 ]] || check_error "OpenClaw's maintenance deleted nothing"
  for key in "${gone[@]}"; do
    sid="$(jsonq before.json "j.data.find(r=>r.sessionKey==='$key').sessionId")"
    ours_run "archives-$n.json" "$s" archives list --agent research --session "$sid" --reason deleted --json || check_error "archives list $sid"
    if [[ "$(jsonq "archives-$n.json" 'j.data.length')" == 0 ]]; then
      # A session without transcript events leaves no archive: nothing to bring back.
      [[ "$(jsonq before.json "j.data.find(r=>r.sessionKey==='$key').transcript.events")" == 0 ]] ||
        check_error "$key had events but OpenClaw left no archive"
      n=$((n + 1)); continue
    fi
    deleted+=("$key")
    ours_run "undelete-$n.json" "$s" --agent research undelete "$sid" --snapshots "$CHECK_DIR/snapshots" --yes --json ||
      check_error "undelete $key ($sid)"
    n=$((n + 1))
  done
  # A comparison of nothing proves nothing: the fixture's research agent has sessions with
  # transcripts that OpenClaw's maintenance deletes.
  [[ ${#deleted[@]} -ge 2 ]] || { check_error "only ${#deleted[@]} deleted session(s) with a transcript to bring back"; return 0; }
  node_check session-rows.mjs "$db" "${deleted[@]}" > rows-after.json
  jsonq rows-before.json "JSON.stringify(Object.fromEntries(Object.entries(j).filter(([k])=>$(printf '"%s",' "${deleted[@]}" | sed 's/^/[/; s/,$/]/').includes(k))))" > rows-before-deleted.json
  if node_check compare-session-rows.mjs rows-before-deleted.json rows-after.json > cmp.txt 2> cmp.err; then
    note "maintenance deleted ${#gone[@]} (${#deleted[@]} with a transcript); undelete: $(cat cmp.txt)"
  else
    cat cmp.err >&2; check_error "rows differ after undelete: $(cat cmp.txt)"
  fi
  openclaw_accepts "$s" after-undelete
}
CHECKS+=(undelete_after_openclaw_maintenance)
