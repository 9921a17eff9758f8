#!/usr/bin/env bash
# A scale store for the benchmarks, built in minutes rather than hours.
#
#   bash bench/make-store.sh --out DIR [--agents a,b,c] [--sessions-per-agent N]
#        [--events-per-session M] [--seed N] [--importer ours|openclaw]
#
#   DIR/legacy/.openclaw     legacy file store (sessions.json + JSONL v3) written by
#                            tests/reference/openclaw/lib/gen-legacy.mjs: seeded, many small
#                            messages, long answers and 3 KB tool results (over 1 KiB: zstd rows)
#   DIR/imported/.openclaw   the same store in SQLite
#   DIR/report/              gen-legacy.json, generator.json, timings.txt
#
# --importer ours (the default) imports with our `migrate legacy`: the suite check
# `migrate_legacy_matches_openclaw` proves that, for this generator's stores, it writes OpenClaw's
# rows (zstd frames byte for byte). OpenClaw's own import of 3 x 20,000 sessions takes over half
# an hour here. --importer openclaw runs tests/reference/openclaw/make-store.sh --scale instead
# (OpenClaw imports, and its own commands are timed).
# A store of at most 5,000 sessions is then read back by OpenClaw (`openclaw sessions
# --all-agents --json`), which must list every session.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
HARNESS="$ROOT/tests/reference/openclaw"
# shellcheck source=../tests/reference/openclaw/lib/common.sh
source "$HARNESS/lib/common.sh"
die() { echo "make-store: $*" >&2; exit 1; }

OUT="" AGENTS="main,work,research" SPA=20000 EPS=33 SEED=0 IMPORTER=ours
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) OUT="${2:?}"; shift 2 ;;
    --agents) AGENTS="${2:?}"; shift 2 ;;
    --sessions-per-agent) SPA="${2:?}"; shift 2 ;;
    --events-per-session) EPS="${2:?}"; shift 2 ;;
    --seed) SEED="${2:?}"; shift 2 ;;
    --importer) IMPORTER="${2:?}"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) die "unknown argument: $1" ;;
  esac
done
[[ -n "$OUT" ]] || die "--out DIR is required"
[[ "$SPA" =~ ^[0-9]+$ && "$EPS" =~ ^[0-9]+$ && "$SEED" =~ ^[0-9]+$ ]] || die "sizes and seed are integers"
[[ ! -e "$OUT" || -z "$(ls -A "$OUT")" ]] || die "$OUT exists and is not empty"

if [[ "$IMPORTER" == openclaw ]]; then
  exec "$HARNESS/make-store.sh" --out "$OUT" --scale --seed "$SEED" --agents "$AGENTS" \
    --sessions-per-agent "$SPA" --events-per-session "$EPS"
fi
[[ "$IMPORTER" == ours ]] || die "--importer is ours or openclaw"

ocref_ensure_installed
# MAKE_STORE_OURS=BINARY imports with that build instead of building the release binary.
OURS="${MAKE_STORE_OURS:-$ROOT/target/release/openclaw-sessions}"
[[ -n "${MAKE_STORE_OURS:-}" ]] || (cd "$ROOT" && cargo build --release --locked) >&2
mkdir -p "$OUT/report"
OUT="$(realpath "$OUT")"
STARTED="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

t0=$(date +%s.%N)
"$OPENCLAW_REF_NODE" "$HARNESS/lib/gen-legacy.mjs" --state "$OUT/legacy/.openclaw" --seed "$SEED" \
  --agents "$AGENTS" --sessions-per-agent "$SPA" --events-per-session "$EPS" > "$OUT/report/gen-legacy.json"
t1=$(date +%s.%N)
cp -a "$OUT/legacy/.openclaw" "$OUT/imported.partial"
/usr/bin/time -f "%e %M" -o "$OUT/report/time-import.txt" \
  "$OURS" --state-dir "$OUT/imported.partial" migrate legacy --all-agents --yes --json > "$OUT/report/import.json"
mkdir -p "$OUT/imported"
mv "$OUT/imported.partial" "$OUT/imported/.openclaw"
ls "$OUT"/imported/.openclaw/agents/*/agent/*-wal > /dev/null 2>&1 && die "the import left a -wal file"
SESSIONS=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sessions"])' "$OUT/report/gen-legacy.json")
LISTED="not checked (over 5,000 sessions)"
if (( SESSIONS <= 5000 )); then
  HOME_OC="$(mktemp -d)"
  LISTED="$(env OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" OPENCLAW_STATE_DIR="$OUT/imported/.openclaw" \
    OPENCLAW_NO_RESPAWN=1 HOME="$HOME_OC" \
    "$HARNESS/oc" sessions --all-agents --json --limit all |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(j.get("count", len(j.get("sessions", []))))')"
  rm -rf "$HOME_OC"
  [[ "$LISTED" == "$SESSIONS" ]] || die "OpenClaw lists $LISTED of $SESSIONS sessions of the imported store"
fi

cat > "$OUT/report/generator.json" <<EOF
{"generator":"bench/make-store.sh","openclaw":"$OPENCLAW_REF_OPENCLAW_VERSION","mode":"scale","importer":"ours","seed":$SEED,"agents":"$AGENTS","sessionsPerAgent":$SPA,"eventsPerSession":$EPS,"startedAt":"$STARTED","finishedAt":"$(date -u +%Y-%m-%dT%H:%M:%SZ)"}
EOF
read -r IMPORT_S IMPORT_KB < "$OUT/report/time-import.txt"
{
  echo "# bench/make-store.sh timings ($(nproc) CPUs, $(uname -sm))"
  echo "# agents=$AGENTS sessions-per-agent=$SPA events-per-session=$EPS seed=$SEED"
  echo "generate_legacy_wall_s      $(secs "$t0" "$t1")   (gen-legacy.mjs)"
  echo "legacy_store_bytes          $(du -sb "$OUT/legacy" | cut -f1)"
  echo "migrate_legacy_wall_s       $IMPORT_S   peak_rss_kb $IMPORT_KB   (ours, imports the store)"
  echo "imported_store_bytes        $(du -sb "$OUT/imported" | cut -f1)"
  echo "sessions_listed_by_openclaw $LISTED"
} > "$OUT/report/timings.txt"
cat "$OUT/report/timings.txt"
