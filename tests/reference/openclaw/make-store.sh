#!/usr/bin/env bash
# Generate REAL OpenClaw 2026.9.6 session stores with OpenClaw's own code (no gateway, network or LLM).
#
# Default mode:
#   make-store.sh --out DIR [--seed N] [--agents a,b,c] [--sessions-per-agent N]
#                 [--events-per-session M] [--sdk-phase|--no-sdk-phase] [--doctor-fix]
#   DIR/legacy/.openclaw     legacy file store (sessions.json + JSONL v3), the import input
#   DIR/imported/.openclaw   after `openclaw doctor --session-sqlite import --session-sqlite-all-agents`
#   DIR/live/.openclaw       after the SDK phase (upsert/append/patch/delete-with-archive) [+ doctor --fix]
#   DIR/snapshot/<id>/       `openclaw backup sqlite create --agent <first agent>` of live
#   DIR/report/              CLI outputs, schema dumps, samples, stats, files.txt (sha256 + size)
# Scale mode (no SDK phase; times OpenClaw's own commands with /usr/bin/time -v):
#   make-store.sh --out DIR --scale --agents a,b,c --sessions-per-agent N --events-per-session M
#   DIR/legacy, DIR/imported, DIR/snapshot, DIR/report/timings.txt
#
# OpenClaw runs with HOME=/home/user (staging; created if missing) so that the absolute paths it
# writes into the stores are /home/user/.openclaw/...; results are then moved into DIR.
# A lock (/home/user/.openclaw-ref-make-store.lock) serialises runs; an existing /home/user/.openclaw
# that this script did not create makes it refuse. Staging is removed afterwards.
# All SQLite files in DIR are checkpointed at the end (no -wal/-shm left).
set -euo pipefail
# shellcheck source=lib/common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/common.sh"
H="$OPENCLAW_REF_HARNESS"

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$H/make-store.sh"; }
die() { echo "make-store.sh: ERROR: $*" >&2; exit 1; }

OUT="" SEED=0 AGENTS="main,work,research" SPA=14 EPS=0 SDK=1 FIX=0 SCALE=0 SPA_SET=0 EPS_SET=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) OUT="${2:?}"; shift 2 ;;
    --seed) SEED="${2:?}"; shift 2 ;;
    --agents) AGENTS="${2:?}"; shift 2 ;;
    --sessions-per-agent) SPA="${2:?}"; SPA_SET=1; shift 2 ;;
    --events-per-session) EPS="${2:?}"; EPS_SET=1; shift 2 ;;
    --sdk-phase) SDK=1; shift ;;
    --no-sdk-phase) SDK=0; shift ;;
    --doctor-fix) FIX=1; shift ;;
    --scale) SCALE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done
[[ -n "$OUT" ]] || { usage >&2; die "--out DIR is required"; }
[[ "$SEED" =~ ^[0-9]+$ && "$SPA" =~ ^[0-9]+$ && "$EPS" =~ ^[0-9]+$ ]] || die "--seed/--sessions-per-agent/--events-per-session take integers"
if [[ "$SCALE" == 1 ]]; then
  [[ "$SPA_SET" == 1 && "$EPS_SET" == 1 ]] || die "--scale needs --sessions-per-agent and --events-per-session"
  SDK=0; FIX=0
  [[ -x /usr/bin/time ]] || die "--scale needs /usr/bin/time (GNU time, for -v)"
fi
IFS=, read -r -a AGENT_LIST <<< "$AGENTS"
FIRST_AGENT="${AGENT_LIST[0]}"
SDK_AGENTS="$(IFS=,; echo "${AGENT_LIST[*]:0:2}")"

ocref_ensure_installed
NODE="$OPENCLAW_REF_NODE"
REPORT_JS="$H/lib/report.mjs"

