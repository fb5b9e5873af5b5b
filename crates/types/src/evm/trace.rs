//! `debug_traceBlockByNumber` / `debug_traceTransaction` with `{"tracer":"callTracer"}`: one
//! entry per transaction, each a tree of call frames as geth's native call tracer writes them
//! (coreth and subnet-evm use it through libevm; anvil's revm-inspectors writes the same shape).
//!
//! Frames nest two JSON levels each, past serde_json's default recursion limit (128) for calls
//! more than about 60 deep: [`parse_block_trace`] and [`parse_call_frame`] check that the text
//! nests no deeper than the EVM allows ([`MAX_TRACE_NESTING`]) and then parse without the limit,
//! so the stack they need is bounded: a 1,024-deep tree took between 1.5 and 2 MiB of stack in a
//! release build (about 1.7 KiB a frame) and much more in a debug build, so run them on a thread
//! with at least 8 MiB of stack, not on a default 2 MiB tokio worker.

use alloy_primitives::{Address, B256, U256};
use serde::Deserialize;

use super::hex_str::HexStr;
use super::quantity;

/// One transaction's trace in a block trace: `{txHash?, result}` or `{txHash?, error}`
/// (`txHash` is missing on older geth versions; the entries are then in block order).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceEntry<'a> {
    /// The traced transaction.
    #[serde(default)]
    pub tx_hash: Option<B256>,
    /// The root call frame, when tracing succeeded.
    #[serde(default, borrow)]
    pub result: Option<CallFrame<'a>>,
    /// Why tracing failed.
    #[serde(default)]
    pub error: Option<String>,
}

impl<'a> TraceEntry<'a> {
    /// The root frame, or the tracer's error (an entry with neither is an error too).
    pub fn into_result(self) -> Result<CallFrame<'a>, String> {
        match (self.result, self.error) {
            (Some(frame), None) => Ok(frame),
            (_, Some(error)) => Err(error),
            (None, None) => Err("trace entry without result or error".into()),
        }
    }
}

/// The opcode (or transaction kind) that opened a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum CallKind {
    /// `CALL` (also the root frame of a call transaction).
    Call,
    /// `CALLCODE`.
    CallCode,
    /// `STATICCALL`.
    StaticCall,
    /// `DELEGATECALL`.
    DelegateCall,
    /// `CREATE` (also the root frame of a creation transaction).
    Create,
    /// `CREATE2`.
    Create2,
    /// `SELFDESTRUCT` (geth renders the value sent to the beneficiary as a frame).
    SelfDestruct,
    /// Anything else a tracer may write.
    #[serde(other)]
    Other,
}

/// One frame of a call tree.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallFrame<'a> {
    /// How the frame was opened.
    #[serde(rename = "type")]
    pub kind: CallKind,
    /// Caller.
    pub from: Address,
    /// Callee, or the created contract; absent when a creation failed.
    #[serde(default)]
    pub to: Option<Address>,
    /// Value sent, wei (absent for `STATICCALL` and `DELEGATECALL`).
    #[serde(default)]
    pub value: Option<U256>,
    /// Gas given to the frame (for the root: the tx gas limit on geth/coreth, less the
    /// intrinsic gas on anvil).
    #[serde(default, deserialize_with = "quantity::u64")]
    pub gas: u64,
    /// Gas used by the frame.
    #[serde(default, deserialize_with = "quantity::u64")]
    pub gas_used: u64,
    /// Calldata, or init code for a creation.
    #[serde(default, borrow)]
    pub input: HexStr<'a>,
    /// Return data, or runtime code for a creation.
    #[serde(default, borrow)]
    pub output: Option<HexStr<'a>>,
    /// Why the frame failed (`execution reverted`, `out of gas`, ...).
    #[serde(default)]
    pub error: Option<String>,
    /// The decoded revert reason, when the tracer could decode one.
    #[serde(default)]
    pub revert_reason: Option<String>,
    /// Sub-frames, in execution order.
    #[serde(default, borrow)]
    pub calls: Vec<CallFrame<'a>>,
}

/// The deepest JSON nesting a `callTracer` answer can have: a block trace's array and entry
/// object, then two levels a frame (the object and its `calls` array) for the root and the
/// 1,024 calls the EVM can nest below it, then `withLog`'s `logs`, a log and its `topics`.
pub const MAX_TRACE_NESTING: usize = 2 + 2 * 1025 + 3;

/// Why a trace answer could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TraceParseError {
    /// The text nests deeper than any EVM call tree.
    #[error("trace nests {0} levels deep, more than an EVM call tree can")]
    TooDeep(usize),
    /// Not the expected JSON.
    #[error("trace JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// How deep the text's arrays and objects nest (brackets inside strings do not count).
pub fn json_nesting(text: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

fn parse_bounded<'a, T: serde::Deserialize<'a>>(
    text: &'a str,
    limit: usize,
) -> Result<T, TraceParseError> {
    let depth = json_nesting(text.as_bytes());
    if depth > limit {
        return Err(TraceParseError::TooDeep(depth));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Reads a `debug_traceBlockByNumber` / `debug_traceBlockByHash` answer (its `result`).
pub fn parse_block_trace(text: &str) -> Result<Vec<TraceEntry<'_>>, TraceParseError> {
    parse_bounded(text, MAX_TRACE_NESTING)
}

/// Reads a `debug_traceTransaction` answer (its `result`): one root frame.
pub fn parse_call_frame(text: &str) -> Result<CallFrame<'_>, TraceParseError> {
    parse_bounded(text, MAX_TRACE_NESTING - 2)
}
