#!/usr/bin/env bash
# `backup prune --keep 1` against its floor (`rm -rf` of the same snapshot directories), at two
# repository sizes 10x apart, with peak RSS of each.
#
#   bash bench/backup-prune.sh [SMALL] [LARGE]      (snapshots of one agent; default 20 200)
#
# Each size: a copy of the committed live fixture, SMALL (or LARGE) snapshots of agent main made
# with `backup create`, then the repository copied twice: ours prunes one copy, the floor removes
# the same directories (all but the newest) from the other, ours first; one run each (the
# figures are for growth and memory, not a close race: both are dominated by unlink).
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

echo "| snapshots | \`backup prune --keep 1\` | \`rm -rf\` of the same | ratio | peak RSS ours | peak RSS rm |"
echo "|---|---|---|---|---|---|"
for n in "${1:-20}" "${2:-200}"; do
  rm -rf "$W/repo"
  for _ in $(seq "$n"); do
    "$OURS" --state-dir "$W/state" backup create --agent main --repository "$W/repo" > /dev/null 2>&1
  done
  newest="$(ls -1 "$W/repo" | sort | tail -n 1)"
  cp -a "$W/repo" "$W/ours"; cp -a "$W/repo" "$W/floor"
  old=(); for d in "$W/floor"/*; do [[ "$(basename "$d")" == "$newest" ]] || old+=("$d"); done
  peak "$W/t-ours" "$OURS" --state-dir "$W/state" backup prune --keep 1 --yes --repository "$W/ours"
  peak "$W/t-floor" rm -rf "${old[@]}"
  left="$(ls -1 "$W/ours" | wc -l)"
  [[ "$left" == 1 ]] || { echo "ours left $left snapshots, not 1" >&2; exit 1; }
  read -r to ro < "$W/t-ours"; read -r tf rf < "$W/t-floor"
  echo "| $n | $to s | $tf s | $(python3 -c "print(f'{$to/max($tf,0.01):.1f}')") | $ro kB | $rf kB |"
  rm -rf "$W/ours" "$W/floor"
done
