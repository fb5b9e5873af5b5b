//! A fetched block's raw JSON read into owned records: the block, each tx with its receipt's
//! outcome, its transfer logs and its call tree flattened into internal transactions (plus every
//! address a frame touched). Traces nest deep, so [`parse_batch`] runs on a thread of its own
//! with a large stack (see `snowline_types::evm::trace`).

use snowline_types::evm::teleporter::TELEPORTER_MESSENGER_V1;
use snowline_types::evm::{
    Address, B256, CallFrame, InternalCall, RpcBlock, RpcReceipt, TraceEntry, TransferLog, U256,
    decode_transfer_log, internal_transactions, parse_block_trace, parse_call_frame,
};

use crate::error::EvmError;
use crate::source::{FetchedBlock, PerBlock};

/// The stack of the parsing thread: a 1,024-deep trace needs about 2 MiB in a release build and
/// several times that in a debug one.
const PARSE_STACK: usize = 64 << 20;

/// One block, read.
#[derive(Debug, Clone)]
pub struct Block {
    /// Height.
    pub number: u64,
    /// Hash.
    pub hash: B256,
    /// Parent's hash.
    pub parent: B256,
    /// Unix seconds.
    pub timestamp: u64,
    /// Fee recipient.
    pub miner: Address,
    /// Gas limit.
    pub gas_limit: u64,
    /// Gas used.
    pub gas_used: u64,
    /// EIP-1559 base fee.
    pub base_fee: Option<U256>,
    /// coreth / subnet-evm block gas cost.
    pub block_gas_cost: Option<U256>,
    /// The txs, in block order.
    pub txs: Vec<Tx>,
}

/// One tx with its receipt and trace.
#[derive(Debug, Clone)]
pub struct Tx {
    /// Hash.
    pub hash: B256,
    /// Sender's nonce.
    pub nonce: u64,
    /// Sender.
    pub from: Address,
    /// Recipient (`None`: a creation).
    pub to: Option<Address>,
    /// Value, wei.
    pub value: U256,
    /// Gas limit.
    pub gas: u64,
    /// `gasPrice` as rendered.
    pub gas_price: Option<U256>,
    /// EIP-1559 fee cap.
    pub max_fee: Option<U256>,
    /// EIP-1559 tip cap.
    pub max_priority_fee: Option<U256>,
    /// Calldata.
    pub input: Vec<u8>,
    /// EIP-2718 type.
    pub tx_type: u64,
    /// Gas used.
    pub gas_used: u64,
    /// Price paid per gas.
    pub effective_gas_price: U256,
    /// Created contract (receipt's `contractAddress`).
    pub contract_address: Option<Address>,
    /// Outcome (`None`: pre-Byzantium).
    pub status: Option<bool>,
    /// Every log's emitter, in log order.
    pub emitters: Vec<Address>,
    /// The transfer logs: emitter, log index, decoded log.
    pub transfers: Vec<(Address, u64, TransferLog)>,
    /// The listed frames of the call tree (`None`: not traced, or the tracer failed).
    pub internals: Option<Vec<InternalCall>>,
    /// Every frame's `from` and `to`.
    pub frame_ends: Vec<Address>,
    /// The logs of TeleporterMessenger v1 (`TELEPORTER_MESSENGER_V1`), kept whole for the ICM
    /// room, in log order; other contracts' logs are not kept.
    pub messenger_logs: Vec<MessengerLog>,
    /// Every log, in log order, when the batch was read for a hook that needs them
    /// ([`BlockHook::wants_logs`](crate::BlockHook::wants_logs)); `None` otherwise. Held in
    /// memory for the batch only: the index stores no log but the decoded ones.
    pub logs: Option<Vec<Log>>,
}

/// One log of a tx, as emitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Log {
    /// Emitting contract.
    pub address: Address,
    /// Position in the block.
    pub log_index: u64,
    /// Topics (0 to 4).
    pub topics: Vec<B256>,
    /// Non-indexed data.
    pub data: Vec<u8>,
}

/// A TeleporterMessenger log, as emitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessengerLog {
    /// Position in the block.
    pub log_index: u64,
    /// Topics.
    pub topics: Vec<B256>,
    /// Non-indexed data.
    pub data: Vec<u8>,
}

fn answer(what: &str, e: impl std::fmt::Display) -> EvmError {
    EvmError::Answer(format!("{what}: {e}"))
}

/// Every frame's ends, iteratively.
fn frame_ends(root: &CallFrame<'_>, out: &mut Vec<Address>) {
    let mut stack = vec![root];
    while let Some(f) = stack.pop() {
        out.push(f.from);
        out.extend(f.to);
        stack.extend(f.calls.iter().rev());
    }
}

fn parse_receipts<'a>(number: u64, r: &'a PerBlock) -> Result<Vec<RpcReceipt<'a>>, EvmError> {
    let what = format!("block {number} receipts");
    match r {
        PerBlock::Block(raw) => serde_json::from_str(raw.json()).map_err(|e| answer(&what, e)),
        PerBlock::PerTx(raws) => raws
            .iter()
            .map(|raw| serde_json::from_str(raw.json()).map_err(|e| answer(&what, e)))
            .collect(),
    }
}

/// The traces as (tx hash if said, root frame or the tracer's error), in tx order.
type Traced<'a> = Vec<(Option<B256>, Result<CallFrame<'a>, String>)>;

