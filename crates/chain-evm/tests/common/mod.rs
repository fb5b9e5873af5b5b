//! What the EVM deriver's tests share: a store with the EVM tables, a replay server for a
//! recording, a sync to a given block, every table dumped entry by entry, and the rows a test
//! derives independently from recorded JSON (`serde_json::Value` walked by hand).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check;
mod tokens;
#[allow(unused_imports)]
pub use check::check_against_recording;
#[allow(unused_imports)]
pub use tokens::check_tokens;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use snowline_chain_evm::source::{EvmSource, SourceConfig};
use snowline_chain_evm::tables::*;
use snowline_chain_evm::{EvmError, SyncConfig, sync};
use snowline_evm_devnet::{Recording, serve};
use snowline_store::{Direction, ReadView, Schema, Store, Table};
use snowline_types::evm::{Address, B256, U256, keccak256};

pub fn open(dir: &Path) -> Store {
    let schema = snowline_chain_evm::tables()
        .into_iter()
        .fold(Schema::new(1), Schema::with_spec);
    Store::open(dir, &schema).unwrap()
}

/// Serves `recording` on a free port; the node's URL.
pub async fn replay(recording: Recording) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, Arc::new(recording)));
    format!("http://{addr}/")
}

pub fn source(url: &str, blocks_per_batch: usize) -> Arc<EvmSource> {
    let config = SourceConfig {
        blocks_per_batch,
        in_flight: 2,
        retry_initial: Duration::from_millis(1),
        retry_max: Duration::from_millis(2),
        max_attempts: 2,
        call_timeout: Duration::from_secs(30),
    };
    Arc::new(EvmSource::new(url, config).unwrap())
}

/// Derives blocks up to `to` (included) from the node at `url`.
pub async fn sync_to(
    store: &Store,
    url: &str,
    blocks_per_batch: usize,
    to: u64,
) -> Result<u64, EvmError> {
    let config = SyncConfig {
        poll: Duration::from_millis(5),
        stop_after: Some(to),
        ..SyncConfig::default()
    };
    sync(store, &source(url, blocks_per_batch), &config).await
}

fn dump_table<T: Table>(store: &Store, out: &mut Vec<String>)
where
    T::Key: std::fmt::Debug,
    T::Value: std::fmt::Debug,
{
    for e in store.scan::<T, _>(.., Direction::Forward).unwrap() {
        out.push(format!("{} {:?}", T::NAME, e.unwrap()));
    }
}

/// Every EVM table, entry by entry.
pub fn dump(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    dump_table::<EvBlocks>(store, &mut out);
    dump_table::<EvBlockHashes>(store, &mut out);
    dump_table::<EvTxs>(store, &mut out);
    dump_table::<EvTxsByBlock>(store, &mut out);
    dump_table::<EvTxsByAddress>(store, &mut out);
    dump_table::<EvTransfersByToken>(store, &mut out);
    dump_table::<EvTransfersByTx>(store, &mut out);
    dump_table::<EvTransfersByAddress>(store, &mut out);
    dump_table::<EvInternalByAddress>(store, &mut out);
    dump_table::<EvInternalByTx>(store, &mut out);
    dump_table::<EvContracts>(store, &mut out);
    dump_table::<EvContractsByDeployer>(store, &mut out);
    dump_table::<EvTokens>(store, &mut out);
    dump_table::<EvErc721Owner>(store, &mut out);
    dump_table::<EvErc721ByOwner>(store, &mut out);
    dump_table::<EvNftUris>(store, &mut out);
    dump_table::<EvNative>(store, &mut out);
    dump_table::<EvCursor>(store, &mut out);
    out
}

