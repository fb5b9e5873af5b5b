//! A synthetic block as JSON-RPC results, field for field in the forms anvil 1.7 gives with
//! `--hardfork cancun` (the committed recording, `fixtures/evm/devnet/`, is what they are checked
//! against): blocks with full or hashed txs, EIP-1559 txs, receipts with their logs and blooms
//! (and anvil's integer `blockTimestamp` on the receipt), and `callTracer` frames.

use std::fmt::Write;

use alloy_primitives::{Address, B256, Bloom, U256};

use super::{BASE_FEE, Frame, GAS_LIMIT, MAX_FEE, Synth, SynthBlock, SynthTx, TIP, digest};

/// The root of an empty trie (`keccak256(rlp(""))`).
const EMPTY_ROOT: &str = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";
/// `keccak256(rlp([]))`: no uncles.
const EMPTY_UNCLES: &str = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";

const HEX: &[u8; 16] = b"0123456789abcdef";

/// `0x` and the bytes in lowercase hex.
fn push_hex(out: &mut String, bytes: &[u8]) {
    out.reserve(2 + 2 * bytes.len());
    out.push_str("0x");
    for b in bytes {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
}

/// `"key":"0x…"` with a trailing comma.
fn data(out: &mut String, key: &str, bytes: &[u8]) {
    let _ = write!(out, "\"{key}\":\"");
    push_hex(out, bytes);
    out.push_str("\",");
}

/// `"key":"0x…"` (a quantity) with a trailing comma.
fn qty(out: &mut String, key: &str, n: impl std::fmt::LowerHex) {
    let _ = write!(out, "\"{key}\":\"{n:#x}\",");
}

fn addr(out: &mut String, key: &str, a: &Address) {
    data(out, key, a.as_slice());
}

/// Replaces a trailing comma by `close`.
fn close(out: &mut String, close: char) {
    if out.ends_with(',') {
        out.pop();
    }
    out.push(close);
}

fn price() -> u64 {
    BASE_FEE + TIP
}

/// The block's logs bloom and each tx's.
fn blooms(block: &SynthBlock) -> (Bloom, Vec<Bloom>) {
    let mut all = Bloom::ZERO;
    let per: Vec<Bloom> = block
        .txs
        .iter()
        .map(|tx| {
            let mut b = Bloom::ZERO;
            for log in &tx.logs {
                b.accrue_raw_log(log.address, &log.topics);
            }
            all.accrue_bloom(&b);
            b
        })
        .collect();
    (all, per)
}

/// `eth_getBlockByNumber` / `eth_getBlockByHash`: with every tx when `full`, else their hashes.
pub(super) fn block(synth: &Synth, b: &SynthBlock, full: bool) -> String {
    let seed = synth.config().seed;
    let mut out = String::with_capacity(2_048 + b.txs.len() * if full { 900 } else { 70 });
    out.push('{');
    data(&mut out, "hash", b.hash.as_slice());
    data(&mut out, "parentHash", b.parent.as_slice());
    let _ = write!(out, "\"sha3Uncles\":\"{EMPTY_UNCLES}\",");
    addr(&mut out, "miner", &Address::ZERO);
    let root = |tag: &[u8]| digest(tag, &[seed, b.number]);
    data(&mut out, "stateRoot", root(b"state").as_slice());
    if b.txs.is_empty() {
        let _ = write!(
            out,
            "\"transactionsRoot\":\"{EMPTY_ROOT}\",\"receiptsRoot\":\"{EMPTY_ROOT}\","
        );
    } else {
        data(&mut out, "transactionsRoot", root(b"txs").as_slice());
        data(&mut out, "receiptsRoot", root(b"receipts").as_slice());
    }
    data(&mut out, "logsBloom", blooms(b).0.as_slice());
    qty(&mut out, "difficulty", 0u8);
    qty(&mut out, "number", b.number);
    let gas_used = b.gas_used();
    qty(&mut out, "gasLimit", GAS_LIMIT.max(gas_used));
    qty(&mut out, "gasUsed", gas_used);
    qty(&mut out, "timestamp", b.timestamp);
    out.push_str("\"extraData\":\"0x\",");
    data(&mut out, "mixHash", root(b"mix").as_slice());
    out.push_str("\"nonce\":\"0x0000000000000000\",");
    qty(&mut out, "baseFeePerGas", BASE_FEE);
    let _ = write!(out, "\"withdrawalsRoot\":\"{EMPTY_ROOT}\",");
    qty(&mut out, "blobGasUsed", 0u8);
    qty(&mut out, "excessBlobGas", 0u8);
    data(&mut out, "parentBeaconBlockRoot", B256::ZERO.as_slice());
    qty(&mut out, "totalDifficulty", 0u8);
    qty(&mut out, "size", 0x246 + 180 * b.txs.len());
    out.push_str("\"uncles\":[],\"transactions\":[");
    for (i, t) in b.txs.iter().enumerate() {
        if full {
            tx_into(&mut out, synth, b, i, t);
        } else {
            out.push('"');
            push_hex(&mut out, t.hash.as_slice());
            out.push('"');
        }
        out.push(',');
    }
    close(&mut out, ']');
    out.push_str(",\"withdrawals\":[]}");
    out
}

/// One tx as a block (or `eth_getTransactionByHash`) renders it.
pub(super) fn tx(synth: &Synth, b: &SynthBlock, i: usize) -> String {
    let mut out = String::with_capacity(1_024);
    if let Some(t) = b.txs.get(i) {
        tx_into(&mut out, synth, b, i, t);
    }
    out
}

fn tx_into(out: &mut String, synth: &Synth, b: &SynthBlock, i: usize, t: &SynthTx) {
    let sig = digest(b"sig", &[synth.config().seed, t.ordinal]);
    out.push_str("{\"type\":\"0x2\",");
    qty(out, "chainId", synth.config().chain_id);
    qty(out, "nonce", t.ordinal);
    qty(out, "gas", t.gas);
    qty(out, "maxFeePerGas", MAX_FEE);
    qty(out, "maxPriorityFeePerGas", TIP);
    match &t.to {
        Some(to) => addr(out, "to", to),
        None => out.push_str("\"to\":null,"),
    }
    qty(out, "value", t.value);
    out.push_str("\"accessList\":[],");
    data(out, "input", &t.input);
    let r = (U256::from_be_slice(&sig.0[..16]) << 128) | U256::from(1u8);
    let s = U256::from_be_slice(&sig.0[16..]) >> 2;
    qty(out, "r", r);
    qty(out, "s", s);
    let parity = sig.0[0] & 1;
    qty(out, "yParity", parity);
    qty(out, "v", parity);
    data(out, "hash", t.hash.as_slice());
    data(out, "blockHash", b.hash.as_slice());
    qty(out, "blockNumber", b.number);
    qty(out, "transactionIndex", i);
    addr(out, "from", &t.from);
    qty(out, "gasPrice", price());
    qty(out, "blockTimestamp", b.timestamp);
    close(out, '}');
}

/// `eth_getBlockReceipts`.
pub(super) fn receipts(b: &SynthBlock) -> String {
    let mut out = String::with_capacity(64 + b.txs.len() * 1_600);
    out.push('[');
    let (_, blooms) = blooms(b);
    let (mut cumulative, mut log_index) = (0u64, 0u64);
    for (i, t) in b.txs.iter().enumerate() {
        cumulative += t.gas_used;
        receipt_into(&mut out, b, i, t, &blooms[i], cumulative, log_index);
        log_index += t.logs.len() as u64;
        out.push(',');
    }
    close(&mut out, ']');
    out
}

/// `eth_getTransactionReceipt` of tx `i`.
pub(super) fn receipt(b: &SynthBlock, i: usize) -> String {
    let (_, blooms) = blooms(b);
    let cumulative = b.txs.iter().take(i + 1).map(|t| t.gas_used).sum();
    let log_index = b.txs.iter().take(i).map(|t| t.logs.len() as u64).sum();
    let mut out = String::with_capacity(1_600);
    if let Some(t) = b.txs.get(i) {
        receipt_into(&mut out, b, i, t, &blooms[i], cumulative, log_index);
    }
    out
}

fn receipt_into(
    out: &mut String,
    b: &SynthBlock,
    i: usize,
    t: &SynthTx,
    bloom: &Bloom,
    cumulative: u64,
    first_log: u64,
) {
    out.push_str("{\"type\":\"0x2\",");
    qty(out, "status", u8::from(t.success));
    qty(out, "cumulativeGasUsed", cumulative);
    out.push_str("\"logs\":[");
    for (k, log) in t.logs.iter().enumerate() {
        out.push('{');
        addr(out, "address", &log.address);
        out.push_str("\"topics\":[");
        for topic in &log.topics {
            out.push('"');
            push_hex(out, topic.as_slice());
            out.push_str("\",");
        }
        close(out, ']');
        out.push(',');
        data(out, "data", &log.data);
        data(out, "blockHash", b.hash.as_slice());
        qty(out, "blockNumber", b.number);
        qty(out, "blockTimestamp", b.timestamp);
        data(out, "transactionHash", t.hash.as_slice());
        qty(out, "transactionIndex", i);
        qty(out, "logIndex", first_log + k as u64);
        out.push_str("\"removed\":false},");
    }
    close(out, ']');
    out.push(',');
    data(out, "logsBloom", bloom.as_slice());
    data(out, "transactionHash", t.hash.as_slice());
    qty(out, "transactionIndex", i);
    data(out, "blockHash", b.hash.as_slice());
    qty(out, "blockNumber", b.number);
    qty(out, "gasUsed", t.gas_used);
    qty(out, "effectiveGasPrice", price());
    qty(out, "blobGasPrice", 1u8);
    addr(out, "from", &t.from);
    match &t.to {
        Some(to) => addr(out, "to", to),
        None => out.push_str("\"to\":null,"),
    }
    match &t.created {
        Some(c) => addr(out, "contractAddress", c),
        None => out.push_str("\"contractAddress\":null,"),
    }
    // anvil writes the receipt's own block time as a JSON number.
    let _ = write!(out, "\"blockTimestamp\":{}}}", b.timestamp);
}

/// `debug_traceBlockByNumber` with `callTracer`: `[{result, txHash}]`.
pub(super) fn traces(b: &SynthBlock) -> String {
    let mut out = String::with_capacity(16 + b.txs.len() * 700);
    out.push('[');
    for t in &b.txs {
        out.push_str("{\"result\":");
        frame_into(&mut out, &t.trace);
        out.push(',');
        data(&mut out, "txHash", t.hash.as_slice());
        close(&mut out, '}');
        out.push(',');
    }
    close(&mut out, ']');
    out
}

/// `debug_traceTransaction` with `callTracer`: the root frame.
pub(super) fn trace(t: &SynthTx) -> String {
    let mut out = String::with_capacity(700);
    frame_into(&mut out, &t.trace);
    out
}

fn frame_into(out: &mut String, f: &Frame) {
    out.push('{');
    addr(out, "from", &f.from);
    qty(out, "gas", f.gas);
    qty(out, "gasUsed", f.gas_used);
    addr(out, "to", &f.to);
    data(out, "input", &f.input);
    if let Some(o) = &f.output {
        data(out, "output", o);
    }
    if let Some(reason) = f.revert {
        let _ = write!(
            out,
            "\"error\":\"execution reverted\",\"revertReason\":\"{reason}\","
        );
    }
    if !f.calls.is_empty() {
        out.push_str("\"calls\":[");
        for c in &f.calls {
            frame_into(out, c);
            out.push(',');
        }
        close(out, ']');
        out.push(',');
    }
    if let Some(v) = f.value {
        qty(out, "value", v);
    }
    let _ = write!(out, "\"type\":\"{}\"}}", f.kind);
}
