#!/usr/bin/env bash
# Differential test suite: openclaw-sessions against the real OpenClaw 2026.9.6 (README.md here).
#
#   bash tests/reference/run.sh [CHECK...]      run all checks, or only the named ones
#   bash tests/reference/run.sh --list          list the checks
#
# Steps: install OpenClaw (openclaw/install.sh; when the registries cannot be reached: prints
# "SKIP: OpenClaw reference could not be installed (...)" and exits 0), locate or build our binary,
# generate a fresh store with openclaw/make-store.sh (~1.5 min), run every check on private copies.
# Last line: "N passed, N failed[, N skipped]"; exit 1 if any check failed.
#
# Environment:
#   OPENCLAW_SESSIONS_BIN   our binary (default <repo>/target/release/openclaw-sessions, built with
#                           `cargo build --release --locked --features test-hooks` when missing
#                           or older than src/; it must have the test hooks: the prune checks fix
#                           its clock)
#   OPENCLAW_SESSIONS_GATEWAY_RPC  our one-call Gateway client (default <repo>/target/release/examples/gateway_rpc,
#                           built like the binary; checks-gateway.sh)
#   OPENCLAW_REF_STORE      reuse an existing make-store.sh output dir instead of generating one
#   OPENCLAW_REF_SEED       seed for make-store.sh (default 7)
#   OPENCLAW_REF_DIR        OpenClaw install cache (default ${XDG_CACHE_HOME:-$HOME/.cache}/openclaw-ref)
#   REFERENCE_KEEP=1        keep the scratch dir (stores, outputs, logs of every check)
#   REFERENCE_VERBOSE=1     print every check's log, not only failing ones
#   REFERENCE_CMD_TIMEOUT   seconds per tool invocation (default 300)
set -euo pipefail
shopt -s inherit_errexit
# shellcheck source=lib.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"

# ============================================================================================
# Checks. Each check_<name> runs in its own subshell with `set -euo pipefail`, cwd = a scratch
# dir ($CHECK_DIR). Helpers (lib.sh): copy_store, ours / ours_run, oc / oc_run, oc_sdk,
# node_check, jsonq, tree_manifest, openclaw_accepts, check_error, check_skip, note.
# ============================================================================================

# list: the (agentId, sessionKey, sessionId, updatedAt) set equals OpenClaw's,
# on the imported store and on the live store (after SDK writes: v4 headers, zstd rows, a deletion).
check_list() {
  local variant s rc
  for variant in imported live; do
    s="$(copy_store "$variant" "$variant-openclaw")"
    rc=0; oc_run "oc-$variant.json" "$s" sessions --all-agents --json --limit all || rc=$?
    [[ $rc -eq 0 ]] || { check_error "$variant: openclaw sessions exited $rc"; continue; }
    s="$(copy_store "$variant" "$variant-ours")"
    rc=0; ours_run "ours-$variant.json" "$s" list --all-agents --json --limit all || rc=$?
    [[ $rc -eq 0 ]] || check_error "$variant: openclaw-sessions list exited $rc"
    if node_check list-compare.mjs "oc-$variant.json" "ours-$variant.json" > "cmp-$variant.txt" 2>&1; then
      note "$variant: $(tail -n 1 "cmp-$variant.txt" | cut -d' ' -f1-2)"
    else
      cat "cmp-$variant.txt" >&2
      check_error "$variant: lists differ (${variant} store)"
    fi
  done
}
CHECKS+=(list)

# list_agent: agent selection as OpenClaw does it (openclaw/FORMAT.md §a): no flag = the default agent
# (`main`), and `--agent ID`; same tuple sets as `openclaw sessions [--agent ID] --json --limit all`.
check_list_agent() {
  local sel name s rc
  for sel in "" "--agent work"; do
    name="${sel:+agent-${sel#--agent }}"; name="${name:-default}"
    # shellcheck disable=SC2086
    { s="$(copy_store live "$name-openclaw")"; rc=0; oc_run "oc-$name.json" "$s" sessions $sel --json --limit all || rc=$?; }
    [[ $rc -eq 0 ]] || { check_error "$name: openclaw sessions $sel exited $rc"; continue; }
    # shellcheck disable=SC2086
    { s="$(copy_store live "$name-ours")"; rc=0; ours_run "ours-$name.json" "$s" list $sel --json --limit all || rc=$?; }
    [[ $rc -eq 0 ]] || check_error "$name: openclaw-sessions list $sel exited $rc"
    if node_check list-compare.mjs "oc-$name.json" "ours-$name.json" > "cmp-$name.txt" 2>&1; then
      note "$name: $(tail -n 1 "cmp-$name.txt" | cut -d' ' -f1-2)"
    else
      cat "cmp-$name.txt" >&2; check_error "$name: lists differ"
    fi
  done
}
CHECKS+=(list_agent)

