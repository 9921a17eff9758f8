# Sourced by the side-by-side benchmarks (bench/schema.sh, bench/release-prune.sh); needs SCRATCH,
# OURS, HARNESS and a `log` function set by the caller.

# one NAME STORE CMD [PREP]: a timed run of CMD on a fresh copy ($S) of STORE, after PREP (untimed,
# on the same copy); "seconds maxrss_kb" appended to $SCRATCH/NAME. Both see $S, $HOME_DIR, $OURS,
# $HARNESS and whatever the caller exported.
one() {
  local name="$1" store="$2" cmd="$3" prep="${4:-}" d
  d="$(mktemp -d "$SCRATCH/s.XXXXXX")"; cp -a "$store" "$d/.openclaw"
  [[ -z "$prep" ]] || S="$d/.openclaw" bash -c "$prep"
  sync
  S="$d/.openclaw" HOME_DIR="$d/home" OURS="$OURS" HARNESS="$HARNESS" \
    /usr/bin/time -f "%e %M" -o "$SCRATCH/t" bash -c "$cmd" > "$SCRATCH/out" 2>&1 ||
    { log "$name failed:"; tail -n 5 "$SCRATCH/out" >&2; echo "nan nan" > "$SCRATCH/t"; }
  cat "$SCRATCH/t" >> "$SCRATCH/$name"
  rm -rf "$d"
}

median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
