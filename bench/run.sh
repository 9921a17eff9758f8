#!/usr/bin/env bash
# Benchmarks, side by side in one run, written to BENCHMARKS.md.
#
#   bash bench/run.sh                      # generate a scale store, measure, write BENCHMARKS.md
#   BENCH_STORE=<make-store.sh --scale output> bash bench/run.sh    # reuse a store
#   BENCH_STORE=<bench/make-store.sh output> BENCH_SKIP="migrate_openclaw" BENCH_REPEAT=1 bash bench/run.sh
#
# Environment: BENCH_AGENTS (main,work,research), BENCH_SESSIONS (500 per agent),
# BENCH_EVENTS (40 per session), BENCH_REPEAT (3), BENCH_DIR (target/bench),
# BENCH_OUT (BENCHMARKS.md), BENCH_SKIP / BENCH_ONLY (names of measurements). bench/memory.sh compares peak memory of two such runs.
# Every command runs BENCH_REPEAT times, on a private copy unless it only reads the store (see
# measure); BENCH_SKIP names measurements not to run. The table reports medians of wall
# time and of peak RSS (GNU time), and ratios against the reference commands of the same run.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
HARNESS="$ROOT/tests/reference/openclaw"
# shellcheck source=../tests/reference/openclaw/lib/common.sh
source "$HARNESS/lib/common.sh"
AGENTS="${BENCH_AGENTS:-main,work,research}"
SESSIONS="${BENCH_SESSIONS:-500}"
EVENTS="${BENCH_EVENTS:-40}"
REPEAT="${BENCH_REPEAT:-3}"
# Measurements on the store itself need no copy: they run at least 3 times.
SHARED_REPEAT=$(( REPEAT > 3 ? REPEAT : 3 ))
DIR="${BENCH_DIR:-$ROOT/target/bench}"
mkdir -p "$DIR"; DIR="$(realpath "$DIR")"
OURS="$ROOT/target/release/openclaw-sessions"
OUT="${BENCH_OUT:-$ROOT/BENCHMARKS.md}"
mkdir -p "$DIR"
log() { echo "[bench] $*" >&2; }

"$HARNESS/install.sh" >/dev/null
(cd "$ROOT" && cargo build --release --locked && cargo build --release --locked --example sqlite_reference) >&2
REF_SQLITE="$ROOT/target/release/examples/sqlite_reference"
if [[ -n "${BENCH_STORE:-}" ]]; then
  STORE="$(realpath "$BENCH_STORE")"
else
  STORE="$DIR/store"
  if [[ ! -f "$STORE/report/generator.json" ]]; then
    rm -rf "$STORE"
    log "generating a scale store: $AGENTS x $SESSIONS sessions x $EVENTS events (OpenClaw's own import is timed too)"
    "$HARNESS/make-store.sh" --out "$STORE" --scale --agents "$AGENTS" --sessions-per-agent "$SESSIONS" --events-per-session "$EVENTS" >&2
  fi
fi
FIRST="${AGENTS%%,*}"
SCRATCH="$(mktemp -d "$DIR/run.XXXXXX")"
trap 'chmod -R u+w "$SCRATCH" 2>/dev/null; rm -rf "$SCRATCH"' EXIT

