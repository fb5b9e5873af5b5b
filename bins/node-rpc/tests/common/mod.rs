//! Starting the real `node-rpc` binary on port 0 and talking HTTP to it.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A running `node-rpc`, killed on drop.
pub struct NodeRpc {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// Its "listening on" line.
    pub listening: String,
    /// What it has written on stderr so far, a line each.
    stderr: Arc<Mutex<Vec<String>>>,
}

impl Drop for NodeRpc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_node-rpc"))
        .args(args)
        .args(["--listen", listen])
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn node-rpc");
    let stderr = child.stderr.take().expect("stderr");
    let said = Arc::new(Mutex::new(Vec::new()));
    // Drain stderr for the whole life of the child, so it never blocks on a full pipe.
    let kept = Arc::clone(&said);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let (addr, listening) = loop {
        let Some(line) = lines.next() else {
            let _ = child.wait();
            // The drain thread ends with the child's stderr; give it a moment to store the rest.
            std::thread::sleep(Duration::from_millis(100));
            panic!(
                "node-rpc {args:?} exited before listening; stderr:\n{}",
                said.lock().unwrap().join("\n")
            );
        };
        let line = line.expect("read stdout");
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break (
                rest.split_whitespace().next().expect("address").to_owned(),
                line,
            );
        }
    };
    // Keep draining stdout so the child never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    NodeRpc {
        child,
        addr,
        listening,
        stderr: said,
    }
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

    /// The first line written on stderr so far that contains `needle`.
    pub fn stderr_line(&self, needle: &str) -> Option<String> {
        self.stderr_lines(needle).into_iter().next()
    }

    /// Every line written on stderr so far that contains `needle`.
    pub fn stderr_lines(&self, needle: &str) -> Vec<String> {
        let lines = self.stderr.lock().unwrap();
        lines
            .iter()
            .filter(|l| l.contains(needle))
            .cloned()
            .collect()
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// `GET path`: status and body.
    pub fn get(&self, path: &str) -> (u16, String) {
        request(&self.addr, "GET", path, "")
    }

    /// Sends SIGTERM (as Ctrl-C or a service manager would) and waits for the exit.
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -TERM {pid}");
        self.child.wait().expect("wait for node-rpc")
    }

    /// Polls `f` until it returns true, for at most `secs` seconds.
    pub fn wait_until(&self, secs: u64, mut f: impl FnMut(&Self) -> bool) -> bool {
        let end = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < end {
            if f(self) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        false
    }
}

/// A minimal HTTP/1.1 POST with `Connection: close`; returns status and body.
pub fn post(addr: &str, path: &str, body: &str) -> (u16, String) {
    request(addr, "POST", path, body)
}

/// A minimal HTTP/1.1 request with `Connection: close`; returns status and body.
pub fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("write");
    let mut raw = String::new();
    s.read_to_string(&mut raw).expect("read");
    let status = raw
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("status");
    let body = raw.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (status, dechunk(&raw, body))
}

fn dechunk(head: &str, body: &str) -> String {
    if !head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return body.to_owned();
    }
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    out
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
