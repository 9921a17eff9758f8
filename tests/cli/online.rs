//! The online route's decisions in the binary (`cli/online.rs`), with a Gateway that looks live
//! to the custody probe but cannot be reached: which commands try it, which refuse and why,
//! what `custody status` says, and that nothing is ever changed or printed that should not be.
//! The route through a real Gateway is proven by the reference check `gateway_commands_online`;
//! the RPC parameters by the unit tests of `ops::online`.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use crate::common::{cannot_run_here, checksums, expect_exit, json, Store};
use crate::custody::{lock_dir, start_time};

/// A process that stands for a Gateway: a live pid whose start time its lock file records,
/// listening on nothing at the port the lock names.
struct FakeGateway {
    process: Child,
    port: u16,
}

impl Drop for FakeGateway {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn fake_gateway(store: &Store) -> FakeGateway {
    // A port nothing listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    fake_gateway_at(store, port)
}

/// The live owner a Gateway listening on `port` leaves: its lock file, naming a live pid.
fn fake_gateway_at(store: &Store, port: u16) -> FakeGateway {
    let process = Command::new("sleep")
        .arg("60")
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let payload = serde_json::json!({
        "pid": process.id(), "ownerId": "gateway-test", "createdAt": "2026-12-03T10:00:00.000Z",
        "configPath": "/home/user/.openclaw/openclaw.json", "stateDir": "/home/user/.openclaw",
        "port": port, "startTime": start_time(process.id()),
    });
    let dir = lock_dir(store);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("gateway.state.lock"),
        format!("{}\n", serde_json::to_string_pretty(&payload).unwrap()),
    )
    .unwrap();
    FakeGateway { process, port }
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn with_a_live_gateway_each_command_says_why_it_cannot_go_through_it() {
    let store = Store::copy("live");
    let gateway = fake_gateway(&store);
    let before = checksums(&store.state());
    let pid = format!("pid {}", gateway.process.id());

    // No secret anywhere: 75, naming every place looked at.
    let out = store.run_code(["patch", "main", "--set", "label=\"x\""], 75);
    let err = stderr(&out);
    for said in [
        &pid[..],
        "gateway.auth.token",
        "OPENCLAW_GATEWAY_TOKEN",
        "--token",
    ] {
        assert!(err.contains(said), "{said}: {err}");
    }
    // A secret given, a Gateway that does not answer: 75 naming where it was looked for, and
    // the secret is never printed.
    let out = store.run_code(
        [
            "delete",
            "agent:main:scratch-2",
            "--yes",
            "--token",
            "s3cret-token",
        ],
        75,
    );
    let err = stderr(&out);
    assert!(
        err.contains(&format!("ws://127.0.0.1:{}", gateway.port)) && !err.contains("s3cret"),
        "{err}"
    );
    // --offline, a command with no RPC, and prune without a secret: 75, each saying so.
    for (args, said) in [
        (
            &["archive", "agent:main:scratch-1", "--offline"][..],
            "--offline",
        ),
        (&["reclaim", "--yes"], "`reclaim` has no Gateway RPC"),
        (&["prune", "--enforce", "--yes"], "gateway.auth.token"),
    ] {
        let out = store.cmd().args(args).output().unwrap();
        expect_exit(&out, 75);
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
    }
    // What --token/--password-file cannot be given together is a usage error.
    store.run_code(
        [
            "patch",
            "main",
            "--set",
            "label=x",
            "--token",
            "a",
            "--password-file",
            "/dev/null",
        ],
        2,
    );
    // Reads and dry runs read the live store.
    store.run_ok(["list"]);
    store.run_ok(["delete", "agent:main:scratch-2", "--dry-run"]);
    // custody status: the Gateway is live but not reached, and why.
    let doc = store.json_ok(["custody", "status", "--json"]);
    assert_eq!(doc["data"]["owner"]["role"], "gateway", "{doc}");
    assert_eq!(doc["data"]["gateway"]["reachable"], false, "{doc}");
    assert!(
        doc["data"]["gateway"]["error"]
            .as_str()
            .is_some_and(|e| e.contains("gateway.auth.token")),
        "{doc}"
    );
    assert_eq!(checksums(&store.state()), before, "something changed");
}

#[test]
fn without_a_live_gateway_the_online_flags_run_offline() {
    let store = Store::copy("live");
    let doc = store.json_ok([
        "patch",
        "agent:main:sdk-made-1",
        "--set",
        "label=\"Offline\"",
        "--offline",
        "--json",
    ]);
    assert_eq!(doc["data"]["via"], "offline", "{doc}");
    assert_eq!(
        store.entry("main", "agent:main:sdk-made-1").unwrap()["label"],
        "Offline"
    );
    let doc = json(
        &store
            .cmd()
            .args(["prune", "--via-gateway", "--enforce", "--yes", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(doc["ok"], true, "{doc}");
    assert_eq!(doc["data"]["via"], "offline", "{doc}");
    let doc = store.json_ok(["custody", "status", "--json"]);
    assert!(doc["data"].get("gateway").is_none(), "{doc}");
}

/// `status` names the live Gateway's start time as its lock gives it (issue 49): only the
/// owner's state is our word, lowercased.
#[test]
fn status_prints_the_gateways_start_time_as_given() {
    let store = Store::copy("live");
    let gateway = fake_gateway(&store);
    let out = store.run_ok(["status"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("Custody:"))
        .unwrap_or_else(|| panic!("no Custody line: {text}"));
    assert_eq!(
        line,
        format!(
            "Custody:    live owner role gateway pid {} since 2026-12-03T10:00:00.000Z",
            gateway.process.id()
        )
    );
}

/// What the speaking fake Gateway does with one request after `connect`.
enum Reply {
    Answer(serde_json::Value),
    /// Drop the socket without a close frame, as a Gateway that died.
    Die,
}

/// A fake Gateway that speaks the protocol (challenge, `hello-ok`, answers by id) on `ip`:
/// every frame it receives is kept (the `connect` first, with its secret), and `reply` answers
/// each request after `connect`. One connection at a time, until the test ends.
fn speaking_gateway(
    ip: std::net::IpAddr,
    mut reply: impl FnMut(&serde_json::Value) -> Reply + Send + 'static,
) -> (u16, Arc<Mutex<Vec<serde_json::Value>>>) {
    let listener = TcpListener::bind((ip, 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let kept = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut ws) = tungstenite::accept(stream.unwrap()) else {
                continue;
            };
            let recv = |ws: &mut tungstenite::WebSocket<std::net::TcpStream>| loop {
                match ws.read() {
                    Ok(tungstenite::Message::Text(t)) => {
                        let v: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
                        kept.lock().unwrap().push(v.clone());
                        return Some(v);
                    }
                    Ok(_) => {}
                    Err(_) => return None,
                }
            };
            let send = |ws: &mut tungstenite::WebSocket<std::net::TcpStream>,
                        v: serde_json::Value| {
                ws.send(tungstenite::Message::text(v.to_string())).is_ok()
            };
            send(
                &mut ws,
                serde_json::json!({"type": "event", "event": "connect.challenge", "payload": {"nonce": "n", "ts": 1}}),
            );
            let Some(connect) = recv(&mut ws) else {
                continue;
            };
            send(
                &mut ws,
                serde_json::json!({"type": "res", "id": connect["id"], "ok": true, "payload": {
                    "type": "hello-ok", "protocol": 4, "server": {"version": "2026.9.6"},
                    "auth": {"scopes": ["operator.read", "operator.write", "operator.admin"]}}}),
            );
            while let Some(req) = recv(&mut ws) {
                match reply(&req) {
                    Reply::Answer(payload) => {
                        send(
                            &mut ws,
                            serde_json::json!({"type": "res", "id": req["id"], "ok": true, "payload": payload}),
                        );
                    }
                    Reply::Die => {
                        let _ = ws.get_mut().shutdown(std::net::Shutdown::Both);
                        break;
                    }
                }
            }
        }
    });
    (port, seen)
}

/// A Gateway that dies with a call in flight: the outcome of that call is unknown (exit 75,
/// not "another protocol"), and the JSON error lists what was done, what is unknown and what
/// was never sent (docs/openclaw/GATEWAY.md §8; issue 55).
#[test]
fn a_gateway_that_dies_mid_batch_leaves_the_done_keys_said() {
    let store = Store::copy("live");
    let mut answered = 0;
    let (port, seen) = speaking_gateway(std::net::Ipv4Addr::LOCALHOST.into(), move |req| {
        assert_eq!(req["method"], "sessions.delete", "{req}");
        answered += 1;
        if answered <= 2 {
            Reply::Answer(
                serde_json::json!({"ok": true, "key": req["params"]["key"], "deleted": true, "archived": []}),
            )
        } else {
            Reply::Die
        }
    });
    let _gateway = fake_gateway_at(&store, port);
    let keys = [
        "agent:main:sdk-made-0",
        "agent:main:sdk-made-1",
        "agent:main:pinned-notes",
        "agent:main:explicit:cli-main",
        "agent:main:acp:9911cc46-d649-47bb-9968-72da7c2daff9",
        "agent:main:hook:7a41e6f5-b97d-4c51-b472-0830fd1c2815",
        "agent:main:cron:nightly:run:884",
        "agent:main:subagent:461fb4b4-4eee-4160-baf0-ce3d5dbdd820",
        "agent:main:scratch-2",
        "agent:main:dashboard:review-ui",
        "agent:main:telegram:direct:123454",
        "agent:main:discord:channel:987654324",
    ];
    let token = store.dir.path().join("token");
    std::fs::write(&token, "s3cret-token\n").unwrap();
    let out = store
        .cmd()
        .arg("delete")
        .args(keys)
        .args(["--yes", "--json", "--token-file"])
        .arg(&token)
        .output()
        .unwrap();
    expect_exit(&out, 75);
    let doc = json(&out);
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("closed the connection during sessions.delete")
            && message.contains(&format!(
                "whether the Gateway applied sessions.delete for {} is unknown",
                keys[2]
            ))
            && message.contains("2 of 12 had been answered before it")
            && message.contains("9 not sent")
            && !message.contains("another protocol"),
        "{message}"
    );
    let done: Vec<&str> = doc["data"]["done"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert_eq!(d["result"], "deleted", "{d}");
            d["sessionKey"].as_str().unwrap()
        })
        .collect();
    assert_eq!(done, keys[..2]);
    assert_eq!(doc["data"]["outcomeUnknown"]["sessionKey"], keys[2]);
    assert_eq!(doc["data"]["notSent"].as_array().unwrap().len(), 9);
    // The token came from the file, trimmed.
    let seen = seen.lock().unwrap();
    assert_eq!(seen[0]["params"]["auth"]["token"], "s3cret-token");
    assert_eq!(seen.len(), 1 + 3, "connect and three deletes");
}

/// A non-loopback address of this machine, if it has one.
fn non_loopback_address() -> Option<std::net::IpAddr> {
    let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills `list`, read below and freed once.
    if unsafe { libc::getifaddrs(&mut list) } != 0 {
        return None;
    }
    let mut found = None;
    let mut at = list;
    while !at.is_null() && found.is_none() {
        // SAFETY: a node of the list getifaddrs returned.
        let ifa = unsafe { &*at };
        if !ifa.ifa_addr.is_null()
            && i32::from(unsafe { (*ifa.ifa_addr).sa_family }) == libc::AF_INET
        {
            // SAFETY: an AF_INET address is a sockaddr_in.
            let sin = unsafe { &*(ifa.ifa_addr as *const libc::sockaddr_in) };
            let ip = std::net::Ipv4Addr::from(u32::from_be(sin.sin_addr.s_addr));
            if !ip.is_loopback() && !ip.is_unspecified() {
                found = Some(ip.into());
            }
        }
        at = ifa.ifa_next;
    }
    // SAFETY: the list getifaddrs allocated.
    unsafe { libc::freeifaddrs(list) };
    found
}

/// The Gateway's secret goes over plaintext ws:// to loopback only, as OpenClaw's own client
/// refuses plaintext to other hosts (issue 55): a Gateway-speaking listener on a non-loopback
/// address of this machine is never reached, and so never sees the token.
#[test]
fn no_secret_goes_to_a_non_loopback_address_in_clear() {
    let Some(ip) = non_loopback_address() else {
        cannot_run_here("this machine has no non-loopback IPv4 address to listen on");
        return;
    };
    let store = Store::copy("live");
    let (port, seen) = speaking_gateway(ip, |_| Reply::Answer(serde_json::json!({})));
    let _gateway = fake_gateway_at(&store, port);
    let before = checksums(&store.state());
    let url = format!("ws://{ip}:{port}");
    for secret in [
        &["--token", "s3cret-token"][..],
        &["--password-file", "/dev/null"],
    ] {
        let out = store
            .cmd()
            .args([
                "patch",
                "agent:main:sdk-made-1",
                "--set",
                "label=\"x\"",
                "--gateway-url",
            ])
            .arg(&url)
            .args(secret)
            .output()
            .unwrap();
        let err = stderr(&out);
        if secret[0] == "--token" {
            expect_exit(&out, 75);
            assert!(
                err.contains("in clear") && err.contains(&ip.to_string()),
                "{err}"
            );
            assert!(!err.contains("s3cret"), "{err}");
        } else {
            // An empty secret file is refused before anything is tried.
            assert!(err.contains("is empty"), "{err}");
        }
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(
        seen.lock().unwrap().is_empty(),
        "{:?}",
        seen.lock().unwrap()
    );
    assert_eq!(checksums(&store.state()), before);
}

/// The README's cron line (Pruning from cron), after `--state-dir`.
const CRON_PRUNE: [&str; 6] = [
    "prune",
    "--all-agents",
    "--enforce",
    "--yes",
    "--wait",
    "600",
];

/// `prune` goes through a live Gateway without a flag (issue 48): OpenClaw's own
/// `sessions.cleanup`, in enforce mode, once for all agents or once per selected agent, with
/// every setting that RPC takes (`activeKey`, `fixMissing`, `fixDmScope`); an option that
/// repeats the config's value goes too, one that changes it is refused with 75 saying which
/// setting, and so are `--reclaim`, `--artifacts` and `--offline`. `--via-gateway` is still
/// accepted.
#[test]
fn prune_goes_through_the_live_gateway_with_every_setting_its_cleanup_takes() {
    let store = Store::copy("live");
    let (port, seen) = speaking_gateway(std::net::Ipv4Addr::LOCALHOST.into(), |req| {
        assert_eq!(req["method"], "sessions.cleanup", "{req}");
        let agent = req["params"]["agent"].as_str().unwrap_or("main");
        Reply::Answer(serde_json::json!({
            "agentId": agent, "storePath": "x", "mode": "enforce", "beforeCount": 16,
            "afterCount": 12, "appliedCount": 12, "pruned": 4, "capped": 0, "archived": 1,
            "capArchived": 0, "missing": 0, "wouldMutate": true}))
    });
    let _gateway = fake_gateway_at(&store, port);
    let before = checksums(&store.state());
    let token = store.dir.path().join("token");
    std::fs::write(&token, "s3cret-token").unwrap();
    let token = token.to_str().unwrap();
    let requests = |from: usize| -> Vec<serde_json::Value> {
        seen.lock().unwrap()[from..]
            .iter()
            .filter(|r| r["method"] != "connect")
            .map(|r| r["params"].clone())
            .collect()
    };

    // The README's cron line, and the same with the old flag.
    for alias in [&[][..], &["--via-gateway"]] {
        let from = seen.lock().unwrap().len();
        let out = store
            .cmd()
            .args(CRON_PRUNE)
            .arg("--json")
            .args(alias)
            .args(["--token-file", token])
            .output()
            .unwrap();
        expect_exit(&out, 0);
        let doc = json(&out);
        assert_eq!(doc["data"]["via"], "gateway", "{doc}");
        assert_eq!(
            doc["data"]["cleanup"]["stores"],
            serde_json::Value::Null,
            "{doc}"
        );
        assert_eq!(doc["data"]["cleanup"]["pruned"], 4, "{doc}");
        assert_eq!(
            requests(from),
            vec![serde_json::json!({"enforce": true, "allAgents": true})]
        );
    }
    // Two agents of three: one call each, with the settings the RPC takes; --older-than 30d
    // is the config's own pruneAfter (OpenClaw's default).
    let from = seen.lock().unwrap().len();
    let out = store
        .cmd()
        .args([
            "--agent",
            "main",
            "--agent",
            "work",
            "prune",
            "--enforce",
            "--yes",
            "--json",
            "--active-key",
            "agent:main:main",
            "--fix-missing",
            "--fix-dm-scope",
            "--older-than",
            "30d",
            "--token-file",
            token,
        ])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let doc = json(&out);
    assert_eq!(
        doc["data"]["cleanup"]["stores"].as_array().unwrap().len(),
        2,
        "{doc}"
    );
    let each = |agent: &str| {
        serde_json::json!({"enforce": true, "activeKey": "agent:main:main", "fixMissing": true,
            "fixDmScope": true, "agent": agent})
    };
    assert_eq!(requests(from), vec![each("main"), each("work")]);
    // Human output: OpenClaw's own answer, per store.
    let out = store
        .cmd()
        .args(["prune", "--enforce", "--yes", "--token-file", token])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("OpenClaw's own cleanup ran through the live Gateway")
            && text.contains("agent main: 16 -> 12 sessions (pruned 4"),
        "{text}"
    );

    // What the RPC cannot carry: 75, naming it, before any call.
    let from = seen.lock().unwrap().len();
    for (args, said) in [
        (
            &["--older-than", "1d"][..],
            "--older-than (session.maintenance.pruneAfter)",
        ),
        (
            &["--max-entries", "3"],
            "--max-entries (session.maintenance.maxEntries)",
        ),
        (
            &["--max-disk-bytes", "1gb"],
            "--max-disk-bytes (session.maintenance.maxDiskBytes)",
        ),
        (&["--reclaim"], "--reclaim (reclaim has no Gateway RPC)"),
        (&["--artifacts"], "--artifacts"),
        (&["--offline"], "`prune --offline` does not go through it"),
    ] {
        let out = store
            .cmd()
            .args(["prune", "--enforce", "--yes", "--token-file", token])
            .args(args)
            .output()
            .unwrap();
        expect_exit(&out, 75);
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
    }
    assert!(requests(from).is_empty());
    store.run_code(["prune", "--offline", "--via-gateway"], 2);
    assert_eq!(checksums(&store.state()), before, "something changed");
}

/// The README's cron line on a live host with nothing due prints nothing on either stream and
/// exits 0, without even reaching the Gateway (so a host without the token is quiet too); its
/// JSON says so (`"via": "none"`, issue 48).
#[test]
fn the_cron_line_on_a_live_host_with_nothing_due_prints_nothing() {
    let store = Store::copy("live");
    store.run_ok(["prune", "--all-agents", "--enforce", "--yes"]);
    let (port, seen) = speaking_gateway(std::net::Ipv4Addr::LOCALHOST.into(), |_| {
        Reply::Answer(serde_json::json!({}))
    });
    let _gateway = fake_gateway_at(&store, port);
    let out = store.cmd().args(CRON_PRUNE).output().unwrap();
    expect_exit(&out, 0);
    assert_eq!(
        (String::from_utf8_lossy(&out.stdout), stderr(&out)),
        (String::new().into(), String::new())
    );
    assert!(seen.lock().unwrap().is_empty(), "the Gateway was reached");
    // Its JSON says what it did: it read the store and reached no Gateway, nor wrote offline.
    let out = store.cmd().args(CRON_PRUNE).arg("--json").output().unwrap();
    expect_exit(&out, 0);
    let doc = json(&out);
    assert_eq!(doc["data"]["via"], "none", "{doc}");
    assert_eq!(doc["data"]["notReached"], "the live Gateway", "{doc}");
    assert!(doc["data"].get("gateway").is_none(), "{doc}");
    assert!(seen.lock().unwrap().is_empty(), "the Gateway was reached");
}