fresh() { # a private copy of the store's $VARIANT (default: imported)
  local d="$SCRATCH/s.$RANDOM$RANDOM"; mkdir -p "$d"; cp -a "$STORE/${VARIANT:-imported}/.openclaw" "$d/"; echo "$d/.openclaw"
}
oc() { env OPENCLAW_STATE_DIR="$1" OPENCLAW_NO_RESPAWN=1 HOME="$SCRATCH/home" "$HARNESS/oc" "${@:2}"; }
# measure NAME CMD...: runs CMD (a shell string; $S is a fresh store copy, $W a fresh scratch dir)
# REPEAT times; records "seconds maxrss_kb" per run in $SCRATCH/NAME.
# SHARED=1: CMD only reads the store (ours, proven by the read-only tests, or sqlite3 with
# immutable=1), so it runs on the store itself rather than a copy (a copy of a scale store
# costs more than most commands). A copy is flushed to disk before the timed run, so no run
# pays for the writeback of its own copy. Names in BENCH_SKIP are not run; when BENCH_ONLY is
# set, only the names it lists run (a pair measured alone, side by side).
skipped() {
  [[ " ${BENCH_SKIP:-} " == *" $1 "* ]] || [[ -n "${BENCH_ONLY:-}" && " $BENCH_ONLY " != *" $1 "* ]]
}
runs() { if [[ "${SHARED:-0}" == 1 ]]; then echo "$SHARED_REPEAT"; else echo "$REPEAT"; fi; }
run_once() { # NAME CMD: one timed run, appended to $SCRATCH/NAME
  local name="$1" cmd="$2"
  if [[ "${SHARED:-0}" == 1 ]]; then S="$STORE/${VARIANT:-imported}/.openclaw"; else S="$(fresh)"; sync; fi
  W="$(mktemp -d "$SCRATCH/w.XXXXXX")"; export S W
  # PREP: a shell string run on the copy before the timed run (not timed).
  [[ -z "${PREP:-}" ]] || bash -c "$PREP" > /dev/null 2>&1 || log "$name: PREP failed"
  /usr/bin/time -f "%e %M" -o "$SCRATCH/t" bash -c "$cmd" > /dev/null 2> "$SCRATCH/err" ||
    { log "$name failed:"; tail -n 5 "$SCRATCH/err" >&2; echo "nan nan" > "$SCRATCH/t"; }
  cat "$SCRATCH/t" >> "$SCRATCH/$name"
  [[ "${SHARED:-0}" == 1 ]] || { chmod -R u+w "$S" 2>/dev/null; rm -rf "$(dirname "$S")"; }
  chmod -R u+w "$W" 2>/dev/null; rm -rf "$W"
}
logged() { log "$1: $(awk '{print $1"s/"$2"kB"}' "$SCRATCH/$1" | paste -sd' ')"; }
measure() {
  local name="$1" cmd="$2" i
  : > "$SCRATCH/$name"
  if skipped "$name"; then
    log "$name: skipped (BENCH_SKIP / BENCH_ONLY)"; echo "skipped skipped" > "$SCRATCH/$name"; return
  fi
  for i in $(seq 1 "$(runs)"); do run_once "$name" "$cmd"; done
  logged "$name"
}
# measure_pair NAME_A CMD_A NAME_B CMD_B: as measure for each, the runs alternating (A, B, A,
# B...), so that ours and its reference meet the same moments of a noisy machine.
measure_pair() {
  local i n
  for n in "$1" "$3"; do
    : > "$SCRATCH/$n"
    if skipped "$n"; then log "$n: skipped (BENCH_SKIP / BENCH_ONLY)"; echo "skipped skipped" > "$SCRATCH/$n"; fi
  done
  for i in $(seq 1 "$(runs)"); do
    skipped "$1" || run_once "$1" "$2"
    skipped "$3" || run_once "$3" "$4"
  done
  skipped "$1" || logged "$1"
  skipped "$3" || logged "$3"
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else print a[int((NR+1)/2)]}'; }
# "skipped" sorts as text and stays "skipped".
wall() { awk '{print $1}' "$SCRATCH/$1" | median; }
rss() { awk '{print $2}' "$SCRATCH/$1" | median; }
ratio() { awk -v a="$(wall "$1")" -v b="$(wall "$2")" 'BEGIN { if (a + 0 == a && b + 0 == b && b > 0) printf "%.3g", a / b; else print "n/a" }'; }

# Every tool reads from a warm page cache: the store is read once before the first timing.
cat "$STORE"/imported/.openclaw/agents/*/agent/openclaw-agent.sqlite > /dev/null

DBS_SQL='for f in "$S"/agents/*/agent/openclaw-agent.sqlite; do sqlite3 -json "file:$f?immutable=1" "SELECT * FROM session_nodes"; done'
SHARED=1 measure_pair list_ours "\"$OURS\" --state-dir \"\$S\" list --all-agents --json --limit all" \
  list_sqlite3 "$DBS_SQL"
