#!/usr/bin/env bash
# Benchmark of `compact --reclaim` and `compact --restore` at two store sizes about 10x apart:
# time, peak memory, and the database's size before, after the compact and its reclaim, and after
# the restore (issue 51).
#
#   bash bench/compact.sh                # prints the table rows (markdown) for BENCHMARKS.md
#
# Environment: COMPACT_BENCH_MB ("50 500": MB of view_image tool results added to the store),
# COMPACT_BENCH_REPEAT (3), COMPACT_BENCH_DIR (target/bench-du: the stores bench/du.sh makes,
# kept and reused). The store: bench/make-store.sh --agents main (200 sessions of ~30 events),
# then `view_image` tool results with ~300 KB of inline base64 each (bench/images.sh).
# Each timed run works on a fresh copy; the compact writes its required snapshot into the copy's
# scratch directory (`--backup-dir`), which is part of what it costs.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
HARNESS="$ROOT/tests/reference/openclaw"
SIZES="${COMPACT_BENCH_MB:-50 500}"
REPEAT="${COMPACT_BENCH_REPEAT:-3}"
DIR="${COMPACT_BENCH_DIR:-$ROOT/target/bench-du}"
mkdir -p "$DIR"; DIR="$(realpath "$DIR")"
export OURS="$ROOT/target/release/openclaw-sessions"
log() { echo "[bench-compact] $*" >&2; }

(cd "$ROOT" && cargo build --release --locked) >&2
SCRATCH="$(mktemp -d "$DIR/run.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT
# shellcheck source=timed.sh
source "$ROOT/bench/timed.sh"
# shellcheck source=images.sh
source "$ROOT/bench/images.sh"

DB=agents/main/agent/openclaw-agent.sqlite
echo "| store (main, view_image results) | \`compact --yes --reclaim\` | peak RSS | database before / after | media files | \`compact --restore --yes\` | peak RSS |"
echo "|---|---|---|---|---|---|---|"
for mb in $SIZES; do
  store_dir="$DIR/store-$mb"
  if [[ ! -f "$store_dir/report/images.txt" ]]; then
    rm -rf "$store_dir"
    log "generating the store: 200 sessions of main, then $mb MB of view_image results"
    bash "$ROOT/bench/make-store.sh" --out "$store_dir" --agents main --sessions-per-agent 200 \
      --events-per-session 30 --seed 51 >&2
    add_images "$store_dir/imported/.openclaw/$DB" "$mb" > "$store_dir/report/images.txt"
  fi
  store="$store_dir/imported/.openclaw"
  db_bytes=$(stat -c %s "$store/$DB")
  events=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM transcript_events").fetchone()[0])' "$store/$DB")
  # The sizes, once: the database after the compact and its reclaim, the payload files.
  d="$(mktemp -d "$SCRATCH/size.XXXXXX")"; cp -a "$store" "$d/.openclaw"
  "$OURS" --state-dir "$d/.openclaw" compact --yes --reclaim --backup-dir "$d/snaps" --json > "$SCRATCH/size.json"
  after=$(stat -c %s "$d/.openclaw/$DB")
  media=$(du -sb "$d/.openclaw/openclaw-sessions/media" | cut -f1)
  moved=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["data"]["plan"]["agents"]; print(sum(s["events"] for a in p for s in a["sessions"]))' "$SCRATCH/size.json")
  "$OURS" --state-dir "$d/.openclaw" compact --restore --yes --backup-dir "$d/snaps" > /dev/null
  [[ -z "$(ls -A "$d/.openclaw/openclaw-sessions/media/main")" ]] || { log "payload files left after --restore"; exit 1; }
  rm -rf "$d"
  for r in $(seq "$REPEAT"); do
    log "$mb MB: round $r"
    one "compact-$mb" "$store" '"$OURS" --state-dir "$S" compact --yes --reclaim --backup-dir "$S/../snaps" > /dev/null'
    one "restore-$mb" "$store" '"$OURS" --state-dir "$S" compact --restore --yes --backup-dir "$S/../snaps" > /dev/null' \
      '"$OURS" --state-dir "$S" compact --yes --backup-dir "$S/../snaps0" > /dev/null'
  done
  t() { awk '{print $1}' "$SCRATCH/$1-$mb" | median; }
  m() { awk '{print $2}' "$SCRATCH/$1-$mb" | sort -g | tail -n 1; }
  echo "| $((db_bytes / 1000000)) MB database, $events events ($moved with an image moved out) | $(t compact) s | $(m compact) kB | $((db_bytes / 1000000)) MB / $((after / 1000000)) MB | $((media / 1000000)) MB | $(t restore) s | $(m restore) kB |"
done
