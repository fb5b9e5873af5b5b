//! Shared test fixture: a toy `avm` service on 127.0.0.1:0 and a raw HTTP helper.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde::{Deserialize, Serialize};
use snowline_jsonrpc::{
    Endpoint, JsonU64, RequestContext, Router, RpcError, Server, ServerConfig, Service,
};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct GetTxArgs {
    #[serde(rename = "txID")]
    pub tx_id: String,
    pub encoding: String,
}

#[derive(Debug, Serialize)]
pub struct GetTxReply {
    pub tx: String,
    pub encoding: String,
}

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct HeightArgs {
    pub height: JsonU64,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SleepArgs {
    pub ms: u64,
}

/// Signalled when `avm.sleepNotify` starts (used only by the shutdown test).
pub static ENTERED: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// Signalled when `avm.sleepBusy` starts (used only by the connection-cap test).
pub static BUSY: tokio::sync::Notify = tokio::sync::Notify::const_new();

pub fn endpoint() -> Endpoint {
    let avm = Service::new("avm")
        .method("getTx", |_: &RequestContext, a: GetTxArgs| {
            if a.tx_id.is_empty() {
                return Err(RpcError::server("nil transaction ID"));
            }
            Ok(GetTxReply {
                tx: a.tx_id,
                encoding: a.encoding,
            })
        })
        .method("echoHeight", |_: &RequestContext, a: HeightArgs| {
            Ok::<_, RpcError>(a)
        })
        .method("html", |_: &RequestContext, _: ()| {
            Ok::<_, RpcError>("<a&b>")
        })
        .method("path", |c: &RequestContext, _: ()| {
            Ok::<_, RpcError>(c.parts.uri.path().to_owned())
        })
        .method_blocking("blocking", |_: &RequestContext, _: ()| {
            Ok::<_, RpcError>(42)
        })
        .method_async("sleepNotify", |_, a: SleepArgs| async move {
            ENTERED.notify_one();
            tokio::time::sleep(Duration::from_millis(a.ms)).await;
            Ok::<_, RpcError>("slept")
        })
        .method_async("sleepBusy", |_, a: SleepArgs| async move {
            BUSY.notify_one();
            tokio::time::sleep(Duration::from_millis(a.ms)).await;
            Ok::<_, RpcError>("slept")
        })
        .method_async("sleep", |_, a: SleepArgs| async move {
            tokio::time::sleep(Duration::from_millis(a.ms)).await;
            Ok::<_, RpcError>("slept")
        });
    Endpoint::new().service(avm)
}

pub struct Running {
    pub addr: SocketAddr,
    pub stop: Option<oneshot::Sender<()>>,
    pub task: JoinHandle<()>,
}

impl Running {
    pub async fn shutdown(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = self.task.await;
    }
}

pub async fn start_with(config: ServerConfig) -> Running {
    let ep = endpoint();
    let router = Router::new()
        .rpc("/ext/bc/X", ep.clone())
        .rpc("/ext/bc/avm", ep)
        .http("/healthz", |_req| async {
            snowline_jsonrpc::text_response(snowline_jsonrpc::hyper::StatusCode::OK, "ok")
        })
        .header(
            snowline_jsonrpc::hyper::header::HeaderName::from_static("node-id"),
            snowline_jsonrpc::hyper::header::HeaderValue::from_static("NodeID-test"),
        );
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), router, config)
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        server
            .run_until(async {
                let _ = rx.await;
            })
            .await
            .unwrap();
    });
    Running {
        addr,
        stop: Some(tx),
        task,
    }
}

pub async fn start() -> Running {
    start_with(ServerConfig::default()).await
}

/// A parsed raw HTTP/1.1 response.
#[derive(Debug)]
pub struct RawResponse {
    pub status: u16,
    /// Lower-cased header names with values.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl RawResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends raw bytes on a fresh connection (which the request asks to close) and parses the reply.
pub async fn raw(addr: SocketAddr, request: &[u8]) -> RawResponse {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    parse(&buf)
}

pub fn parse(buf: &[u8]) -> RawResponse {
    let text = String::from_utf8(buf.to_vec()).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .map(|l| {
            let (k, v) = l.split_once(':').unwrap();
            (k.trim().to_ascii_lowercase(), v.trim().to_owned())
        })
        .collect();
    RawResponse {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// A POST with the given content type (None = no header) and body.
pub fn post(path: &str, content_type: Option<&str>, body: &str) -> Vec<u8> {
    let ct = content_type
        .map(|c| format!("Content-Type: {c}\r\n"))
        .unwrap_or_default();
    format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{ct}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// POSTs JSON to `/ext/bc/X` and returns the parsed reply.
pub async fn rpc(addr: SocketAddr, body: &str) -> RawResponse {
    raw(addr, &post("/ext/bc/X", Some("application/json"), body)).await
}
