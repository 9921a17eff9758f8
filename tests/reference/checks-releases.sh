# shellcheck shell=bash
# The release matrix (sourced by run.sh): stores written by older OpenClaw releases' own code
# (openclaw/make-release-store.sh, one store per release, generated once a run and cached between
# runs), read by ours as that release reads them; what ours refuses there is refused before any
# change with the remedy that works; and each release still opens its store afterwards.
# docs/openclaw/RELEASES.md says which release writes which schema.
#
# Releases: RELEASE_MATRIX (default "2026.8.2 2026.9.5": agent schemas 19 and 21), and
# LEGACY_RELEASE (default 2026.7.35, before SQLite sessions) for the import guard.

RELEASE_MATRIX="${RELEASE_MATRIX:-2026.8.2 2026.9.5}"
LEGACY_RELEASE="${LEGACY_RELEASE:-2026.7.35}"

# release_store VER : the make-release-store.sh output of VER (legacy, imported, live, upgraded),
# generated on first use. Cached under the reference cache keyed by the generator's sources, so a
# second run on this machine reuses it (read-only: checks work on copies).
release_store() {
  local ver="$1" key dir logf tries=0
  key="$(cat "$HARNESS/make-release-store.sh" "$HARNESS/lib/gen-legacy.mjs" "$HARNESS/lib/sdk-phase-release.mjs" \
    "$HARNESS/lib/release-report.mjs" | sha256sum | cut -c1-16)"
  dir="$OPENCLAW_REF_DIR/release-stores/$ver-$key"
  if [[ ! -f "$dir/report/generator.json" ]]; then
    logf="$WORK/release-store-$ver.log"
    mkdir -p "$OPENCLAW_REF_DIR/release-stores"
    local extra=()
    [[ "$ver" == "$LEGACY_RELEASE" ]] || extra=(--upgraded)
    until "$HARNESS/make-release-store.sh" "$ver" --out "$dir.tmp" "${extra[@]}" > "$logf" 2>&1; do
      if grep -q 'holds' "$logf" && [[ $tries -lt 60 ]]; then tries=$((tries + 1)); sleep 15; continue; fi
      tail -n 30 "$logf" >&2
      echo "release_store: make-release-store.sh $ver failed" >&2
      return 1
    done
    rm -rf "$dir"; mv "$dir.tmp" "$dir"
  fi
  echo "$dir"
}

# copy_release VER VARIANT NAME : a private copy of that release's store variant.
copy_release() {
  local dir dst
  dir="$(release_store "$1")" || return 1
  [[ -d "$dir/$2/.openclaw" ]] || { echo "copy_release: no $2 store for $1" >&2; return 1; }
  dst="$CHECK_DIR/stores/$3"
  [[ ! -e "$dst" ]] || { echo "copy_release: $dst exists" >&2; return 1; }
  mkdir -p "$dst"; cp -a "$dir/$2/.openclaw" "$dst/.openclaw"
  echo "$dst/.openclaw"
}

# ocr VER STATE ARGS... : release VER's own CLI on STATE.
ocr() {
  local ver="$1" state="$2"; shift 2
  "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" \
    OPENCLAW_STATE_DIR="$state" OPENCLAW_NO_RESPAWN=1 \
    timeout -k 10 "$CMD_TIMEOUT" "$HARNESS/oc-release" "$ver" "$@" < /dev/null
}
ocr_run() {
  local out="$1" rc=0; shift
  echo "+ OPENCLAW_STATE_DIR=$2 openclaw@$1 ${*:3}" >&2
  ocr "$@" > "$out" 2> "$out.err" || rc=$?
  [[ $rc -ne 0 && -s "$out.err" ]] && sed 's/^/  openclaw stderr: /' "$out.err" | tail -n 20 >&2
  return "$rc"
}

# release_lists VER STATE OUT : VER's own `sessions --all-agents --json --limit all` on a throwaway
# copy of STATE (OpenClaw writes even when it reads); fails when it does not list.
release_lists() {
  local ver="$1" state="$2" out="$3" copy
  copy="$CHECK_DIR/stores/list-$RANDOM$RANDOM"
  mkdir -p "$copy"; cp -a "$state" "$copy/.openclaw"
  ocr_run "$out" "$ver" "$copy/.openclaw" sessions --all-agents --json --limit all
}

# The read-only commands of issue "every release's store": each must exit 0 and leave every byte.
release_read_commands() {
  local key="$1" word="$2"
  cat <<EOF
status
status --json
list --all-agents
list --all-agents --json --limit all
show $key
show $key --json
transcript cat $key
transcript delta $key --json
transcript catalog $key --json
transcript export $key --format markdown
archives list --all-agents
archives list --all-agents --json
search $word --all-agents
search $word --all-agents --archived
du --all-agents
doctor --all-agents
prune --all-agents --dry-run
delete $key --dry-run
patch $key --set label="renamed" --dry-run
archive $key --dry-run
prune --all-agents --enforce --dry-run
EOF
}

