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

# restore_session_replace_over_openclaw_writes: OpenClaw's snapshot, then OpenClaw's SDK appends
# to HISTORY_KEYS (the live sessions move past the snapshot); our `backup restore --session KEY
# --replace` archives each live session as delete does and brings back the snapshot's, row for
# row; OpenClaw accepts the store, lists each replaced transcript as a deleted archive of ours,
# and appends to the restored sessions.
check_restore_session_replace_over_openclaw_writes() {
  local s db snap key n=0 rc
  s="$(copy_store live)"
  db="$s/agents/main/agent/openclaw-agent.sqlite"
  history_ids "$s" > ids.txt
  node_check session-rows.mjs --strict "$db" "${HISTORY_KEYS[@]}" > before.json || check_error "rows before"
  rc=0; oc_run snap.json "$s" backup sqlite create --agent main --repository "$CHECK_DIR/snapshots" --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw backup sqlite create exited $rc"
  snap="$(jsonq snap.json 'j.snapshotPath')"
  history_sdk_append "$s"
  node_check session-rows.mjs --strict "$db" "${HISTORY_KEYS[@]}" > appended.json
  ! node_check compare-session-rows.mjs before.json appended.json > /dev/null 2>&1 ||
    check_error "OpenClaw's appends changed nothing to replace"
  for key in "${HISTORY_KEYS[@]}"; do
    n=$((n + 1))
    rc=0; ours_run "refused-$n.json" "$s" backup restore "$snap" --session "$key" --yes --json || rc=$?
    [[ $rc -eq 5 ]] || check_error "backup restore --session $key over a live session exited $rc, expected 5"
    ours_run "replace-$n.json" "$s" backup restore "$snap" --session "$key" --replace --yes --json ||
      check_error "backup restore --session $key --replace"
  done
  node_check session-rows.mjs --strict "$db" "${HISTORY_KEYS[@]}" > after.json
  if node_check compare-session-rows.mjs before.json after.json > cmp.txt 2> cmp.err; then
    note "restore --session --replace: $(cat cmp.txt)"
  else
    cat cmp.err >&2; check_error "rows differ after restore --session --replace: $(cat cmp.txt)"
  fi
  ours_run archives.json "$s" archives list --agent main --reason deleted --json || check_error "archives list"
  n="$(jsonq archives.json "j.data.filter(a=>[$(printf '"%s",' "${HISTORY_KEYS[@]}")].includes(a.sessionKey)).length")"
  [[ "$n" -ge "${#HISTORY_KEYS[@]}" ]] || check_error "only $n deleted archives of the replaced sessions"
  openclaw_accepts "$s" after-restore-replace
  history_sdk_append "$s"
}
CHECKS+=(restore_session_replace_over_openclaw_writes)

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

# bundle_round_trip (issue 54): `bundle export` of sessions of the live store, `bundle import`
# into another state dir: the main agent's imported and SDK-made sessions (branches, zstd rows,
# search rows) into that store's main agent once they were deleted there, and two of the
# research agent's sessions into its work agent (another agent: the keys are rewritten).
# OpenClaw lists every imported session, its SDK reads each transcript back event for event
# equal to the source's, and accepts the store (list, SDK read-back, preflight of a snapshot).
check_bundle_round_trip() {
  local src dst rc key n events=0
  local research=(agent:research:cron:nightly:run:888 agent:research:explicit:cli-research)
  local work=("${research[@]/#agent:research:/agent:work:}")
  src="$(copy_store live src)"
  dst="$(copy_store live dst)"
  ours_run export-main.json "$src" --agent main bundle export "$CHECK_DIR/main.bundle" "${HISTORY_KEYS[@]}" ||
    check_error "bundle export of main"
  ours_run export-research.json "$src" --agent research bundle export "$CHECK_DIR/research.bundle" "${research[@]}" ||
    check_error "bundle export of research"
  ours_run delete.json "$dst" --agent main delete "${HISTORY_KEYS[@]}" --yes || check_error "delete at the destination"
  rc=0; ours_run import-main.json "$dst" --agent main bundle import "$CHECK_DIR/main.bundle" --yes --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "bundle import into main exited $rc"
  rc=0; ours_run import-work.json "$dst" --agent work bundle import "$CHECK_DIR/research.bundle" --yes --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "bundle import into work exited $rc"
  # The source's transcripts and the destination's, through OpenClaw's SDK.
  oc_sdk "$src" sdk-events.mjs "${HISTORY_KEYS[@]}" "${research[@]}" > src.json || check_error "SDK read of the source"
  oc_sdk "$dst" sdk-events.mjs "${HISTORY_KEYS[@]}" "${work[@]}" > dst.json || check_error "SDK read of the imported sessions"
  n="$(node_check compare-sdk-events.mjs src.json dst.json agent:research: agent:work:)" ||
    check_error "transcripts differ after the bundle import"
  events="${n:-0}"
  # OpenClaw lists them (openclaw_accepts runs `openclaw sessions --all-agents --json`).
  openclaw_accepts "$dst" after-bundle-import
  for key in "${HISTORY_KEYS[@]}" "${work[@]}"; do
    [[ "$(jsonq accepts-after-bundle-import/sessions.json "j.sessions.some(s=>s.key===\"$key\")")" == true ]] ||
      check_error "openclaw sessions does not list $key"
  done
  note "$((${#HISTORY_KEYS[@]} + ${#research[@]})) sessions, $events events read back equal through the SDK"
}
CHECKS+=(bundle_round_trip)
