#!/usr/bin/env bash
# Benchmark of `migrate schema` beside OpenClaw 2026.9.6's own upgrade of the same store, side by
# side in one run, at two sizes 10x apart: time and peak memory.
#
#   bash bench/schema.sh                 # prints the table rows (markdown) for BENCHMARKS.md
#
# Environment: SCHEMA_BENCH_RELEASE (2026.8.2), SCHEMA_BENCH_SIZES ("100 1000" sessions per
# agent, 3 agents), SCHEMA_BENCH_EVENTS (40 per session), SCHEMA_BENCH_REPEAT (3),
# SCHEMA_BENCH_DIR (target/bench-schema; the generated stores are kept there and reused).
# OpenClaw's side is `openclaw doctor --non-interactive`, which upgrades the agent and state
# databases and repairs nothing else (docs/openclaw/SCHEMA-UPGRADE.md §1.1); ours is
# `migrate schema --all-agents --yes`, which also writes a verified snapshot of each database first.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
HARNESS="$ROOT/tests/reference/openclaw"
# shellcheck source=../tests/reference/openclaw/lib/common.sh
source "$HARNESS/lib/common.sh"
RELEASE="${SCHEMA_BENCH_RELEASE:-2026.8.2}"
SIZES="${SCHEMA_BENCH_SIZES:-100 1000}"
EVENTS="${SCHEMA_BENCH_EVENTS:-40}"
REPEAT="${SCHEMA_BENCH_REPEAT:-3}"
DIR="${SCHEMA_BENCH_DIR:-$ROOT/target/bench-schema}"
mkdir -p "$DIR"; DIR="$(realpath "$DIR")"
OURS="$ROOT/target/release/openclaw-sessions"
log() { echo "[bench-schema] $*" >&2; }

"$HARNESS/install.sh" >/dev/null
(cd "$ROOT" && cargo build --release --locked) >&2
SCRATCH="$(mktemp -d "$DIR/run.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

# shellcheck source=timed.sh
source "$ROOT/bench/timed.sh"

echo "| store ($RELEASE, 3 agents) | ours \`migrate schema\` | OpenClaw \`doctor --non-interactive\` | ratio | ours peak RSS | OpenClaw peak RSS |"
echo "|---|---|---|---|---|---|"
for spa in $SIZES; do
  store_dir="$DIR/store-$RELEASE-$spa-$EVENTS"
  if [[ ! -f "$store_dir/report/generator.json" ]]; then
    log "generating $RELEASE store: 3 x $spa sessions x $EVENTS events"
    "$HARNESS/make-release-store.sh" "$RELEASE" --out "$store_dir" --sessions-per-agent "$spa" \
      --events-per-session "$EVENTS" --no-sdk-phase >&2
  fi
  store="$store_dir/imported/.openclaw"
  : > "$SCRATCH/ours-$spa"; : > "$SCRATCH/oc-$spa"
  for _ in $(seq "$REPEAT"); do
    # Alternately, so that a noisy moment of the machine hits both sides alike.
    one "ours-$spa" "$store" '"$OURS" --state-dir "$S" migrate schema --all-agents --yes'
    one "oc-$spa" "$store" 'mkdir -p "$HOME_DIR"; env HOME="$HOME_DIR" OPENCLAW_STATE_DIR="$S" OPENCLAW_NO_RESPAWN=1 "$HARNESS/oc" doctor --non-interactive'
  done
  ot="$(cut -d' ' -f1 "$SCRATCH/ours-$spa" | median)"; om="$(cut -d' ' -f2 "$SCRATCH/ours-$spa" | median)"
  ct="$(cut -d' ' -f1 "$SCRATCH/oc-$spa" | median)"; cm="$(cut -d' ' -f2 "$SCRATCH/oc-$spa" | median)"
  events="$(( 3 * spa * EVENTS ))"
  echo "| 3 x $spa sessions, $events events | ${ot} s | ${ct} s | $(awk -v a="$ot" -v b="$ct" 'BEGIN{printf "%.2f", a/b}') | $(( om / 1024 )) MB | $(( cm / 1024 )) MB |"
done