# ---- output dir: must be new, empty, or a previous make-store.sh output -------------------------
OUT="$(realpath -m -- "$OUT")"
[[ "$OUT/" == /home/user/* ]] && die "--out must not be inside the staging home /home/user"
mkdir -p "$(dirname "$OUT")"
if [[ -e "$OUT" ]]; then
  if [[ -f "$OUT/report/generator.json" ]]; then rm -rf "$OUT"
  elif [[ -d "$OUT" && -z "$(ls -A "$OUT")" ]]; then rmdir "$OUT"
  else die "$OUT exists and is not a make-store.sh output (no report/generator.json); remove it first"; fi
fi

# ---- staging home /home/user: lock, ownership marker, cleanup -----------------------------------
STAGE=/home/user
STATE="$STAGE/.openclaw"
SNAPREPO="$STAGE/.openclaw-ref-snapshots"
RT="$STAGE/.openclaw-ref-runtime"   # hard-linked copy of node + the openclaw package, so that paths
                                    # OpenClaw records about itself (plugin index, argv, skill links) are neutral
LOCK="$STAGE/.openclaw-ref-make-store.lock"
OWNER="$STAGE/.openclaw-ref-make-store.owner"   # exists while (or if) our staging state exists
CREATED_STAGE=0 OWNS_STATE=0 LOCKED=0 PRE_ENTRIES="" LOCK_CREATED=0
cleanup() {
  local rc=$? e
  if [[ "$OWNS_STATE" == 1 ]]; then
    rm -rf "$STATE" "$SNAPREPO" "$RT"
    # remove what OpenClaw created in the staging home during this run (e.g. .cache/openclaw*)
    while IFS= read -r e; do
      [[ -z "$e" || "$e" == "$(basename "$LOCK")" || "$e" == "$(basename "$OWNER")" ]] && continue
      grep -qxF -- "$e" <<< "$PRE_ENTRIES" || rm -rf "${STAGE:?}/$e"
    done < <(ls -A "$STAGE")
    if grep -qxF .cache <<< "$PRE_ENTRIES"; then
      rmdir "$STAGE/.cache/openclaw" "$STAGE/.cache/openclaw-$(id -u)" 2>/dev/null || true
    fi
    rm -f "$OWNER"
  fi
  if [[ "$LOCKED" == 1 ]]; then
    rmdir "$LOCK.d" 2>/dev/null || true
    [[ "$LOCK_CREATED" == 1 ]] && rm -f "$LOCK"
    [[ "$CREATED_STAGE" == 1 ]] && rmdir "$STAGE" 2>/dev/null || true
  fi
  [[ $rc -ne 0 && -d "$OUT" ]] && echo "make-store.sh: FAILED (rc=$rc); partial output in $OUT" >&2
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [[ ! -d "$STAGE" ]]; then mkdir -p "$STAGE" || die "cannot create $STAGE (run as a user that may create it)"; CREATED_STAGE=1; fi
[[ -e "$LOCK" ]] || LOCK_CREATED=1
exec 9>>"$LOCK" || die "cannot write $LOCK"
if command -v flock >/dev/null; then
  flock -n 9 || die "another make-store.sh run holds $LOCK"
else
  mkdir "$LOCK.d" 2>/dev/null || die "another make-store.sh run holds $LOCK.d (remove it if stale)"
fi
LOCKED=1
if [[ -e "$STATE" || -e "$SNAPREPO" || -e "$RT" ]]; then
  [[ -f "$OWNER" ]] || die "$STATE (or $SNAPREPO, $RT) exists and was not created by make-store.sh; refusing to touch it"
  echo "make-store.sh: removing staging left by an interrupted run" >&2
  rm -rf "$STATE" "$SNAPREPO" "$RT"
fi
if [[ -f "$OWNER" ]]; then # an interrupted run: inherit what it had created
  read -r _ prev_created prev_lock_created prev_entries < "$OWNER" || true
  [[ "${prev_created:-0}" == 1 ]] && CREATED_STAGE=1
  [[ "${prev_lock_created:-0}" == 1 ]] && LOCK_CREATED=1
  PRE_ENTRIES="$(tr ',' '\n' <<< "${prev_entries:-}")"
else
  PRE_ENTRIES="$(ls -A "$STAGE")"
fi
echo "$$ $CREATED_STAGE $LOCK_CREATED $(tr '\n' ',' <<< "$PRE_ENTRIES")" > "$OWNER"
OWNS_STATE=1

mkdir -p "$OUT/report"
R="$OUT/report"
# runtime copy inside the staging home (hard links when on the same filesystem, else a real copy)
mkdir -p "$RT/bin"
ln "$(readlink -f "$OPENCLAW_REF_NODE")" "$RT/bin/node" 2>/dev/null || cp "$(readlink -f "$OPENCLAW_REF_NODE")" "$RT/bin/node"
cp -al "$OPENCLAW_REF_APP" "$RT/app" 2>/dev/null || { rm -rf "$RT/app"; cp -a "$OPENCLAW_REF_APP" "$RT/app"; }
NODE="$RT/bin/node"
PKG="$RT/app/node_modules/openclaw"
# OpenClaw always runs with a neutral environment rooted at the staging home.
ocenv=(env -u OPENCLAW_STATE_DIR -u OPENCLAW_CONFIG_PATH -u OPENCLAW_HOME -u OPENCLAW_PROFILE
  -u XDG_CONFIG_HOME -u XDG_CACHE_HOME -u XDG_DATA_HOME -u XDG_STATE_HOME -u NODE_OPTIONS
  HOME="$STAGE" TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8 DO_NOT_TRACK=1 NO_COLOR=1 FORCE_COLOR=0 OPENCLAW_NO_AUTO_UPDATE=1)
oc() { (cd "$STAGE" && "${ocenv[@]}" "$NODE" "$PKG/openclaw.mjs" "$@"); }
ocsdk() { (cd "$STAGE" && "${ocenv[@]}" OPENCLAW_REF_APP="$RT/app" "$NODE" --import "$H/lib/openclaw-resolve.mjs" "$@"); }
timed() { # timed NAME cmd... : /usr/bin/time -v into report/time-NAME.txt, stdout to report/NAME.out
  local name="$1"; shift
  (cd "$STAGE" && "${ocenv[@]}" /usr/bin/time -v -o "$R/time-$name.txt" "$@") > "$R/$name.out" 2> "$R/$name.err"
}
wall() { sed -n 's/^\s*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1"; }
rss() { sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$1"; }
secs() { awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }' <<< "$1"; }

STARTED="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
cat > "$R/generator.json" <<JSON
{"generator":"make-store.sh","openclaw":"$OPENCLAW_REF_OPENCLAW_VERSION","node":"v$OPENCLAW_REF_NODE_WHEEL_VERSION","mode":"$([[ $SCALE == 1 ]] && echo scale || echo default)","seed":$SEED,"agents":"$AGENTS","sessionsPerAgent":$SPA,"eventsPerSession":$EPS,"sdkPhase":$SDK,"doctorFix":$FIX,"stagingHome":"$STAGE","startedAt":"$STARTED"}
JSON

GEN_ARGS=(--state "$STATE" --seed "$SEED" --agents "$AGENTS" --sessions-per-agent "$SPA")
[[ "$EPS" != 0 ]] && GEN_ARGS+=(--events-per-session "$EPS")

if [[ "$SCALE" == 0 ]]; then
  echo "== 1. legacy file store (seed $SEED, agents $AGENTS, $SPA sessions/agent)"
  "$NODE" "$H/lib/gen-legacy.mjs" "${GEN_ARGS[@]}" | tee "$R/gen-legacy.json"
  mkdir -p "$OUT/legacy"; cp -a "$STATE" "$OUT/legacy/.openclaw"

  echo "== 2. doctor --session-sqlite dry-run / import / validate / inspect"
  oc doctor --session-sqlite dry-run --session-sqlite-all-agents > "$R/doctor-dry-run.txt" 2>&1
  oc doctor --session-sqlite import --session-sqlite-all-agents > "$R/doctor-import.txt" 2>&1 ||
    { cat "$R/doctor-import.txt" >&2; die "doctor import failed"; }
  oc doctor --session-sqlite validate --session-sqlite-all-agents > "$R/doctor-validate.txt" 2>&1 || true
  oc doctor --session-sqlite inspect --session-sqlite-all-agents > "$R/doctor-inspect.txt" 2>&1 || true
  cat "$R/doctor-import.txt"
  mkdir -p "$OUT/imported"; cp -a "$STATE" "$OUT/imported/.openclaw"

  if [[ "$SDK" == 1 ]]; then
    echo "== 3. SDK runtime writes on agents $SDK_AGENTS (upsert, append, patch, delete+archive)"
    SDK_AGENTS="$SDK_AGENTS" SDK_SEED="$SEED" ocsdk "$H/lib/sdk-phase.mjs" > "$R/sdk-phase.txt" 2>&1 ||
      { cat "$R/sdk-phase.txt" >&2; die "SDK phase failed"; }
    grep -F '"created"' "$R/sdk-phase.txt" || true
  fi
  if [[ "$FIX" == 1 ]]; then
    echo "== 3b. doctor --fix --non-interactive"
    oc doctor --fix --non-interactive > "$R/doctor-fix.txt" 2>&1 || true
  fi

  echo "== 4. read back with OpenClaw's CLI"
  oc sessions --all-agents --json --limit all > "$R/sessions-all-agents.json" 2> "$R/sessions-all-agents.stderr.txt"
  oc sessions --agent "$FIRST_AGENT" --limit all > "$R/sessions-$FIRST_AGENT.txt" 2>&1 || true
  oc sessions cleanup --dry-run --all-agents --json > "$R/sessions-cleanup-dry-run.json" 2> "$R/sessions-cleanup-dry-run.stderr.txt" || true
  oc doctor --session-sqlite inspect --session-sqlite-all-agents > "$R/doctor-inspect-live.txt" 2>&1 || true
  oc database ownership status --json > "$R/database-ownership.json" 2>&1 || true
  oc database preflight-agent "$STATE/agents/$FIRST_AGENT/agent/openclaw-agent.sqlite" --agent-id "$FIRST_AGENT" --json \
    > "$R/preflight-agent-live.json" 2>&1 || true
  mkdir -p "$SNAPREPO"
  oc backup sqlite create --agent "$FIRST_AGENT" --repository "$SNAPREPO" --json > "$R/backup-sqlite-create.json" 2>&1 ||
    { cat "$R/backup-sqlite-create.json" >&2; die "backup sqlite create failed"; }
  SNAP_DIR="$(find "$SNAPREPO" -mindepth 1 -maxdepth 1 -type d | head -1)"
  oc backup sqlite verify "$SNAP_DIR" --json > "$R/backup-sqlite-verify.json" 2>&1 || true
  oc database preflight-agent "$SNAP_DIR/database.sqlite" --agent-id "$FIRST_AGENT" --json > "$R/preflight-agent-snapshot.json" 2>&1 || true
  "$NODE" -e 'const j=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log("sessions listed by openclaw:",j.count??j.sessions?.length)' "$R/sessions-all-agents.json"

  echo "== 5. move results into $OUT"
  mkdir -p "$OUT/live"; mv "$STATE" "$OUT/live/.openclaw"
  mkdir -p "$OUT/snapshot"; mv "$SNAPREPO"/* "$OUT/snapshot/"
else
  echo "== scale 1. legacy file store (seed $SEED, agents $AGENTS, $SPA sessions/agent x $EPS events)"
  t0=$(date +%s.%N)
  "$NODE" "$H/lib/gen-legacy.mjs" "${GEN_ARGS[@]}" | tee "$R/gen-legacy.json"
  t1=$(date +%s.%N)
  LEGACY_BYTES=$(du -sb "$STATE" | cut -f1)
  mkdir -p "$OUT/legacy"; cp -a "$STATE" "$OUT/legacy/.openclaw"

  echo "== scale 2. timed: doctor --session-sqlite import --session-sqlite-all-agents"
  timed doctor-import "$NODE" "$PKG/openclaw.mjs" doctor --session-sqlite import --session-sqlite-all-agents ||
    { cat "$R/doctor-import.out" "$R/doctor-import.err" >&2; die "doctor import failed"; }
  cat "$R/doctor-import.out"
  STATS_IMPORT="$("$NODE" "$REPORT_JS" stats "$STATE")"
  echo "== scale 3. timed: sessions --all-agents --json --limit all"
  timed sessions-list "$NODE" "$PKG/openclaw.mjs" sessions --all-agents --json --limit all ||
    die "sessions list failed (see $R/sessions-list.err)"
  LISTED="$("$NODE" -e 'const j=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(j.count??j.sessions?.length)' "$R/sessions-list.out")"
  echo "== scale 4. timed: backup sqlite create --agent $FIRST_AGENT"
  mkdir -p "$SNAPREPO"
  timed backup-create "$NODE" "$PKG/openclaw.mjs" backup sqlite create --agent "$FIRST_AGENT" --repository "$SNAPREPO" --json ||
    die "backup failed (see $R/backup-create.err)"
  SNAP_DB="$(find "$SNAPREPO" -name database.sqlite | head -1)"
  SNAP_BYTES=$(stat -c %s "$SNAP_DB")
  IMPORTED_BYTES=$(du -sb "$STATE" | cut -f1)
  mkdir -p "$OUT/imported"; mv "$STATE" "$OUT/imported/.openclaw"
  mkdir -p "$OUT/snapshot"; mv "$SNAPREPO"/* "$OUT/snapshot/"
  {
    echo "# make-store.sh --scale timings (OpenClaw $OPENCLAW_REF_OPENCLAW_VERSION, Node v$OPENCLAW_REF_NODE_WHEEL_VERSION, $(nproc) CPUs, $(uname -sm))"
    echo "# agents=$AGENTS sessions-per-agent=$SPA events-per-session=$EPS seed=$SEED"
    echo "generate_legacy_wall_s      $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}')   (our generator, not OpenClaw)"
    echo "legacy_store_bytes          $LEGACY_BYTES"
    for n in doctor-import sessions-list backup-create; do
      w="$(wall "$R/time-$n.txt")"
      printf '%-27s %s   (%s s)   peak_rss_kb %s\n' "${n//-/_}_wall" "$w" "$(secs "$w")" "$(rss "$R/time-$n.txt")"
    done
    echo "sessions_listed             $LISTED"
    echo "imported_state_dir_bytes    $IMPORTED_BYTES   (incl. session-sqlite-import-archive/ = moved legacy sources)"
    echo "snapshot_db_bytes           $SNAP_BYTES   (agent $FIRST_AGENT, VACUUMed)"
    echo "imported_stats              $STATS_IMPORT"
  } > "$R/timings.txt"
  cat "$R/timings.txt"
fi

echo "== 6. checkpoint SQLite files, dump schema, samples, stats, file list"
"$NODE" "$REPORT_JS" checkpoint "$OUT" > "$R/checkpoint.txt"
STATE_OUT="$OUT/live/.openclaw"; [[ -d "$STATE_OUT" ]] || STATE_OUT="$OUT/imported/.openclaw"
"$NODE" "$REPORT_JS" schema "$STATE_OUT/agents/$FIRST_AGENT/agent/openclaw-agent.sqlite" "$R/schema-agent.sql"
"$NODE" "$REPORT_JS" schema "$STATE_OUT/state/openclaw.sqlite" "$R/schema-state.sql"
for a in "${AGENT_LIST[@]:1}"; do
  "$NODE" "$REPORT_JS" schema "$STATE_OUT/agents/$a/agent/openclaw-agent.sqlite" "$R/schema-agent-$a.sql.tmp"
  cmp -s "$R/schema-agent.sql" "$R/schema-agent-$a.sql.tmp" && rm "$R/schema-agent-$a.sql.tmp" ||
    mv "$R/schema-agent-$a.sql.tmp" "$R/schema-agent-$a.sql"
done
if [[ "$SCALE" == 0 ]]; then
  "$NODE" "$REPORT_JS" checkpoint "$OUT" > /dev/null   # (schema dumps above re-create sidecars)
  for s in imported live; do "$NODE" "$REPORT_JS" stats "$OUT/$s/.openclaw" > "$R/stats-$s.json"; done
  "$NODE" "$REPORT_JS" samples "$STATE_OUT" "$R/samples.txt" "$FIRST_AGENT"
fi
# read-only inspection re-creates sidecars next to WAL databases: fold them away again
"$NODE" "$REPORT_JS" checkpoint "$OUT" > /dev/null
# keep machine paths out of the report (OpenClaw runs under /home/user; these only show up in traces)
"$NODE" "$REPORT_JS" sanitize "$R" "$PKG=<openclaw-pkg>" "$RT=<openclaw-runtime>" "$OPENCLAW_REF_PKG=<openclaw-pkg>" "$OPENCLAW_REF_DIR=<openclaw-ref>" \
  "$H=<harness>" "$OUT=<out>" $([[ "$HOME" != "$STAGE" && "$HOME" != / && ${#HOME} -gt 4 ]] && echo "$HOME=<home>")
sed -i "s/\"startedAt\":\"$STARTED\"}/\"startedAt\":\"$STARTED\",\"finishedAt\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"}/" "$R/generator.json"
{
  echo "# OpenClaw $OPENCLAW_REF_OPENCLAW_VERSION reference store (generated)"
  echo
  echo "Made by the OpenClaw reference harness (\`make-store.sh\`) with OpenClaw's own code; parameters in"
  echo "\`report/generator.json\`, every file with size and sha256 in \`report/files.txt\`. Do not edit by hand:"
  echo "regenerate. OpenClaw ran with HOME=$STAGE, so absolute paths inside are $STAGE/.openclaw/..."
  echo
  if [[ "$SCALE" == 0 ]]; then
    echo "- \`legacy/.openclaw/\` legacy file store (sessions.json + JSONL v3 transcripts), the import input"
    echo "- \`imported/.openclaw/\` after \`openclaw doctor --session-sqlite import --session-sqlite-all-agents\`"
    echo "- \`live/.openclaw/\` imported + SDK writes (upsert/append/patch/delete-with-archive)$([[ $FIX == 1 ]] && echo ' + doctor --fix')"
    echo "- \`snapshot/<id>/\` \`openclaw backup sqlite create --agent $FIRST_AGENT\` of live (database.sqlite + manifest.json)"
    echo "- \`report/\` OpenClaw CLI outputs on these stores, schema dumps, samples, stats"
  else
    echo "- \`legacy/.openclaw/\`, \`imported/.openclaw/\`, \`snapshot/<id>/\`; timings in \`report/timings.txt\`"
  fi
  echo
  echo "SQLite files were checkpointed (no -wal/-shm). Their headers still say WAL mode: work on copies."
} > "$OUT/README.md"
"$NODE" "$REPORT_JS" files "$OUT" "$R/files.txt"
left="$(find "$OUT" -name '*-wal' -o -name '*-shm' | head -3)"
[[ -z "$left" ]] || echo "make-store.sh: WARNING: SQLite sidecars left: $left" >&2
echo "done: $OUT ($(du -sh "$OUT" | cut -f1))"
