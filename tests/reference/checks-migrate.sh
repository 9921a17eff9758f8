# shellcheck shell=bash
# Checks of `migrate legacy` (docs/openclaw/IMPORT.md), sourced by run.sh.

# import_both NAME MAKE... : make the same legacy store twice at one path (absolute paths end up
# in rows, ids and the manifest), import it once with OpenClaw's `doctor --session-sqlite import`
# and once with ours. Leaves stores/NAME-openclaw/.openclaw and stores/NAME/.openclaw (ours).
import_both() {
  local name="$1" rc; shift
  local at="$CHECK_DIR/stores/$name"
  mkdir -p "$CHECK_DIR/stores"
  "$@" "$at"
  rc=0; oc_run "oc-import-$name.json" "$at/.openclaw" doctor --session-sqlite import --session-sqlite-all-agents --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "$name: openclaw doctor --session-sqlite import exited $rc"
  mv "$at" "$at-openclaw"
  "$@" "$at"
  rc=0; ours_run "ours-import-$name.json" "$at/.openclaw" --json migrate legacy --all-agents --yes || rc=$?
  [[ $rc -eq 0 ]] || check_error "$name: openclaw-sessions migrate legacy exited $rc"
}

# Same rows (every table), same moves and an equivalent manifest for the imports of one store.
compare_imports() {
  local name="$1" ours="$CHECK_DIR/stores/$1/.openclaw" theirs="$CHECK_DIR/stores/$1-openclaw/.openclaw" db a n=0
  for db in $(cd "$theirs" && find agents -path '*/agent/openclaw-agent.sqlite' | LC_ALL=C sort); do
    a="$(echo "$db" | cut -d/ -f2)"; n=$((n + 1))
    if [[ ! -f "$ours/$db" ]]; then check_error "$name: ours has no $db"; continue; fi
    if node_check compare-imports.mjs "$ours/$db" "$theirs/$db" > "cmp-$name-$a.txt" 2>&1; then
      note "$name/$a: $(tail -n 1 "cmp-$name-$a.txt")"
    else
      head -n 40 "cmp-$name-$a.txt" >&2; check_error "$name/$a: databases differ"
    fi
  done
  [[ $n -gt 0 ]] || check_error "$name: OpenClaw's import made no agent database"
  # Files: what stayed in sessions/ and what moved, archive stamps and run ids normalised.
  local files='find agents session-sqlite-migration-runs -type f ! -name "*.sqlite*" | sed -E "s/imported-[0-9]+/imported-N/; s/session-sqlite-[0-9]+-[0-9a-f]+\.json/RUN.json/" | LC_ALL=C sort'
  if ! diff <(cd "$theirs" && eval "$files") <(cd "$ours" && eval "$files") > "files-$name.diff"; then
    cat "files-$name.diff" >&2; check_error "$name: different files moved or left"
  fi
  # Manifest: per target and move, the kind, classification, reason, key, source and dependencies.
  local expr='j.targets.map(t=>[t.agentId,t.validationBeforeArchive,t.issues.map(i=>i.code+" "+(i.sessionKey??"")).sort(),t.completedMoves.map(m=>[m.kind,m.artifact.classification,m.artifact.reason,m.sessionKey??"",m.sourcePath,m.archivePath.replace(/imported-\d+/,"imported-N"),m.artifact.identity.size,m.artifact.identity.sha256,m.artifact.dependencies])])'
  jsonq "$(ls "$theirs"/session-sqlite-migration-runs/*.json)" "$expr" | sed "s#$CHECK_DIR/stores/$name-openclaw#ROOT#g; s#$CHECK_DIR/stores/$name#ROOT#g" > "manifest-$name-openclaw.json"
  jsonq "$(ls "$ours"/session-sqlite-migration-runs/*.json)" "$expr" | sed "s#$CHECK_DIR/stores/$name-openclaw#ROOT#g; s#$CHECK_DIR/stores/$name#ROOT#g" > "manifest-$name-ours.json"
  if ! diff "manifest-$name-openclaw.json" "manifest-$name-ours.json" > /dev/null; then
    diff <(tr '[' '\n' < "manifest-$name-openclaw.json") <(tr '[' '\n' < "manifest-$name-ours.json") | head -n 20 >&2
    check_error "$name: the manifests record different moves"
  fi
}

