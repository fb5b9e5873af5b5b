//! Batches against a server that answers them as real nodes may: out of order, with per-call
//! errors, with a call left out, or with one error object for the whole batch.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::convert::Infallible;
use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use snowline_jsonrpc_client::{ClientError, RpcClient};

/// Answers each call of a batch in reverse order: `echo` returns its params, `fail` an error
/// object, `skip` nothing; a batch holding `refuse` is refused as a whole.
async fn answer(req: Request<hyper::body::Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let body = req.into_body().collect().await.map(|b| b.to_bytes());
    let calls: Vec<Value> = body
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let out = if calls.iter().any(|c| c["method"] == "refuse") {
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "batch too large"}})
    } else {
        let each: Vec<Value> = calls
            .iter()
            .rev()
            .filter(|c| c["method"] != "skip")
            .map(|c| match c["method"].as_str() {
                Some("fail") => json!({"jsonrpc": "2.0", "id": c["id"], "error": {"code": -32601, "message": "the method fail does not exist/is not available", "data": {"x": 1}}}),
                _ => json!({"jsonrpc": "2.0", "id": c["id"], "result": c["params"]}),
            })
            .collect();
        Value::Array(each)
    };
    Ok(Response::new(Full::new(Bytes::from(out.to_string()))))
}

async fn serve() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(
                http1::Builder::new().serve_connection(TokioIo::new(stream), service_fn(answer)),
            );
        }
    });
    addr
}

#[tokio::test]
async fn batch_results_come_back_in_call_order() {
    let addr = serve().await;
    let c = RpcClient::new(&format!("http://{addr}/rpc")).unwrap();
    let calls = [
        ("echo", json!(["0x1", true])),
        ("fail", json!([])),
        ("echo", json!({"a": [1, 2]})),
        ("skip", json!([])),
        ("echo", json!(null)),
    ];
    let out = c.call_batch(&calls).await.unwrap();
    assert_eq!(out.len(), 5);
    let json =
        |i: usize| -> Value { serde_json::from_str(out[i].as_ref().unwrap().json()).unwrap() };
    assert_eq!(json(0), json!(["0x1", true]));
    assert_eq!(json(2), json!({"a": [1, 2]}));
    assert_eq!(out[4].as_ref().unwrap().json(), "null");
    match &out[1] {
        Err(ClientError::Rpc { code, data, .. }) => {
            assert_eq!((*code, data.as_deref()), (-32601, Some(r#"{"x":1}"#)));
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(matches!(&out[3], Err(ClientError::Decode(m)) if m.contains("no answer")));
    // A second batch on the same client: its ids follow the first's.
    let again = c.call_batch(&[("echo", json!(7))]).await.unwrap();
    assert_eq!(again[0].as_ref().unwrap().json(), "7");
    assert!(c.call_batch::<Value>(&[]).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_batch_refused_as_a_whole_is_one_error() {
    let addr = serve().await;
    let c = RpcClient::new(&format!("http://{addr}/rpc")).unwrap();
    match c
        .call_batch(&[("echo", json!(1)), ("refuse", json!(2))])
        .await
    {
        Err(ClientError::Rpc { code, message, .. }) => {
            assert_eq!((code, message.as_str()), (-32600, "batch too large"));
        }
        other => panic!("unexpected {other:?}"),
    }
}
