//! A minimal HTTP/1.1 client for the tools that drive the services (one request per
//! connection, `Connection: close`), so xtask needs no HTTP dependency.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Sends `method path` with an optional JSON body to `addr` (`host:port`); returns the status
/// and the body.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<(u16, String), String> {
    let mut s = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    let body = body.unwrap_or("");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| format!("{method} {path}: {e}"))?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)
        .map_err(|e| format!("{method} {path}: {e}"))?;
    let raw = String::from_utf8_lossy(&raw);
    let (head, rest) = raw
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("{method} {path}: no HTTP header"))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("{method} {path}: no status"))?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    Ok((
        status,
        if chunked {
            dechunk(rest)
        } else {
            rest.to_owned()
        },
    ))
}

/// A JSON-RPC call's `result`, or why there is none.
pub fn rpc(
    addr: &str,
    path: &str,
    method: &str,
    params: serde_json::Value,
) -> Result<serde_json::Value, String> {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let (status, text) = request(addr, "POST", path, Some(&body.to_string()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{method}: HTTP {status}: {e}"))?;
    match v.get("result") {
        Some(r) if !r.is_null() => Ok(r.clone()),
        _ => Err(format!("{method}: {}", v["error"])),
    }
}

fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail.get(n + 2..).unwrap_or("");
    }
    out
}
