# Gateway checks (sourced by run.sh): our Gateway client (src/gateway/) against OpenClaw's real
# Gateway, started on a copy of the generated store (docs/openclaw/GATEWAY.md).

# Resolved where run.sh was started (each check runs in its own scratch dir).
[[ -z "${OPENCLAW_SESSIONS_GATEWAY_RPC:-}" ]] || OPENCLAW_SESSIONS_GATEWAY_RPC="$(realpath -m -- "$OPENCLAW_SESSIONS_GATEWAY_RPC")"

# gateway_rpc_bin : prints our one-call Gateway client (examples/gateway_rpc.rs):
# $OPENCLAW_SESSIONS_GATEWAY_RPC, else <target>/release/examples/gateway_rpc, built (with the
# binary's features, so the release library is shared) when missing or older than the sources.
gateway_rpc_bin() {
  if [[ -n "${OPENCLAW_SESSIONS_GATEWAY_RPC:-}" ]]; then
    realpath -m -- "$OPENCLAW_SESSIONS_GATEWAY_RPC"; return 0
  fi
  local target="${CARGO_TARGET_DIR:-$REPO_ROOT/target}" bin
  [[ "$target" == /* ]] || target="$REPO_ROOT/$target"
  bin="$target/release/examples/gateway_rpc"
  if [[ ! -x "$bin" ]] || [[ -n "$(cd "$REPO_ROOT" && find src examples/gateway_rpc.rs Cargo.toml Cargo.lock -newer "$bin" -print -quit 2>/dev/null)" ]]; then
    echo "building $bin" >&2
    (cd "$REPO_ROOT" && cargo build --release --locked --features test-hooks --example gateway_rpc) >&2 || return 1
  fi
  echo "$bin"
}

# gateway_start STATE [RELEASE] : starts `openclaw gateway run` (of RELEASE, else the installed
# 2026.9.6) on STATE (token auth from its config) on a free loopback port, in its own session so
# the whole process tree can be stopped; sets GW_PID and GW_PORT once its lock file names the
# port. Skips the check if it never does.
gateway_start() {
  local s="$1" i lock="$1/tmp/openclaw-$(id -u)/gateway.state.lock" cli=("$HARNESS/oc")
  [[ -z "${2:-}" ]] || cli=("$HARNESS/oc-release" "$2")
  GW_PORT="$(free_port)"
  setsid "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" OPENCLAW_STATE_DIR="$s" \
    OPENCLAW_NO_RESPAWN=1 "${cli[@]}" gateway run --bind loopback --port "$GW_PORT" --allow-unconfigured \
    > gw.out 2> gw.err < /dev/null & GW_PID=$!
  for i in $(seq 1 600); do
    grep -q "\"port\": $GW_PORT" "$lock" 2>/dev/null && return 0
    sleep 0.1
  done
  kill -9 -- "-$GW_PID" 2>/dev/null || true
  check_skip "openclaw gateway did not come up here: $(tail -n 3 gw.err | tr '\n' ' ')"
}

gateway_stop() {
  kill -TERM -- "-$GW_PID" 2>/dev/null || true
  local i
  for i in $(seq 1 100); do kill -0 "$GW_PID" 2>/dev/null || break; sleep 0.1; done
  kill -9 -- "-$GW_PID" 2>/dev/null || true
  wait "$GW_PID" 2>/dev/null || true
}

# ours_rpc OUT STATE METHOD [PARAMS] : one call through our client; stdout to OUT, stderr to OUT.err.
ours_rpc() {
  local out="$1" rc=0; shift
  echo "+ gateway_rpc $*" >&2
  "${NEUTRAL_ENV[@]}" HOME="$WORK/home-ours" GATEWAY_RPC_WAIT_SECS=120 ${RPC_CONFIG:+"OPENCLAW_CONFIG_PATH=$RPC_CONFIG"} \
    timeout -k 10 "$CMD_TIMEOUT" "$RPC" "$@" > "$out" 2> "$out.err" < /dev/null || rc=$?
  [[ -s "$out.err" ]] && sed 's/^/  gateway_rpc stderr: /' "$out.err" | head -n 20 >&2
  return "$rc"
}

# gateway_client_reaches_openclaw: our client finds the live Gateway of a state dir by its lock
# file, connects with the config's token (waiting out the start-up), lists sessions and patches
# a label; OpenClaw's own `gateway call sessions.list` shows the new label while the Gateway
# runs and `openclaw sessions` after it stopped. A wrong token is refused naming where it came
# from, never printing it.
check_gateway_client_reaches_openclaw() {
  local s key=agent:main:pinned-notes label="Renamed through the Gateway" sid rc
  RPC="$(gateway_rpc_bin)" || { check_error "cannot build examples/gateway_rpc"; return 0; }
  s="$(copy_store live)"
  # Token auth, and OpenClaw's own maintenance only warns, so nothing else changes the rows.
  "$OPENCLAW_REF_NODE" -e '
    const fs = require("fs"); const p = process.argv[1]; const c = JSON.parse(fs.readFileSync(p, "utf8"));
    c.gateway = { ...(c.gateway ?? {}), auth: { mode: "token", token: "reference-gateway-token-39" } };
    c.session = { ...(c.session ?? {}), maintenance: { ...(c.session?.maintenance ?? {}), mode: "warn" } };
    fs.writeFileSync(p, JSON.stringify(c, null, 2));
    c.gateway.auth.token = "not-the-token"; fs.writeFileSync(process.argv[2], JSON.stringify(c, null, 2));' \
    "$s/openclaw.json" "$CHECK_DIR/wrong-token.json"
  gateway_start "$s"
  # Started: the lock names the port before the Gateway listens; our client waits out the
  # refused connections and the UNAVAILABLE answers of its start-up.
  if ours_rpc list.json "$s" sessions.list '{"agentId":"main","limit":200}'; then
    [[ "$(jsonq list.json 'j.url')" == "ws://127.0.0.1:$GW_PORT" ]] || check_error "connected to $(jsonq list.json 'j.url'), not the lock file's port $GW_PORT"
    [[ "$(jsonq list.json 'j.serverVersion')" == 2026.9.6 ]] || check_error "server version $(jsonq list.json 'j.serverVersion')"
    [[ "$(jsonq list.json 'j.scopes.includes("operator.write") && j.scopes.includes("operator.admin")')" == true ]] ||
      check_error "scopes not granted: $(jsonq list.json 'j.scopes')"
    sid="$(jsonq list.json "j.result.sessions.find(s => s.key === '$key')?.sessionId ?? ''")"
    [[ -n "$sid" ]] || check_error "$key not in our client's sessions.list"
    note "sessions.list through our client: $(jsonq list.json 'j.result.sessions.length') sessions of main"
  else
    check_error "sessions.list through our client failed: $(tail -n 2 list.json.err)"
  fi
  if [[ -n "${sid:-}" ]]; then
    ours_rpc patch.json "$s" sessions.patch "{\"key\":\"$key\",\"label\":\"$label\",\"expectedSessionId\":\"$sid\"}" ||
      check_error "sessions.patch through our client failed: $(tail -n 2 patch.json.err)"
    rc=0; oc_run oc-list.json "$s" gateway call sessions.list --port "$GW_PORT" --json --params '{"agentId":"main","limit":200}' || rc=$?
    [[ $rc -eq 0 ]] || check_error "openclaw gateway call sessions.list exited $rc"
    [[ "$(jsonq oc-list.json "j.sessions.find(s => s.key === '$key')?.label ?? null")" == "$label" ]] ||
      check_error "the running Gateway does not show the new label: $(jsonq oc-list.json "j.sessions.find(s => s.key === '$key')?.label ?? null")"
    # A stale expectation is refused by the Gateway, and nothing changes.
    rc=0; ours_rpc stale.json "$s" sessions.patch "{\"key\":\"$key\",\"label\":\"Stale\",\"expectedSessionId\":\"not-$sid\"}" || rc=$?
    [[ $rc -ne 0 ]] && grep -q 'changed before patch' stale.json.err || check_error "a stale expectedSessionId was not refused (exit $rc)"
  fi
  rc=0; RPC_CONFIG="$CHECK_DIR/wrong-token.json" ours_rpc wrong.json "$s" sessions.list || rc=$?
  [[ $rc -ne 0 ]] || check_error "a wrong token was accepted"
  grep -q 'refused the token from gateway.auth.token in .*wrong-token.json' wrong.json.err || check_error "the refusal does not name the token's source: $(cat wrong.json.err)"
  ! grep -q 'not-the-token' wrong.json.err || check_error "the refusal printed the token"
  gateway_stop
  rc=0; oc_run after.json "$s" sessions --json --limit all || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw sessions after the Gateway stopped exited $rc"
  [[ "$(jsonq after.json "j.sessions.find(s => s.key === '$key')?.label ?? null")" == "$label" ]] ||
    check_error "the label is not in the store after the Gateway stopped"
  if [[ $CHECK_ERRORS -eq 0 ]]; then
    note "label patched through the Gateway, seen by its own sessions.list and in the store after it stopped; wrong token refused by name"
  fi
}
CHECKS+=(gateway_client_reaches_openclaw)

# gateway_token_config STATE : token auth ("reference-gateway-token-39") in STATE's config, and
# OpenClaw's own maintenance set to warn so that nothing but the check changes the rows.
gateway_token_config() {
  "$OPENCLAW_REF_NODE" -e '
    const fs = require("fs"); const p = process.argv[1]; const c = JSON.parse(fs.readFileSync(p, "utf8"));
    c.gateway = { ...(c.gateway ?? {}), auth: { mode: "token", token: "reference-gateway-token-39" } };
    c.session = { ...(c.session ?? {}), maintenance: { ...(c.session?.maintenance ?? {}), mode: "warn" } };
    fs.writeFileSync(p, JSON.stringify(c, null, 2));' "$1/openclaw.json"
}

# gateway_list OUT STATE AGENT [RELEASE] : the live Gateway's own `sessions.list` of AGENT
# (archived ones too), through the CLI of RELEASE (else the installed 2026.9.6).
gateway_list() {
  local out="$1" s="$2" agent="$3" ver="${4:-}"
  local params="{\"agentId\":\"$agent\",\"limit\":1000,\"archived\":\"all\"}"
  if [[ -n "$ver" ]]; then
    ocr_run "$out" "$ver" "$s" gateway call sessions.list --port "$GW_PORT" --json --params "$params"
  else
    oc_run "$out" "$s" gateway call sessions.list --port "$GW_PORT" --json --params "$params"
  fi
}

# The README's cron line (Pruning from cron), after --state-dir; keep it equal to the README's.
CRON_PRUNE=(prune --all-agents --enforce --yes --wait 600)

# gateway_cron_prune RELEASE STATE : with RELEASE's Gateway live on STATE (gateway_start), the
# README's cron line, unchanged, prunes through it: exit 0, and every session our plan (a dry
# run just before) deletes is gone from the Gateway's own list and every one it archives is
# listed archived; a second run exits 0 and prints nothing on either stream. Sets CRON_PRUNED
# (what was pruned, in words).
gateway_cron_prune() {
  local ver="$1" s="$2" rc agent gone=0 archived=0
  grep -q -- "${CRON_PRUNE[*]}" "$REPO_ROOT/README.md" || check_error "the README's cron line is not '${CRON_PRUNE[*]}' any more"
  ours_run cron-plan.json "$s" prune --all-agents --enforce --dry-run --json || check_error "$ver prune --dry-run while live"
  rc=0; ours_run cron-1.txt "$s" "${CRON_PRUNE[@]}" || rc=$?
  [[ $rc -eq 0 ]] || check_error "${ver:-2026.9.6}: the cron line on a live host exited $rc: $(head -c 300 cron-1.txt.err)"
  grep -q "ran through the live Gateway (OpenClaw ${ver:-2026.9.6}" cron-1.txt || check_error "${ver:-2026.9.6}: the cron line did not report OpenClaw's cleanup: $(head -c 300 cron-1.txt)"
  for agent in $(jsonq cron-plan.json 'j.data.agents.map(a => a.agentId).join(" ")'); do
    gateway_list "cron-list-$agent.json" "$s" "$agent" "$ver" || { check_error "${ver:-2026.9.6}: the Gateway's sessions.list of $agent failed"; continue; }
    local left
    left="$(jsonq "cron-list-$agent.json" "(() => { const p = require('fs').readFileSync('cron-plan.json', 'utf8'); const a = JSON.parse(p).data.agents.find(a => a.agentId === '$agent');
      const listed = new Map(j.sessions.map(s => [s.key, s])); return [...a.deleted.filter(k => listed.has(k)).map(k => 'still listed: ' + k),
      ...a.archived.filter(k => listed.get(k)?.archived !== true).map(k => 'not archived: ' + k)].join('; '); })()")"
    [[ -z "$left" ]] || check_error "${ver:-2026.9.6}: after the cron line, the Gateway's list of $agent: $left"
    gone=$((gone + $(jsonq cron-plan.json "j.data.agents.find(a => a.agentId === '$agent').deleted.length")))
    archived=$((archived + $(jsonq cron-plan.json "j.data.agents.find(a => a.agentId === '$agent').archived.length")))
  done
  [[ $gone -gt 0 ]] || check_error "${ver:-2026.9.6}: nothing was due: the cron check proves nothing"
  rc=0; ours_run cron-2.txt "$s" "${CRON_PRUNE[@]}" || rc=$?
  [[ $rc -eq 0 && ! -s cron-2.txt && ! -s cron-2.txt.err ]] ||
    check_error "${ver:-2026.9.6}: the second cron run: exit $rc, stdout '$(head -c 200 cron-2.txt)', stderr '$(head -c 200 cron-2.txt.err)'"
  CRON_PRUNED="$gone deleted, $archived archived"
}

# gateway_route_of RELEASE : the online route on RELEASE's own Gateway, started once on a copy of
# RELEASE's store (make-release-store.sh): patch, archive, unarchive and delete go through it
# without a flag ("via": "gateway", its version), its own list shows each change; the README's
# cron line prunes through it and a second run prints nothing (gateway_cron_prune); --offline
# and what has no RPC refuse with 75; after it stops, RELEASE reads the store back.
gateway_route_of() {
  local ver="$1" s rc k_patch k_archive k_delete
  s="$(copy_release "$ver" live "gateway-$ver")" || { check_error "no $ver store"; return 0; }
  gateway_token_config "$s"
  # Sessions of main that the route may change: neither main nor archived nor locked.
  ours_run rows.json "$s" list --json --limit all || check_error "$ver: list"
  local free; free="$(jsonq rows.json 'j.data.filter(r => !r.archived && r.category !== "main" && !r.locked).map(r => r.sessionKey).join(" ")')"
  read -r k_patch k_archive k_delete _ <<< "$free"
  [[ -n "${k_delete:-}" ]] || { check_error "$ver: fewer than three sessions to change in main: '$free'"; return 0; }
  gateway_start "$s" "$ver"
  ours_run patch.json "$s" patch "$k_patch" --set 'label="Renamed online"' --json --wait 120 ||
    check_error "$ver: patch through the Gateway failed: $(tail -n 3 patch.json.err 2>/dev/null)"
  [[ "$(jsonq patch.json 'j.data?.via + " " + j.data?.gateway?.version')" == "gateway $ver" ]] ||
    check_error "$ver: patch did not go through the $ver Gateway: $(jsonq patch.json 'JSON.stringify(j.data?.gateway ?? j.error)')"
  ours_run archive.json "$s" archive "$k_archive" --json || check_error "$ver: archive through the Gateway failed: $(jsonq archive.json 'j.error?.message')"
  gateway_list live-archived.json "$s" main "$ver" || check_error "$ver: the Gateway's sessions.list failed"
  [[ "$(jsonq live-archived.json "j.sessions.find(s => s.key === '$k_archive')?.archived ?? null")" == true ]] || check_error "$ver: the Gateway does not list $k_archive archived"
  ours_run unarchive.json "$s" unarchive "$k_archive" --json || check_error "$ver: unarchive through the Gateway failed: $(jsonq unarchive.json 'j.error?.message')"
  ours_run delete.json "$s" delete "$k_delete" --yes --json || check_error "$ver: delete through the Gateway failed: $(jsonq delete.json 'j.error?.message')"
  local f
  for f in archive unarchive delete; do
    [[ "$(jsonq $f.json 'j.data?.via + " " + j.data?.results?.map(r => r.result).join(",")')" =~ ^gateway\ (archived|unarchived|deleted)$ ]] ||
      check_error "$ver: $f: $(jsonq $f.json 'JSON.stringify(j.data ?? j.error)')"
  done
  gateway_list live.json "$s" main "$ver" || check_error "$ver: the Gateway's sessions.list failed"
  [[ "$(jsonq live.json "j.sessions.find(s => s.key === '$k_patch')?.label ?? null")" == "Renamed online" ]] || check_error "$ver: the Gateway does not list the new label"
  [[ "$(jsonq live.json "j.sessions.find(s => s.key === '$k_archive')?.archived ?? null")" == false ]] || check_error "$ver: the Gateway does not list $k_archive active again"
  [[ "$(jsonq live.json "j.sessions.some(s => s.key === '$k_delete')")" == false ]] || check_error "$ver: the Gateway still lists $k_delete"
  gateway_cron_prune "$ver" "$s"
  rc=0; ours_run offline.json "$s" prune --all-agents --enforce --yes --offline --json || rc=$?
  [[ $rc -eq 75 ]] || check_error "$ver: prune --offline while live: exit $rc"
  rc=0; ours_run reclaim.json "$s" reclaim --all-agents --json || rc=$?
  [[ $rc -eq 75 ]] && grep -q 'no Gateway RPC' reclaim.json || check_error "$ver: reclaim while live: exit $rc"
  ! grep -q 'reference-gateway-token-39' ./*.json ./*.err ./*.txt 2>/dev/null || check_error "$ver: a secret was printed"
  gateway_stop
  release_accepts "$ver" "$s" "after-gateway-$ver"
  [[ $CHECK_ERRORS -ne 0 ]] ||
    note "$ver: patch, archive, unarchive, delete and the cron line's prune ($CRON_PRUNED) through $ver's own Gateway without a flag, each seen in its own list; a second cron run prints nothing; --offline and reclaim refused with 75; $ver reads the store back"
}
check_gateway_route_of_2026_8_2() { gateway_route_of 2026.8.2; }
check_gateway_route_of_2026_9_5() { gateway_route_of 2026.9.5; }
CHECKS+=(gateway_route_of_2026_8_2 gateway_route_of_2026_9_5)

# gateway_commands_online: with the real Gateway live on a store, our patch, archive, unarchive
# and delete go through its RPC ("via": "gateway"), and its own sessions.list shows each change
# while it runs; reads and dry runs work, reclaim and --offline are refused with 75, a config
# without the token gives 75 naming where the tool looked. After it stops, the rows of each
# session equal what the same commands write offline on a copy (the delete's archive included),
# and the same commands work offline again.
check_gateway_commands_online() {
  local s o key_patch=agent:main:sdk-made-1 key_archive=agent:main:pinned-notes key_unarchive=agent:main:scratch-2
  local key_delete=agent:main:cron:nightly:run:884 key_dry=agent:main:telegram:direct:123454 rc db_s db_o
  s="$(copy_store live gateway)"; gateway_token_config "$s"
  o="$(copy_store live offline)"; gateway_token_config "$o"
  db_s="$s/agents/main/agent/openclaw-agent.sqlite"; db_o="$o/agents/main/agent/openclaw-agent.sqlite"
  # The same config, without any secret (the live check of a missing token).
  "$OPENCLAW_REF_NODE" -e '
    const fs = require("fs"); const c = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    delete c.gateway.auth; fs.writeFileSync(process.argv[2], JSON.stringify(c, null, 2));' "$s/openclaw.json" "$CHECK_DIR/no-token.json"
  gateway_start "$s"
  # The first command waits out the Gateway's start-up (it holds its locks ~20 s before it listens).
  ours_run patch.json "$s" patch "$key_patch" --set 'label="Renamed online"' --json --wait 120 ||
    check_error "patch through the Gateway failed: $(tail -n 3 patch.json.err 2>/dev/null)"
  [[ "$(jsonq patch.json 'j.data.via + " " + j.data.gateway?.version')" == "gateway 2026.9.6" ]] ||
    check_error "patch did not report via gateway 2026.9.6: $(jsonq patch.json 'JSON.stringify(j.data?.via) + JSON.stringify(j.data?.gateway)')"
  ours_run archive.json "$s" archive "$key_archive" --json --backup-dir "$CHECK_DIR/snapshots" || check_error "archive through the Gateway failed"
  # The snapshot taken first, from the live database, verifies.
  local snap; snap="$(jsonq archive.json 'j.data.results[0].snapshot ?? ""')"
  [[ -n "$snap" ]] && ours_run verify.json "$s" backup verify "$snap" --json || check_error "the snapshot before the online archive: '$snap' does not verify"
  ours_run unarchive.json "$s" unarchive "$key_unarchive" --json || check_error "unarchive through the Gateway failed"
  ours_run delete.json "$s" delete "$key_delete" --yes --json || check_error "delete through the Gateway failed"
  for f in archive unarchive delete; do
    [[ "$(jsonq $f.json 'j.data.via + " " + j.data.results.map(r => r.result).join(",")')" =~ ^gateway\ (archived|unarchived|deleted)$ ]] ||
      check_error "$f: $(jsonq $f.json 'JSON.stringify(j.data ?? j.error)')"
  done
  # The running Gateway's own list shows every change.
  rc=0; oc_run live.json "$s" gateway call sessions.list --port "$GW_PORT" --json --params '{"agentId":"main","limit":500,"archived":"all"}' || rc=$?
  [[ $rc -eq 0 ]] || check_error "openclaw gateway call sessions.list exited $rc"
  [[ "$(jsonq live.json "j.sessions.find(s => s.key === '$key_patch')?.label ?? null")" == "Renamed online" ]] || check_error "the Gateway does not list the new label"
  [[ "$(jsonq live.json "j.sessions.find(s => s.key === '$key_archive')?.archived ?? null")" == true ]] || check_error "the Gateway does not list $key_archive archived"
  [[ "$(jsonq live.json "j.sessions.find(s => s.key === '$key_unarchive')?.archived ?? null")" == false ]] || check_error "the Gateway does not list $key_unarchive active"
  [[ "$(jsonq live.json "j.sessions.some(s => s.key === '$key_delete')")" == false ]] || check_error "the Gateway still lists $key_delete"
  # Reads and dry runs while it runs; what has no RPC, --offline and a missing token refuse with 75.
  ours_run list.json "$s" list --all-agents --json --limit all || check_error "list while the Gateway runs"
  ours_run dry.json "$s" delete "$key_dry" --dry-run --json || check_error "a dry run while the Gateway runs"
  [[ "$(jsonq dry.json 'j.data.results[0].result')" == would-delete ]] || check_error "dry run: $(jsonq dry.json 'JSON.stringify(j.data)')"
  rc=0; ours_run reclaim.json "$s" reclaim --all-agents --yes --json || rc=$?
  [[ $rc -eq 75 ]] && grep -q 'no Gateway RPC' reclaim.json || check_error "reclaim while live: exit $rc, $(jsonq reclaim.json 'j.error?.message')"
  rc=0; ours_run offline.json "$s" archive "$key_dry" --offline --json || rc=$?
  [[ $rc -eq 75 ]] && grep -q -- '--offline' offline.json || check_error "archive --offline while live: exit $rc"
  rc=0; ours_run notoken.json "$s" --config "$CHECK_DIR/no-token.json" patch "$key_dry" --set 'label="x"' --json || rc=$?
  [[ $rc -eq 75 ]] && grep -q 'gateway.auth.token' notoken.json && grep -q 'OPENCLAW_GATEWAY_TOKEN' notoken.json ||
    check_error "a config without the token: exit $rc, $(jsonq notoken.json 'j.error?.message')"
  # custody status says whether the live Gateway is reached, and with which scopes.
  ours_run status.json "$s" custody status --json || check_error "custody status while live"
  [[ "$(jsonq status.json 'j.data.gateway?.reachable + " " + j.data.gateway?.scopes?.includes("operator.admin")')" == "true true" ]] ||
    check_error "custody status: $(jsonq status.json 'JSON.stringify(j.data?.gateway)')"
  # prune: the README's cron line prunes through the live Gateway, and a second run prints nothing.
  gateway_cron_prune "" "$s"
  ! grep -q 'reference-gateway-token-39' ./*.json ./*.err 2>/dev/null || check_error "a secret was printed"
  gateway_stop
  # Offline, on the untouched copy: the same commands, then the rows compared session by session.
  ours_run o-list.json "$o" list --all-agents --json --limit all || check_error "offline list"
  local sid_delete; sid_delete="$(jsonq o-list.json "j.data.find(r => r.sessionKey === '$key_delete')?.sessionId ?? ''")"
  ours_run o-patch.json "$o" patch "$key_patch" --set 'label="Renamed online"' || check_error "offline patch"
  ours_run o-archive.json "$o" archive "$key_archive" || check_error "offline archive"
  ours_run o-unarchive.json "$o" unarchive "$key_unarchive" || check_error "offline unarchive"
  ours_run o-delete.json "$o" delete "$key_delete" --yes || check_error "offline delete"
  ours_run o-prune.json "$o" prune --enforce --all-agents --yes || check_error "offline prune"
  GATEWAY_TITLES=1 SKIP_COUNTS=session_canonical_validation_pending node_check compare-stores.mjs "$db_o" "$db_s" "$key_patch" "$key_archive" "$key_unarchive" "$key_delete" ||
    check_error "the rows the Gateway wrote differ from the offline run's"
  diff <(ls "$o/agents/main/sessions" | sed -E 's/\.deleted\.[^.]+\.[0-9]{3}Z\.[0-9a-f]+\./.deleted.<stamp>./' | sort) \
       <(ls "$s/agents/main/sessions" | sed -E 's/\.deleted\.[^.]+\.[0-9]{3}Z\.[0-9a-f]+\./.deleted.<stamp>./' | sort) > files.diff ||
    check_error "archive files differ: $(head -n 5 files.diff | tr '\n' ' ')"
  # The session the Gateway deleted comes back with undelete as the offline one does: its entry
  # was kept beside the Gateway's archive.
  ours_run o-undelete.json "$o" undelete "$sid_delete" --yes || check_error "undelete after the offline delete"
  ours_run undelete.json "$s" undelete "$sid_delete" --yes || check_error "undelete after the Gateway's delete"
  GATEWAY_TITLES=1 SKIP_COUNTS=session_canonical_validation_pending node_check compare-stores.mjs "$db_o" "$db_s" "$key_delete" ||
    check_error "the session undeleted after the Gateway's delete differs from the offline one's"
  # After it stopped, the same commands work offline on the store the Gateway wrote.
  ours_run after.json "$s" patch "$key_patch" --set 'label="Offline again"' --json || check_error "patch offline after the Gateway stopped"
  [[ "$(jsonq after.json 'j.data.via')" == offline ]] || check_error "after the Gateway stopped: via $(jsonq after.json 'j.data.via')"
  openclaw_accepts "$s" after-gateway
  if [[ $CHECK_ERRORS -eq 0 ]]; then
    note "patch, archive, unarchive, delete and the cron line's prune ($CRON_PRUNED) through the live Gateway without a flag: its own list shows each; rows equal the offline run's; a second cron run prints nothing; reclaim, --offline and a missing token refused with 75"
  fi
}
CHECKS+=(gateway_commands_online)

# bundle_import_gateway_lists (issue 54): a session moved by bundle from the research agent into
# the work agent (export, import, delete at the source) is listed by OpenClaw's own Gateway
# started on the store afterwards (its `sessions.list` of work), with the source's session id,
# and is gone from its list of research. (A cron run session would prove nothing: the
# Gateway's list leaves cron runs out, its own included.)
check_bundle_import_gateway_lists() {
  local s rc key=agent:research:explicit:cli-research moved=agent:work:explicit:cli-research sid
  s="$(copy_store live)"
  gateway_token_config "$s"
  ours_run show.json "$s" show "$key" --json || check_error "show $key"
  sid="$(jsonq show.json 'j.data.sessionId')"
  ours_run export.json "$s" --agent research bundle export "$CHECK_DIR/move.bundle" "$key" || check_error "bundle export"
  rc=0; ours_run import.json "$s" --agent work bundle import "$CHECK_DIR/move.bundle" --yes --json || rc=$?
  [[ $rc -eq 0 ]] || check_error "bundle import exited $rc"
  ours_run delete.json "$s" --agent research delete "$key" --yes --json || check_error "delete at the source"
  gateway_start "$s"
  # The lock names the port before the Gateway listens: its start-up is waited out.
  local i
  for i in $(seq 1 60); do
    gateway_list work.json "$s" work 2> /dev/null && break
    sleep 1
  done
  gateway_list work.json "$s" work || check_error "the Gateway's sessions.list of work failed"
  gateway_list research.json "$s" research || check_error "the Gateway's sessions.list of research failed"
  gateway_stop
  [[ "$(jsonq work.json "j.sessions.find(s => s.key === '$moved')?.sessionId ?? null")" == "$sid" ]] ||
    check_error "the Gateway does not list $moved with session id $sid"
  [[ "$(jsonq research.json "j.sessions.some(s => s.key === '$key')")" == false ]] ||
    check_error "the Gateway still lists $key"
  [[ $CHECK_ERRORS -ne 0 ]] || note "moved $key to $moved; OpenClaw's Gateway lists it there ($sid), not at the source"
}
CHECKS+=(bundle_import_gateway_lists)