fn parse_traces<'a>(number: u64, t: &'a PerBlock) -> Result<Traced<'a>, EvmError> {
    let what = format!("block {number} traces");
    match t {
        PerBlock::Block(raw) => Ok(parse_block_trace(raw.json())
            .map_err(|e| answer(&what, e))?
            .into_iter()
            .map(|e: TraceEntry<'a>| (e.tx_hash, e.into_result()))
            .collect()),
        PerBlock::PerTx(raws) => raws
            .iter()
            .map(|raw| {
                parse_call_frame(raw.json())
                    .map(|f| (None, Ok(f)))
                    .map_err(|e| answer(&what, e))
            })
            .collect(),
    }
}

/// Reads one fetched block; with `keep_logs`, each tx keeps all its logs.
pub fn parse_block(f: &FetchedBlock, keep_logs: bool) -> Result<Block, EvmError> {
    let n = f.number;
    let block: RpcBlock<'_> =
        serde_json::from_str(f.block.json()).map_err(|e| answer(&format!("block {n}"), e))?;
    if block.number != n {
        return Err(EvmError::Answer(format!(
            "asked block {n}, the node answered block {}",
            block.number
        )));
    }
    let receipts = parse_receipts(n, &f.receipts)?;
    if receipts.len() != block.transactions.len() {
        return Err(EvmError::Answer(format!(
            "block {n}: {} receipts for {} txs",
            receipts.len(),
            block.transactions.len()
        )));
    }
    let mut traces = match &f.traces {
        Some(t) => Some(parse_traces(n, t)?.into_iter()),
        None => None,
    };
    let mut txs = Vec::with_capacity(block.transactions.len());
    for (t, r) in block.transactions.iter().zip(&receipts) {
        if r.transaction_hash != t.hash {
            return Err(EvmError::Answer(format!(
                "block {n}: receipt of {} where {} was expected",
                r.transaction_hash, t.hash
            )));
        }
        let trace = match traces.as_mut().map(Iterator::next) {
            Some(Some((hash, frame))) => {
                if hash.is_some_and(|h| h != t.hash) {
                    return Err(EvmError::Answer(format!(
                        "block {n}: trace of {hash:?} where {} was expected",
                        t.hash
                    )));
                }
                match frame {
                    Ok(f) => Some(f),
                    Err(e) => {
                        tracing::warn!(block = n, tx = %t.hash, error = %e, "tx not traced");
                        None
                    }
                }
            }
            Some(None) => {
                return Err(EvmError::Answer(format!(
                    "block {n}: fewer traces than txs"
                )));
            }
            None => None,
        };
        let mut ends = Vec::new();
        if let Some(root) = &trace {
            frame_ends(root, &mut ends);
        }
        let input = t
            .input
            .decode()
            .ok_or_else(|| EvmError::Answer(format!("tx {}: input is not hex", t.hash)))?;
        let mut transfers = Vec::new();
        let mut messenger_logs = Vec::new();
        let mut logs = keep_logs.then(|| Vec::with_capacity(r.logs.len()));
        for log in &r.logs {
            let data = log
                .data
                .decode()
                .ok_or_else(|| EvmError::Answer(format!("tx {}: log data is not hex", t.hash)))?;
            if let Some(all) = &mut logs {
                all.push(Log {
                    address: log.address,
                    log_index: log.log_index,
                    topics: log.topics.clone(),
                    data: data.clone(),
                });
            }
            if let Some(decoded) = decode_transfer_log(&log.topics, &data) {
                transfers.push((log.address, log.log_index, decoded));
            } else if log.address == TELEPORTER_MESSENGER_V1 {
                messenger_logs.push(MessengerLog {
                    log_index: log.log_index,
                    topics: log.topics.clone(),
                    data,
                });
            }
        }
        txs.push(Tx {
            hash: t.hash,
            nonce: t.nonce,
            from: t.from,
            to: t.to,
            value: t.value,
            gas: t.gas,
            gas_price: t.gas_price,
            max_fee: t.max_fee_per_gas,
            max_priority_fee: t.max_priority_fee_per_gas,
            input,
            tx_type: t.tx_type,
            gas_used: r.gas_used,
            effective_gas_price: r.effective_gas_price.or(t.gas_price).unwrap_or(U256::ZERO),
            contract_address: r.contract_address,
            status: r.succeeded(),
            emitters: r.logs.iter().map(|l| l.address).collect(),
            transfers,
            internals: trace.as_ref().map(internal_transactions),
            frame_ends: ends,
            messenger_logs,
            logs,
        });
    }
    Ok(Block {
        number: n,
        hash: block.hash,
        parent: block.parent_hash,
        timestamp: block.timestamp,
        miner: block.miner,
        gas_limit: block.gas_limit,
        gas_used: block.gas_used,
        base_fee: block.base_fee_per_gas,
        block_gas_cost: block.block_gas_cost,
        txs,
    })
}

/// Reads fetched blocks on a thread with a stack deep enough for any trace; with `keep_logs`,
/// each tx keeps all its logs.
pub async fn parse_batch(
    blocks: Vec<FetchedBlock>,
    keep_logs: bool,
) -> Result<Vec<Block>, EvmError> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("evm-parse".into())
        .stack_size(PARSE_STACK)
        .spawn(move || {
            // Frames are parsed and dropped (recursively) on this stack.
            let parsed = blocks.iter().map(|b| parse_block(b, keep_logs)).collect();
            let _ = tx.send(parsed);
        })
        .map_err(|e| EvmError::Answer(format!("cannot start the parsing thread: {e}")))?;
    rx.await
        .map_err(|_| EvmError::Answer("the parsing thread ended without an answer".into()))?
}