# resolve: a session given in words names the session OpenClaw resolves for the same words
# (docs/openclaw/SESSION-KEYS.md): `main` (the owner's main key), a bare key of the owner agent as
# stored and upper-cased (qualified with the owner, lower-cased), and a session id of another agent.
# OpenClaw's side is checks/resolve-words.mjs (resolveSessionStoreIdentity, getSessionEntry,
# resolveExistingSessionKeyForRequest); ours is `show WORDS --json` (.data.agentId/.sessionKey)
# with no agent selected, which resolves through store::resolve.
check_resolve() {
  local s rc n=0 words agent key got
  s="$(copy_store live resolve-openclaw)"
  rc=0; oc_sdk "$s" resolve-words.mjs > oc.tsv 2> oc.err || rc=$?
  [[ $rc -eq 0 ]] || { tail -n 20 oc.err >&2; check_error "resolve-words.mjs exited $rc"; return 0; }
  s="$(copy_store live resolve-ours)"
  while IFS=$'\t' read -r words agent key; do
    n=$((n + 1))
    rc=0; ours_run "ours-$n.json" "$s" show "$words" --json || rc=$?
    if [[ $rc -ne 0 ]]; then check_error "show \"$words\" exited $rc (OpenClaw: agent $agent, $key)"; continue; fi
    got="$(jsonq "ours-$n.json" '`agent ${j.data.agentId}, ${j.data.sessionKey}`')"
    if [[ "$got" == "agent $agent, $key" ]]; then note "\"$words\" -> agent $agent, $key"
    else check_error "\"$words\": ours $got, OpenClaw agent $agent, $key"; fi
  done < oc.tsv
  [[ $n -ge 3 ]] || check_error "resolve-words.mjs gave $n cases, expected at least 3"
}
CHECKS+=(resolve)

# list_legacy: on a legacy-only store OpenClaw lists 0 SQLite rows; ours may list the legacy
# entries (reads work where the data is there). The set comparison is only required for
# SQLite stores, so this records both counts and requires only that ours succeeds with valid JSON
# (and records whether ours' legacy rows equal OpenClaw's list of the same store after import).
check_list_legacy() {
  local s rc
  s="$(copy_store legacy legacy-openclaw)"
  rc=0; oc_run oc.json "$s" sessions --all-agents --json --limit all || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw sessions exited $rc on the legacy store"
  s="$(copy_store legacy legacy-ours)"
  rc=0; ours_run ours.json "$s" list --all-agents --json --limit all || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw-sessions list exited $rc on the legacy store"
  if node_check list-compare.mjs oc.json ours.json --counts-only > cmp.txt 2>&1; then
    note "legacy: $(tail -n 1 cmp.txt | cut -d' ' -f1-2)"
  else
    cat cmp.txt >&2; check_error "invalid list output on the legacy store"; return 0
  fi
  # Informational: when ours lists legacy entries, do they match what OpenClaw lists once it has
  # imported this store (the imported variant)? Recorded, not required.
  if [[ "$(jsonq ours.json 'j.data.length')" != 0 ]]; then
    s="$(copy_store imported imported-openclaw)"
    if oc_run oc-imported.json "$s" sessions --all-agents --json --limit all &&
       node_check list-compare.mjs oc-imported.json ours.json > cmp-imported.txt 2>&1; then
      note "ours on legacy = openclaw after import"
    else
      cat cmp-imported.txt >&2 2>/dev/null || true
      note "ours on legacy differs from openclaw after import (informational, see log)"
    fi
  fi
}
CHECKS+=(list_legacy)

