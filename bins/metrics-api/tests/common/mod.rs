//! Starting the real `metrics-api` binary on port 0 over a test's index and talking HTTP to it.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use snowline_test_support::http::request;
use snowline_test_support::service::Service;

pub mod evm;
pub mod index;
pub mod pchain;

/// A running `metrics-api serve`, killed on drop; `get` answers status and JSON.
pub struct MetricsApi(Service);

impl std::ops::Deref for MetricsApi {
    type Target = Service;

    fn deref(&self) -> &Service {
        &self.0
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
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_metrics-api"));
    cmd.arg("serve")
        .args(["--index-dir", index_dir.to_str().unwrap()])
        .args(["--data-dir", data_dir.to_str().unwrap()])
        .args(["--listen", "127.0.0.1:0"])
        .args(args);
    MetricsApi(Service::start(cmd))
}

impl MetricsApi {
    /// `GET path`: the status and the JSON body.
    pub fn get(&self, path: &str) -> (u16, Value) {
        self.get_with(path, "")
    }

    /// `GET path` with `headers` (`name: value\r\n` lines): the status and the JSON body
    /// (`null` when the body is not JSON).
    pub fn get_with(&self, path: &str, headers: &str) -> (u16, Value) {
        let headers: Vec<(&str, &str)> = headers
            .lines()
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim(), v.trim()))
            .collect();
        let r = request(&self.addr, "GET", path, &headers, "");
        (
            r.status,
            serde_json::from_str(&r.body).unwrap_or(Value::Null),
        )
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
