//! A minimal HTTP/1.1 client for tests: one request per connection (`Connection: close`), the
//! answer read to its end, so a test sees exactly the bytes the server wrote.

#![allow(clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

/// One HTTP response: status, headers in order, and the body (de-chunked).
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, names as sent.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub body: String,
}

impl Response {
    /// The body as JSON; the test fails when it is not.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    /// A header's value (names compared case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Asserts the REST services' error body for `status` (`statusCode`, `error`, `message`
    /// and nothing else) and returns its message.
    pub fn error(&self, status: u16, reason: &str) -> String {
        assert_eq!(self.status, status, "{}", self.body);
        let v = self.json();
        assert_eq!(v["statusCode"], status, "{v}");
        assert_eq!(v["error"], reason, "{v}");
        assert_eq!(v.as_object().map(|o| o.len()), Some(3), "{v}");
        v["message"].as_str().expect("message string").to_owned()
    }
}

/// `method path` on `addr` with extra `headers`; a POST or a non-empty body is sent as JSON.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Response {
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (n, v) in headers {
        req.push_str(&format!("{n}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(body);
    exchange(addr, req.as_bytes())
}

/// Sends `bytes` on a new connection and reads the answer to its end (the server closes). A
/// write cut short is not a failure: the server may answer and close before reading it all.
pub fn exchange(addr: &str, bytes: &[u8]) -> Response {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let _ = s.write_all(bytes);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let chunked = headers.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Response {
        status,
        headers,
        body,
    }
}

/// The payload of a chunked body (sizes in hex, each chunk followed by CRLF, a zero chunk last).
fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).expect("chunk size");
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::dechunk;

    #[test]
    fn dechunks_as_rfc_9112_section_7_1_writes_it() {
        assert_eq!(
            dechunk("4\r\nWiki\r\n6\r\npedia \r\n0\r\n\r\n"),
            "Wikipedia "
        );
        assert_eq!(dechunk("0\r\n\r\n"), "");
    }
}