# readonly: our read-only commands leave every byte of the state dir as it was, -wal/-shm
# included, and create nothing. Stores: live, legacy, and live after OpenClaw itself
# read it (OpenClaw leaves -wal/-shm sidecars and a touched state DB: a WAL reader must not
# write to an existing -shm either).
READONLY_COMMANDS=(
  "status"
  "list --all-agents --json"
  "du --all-agents"
)
check_readonly() {
  local variant s cmd rc i=0 n=0
  for variant in live legacy live-sidecars; do
    if [[ "$variant" == live-sidecars ]]; then
      s="$(copy_store live "$variant")"
      oc_run oc-prime.json "$s" sessions --all-agents --json --limit all >/dev/null ||
        { check_error "openclaw sessions failed while preparing $variant"; continue; }
      [[ -n "$(find "$s" -name '*-shm' -print -quit)" ]] || note "no -shm after OpenClaw read the store"
    else
      s="$(copy_store "$variant" "$variant")"
    fi
    tree_manifest "$s" > "before-$variant.txt"
    for cmd in "${READONLY_COMMANDS[@]}"; do
      i=$((i + 1))
      # shellcheck disable=SC2086
      rc=0; ours_run "out-$i.txt" "$s" $cmd || rc=$?
      [[ $rc -eq 0 ]] || check_error "$variant: 'openclaw-sessions $cmd' exited $rc"
      tree_manifest "$s" > "after-$i.txt"
      if ! diff -u "before-$variant.txt" "after-$i.txt" > "diff-$i.txt"; then
        check_error "$variant: 'openclaw-sessions $cmd' changed the state dir:"
        grep -E '^[-+][^-+]' "diff-$i.txt" | head -n 20 >&2
        cp "after-$i.txt" "before-$variant.txt"   # judge the next command on its own
      fi
    done
    n=$((n + $(wc -l < "before-$variant.txt")))
  done
  note "${#READONLY_COMMANDS[@]} commands x 3 stores, $n paths hashed"
}
CHECKS+=(readonly)

# accepts_baseline: the acceptance helper (lib.sh openclaw_accepts) passes on OpenClaw's own
# live store, so a later failure after one of our mutations is ours, not the harness's.
check_accepts_baseline() {
  local s; s="$(copy_store live)"
  openclaw_accepts "$s" live
  note "$(jsonq accepts-live/sdk-readback.json 'Object.values(j.agents).reduce((n,r)=>n+r.sessions,0)') sessions read back"
}
CHECKS+=(accepts_baseline)

# Checks of the mutating commands and of custody.
# shellcheck source=checks-mutations.sh
source "$REF_ROOT/checks-mutations.sh"
# shellcheck source=checks-migrate.sh
source "$REF_ROOT/checks-migrate.sh"
# shellcheck source=checks-history.sh
source "$REF_ROOT/checks-history.sh"
# shellcheck source=checks-maintenance.sh
source "$REF_ROOT/checks-maintenance.sh"
# shellcheck source=checks-hostile.sh
source "$REF_ROOT/checks-hostile.sh"
# shellcheck source=checks-releases.sh
source "$REF_ROOT/checks-releases.sh"
# shellcheck source=checks-release-writes.sh
source "$REF_ROOT/checks-release-writes.sh"
# shellcheck source=checks-gateway.sh
source "$REF_ROOT/checks-gateway.sh"
# shellcheck source=checks-secrets.sh
source "$REF_ROOT/checks-secrets.sh"

# ============================================================================================
main() {
  local only=() c
  for c in "$@"; do
    case "$c" in
      --list) printf '%s\n' "${CHECKS[@]}"; exit 0 ;;
      -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
      -*) echo "run.sh: unknown option $c" >&2; exit 2 ;;
      *) declare -F "check_$c" >/dev/null || { echo "run.sh: unknown check $c (see --list)" >&2; exit 2; }
         only+=("$c") ;;
    esac
  done
  [[ ${#only[@]} -eq 0 ]] || CHECKS=("${only[@]}")

  local t0; t0=$(date +%s)
  ref_setup_work
  ref_install
  ref_locate_binary
  ref_store
  for c in "${CHECKS[@]}"; do run_check "$c"; done
  log "done in $(( $(date +%s) - t0 ))s"
  [[ "${REFERENCE_KEEP:-0}" == 1 ]] && log "keeping scratch dir: $WORK"
  print_summary
  [[ "$FAIL_COUNT" -eq 0 ]]
}
main "$@"
