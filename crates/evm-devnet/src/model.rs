//! An independent reading of a recording, for end-to-end tests: what the recorded JSON-RPC
//! answers say happened (blocks, token transfers decoded from log topics, internal transactions
//! walked from call traces, contracts created, balances), derived with nothing of the indexer's
//! code. It panics on a recording the recorder did not write.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use alloy_primitives::{Address, B256, U256, keccak256};
use serde_json::{Value, json};

/// A `0x` quantity.
pub fn q(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// A `0x` quantity of up to 256 bits.
pub fn u(v: &Value) -> U256 {
    U256::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// An address.
pub fn addr(v: &Value) -> Address {
    v.as_str().unwrap().parse().unwrap()
}

/// A hash.
pub fn hash(v: &Value) -> B256 {
    v.as_str().unwrap().parse().unwrap()
}

/// `0x` hex data.
pub fn bytes(v: &Value) -> Vec<u8> {
    let s = v.as_str().unwrap().trim_start_matches("0x");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// One recorded block with its receipts and traces (`Null` when not recorded).
#[derive(Debug, Clone)]
pub struct RecBlock {
    /// Height.
    pub number: u64,
    /// `eth_getBlockByNumber [n, true]`.
    pub block: Value,
    /// `eth_getBlockReceipts [n]`.
    pub receipts: Value,
    /// `debug_traceBlockByNumber [n, callTracer]`.
    pub traces: Value,
}

/// A token transfer as a log records it (one id of an ERC-1155 batch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogTransfer {
    /// 20, 721 or 1155.
    pub standard: u16,
    /// The log's emitter.
    pub token: Address,
    /// Sender.
    pub from: Address,
    /// Recipient.
    pub to: Address,
    /// Amount (1 for ERC-721).
    pub value: U256,
    /// Token id (0 for ERC-20).
    pub id: U256,
    /// The ERC-1155 operator.
    pub operator: Option<Address>,
    /// Block height.
    pub block: u64,
    /// The log's index in the block.
    pub log_index: u64,
    /// The tx.
    pub tx_hash: B256,
}

/// A listed frame of a call tree: value-carrying `CALL`/`CALLCODE`, every `CREATE`/`CREATE2`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Block height.
    pub block: u64,
    /// The tx's index in the block.
    pub tx_index: u64,
    /// The tx.
    pub tx_hash: B256,
    /// Depth (0: the tx itself).
    pub depth: u32,
    /// `CALL`, `CREATE`, ...
    pub kind: String,
    /// Caller.
    pub from: Address,
    /// Callee or created contract.
    pub to: Option<Address>,
    /// Value.
    pub value: U256,
    /// Gas given.
    pub gas: u64,
    /// Gas used.
    pub gas_used: u64,
    /// Whether it or a frame above it failed.
    pub reverted: bool,
}

/// A contract creation that did not revert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Creation {
    /// The contract.
    pub address: Address,
    /// The tx's sender.
    pub deployer: Address,
    /// The factory that ran the `CREATE`, for a creation inside a tx.
    pub factory: Option<Address>,
    /// The tx.
    pub tx_hash: B256,
    /// Block height.
    pub block: u64,
}

/// A recording read as JSON.
#[derive(Debug, Clone)]
pub struct RecordingModel {
    /// Every line.
    pub lines: Vec<Value>,
    /// Every block up to the recorded tip.
    pub blocks: Vec<RecBlock>,
}

impl RecordingModel {
    /// Reads the recording at `path`.
    pub fn load(path: &Path) -> Self {
        let lines = read_lines(path);
        let blocks = blocks(&lines);
        Self { lines, blocks }
    }

    /// The answer recorded for `(method, params)`.
    pub fn recorded(&self, method: &str, params: &Value) -> Option<&Value> {
        recorded(&self.lines, method, params)
    }

    /// The recorded chain id.
    pub fn chain_id(&self) -> u64 {
        q(self.recorded("eth_chainId", &json!([])).unwrap())
    }

    /// The last recorded block.
    pub fn tip(&self) -> u64 {
        self.blocks.last().map_or(0, |b| b.number)
    }

    /// Every token transfer, in chain order.
    pub fn transfers(&self) -> Vec<LogTransfer> {
        let mut out = Vec::new();
        for b in &self.blocks {
            for r in b.receipts.as_array().into_iter().flatten() {
                for log in r["logs"].as_array().into_iter().flatten() {
                    out.extend(log_transfers(log, b.number));
                }
            }
        }
        out
    }

    /// Every listed frame, in chain order (depth first within a tx).
    pub fn frames(&self) -> Vec<Frame> {
        let mut out = Vec::new();
        for b in &self.blocks {
            for (i, t) in b.traces.as_array().into_iter().flatten().enumerate() {
                let tx = &b.block["transactions"][i];
                let at = (b.number, i as u64, hash(&tx["hash"]));
                out.extend(listed_frames(&t["result"], at));
            }
        }
        out
    }

