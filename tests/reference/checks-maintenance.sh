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

# ---- prune --enforce --fix-missing --fix-dm-scope against OpenClaw's own applied cleanup ---
# On two copies of the live store with the same settings and the same damaged transcripts
# (checks/tear-transcripts.mjs: one transcript gone, one reduced to its header, one whose only
# message row is torn), OpenClaw's `sessions cleanup --enforce --fix-missing --fix-dm-scope`
# (offline through --store) and our `prune --enforce --fix-missing --fix-dm-scope`: the same
# summary counts, the same survivors, the same archived rows and reasons. The torn transcript
# is where we may differ by design (ours keeps its session): what OpenClaw does is recorded.
check_prune_cleanup_parity() {
  local base ours_s oc_s rc m='{"pruneAfter":"1d"}' a=research
  local gone="agent:$a:explicit:cli-research" header="agent:$a:pinned-notes" torn="agent:$a:discord:channel:987654328"
  base="$(copy_store live cleanup-base)"
  node_check tear-transcripts.mjs "$base/agents/$a/agent/openclaw-agent.sqlite" "$gone" "$header" "$torn" > torn.json \
    || check_error "could not prepare the transcripts"
  set_maintenance "$base" "$m"
  ours_s="$CHECK_DIR/stores/cleanup-ours/.openclaw"; oc_s="$CHECK_DIR/stores/cleanup-oc/.openclaw"
  mkdir -p "$(dirname "$ours_s")" "$(dirname "$oc_s")"; cp -a "$base" "$ours_s"; cp -a "$base" "$oc_s"
  rc=0; oc_run oc.json "$oc_s" sessions cleanup --enforce --fix-missing --fix-dm-scope --agent "$a" \
    --store "$oc_s/agents/$a/agent/openclaw-agent.sqlite" --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw sessions cleanup --enforce exited $rc"
  rc=0; ours_run ours.json "$ours_s" prune --agent "$a" --enforce --fix-missing --fix-dm-scope --yes --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "ours prune exited $rc"
  local k theirs mine diffs=""
  for k in beforeCount missing dmScopeRetired modelRunPruned archived capArchived pruned capped; do
    theirs="$(jsonq oc.json "j.$k")"; mine="$(jsonq ours.json "j.data.agents[0].cleanup.$k")"
    [[ "$theirs" == "$mine" ]] || diffs+="$k: openclaw $theirs, ours $mine; "
  done
  # The torn transcript: does OpenClaw keep its session?
  oc_run list-oc.json "$oc_s" sessions --agent "$a" --json --limit all || check_error "OpenClaw cannot list its cleaned store"
  oc_run list-ours.json "$ours_s" sessions --agent "$a" --json --limit all || check_error "OpenClaw cannot list our pruned store"
  local oc_torn ours_torn
  oc_torn="$(jsonq list-oc.json "j.sessions.some(s => s.key === '$torn') ? 'kept' : 'removed'")"
  ours_torn="$(jsonq list-ours.json "j.sessions.some(s => s.key === '$torn') ? 'kept' : 'removed'")"
  [[ "$ours_torn" == kept ]] || check_error "ours removed the session of the torn transcript"
  note "torn message row: OpenClaw $oc_torn the session, ours $ours_torn it"
  if [[ "$oc_torn" == removed ]]; then
    # The one difference by design: OpenClaw counts it as missing, ours does not.
    [[ "$diffs" == "missing: openclaw $(jsonq oc.json 'j.missing'), ours $(( $(jsonq oc.json 'j.missing') - 1 )); " ]] \
      || [[ -z "$diffs" ]] || check_error "summary differs beyond the torn transcript: $diffs"
  else
    [[ -z "$diffs" ]] || check_error "summary differs: $diffs"
  fi
  local sa sb
  sa="$(jsonq list-ours.json "j.sessions.map(s => s.key).filter(k => k !== '$torn').sort().join(' ')")"
  sb="$(jsonq list-oc.json "j.sessions.map(s => s.key).filter(k => k !== '$torn').sort().join(' ')")"
  [[ "$sa" == "$sb" ]] || check_error "survivors differ: ours [$sa] / openclaw [$sb]"
  node_check compare-archived.mjs "$ours_s/agents/$a/agent/openclaw-agent.sqlite" "$oc_s/agents/$a/agent/openclaw-agent.sqlite" \
    || check_error "archived rows or reasons differ"
  node_check compare-archive-files.mjs "$ours_s/agents/$a" "$oc_s/agents/$a" > archives.txt 2>&1 \
    || { cat archives.txt >&2; check_error "transcript archives or files differ"; }
  note "missing $(jsonq ours.json 'j.data.agents[0].cleanup.missing'), dmScopeRetired $(jsonq ours.json 'j.data.agents[0].cleanup.dmScopeRetired'), archived $(jsonq ours.json 'j.data.agents[0].cleanup.archived'), pruned $(jsonq ours.json 'j.data.agents[0].cleanup.pruned'): same counts, survivors, archive rows and files as openclaw sessions cleanup --enforce"
}
CHECKS+=(prune_cleanup_parity)

