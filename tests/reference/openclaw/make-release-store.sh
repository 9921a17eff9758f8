#!/usr/bin/env bash
# Generate a session store written by an OLDER OpenClaw release's own code (its CLI and plugin SDK,
# installed from npm by oc-release), for the releases-compatibility fixtures.
#
#   make-release-store.sh VER --out DIR [--seed N] [--agents a,b,c] [--sessions-per-agent N]
#                         [--events-per-session M] [--no-sdk-phase] [--upgraded]
#
#   DIR/legacy/.openclaw     legacy file store (lib/gen-legacy.mjs, the generator of make-store.sh)
#   DIR/imported/.openclaw   after VER's `openclaw doctor --session-sqlite import --session-sqlite-all-agents`
#                            (releases with SQLite sessions only)
#   DIR/live/.openclaw       SQLite releases: imported + VER's SDK writes (lib/sdk-phase-release.mjs:
#                            upsert/append/patch/delete with archiveTranscript, where VER exports them).
#                            Releases without SQLite sessions: the legacy store after one
#                            `openclaw sessions --all-agents --json --limit all` of VER (what that writes).
#   DIR/upgraded/.openclaw   (--upgraded, SQLite releases) live after the reference release's (2026.9.6)
#                            own `openclaw doctor --fix --non-interactive`; its own README.md and report/
#   DIR/report/              VER's CLI outputs on these stores, schema dumps (type, name, tbl_name, sql in
#                            creation order), user_version and schema_meta of every database, row counts,
#                            the keys of `sessions --json` rows, files.txt (sha256 + size)
#   DIR/README.md
#
# Staging exactly as make-store.sh (and under the same lock): OpenClaw runs with HOME=/home/user from a
# hard-linked runtime copy /home/user/.openclaw-ref-runtime/{bin/node,app}, so the only absolute paths in
# the stores are /home/user/...; the listing commands of the report run on the staging store after it was
# copied out, so they do not change what is kept. All SQLite files are checkpointed (no -wal/-shm).
set -euo pipefail
# shellcheck source=lib/common.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/common.sh"
H="$OPENCLAW_REF_HARNESS"

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$H/make-release-store.sh"; }
die() { echo "make-release-store.sh: ERROR: $*" >&2; exit 1; }

[[ "${1:-}" == -h || "${1:-}" == --help ]] && { usage; exit 0; }
[[ $# -ge 1 && "$1" != -* ]] || { usage >&2; die "the release version comes first"; }
VER="$1"; shift
OUT="" SEED=0 AGENTS="main,work,research" SPA=14 EPS=0 SDK=1 UPGRADE=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) OUT="${2:?}"; shift 2 ;;
    --seed) SEED="${2:?}"; shift 2 ;;
    --agents) AGENTS="${2:?}"; shift 2 ;;
    --sessions-per-agent) SPA="${2:?}"; shift 2 ;;
    --events-per-session) EPS="${2:?}"; shift 2 ;;
    --no-sdk-phase) SDK=0; shift ;;
    --upgraded) UPGRADE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done
[[ -n "$OUT" ]] || { usage >&2; die "--out DIR is required"; }
[[ "$SEED" =~ ^[0-9]+$ && "$SPA" =~ ^[0-9]+$ && "$EPS" =~ ^[0-9]+$ ]] || die "--seed/--sessions-per-agent/--events-per-session take integers"
[[ "$VER" != "$OPENCLAW_REF_OPENCLAW_VERSION" ]] || die "$VER is the reference release: use make-store.sh"
IFS=, read -r -a AGENT_LIST <<< "$AGENTS"
FIRST_AGENT="${AGENT_LIST[0]}"
SDK_AGENTS="$(IFS=,; echo "${AGENT_LIST[*]:0:2}")"