# OpenClaw runs with one persistent HOME, warmed up first, as an installed OpenClaw would.
OC_HOME="$SCRATCH/home-openclaw"; mkdir -p "$OC_HOME"; export OC_HOME
S0="$(fresh)"; env OPENCLAW_STATE_DIR="$S0" OPENCLAW_NO_RESPAWN=1 HOME="$OC_HOME" "$HARNESS/oc" sessions --all-agents --json --limit all > /dev/null 2>&1 || true
measure list_openclaw "env OPENCLAW_STATE_DIR=\"\$S\" OPENCLAW_NO_RESPAWN=1 HOME=\"\$OC_HOME\" \"$HARNESS/oc\" sessions --all-agents --json --limit all"

DB1='"$S"/agents/'"$FIRST"'/agent/openclaw-agent.sqlite'
SHARED=1 measure backup_ours "\"$OURS\" --state-dir \"\$S\" backup create --agent $FIRST --repository \"\$W/repo\""
# The system sqlite3 may be too old for OpenClaw's CHECK constraints (octet_length): the
# reference is the same backup + VACUUM through the SQLite we bundle (examples/sqlite_reference.rs).
SHARED=1 measure backup_sqlite3 "\"$REF_SQLITE\" backup $DB1 \"\$W/copy.sqlite\""
measure backup_openclaw "mkdir -m 700 \"\$W/p\" && env OPENCLAW_STATE_DIR=\"\$S\" OPENCLAW_NO_RESPAWN=1 HOME=\"\$OC_HOME\" \"$HARNESS/oc\" backup sqlite create --agent $FIRST --repository \"\$W/p/repo\""

# `transcript cat` throughput needs one long session: a store of 2 sessions x BENCH_BIG_EVENTS
# events (gen-legacy.mjs), imported by our migrate legacy (the suite proves it writes OpenClaw's
# rows), then the largest session printed.
BIG_STORE="$DIR/big-${BENCH_BIG_EVENTS:-40000}"
if [[ ! -d "$BIG_STORE/.openclaw/agents/main/agent" ]]; then
  rm -rf "$BIG_STORE"; mkdir -p "$BIG_STORE"
  "$OPENCLAW_REF_NODE" "$HARNESS/lib/gen-legacy.mjs" --state "$BIG_STORE/.openclaw" --agents main \
    --sessions-per-agent 2 --events-per-session "${BENCH_BIG_EVENTS:-40000}" > /dev/null
  "$OURS" --state-dir "$BIG_STORE/.openclaw" migrate legacy --agent main --yes > /dev/null
fi
BIG="$(sqlite3 "file:$BIG_STORE/.openclaw/agents/main/agent/openclaw-agent.sqlite?immutable=1" \
  "SELECT n.session_key || ' ' || sum(e.event_utf8_bytes) FROM transcript_events e JOIN session_nodes n ON n.current_session_id = e.session_id GROUP BY e.session_id ORDER BY sum(e.event_utf8_bytes) DESC LIMIT 1")"
BIG_KEY="${BIG% *}"; BIG_BYTES="${BIG##* }"
measure cat_ours "\"$OURS\" --state-dir \"$BIG_STORE/.openclaw\" transcript cat '$BIG_KEY'"
ALL_BYTES="$(for f in "$STORE"/imported/.openclaw/agents/*/agent/openclaw-agent.sqlite; do sqlite3 "file:$f?immutable=1" "SELECT sum(event_utf8_bytes) FROM transcript_events"; done | paste -sd+ | bc)"
SHARED=1 measure cat_all_ours "for k in \$(\"$OURS\" --state-dir \"\$S\" list --agent $FIRST --json --limit all | python3 -c 'import json,sys; print(\"\\n\".join(r[\"sessionKey\"] for r in json.load(sys.stdin)[\"data\"]))'); do \"$OURS\" --state-dir \"\$S\" transcript cat \"\$k\"; done"

