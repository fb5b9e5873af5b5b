//! The synthetic EVM node (`snowline_evm_devnet::synth`) against a real anvil's answers: the
//! committed recording (`fixtures/evm/devnet/43112.jsonl`, anvil 1.7.1) and the synthetic
//! chain's answers have the same fields in blocks, txs, receipts, logs and `callTracer` frames,
//! and the synthetic blocks read through the same source and parser as a node's say what the
//! generator's model of each tx says (parties, outcome, created contract, token movements,
//! value-moving and creating frames, messenger logs).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;

use serde_json::{Value, json};
use snowline_chain_evm::parse::parse_batch;
use snowline_chain_evm::source::{EvmSource, SourceConfig, Tracing};
use snowline_evm_devnet::icm::TELEPORTER_V1;
use snowline_evm_devnet::synth::{Synth, SynthConfig};
use snowline_evm_devnet::{Answers, C_CHAIN_ID, recording_path, spawn_synth};

fn config() -> SynthConfig {
    SynthConfig {
        seed: 5,
        blocks: 30,
        txs_per_block: 40,
        accounts: 2_000,
        ..SynthConfig::default()
    }
}

/// The field names of each kind of object in blocks, receipts and traces, over every one seen.
#[derive(Debug, Default, PartialEq, Eq)]
struct Fields {
    block: BTreeSet<String>,
    tx: BTreeSet<String>,
    receipt: BTreeSet<String>,
    log: BTreeSet<String>,
    trace_entry: BTreeSet<String>,
    frame: BTreeSet<String>,
    /// Frame `type`s seen.
    frame_types: BTreeSet<String>,
}

fn keys(v: &Value) -> impl Iterator<Item = String> + '_ {
    v.as_object().unwrap().keys().cloned()
}

impl Fields {
    fn add(&mut self, method: &str, result: &Value) {
        match method {
            "eth_getBlockByNumber" if !result["transactions"].as_array().unwrap().is_empty() => {
                self.block.extend(keys(result));
                for tx in result["transactions"].as_array().unwrap() {
                    // EIP-1559 txs: the synthetic chain sends no legacy ones.
                    if tx["type"] == "0x2" {
                        self.tx.extend(keys(tx));
                    }
                }
            }
            "eth_getBlockReceipts" => {
                for r in result
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|r| r["type"] == "0x2")
                {
                    self.receipt.extend(keys(r));
                    for log in r["logs"].as_array().unwrap() {
                        self.log.extend(keys(log));
                    }
                }
            }
            "debug_traceBlockByNumber" => {
                for entry in result.as_array().unwrap() {
                    self.trace_entry.extend(keys(entry));
                    let mut stack = vec![&entry["result"]];
                    while let Some(f) = stack.pop() {
                        self.frame.extend(keys(f));
                        self.frame_types
                            .insert(f["type"].as_str().unwrap().to_owned());
                        stack.extend(f["calls"].as_array().into_iter().flatten());
                    }
                }
            }
            _ => {}
        }
    }
}

#[test]
fn synthetic_answers_have_the_fields_anvil_gives() {
    let mut recorded = Fields::default();
    let text = std::fs::read_to_string(recording_path(C_CHAIN_ID)).unwrap();
    for line in text.lines() {
        let l: Value = serde_json::from_str(line).unwrap();
        if let Some(result) = l.get("result") {
            recorded.add(l["method"].as_str().unwrap(), result);
        }
    }
    let synth = Synth::new(config());
    let mut made = Fields::default();
    for n in 1..=synth.head() {
        let tag = format!("{n:#x}");
        for (method, params) in [
            ("eth_getBlockByNumber", json!([tag, true])),
            ("eth_getBlockReceipts", json!([tag])),
            (
                "debug_traceBlockByNumber",
                json!([tag, {"tracer": "callTracer"}]),
            ),
        ] {
            let answer = synth.answer(method, &params).unwrap();
            made.add(method, &serde_json::from_str(&answer).unwrap());
        }
    }
    assert_eq!(made.block, recorded.block, "block fields");
    assert_eq!(made.tx, recorded.tx, "tx fields");
    assert_eq!(made.receipt, recorded.receipt, "receipt fields");
    assert_eq!(made.log, recorded.log, "log fields");
    assert_eq!(made.trace_entry, recorded.trace_entry, "trace entry fields");
    assert_eq!(made.frame, recorded.frame, "call frame fields");
    assert!(
        made.frame_types.is_superset(&recorded.frame_types),
        "{:?} vs {:?}",
        made.frame_types,
        recorded.frame_types
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn synthetic_blocks_read_as_the_model_says() {
    let node = spawn_synth(config()).await.unwrap();
    let source = EvmSource::new(&node.url, SourceConfig::default()).unwrap();
    assert_eq!(source.chain_id().await.unwrap(), C_CHAIN_ID);
    assert_eq!(source.tip().await.unwrap(), node.head);
    let caps = source.capabilities().await.unwrap();
    assert!(caps.block_receipts);
    assert_eq!(caps.tracing, Tracing::Block);

    let synth = Synth::new(config());
    let fetched = source.fetch(0, node.head as usize + 1).await.unwrap();
    let blocks = parse_batch(fetched, false).await.unwrap();
    assert_eq!(blocks.len() as u64, node.head + 1);
    let (mut transfers, mut frames, mut messenger) = (0, 0, 0);
    for block in &blocks {
        let model = synth.block(block.number).unwrap();
        assert_eq!(block.hash, model.hash);
        assert_eq!(block.parent, model.parent);
        assert_eq!(block.timestamp, model.timestamp);
        assert_eq!(block.txs.len(), model.txs.len());
        for (tx, m) in block.txs.iter().zip(&model.txs) {
            assert_eq!(
                (tx.hash, tx.from, tx.to, tx.value),
                (m.hash, m.from, m.to, m.value)
            );
            assert_eq!(tx.status, Some(m.success), "{:?}", m.kind);
            assert_eq!(tx.contract_address, m.created);
            assert_eq!(tx.gas_used, m.gas_used);
            // Every movement the model made, in order: standard, parties, id and amount.
            let read: Vec<_> = tx
                .transfers
                .iter()
                .flat_map(|(emitter, i, log)| log.transfers(*emitter, *i))
                .collect();
            assert_eq!(read.len(), m.moved.len(), "{:?}", m.kind);
            for (t, mv) in read.iter().zip(&m.moved) {
                assert_eq!((t.contract, t.from, t.to), (mv.token, mv.from, mv.to));
            }
            transfers += read.len();
            // The listed internal txs: frames that move value, and creations.
            let mut listed = 0;
            let mut stack = vec![&m.trace];
            while let Some(f) = stack.pop() {
                let moves = f.value.is_some_and(|v| !v.is_zero());
                if f.kind.starts_with("CREATE") || (f.kind == "CALL" && moves) {
                    listed += 1;
                }
                stack.extend(&f.calls);
            }
            assert_eq!(tx.internals.as_ref().unwrap().len(), listed, "{:?}", m.kind);
            frames += listed;
            let logged = m.logs.iter().filter(|l| l.address == TELEPORTER_V1).count();
            assert_eq!(tx.messenger_logs.len(), logged);
            messenger += logged;
        }
    }
    assert!(
        transfers > 100 && frames > 20 && messenger > 1,
        "{transfers} {frames} {messenger}"
    );
}
