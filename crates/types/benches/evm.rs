//! What an EVM indexer parses per transaction: its share of `eth_getBlockByNumber(n, true)`,
//! its `eth_getBlockReceipts` entry (one ERC-20 Transfer log) and its `debug_traceBlockByNumber`
//! `callTracer` entry (a root CALL and one value-moving child), in coreth's member sets, then the
//! transfer decode and the internal-tx flattening. Throughput is in transactions.
#![allow(missing_docs, clippy::unwrap_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use snowline_types::evm::{
    RpcBlock, RpcReceipt, TraceEntry, decode_transfer_log, internal_transactions,
};

const TXS: usize = 200;

fn h(n: usize, tag: u8) -> String {
    format!("0x{:02x}{:062x}", tag, n)
}

fn a(n: usize) -> String {
    format!("0x{:040x}", n + 1)
}

fn block() -> String {
    let txs: Vec<String> = (0..TXS)
        .map(|i| {
            format!(
                r#"{{"blockHash":"{bh}","blockNumber":"0x9","from":"{from}","gas":"0x186a0","gasPrice":"0x5d21dba00","maxFeePerGas":"0x6fc23ac00","maxPriorityFeePerGas":"0x3b9aca00","hash":"{hash}","input":"0xa9059cbb000000000000000000000000{to}0000000000000000000000000000000000000000000000000de0b6b3a7640000","nonce":"0x{i:x}","to":"{token}","transactionIndex":"0x{i:x}","value":"0x0","type":"0x2","accessList":[],"chainId":"0xa86a","v":"0x1","r":"{r}","s":"{s}","yParity":"0x1"}}"#,
                bh = h(9, 0xbb),
                from = a(i),
                hash = h(i, 0x11),
                to = &a(i + 7)[2..],
                token = a(999),
                r = h(i, 0x22),
                s = h(i, 0x33),
            )
        })
        .collect();
    format!(
        r#"{{"baseFeePerGas":"0x5d21dba00","blobGasUsed":"0x0","blockExtraData":"0x","blockGasCost":"0x0","difficulty":"0x1","excessBlobGas":"0x0","extDataGasUsed":"0x0","extDataHash":"0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421","extraData":"0x","gasLimit":"0xe4e1c0","gasUsed":"0x5208","hash":"{bh}","logsBloom":"0x{bloom}","miner":"0x0100000000000000000000000000000000000000","mixHash":"{z}","nonce":"0x0000000000000000","number":"0x9","parentBeaconBlockRoot":"{z}","parentHash":"{z}","receiptsRoot":"{z}","sha3Uncles":"{z}","size":"0x2c7","stateRoot":"{z}","timestamp":"0x5a","timestampMilliseconds":"0x15f90","totalDifficulty":"0x9","transactions":[{txs}],"transactionsRoot":"{z}","uncles":[]}}"#,
        bh = h(9, 0xbb),
        bloom = "00".repeat(256),
        z = h(0, 0),
        txs = txs.join(","),
    )
}

fn receipts() -> String {
    let rs: Vec<String> = (0..TXS)
        .map(|i| {
            format!(
                r#"{{"blockHash":"{bh}","blockNumber":"0x9","contractAddress":null,"cumulativeGasUsed":"0x{cum:x}","effectiveGasPrice":"0x5d21dba00","from":"{from}","gasUsed":"0xcb80","logs":[{{"address":"{token}","topics":["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef","0x000000000000000000000000{from_t}","0x000000000000000000000000{to_t}"],"data":"0x0000000000000000000000000000000000000000000000000de0b6b3a7640000","blockNumber":"0x9","transactionHash":"{hash}","transactionIndex":"0x{i:x}","blockHash":"{bh}","logIndex":"0x{i:x}","removed":false}}],"logsBloom":"0x{bloom}","status":"0x1","to":"{token}","transactionHash":"{hash}","transactionIndex":"0x{i:x}","type":"0x2"}}"#,
                bh = h(9, 0xbb),
                cum = (i + 1) * 0xcb80,
                from = a(i),
                from_t = &a(i)[2..],
                to_t = &a(i + 7)[2..],
                token = a(999),
                hash = h(i, 0x11),
                bloom = "00".repeat(256),
            )
        })
        .collect();
    format!("[{}]", rs.join(","))
}

fn traces() -> String {
    let es: Vec<String> = (0..TXS)
        .map(|i| {
            format!(
                r#"{{"txHash":"{hash}","result":{{"from":"{from}","gas":"0x186a0","gasUsed":"0xcb80","to":"{token}","input":"0xa9059cbb000000000000000000000000{to_t}0000000000000000000000000000000000000000000000000de0b6b3a7640000","output":"0x0000000000000000000000000000000000000000000000000000000000000001","calls":[{{"from":"{token}","gas":"0x8fc","gasUsed":"0x0","to":"{from}","input":"0x","value":"0x1","type":"CALL"}}],"value":"0x0","type":"CALL"}}}}"#,
                hash = h(i, 0x11),
                from = a(i),
                token = a(999),
                to_t = &a(i + 7)[2..],
            )
        })
        .collect();
    format!("[{}]", es.join(","))
}

fn bench(c: &mut Criterion) {
    let (b, r, t) = (block(), receipts(), traces());
    let mut g = c.benchmark_group("evm");
    g.throughput(Throughput::Elements(TXS as u64));
    g.bench_function("parse_block_receipts_traces", |bench| {
        bench.iter(|| {
            let block: RpcBlock<'_> = serde_json::from_str(&b).unwrap();
            let receipts: Vec<RpcReceipt<'_>> = serde_json::from_str(&r).unwrap();
            let traces: Vec<TraceEntry<'_>> = serde_json::from_str(&t).unwrap();
            (block.transactions.len(), receipts.len(), traces.len())
        })
    });
    g.bench_function("parse_and_derive", |bench| {
        bench.iter(|| {
            let block: RpcBlock<'_> = serde_json::from_str(&b).unwrap();
            let receipts: Vec<RpcReceipt<'_>> = serde_json::from_str(&r).unwrap();
            let traces: Vec<TraceEntry<'_>> = serde_json::from_str(&t).unwrap();
            let mut n = 0usize;
            for rc in &receipts {
                for log in &rc.logs {
                    let data = log.data.decode().unwrap_or_default();
                    if let Some(tr) = decode_transfer_log(&log.topics, &data) {
                        n += tr.transfers(log.address, log.log_index).len();
                    }
                }
            }
            for e in traces {
                if let Ok(root) = e.into_result() {
                    n += internal_transactions(&root).len();
                }
            }
            (block.transactions.len(), n)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
