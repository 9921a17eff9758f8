#!/usr/bin/env bash
# Benchmark of `prune --enforce` on an older release's store (agent schema 19, pruned by that
# release's own rules) beside that release's own `openclaw sessions cleanup --enforce` of the same
# store, side by side in one run, at two sizes 10x apart: time and peak memory.
#
#   bash bench/release-prune.sh          # prints the table rows (markdown) for BENCHMARKS.md
#
# Environment: PRUNE_BENCH_RELEASE (2026.8.2), PRUNE_BENCH_SIZES ("100 1000" sessions per agent,
# 3 agents), PRUNE_BENCH_EVENTS (40 per session), PRUNE_BENCH_REPEAT (3), PRUNE_BENCH_DIR
# (target/bench-schema: the stores bench/schema.sh generates are reused). Both sides get the
# same settings in a fresh copy (`pruneAfter 1h`, `maxEntries` half the sessions of an agent), and
# OpenClaw's cleanup runs once per agent through `--store`, as bench/run.sh's applied prune.
# PRUNE_BENCH_OURS=BINARY times that build instead of building the release binary;
# PRUNE_BENCH_BEFORE=BINARY adds a column: that build of ours (an older commit's release binary)
# on the same copies, in the same alternation.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
HARNESS="$ROOT/tests/reference/openclaw"
# shellcheck source=../tests/reference/openclaw/lib/common.sh
source "$HARNESS/lib/common.sh"
RELEASE="${PRUNE_BENCH_RELEASE:-2026.8.2}"
SIZES="${PRUNE_BENCH_SIZES:-100 1000}"
EVENTS="${PRUNE_BENCH_EVENTS:-40}"
REPEAT="${PRUNE_BENCH_REPEAT:-3}"
DIR="${PRUNE_BENCH_DIR:-$ROOT/target/bench-schema}"
mkdir -p "$DIR"; DIR="$(realpath "$DIR")"
OURS="${PRUNE_BENCH_OURS:-$ROOT/target/release/openclaw-sessions}"
log() { echo "[bench-release-prune] $*" >&2; }

"$HARNESS/install.sh" >/dev/null
"$HARNESS/oc-release" "$RELEASE" --path >/dev/null
[[ -n "${PRUNE_BENCH_OURS:-}" ]] || (cd "$ROOT" && cargo build --release --locked) >&2
SCRATCH="$(mktemp -d "$DIR/run.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

# shellcheck source=timed.sh
source "$ROOT/bench/timed.sh"
export RELEASE
# The same settings in each fresh copy, before the timed run (as bench/run.sh's MAINT).
SETTINGS='python3 -c "import json,os,sys; p=sys.argv[1]; c=json.load(open(p)); c.setdefault(\"session\", {})[\"maintenance\"]={\"pruneAfter\": \"1h\", \"maxEntries\": int(os.environ[\"MAX_ENTRIES\"])}; json.dump(c, open(p, \"w\"))" "$S/openclaw.json"'

BEFORE="${PRUNE_BENCH_BEFORE:-}"
if [[ -n "$BEFORE" ]]; then
  echo "| store ($RELEASE, 3 agents) | ours \`prune --all-agents --enforce --yes\` | the same, before | OpenClaw $RELEASE \`sessions cleanup --enforce\` per agent | ratio | ours peak RSS | before peak RSS | OpenClaw peak RSS |"
  echo "|---|---|---|---|---|---|---|---|"
else
  echo "| store ($RELEASE, 3 agents) | ours \`prune --all-agents --enforce --yes\` | OpenClaw $RELEASE \`sessions cleanup --enforce\` per agent | ratio | ours peak RSS | OpenClaw peak RSS |"
  echo "|---|---|---|---|---|---|"
fi
for spa in $SIZES; do
  store_dir="$DIR/store-$RELEASE-$spa-$EVENTS"
  if [[ ! -f "$store_dir/report/generator.json" ]]; then
    log "generating $RELEASE store: 3 x $spa sessions x $EVENTS events"
    "$HARNESS/make-release-store.sh" "$RELEASE" --out "$store_dir" --sessions-per-agent "$spa" \
      --events-per-session "$EVENTS" --no-sdk-phase >&2
  fi
  store="$store_dir/imported/.openclaw"
  export MAX_ENTRIES=$(( spa / 2 ))
  : > "$SCRATCH/ours-$spa"; : > "$SCRATCH/oc-$spa"; : > "$SCRATCH/before-$spa"
  for _ in $(seq "$REPEAT"); do
    # Alternately, so that a noisy moment of the machine hits both sides alike.
    one "ours-$spa" "$store" '"$OURS" --state-dir "$S" prune --all-agents --enforce --yes' "$SETTINGS"
    [[ -z "$BEFORE" ]] || OURS="$BEFORE" one "before-$spa" "$store" '"$OURS" --state-dir "$S" prune --all-agents --enforce --yes' "$SETTINGS"
    one "oc-$spa" "$store" 'mkdir -p "$HOME_DIR"; for a in main work research; do
        env HOME="$HOME_DIR" OPENCLAW_STATE_DIR="$S" OPENCLAW_NO_RESPAWN=1 "$HARNESS/oc-release" "$RELEASE" \
          sessions cleanup --enforce --agent "$a" --store "$S/agents/$a/agent/openclaw-agent.sqlite" --json || exit 1
      done' "$SETTINGS"
  done
  ot="$(cut -d' ' -f1 "$SCRATCH/ours-$spa" | median)"; om="$(cut -d' ' -f2 "$SCRATCH/ours-$spa" | median)"
  ct="$(cut -d' ' -f1 "$SCRATCH/oc-$spa" | median)"; cm="$(cut -d' ' -f2 "$SCRATCH/oc-$spa" | median)"
  events="$(( 3 * spa * EVENTS ))"
  if [[ -n "$BEFORE" ]]; then
    bt="$(cut -d' ' -f1 "$SCRATCH/before-$spa" | median)"; bm="$(cut -d' ' -f2 "$SCRATCH/before-$spa" | median)"
    echo "| 3 x $spa sessions, $events events (runs: ours $(cut -d' ' -f1 "$SCRATCH/ours-$spa" | tr '\n' ' ')s; before $(cut -d' ' -f1 "$SCRATCH/before-$spa" | tr '\n' ' ')s; OpenClaw $(cut -d' ' -f1 "$SCRATCH/oc-$spa" | tr '\n' ' ')s) | ${ot} s | ${bt} s | ${ct} s | $(awk -v a="$ot" -v b="$ct" 'BEGIN{printf "%.3f", a/b}') | $(( om / 1024 )) MB | $(( bm / 1024 )) MB | $(( cm / 1024 )) MB |"
  else
    echo "| 3 x $spa sessions, $events events (runs: ours $(cut -d' ' -f1 "$SCRATCH/ours-$spa" | tr '\n' ' ')s; OpenClaw $(cut -d' ' -f1 "$SCRATCH/oc-$spa" | tr '\n' ' ')s) | ${ot} s | ${ct} s | $(awk -v a="$ot" -v b="$ct" 'BEGIN{printf "%.3f", a/b}') | $(( om / 1024 )) MB | $(( cm / 1024 )) MB |"
  fi
done