# transcript delta and catalog: the first page of the largest session (1,000 events, 1 MB;
# 50 text items from the newest 1,000 messages) against sqlite3 reading the same rows.
BIG_DB="file:$BIG_STORE/.openclaw/agents/main/agent/openclaw-agent.sqlite?immutable=1"
BIG_SID="$(sqlite3 "$BIG_DB" "SELECT current_session_id FROM session_nodes WHERE session_key = '$BIG_KEY'")"
SHARED=1 measure delta_ours "\"$OURS\" --state-dir \"$BIG_STORE/.openclaw\" transcript delta '$BIG_KEY' --json"
SHARED=1 measure delta_sqlite3 "sqlite3 -json '$BIG_DB' \"SELECT seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events WHERE session_id = '$BIG_SID' ORDER BY seq LIMIT 1000\""
SHARED=1 measure catalog_ours "\"$OURS\" --state-dir \"$BIG_STORE/.openclaw\" transcript catalog '$BIG_KEY' --json"
SHARED=1 measure catalog_sqlite3 "sqlite3 -json '$BIG_DB' \"SELECT seq, event_json, event_zstd FROM transcript_events WHERE session_id = '$BIG_SID' ORDER BY seq DESC LIMIT 1000\""

# The history and single-session commands (no reference; their rows are for the memory table):
# one session of the first agent (the newest), and the newest archive of that agent.
ONE_KEY="$(sqlite3 "file:$STORE/imported/.openclaw/agents/$FIRST/agent/openclaw-agent.sqlite?immutable=1" "SELECT session_key FROM session_nodes WHERE session_key NOT LIKE '%:main' ORDER BY updated_at DESC LIMIT 1")"
SHARED=1 measure show_ours "\"$OURS\" --state-dir \"\$S\" show '$ONE_KEY' --json"
SHARED=1 measure archives_list_ours "\"$OURS\" --state-dir \"\$S\" archives list --all-agents --json"
ONE_ARCHIVE="$("$OURS" --state-dir "$STORE/imported/.openclaw" archives list --agent "$FIRST" --json | python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print(max(d, key=lambda a: a.get("bytes") or 0)["name"] if d else "")')"
SHARED=1 measure archives_cat_ours "\"$OURS\" --state-dir \"\$S\" --agent $FIRST archives cat '$ONE_ARCHIVE'"
measure patch_ours "\"$OURS\" --state-dir \"\$S\" patch '$ONE_KEY' --set label=bench --yes"
measure delete_ours "\"$OURS\" --state-dir \"\$S\" delete '$ONE_KEY' --yes"
ONE_SID="$(sqlite3 "file:$STORE/imported/.openclaw/agents/$FIRST/agent/openclaw-agent.sqlite?immutable=1" "SELECT current_session_id FROM session_nodes WHERE session_key = '$ONE_KEY'")"
measure delete_undelete_ours "\"$OURS\" --state-dir \"\$S\" delete '$ONE_KEY' --yes && \"$OURS\" --state-dir \"\$S\" --agent $FIRST undelete '$ONE_SID' --yes"

SHARED=1 measure doctor_ours "\"$OURS\" --state-dir \"\$S\" doctor"
SHARED=1 measure doctor_quickcheck "\"$REF_SQLITE\" quick-check \"\$S\"/agents/*/agent/openclaw-agent.sqlite"
SHARED=1 measure prune_ours "\"$OURS\" --state-dir \"\$S\" prune --all-agents --dry-run --json"
measure prune_openclaw "env OPENCLAW_STATE_DIR=\"\$S\" OPENCLAW_NO_RESPAWN=1 HOME=\"\$OC_HOME\" \"$HARNESS/oc\" sessions cleanup --dry-run --all-agents --json"

# An applied prune against OpenClaw's applied cleanup (per agent, --store: offline it needs no
# Gateway), the same maintenance settings written into both copies first.
MAINT='python3 -c "import json,sys; p=sys.argv[1]; c=json.load(open(p)); c.setdefault(\"session\", {})[\"maintenance\"]={\"pruneAfter\": \"1h\", \"maxEntries\": 1000}; json.dump(c, open(p, \"w\"))" "$S/openclaw.json"'
measure_pair prune_enforce_ours "$MAINT && \"$OURS\" --state-dir \"\$S\" prune --all-agents --enforce --yes" \
  prune_enforce_openclaw "$MAINT && for a in ${AGENTS//,/ }; do env OPENCLAW_STATE_DIR=\"\$S\" OPENCLAW_NO_RESPAWN=1 HOME=\"\$OC_HOME\" \"$HARNESS/oc\" sessions cleanup --enforce --agent \$a --store \"\$S/agents/\$a/agent/openclaw-agent.sqlite\" --json || exit 1; done"