# reads VER: every read-only command on VER's live store exits 0 and changes no byte; list --json
# lists the sessions VER itself lists; transcript cat prints every stored row of every session byte
# for byte; dry runs of changes show their plan and say the real run would be refused.
release_reads() {
  local ver="$1" s rc i=0 cmd key n
  s="$(copy_release "$ver" live "live-$ver")"
  rc=0; release_lists "$ver" "$s" "oc-list.json" || rc=$?
  [[ $rc -eq 0 ]] || { check_error "openclaw@$ver sessions exited $rc on its own store"; return 0; }
  key="$(jsonq oc-list.json 'j.sessions.find(s=>s.agentId==="main" && /discord:channel/.test(s.key)).key')"
  tree_manifest "$s" > before.txt
  while IFS= read -r cmd; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    rc=0; eval "ours_run out-$i.txt \"\$s\" $cmd" || rc=$?
    [[ $rc -eq 0 ]] || check_error "$ver: 'openclaw-sessions $cmd' exited $rc: $(head -c 300 "out-$i.txt.err")"
    if grep -qiE 'no such (table|column)|panicked' "out-$i.txt" "out-$i.txt.err"; then
      check_error "$ver: 'openclaw-sessions $cmd' printed an SQL error or a panic"
    fi
  done < <(release_read_commands "$key" summarize)
  tree_manifest "$s" > after.txt
  diff -u before.txt after.txt >&2 || check_error "$ver: a read-only command changed the state dir"
  # Dry runs of changes: the plan, and no refusal, since prune and patch have writers proven on
  # the matrix's releases (checks-release-writes.sh; a store whose prune stays refused says so:
  # release_refusals, tests/cli).
  ! grep -q "the real run would be refused" "out-$i.txt.err" || check_error "$ver: the prune dry run says the real run would be refused"
  ! grep -q "the real run would be refused" "out-$((i - 2)).txt.err" || check_error "$ver: the patch dry run says the real run would be refused"
  # list --json: the same sessions as the release's own list.
  if node_check list-compare.mjs oc-list.json out-4.txt > cmp.txt 2>&1; then
    note "$ver: $i commands exit 0 and change nothing; list $(tail -n 1 cmp.txt | cut -d' ' -f1-2)"
  else
    cat cmp.txt >&2; check_error "$ver: list --json differs from openclaw@$ver's list"
  fi
  # transcript cat: every session's stored rows, byte for byte.
  n=0
  while IFS=$'\t' read -r agent sk sid; do
    n=$((n + 1))
    node_check stored-events.mjs "$s/agents/$agent/agent/openclaw-agent.sqlite" "$sid" > "rows-$n.jsonl" ||
      { check_error "stored-events.mjs failed for $agent $sid"; continue; }
    rc=0; ours "$s" transcript cat "$sk" --agent "$agent" > "cat-$n.jsonl" 2> "cat-$n.err" || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$ver: transcript cat $sk exited $rc"; continue; }
    cmp -s "rows-$n.jsonl" "cat-$n.jsonl" || check_error "$ver: transcript cat $sk differs from its stored rows"
  done < <(jsonq oc-list.json 'j.sessions.map(s=>[s.agentId,s.key,s.sessionId].join("\t")).join("\n")')
  [[ $n -ge 20 ]] || check_error "$ver: only $n sessions to compare (the store guarantees 35 or more)"
  note "$ver: transcript cat of $n sessions equals their rows"
}
check_release_reads_19() { release_reads "$(set -- $RELEASE_MATRIX; echo "$1")"; }
check_release_reads_21() { release_reads "$(set -- $RELEASE_MATRIX; echo "${2:-$1}")"; }
CHECKS+=(release_reads_19 release_reads_21)

# upgraded_reads: a schema-23 store that 2026.9.6 upgraded from the first release of the matrix
# (it lacks columns a fresh 23 has) reads as 2026.9.6 lists it.
check_upgraded_reads() {
  local ver s rc
  ver="$(set -- $RELEASE_MATRIX; echo "$1")"
  s="$(copy_release "$ver" upgraded upgraded)"
  rc=0; oc_run oc.json "$(cp -a "$s" "$CHECK_DIR/stores/upgraded-oc" && echo "$CHECK_DIR/stores/upgraded-oc")" sessions --all-agents --json --limit all || rc=$?
  [[ $rc -eq 0 ]] || { check_error "openclaw sessions exited $rc on the upgraded store"; return 0; }
  tree_manifest "$s" > before.txt
  rc=0; ours_run ours.json "$s" list --all-agents --json --limit all || rc=$?
  [[ $rc -eq 0 ]] || check_error "list exited $rc"
  for cmd in "doctor --all-agents" "status" "du --all-agents" "archives list --all-agents" "prune --all-agents --dry-run"; do
    # shellcheck disable=SC2086
    rc=0; ours_run out.txt "$s" $cmd || rc=$?
    [[ $rc -eq 0 ]] || check_error "'$cmd' exited $rc on the upgraded store"
  done
  tree_manifest "$s" > after.txt
  diff -u before.txt after.txt >&2 || check_error "a read-only command changed the upgraded store"
  if node_check list-compare.mjs oc.json ours.json > cmp.txt 2>&1; then note "upgraded from $ver: $(tail -n 1 cmp.txt | cut -d' ' -f1-2)"
  else cat cmp.txt >&2; check_error "list differs from 2026.9.6's on the upgraded store"; fi
}
CHECKS+=(upgraded_reads)

