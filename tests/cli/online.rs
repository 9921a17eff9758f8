//! The online route's decisions in the binary (`cli/online.rs`), with a Gateway that looks live
//! to the custody probe but cannot be reached: which commands try it, which refuse and why,
//! what `custody status` says, and that nothing is ever changed or printed that should not be.
//! The route through a real Gateway is proven by the reference check `gateway_commands_online`;
//! the RPC parameters by the unit tests of `ops::online`.

use std::process::{Child, Command, Stdio};

use crate::common::{checksums, expect_exit, json, Store};
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
    let process = Command::new("sleep")
        .arg("60")
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // A port nothing listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
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
    // --offline, a command with no RPC, and prune without --via-gateway: 75, each saying so.
    for (args, said) in [
        (
            &["archive", "agent:main:scratch-1", "--offline"][..],
            "--offline",
        ),
        (&["reclaim", "--yes"], "`reclaim` has no Gateway RPC"),
        (&["prune", "--enforce", "--yes"], "--via-gateway"),
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
