//! The EVM source against a node double that serves what real nodes serve in each of their
//! forms: block methods or only per-tx ones, tracing or none, failures before answering.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use snowline_chain_evm::source::{
    Capabilities, EvmSource, FetchedBlock, PerBlock, SourceConfig, SourceError, Tracing,
};

/// What the double serves.
#[derive(Clone, Copy)]
struct Node {
    blocks: u64,
    block_receipts: bool,
    tracing: Tracing,
    /// HTTP requests answered 503 before any is served.
    fail_first: usize,
}

/// Tx `i` of block `n`.
fn tx_hash(n: u64, i: u64) -> String {
    format!("0x{n:032x}{i:032x}")
}

fn txs(n: u64) -> u64 {
    n % 4
}

fn missing(method: &str) -> Value {
    json!({"code": -32601, "message": format!("the method {method} does not exist/is not available")})
}

fn answer_call(node: Node, call: &Value) -> Value {
    let method = call["method"].as_str().unwrap_or_default();
    let p = &call["params"];
    let number =
        || u64::from_str_radix(p[0].as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    let result: Result<Value, Value> = match method {
        "eth_chainId" => Ok(json!("0xa868")),
        "eth_blockNumber" => Ok(json!(format!("{:#x}", node.blocks - 1))),
        "eth_getBlockByNumber" => {
            let n = number();
            assert_eq!(p[1], json!(true), "full txs");
            Ok(if n < node.blocks {
                let list: Vec<Value> = (0..txs(n))
                    .map(|i| json!({"hash": tx_hash(n, i), "nonce": "0x0"}))
                    .collect();
                json!({"number": format!("{n:#x}"), "transactions": list})
            } else {
                Value::Null
            })
        }
        "eth_getBlockReceipts" if node.block_receipts => {
            let n = number();
            Ok(json!(
                (0..txs(n))
                    .map(|i| json!({"transactionHash": tx_hash(n, i)}))
                    .collect::<Vec<_>>()
            ))
        }
        "eth_getTransactionReceipt" => Ok(json!({"transactionHash": p[0]})),
        "debug_traceBlockByNumber" if node.tracing == Tracing::Block => {
            let n = number();
            assert_eq!(p[1]["tracer"], "callTracer");
            if n == 0 {
                Err(json!({"code": -32000, "message": "genesis is not traceable"}))
            } else {
                Ok(json!(
                    (0..txs(n))
                        .map(|i| json!({"txHash": tx_hash(n, i), "result": {"type": "CALL"}}))
                        .collect::<Vec<_>>()
                ))
            }
        }
        "debug_traceTransaction" if node.tracing != Tracing::None => {
            assert_eq!(p[1]["tracer"], "callTracer");
            Ok(json!({"type": "CALL", "input": p[0]}))
        }
        other => Err(missing(other)),
    };
    match result {
        Ok(r) => json!({"jsonrpc": "2.0", "id": call["id"], "result": r}),
        Err(e) => json!({"jsonrpc": "2.0", "id": call["id"], "error": e}),
    }
}

async fn serve(node: Node) -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let requests = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&requests);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let seen = Arc::clone(&seen);
            let svc = service_fn(move |req: Request<hyper::body::Incoming>| {
                let seen = Arc::clone(&seen);
                async move {
                    let k = seen.fetch_add(1, Ordering::SeqCst);
                    let body = req.into_body().collect().await.unwrap().to_bytes();
                    if k < node.fail_first {
                        let mut r = Response::new(Full::new(Bytes::from_static(b"busy")));
                        *r.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
                        return Ok::<_, Infallible>(r);
                    }
                    let v: Value = serde_json::from_slice(&body).unwrap();
                    let out = match v {
                        Value::Array(calls) => {
                            Value::Array(calls.iter().rev().map(|c| answer_call(node, c)).collect())
                        }
                        call => answer_call(node, &call),
                    };
                    Ok(Response::new(Full::new(Bytes::from(out.to_string()))))
                }
            });
            tokio::spawn(http1::Builder::new().serve_connection(TokioIo::new(stream), svc));
        }
    });
    (addr, requests)
}

fn config() -> SourceConfig {
    SourceConfig {
        blocks_per_batch: 3,
        in_flight: 2,
        retry_initial: Duration::from_millis(1),
        retry_max: Duration::from_millis(4),
        max_attempts: 5,
        call_timeout: Duration::from_secs(10),
    }
}

fn hashes_in(v: &PerBlock, key: &str) -> Vec<String> {
    let list: Vec<Value> = match v {
        PerBlock::Block(raw) => serde_json::from_str(raw.json()).unwrap(),
        PerBlock::PerTx(raws) => raws
            .iter()
            .map(|r| serde_json::from_str(r.json()).unwrap())
            .collect(),
    };
    list.iter()
        .map(|x| x.pointer(key).and_then(Value::as_str).unwrap().to_owned())
        .collect()
}

/// Every block of the node, through the pipelined stream.
async fn read_all(source: &Arc<EvmSource>, blocks: u64) -> Vec<FetchedBlock> {
    let mut rx = source.stream(0, blocks - 1);
    let mut out = Vec::new();
    while let Some(batch) = rx.recv().await {
        out.extend(batch.unwrap());
    }
    out
}