# release_refusals: every change without a writer proven on an older release's store is refused
# (exit 6, UNSUPPORTED_SCHEMA) before any change, names the release and both remedies, and the
# release still lists the store as before. checks-release-writes.sh proves patch, archive,
# unarchive, delete, reclaim, prune and the doctor's repairs that the release's own doctor makes
# on 19 and 21 (and prune of every release's store that writes 19: 2026.8.x and 2026.9.1 to
# 2026.9.4); what stays refused is prune on a schema-19 store of an owner whose cleanup is not
# reproduced: the first release's store stands for one (its state database says a 2026.9 build
# this tool does not know created it, as tests/cli does).
check_release_refusals() {
  local ver s rc cmd i=0 code hint owner=2026.9.0
  ver="$(set -- $RELEASE_MATRIX; echo "$1")"
  s="$(copy_release "$ver" live "refuse-$ver")"
  "$OPENCLAW_REF_NODE" -e '
    const { DatabaseSync } = require("node:sqlite"); const db = new DatabaseSync(process.argv[1]);
    db.exec("PRAGMA user_version = 15");
    db.prepare("UPDATE schema_meta SET app_version = ? WHERE meta_key = ?").run(process.argv[2], "primary");' \
    "$s/state/openclaw.sqlite" "$owner"
  release_lists "$ver" "$s" "before-$ver.json" || { check_error "openclaw@$ver does not list its own store"; return 0; }
  tree_manifest "$s" > "tree-$ver.txt"
  for cmd in "prune --all-agents --enforce --yes" "prune --agent work --max-entries 1 --enforce --yes"; do
    i=$((i + 1))
    rc=0; eval "ours_run out-$i.json \"\$s\" --json $cmd" || rc=$?
    code="$(jsonq "out-$i.json" 'j.error && j.error.code' 2>/dev/null || echo '?')"
    hint="$(jsonq "out-$i.json" 'j.error && (j.error.message + " / " + j.error.hint)' 2>/dev/null || echo '')"
    [[ $rc -eq 6 && "$code" == UNSUPPORTED_SCHEMA ]] || { check_error "$owner: '$cmd' exited $rc ($code), expected 6 UNSUPPORTED_SCHEMA"; continue; }
    [[ "$hint" == *"openclaw doctor --fix"* && "$hint" == *"migrate schema"* && "$hint" == *"$owner"* ]] ||
      check_error "$owner: '$cmd': the refusal does not name the release and both remedies: $hint"
  done
  tree_manifest "$s" > "tree-$ver-after.txt"
  diff -u "tree-$ver.txt" "tree-$ver-after.txt" >&2 || check_error "a refused change changed the store"
  release_lists "$ver" "$s" "after-$ver.json" || check_error "openclaw@$ver no longer lists its store"
  jsonq "after-$ver.json" '({schemaVersion:1,command:"list",ok:true,warnings:[],data:j.sessions.map(s=>({agentId:s.agentId,sessionKey:s.key,sessionId:s.sessionId,updatedAt:s.updatedAt,kind:s.kind,entry:{}}))})' > "after-$ver-as-ours.json"
  node_check list-compare.mjs "before-$ver.json" "after-$ver-as-ours.json" > /dev/null || check_error "$ver: its list changed"
  note "$i changes refused on a store of $owner (the $ver store relabelled), every byte kept"
}
CHECKS+=(release_refusals)

# restore_schema_change_refused: a schema-23 snapshot is not restored over a schema-19 database
# (in place or one session) without --allow-schema-change; nothing changes and the release
# still lists its store.
check_restore_schema_change_refused() {
  local ver s s23 snap rc
  ver="$(set -- $RELEASE_MATRIX; echo "$1")"
  s="$(copy_release "$ver" live old)"
  s23="$(copy_store live current)"
  rc=0; ours_run snap.json "$s23" --json backup create --agent main --repository "$CHECK_DIR/repo" || rc=$?
  [[ $rc -eq 0 ]] || { check_error "backup create on the 2026.9.6 store exited $rc"; return 0; }
  snap="$(jsonq snap.json '(j.data.snapshots||j.data)[0].path')"
  tree_manifest "$s" > before.txt
  rc=0; ours_run in-place.json "$s" --json backup restore "$snap" --in-place --yes || rc=$?
  [[ $rc -eq 6 ]] || check_error "restore --in-place of a schema-23 snapshot over schema 19 exited $rc, expected 6"
  grep -q 'installing it changes the schema' in-place.json || check_error "the refusal does not say the schema would change"
  rc=0; ours_run session.json "$s" --json backup restore "$snap" --session agent:main:main --yes || rc=$?
  [[ $rc -eq 6 ]] || check_error "restore --session from a schema-23 snapshot into schema 19 exited $rc, expected 6"
  tree_manifest "$s" > after.txt
  diff -u before.txt after.txt >&2 || check_error "a refused restore changed the store"
  release_lists "$ver" "$s" after.json || check_error "openclaw@$ver no longer lists its store"
  note "both restores refused; openclaw@$ver lists $(jsonq after.json 'j.sessions.length') sessions"
}
CHECKS+=(restore_schema_change_refused)

