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

# gateway_start STATE : starts `openclaw gateway run` on STATE (token auth from its config) on a
# free loopback port, in its own session so the whole process tree can be stopped; sets GW_PID
# and GW_PORT once its lock file names the port. Skips the check if it never does.
gateway_start() {
  local s="$1" i lock="$1/tmp/openclaw-$(id -u)/gateway.state.lock"
  GW_PORT="$(free_port)"
  setsid "${NEUTRAL_ENV[@]}" HOME="$WORK/home-openclaw" OPENCLAW_REF_DIR="$OPENCLAW_REF_DIR" OPENCLAW_STATE_DIR="$s" \
    OPENCLAW_NO_RESPAWN=1 "$HARNESS/oc" gateway run --bind loopback --port "$GW_PORT" --allow-unconfigured \
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
