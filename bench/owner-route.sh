#!/usr/bin/env bash
# Benchmark of the owner route (docs/openclaw/RELEASES.md §8): `patch` and `delete` written by the
# installed OpenClaw package's own code (`--openclaw PKG`: its plugin SDK, run by node) beside the
# same change by this tool's own writer, on fresh copies of one store, at two sizes 10x apart:
# time and peak memory.
#
#   bash bench/owner-route.sh          # prints the table rows (markdown) for BENCHMARKS.md
#
# Environment: OWNER_BENCH_SIZES ("100 1000" sessions per agent, 3 agents), OWNER_BENCH_EVENTS
# (10 per session), OWNER_BENCH_REPEAT (3), OWNER_BENCH_DIR (target/bench-owner: the stores
# bench/make-store.sh generates are reused), OWNER_BENCH_OURS=BINARY times that build instead of
# building the release binary. The package is the reference OpenClaw (2026.9.6, the release that
# owns these stores), run by the reference Node 24 (tests/reference/openclaw/install.sh).
# Peak memory is /usr/bin/time's: the largest process of the run, so on the owner route it is
# node's (the package's code), not ours plus node's.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
HARNESS="$ROOT/tests/reference/openclaw"
# shellcheck source=../tests/reference/openclaw/lib/common.sh
source "$HARNESS/lib/common.sh"
SIZES="${OWNER_BENCH_SIZES:-100 1000}"
EVENTS="${OWNER_BENCH_EVENTS:-10}"
REPEAT="${OWNER_BENCH_REPEAT:-3}"
DIR="${OWNER_BENCH_DIR:-$ROOT/target/bench-owner}"
mkdir -p "$DIR"; DIR="$(realpath "$DIR")"
OURS="${OWNER_BENCH_OURS:-$ROOT/target/release/openclaw-sessions}"
log() { echo "[bench-owner-route] $*" >&2; }

"$HARNESS/install.sh" >/dev/null
[[ -n "${OWNER_BENCH_OURS:-}" ]] || (cd "$ROOT" && cargo build --release --locked) >&2
PKG="$OPENCLAW_REF_DIR/app/node_modules/openclaw"
NODE_DIR="$(dirname "$OPENCLAW_REF_NODE")"
SCRATCH="$(mktemp -d "$DIR/run.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

# shellcheck source=timed.sh
source "$ROOT/bench/timed.sh"
export PKG NODE_DIR

echo "| store (2026.9.6, 3 agents) | change | ours | through OpenClaw's own code (\`--openclaw\`) | ratio | ours peak RSS | owner route peak RSS |"
echo "|---|---|---|---|---|---|---|"
for spa in $SIZES; do
  store_dir="$DIR/store-$spa-$EVENTS"
  if [[ ! -f "$store_dir/report/generator.json" ]]; then
    log "generating a store: 3 x $spa sessions x $EVENTS events"
    MAKE_STORE_OURS="$OURS" bash "$ROOT/bench/make-store.sh" --out "$store_dir" --sessions-per-agent "$spa" --events-per-session "$EVENTS" >&2
  fi
  store="$store_dir/imported/.openclaw"
  # One session of agent main that is not its main session: the same key on every copy.
  KEY="$("$OURS" --state-dir "$store" --agent main list --json --limit 50 |
    node -e 'const j=JSON.parse(require("fs").readFileSync(0,"utf8")); const s=j.data.find(s=>s.sessionKey!=="agent:main:main"); process.stdout.write(s.sessionKey)')"
  export KEY
  for change in patch delete; do
    case "$change" in
      patch) args='patch "$KEY" --agent main --set "label=\"bench\"" --yes' ;;
      delete) args='delete "$KEY" --agent main --yes' ;;
    esac
    : > "$SCRATCH/ours-$spa-$change"; : > "$SCRATCH/owner-$spa-$change"
    for _ in $(seq "$REPEAT"); do
      # Alternately, so that a noisy moment of the machine hits both sides alike.
      one "ours-$spa-$change" "$store" "HOME=\"\$HOME_DIR\" \"\$OURS\" --state-dir \"\$S\" $args"
      one "owner-$spa-$change" "$store" "HOME=\"\$HOME_DIR\" PATH=\"\$NODE_DIR:\$PATH\" \"\$OURS\" --state-dir \"\$S\" $args --openclaw \"\$PKG\""
    done
    ot="$(cut -d' ' -f1 "$SCRATCH/ours-$spa-$change" | median)"; om="$(cut -d' ' -f2 "$SCRATCH/ours-$spa-$change" | median)"
    wt="$(cut -d' ' -f1 "$SCRATCH/owner-$spa-$change" | median)"; wm="$(cut -d' ' -f2 "$SCRATCH/owner-$spa-$change" | median)"
    echo "| 3 x $spa sessions, $(( 3 * spa * EVENTS )) events (runs: ours $(cut -d' ' -f1 "$SCRATCH/ours-$spa-$change" | tr '\n' ' ')s; owner $(cut -d' ' -f1 "$SCRATCH/owner-$spa-$change" | tr '\n' ' ')s) | \`$change\` | ${ot} s | ${wt} s | $(awk -v a="$ot" -v b="$wt" 'BEGIN{printf "%.3f", a/b}') | $(( om / 1024 )) MB | $(( wm / 1024 )) MB |"
  done
done
