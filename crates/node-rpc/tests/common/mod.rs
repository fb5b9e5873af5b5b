//! Shared helpers: a temp store with the index tables, synthetic containers, an in-process
//! server on 127.0.0.1:0 and a raw HTTP POST.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;

use snowline_jsonrpc::{Router, Server, ServerConfig};
use snowline_node_index::{ContainerIds, Containers, IndexWriter, tables};
use snowline_node_rpc::{Compat, index_routes};
use snowline_store::{Direction, ReadView, Schema, Store, WriteBatch};
use snowline_types::Id;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::hashing::sha256;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub fn schema() -> Schema {
    tables()
        .into_iter()
        .fold(Schema::new(1), |s, t| s.with_spec(t))
}

pub fn open(dir: &std::path::Path) -> Store {
    Store::open(dir, &schema()).unwrap()
}

/// A synthetic container `i` of `path` whose id follows the path's rule (sha256 of the bytes).
pub fn record(path: IndexPath, i: u64) -> ContainerRecord {
    let bytes = format!("{path} synthetic container {i}").into_bytes();
    ContainerRecord {
        path,
        id: Id(sha256(&bytes)),
        bytes,
        timestamp_ns: 1_650_000_000_000_000_000 + i64::try_from(i).unwrap() * 1_000_000_100,
    }
}

/// Appends `records` with the index writer, one batch.
pub fn fill(store: &Store, records: &[ContainerRecord]) {
    let mut w = IndexWriter::open(store).unwrap();
    let mut batch = WriteBatch::new();
    for r in records {
        w.stage(store, &mut batch, r).unwrap();
    }
    w.write(store, &batch).unwrap();
}

/// Every row of both index tables.
pub fn dump(store: &Store) -> Vec<String> {
    let mut rows: Vec<String> = store
        .scan::<Containers, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| format!("{:?}", e.unwrap()))
        .collect();
    rows.extend(
        store
            .scan::<ContainerIds, _>(.., Direction::Forward)
            .unwrap()
            .map(|e| format!("{:?}", e.unwrap())),
    );
    rows
}

/// A running server; stops when dropped.
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

impl Running {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

pub async fn serve(store: Arc<Store>, compat: Compat) -> Running {
    let router = index_routes(
        Router::new(),
        &snowline_node_index::ContainerIndex::new(store),
        compat,
    );
    let server = Server::bind(
        "127.0.0.1:0".parse().unwrap(),
        router,
        ServerConfig::default(),
    )
    .await
    .unwrap();
    let addr = server.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.run_until(async {
        let _ = rx.await;
    }));
    Running {
        addr,
        stop: Some(tx),
    }
}

/// POSTs `body` to `path` and returns (status, body).
pub async fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_owned())
}

/// Calls `method` with `params` (JSON text) at `/ext/index/<path>`; returns the body.
pub async fn call(addr: SocketAddr, path: IndexPath, method: &str, params: &str) -> String {
    let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#);
    let (status, body) = post(addr, &format!("/ext/index/{path}"), &body).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// The body of a success with `result` (compact JSON).
pub fn ok(result: &str) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"result\":{result},\"id\":1}}\n")
}

/// The body of a -32000 error with `message` (escaped HTML-safe, as Go's `json.Encoder` does).
pub fn err(message: &str) -> String {
    let message = message
        .replace('&', "\\u0026")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e");
    format!(
        "{{\"jsonrpc\":\"2.0\",\"error\":{{\"code\":-32000,\"message\":\"{message}\",\"data\":null}},\"id\":1}}\n"
    )
}
