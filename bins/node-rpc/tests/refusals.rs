//! Requests refused before a JSON-RPC call is read (head or URI too large, body too large, wrong
//! content type or method, not HTTP/1.1), through the real binary under both profiles: the spec's
//! answers a JSON-RPC error object stating the limit, avalanchego's Go's plain text, each with
//! the same HTTP status. The head limit is the one given with `--max-header-bytes`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::start;
use serde_json::Value;

/// Sends `raw` bytes and returns (status, content type, body) of the answer.
fn exchange(addr: &str, raw: &[u8]) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    // The server may answer and close before reading everything; a failed write is fine.
    let _ = s.write_all(raw);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    let content_type = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-type")
                .then(|| v.trim().to_owned())
        })
        .unwrap_or_default();
    (status, content_type, body.to_owned())
}

/// The refusals to provoke: (what, request bytes, status, words the answer must contain).
fn cases(addr: &str) -> Vec<(&'static str, Vec<u8>, u16, &'static str)> {
    let post = |extra: &str, body: &str| {
        format!(
            "POST /ext/bc/X HTTP/1.1\r\nHost: {addr}\r\n{extra}Content-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    };
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"avm.getHeight","params":{}}"#;
    vec![
        (
            "head over --max-header-bytes",
            post(
                &format!(
                    "Content-Type: application/json\r\nX-Pad: {}\r\n",
                    "a".repeat(140_000)
                ),
                call,
            ),
            431,
            "131072",
        ),
        (
            "URI over 65534 bytes",
            format!(
                "POST /ext/bc/X?{} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n",
                "a".repeat(70_000)
            )
            .into_bytes(),
            414,
            "65534",
        ),
        (
            "body over 1 MiB",
            format!(
                "POST /ext/bc/X HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
                 Content-Length: 2000000\r\nConnection: close\r\n\r\n"
            )
            .into_bytes(),
            413,
            "1048576",
        ),
        (
            "content type",
            post("Content-Type: text/plain\r\n", call),
            415,
            "Content-Type",
        ),
        (
            "method",
            format!("GET /ext/bc/X HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
                .into_bytes(),
            405,
            "POST",
        ),
        (
            "not HTTP/1.1",
            b"GARBAGE \xff\xfe\r\n\r\n".to_vec(),
            400,
            "HTTP/1.1",
        ),
    ]
}

#[test]
fn refusals_follow_the_profile() {
    for compat in ["spec", "avalanchego"] {
        let dir = tempfile::tempdir().unwrap();
        let node = start(&[
            "serve",
            "--data-dir",
            dir.path().to_str().unwrap(),
            "--compat",
            compat,
            "--max-header-bytes",
            "131072",
        ]);
        for (what, raw, status, needle) in cases(&node.addr) {
            let (got, content_type, body) = exchange(&node.addr, &raw);
            assert_eq!(got, status, "{compat} {what}: {body}");
            assert!(body.contains(needle), "{compat} {what}: {body}");
            if compat == "spec" {
                assert!(
                    content_type.starts_with("application/json"),
                    "{compat} {what}: {content_type}"
                );
                let v: Value = serde_json::from_str(&body)
                    .unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {body}"));
                assert_eq!(v["jsonrpc"], "2.0", "{what}: {body}");
                assert_eq!(v["id"], Value::Null, "{what}: {body}");
                assert_eq!(v["error"]["code"], -32600, "{what}: {body}");
                assert!(
                    v["error"]["message"].as_str().unwrap().contains(needle),
                    "{what}: {body}"
                );
            } else {
                assert!(
                    content_type.starts_with("text/plain"),
                    "{compat} {what}: {content_type}"
                );
                assert!(
                    serde_json::from_str::<Value>(&body).is_err(),
                    "{what}: {body}"
                );
            }
        }
        // A valid call still works after all that.
        let h = node.result("/ext/bc/X", "avm.getHeight", serde_json::json!({}));
        assert!(h["height"].is_string(), "{compat}: {h}");
    }
}
