//! Start-up in any order and `--config`: `node-rpc follow` started before its upstream waits for
//! it (said once on stderr, `/readyz` 503 meanwhile) and catches up once it is there; every flag
//! can come from the `[node-rpc.SUBCOMMAND]` table of a TOML file, which the environment and the
//! command line override, and an unknown key is refused by name.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::process::Command;

use common::{start, start_with};
use serde_json::json;

/// A port nothing listens on (it was free a moment ago).
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

#[test]
fn follow_waits_for_an_upstream_started_after_it() {
    let (up_dir, down_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let port = free_port();
    let upstream = format!("http://127.0.0.1:{port}");
    let down = start(&[
        "follow",
        "--upstream",
        &upstream,
        "--genesis",
        "devnet",
        "--data-dir",
        down_dir.path().to_str().unwrap(),
    ]);
    let waiting = "waiting for the upstream";
    assert!(down.wait_until(60, |n| n.stderr_line(waiting).is_some()));
    let (status, body) = down.get("/readyz");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("upstream not reached yet"), "{body}");

    let up = start_with(
        &["serve", "--data-dir", up_dir.path().to_str().unwrap()],
        &format!("127.0.0.1:{port}"),
        &[],
    );
    let url = "/ext/index/X/block";
    let want = up.result(url, "index.getLastAccepted", json!({"encoding": "hex"}));
    assert!(
        down.wait_until(120, |n| {
            n.call(url, "index.getLastAccepted", json!({"encoding": "hex"}))["result"] == want
        }),
        "did not catch up"
    );
    assert!(down.wait_until(60, |n| n.get("/readyz").0 == 200));
    assert_eq!(down.stderr_lines(waiting).len(), 1, "the wait is said once");
}

/// `serve` over an empty directory with nothing loaded, configured by `file`.
fn config_file(dir: &std::path::Path, compat: &str, extra: &str) -> String {
    let path = dir.join("node-rpc.toml");
    let data = dir.join("data");
    std::fs::write(
        &path,
        format!(
            "[node-rpc.serve]\ndata-dir = {:?}\nsource = \"none\"\ncompat = \"{compat}\"\n{extra}\n\
             [data-api.serve]\nnot-ours = 1\n",
            data.display()
        ),
    )
    .unwrap();
    path.display().to_string()
}

/// The profile a started server says it follows (`... compat NAME)` on its "listening" line).
fn compat_of(n: &common::NodeRpc) -> &str {
    n.listening
        .rsplit("compat ")
        .next()
        .unwrap()
        .trim_end_matches(')')
}

#[test]
fn flags_come_from_the_config_file_and_env_and_flags_override_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = config_file(dir.path(), "avalanchego", "");
    let from_file = start(&["serve", "--config", &file]);
    assert_eq!(compat_of(&from_file), "avalanchego");
    assert!(
        dir.path().join("data/CURRENT").exists(),
        "data-dir from the file"
    );
    drop(from_file);
    let env = start_with(
        &["serve", "--config", &file],
        "127.0.0.1:0",
        &[("SNOWLINE_COMPAT", "spec")],
    );
    assert_eq!(compat_of(&env), "spec");
    drop(env);
    let flag = start(&["serve", "--config", &file, "--compat", "spec"]);
    assert_eq!(compat_of(&flag), "spec");
    drop(flag);
    // From the environment's SNOWLINE_CONFIG, before the subcommand.
    let named = start_with(&["serve"], "127.0.0.1:0", &[("SNOWLINE_CONFIG", &file)]);
    assert_eq!(compat_of(&named), "avalanchego");
}

#[test]
fn an_unknown_key_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = config_file(dir.path(), "spec", "live_rat = 2");
    let out = Command::new(env!("CARGO_BIN_EXE_node-rpc"))
        .args(["serve", "--config", &file])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown key `live_rat` in [node-rpc.serve]"),
        "{stderr}"
    );
    assert!(!dir.path().join("data").exists(), "nothing started");
}