# ---- prune's disk-budget pass against OpenClaw's own enforceSqliteSessionHistoryDiskBudget ----
# One aged copy of the live store (checks/budget-history.mjs: two sessions get new session ids
# twice through OpenClaw's SDK, leaving two historical windows with transcripts; then the rows
# are re-timed as in the cleanup checks), with maxEntries 5 (sessions removed, so archives
# written by the same run, and six archived by the cap) and a budget of exactly what the
# database's schema alone takes (the least budget ours accepts; 1 KiB is refused first, with
# that figure named, and changes nothing), which no store with rows meets, so every sub-step
# runs to its end: archives, the retained .reset file, both windows, the cap's archived
# sessions. OpenClaw's `sessions cleanup --enforce --json` (offline through
# --store) on one copy, our `prune --enforce` on the other: the same summary counts and
# diskBudget counts, the same survivors, the same archives and files (an archive OpenClaw's
# delete wrote before the run evicted on both sides), except by design every archive this
# run writes, which ours keeps and OpenClaw's budget removes again or never writes (the
# sessions the budget deletes; docs/openclaw/MAINTENANCE.md §3.3): OpenClaw's removedFiles
# counts them, ours does not.
# The byte figures, exactly: both sides measure the same files (the database, its -wal, the
# files of sessions/, cold/ and the prompt cache) when the pass starts and when it ends, but
# OpenClaw's writer has not checkpointed its WAL when the pass starts, while ours has (our
# writer closes after each step). A third copy shows that state: OpenClaw's own cleanup with a
# budget it does not exceed (checks/budget-start.mjs, run beside the other two), measured
# with OpenClaw's own measure as the run left it, which must be OpenClaw's totalBytesBefore,
# and again once checkpointed, which must be ours. totalBytesAfter: ours is OpenClaw's plus
# the archive files ours keeps by design.
check_prune_budget_parity() {
  local base ours_s oc_s rc a=research m schema
  # The re-timing names the committed fixture's keys (tests/fixtures), so it starts from that store.
  base="$CHECK_DIR/stores/budget-base/.openclaw"; mkdir -p "$(dirname "$base")"
  cp -a "$REPO_ROOT/tests/fixtures/openclaw-2026.9.6/live/.openclaw" "$base"; chmod -R u+w "$base"
  oc_sdk "$base" budget-history.mjs "$a" "agent:$a:main" "agent:$a:telegram:direct:123458" > history.json \
    || check_error "could not give sessions historical windows"
  oc_sdk "$base" prune-retime.mjs "$base" "$REF_ROOT/checks/prune-spec-research.json" > retime.json || check_error "re-timing failed"
  # An archive older than the run (OpenClaw's own delete), which the budget's first step evicts
  # on both sides.
  oc_sdk "$base" sdk-mutate.mjs delete "$a" "agent:$a:scratch-2" > old-archive.json || check_error "could not delete scratch-2 through the SDK"
  local old_archive
  old_archive="$(cd "$base/agents/$a/sessions" && ls -- *.jsonl.deleted.* 2>/dev/null | head -n 1)"
  [[ -n "$old_archive" ]] || check_error "OpenClaw's delete of scratch-2 left no archive file"
  # The schema's own pages: the header page and one root page per table and index.
  local agent_db="$base/agents/$a/agent/openclaw-agent.sqlite"
  schema=$(( $(node_check sql-value.mjs "$agent_db" "SELECT page_size FROM pragma_page_size") \
    * (1 + $(node_check sql-value.mjs "$agent_db" "SELECT count(*) FROM sqlite_schema WHERE rootpage > 0")) ))
  node_check set-maintenance.mjs "$base" '{"maxEntries":5,"maxDiskBytes":"1kb"}'
  local tiny="$CHECK_DIR/stores/budget-tiny/.openclaw"; mkdir -p "$(dirname "$tiny")"; cp -a "$base" "$tiny"
  # A budget below the schema's own pages is refused when it is given on the command line; one
  # from the config is acted on, as OpenClaw's cleanup acts on it (so cron does not fail nightly).
  rc=0; ours_run tiny.json "$tiny" prune --agent "$a" --enforce --yes --json --max-disk-bytes 1kb || rc=$?
  [[ $rc -eq 2 ]] || check_error "ours prune with a 1 KiB budget exited $rc, not 2"
  grep -q "give at least $schema bytes" tiny.json* || check_error "the refusal of a 1 KiB budget does not name $schema bytes: $(cat tiny.json*)"
  cmp -s "$base/agents/$a/agent/openclaw-agent.sqlite" "$tiny/agents/$a/agent/openclaw-agent.sqlite" \
    || check_error "the refused 1 KiB budget changed the database"
  m="{\"maxEntries\":5,\"maxDiskBytes\":$schema}"
  node_check set-maintenance.mjs "$base" "$m"
  ours_s="$CHECK_DIR/stores/budget-ours/.openclaw"; oc_s="$CHECK_DIR/stores/budget-oc/.openclaw"
  mkdir -p "$(dirname "$ours_s")" "$(dirname "$oc_s")"; cp -a "$base" "$ours_s"; cp -a "$base" "$oc_s"
  local start_s="$CHECK_DIR/stores/budget-start/.openclaw" start_pid start_rc=0
  mkdir -p "$(dirname "$start_s")"; cp -a "$base" "$start_s"
  node_check set-maintenance.mjs "$start_s" '{"maxEntries":5,"maxDiskBytes":"10gb"}'
  oc_sdk "$start_s" budget-start.mjs "$a" "$start_s/agents/$a/agent/openclaw-agent.sqlite" > start.json 2> start.json.err &
  start_pid=$!
  rc=0; oc_run oc.json "$oc_s" sessions cleanup --enforce --agent "$a" \
    --store "$oc_s/agents/$a/agent/openclaw-agent.sqlite" --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw sessions cleanup --enforce exited $rc"
  # Ours reads the re-timing instant as "now" (OpenClaw ran seconds after it: no row is within
  # an hour of a threshold).
  local now; now="$(jsonq retime.json 'j.now')"
  rc=0; OURS_NOW_MS="$now" ours_run ours.json "$ours_s" prune --agent "$a" --enforce --yes --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "ours prune exited $rc"
  local k theirs mine diffs=""
  for k in beforeCount afterCount modelRunPruned archived capArchived pruned capped; do
    theirs="$(jsonq oc.json "j.$k")"; mine="$(jsonq ours.json "j.data.agents[0].cleanup.$k")"
    [[ "$theirs" == "$mine" ]] || diffs+="$k: openclaw $theirs, ours $mine; "
  done
  for k in removedEntries overBudget maxBytes highWaterBytes; do
    theirs="$(jsonq oc.json "j.diskBudget.$k")"; mine="$(jsonq ours.json "j.data.agents[0].cleanup.diskBudget.$k")"
    [[ "$theirs" == "$mine" ]] || diffs+="diskBudget.$k: openclaw $theirs, ours $mine; "
  done
  [[ -z "$diffs" ]] || check_error "summary differs: $diffs"
  # Every sub-step ran.
  local steps
  steps="$(jsonq ours.json '[...new Set(j.data.agents[0].budget.removed.map(r => r.step))].sort().join(" ")')"
  [[ "$steps" == "archive archived-session retained-file window" ]] || check_error "not every sub-step ran: [$steps]"
  oc_run list-oc.json "$oc_s" sessions --agent "$a" --json --limit all || check_error "OpenClaw cannot list its cleaned store"
  oc_run list-ours.json "$ours_s" sessions --agent "$a" --json --limit all || check_error "OpenClaw cannot list our pruned store"
  local sa sb
  sa="$(jsonq list-ours.json "j.sessions.map(s => s.key).sort().join(' ')")"
  sb="$(jsonq list-oc.json "j.sessions.map(s => s.key).sort().join(' ')")"
  [[ "$sa" == "$sb" ]] || check_error "survivors differ: ours [$sa] / openclaw [$sb]"
  node_check compare-archived.mjs "$ours_s/agents/$a/agent/openclaw-agent.sqlite" "$oc_s/agents/$a/agent/openclaw-agent.sqlite" \
    || check_error "archived rows or reasons differ"
  # By design ours keeps every archive its own run wrote (of the sessions it removes, the
  # windows and sessions its budget evicts), which OpenClaw's budget removes again: those are
  # the archive rows ours has that the store did not have before the run. Everything else must
  # be the same, the older archive evicted on both sides.
  local before_keys after_keys own_run
  before_keys="$(node_check sql-value.mjs "$base/agents/$a/agent/openclaw-agent.sqlite" "SELECT json_group_array(DISTINCT session_key) FROM session_transcript_archives")"
  after_keys="$(node_check sql-value.mjs "$ours_s/agents/$a/agent/openclaw-agent.sqlite" "SELECT json_group_array(DISTINCT session_key) FROM session_transcript_archives")"
  printf '{"before":%s,"after":%s}\n' "$before_keys" "$after_keys" > archive-keys.json
  own_run="$(jsonq archive-keys.json 'JSON.stringify(j.after.filter(k => !j.before.includes(k)))')"
  [[ ! -e "$ours_s/agents/$a/sessions/$old_archive" && ! -e "$oc_s/agents/$a/sessions/$old_archive" ]] \
    || check_error "the archive older than the run ($old_archive) was not evicted on both sides"
  local evicted
  evicted="$(jsonq ours.json 'JSON.stringify(j.data.agents[0].budget.removed.filter(r => r.step === "archived-session").map(r => r.name))')"
  node_check compare-archive-files.mjs "$ours_s/agents/$a" "$oc_s/agents/$a" "$own_run" "$evicted" > archives.txt 2>&1 \
    || { cat archives.txt >&2; check_error "transcript archives or files differ"; }
  # removedFiles: OpenClaw's counts the archives of this run it removed again, ours keeps them
  # (and the archives of the sessions the budget deletes, which OpenClaw never writes).
  local kept_files never_files rf_oc rf_ours
  kept_files="$(sed -n 's/^ours only: \([0-9]*\) files, [0-9]* bytes$/\1/p' archives.txt)"
  never_files="$(sed -n 's/^never written by openclaw: \([0-9]*\) files, [0-9]* bytes$/\1/p' archives.txt)"
  rf_oc="$(jsonq oc.json 'j.diskBudget.removedFiles')"; rf_ours="$(jsonq ours.json 'j.data.agents[0].cleanup.diskBudget.removedFiles')"
  [[ -n "$kept_files" && -n "$never_files" && "$rf_oc" == "$((rf_ours + kept_files - never_files))" ]] \
    || check_error "diskBudget.removedFiles: openclaw $rf_oc, ours $rf_ours + the ${kept_files:-?} archive files ours keeps - ${never_files:-?} OpenClaw never writes"
  node_check integrity.mjs "$ours_s/agents/$a/agent/openclaw-agent.sqlite" > integrity.txt 2>&1 \
    || check_error "integrity: $(head -n 3 integrity.txt)"
  # The byte figures (see above).
  wait "$start_pid" || start_rc=$?
  [[ $start_rc -eq 0 ]] || { tail -n 20 start.json.err >&2; check_error "budget-start.mjs exited $start_rc"; return 0; }
  local ob oa fb mb ma mf kept wal ckpt
  ob="$(jsonq oc.json 'j.diskBudget.totalBytesBefore')"; oa="$(jsonq oc.json 'j.diskBudget.totalBytesAfter')"
  fb="$(jsonq oc.json 'j.diskBudget.freedBytes')"
  mb="$(jsonq ours.json 'j.data.agents[0].cleanup.diskBudget.totalBytesBefore')"
  ma="$(jsonq ours.json 'j.data.agents[0].cleanup.diskBudget.totalBytesAfter')"
  mf="$(jsonq ours.json 'j.data.agents[0].cleanup.diskBudget.freedBytes')"
  wal="$(jsonq start.json 'j.start.databaseWalBytes')"; ckpt="$(jsonq start.json 'j.checkpointed.totalBytes')"
  kept="$(sed -n 's/^ours only: [0-9]* files, \([0-9]*\) bytes$/\1/p' archives.txt)"
  [[ "$(jsonq start.json 'j.start.totalBytes')" == "$ob" ]] \
    || check_error "OpenClaw's totalBytesBefore $ob is not the files at the pass's start: $(cat start.json)"
  [[ "$mb" == "$ckpt" ]] || check_error "totalBytesBefore: ours $mb, OpenClaw's files at the pass's start once checkpointed $ckpt ($(cat start.json))"
  # The database ours leaves also holds the rows of those archives (their blobs), which
  # OpenClaw's incremental vacuum gave back: at most the pages those blobs fill, plus two.
  local db_ours db_oc page blobs dbdiff f
  db_ours="$(stat -c %s "$ours_s/agents/$a/agent/openclaw-agent.sqlite")"
  db_oc="$(stat -c %s "$oc_s/agents/$a/agent/openclaw-agent.sqlite")"
  for f in "$ours_s" "$oc_s"; do
    [[ ! -s "$f/agents/$a/agent/openclaw-agent.sqlite-wal" ]] || check_error "a -wal is left in $f: the byte figures assume none"
  done
  page="$(node_check sql-value.mjs "$ours_s/agents/$a/agent/openclaw-agent.sqlite" "SELECT page_size FROM pragma_page_size")"
  blobs="$(node_check sql-value.mjs "$ours_s/agents/$a/agent/openclaw-agent.sqlite" "SELECT coalesce(sum(length(archive_blob) + length(archive_name) + 200), 0) FROM session_transcript_archives")"
  dbdiff=$((db_ours - db_oc))
  [[ $dbdiff -ge 0 && $dbdiff -le $(( page * (2 + (blobs + page - 1) / page) )) ]] \
    || check_error "our database is $dbdiff bytes larger than OpenClaw's, more than the pages of the $blobs bytes of archive rows it keeps"
  [[ -n "$kept" && "$ma" == "$((oa + kept + dbdiff))" ]] \
    || check_error "totalBytesAfter: ours $ma, OpenClaw $oa + the archive files ours keeps ${kept:-?} + its database's extra $dbdiff"
  [[ "$fb" == "$((ob - oa))" && "$mf" == "$((mb - ma))" ]] || check_error "freedBytes: ours $mf of $mb - $ma, OpenClaw $fb of $ob - $oa"
  note "disk budget: removedFiles $(jsonq ours.json 'j.data.agents[0].cleanup.diskBudget.removedFiles'), removedEntries $(jsonq ours.json 'j.data.agents[0].cleanup.diskBudget.removedEntries') as OpenClaw's; bytes before/after/freed ours $mb/$ma/$mf, openclaw $ob/$oa/$fb: before = OpenClaw's less its unflushed WAL ($wal bytes, checkpointed: $ckpt), after = OpenClaw's + $kept bytes of archive files ours keeps ($kept_files, of which $never_files OpenClaw never writes; OpenClaw's removedFiles $rf_oc counts the others, ours $rf_ours does not) + $dbdiff bytes of database holding their rows"
}
CHECKS+=(prune_budget_parity)

