#!/usr/bin/env bash
# Benchmark of `bundle export` and `bundle import` (issue 54) at two sizes 10x apart: time and
# peak memory of exporting every session of an agent into one bundle, and of importing that
# bundle into another state dir's agent.
#
#   bash bench/bundle.sh                 # prints the table rows (markdown) for BENCHMARKS.md
#
# Environment: BUNDLE_BENCH_SESSIONS ("100 1000": sessions of the exported agent),
# BUNDLE_BENCH_EVENTS (30 events a session), BUNDLE_BENCH_REPEAT (3),
# BUNDLE_BENCH_DIR (target/bench-bundle; the generated stores are kept and reused).
# Stores: bench/make-store.sh --agents main (N sessions, zstd rows over 1 KiB as OpenClaw writes
# them) as the source, and --agents work --sessions-per-agent 1 as the destination (its work
# agent takes the main agent's sessions but its main one, under agent:work:<same key>). Each import runs on a
# fresh copy of the destination; the import's transcripts are then counted (every event in).
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
HARNESS="$ROOT/tests/reference/openclaw"
SIZES="${BUNDLE_BENCH_SESSIONS:-100 1000}"
EVENTS="${BUNDLE_BENCH_EVENTS:-30}"
REPEAT="${BUNDLE_BENCH_REPEAT:-3}"
DIR="${BUNDLE_BENCH_DIR:-$ROOT/target/bench-bundle}"
mkdir -p "$DIR"; DIR="$(realpath "$DIR")"
OURS="${OPENCLAW_SESSIONS_BIN:-$ROOT/target/release/openclaw-sessions}"
log() { echo "[bench-bundle] $*" >&2; }

[[ -n "${OPENCLAW_SESSIONS_BIN:-}" ]] || (cd "$ROOT" && cargo build --release --locked) >&2
SCRATCH="$(mktemp -d "$DIR/run.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT
# shellcheck source=timed.sh
source "$ROOT/bench/timed.sh"

store() {
  local out="$1"; shift
  [[ -d "$out/imported/.openclaw" ]] || bash "$ROOT/bench/make-store.sh" --out "$out" --seed 54 "$@" >&2
  echo "$out/imported/.openclaw"
}

DEST="$(store "$DIR/dest" --agents work --sessions-per-agent 1 --events-per-session "$EVENTS")"
echo "| sessions (events) | bundle | export | export peak RSS | import | import peak RSS |"
echo "|---|---|---|---|---|---|"
for n in $SIZES; do
  SRC="$(store "$DIR/src-$n" --agents main --sessions-per-agent "$n" --events-per-session "$EVENTS")"
  # Every session but the main one (the destination agent has its own main session).
  "$OURS" --state-dir "$SRC" --agent main list --json --limit all > "$SCRATCH/list.json"
  python3 - "$SCRATCH/list.json" "$SCRATCH/keys" "$SCRATCH/events" <<'PY'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["data"] if r["sessionKey"] != "agent:main:main"]
open(sys.argv[2], "w").write("\n".join(r["sessionKey"] for r in rows) + "\n")
open(sys.argv[3], "w").write(str(sum((r.get("transcript") or {}).get("events") or 0 for r in rows)))
PY
  events="$(cat "$SCRATCH/events")"
  n="$(wc -l < "$SCRATCH/keys")"
  rm -f "$SCRATCH/export" "$SCRATCH/import"
  for _ in $(seq "$REPEAT"); do
    rm -f "$SCRATCH/b.bundle"
    /usr/bin/time -f "%e %M" -o "$SCRATCH/t" xargs -a "$SCRATCH/keys" -d '\n' \
      "$OURS" --state-dir "$SRC" --agent main bundle export "$SCRATCH/b.bundle" > /dev/null 2>&1 ||
      { log "export failed"; exit 1; }
    cat "$SCRATCH/t" >> "$SCRATCH/export"
  done
  bytes="$(stat -c %s "$SCRATCH/b.bundle")"
  export BUNDLE="$SCRATCH/b.bundle"
  for _ in $(seq "$REPEAT"); do
    one import "$DEST" '"$OURS" --state-dir "$S" --agent work bundle import "$BUNDLE" --yes -q'
  done
  # The last import's result, once more on a fresh copy: every event is in.
  d="$(mktemp -d "$SCRATCH/c.XXXXXX")"; cp -a "$DEST" "$d/.openclaw"
  "$OURS" --state-dir "$d/.openclaw" --agent work bundle import "$BUNDLE" --yes --json > "$SCRATCH/imp.json"
  got="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["events"])' "$SCRATCH/imp.json")"
  [[ "$got" == "$events" ]] || { log "imported $got events of $events"; exit 1; }
  rm -rf "$d"
  et="$(cut -d' ' -f1 "$SCRATCH/export" | median)"; em="$(cut -d' ' -f2 "$SCRATCH/export" | median)"
  it="$(cut -d' ' -f1 "$SCRATCH/import" | median)"; im="$(cut -d' ' -f2 "$SCRATCH/import" | median)"
  printf '| %s (%s) | %s MB | %s s | %.1f MB | %s s | %.1f MB |\n' "$n" "$events" \
    "$(python3 -c "print(round($bytes/1e6, 2))")" "$et" "$(python3 -c "print($em/1024)")" \
    "$it" "$(python3 -c "print($im/1024)")"
done