ocref_ensure_installed
REL_PKG="$("$H/oc-release" "$VER" --path)" || die "cannot install openclaw@$VER (oc-release)"
REL_APP="$(dirname "$(dirname "$REL_PKG")")"   # <releases>/VER: package.json + node_modules/
REL_VERSION="$(sed -n 's/^  "version": "\([^"]*\)".*/\1/p' "$REL_PKG/package.json" | head -1)"
[[ "$REL_VERSION" == "$VER" ]] || die "$REL_PKG is openclaw $REL_VERSION, not $VER"
REF_NODE="$OPENCLAW_REF_NODE"
REPORT_JS="$H/lib/report.mjs"
RREPORT_JS="$H/lib/release-report.mjs"

# ---- output dir: must be new, empty, or a previous make-release-store.sh output ------------------
OUT="$(realpath -m -- "$OUT")"
[[ "$OUT/" == /home/user/* ]] && die "--out must not be inside the staging home /home/user"
mkdir -p "$(dirname "$OUT")"
if [[ -e "$OUT" ]]; then
  if [[ -f "$OUT/report/generator.json" ]] && grep -q '"generator":"make-release-store.sh"' "$OUT/report/generator.json"; then rm -rf "$OUT"
  elif [[ -d "$OUT" && -z "$(ls -A "$OUT")" ]]; then rmdir "$OUT"
  else die "$OUT exists and is not a make-release-store.sh output (no report/generator.json); remove it first"; fi
fi

# ---- staging home /home/user: the lock and ownership protocol of make-store.sh -------------------
STAGE=/home/user
STATE="$STAGE/.openclaw"
SNAPREPO="$STAGE/.openclaw-ref-snapshots"
RT="$STAGE/.openclaw-ref-runtime"
LOCK="$STAGE/.openclaw-ref-make-store.lock"
OWNER="$STAGE/.openclaw-ref-make-store.owner"
CREATED_STAGE=0 OWNS_STATE=0 LOCKED=0 PRE_ENTRIES="" LOCK_CREATED=0
cleanup() {
  local rc=$? e
  if [[ "$OWNS_STATE" == 1 ]]; then
    rm -rf "$STATE" "$SNAPREPO" "$RT"
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
  [[ $rc -ne 0 && -d "$OUT" ]] && echo "make-release-store.sh: FAILED (rc=$rc); partial output in $OUT" >&2
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [[ ! -d "$STAGE" ]]; then mkdir -p "$STAGE" || die "cannot create $STAGE (run as a user that may create it)"; CREATED_STAGE=1; fi
[[ -e "$LOCK" ]] || LOCK_CREATED=1
exec 9>>"$LOCK" || die "cannot write $LOCK"
if command -v flock >/dev/null; then
  flock -n 9 || die "another make-store.sh / make-release-store.sh run holds $LOCK"
else
  mkdir "$LOCK.d" 2>/dev/null || die "another run holds $LOCK.d (remove it if stale)"
fi
LOCKED=1
if [[ -e "$STATE" || -e "$SNAPREPO" || -e "$RT" ]]; then
  [[ -f "$OWNER" ]] || die "$STATE (or $SNAPREPO, $RT) exists and was not created by make-store.sh; refusing to touch it"
  echo "make-release-store.sh: removing staging left by an interrupted run" >&2
  rm -rf "$STATE" "$SNAPREPO" "$RT"
fi
if [[ -f "$OWNER" ]]; then
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
mkdir -p "$RT/bin"
ln "$(readlink -f "$REF_NODE")" "$RT/bin/node" 2>/dev/null || cp "$(readlink -f "$REF_NODE")" "$RT/bin/node"
NODE="$RT/bin/node"
PKG="$RT/app/node_modules/openclaw"
use_app() { # use_app SRC: the runtime copy $RT/app becomes SRC (a dir with node_modules/openclaw)
  rm -rf "$RT/app"
  cp -al "$1" "$RT/app" 2>/dev/null || { rm -rf "$RT/app"; cp -a "$1" "$RT/app"; }
}
use_app "$REL_APP"
ocenv=(env -u OPENCLAW_STATE_DIR -u OPENCLAW_CONFIG_PATH -u OPENCLAW_HOME -u OPENCLAW_PROFILE
  -u XDG_CONFIG_HOME -u XDG_CACHE_HOME -u XDG_DATA_HOME -u XDG_STATE_HOME -u NODE_OPTIONS
  HOME="$STAGE" TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8 DO_NOT_TRACK=1 NO_COLOR=1 FORCE_COLOR=0
  OPENCLAW_NO_AUTO_UPDATE=1 OPENCLAW_NO_RESPAWN=1)
oc() { (cd "$STAGE" && "${ocenv[@]}" "$NODE" "$PKG/openclaw.mjs" "$@"); }
ocsdk() { (cd "$STAGE" && "${ocenv[@]}" OPENCLAW_REF_APP="$RT/app" "$NODE" --import "$H/lib/openclaw-resolve.mjs" "$@"); }
checkpoint() { "$REF_NODE" "$REPORT_JS" checkpoint "$1"; }
copy_state() { # copy_state DEST: checkpointed copy of the staging state as DEST/.openclaw
  checkpoint "$STATE" > /dev/null
  mkdir -p "$1"; cp -a "$STATE" "$1/.openclaw"
}
dump_schemas() { # dump_schemas STATE REPORTDIR: agent DB of the first agent (others only if different) + state DB
  local st="$1" rd="$2" a
  if [[ -f "$st/agents/$FIRST_AGENT/agent/openclaw-agent.sqlite" ]]; then
    "$REF_NODE" "$RREPORT_JS" schema "$st/agents/$FIRST_AGENT/agent/openclaw-agent.sqlite" "$rd/schema-agent.sql"
    for a in "${AGENT_LIST[@]:1}"; do
      [[ -f "$st/agents/$a/agent/openclaw-agent.sqlite" ]] || continue
      "$REF_NODE" "$RREPORT_JS" schema "$st/agents/$a/agent/openclaw-agent.sqlite" "$rd/schema-agent-$a.sql.tmp"
      if cmp -s "$rd/schema-agent.sql" "$rd/schema-agent-$a.sql.tmp"; then rm "$rd/schema-agent-$a.sql.tmp"
      else mv "$rd/schema-agent-$a.sql.tmp" "$rd/schema-agent-$a.sql"; fi
    done
  fi
  if [[ -f "$st/state/openclaw.sqlite" ]]; then
    "$REF_NODE" "$RREPORT_JS" schema "$st/state/openclaw.sqlite" "$rd/schema-state.sql"
  fi
}
list_sessions() { # list_sessions REPORTDIR: the release in $RT/app lists every agent's sessions as JSON
  oc sessions --all-agents --json --limit all > "$1/sessions-all-agents.json" 2> "$1/sessions-all-agents.stderr.txt" ||
    echo "exit $?" >> "$1/sessions-all-agents.stderr.txt"
  "$REF_NODE" "$RREPORT_JS" keys "$1/sessions-all-agents.json" > "$1/sessions-keys.json" 2>/dev/null || rm -f "$1/sessions-keys.json"
}

STARTED="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
SQLITE=0
oc doctor --help 2>/dev/null | grep -q -- '--session-sqlite-all-agents' && SQLITE=1
[[ "$SQLITE" == 1 ]] || { SDK=0; UPGRADE=0; }
cat > "$R/generator.json" <<JSON
{"generator":"make-release-store.sh","openclaw":"$VER","upgradedWith":$([[ $UPGRADE == 1 ]] && echo "\"$OPENCLAW_REF_OPENCLAW_VERSION\"" || echo null),"node":"$("$REF_NODE" --version)","sqliteSessions":$SQLITE,"seed":$SEED,"agents":"$AGENTS","sessionsPerAgent":$SPA,"eventsPerSession":$EPS,"sdkPhase":$SDK,"stagingHome":"$STAGE","startedAt":"$STARTED"}
JSON
oc --version > "$R/openclaw-version.txt" 2>&1 || true

GEN_ARGS=(--state "$STATE" --seed "$SEED" --agents "$AGENTS" --sessions-per-agent "$SPA")
[[ "$EPS" != 0 ]] && GEN_ARGS+=(--events-per-session "$EPS")

config_valid() { # does the release accept the staging state's openclaw.json? Checked on a throwaway copy
  local c="$STAGE/.openclaw-ref-config-check" rc=0  # (even `config validate` creates state/openclaw.sqlite)
  rm -rf "$c"; cp -a "$STATE" "$c"
  (cd "$STAGE" && "${ocenv[@]}" OPENCLAW_STATE_DIR="$c" "$NODE" "$PKG/openclaw.mjs" config validate) >> "$R/config-validate.txt" 2>&1 || rc=$?
  rm -rf "$c"; return $rc
}

echo "== 1. legacy file store (seed $SEED, agents $AGENTS, $SPA sessions/agent)"
"$REF_NODE" "$H/lib/gen-legacy.mjs" "${GEN_ARGS[@]}" | tee "$R/gen-legacy.json"
CONFIG_REWRITTEN=0
if ! config_valid; then
  echo "OpenClaw $VER rejects the generated openclaw.json (see report/config-validate.txt): agents.list form instead"
  echo "-- rewritten into the agents.list form (lib/release-report.mjs agents-list); validated again:" >> "$R/config-validate.txt"
  "$REF_NODE" "$RREPORT_JS" agents-list "$STATE/openclaw.json"; CONFIG_REWRITTEN=1
  config_valid || die "OpenClaw $VER rejects the agents.list form too (report/config-validate.txt)"
fi
mkdir -p "$OUT/legacy"; cp -a "$STATE" "$OUT/legacy/.openclaw"

if [[ "$SQLITE" == 1 ]]; then
  echo "== 2. OpenClaw $VER: doctor --session-sqlite dry-run / import / validate / inspect"
  oc doctor --session-sqlite dry-run --session-sqlite-all-agents > "$R/doctor-dry-run.txt" 2>&1 || true
  oc doctor --session-sqlite import --session-sqlite-all-agents > "$R/doctor-import.txt" 2>&1 ||
    { cat "$R/doctor-import.txt" >&2; die "doctor import failed"; }
  oc doctor --session-sqlite validate --session-sqlite-all-agents > "$R/doctor-validate.txt" 2>&1 || true
  oc doctor --session-sqlite inspect --session-sqlite-all-agents > "$R/doctor-inspect.txt" 2>&1 || true
  tail -5 "$R/doctor-import.txt"
  copy_state "$OUT/imported"

  if [[ "$SDK" == 1 ]]; then
    echo "== 3. OpenClaw $VER SDK writes on agents $SDK_AGENTS (upsert, append, patch, delete+archive)"
    SDK_AGENTS="$SDK_AGENTS" SDK_SEED="$SEED" ocsdk "$H/lib/sdk-phase-release.mjs" > "$R/sdk-phase.txt" 2>&1 ||
      { cat "$R/sdk-phase.txt" >&2; die "SDK phase failed"; }
    grep -E '"created"|skipped' "$R/sdk-phase.txt" || true
  fi
  copy_state "$OUT/live"

  echo "== 4. OpenClaw $VER reads it back (on the staging copy; not kept)"
  list_sessions "$R"
  oc sessions --agent "$FIRST_AGENT" --limit all > "$R/sessions-$FIRST_AGENT.txt" 2>&1 || true
  oc doctor --session-sqlite inspect --session-sqlite-all-agents > "$R/doctor-inspect-live.txt" 2>&1 || true
else
  echo "== 2. OpenClaw $VER has no SQLite sessions: one sessions --all-agents --json --limit all"
  list_sessions "$R"
  copy_state "$OUT/live"
fi
rm -rf "$STATE"

if [[ "$UPGRADE" == 1 ]]; then
  echo "== 5. OpenClaw $OPENCLAW_REF_OPENCLAW_VERSION: doctor --fix --non-interactive on a copy of live"
  U="$OUT/upgraded"; UR="$U/report"; mkdir -p "$UR"
  use_app "$OPENCLAW_REF_APP"
  cp -a "$OUT/live/.openclaw" "$STATE"
  oc --version > "$UR/openclaw-version.txt" 2>&1 || true
  # what it says before the upgrade (on a throwaway copy: even this read migrates the state database)
  oc sessions --all-agents --json --limit all > "$UR/sessions-before-upgrade.json" 2> "$UR/sessions-before-upgrade.stderr.txt" ||
    echo "exit $?" >> "$UR/sessions-before-upgrade.stderr.txt"
  rm -rf "$STATE"; cp -a "$OUT/live/.openclaw" "$STATE"
  oc doctor --fix --non-interactive > "$UR/doctor-fix.txt" 2>&1 || echo "exit $?" >> "$UR/doctor-fix.txt"
  copy_state "$U"
  # doctor --fix links plugin-skills/<name> into the package it runs from (under the staging runtime):
  # links that dangle on any other machine, so they are not kept
  rm -rf "$U/.openclaw/plugin-skills"
  list_sessions "$UR"
  oc doctor --session-sqlite inspect --session-sqlite-all-agents > "$UR/doctor-inspect.txt" 2>&1 || true
  rm -rf "$STATE"
fi

echo "== 6. checkpoint, schema dumps, database meta, stats, file list"
checkpoint "$OUT" > "$R/checkpoint.txt"
dump_schemas "$OUT/live/.openclaw" "$R"
for s in legacy imported live; do
  [[ -d "$OUT/$s/.openclaw" ]] || continue
  "$REF_NODE" "$RREPORT_JS" meta "$OUT/$s/.openclaw" > "$R/meta-$s.json"
  [[ "$s" == legacy ]] || "$REF_NODE" "$RREPORT_JS" stats "$OUT/$s/.openclaw" > "$R/stats-$s.json"
done
if [[ "$UPGRADE" == 1 ]]; then
  dump_schemas "$U/.openclaw" "$UR"
  "$REF_NODE" "$RREPORT_JS" meta "$U/.openclaw" > "$UR/meta.json"
  "$REF_NODE" "$RREPORT_JS" stats "$U/.openclaw" > "$UR/stats.json"
fi
checkpoint "$OUT" > /dev/null   # (read-only inspection re-creates sidecars next to WAL databases)
"$REF_NODE" "$REPORT_JS" sanitize "$R" "$PKG=<openclaw-pkg>" "$RT=<openclaw-runtime>" "$REL_PKG=<openclaw-pkg>" \
  "$OPENCLAW_REF_DIR=<openclaw-ref>" "$H=<harness>" "$OUT=<out>" $([[ "$HOME" != "$STAGE" && "$HOME" != / && ${#HOME} -gt 4 ]] && echo "$HOME=<home>")
sed -i "s/\"startedAt\":\"$STARTED\"}/\"startedAt\":\"$STARTED\",\"finishedAt\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"}/" "$R/generator.json"
{
  echo "# OpenClaw $VER store (generated by that release's own code)"
  echo
  echo "Made by the OpenClaw reference harness: \`make-release-store.sh $VER --out <dir>$([[ $SEED != 0 ]] && echo " --seed $SEED")$([[ $UPGRADE == 1 ]] && echo " --upgraded")\`"
  echo "(npm \`openclaw@$VER\`, run with Node $("$REF_NODE" --version)); parameters in \`report/generator.json\`, every file with"
  echo "size and sha256 in \`report/files.txt\`. Do not edit by hand: regenerate. OpenClaw ran with HOME=$STAGE, so"
  echo "absolute paths inside are $STAGE/.openclaw/..."
  echo
  echo "- \`legacy/.openclaw/\` legacy file store (sessions.json + JSONL v3 transcripts) written by \`lib/gen-legacy.mjs\`"
  [[ "$CONFIG_REWRITTEN" == 1 ]] && echo "  (its \`openclaw.json\` in the older \`agents.list\` form, which $VER accepts: \`report/config-validate.txt\`)"
  if [[ "$SQLITE" == 1 ]]; then
    echo "- \`imported/.openclaw/\` after $VER's \`openclaw doctor --session-sqlite import --session-sqlite-all-agents\`"
    echo "- \`live/.openclaw/\` imported + $VER's plugin SDK writes on agents $SDK_AGENTS (\`lib/sdk-phase-release.mjs\`: upsert,"
    echo "  append, patch, delete with archiveTranscript)"
    PRUNED="$(grep -o '"pruned:[^"]*":[0-9]*' "$R/sdk-phase.txt" 2>/dev/null | tr -d '"' | sed 's/^pruned://' | paste -sd, - || true)"
    [[ -n "$PRUNED" ]] && echo "  ($VER's own session maintenance ran during these writes; entries it pruned per agent: $PRUNED,"
    [[ -n "$PRUNED" ]] && echo "  keys in \`report/sdk-phase.txt\`, \"pruned by the release\"; their transcripts are in \`sessions/*.jsonl.deleted.*.zst\`)"
  else
    echo "- \`live/.openclaw/\` the legacy store after one \`openclaw sessions --all-agents --json --limit all\` of $VER"
    echo "  ($VER keeps sessions in sessions.json + JSONL; the command only adds what it writes itself)"
  fi
  [[ "$UPGRADE" == 1 ]] && echo "- \`upgraded/.openclaw/\` live after OpenClaw $OPENCLAW_REF_OPENCLAW_VERSION's \`openclaw doctor --fix --non-interactive\` (see \`upgraded/README.md\`)"
  echo "- \`report/\` $VER's CLI outputs (\`sessions-all-agents.json\` = \`openclaw sessions --all-agents --json --limit all\`"
  echo "  on live, \`sessions-keys.json\` its row keys and kinds), \`schema-agent.sql\` / \`schema-state.sql\` (every"
  echo "  \`sqlite_schema\` row of live's first agent DB and state DB: type, name, tbl_name, sql, in creation order),"
  echo "  \`meta-*.json\` (user_version, journal mode and \`schema_meta\` of every database), \`stats-*.json\` (row counts)"
  echo
  echo "SQLite files were checkpointed (no -wal/-shm). Their headers still say WAL mode: work on copies."
} > "$OUT/README.md"
if [[ "$UPGRADE" == 1 ]]; then
  "$REF_NODE" "$REPORT_JS" sanitize "$UR" "$PKG=<openclaw-pkg>" "$RT=<openclaw-runtime>" "$OPENCLAW_REF_PKG=<openclaw-pkg>" \
    "$OPENCLAW_REF_DIR=<openclaw-ref>" "$H=<harness>" "$OUT=<out>" $([[ "$HOME" != "$STAGE" && "$HOME" != / && ${#HOME} -gt 4 ]] && echo "$HOME=<home>")
  {
    echo "# OpenClaw $VER store upgraded by OpenClaw $OPENCLAW_REF_OPENCLAW_VERSION (generated)"
    echo
    echo "\`.openclaw/\` is \`../live/.openclaw/\` (written by $VER) after OpenClaw $OPENCLAW_REF_OPENCLAW_VERSION's own"
    echo "\`openclaw doctor --fix --non-interactive\` (output in \`report/doctor-fix.txt\`), checkpointed. Made by"
    echo "\`make-release-store.sh $VER --upgraded\` together with the parent directory; file list in \`report/files.txt\`."
    echo
    echo "Besides upgrading the databases in place, \`doctor --fix\` repairs rows and files like on any store (session"
    echo "titles, stale model routing state, skills in \`openclaw.json\`, plugin index): the sessions here are not row"
    echo "for row those of \`../live/\`; \`report/doctor-fix.txt\` lists what it changed. The \`plugin-skills/\` links it"
    echo "makes (into its own package dir) are left out: they would dangle anywhere else."
    echo
    echo "- \`report/sessions-before-upgrade.json\` (+ \`.stderr.txt\`) $OPENCLAW_REF_OPENCLAW_VERSION's \`openclaw sessions --all-agents --json --limit all\`"
    echo "  on a copy of \`../live/.openclaw/\` before the upgrade (its refusal of the older agent database)"
    echo "- \`report/sessions-all-agents.json\` $OPENCLAW_REF_OPENCLAW_VERSION's \`openclaw sessions --all-agents --json --limit all\` on it"
    echo "  (run on a staging copy afterwards), \`sessions-keys.json\` its row keys and kinds"
    echo "- \`report/schema-agent.sql\`, \`report/schema-state.sql\` every \`sqlite_schema\` row (type, name, tbl_name, sql,"
    echo "  creation order) of the upgraded first agent DB and state DB; \`meta.json\`, \`stats.json\`"
  } > "$U/README.md"
  "$REF_NODE" "$REPORT_JS" files "$U" "$UR/files.txt"
fi
"$REF_NODE" "$REPORT_JS" files "$OUT" "$R/files.txt"
left="$(find "$OUT" -name '*-wal' -o -name '*-shm' | head -3)"
[[ -z "$left" ]] || echo "make-release-store.sh: WARNING: SQLite sidecars left: $left" >&2
echo "done: $OUT ($(du -sh "$OUT" | cut -f1))"