# ---- du --content: inline images as OpenClaw's SDK writes them ------------------------------
# OpenClaw's SDK appends three view_image tool results (base64 images of 400, 250 and 150 KB) to
# a session of main (checks/sdk-images.mjs) and reads the transcript back; our
# `du --content KEY --json` must count, for that transcript, the image blocks and bytes the SDK's
# own reads sum before and after, every inline payload alike. The payloads are seeded random
# base64, which OpenClaw's redaction shortens in places (a multi-byte "…": bytes, not characters).
check_du_content_sdk_images() {
  local s key sid before rc sizes=(400000 250000 150000) added=0 n
  s="$(copy_store live du-images)"
  ours_run rows.json "$s" list --json --limit all || { check_error "list failed"; return 0; }
  read -r key sid <<< "$(jsonq rows.json 'const r = j.data.find(r => r.agentId === "main" && !r.archived && r.category !== "main" && r.sessionId); r ? r.sessionKey + " " + r.sessionId : ""')"
  [[ -n "${sid:-}" ]] || { check_error "no session of main to append to"; return 0; }
  ours_run before.json "$s" du --content "$key" --json || { check_error "du --content before"; return 0; }
  before="$(jsonq before.json 'j.data.agents[0].byBlock["image (inline base64)"]?.bytes ?? 0')"
  rc=0; oc_sdk "$s" sdk-images.mjs main "$key" "$sid" "${sizes[@]}" > sdk.json 2> sdk.err || rc=$?
  [[ $rc -eq 0 ]] || { check_error "SDK append/read failed ($rc): $(tail -n 3 sdk.json sdk.err)"; return 0; }
  ours_run after.json "$s" du --content "$key" --json || { check_error "du --content after"; return 0; }
  for n in "${sizes[@]}"; do added=$((added + n)); done
  local ours_img ours_media ours_sid sdk_img sdk_media sdk_blocks ours_blocks
  ours_sid="$(jsonq after.json 'j.data.agents[0].sessionId')"
  ours_img="$(jsonq after.json 'j.data.agents[0].byBlock["image (inline base64)"]?.bytes ?? 0')"
  ours_blocks="$(jsonq after.json 'j.data.agents[0].byBlock["image (inline base64)"]?.count ?? 0')"
  ours_media="$(jsonq after.json 'j.data.agents[0].inlineMediaBytes')"
  sdk_img="$(jsonq sdk.json 'j.imageBytes')"; sdk_blocks="$(jsonq sdk.json 'j.imageBlocks')"
  sdk_media="$(jsonq sdk.json 'j.inlineMediaBytes')"
  [[ "$ours_sid" == "$sid" ]] || check_error "du --content $key measured session $ours_sid, not $sid"
  [[ "$ours_img" == "$sdk_img" && "$ours_blocks" == "$sdk_blocks" ]] ||
    check_error "image bytes: ours $ours_img in $ours_blocks blocks, the SDK's read $sdk_img in $sdk_blocks"
  [[ "$ours_media" == "$sdk_media" ]] || check_error "inline media bytes: ours $ours_media, the SDK's read $sdk_media"
  [[ "$before" == "$(jsonq sdk.json 'j.before.imageBytes')" ]] ||
    check_error "image bytes before: ours $before, the SDK's read $(jsonq sdk.json 'j.before.imageBytes')"
  # The largest event named is one of the appended tool results, with its image.
  [[ "$(jsonq after.json 'const e = j.data.agents[0].largest[0]; e.toolName + " " + e.mediaBytes')" == "view_image $(jsonq sdk.json 'j.added[0]')" ]] ||
    check_error "largest event: $(jsonq after.json 'JSON.stringify(j.data.agents[0].largest[0])')"
  note "session $key: ours ${ours_img} image bytes in $ours_blocks blocks (before $before), the SDK's read $sdk_img in $sdk_blocks; inline media $ours_media; appended $added bytes, $(jsonq sdk.json 'j.redacted') of ${#sizes[@]} images shortened by OpenClaw's redaction"
}
CHECKS+=(du_content_sdk_images)