    /// Every contract created (by a tx or inside one) that did not revert, in chain order.
    pub fn creations(&self) -> Vec<Creation> {
        let frames = self.frames();
        let mut out = Vec::new();
        for b in &self.blocks {
            for (i, tx) in b.block["transactions"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                let receipt = &b.receipts[i];
                let (deployer, tx_hash) = (addr(&tx["from"]), hash(&tx["hash"]));
                let ok = receipt["status"] != "0x0";
                if let (true, Some(a)) = (ok, receipt.get("contractAddress")) {
                    if !a.is_null() {
                        out.push(Creation {
                            address: addr(a),
                            deployer,
                            factory: None,
                            tx_hash,
                            block: b.number,
                        });
                    }
                }
                for f in frames.iter().filter(|f| f.tx_hash == tx_hash) {
                    let create = f.kind == "CREATE" || f.kind == "CREATE2";
                    if let (true, false, true, Some(to)) = (create, f.reverted, f.depth > 0, f.to) {
                        out.push(Creation {
                            address: to,
                            deployer,
                            factory: Some(f.from),
                            tx_hash,
                            block: b.number,
                        });
                    }
                }
            }
        }
        out
    }

    /// The recorded balance of `address` after the last block at or before `block` that has a
    /// recorded `eth_getBalance` for it.
    pub fn balance_at(&self, address: Address, block: u64) -> Option<U256> {
        let a = format!("{address:#x}");
        (0..=block).rev().find_map(|n| {
            self.recorded("eth_getBalance", &json!([a, format!("{n:#x}")]))
                .map(u)
        })
    }
}

/// The answer recorded for `(method, params)` among `lines`.
pub fn recorded<'a>(lines: &'a [Value], method: &str, params: &Value) -> Option<&'a Value> {
    lines
        .iter()
        .find(|l| l["method"] == method && &l["params"] == params)
        .and_then(|l| l.get("result"))
}

/// The lines of the recording at `path`, as JSON.
pub fn read_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every block up to the recorded tip, with its receipts and traces.
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
                block: get("eth_getBlockByNumber", json!([tag, true])),
                receipts: get("eth_getBlockReceipts", json!([tag])),
                traces: get(
                    "debug_traceBlockByNumber",
                    json!([tag, {"tracer": "callTracer"}]),
                ),
            }
        })
        .collect()
}

fn topic_addr(t: &Value) -> Address {
    let b = bytes(t);
    assert!(b[..12].iter().all(|x| *x == 0));
    Address::from_slice(&b[12..])
}

fn word(b: &[u8], i: usize) -> U256 {
    U256::from_be_slice(&b[32 * i..32 * i + 32])
}

/// The transfers a log of block `block` records, decoded by hand: topic 0 is the keccak-256 of
/// the event signature of EIP-20 / EIP-721 / EIP-1155.
pub fn log_transfers(log: &Value, block: u64) -> Vec<LogTransfer> {
    let topics = log["topics"].as_array().unwrap();
    let data = bytes(&log["data"]);
    let t0 = hash(&topics[0]);
    let sig = |s: &str| keccak256(s.as_bytes());
    let (token, log_index, tx_hash) = (
        addr(&log["address"]),
        q(&log["logIndex"]),
        hash(&log["transactionHash"]),
    );
    let t = |standard, from, to, value, id, operator| LogTransfer {
        standard,
        token,
        from,
        to,
        value,
        id,
        operator,
        block,
        log_index,
        tx_hash,
    };
    if t0 == sig("Transfer(address,address,uint256)") {
        let (from, to) = (topic_addr(&topics[1]), topic_addr(&topics[2]));
        match topics.len() {
            3 => vec![t(20, from, to, word(&data, 0), U256::ZERO, None)],
            4 => vec![t(
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
        vec![t(1155, from, to, word(&data, 1), word(&data, 0), op)]
    } else if t0 == sig("TransferBatch(address,address,address,uint256[],uint256[])") {
        let op = Some(topic_addr(&topics[1]));
        let (from, to) = (topic_addr(&topics[2]), topic_addr(&topics[3]));
        // Two dynamic arrays: their offsets, then each a length and the words.
        let ids_at = word(&data, 0).to::<usize>() / 32;
        let values_at = word(&data, 1).to::<usize>() / 32;
        let n = word(&data, ids_at).to::<usize>();
        (0..n)
            .map(|i| {
                t(
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

/// The listed frames of the call tree `root` of tx `at` (block, index, hash), depth first.
pub fn listed_frames(root: &Value, at: (u64, u64, B256)) -> Vec<Frame> {
    let mut out = Vec::new();
    walk(root, 0, false, at, &mut out);
    out
}

/// Walks a call tree depth first, keeping the listed frames.
fn walk(
    frame: &Value,
    depth: u32,
    reverted_above: bool,
    at: (u64, u64, B256),
    out: &mut Vec<Frame>,
) {
    let kind = frame["type"].as_str().unwrap().to_owned();
    let value = frame.get("value").map(u).unwrap_or(U256::ZERO);
    let reverted = reverted_above || frame.get("error").is_some();
    let listed = match kind.as_str() {
        "CALL" | "CALLCODE" => !value.is_zero(),
        "CREATE" | "CREATE2" => true,
        _ => false,
    };
    if listed {
        out.push(Frame {
            block: at.0,
            tx_index: at.1,
            tx_hash: at.2,
            depth,
            kind: kind.clone(),
            from: addr(&frame["from"]),
            to: frame.get("to").map(addr),
            value,
            gas: q(&frame["gas"]),
            gas_used: q(&frame["gasUsed"]),
            reverted,
        });
    }
    for c in frame
        .get("calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        walk(c, depth + 1, reverted, at, out);
    }
}