# migrate_legacy_matches_openclaw: on the generated legacy store and on a store of import edge
# cases, our `migrate legacy` and `openclaw doctor --session-sqlite import` write the same rows in
# every table (decompressed-equal and byte-equal zstd frames), move the same files under the same
# names and record equivalent manifests; OpenClaw accepts our result, and its Gateway starts on it.
check_migrate_legacy_matches_openclaw() {
  import_both generated cp_legacy
  compare_imports generated
  import_both edge python3 "$REF_ROOT/make-edge-legacy.py"
  compare_imports edge
  openclaw_accepts "$CHECK_DIR/stores/generated/.openclaw" generated
  # The edge store keeps a non-canonical key ("Agent:Main:Weird Key ") verbatim, as OpenClaw's
  # import does; OpenClaw then refuses to read its own import until `doctor --fix`. Ours must be
  # accepted whenever OpenClaw accepts its own result.
  if oc_run oc-edge-sessions.json "$CHECK_DIR/stores/edge-openclaw/.openclaw" sessions --all-agents --json --limit all; then
    openclaw_accepts "$CHECK_DIR/stores/edge/.openclaw" edge
  else
    note "edge: OpenClaw does not read its own import of the edge store either ($(grep -m1 'Reason:' oc-edge-sessions.json.err | sed 's/.*Reason: //'))"
  fi
  # The Gateway refuses to start while a legacy store remains; after our import it starts.
  local s="$CHECK_DIR/stores/generated/.openclaw" gw i ok=0
  setsid "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" OPENCLAW_STATE_DIR="$s" \
    OPENCLAW_NO_RESPAWN=1 "$HARNESS/oc" gateway run --bind loopback --port "$(free_port)" --allow-unconfigured --auth none \
    > gw.out 2> gw.err < /dev/null & gw=$!
  for i in $(seq 1 600); do
    if grep -q '"role": "gateway"\|cronOwnerProjection' "$s/tmp/openclaw-$(id -u)/gateway.state.lock" 2>/dev/null; then ok=1; break; fi
    kill -0 "$gw" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 -- "-$gw" 2>/dev/null || true; wait "$gw" 2>/dev/null || true
  if [[ $ok -eq 1 ]]; then note "openclaw gateway run started on our import"
  else check_error "openclaw gateway run did not start on our import: $(tail -n 3 gw.err | tr '\n' ' ')"; fi
}
CHECKS+=(migrate_legacy_matches_openclaw)

# cp_legacy DIR : the generated store's legacy variant at DIR/.openclaw.
cp_legacy() { mkdir -p "$1"; cp -a "$STORE/legacy/.openclaw" "$1/.openclaw"; }

# sources_digest STATE : sha256 of every file in agents/*/sessions and the import archives, sorted
# (where a file is does not matter: the content must survive).
sources_digest() {
  (cd "$1" && find agents -path '*/sessions/*' -type f -o -path '*/session-sqlite-import-archive/*' -type f) |
    (cd "$1" && xargs -r sha256sum) | awk '{print $1}' | LC_ALL=C sort | uniq
}