#[tokio::test]
async fn every_form_of_node_yields_every_block_in_order_and_complete() {
    let forms = [
        (true, Tracing::Block),
        (true, Tracing::PerTx),
        (false, Tracing::Block),
        (false, Tracing::None),
    ];
    for (block_receipts, tracing) in forms {
        let node = Node {
            blocks: 23,
            block_receipts,
            tracing,
            fail_first: 0,
        };
        let (addr, _) = serve(node).await;
        let source = Arc::new(EvmSource::new(&format!("http://{addr}/rpc"), config()).unwrap());
        assert_eq!(source.chain_id().await.unwrap(), 43112);
        assert_eq!(source.tip().await.unwrap(), 22);
        assert_eq!(
            source.capabilities().await.unwrap(),
            Capabilities {
                block_receipts,
                tracing
            }
        );
        let got = read_all(&source, node.blocks).await;
        assert_eq!(
            got.iter().map(|b| b.number).collect::<Vec<_>>(),
            (0..23).collect::<Vec<_>>()
        );
        for b in &got {
            let want: Vec<String> = (0..txs(b.number)).map(|i| tx_hash(b.number, i)).collect();
            let block: Value = serde_json::from_str(b.block.json()).unwrap();
            assert_eq!(block["number"], json!(format!("{:#x}", b.number)));
            assert_eq!(hashes_in(&b.receipts, "/transactionHash"), want);
            assert_eq!(matches!(b.receipts, PerBlock::Block(_)), block_receipts);
            match (&b.traces, tracing) {
                // Genesis: no txs, nothing traced (geth refuses to trace it).
                (Some(PerBlock::PerTx(t)), Tracing::Block) if b.number == 0 => {
                    assert!(t.is_empty())
                }
                (Some(t @ PerBlock::Block(_)), Tracing::Block) => {
                    assert_eq!(hashes_in(t, "/txHash"), want)
                }
                (Some(t @ PerBlock::PerTx(_)), Tracing::PerTx) => {
                    assert_eq!(hashes_in(t, "/input"), want)
                }
                (None, Tracing::None) => {}
                (t, _) => panic!(
                    "block {}: traces {t:?} from a node tracing {tracing:?}",
                    b.number
                ),
            }
        }
    }
}

#[tokio::test]
async fn failures_are_retried_then_reported() {
    let node = Node {
        blocks: 10,
        block_receipts: true,
        tracing: Tracing::Block,
        fail_first: 3,
    };
    let (addr, requests) = serve(node).await;
    let source = Arc::new(EvmSource::new(&format!("http://{addr}/rpc"), config()).unwrap());
    let got = read_all(&source, node.blocks).await;
    assert_eq!(got.len(), 10);
    assert!(requests.load(Ordering::SeqCst) > 3);

    // A node that never recovers: the error names the calls and the attempts.
    let down = Node {
        fail_first: usize::MAX,
        ..node
    };
    let (addr, _) = serve(down).await;
    let source = EvmSource::new(&format!("http://{addr}/rpc"), config()).unwrap();
    match source.tip().await {
        Err(SourceError::Call { what, attempts, .. }) => {
            assert_eq!((what.as_str(), attempts), ("eth_blockNumber", 5))
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[tokio::test]
async fn a_block_past_the_tip_is_an_error_not_an_empty_block() {
    let node = Node {
        blocks: 4,
        block_receipts: true,
        tracing: Tracing::None,
        fail_first: 0,
    };
    let (addr, _) = serve(node).await;
    let source = EvmSource::new(&format!("http://{addr}/rpc"), config()).unwrap();
    match source.fetch(3, 2).await {
        Err(SourceError::Answer(m)) => assert_eq!(m, "block 4 is not on the node"),
        other => panic!("unexpected {other:?}"),
    }
}

/// Against the devnet's recording of a real anvil (`fixtures/evm/devnet/`): every block, its
/// receipts and its traces come back exactly as anvil answered them.
#[tokio::test]
async fn reads_the_recorded_anvil_chain_exactly() {
    use snowline_evm_devnet::{C_CHAIN_ID, Recording, recording_path, serve as replay};
    let recording = Arc::new(Recording::load(&recording_path(C_CHAIN_ID)).unwrap());
    let head = recording.head().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(replay(listener, Arc::clone(&recording)));
    let source = Arc::new(EvmSource::new(&format!("http://{addr}/"), config()).unwrap());
    assert_eq!(source.chain_id().await.unwrap(), C_CHAIN_ID);
    assert_eq!(source.tip().await.unwrap(), head);
    let recorded = |method: &str, params: Value| -> Value {
        serde_json::from_str(&recording.answer(method, &params).unwrap()).unwrap()
    };
    let got = read_all(&source, head + 1).await;
    assert_eq!(got.len() as u64, head + 1);
    let mut txs = 0;
    for b in &got {
        let n = json!(format!("{:#x}", b.number));
        let block: Value = serde_json::from_str(b.block.json()).unwrap();
        assert_eq!(block, recorded("eth_getBlockByNumber", json!([n, true])));
        let PerBlock::Block(receipts) = &b.receipts else {
            panic!("anvil serves eth_getBlockReceipts")
        };
        let receipts: Value = serde_json::from_str(receipts.json()).unwrap();
        assert_eq!(receipts, recorded("eth_getBlockReceipts", json!([n])));
        if b.number > 0 {
            let Some(PerBlock::Block(traces)) = &b.traces else {
                panic!("anvil traces blocks")
            };
            let traces: Value = serde_json::from_str(traces.json()).unwrap();
            assert_eq!(
                traces,
                recorded(
                    "debug_traceBlockByNumber",
                    json!([n, {"tracer": "callTracer"}])
                )
            );
        }
        txs += block["transactions"].as_array().unwrap().len();
    }
    assert!(txs > 100, "{txs} txs recorded");
}
