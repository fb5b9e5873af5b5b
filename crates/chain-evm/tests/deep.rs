//! A call tree as deep as the EVM allows (1,024 calls below the root) derives without
//! overflowing a stack: a node double serves a block with one such tx.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use common::*;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use snowline_chain_evm::tables::*;
use snowline_store::ReadView;

const A: &str = "0x00000000000000000000000000000000000000aa";
const B: &str = "0x00000000000000000000000000000000000000bb";

/// A call tree with `below` frames nested under the root, every one moving 1 wei from A to B,
/// as text (a `serde_json::Value` this deep would itself recurse past a test thread's stack).
fn frames(below: usize) -> String {
    let head = format!(
        r#"{{"type":"CALL","from":"{A}","to":"{B}","value":"0x1","gas":"0x0","gasUsed":"0x0","input":"0x""#
    );
    let mut out = String::new();
    for _ in 0..below {
        out.push_str(&head);
        out.push_str(r#","calls":["#);
    }
    out.push_str(&head);
    out.push('}');
    for _ in 0..below {
        out.push_str("]}");
    }
    out
}

/// A JSON-RPC node answering `(method, params)` with fixed result text, batches included.
async fn node(answers: HashMap<(String, String), String>) -> String {
    let answers = Arc::new(answers);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let answers = Arc::clone(&answers);
            let svc = service_fn(move |req: Request<hyper::body::Incoming>| {
                let answers = Arc::clone(&answers);
                async move {
                    let body = req.into_body().collect().await.unwrap().to_bytes();
                    let v: Value = serde_json::from_slice(&body).unwrap();
                    let one = |c: &Value| {
                        let key = (
                            c["method"].as_str().unwrap().to_owned(),
                            c["params"].to_string(),
                        );
                        match answers.get(&key) {
                            Some(r) => {
                                format!(r#"{{"jsonrpc":"2.0","id":{},"result":{r}}}"#, c["id"])
                            }
                            None => format!(
                                r#"{{"jsonrpc":"2.0","id":{},"error":{{"code":-32000,"message":"unknown"}}}}"#,
                                c["id"]
                            ),
                        }
                    };
                    let out = match &v {
                        Value::Array(calls) => {
                            format!("[{}]", calls.iter().map(one).collect::<Vec<_>>().join(","))
                        }
                        call => one(call),
                    };
                    Ok::<_, Infallible>(Response::new(Full::new(Bytes::from(out))))
                }
            });
            tokio::spawn(http1::Builder::new().serve_connection(TokioIo::new(stream), svc));
        }
    });
    format!("http://{addr}/")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deepest_call_tree_derives() {
    let h = |n: u8| format!("0x{}", format!("{n:02x}").repeat(32));
    let tx = h(0x77);
    let block = |n: u64, parent: String, hash: String, txs: Value| {
        json!({"number": format!("{n:#x}"), "hash": hash, "parentHash": parent,
            "timestamp": "0x10", "miner": A, "gasLimit": "0x1000000", "gasUsed": "0x5208",
            "transactions": txs})
    };
    let t = json!({"hash": tx, "nonce": "0x0", "from": A, "to": B, "value": "0x1",
        "gas": "0x100000", "input": "0x", "type": "0x0", "gasPrice": "0x1"});
    let receipt = json!({"transactionHash": tx, "transactionIndex": "0x0", "blockHash": h(2),
        "blockNumber": "0x1", "from": A, "to": B, "gasUsed": "0x5208",
        "cumulativeGasUsed": "0x5208", "effectiveGasPrice": "0x1", "logs": [], "status": "0x1"});
    let tracer = json!({"tracer": "callTracer"});
    let mut answers = HashMap::new();
    let mut put = |method: &str, params: Value, result: String| {
        answers.insert((method.to_owned(), params.to_string()), result);
    };
    put("eth_chainId", json!([]), json!("0x7").to_string());
    put("eth_blockNumber", json!([]), json!("0x1").to_string());
    put("eth_getBlockReceipts", json!(["0x0"]), "[]".into());
    put(
        "debug_traceBlockByNumber",
        json!(["0x0", tracer]),
        "[]".into(),
    );
    put(
        "eth_getBlockByNumber",
        json!(["0x0", true]),
        block(0, h(0), h(1), json!([])).to_string(),
    );
    put(
        "eth_getBlockByNumber",
        json!(["0x1", true]),
        block(1, h(1), h(2), json!([t])).to_string(),
    );
    put(
        "eth_getBlockReceipts",
        json!(["0x1"]),
        json!([receipt]).to_string(),
    );
    put(
        "debug_traceBlockByNumber",
        json!(["0x1", tracer]),
        format!(r#"[{{"txHash":"{tx}","result":{}}}]"#, frames(1024)),
    );
    put(
        "eth_getBalance",
        json!([A, "0x1"]),
        json!("0x5").to_string(),
    );
    put(
        "eth_getBalance",
        json!([B, "0x1"]),
        json!("0x6").to_string(),
    );
    let url = node(answers).await;

    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    assert_eq!(sync_to(&store, &url, 2, 1).await.unwrap(), 2);
    let rows = store
        .get::<EvTxParts>(&(7, 1, 0))
        .unwrap()
        .unwrap()
        .0
        .internals;
    assert_eq!(rows.len(), 1025);
    assert!(rows.iter().enumerate().all(|(i, r)| r.depth as usize == i));
    let mut b = [0u8; 20];
    b[19] = 0xbb;
    let balance = store.get::<EvNative>(&(7, b, 1)).unwrap().unwrap();
    assert_eq!(balance[31], 6);
}
