#!/usr/bin/env bash
# Benchmark of `du --sessions` and `du --content` beside a query doing the same sums in Python's
# sqlite3 module, at two store sizes about 10x apart: time and peak memory (issue 51).
#
#   bash bench/du.sh                     # prints the table rows (markdown) for BENCHMARKS.md
#
# Environment: DU_BENCH_MB ("50 500": MB of view_image tool results added to the store),
# DU_BENCH_REPEAT (3), DU_BENCH_DIR (target/bench-du; the generated stores are kept and reused).
# The store: bench/make-store.sh --agents main (200 sessions of ~30 events, zstd rows over 1 KiB
# as OpenClaw writes them), then tool results of `view_image` with a ~300 KB inline base64 image
# each, appended as plain JSON rows (OpenClaw keeps media inline: its SDK writes such rows, see
# tests/reference check du_content_sdk_images) until the size is reached, spread over the sessions.
# The system sqlite3 CLI may predate octet_length (SQLite 3.43), which the 2026.9.6 schema's
# CHECKs use: the Python side registers it.
# The Python side of --content reads only plain JSON rows (json_each over event_json; it has no
# zstd), which hold every image here: its image sum must equal ours (checked, the run fails if not).
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
HARNESS="$ROOT/tests/reference/openclaw"
SIZES="${DU_BENCH_MB:-50 500}"
REPEAT="${DU_BENCH_REPEAT:-3}"
DIR="${DU_BENCH_DIR:-$ROOT/target/bench-du}"
mkdir -p "$DIR"; DIR="$(realpath "$DIR")"
OURS="$ROOT/target/release/openclaw-sessions"
log() { echo "[bench-du] $*" >&2; }

(cd "$ROOT" && cargo build --release --locked) >&2
SCRATCH="$(mktemp -d "$DIR/run.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

export PYS="$SCRATCH/py-sessions.py" PYC="$SCRATCH/py-content.py"
# shellcheck source=timed.sh
source "$ROOT/bench/timed.sh"

# shellcheck source=images.sh
source "$ROOT/bench/images.sh"

# The Python side: the same sums as `du --sessions` (per transcript: events, serialized and stored
# bytes, the largest 20) and `du --content` (bytes by event kind and by content block, inline base64
# apart) with the sqlite3 module.
cat > "$SCRATCH/py-sessions.py" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
c.create_function("octet_length", 1, lambda v: None if v is None else len(v.encode() if isinstance(v, str) else v), deterministic=True)
rows = c.execute("""SELECT e.session_id, (SELECT w.session_key FROM session_windows w WHERE w.session_id = e.session_id),
  count(*), sum(coalesce(e.event_utf8_bytes, octet_length(e.event_json))),
  sum(coalesce(length(e.event_zstd), octet_length(e.event_json))), max(e.created_at)
  FROM transcript_events e GROUP BY e.session_id ORDER BY 4 DESC LIMIT 20""").fetchall()
print(len(rows), rows[0][3])
EOF
cat > "$SCRATCH/py-content.py" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
c.create_function("octet_length", 1, lambda v: None if v is None else len(v.encode() if isinstance(v, str) else v), deterministic=True)
kinds = c.execute("""SELECT CASE WHEN json_extract(event_json, '$.type') = 'message'
    THEN 'message:' || json_extract(event_json, '$.message.role') ELSE json_extract(event_json, '$.type') END,
  count(*), sum(coalesce(event_utf8_bytes, octet_length(event_json)))
  FROM transcript_events GROUP BY 1""").fetchall()
blocks = c.execute("""SELECT CASE WHEN json_type(b.value, '$.data') = 'text' THEN json_extract(b.value, '$.type') || ' (inline base64)'
    ELSE json_extract(b.value, '$.type') END,
  count(*), sum(coalesce(length(json_extract(b.value, '$.data')), length(json_extract(b.value, '$.text')), 0))
  FROM transcript_events e, json_each(e.event_json, '$.message.content') b
  WHERE e.event_json IS NOT NULL AND json_type(e.event_json, '$.message.content') = 'array' GROUP BY 1""").fetchall()
print(dict((k, v) for k, _, v in blocks).get("image (inline base64)", 0))
EOF

echo "| store (main, view_image results) | ours \`du --sessions\` | Python sqlite3, same sums | ours \`du --content\` | Python sqlite3 json_each | ours peak RSS (sessions / content) | Python peak RSS (sessions / content) |"
echo "|---|---|---|---|---|---|---|"
for mb in $SIZES; do
  store_dir="$DIR/store-$mb"
  if [[ ! -f "$store_dir/report/images.txt" ]]; then
    rm -rf "$store_dir"
    log "generating the store: 200 sessions of main, then $mb MB of view_image results"
    bash "$ROOT/bench/make-store.sh" --out "$store_dir" --agents main --sessions-per-agent 200 \
      --events-per-session 30 --seed 51 >&2
    add_images "$store_dir/imported/.openclaw/agents/main/agent/openclaw-agent.sqlite" "$mb" > "$store_dir/report/images.txt"
  fi
  store="$store_dir/imported/.openclaw"
  db_bytes=$(stat -c %s "$store/agents/main/agent/openclaw-agent.sqlite")
  events=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM transcript_events").fetchone()[0])' "$store/agents/main/agent/openclaw-agent.sqlite")
  # Both sides see the same image bytes.
  ours_img=$("$OURS" --state-dir "$store" du --content --json | python3 -c 'import json,sys; a=json.load(sys.stdin)["data"]["agents"][0]; print(a["byBlock"].get("image (inline base64)", {}).get("bytes", 0))')
  py_img=$(python3 "$SCRATCH/py-content.py" "$store/agents/main/agent/openclaw-agent.sqlite")
  [[ "$ours_img" == "$py_img" ]] || { log "image bytes differ: ours $ours_img, Python $py_img"; exit 1; }
  for r in $(seq "$REPEAT"); do
    log "$mb MB: round $r"
    one "ours-s-$mb" "$store" '"$OURS" --state-dir "$S" du --sessions --json > /dev/null'
    one "py-s-$mb" "$store" 'python3 "$PYS" "$S/agents/main/agent/openclaw-agent.sqlite" > /dev/null'
    one "ours-c-$mb" "$store" '"$OURS" --state-dir "$S" du --content --json > /dev/null'
    one "py-c-$mb" "$store" 'python3 "$PYC" "$S/agents/main/agent/openclaw-agent.sqlite" > /dev/null'
  done
  t() { awk '{print $1}' "$SCRATCH/$1-$mb" | median; }
  m() { awk '{print $2}' "$SCRATCH/$1-$mb" | sort -g | tail -n 1; }
  echo "| $((db_bytes / 1000000)) MB database, $events events, $((ours_img / 1000000)) MB of inline images | $(t ours-s) s | $(t py-s) s | $(t ours-c) s | $(t py-c) s | $(m ours-s) / $(m ours-c) kB | $(m py-s) / $(m py-c) kB |"
done