# ---- compact: inline media out of rows, OpenClaw still reads every transcript -----------------
# OpenClaw's SDK appends view_image tool results of 2 MB, 600 KB, 5 MB (above the 4 MiB a zstd
# frame may hold: stored plain) and 30 KB of base64 to a session of main (checks/sdk-images.mjs).
# `compact --reclaim` takes every payload of 64 KiB or more out of the rows; then OpenClaw lists
# every session, reads every transcript back through its SDK, and preflights a snapshot as
# `exact` (openclaw_accepts); its SDK reads the three images as omitted blocks (`omitted: true`,
# their decoded `bytes`) and the small one inline; every table but transcript_events is as it
# was, row for row; the database shrinks by at least the media share. `compact --restore` then
# gives every table back byte for byte as OpenClaw wrote it (zstd frames included).
check_compact_sdk_images() {
  local s key sid rc db sizes=(2000000 600000 5000000 30000) media=0 n before after
  s="$(copy_store live compact-images)"
  db="$s/agents/main/agent/openclaw-agent.sqlite"
  ours_run rows.json "$s" list --json --limit all || { check_error "list failed"; return 0; }
  read -r key sid <<< "$(jsonq rows.json 'const r = j.data.find(r => r.agentId === "main" && !r.archived && r.category !== "main" && r.sessionId); r ? r.sessionKey + " " + r.sessionId : ""')"
  [[ -n "${sid:-}" ]] || { check_error "no session of main to append to"; return 0; }
  rc=0; oc_sdk "$s" sdk-images.mjs main "$key" "$sid" "${sizes[@]}" > sdk.json 2> sdk.err || rc=$?
  [[ $rc -eq 0 ]] || { check_error "SDK append/read failed ($rc): $(tail -n 3 sdk.json sdk.err)"; return 0; }
  # Checkpointed by a read-only pass of ours, so that the sizes compare the database alone.
  ours_run reclaim0.json "$s" reclaim --yes --json || { check_error "reclaim before failed"; return 0; }
  node_check table-digests.mjs "$db" > digests-before.json || { check_error "table digests failed"; return 0; }
  before="$(stat -c %s "$db")"
  ours_run compact.json "$s" compact --yes --reclaim --json || { check_error "compact failed: $(tail -n 3 compact.json.err)"; return 0; }
  [[ "$(jsonq compact.json 'j.data.applied')" == true ]] || { check_error "compact applied nothing: $(head -c 400 compact.json)"; return 0; }
  media="$(jsonq compact.json 'j.data.plan.agents.flatMap(a => a.sessions).reduce((n, s) => n + s.mediaBytes, 0)')"
  n="$(jsonq compact.json 'j.data.plan.agents.flatMap(a => a.sessions).reduce((n, s) => n + s.events, 0)')"
  [[ "$n" == 3 ]] || check_error "compact took $n events, expected the 3 images of 64 KiB or more"
  after="$(stat -c %s "$db")"
  [[ $((before - after)) -ge $((media * 9 / 10)) ]] || check_error "database $before -> $after bytes: shrank less than the $media bytes of media taken out"
  openclaw_accepts "$s" compacted main
  rc=0; oc_sdk "$s" sdk-omitted.mjs main "$key" "$sid" > omitted.json 2> omitted.err || rc=$?
  [[ $rc -eq 0 ]] || { check_error "SDK read of the compacted transcript failed ($rc): $(tail -n 3 omitted.err)"; return 0; }
  [[ "$(jsonq omitted.json 'j.omitted + " " + j.malformed')" == "3 0" ]] || check_error "the SDK read $(cat omitted.json), expected 3 omitted images"
  [[ "$(jsonq omitted.json 'j.inline')" -ge 1 ]] || check_error "the 30 KB image is not inline any more: $(cat omitted.json)"
  node_check table-digests.mjs "$db" > digests-compacted.json || { check_error "table digests failed"; return 0; }
  local changed
  changed="$("$OPENCLAW_REF_NODE" -e '
    const a = JSON.parse(require("fs").readFileSync("digests-before.json")), b = JSON.parse(require("fs").readFileSync("digests-compacted.json"));
    console.log(Object.keys(a).filter(t => t !== "transcript_events" && JSON.stringify(a[t]) !== JSON.stringify(b[t])).join(" "))')"
  [[ -z "$changed" ]] || check_error "compact changed tables besides transcript_events: $changed"
  ours_run restore.json "$s" compact --restore --yes --json || { check_error "compact --restore failed: $(tail -n 3 restore.json.err)"; return 0; }
  node_check table-digests.mjs "$db" > digests-restored.json || { check_error "table digests failed"; return 0; }
  cmp -s digests-before.json digests-restored.json || check_error "after --restore the rows are not as OpenClaw wrote them: $(diff <(tr ',' '\n' < digests-before.json) <(tr ',' '\n' < digests-restored.json) | head -n 4 | tr '\n' ' ')"
  [[ -z "$(ls -A "$s/openclaw-sessions/media/main" 2>/dev/null)" ]] || check_error "payload files left after --restore"
  note "session $key: $n events, $media bytes of media out; database $before -> $after bytes after --reclaim; OpenClaw read 3 omitted images ($(jsonq omitted.json 'j.omittedBytes') bytes), $(jsonq omitted.json 'j.inline') inline; --restore gave every row back as OpenClaw wrote it"
}
CHECKS+=(compact_sdk_images)