/// The recorded lines, as JSON.
pub fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub fn q(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

pub fn u(v: &Value) -> U256 {
    U256::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

pub fn addr(v: &Value) -> Address {
    v.as_str().unwrap().parse().unwrap()
}

pub fn hash(v: &Value) -> B256 {
    v.as_str().unwrap().parse().unwrap()
}

pub fn bytes(v: &Value) -> Vec<u8> {
    let s = v.as_str().unwrap().trim_start_matches("0x");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The answer recorded for `(method, params)`.
pub fn recorded<'a>(lines: &'a [Value], method: &str, params: &Value) -> Option<&'a Value> {
    lines
        .iter()
        .find(|l| l["method"] == method && &l["params"] == params)
        .and_then(|l| l.get("result"))
}

/// One recorded block with its receipts and traces.
pub struct RecBlock {
    pub number: u64,
    pub block: Value,
    pub receipts: Value,
    pub traces: Value,
}

pub fn blocks(lines: &[Value]) -> Vec<RecBlock> {
    let head = q(&lines
        .iter()
        .find(|l| l["method"] == "eth_blockNumber")
        .unwrap()["result"]);
    (0..=head)
        .map(|n| {
            let tag = Value::from(format!("{n:#x}"));
            let get = |method: &str, params: Value| {
                recorded(lines, method, &params)
                    .cloned()
                    .unwrap_or(Value::Null)
            };
            RecBlock {
                number: n,
                block: get("eth_getBlockByNumber", serde_json::json!([tag, true])),
                receipts: get("eth_getBlockReceipts", serde_json::json!([tag])),
                traces: get(
                    "debug_traceBlockByNumber",
                    serde_json::json!([tag, {"tracer": "callTracer"}]),
                ),
            }
        })
        .collect()
}

/// A transfer as the test reads it from a log: (kind 20/721/1155, from, to, value, id, operator).
pub type Expected = (u16, Address, Address, U256, U256, Option<Address>);

fn topic_addr(t: &Value) -> Address {
    let b = bytes(t);
    assert!(b[..12].iter().all(|x| *x == 0));
    Address::from_slice(&b[12..])
}

fn word(b: &[u8], i: usize) -> U256 {
    U256::from_be_slice(&b[32 * i..32 * i + 32])
}

/// The transfers a log records, decoded by hand: topic 0 is the keccak-256 of the event
/// signature of EIP-20 / EIP-721 / EIP-1155.
pub fn log_transfers(log: &Value) -> Vec<Expected> {
    let topics = log["topics"].as_array().unwrap();
    let data = bytes(&log["data"]);
    let t0 = hash(&topics[0]);
    let sig = |s: &str| keccak256(s.as_bytes());
    if t0 == sig("Transfer(address,address,uint256)") {
        let (from, to) = (topic_addr(&topics[1]), topic_addr(&topics[2]));
        match topics.len() {
            3 => vec![(20, from, to, word(&data, 0), U256::ZERO, None)],
            4 => vec![(
                721,
                from,
                to,
                U256::from(1),
                U256::from_be_slice(&bytes(&topics[3])),
                None,
            )],
            _ => vec![],
        }
    } else if t0 == sig("TransferSingle(address,address,address,uint256,uint256)") {
        let op = Some(topic_addr(&topics[1]));
        let (from, to) = (topic_addr(&topics[2]), topic_addr(&topics[3]));
        vec![(1155, from, to, word(&data, 1), word(&data, 0), op)]
    } else if t0 == sig("TransferBatch(address,address,address,uint256[],uint256[])") {
        let op = Some(topic_addr(&topics[1]));
        let (from, to) = (topic_addr(&topics[2]), topic_addr(&topics[3]));
        // Two dynamic arrays: their offsets, then each a length and the words.
        let ids_at = word(&data, 0).to::<usize>() / 32;
        let values_at = word(&data, 1).to::<usize>() / 32;
        let n = word(&data, ids_at).to::<usize>();
        (0..n)
            .map(|i| {
                (
                    1155,
                    from,
                    to,
                    word(&data, values_at + 1 + i),
                    word(&data, ids_at + 1 + i),
                    op,
                )
            })
            .collect()
    } else {
        vec![]
    }
}

/// A listed frame as the test reads it: (depth, type, from, to, value, reverted).
pub type Frame = (u32, String, Address, Option<Address>, U256, bool);

/// Walks a call tree depth first, keeping value-carrying CALL / CALLCODE and every
/// CREATE / CREATE2 frame (the Data API's internal transactions).
pub fn walk(frame: &Value, depth: u32, reverted_above: bool, out: &mut Vec<Frame>) {
    let kind = frame["type"].as_str().unwrap().to_owned();
    let value = frame.get("value").map(u).unwrap_or(U256::ZERO);
    let reverted = reverted_above || frame.get("error").is_some();
    let listed = match kind.as_str() {
        "CALL" | "CALLCODE" => !value.is_zero(),
        "CREATE" | "CREATE2" => true,
        _ => false,
    };
    if listed {
        let to = frame.get("to").map(addr);
        out.push((depth, kind, addr(&frame["from"]), to, value, reverted));
    }
    for c in frame
        .get("calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        walk(c, depth + 1, reverted, out);
    }
}

/// Every address key of a table's chain part, for set comparisons.
pub fn set<T: Ord>(it: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    it.into_iter().collect()
}

pub fn map<K: Ord, V>(it: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    it.into_iter().collect()
}
