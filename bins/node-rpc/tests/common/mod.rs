//! Starting the real `node-rpc` binary on port 0 and talking HTTP to it.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use snowline_test_support::http;
use snowline_test_support::service::{Service, poll_until};

/// A running `node-rpc`, killed on drop; `get` answers status and body, `call` a JSON-RPC call.
pub struct NodeRpc(Service);

impl std::ops::Deref for NodeRpc {
    type Target = Service;

    fn deref(&self) -> &Service {
        &self.0
    }
}

impl std::ops::DerefMut for NodeRpc {
    fn deref_mut(&mut self) -> &mut Service {
        &mut self.0
    }
}

/// The repository root (fixtures live there).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `node-rpc ARGS` to completion and returns its stdout, failing the test on a non-zero exit.
pub fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_node-rpc"))
        .args(args)
        .output()
        .expect("run node-rpc");
    assert!(
        out.status.success(),
        "node-rpc {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Starts `node-rpc ARGS --listen 127.0.0.1:0` and waits for its "listening on" line; if it
/// exits first, the test fails with what it wrote on stderr.
pub fn start(args: &[&str]) -> NodeRpc {
    start_with(args, "127.0.0.1:0", &[])
}

/// Starts `node-rpc ARGS --listen LISTEN` with `env` set, and waits for its "listening on"
/// line, as [`start`] does.
pub fn start_with(args: &[&str], listen: &str, env: &[(&str, &str)]) -> NodeRpc {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_node-rpc"));
    cmd.args(args)
        .args(["--listen", listen])
        .envs(env.iter().copied());
    NodeRpc(Service::start(cmd))
}

impl NodeRpc {
    /// POSTs a JSON-RPC call and returns the whole response object.
    pub fn call(&self, path: &str, method: &str, params: Value) -> Value {
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
                .to_string();
        let (status, text) = post(&self.addr, path, &body);
        assert_eq!(status, 200, "{method} on {path}: {text}");
        serde_json::from_str(&text).expect("JSON response")
    }

    /// The `result` of a call that must succeed.
    pub fn result(&self, path: &str, method: &str, params: Value) -> Value {
        let v = self.call(path, method, params);
        assert!(v.get("error").is_none(), "{method}: {v}");
        v["result"].clone()
    }

    /// `GET path`: status and body.
    pub fn get(&self, path: &str) -> (u16, String) {
        request(&self.addr, "GET", path, "")
    }

    /// Sends SIGTERM (as Ctrl-C or a service manager would) and waits for the exit.
    pub fn terminate(self) -> std::process::ExitStatus {
        self.0.terminate()
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        self.0.running()
    }

    /// Polls `f` until it returns true, for at most `secs` seconds.
    pub fn wait_until(&self, secs: u64, mut f: impl FnMut(&Self) -> bool) -> bool {
        poll_until(secs, || f(self))
    }
}

/// A minimal HTTP/1.1 POST with `Connection: close`; returns status and body.
pub fn post(addr: &str, path: &str, body: &str) -> (u16, String) {
    request(addr, "POST", path, body)
}

/// A minimal HTTP/1.1 request with `Connection: close`; returns status and body.
pub fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let r = http::request(addr, method, path, &[], body);
    (r.status, r.body)
}

/// The fixture's container lines: `(path, id)` in file order.
pub fn fixture_containers() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo_root().join("fixtures/devnet/containers.jsonl"))
        .expect("fixture");
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("line");
            (
                v["path"].as_str().unwrap().to_owned(),
                v["id"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// A temporary directory as a command-line argument.
pub fn dir_arg(dir: &Path) -> &str {
    dir.to_str().expect("utf-8 temp dir")
}

/// `node-rpc digest` of the data dir `dir`: every table's entry count and SHA-256, a line each.
pub fn digest(dir: &Path) -> Vec<String> {
    let text = run(&["digest", "--data-dir", dir_arg(dir)]);
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    assert!(lines.len() > 5, "{text}");
    lines
}
