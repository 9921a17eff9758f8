#!/usr/bin/env bash
# `log` over an operation log of SMALL and LARGE records (docs/OPLOG.md; default 1000 and
# 10000, the retention limit), with peak RSS; the floor is `cat` of the same files.
#
#   bash bench/oplog.sh [SMALL] [LARGE]
#
# The records are written by this script in the log's own format (a begin and an end line each,
# three session actions, as a `delete` of three sessions leaves them; files rotated at 1 MiB as
# the writer rotates them), on a copy of the committed live fixture: running 10,000 real
# commands would take hours. Every record is read by each command: `log` (the table, piped),
# `log --json`, `log --key` (a filter that matches one record) and `log show` of the oldest.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OURS="${OURS:-$ROOT/target/release/openclaw-sessions}"
[[ -x "$OURS" ]] || (cd "$ROOT" && cargo build --release --locked --quiet)
W="$(mktemp -d)"; trap 'rm -rf "$W"' EXIT
cp -a "$ROOT/tests/fixtures/openclaw-2026.9.6/live/.openclaw" "$W/state"; chmod -R u+w "$W/state"

peak() { # peak() OUT CMD...: wall seconds and peak RSS kB of CMD into OUT
  local out="$1"; shift
  /usr/bin/time -f "%e %M" -o "$out" "$@" > /dev/null 2>&1
}

write_log() { # write_log N: N records under $W/state/openclaw-sessions-oplog
  python3 - "$W/state/openclaw-sessions-oplog" "$1" <<'PY'
import json, os, sys, time, uuid
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d, mode=0o700, exist_ok=True)
for f in os.listdir(d):
    os.remove(os.path.join(d, f))
now = int(time.time() * 1000) - n * 60_000
f, size = None, 0
for i in range(n):
    t = now + i * 60_000
    rid = f"{t:011x}{i % 65536:04x}"
    if f is None or size >= 1024 * 1024:
        if f: f.close()
        f, size = open(os.path.join(d, rid + ".jsonl"), "w"), 0
        os.chmod(f.name, 0o600)
    actions = [{"agentId": "main", "sessionKey": f"agent:main:cron:nightly:run:{i}-{k}",
                "sessionId": str(uuid.uuid4()), "action": "delete",
                "archives": [f"{uuid.uuid4()}.jsonl.deleted.2026-12-06T05-01-29.166Z.{uuid.uuid4().hex}.zst"]}
               for k in range(3)]
    begin = {"type": "begin", "format": "openclaw-sessions.oplog", "version": 1, "id": rid, "time": t,
             "command": "delete", "argv": ["--state-dir", "/home/user/.openclaw", "delete", "--kind", "cron", "--yes"],
             "origin": {"user": "user", "uid": 1000, "host": "host", "pid": 4242}, "route": "offline",
             "release": "2026.9.6", "headline": "delete 3 sessions of 1 agent, archiving their transcripts",
             "actions": actions, "snapshots": []}
    end = {"type": "end", "id": rid, "time": t + 500, "outcome": "done", "actions": actions}
    for line in (begin, end):
        text = json.dumps(line, separators=(",", ":")) + "\n"
        f.write(text); size += len(text)
f.close()
PY
}

echo "| records | log files | \`log\` | \`log --json\` | \`log --key K\` | \`log show ID\` | \`cat\` of the files |"
echo "|---|---|---|---|---|---|---|"
for n in "${1:-1000}" "${2:-10000}"; do
  write_log "$n"
  files=("$W/state/openclaw-sessions-oplog"/*.jsonl)
  bytes="$(du -cb "${files[@]}" | tail -n 1 | cut -f1)"
  oldest="$(basename "${files[0]}" .jsonl)"
  key="agent:main:cron:nightly:run:$((n / 2))-1"
  cells=()
  for args in "log" "--json log" "log --key $key" "log show $oldest"; do
    # shellcheck disable=SC2086
    peak "$W/t" "$OURS" --state-dir "$W/state" $args
    read -r t r < "$W/t"; cells+=("$t s, $r kB")
  done
  peak "$W/t" cat "${files[@]}"; read -r t r < "$W/t"
  echo "| $n | ${#files[@]} ($((bytes / 1024)) KiB) | ${cells[0]} | ${cells[1]} | ${cells[2]} | ${cells[3]} | $t s, $r kB |"
done