# reclaim against a plain VACUUM of the same file (the same bundled SQLite), 64 MiB freed first
# in both copies (untimed work is the same in both).
measure reclaim_ours "\"$REF_SQLITE\" free-pages $DB1 64 && \"$OURS\" --state-dir \"\$S\" reclaim --agent $FIRST"
measure reclaim_sqlite3 "\"$REF_SQLITE\" free-pages $DB1 64 && \"$REF_SQLITE\" vacuum $DB1"
# search: OpenClaw's FTS5 index through ours vs the same MATCH as a raw query (sqlite3,
# immutable), best 20 first; with --archived, every archive of the store is searched too
# (here the import archive: each imported transcript once more).
SEARCH_QUERY="${BENCH_SEARCH_QUERY:-summarize}"
SEARCH_SQL="for f in \"\$S\"/agents/*/agent/openclaw-agent.sqlite; do sqlite3 \"file:\$f?immutable=1\" \"SELECT session_id, message_id, snippet(session_transcript_fts, 0, '**', '**', ' … ', 48) FROM session_transcript_fts WHERE session_transcript_fts MATCH '$SEARCH_QUERY' ORDER BY bm25(session_transcript_fts) LIMIT 20\"; done"
SHARED=1 measure search_ours "\"$OURS\" --state-dir \"\$S\" --all-agents search '$SEARCH_QUERY' --limit 20 --json"
SHARED=1 measure search_sqlite3 "$SEARCH_SQL"
SHARED=1 measure search_archived_ours "\"$OURS\" --state-dir \"\$S\" --all-agents search '$SEARCH_QUERY' --archived --limit 20 --json"
# secrets scan: every row (zstd rows decoded), archive, import archive and snapshot of the state
# dir read once, the gitleaks rules and the host's values looked for (the generated store holds
# no secret: exit 0).
SHARED=1 measure secrets_scan_ours "\"$OURS\" --state-dir \"\$S\" secrets scan --json"
# secrets scrub: on a private copy, an AWS key shape put into every 50th plain transcript row of
# the first agent first (not timed; bench/seed-secret.sh), then scrubbed everywhere: the scan,
# the snapshot, each row rewritten, the projections of the sessions touched rebuilt, the index
# merged, the WAL truncated, the snapshot removed.
PREP="bash \"$ROOT/bench/seed-secret.sh\" \"\$S\" $FIRST" measure secrets_scrub_ours "\"$OURS\" --state-dir \"\$S\" secrets scrub --yes --json --rule aws-access-token --backup-dir \"\$W/safety\""

# The legacy variant of the same store, imported by both tools.
VARIANT=legacy measure_pair migrate_ours "\"$OURS\" --state-dir \"\$S\" migrate legacy --all-agents --yes" \
  migrate_openclaw "env OPENCLAW_STATE_DIR=\"\$S\" OPENCLAW_NO_RESPAWN=1 HOME=\"\$OC_HOME\" \"$HARNESS/oc\" doctor --session-sqlite import --session-sqlite-all-agents"

# The floor of an import: SQLite alone writing the same rows (the imported store's) into new
# databases with the same schema, every agent at once as the import runs them: one statement a
# table, and one row at a time in the import's order (examples/sqlite_reference.rs).
floor() { echo "pids=(); for f in \"\$S\"/agents/*/agent/openclaw-agent.sqlite; do a=\"\${f%/agent/*}\"; \"$REF_SQLITE\" $1 \"\$f\" \"\$W/\${a##*/}.sqlite\" & pids+=(\$!); done; for p in \"\${pids[@]}\"; do wait \$p || exit 1; done"; }
SHARED=1 measure migrate_floor_bulk "$(floor copy-rows)"
SHARED=1 measure migrate_floor_rows "$(floor copy-rows-by-event)"

