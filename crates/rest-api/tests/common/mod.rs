//! Test helpers: a real server on port 0 and a raw HTTP/1.1 client over TCP.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use snowline_rest_api::{App, RestError, Server, ServerConfig};
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A running server and the means to stop it.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    pub handle: JoinHandle<Result<(), RestError>>,
}

impl TestServer {
    /// Triggers graceful shutdown.
    pub fn stop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

/// Serves `app` on 127.0.0.1:0.
pub async fn spawn(app: App, config: ServerConfig) -> TestServer {
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), app, config)
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    let handle = tokio::spawn(server.run_until(async {
        let _ = rx.await;
    }));
    TestServer {
        addr,
        stop: Some(tx),
        handle,
    }
}

/// A parsed response.
#[derive(Debug, Clone)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Resp {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("body is not JSON ({e}): {:?}", self.body))
    }
}

/// Reads one response from `stream`; `None` if the connection closed first.
pub async fn read_response(stream: &mut TcpStream) -> Option<Resp> {
    read_answer(stream, false).await
}

/// Reads one response; a HEAD answer (`head`) has no body whatever its length says.
pub async fn read_answer(stream: &mut TcpStream, is_head: bool) -> Option<Resp> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8(buf[..head_end].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter(|l| !l.is_empty())
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let len: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map_or(0, |(_, v)| v.parse().unwrap());
    let len = if is_head { 0 } else { len };
    let mut body = buf[head_end..].to_vec();
    while body.len() < len {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Resp {
        status,
        headers,
        body: String::from_utf8(body).unwrap(),
    })
}

/// Builds a request with `Host` and `Content-Length`; `extra` headers as `name: value`.
pub fn request(method: &str, path: &str, extra: &[(&str, &str)], body: &str) -> String {
    let mut r = format!("{method} {path} HTTP/1.1\r\nhost: test\r\n");
    for (n, v) in extra {
        r.push_str(&format!("{n}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        r.push_str(&format!("content-length: {}\r\n", body.len()));
    }
    r.push_str("\r\n");
    r.push_str(body);
    r
}

/// Sends one request on a fresh connection and reads the answer.
pub async fn send(addr: SocketAddr, raw: &str) -> Resp {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(raw.as_bytes()).await.unwrap();
    read_answer(&mut s, raw.starts_with("HEAD "))
        .await
        .expect("no response")
}

/// `GET path` with headers, on a fresh connection.
pub async fn get(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Resp {
    send(addr, &request("GET", path, headers, "")).await
}

/// Asserts the spec's error body shape for `status` and returns the message.
pub fn assert_error(resp: &Resp, status: u16, error: &str) -> serde_json::Value {
    assert_eq!(resp.status, status, "{resp:?}");
    assert_eq!(resp.header("content-type"), Some("application/json"));
    let v = resp.json();
    let obj = v.as_object().unwrap();
    assert_eq!(obj.len(), 3, "{v}");
    assert_eq!(v["statusCode"], status);
    assert_eq!(v["error"], error);
    v["message"].clone()
}