# migrate_legacy_survives_kill9: a larger legacy store (gen-legacy.mjs, 3 x 60 sessions x 40
# events) imported by ours, killed with SIGKILL at 50 moments spread over the run (the first
# and last tenth included), each time checked
# (integrity_check and foreign_key_check of every database, no source file lost) and then run
# again to the end: the final databases equal an uninterrupted import's (compare-imports.mjs).
check_migrate_legacy_survives_kill9() {
  local gen="$CHECK_DIR/gen/.openclaw" ref="$CHECK_DIR/ref" k="$CHECK_DIR/k" i rc t0 t1 ms delay db bad=0 killed=0 finished=0
  mkdir -p "$CHECK_DIR/gen"
  "$OPENCLAW_REF_NODE" "$HARNESS/lib/gen-legacy.mjs" --state "$gen" --seed 11 --agents main,work,research \
    --sessions-per-agent 60 --events-per-session 40 > gen.json
  local sources; sources="$(sources_digest "$gen")"
  # The reference import runs at the path the killed runs use (rows record absolute paths).
  mkdir -p "$k"; cp -a "$gen" "$k/.openclaw"
  t0=$(date +%s%N)
  ours_run ref.json "$k/.openclaw" --json migrate legacy --all-agents --yes || { check_error "uninterrupted import failed"; return 0; }
  t1=$(date +%s%N); ms=$(( (t1 - t0) / 1000000 ))
  mv "$k" "$ref"
  note "uninterrupted import: $(jsonq ref.json 'j.data.agents.reduce((n,a)=>n+a.imported,0)') sessions, $(jsonq ref.json 'j.data.agents.reduce((n,a)=>n+a.importedTranscriptEvents,0)') events in ${ms} ms"
  for i in $(seq 1 50); do
    rm -rf "$k"; mkdir -p "$k"; cp -a "$gen" "$k/.openclaw"
    # Spread over the whole run, a tenth of the kills in each of its first and last tenths
    # (where SQLite creates and removes its WAL), the rest evenly between: per mille of ms.
    local pm
    if (( i <= 10 )); then pm=$(( (i - 1) * 10 ))
    elif (( i <= 40 )); then pm=$(( 100 + (i - 11) * 800 / 30 ))
    else pm=$(( 900 + (i - 40) * 10 )); fi
    delay=$(( ms * pm / 1000 ))
    "${NEUTRAL_ENV[@]}" HOME="$WORK/home-ours" "$OURS" --state-dir "$k/.openclaw" --json migrate legacy --all-agents --yes \
      > "kill-$i.json" 2> "kill-$i.err" < /dev/null & local pid=$!
    sleep "$(awk -v d="$delay" 'BEGIN { printf "%.3f", d / 1000 }')"
    if kill -9 "$pid" 2>/dev/null; then killed=$((killed + 1)); fi
    wait "$pid" 2>/dev/null || true
    local dbs=(); for db in "$k"/.openclaw/agents/*/agent/openclaw-agent.sqlite "$k"/.openclaw/state/openclaw.sqlite; do
      [[ -f "$db" ]] && dbs+=("$db"); done
    if [[ ${#dbs[@]} -gt 0 ]] && ! node_check integrity.mjs "${dbs[@]}" > "integrity-$i.txt" 2>&1; then
      cat "integrity-$i.txt" >&2; check_error "kill $i (after ${delay} ms): a database fails its integrity check"; bad=1
    fi
    [[ "$(sources_digest "$k/.openclaw")" == "$sources" ]] || { check_error "kill $i (after ${delay} ms): a source file was lost"; bad=1; }
    rc=0; ours_run "rerun-$i.json" "$k/.openclaw" --json migrate legacy --all-agents --yes || rc=$?
    [[ $rc -eq 0 ]] || { check_error "kill $i: the re-run exited $rc"; bad=1; continue; }
    for db in $(cd "$ref/.openclaw" && find agents -path '*/agent/openclaw-agent.sqlite' | LC_ALL=C sort); do
      node_check compare-imports.mjs "$k/.openclaw/$db" "$ref/.openclaw/$db" > "cmp-$i.txt" 2>&1 ||
        { head -n 10 "cmp-$i.txt" >&2; check_error "kill $i (after ${delay} ms): $db differs from the uninterrupted import"; bad=1; }
    done
    [[ -z "$(find "$k/.openclaw/agents" -name sessions.json)" ]] || { check_error "kill $i: a sessions.json was left after the re-run"; bad=1; }
    [[ "$(jsonq "kill-$i.json" 'j.ok' 2>/dev/null)" == true ]] && finished=$((finished + 1))
  done
  note "50 runs killed at moments spread over ${ms} ms (first and last tenth included) ($killed signalled, $finished had already finished); every store consistent, no source lost, every re-run equal to the uninterrupted import"
  [[ $bad -eq 0 ]] || return 0
}
CHECKS+=(migrate_legacy_survives_kill9)
