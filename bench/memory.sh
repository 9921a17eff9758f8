#!/usr/bin/env bash
# Peak memory of our commands at two store sizes (bounded, not growing with the store).
#
#   bash bench/memory.sh SMALL.md LARGE.md
#
# Both arguments are BENCHMARKS.md files written by bench/run.sh (BENCH_OUT) on stores of
# different sizes; prints a Markdown table of our peak RSS per benchmark at each size.
set -euo pipefail
python3 - "$1" "$2" <<'EOF'
import re, sys

def read(path):
    text = open(path).read()
    store = re.search(r"^Store: .*= (\d+) sessions, (\d+) events", text, re.M)
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[5].endswith("kB") and cells[5].split()[0].isdigit():
            name = re.sub(r" \(.*\)$", "", cells[0].split(" vs ")[0])
            rows.setdefault(name, int(cells[5].split()[0]))
    return (int(store.group(1)), int(store.group(2))), rows

(small_n, small), (large_n, large) = read(sys.argv[1]), read(sys.argv[2])
print(f"| command | peak RSS, {small_n[0]} sessions / {small_n[1]} events "
      f"| peak RSS, {large_n[0]} sessions / {large_n[1]} events | growth |")
print("|---|---|---|---|")
for name, kb in large.items():
    if name in small:
        print(f"| {name} | {small[name]} kB | {kb} kB | {kb / small[name]:.2f}x |")
EOF