EVENTS_TOTAL="$(for f in "$STORE"/imported/.openclaw/agents/*/agent/openclaw-agent.sqlite; do sqlite3 "file:$f?immutable=1" "SELECT count(*) FROM transcript_events"; done | paste -sd+ | bc)"
SESSIONS_TOTAL="$(for f in "$STORE"/imported/.openclaw/agents/*/agent/openclaw-agent.sqlite; do sqlite3 "file:$f?immutable=1" "SELECT count(*) FROM session_nodes"; done | paste -sd+ | bc)"
# Under 0.05 s the process start dominates: no throughput figure is claimed then.
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { if (s >= 0.05) printf "%.0f MB/s", b / 1048576 / s; else print "too small to measure" }'; }
{
  echo "# Benchmarks"
  echo
  echo "Generated by \`bench/run.sh\` on $(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -sm); OpenClaw $OPENCLAW_REF_OPENCLAW_VERSION."
  echo "Store: $(python3 -c 'import json,sys; g=json.load(open(sys.argv[1])); print("%d agents x %d sessions x %d events" % (len(g["agents"]), g["sessionsPerAgent"], g["eventsPerSession"]))' "$STORE/report/gen-legacy.json") = $SESSIONS_TOTAL sessions, $EVENTS_TOTAL events."
  echo "Medians of $SHARED_REPEAT runs for commands that only read the store, of $REPEAT for the others (each on a fresh copy); side by side in one run; ratios are ours / reference (lower is better)."
  echo
  echo "| benchmark | ours | reference | ratio | target | ours peak RSS | reference peak RSS |"
  echo "|---|---|---|---|---|---|---|"
  echo "| \`list --all-agents --json\` vs \`sqlite3 -json\` of the same rows | $(wall list_ours) s | $(wall list_sqlite3) s | $(ratio list_ours list_sqlite3) | ≤ 1.3 | $(rss list_ours) kB | $(rss list_sqlite3) kB |"
  echo "| \`list --all-agents --json\` vs \`openclaw sessions --all-agents --json\` | $(wall list_ours) s | $(wall list_openclaw) s | $(ratio list_ours list_openclaw) | | $(rss list_ours) kB | $(rss list_openclaw) kB |"
  echo "| \`backup create\` vs backup API + \`VACUUM\` (same SQLite) | $(wall backup_ours) s | $(wall backup_sqlite3) s | $(ratio backup_ours backup_sqlite3) | ≤ 1.5 | $(rss backup_ours) kB | $(rss backup_sqlite3) kB |"
  echo "| \`backup create\` vs \`openclaw backup sqlite create\` | $(wall backup_ours) s | $(wall backup_openclaw) s | $(ratio backup_ours backup_openclaw) | ≤ 0.2 | $(rss backup_ours) kB | $(rss backup_openclaw) kB |"
  echo "| \`doctor\` vs \`PRAGMA quick_check\` (same SQLite) | $(wall doctor_ours) s | $(wall doctor_quickcheck) s | $(ratio doctor_ours doctor_quickcheck) | | $(rss doctor_ours) kB | $(rss doctor_quickcheck) kB |"
  echo "| \`prune --dry-run\` vs \`openclaw sessions cleanup --dry-run\` | $(wall prune_ours) s | $(wall prune_openclaw) s | $(ratio prune_ours prune_openclaw) | | $(rss prune_ours) kB | $(rss prune_openclaw) kB |"
  echo "| \`transcript cat\` of the largest session ($BIG_BYTES bytes) | $(wall cat_ours) s ($(mbps "$BIG_BYTES" "$(wall cat_ours)")) | | | ≥ 300 MB/s | $(rss cat_ours) kB | |"
  echo "| \`transcript cat\` of every session of $FIRST, one process each | $(wall cat_all_ours) s | | | | $(rss cat_all_ours) kB | |"
  echo "| \`transcript delta\` first page of the largest session vs \`sqlite3 -json\` of the same rows | $(wall delta_ours) s | $(wall delta_sqlite3) s | $(ratio delta_ours delta_sqlite3) | ≤ 2 | $(rss delta_ours) kB | $(rss delta_sqlite3) kB |"
  echo "| \`transcript catalog\` first page of the largest session vs \`sqlite3 -json\` of its newest 1,000 rows | $(wall catalog_ours) s | $(wall catalog_sqlite3) s | $(ratio catalog_ours catalog_sqlite3) | ≤ 2 | $(rss catalog_ours) kB | $(rss catalog_sqlite3) kB |"
  echo "| \`show <key> --json\` | $(wall show_ours) s | | | | $(rss show_ours) kB | |"
  echo "| \`archives list --all-agents --json\` | $(wall archives_list_ours) s | | | | $(rss archives_list_ours) kB | |"
  echo "| \`archives cat\` of the largest archive of $FIRST | $(wall archives_cat_ours) s | | | | $(rss archives_cat_ours) kB | |"
  echo "| \`patch <key> --set label=bench --yes\` | $(wall patch_ours) s | | | | $(rss patch_ours) kB | |"
  echo "| \`delete <key> --yes\` | $(wall delete_ours) s | | | | $(rss delete_ours) kB | |"
  echo "| \`delete <key> --yes\`, then \`undelete\` of its archive | $(wall delete_undelete_ours) s | | | | $(rss delete_undelete_ours) kB | |"
  echo "| \`prune --enforce --yes\` vs \`openclaw sessions cleanup --enforce --store\` per agent | $(wall prune_enforce_ours) s | $(wall prune_enforce_openclaw) s | $(ratio prune_enforce_ours prune_enforce_openclaw) | ≤ 0.1 | $(rss prune_enforce_ours) kB | $(rss prune_enforce_openclaw) kB |"
  echo "| \`reclaim\` vs \`VACUUM\` + checkpoint (same SQLite; 64 MiB freed first in both) | $(wall reclaim_ours) s | $(wall reclaim_sqlite3) s | $(ratio reclaim_ours reclaim_sqlite3) | | $(rss reclaim_ours) kB | $(rss reclaim_sqlite3) kB |"
  echo "| \`search QUERY --all-agents\` vs the same FTS5 \`MATCH\` in \`sqlite3\` | $(wall search_ours) s | $(wall search_sqlite3) s | $(ratio search_ours search_sqlite3) | | $(rss search_ours) kB | $(rss search_sqlite3) kB |"
  echo "| \`search QUERY --all-agents --archived\` (live index and every archive) vs the live \`MATCH\` | $(wall search_archived_ours) s | $(wall search_sqlite3) s | $(ratio search_archived_ours search_sqlite3) | | $(rss search_archived_ours) kB | $(rss search_sqlite3) kB |"
  echo "| \`secrets scan --json\` (every row, archive and snapshot) | $(wall secrets_scan_ours) s | | | | $(rss secrets_scan_ours) kB | |"
  echo "| \`secrets scrub --rule aws-access-token --yes\` (a key in every 50th plain row of one agent) | $(wall secrets_scrub_ours) s | | | | $(rss secrets_scrub_ours) kB | |"
  echo "| \`migrate legacy\` vs \`openclaw doctor --session-sqlite import\` | $(wall migrate_ours) s | $(wall migrate_openclaw) s | $(ratio migrate_ours migrate_openclaw) | ≤ 0.04 | $(rss migrate_ours) kB | $(rss migrate_openclaw) kB |"
  echo "| \`migrate legacy\` vs SQLite alone writing the same rows, one statement a table | $(wall migrate_ours) s | $(wall migrate_floor_bulk) s | $(ratio migrate_ours migrate_floor_bulk) | | $(rss migrate_ours) kB | $(rss migrate_floor_bulk) kB |"
  echo "| \`migrate legacy\` vs SQLite alone writing the same rows, one at a time | $(wall migrate_ours) s | $(wall migrate_floor_rows) s | $(ratio migrate_ours migrate_floor_rows) | | $(rss migrate_ours) kB | $(rss migrate_floor_rows) kB |"
  echo
  echo "OpenClaw's own timings while making the store (\`report/timings.txt\`):"
  echo
  echo '```'
  cat "$STORE/report/timings.txt" 2>/dev/null || echo "(none)"
  echo '```'
} > "$OUT"
log "wrote $OUT"
cat "$OUT"