# ocr_sdk VER STATE SCRIPT ARGS... : a checks/ script with release VER's own SDK on STATE.
ocr_sdk() {
  local ver="$1" state="$2" script="$3"; shift 3
  "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_STATE_DIR="$state" OPENCLAW_NO_RESPAWN=1 \
    OPENCLAW_REF_APP="$OPENCLAW_REF_DIR/releases/$ver" \
    timeout -k 10 "$CMD_TIMEOUT" "$OPENCLAW_REF_DIR/bin/node" --import "$HARNESS/lib/openclaw-resolve.mjs" \
    "$REF_ROOT/checks/$script" "$@" < /dev/null
}

# one_legacy VER NAME : VER's imported store at stores/NAME with agent research back to its
# legacy files (its database gone, its sessions.json and transcripts back).
one_legacy() {
  local s legacy
  s="$(copy_release "$1" imported "$2")" || return 1
  legacy="$(release_store "$1")/legacy/.openclaw"
  rm -rf "$s/agents/research"
  mkdir -p "$s/agents/research"; cp -a "$legacy/agents/research/." "$s/agents/research/"
  echo "$s"
}

# legacy_import_at_release_schema: on a store of each matrix release with agent research still
# legacy, our `migrate legacy --agent research` (which imports at the schema of the release that
# owns the state dir) and the release's own `doctor --session-sqlite import` on a copy at the
# same path give the same rows in every table (compare-imports.mjs), the same schema objects in
# the same order, the same schema_meta and state registry rows, and manifests naming the release;
# then the release lists every session of every agent (its `sessions --all-agents --json`), its
# own SDK reads every session back, and its `doctor --session-sqlite validate` passes.
legacy_import_at() {
  local ver="$1" s at rc db q n=0
  at="$CHECK_DIR/stores/import-$ver"
  s="$(one_legacy "$ver" "import-$ver")"
  rc=0; ocr_run "oc-import-$ver.json" "$ver" "$s" doctor --session-sqlite import --session-sqlite-agent research --json || rc=$?
  [[ $rc -eq 0 ]] || { check_error "$ver: its own import exited $rc"; return 0; }
  mv "$at" "$at-openclaw"
  s="$(one_legacy "$ver" "import-$ver")"
  rc=0; ours_run "ours-import-$ver.json" "$s" --json migrate legacy --agent research --yes || rc=$?
  [[ $rc -eq 0 ]] || { check_error "$ver: migrate legacy exited $rc"; return 0; }
  db=agents/research/agent/openclaw-agent.sqlite
  if node_check compare-imports.mjs "$s/$db" "$at-openclaw/.openclaw/$db" > "cmp-$ver.txt" 2>&1; then
    note "$ver research: $(tail -n 1 "cmp-$ver.txt")"
  else
    head -n 40 "cmp-$ver.txt" >&2; check_error "$ver: our import differs from its own"
  fi
  for q in "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY rowid" \
           "SELECT role, schema_version, agent_id, app_version FROM schema_meta" \
           "SELECT (SELECT user_version FROM pragma_user_version), (SELECT journal_mode FROM pragma_journal_mode), (SELECT auto_vacuum FROM pragma_auto_vacuum)"; do
    n=$((n + 1))
    node_check sql-rows.mjs "$s/$db" "$q" > "ours-$ver-$n.txt" 2>&1 || true
    node_check sql-rows.mjs "$at-openclaw/.openclaw/$db" "$q" > "theirs-$ver-$n.txt" 2>&1 || true
    cmp -s "ours-$ver-$n.txt" "theirs-$ver-$n.txt" || { diff "ours-$ver-$n.txt" "theirs-$ver-$n.txt" | head -n 10 >&2; check_error "$ver: differs from its own import: $q"; }
  done
  q="SELECT agent_id, path, schema_version FROM agent_databases ORDER BY agent_id"
  node_check sql-rows.mjs "$s/state/openclaw.sqlite" "$q" > "ours-reg-$ver.txt" 2>&1 || true
  node_check sql-rows.mjs "$at-openclaw/.openclaw/state/openclaw.sqlite" "$q" > "theirs-reg-$ver.txt" 2>&1 || true
  cmp -s "ours-reg-$ver.txt" "theirs-reg-$ver.txt" || check_error "$ver: the state registry differs from its own import's"
  [[ "$(jsonq "$(ls -t "$s"/session-sqlite-migration-runs/*.json | head -n 1)" 'j.openClawVersion')" == "$ver" ]] ||
    check_error "$ver: our manifest does not name the release"
  # The release reads the whole store back.
  rc=0; release_lists "$ver" "$s" "list-$ver.json" || rc=$?
  [[ $rc -eq 0 ]] || { check_error "$ver: its own sessions --all-agents exited $rc after our import"; return 0; }
  release_lists "$ver" "$at-openclaw/.openclaw" "list-theirs-$ver.json" || check_error "$ver: it does not list its own import"
  jsonq "list-$ver.json" '({schemaVersion:1,command:"list",ok:true,warnings:[],data:j.sessions.map(s=>({agentId:s.agentId,sessionKey:s.key,sessionId:s.sessionId,updatedAt:s.updatedAt,kind:s.kind,entry:{}}))})' > "list-$ver-as-ours.json"
  node_check list-compare.mjs "list-theirs-$ver.json" "list-$ver-as-ours.json" > "cmp-list-$ver.txt" 2>&1 ||
    { cat "cmp-list-$ver.txt" >&2; check_error "$ver: it lists our import differently from its own"; }
  [[ "$(jsonq "list-$ver.json" 'new Set(j.sessions.map(s=>s.agentId)).size')" == 3 ]] || check_error "$ver: it does not list all three agents"
  rc=0; ocr_sdk "$ver" "$(cp -a "$s" "$CHECK_DIR/stores/sdk-$ver" && echo "$CHECK_DIR/stores/sdk-$ver")" sdk-readback.mjs > "sdk-$ver.json" 2> "sdk-$ver.err" || rc=$?
  [[ $rc -eq 0 ]] || check_error "$ver: its SDK read-back failed (exit $rc): $(head -c 300 "sdk-$ver.json") $(tail -n 3 "sdk-$ver.err")"
  rc=0; ocr_run "validate-$ver.json" "$ver" "$(cp -a "$s" "$CHECK_DIR/stores/validate-$ver" && echo "$CHECK_DIR/stores/validate-$ver")" doctor --session-sqlite validate --session-sqlite-all-agents --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "$ver: its doctor --session-sqlite validate exited $rc"
  note "$ver: lists $(jsonq "list-$ver.json" 'j.sessions.length') sessions, SDK reads $(jsonq "sdk-$ver.json" 'Object.values(j.agents).reduce((n,a)=>n+a.events,0)') events"
}
check_legacy_import_at_release_schema() { local ver; for ver in $RELEASE_MATRIX; do legacy_import_at "$ver"; done; }
CHECKS+=(legacy_import_at_release_schema)

# legacy_import_at_release_schema_of_2026_9_X: the same on the stores of the other owners of agent
# schema 19 (beside state 15, 16 and 17), whose state database names them: 2026.9.2 to 2026.9.4
# create agent 19 with one index more than 2026.8.2; 2026.9.1 the same schema as 2026.8.2
# (docs/openclaw/RELEASES.md §1). Their stores are generated on first use, as the matrix's are.
check_legacy_import_at_release_schema_of_2026_9_1() { legacy_import_at 2026.9.1; }
check_legacy_import_at_release_schema_of_2026_9_2() { legacy_import_at 2026.9.2; }
check_legacy_import_at_release_schema_of_2026_9_3() { legacy_import_at 2026.9.3; }
check_legacy_import_at_release_schema_of_2026_9_4() { legacy_import_at 2026.9.4; }
CHECKS+=(legacy_import_at_release_schema_of_2026_9_1 legacy_import_at_release_schema_of_2026_9_2
  legacy_import_at_release_schema_of_2026_9_3 legacy_import_at_release_schema_of_2026_9_4)

# legacy_import_guarded: `migrate legacy` never cuts a release off its store: on a store of the
# pre-SQLite release it refuses (exit 6), changes nothing, and the release lists what it listed
# before.
check_legacy_import_guarded() {
  local s rc
  s="$(copy_release "$LEGACY_RELEASE" live pre-sqlite)"
  release_lists "$LEGACY_RELEASE" "$s" before-legacy.json || { check_error "openclaw@$LEGACY_RELEASE does not list its store"; return 0; }
  tree_manifest "$s" > before-legacy.txt
  rc=0; ours_run import-legacy.json "$s" --json migrate legacy --all-agents --yes || rc=$?
  [[ $rc -eq 6 ]] || check_error "$LEGACY_RELEASE: migrate legacy exited $rc, expected 6"
  grep -q 'sessions.json' import-legacy.json || check_error "$LEGACY_RELEASE: the refusal does not say why"
  tree_manifest "$s" > after-legacy.txt
  diff -u before-legacy.txt after-legacy.txt >&2 || check_error "$LEGACY_RELEASE: the refused import changed the store"
  release_lists "$LEGACY_RELEASE" "$s" after-legacy.json || check_error "openclaw@$LEGACY_RELEASE no longer lists its store"
  [[ "$(jsonq before-legacy.json 'j.sessions.length')" -gt 0 && \
     "$(jsonq before-legacy.json 'j.sessions.length')" == "$(jsonq after-legacy.json 'j.sessions.length')" ]] ||
    check_error "$LEGACY_RELEASE: lists $(jsonq before-legacy.json 'j.sessions.length') sessions before, $(jsonq after-legacy.json 'j.sessions.length') after"
  note "refused on $LEGACY_RELEASE, which still lists $(jsonq after-legacy.json 'j.sessions.length') sessions"
}
CHECKS+=(legacy_import_guarded)

# migrate_schema_matches_openclaw: `migrate schema` on each matrix release's live store gives, database
# by database, what 2026.9.6's own `openclaw doctor --fix` gives at the instant each of its upgrade
# transactions commits (checks/snapshot-on-upgrade-commit.mjs; its later repairs are another
# matter): the same schema objects in the same order and the same rows (checks/compare-upgrade.mjs,
# docs/openclaw/SCHEMA-UPGRADE.md §5). Then 2026.9.6 accepts our result, and the older release
# refuses it as it refuses OpenClaw's. What that doctor repairs after its upgrade (session titles,
# stale model routing state: §6.1), ours leaves to it: 2026.9.6's `doctor --fix` run on our upgraded
# store gives every session row its `doctor --fix` gave the original (updated times from its clock
# aside).
check_migrate_schema_matches_openclaw() {
  local ver a b c rc snaps db agent snap n=0 since
  since="$(date +%s%3N)"
  for ver in $RELEASE_MATRIX; do
    a="$(copy_release "$ver" live "openclaw-$ver")"
    b="$(copy_release "$ver" live "ours-$ver")"
    snaps="$CHECK_DIR/snapshots-$ver"; mkdir -p "$snaps"
    echo "+ OPENCLAW_STATE_DIR=$a openclaw doctor --fix --non-interactive (snapshots at each upgrade commit)" >&2
    rc=0
    "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" \
      OPENCLAW_STATE_DIR="$a" OPENCLAW_NO_RESPAWN=1 OPENCLAW_UPGRADE_SNAPSHOT_DIR="$snaps" \
      NODE_OPTIONS="--import $REF_ROOT/checks/snapshot-on-upgrade-commit.mjs" \
      timeout -k 10 "$CMD_TIMEOUT" "$HARNESS/oc" doctor --fix --non-interactive < /dev/null > "doctor-$ver.txt" 2>&1 || rc=$?
    [[ $rc -eq 0 ]] || { tail -n 20 "doctor-$ver.txt" >&2; check_error "$ver: openclaw doctor --fix exited $rc"; continue; }
    rc=0; ours_run "ours-$ver.json" "$b" --json migrate schema --all-agents --yes || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$ver: migrate schema exited $rc"; continue; }
    for db in "$b"/agents/*/agent/openclaw-agent.sqlite "$b/state/openclaw.sqlite"; do
      if [[ "$db" == */state/openclaw.sqlite ]]; then
        snap="$(find "$snaps" -type d -name '*-uv18-*state_openclaw.sqlite' | LC_ALL=C sort | head -n 1)"
      else
        agent="$(basename "$(dirname "$(dirname "$db")")")"
        snap="$(find "$snaps" -type d -name "*-uv23-${agent}_agent_openclaw-agent.sqlite" | LC_ALL=C sort | head -n 1)"
      fi
      [[ -n "$snap" ]] || { check_error "$ver: OpenClaw left no upgrade snapshot for $db"; continue; }
      n=$((n + 1))
      local mask=()
      if [[ "$db" == */state/openclaw.sqlite ]]; then
        # OpenClaw records each agent's upgrade in this registry after its state snapshot:
        # ours must say 23 for every agent; the time seen and the file size are the clock's.
        mask=(--mask agent_databases.schema_version --mask agent_databases.last_seen_at --mask agent_databases.size_bytes)
        node_check sql-value.mjs "$db" "SELECT group_concat(DISTINCT schema_version) FROM agent_databases" > "registry-$ver.txt" 2>&1 || true
        [[ "$(cat "registry-$ver.txt")" == 23 ]] || check_error "$ver: the state registry says schema $(cat "registry-$ver.txt") after the upgrade"
      fi
      if node_check compare-upgrade.mjs "$snap/db.sqlite" "$db" "${mask[@]}" > "cmp-$ver-$n.txt" 2>&1; then
        local which; which="$(basename "$(dirname "$(dirname "$db")")")"; [[ "$db" == */state/openclaw.sqlite ]] && which=state
        note "$ver $which: $(tail -n 1 "cmp-$ver-$n.txt")"
      else
        sed 's/^/  /' "cmp-$ver-$n.txt" >&2; check_error "$ver: $db differs from OpenClaw's upgrade"
      fi
    done
    openclaw_accepts "$(cp -a "$b" "$CHECK_DIR/stores/accept-$ver" && echo "$CHECK_DIR/stores/accept-$ver")" "ours-$ver"
    c="$CHECK_DIR/stores/doctor-after-ours-$ver"; cp -a "$b" "$c"
    echo "+ OPENCLAW_STATE_DIR=$c openclaw doctor --fix --non-interactive (after ours)" >&2
    rc=0
    "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" \
      OPENCLAW_STATE_DIR="$c" OPENCLAW_NO_RESPAWN=1 \
      timeout -k 10 "$CMD_TIMEOUT" "$HARNESS/oc" doctor --fix --non-interactive < /dev/null > "doctor-after-ours-$ver.txt" 2>&1 || rc=$?
    if [[ $rc -ne 0 ]]; then
      tail -n 20 "doctor-after-ours-$ver.txt" >&2; check_error "$ver: openclaw doctor --fix on our upgrade exited $rc"
    else
      for db in "$a"/agents/*/agent/openclaw-agent.sqlite; do
        agent="$(basename "$(dirname "$(dirname "$db")")")"
        if node_check compare-entries.mjs "$db" "$c/agents/$agent/agent/openclaw-agent.sqlite" "$since" > "entries-$ver-$agent.txt" 2>&1; then
          note "$ver $agent after the next doctor: $(tail -n 1 "entries-$ver-$agent.txt")"
        else
          sed 's/^/  /' "entries-$ver-$agent.txt" | head -n 30 >&2
          check_error "$ver $agent: OpenClaw's doctor --fix after ours leaves other sessions than after its own upgrade"
        fi
      done
    fi
    rc=0; release_lists "$ver" "$b" "old-$ver.json" || rc=$?
    [[ $rc -ne 0 ]] && grep -q 'newer schema version' "old-$ver.json.err" ||
      check_error "$ver: openclaw@$ver does not refuse the upgraded store as it refuses OpenClaw's own upgrade"
  done
  [[ $n -ge 8 ]] || check_error "only $n databases compared (4 a release expected)"
}
CHECKS+=(migrate_schema_matches_openclaw)

# Sessions of agent main in every matrix release's live store (the release's maintenance pruned
# others): imported ones with branches and search rows, and one its SDK made.
RELEASE_HISTORY_KEYS=(agent:main:pinned-notes agent:main:scratch-2 agent:main:telegram:group:-100123456784 agent:main:sdk-made-1)

# release_history VER MODE : on VER's live store, VER's own snapshot (`backup sqlite create`), then
# VER's SDK deletes RELEASE_HISTORY_KEYS (archiving their transcripts); ours brings them back
# (MODE undelete: `undelete SESSION_ID` with the entries from that snapshot; MODE restore:
# `backup restore SNAPSHOT --session KEY`); every row of every table for those sessions equals
# the rows before the deletion (checks/session-rows.mjs, --strict for restore); then VER lists
# every session, its SDK reads every session back and appends to each restored one.
release_history() {
  local ver="$1" mode="$2" s db snap key sid rc n=0 strict=() pairs=()
  [[ "$mode" == restore ]] && strict=(--strict)
  s="$(copy_release "$ver" live "$mode-$ver")"
  db="$s/agents/main/agent/openclaw-agent.sqlite"
  : > "ids-$ver.txt"
  for key in "${RELEASE_HISTORY_KEYS[@]}"; do
    ours_run show.json "$s" show "$key" --json || { check_error "$ver: show $key"; return 0; }
    jsonq show.json 'j.data.sessionId' >> "ids-$ver.txt"
  done
  node_check session-rows.mjs "${strict[@]}" "$db" "${RELEASE_HISTORY_KEYS[@]}" > "before-$ver.json" || check_error "$ver: rows before"
  rc=0; ocr_run "snap-$ver.json" "$ver" "$s" backup sqlite create --agent main --repository "$CHECK_DIR/snapshots-$mode-$ver" --json || rc=$?
  [[ $rc -eq 0 ]] || { check_error "$ver: its backup sqlite create exited $rc"; return 0; }
  snap="$(jsonq "snap-$ver.json" 'j.snapshotPath')"
  rc=0; ocr_sdk "$ver" "$s" sdk-history.mjs delete main "${RELEASE_HISTORY_KEYS[@]}" > "delete-$ver.json" 2> "delete-$ver.err" || rc=$?
  [[ $rc -eq 0 ]] || { check_error "$ver: its SDK delete failed: $(tail -n 3 "delete-$ver.err")"; return 0; }
  node_check session-rows.mjs "$db" "${RELEASE_HISTORY_KEYS[@]}" > "deleted-$ver.json"
  [[ "$(jsonq "deleted-$ver.json" 'Object.values(j).filter(t=>t.session_nodes).length')" == 0 ]] || check_error "$ver: its SDK left nodes behind"
  if [[ "$mode" == undelete ]]; then
    while read -r sid; do
      n=$((n + 1)); rc=0
      ours_run "undelete-$ver-$n.json" "$s" undelete "$sid" --snapshots "$CHECK_DIR/snapshots-$mode-$ver" --yes --json || rc=$?
      [[ $rc -eq 0 ]] || { check_error "$ver: undelete $sid exited $rc: $(head -c 300 "undelete-$ver-$n.json")"; continue; }
      [[ "$(jsonq "undelete-$ver-$n.json" 'j.data.entrySource.kind')" == snapshot ]] || check_error "$ver: undelete $sid did not take its entry from the snapshot"
    done < "ids-$ver.txt"
  else
    for key in "${RELEASE_HISTORY_KEYS[@]}"; do
      n=$((n + 1)); rc=0
      ours_run "restore-$ver-$n.json" "$s" backup restore "$snap" --session "$key" --yes --json || rc=$?
      [[ $rc -eq 0 ]] || check_error "$ver: backup restore --session $key exited $rc: $(head -c 300 "restore-$ver-$n.json")"
    done
  fi
  node_check session-rows.mjs "${strict[@]}" "$db" "${RELEASE_HISTORY_KEYS[@]}" > "after-$ver.json"
  if node_check compare-session-rows.mjs "before-$ver.json" "after-$ver.json" > "cmp-$ver.txt" 2> "cmp-$ver.err"; then
    note "$ver $mode: $(cat "cmp-$ver.txt")"
  else
    cat "cmp-$ver.err" >&2; check_error "$ver: rows differ after $mode: $(cat "cmp-$ver.txt")"
  fi
  rc=0; release_lists "$ver" "$s" "list-$ver.json" || rc=$?
  [[ $rc -eq 0 ]] || check_error "$ver: its own sessions --all-agents exited $rc after our $mode"
  for key in "${RELEASE_HISTORY_KEYS[@]}"; do
    [[ "$(jsonq "list-$ver.json" "j.sessions.some(s=>s.key===\"$key\")")" == true ]] || check_error "$ver: it does not list $key after our $mode"
  done
  rc=0; ocr_sdk "$ver" "$s" sdk-readback.mjs > "sdk-$ver.json" 2> "sdk-$ver.err" || rc=$?
  [[ $rc -eq 0 ]] || check_error "$ver: its SDK read-back failed (exit $rc): $(head -c 300 "sdk-$ver.json")"
  n=0
  while read -r sid; do pairs+=("${RELEASE_HISTORY_KEYS[$n]}=$sid"); n=$((n + 1)); done < "ids-$ver.txt"
  rc=0; ocr_sdk "$ver" "$s" sdk-history.mjs append main "${pairs[@]}" > "append-$ver.json" 2> "append-$ver.err" || rc=$?
  [[ $rc -eq 0 ]] || check_error "$ver: its SDK append after our $mode failed: $(grep -v '"appended":true' "append-$ver.json" | head -n 3) $(tail -n 3 "append-$ver.err")"
}
check_undelete_on_release_stores() { local ver; for ver in $RELEASE_MATRIX; do release_history "$ver" undelete; done; }
check_restore_session_on_release_stores() { local ver; for ver in $RELEASE_MATRIX; do release_history "$ver" restore; done; }
CHECKS+=(undelete_on_release_stores restore_session_on_release_stores)

# backup_on_release_stores: on each matrix release's live store, our `backup create` of every
# agent gives what the release's own `backup sqlite create` gives (the
# same manifest fields and the same rows, checks/compare-imports.mjs); the release's own
# `backup sqlite verify` and `restore --target` accept ours, and ours verifies the release's;
# our `backup restore --in-place` of our snapshot leaves a store the release lists as before.
# backup_on_release VER : the above on VER's live store; counts its snapshots in BACKUP_COMPARED.
backup_on_release() {
  local ver="$1" s a rc ours theirs
  mkdir -p "$CHECK_DIR/private"
  s="$(copy_release "$ver" live "backup-$ver")"
  release_lists "$ver" "$s" "before-$ver.json" || { check_error "$ver: it does not list its store"; return 0; }
  for a in main work research; do
    BACKUP_COMPARED=$((${BACKUP_COMPARED:-0} + 1))
    rc=0; ours_run "ours-$ver-$a.json" "$s" --json backup create --agent "$a" --repository "$CHECK_DIR/ours-$ver" || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$ver: backup create --agent $a exited $rc"; continue; }
    ours="$(jsonq "ours-$ver-$a.json" 'j.data.snapshots[0].path')"
    rc=0; ocr_run "theirs-$ver-$a.json" "$ver" "$s" backup sqlite create --agent "$a" --repository "$CHECK_DIR/theirs-$ver" --json || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$ver: its backup sqlite create --agent $a exited $rc"; continue; }
    theirs="$(jsonq "theirs-$ver-$a.json" 'j.snapshotPath')"
    [[ "$(jsonq "$ours/manifest.json" 'JSON.stringify([j.schemaVersion,j.database,j.artifact.path,Object.keys(j).sort()])')" == \
       "$(jsonq "$theirs/manifest.json" 'JSON.stringify([j.schemaVersion,j.database,j.artifact.path,Object.keys(j).sort()])')" ]] ||
      check_error "$ver $a: our manifest differs from its own: $(cat "$ours/manifest.json")"
    node_check compare-imports.mjs "$ours/database.sqlite" "$theirs/database.sqlite" > "cmp-$ver-$a.txt" 2>&1 ||
      { head -n 20 "cmp-$ver-$a.txt" >&2; check_error "$ver $a: our snapshot's rows differ from its own"; }
    rc=0; ocr_run "verify-$ver-$a.json" "$ver" "$s" backup sqlite verify "$ours" --json || rc=$?
    [[ $rc -eq 0 && "$(jsonq "verify-$ver-$a.json" 'j.ok')" == true ]] || check_error "$ver: its backup sqlite verify refuses our snapshot of $a (exit $rc)"
    rc=0; ocr_run "restore-$ver-$a.json" "$ver" "$s" backup sqlite restore "$ours" --target "$CHECK_DIR/private/$ver-$a.sqlite" --json || rc=$?
    [[ $rc -eq 0 ]] || check_error "$ver: its backup sqlite restore of our snapshot of $a exited $rc"
    rc=0; ours_run "our-verify-$ver-$a.json" "$s" --json backup verify "$theirs" || rc=$?
    [[ $rc -eq 0 ]] || check_error "$ver: our backup verify refuses its snapshot of $a (exit $rc)"
  done
  rc=0; ours_run "in-place-$ver.json" "$s" --json backup restore "$ours" --in-place --yes || rc=$?
  [[ $rc -eq 0 ]] || check_error "$ver: backup restore --in-place exited $rc"
  release_lists "$ver" "$s" "after-$ver.json" || check_error "$ver: it no longer lists its store after our in-place restore"
  jsonq "after-$ver.json" '({schemaVersion:1,command:"list",ok:true,warnings:[],data:j.sessions.map(s=>({agentId:s.agentId,sessionKey:s.key,sessionId:s.sessionId,updatedAt:s.updatedAt,kind:s.kind,entry:{}}))})' > "after-$ver-as-ours.json"
  node_check list-compare.mjs "before-$ver.json" "after-$ver-as-ours.json" > /dev/null || check_error "$ver: its list changed after the in-place restore"
}
check_backup_on_release_stores() {
  local ver; BACKUP_COMPARED=0
  for ver in $RELEASE_MATRIX; do backup_on_release "$ver"; done
  note "$BACKUP_COMPARED snapshots of agent databases compared with the releases' own, accepted both ways"
}
CHECKS+=(backup_on_release_stores)
