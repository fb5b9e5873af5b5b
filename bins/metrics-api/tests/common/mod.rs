//! Starting the real `metrics-api` binary on port 0 over a test's index and talking HTTP to it.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

pub mod evm;
pub mod index;
pub mod pchain;

/// A running `metrics-api serve`, killed on drop.
pub struct MetricsApi {
    child: Child,
    pub addr: String,
}

impl Drop for MetricsApi {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `metrics-api serve` over the index in `dir/data-api`, its own data in `dir/metrics-api`,
/// with `args` added; returns once it says where it listens.
pub fn start(dir: &Path, args: &[&str]) -> MetricsApi {
    start_in(&dir.join("data-api"), &dir.join("metrics-api"), args)
}

/// `metrics-api serve` over the index in `index_dir` (data-api's data dir), its own data in
/// `data_dir`, with `args` added; returns once it says where it listens.
pub fn start_in(index_dir: &Path, data_dir: &Path, args: &[&str]) -> MetricsApi {
    let mut child = Command::new(env!("CARGO_BIN_EXE_metrics-api"))
        .arg("serve")
        .args(["--index-dir", index_dir.to_str().unwrap()])
        .args(["--data-dir", data_dir.to_str().unwrap()])
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines.next().unwrap().unwrap();
    // Keep reading what it prints, so its stdout never breaks.
    std::thread::spawn(move || lines.for_each(drop));
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    MetricsApi { child, addr }
}

impl MetricsApi {
    /// `GET path`: the status and the JSON body.
    pub fn get(&self, path: &str) -> (u16, Value) {
        self.get_with(path, "")
    }

    /// `GET path` with `headers` (`name: value\r\n` lines).
    pub fn get_with(&self, path: &str, headers: &str) -> (u16, Value) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {}\r\n{headers}Connection: close\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut raw = String::new();
        s.read_to_string(&mut raw).unwrap();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap();
        let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }

    /// Every point of a series, following `nextPageToken` (the path has a query string).
    pub fn series(&self, path: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let p = match &token {
                Some(t) => format!("{path}&pageToken={t}"),
                None => path.to_owned(),
            };
            let (status, v) = self.get(&p);
            assert_eq!(status, 200, "{p}: {v}");
            out.extend(v["results"].as_array().unwrap().iter().cloned());
            match v.get("nextPageToken") {
                Some(t) => token = Some(t.as_str().unwrap().to_owned()),
                None => return out,
            }
        }
    }
}
