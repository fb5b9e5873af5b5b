//! `debug_traceBlockByNumber` / `debug_traceTransaction` with `{"tracer":"callTracer"}`: one
//! entry per transaction, each a tree of call frames as geth's native call tracer writes them
//! (coreth and subnet-evm use it through libevm; anvil's revm-inspectors writes the same shape).
//!
//! Deep trees nest two JSON levels per frame, so a parser must lift serde_json's default
//! recursion limit (128) to read traces deeper than about 60 calls.

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
