//! Internal transactions: a `callTracer` tree flattened in depth-first (execution) order and
//! filtered as the Data API lists them: `CALL` / `CALLCODE` frames that move value, and every
//! `CREATE` / `CREATE2` frame. A frame is reverted when it or any frame above it failed.
//!
//! The Data API also names `CREATE3`, which is no opcode (a `CREATE2` proxy that runs `CREATE`);
//! a trace never shows it, so it is never produced here.

use alloy_primitives::{Address, U256};

use super::trace::{CallFrame, CallKind};
use crate::rest::evm::InternalTxType;

/// One listed frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InternalCall {
    /// Depth in the tree: 0 is the root frame (the transaction's own call or creation).
    pub depth: u32,
    /// The frame's opcode.
    pub kind: CallKind,
    /// Caller.
    pub from: Address,
    /// Callee or created contract; `None` when a creation failed.
    pub to: Option<Address>,
    /// Value moved, wei.
    pub value: U256,
    /// Gas given to the frame.
    pub gas_limit: u64,
    /// Gas used by the frame.
    pub gas_used: u64,
    /// Whether this frame or one above it failed, so its effects were undone.
    pub reverted: bool,
}

impl InternalCall {
    /// The Data API's `internalTxType`.
    pub fn internal_tx_type(&self) -> InternalTxType {
        InternalTxType::from(self.kind)
    }
}

impl From<CallKind> for InternalTxType {
    fn from(kind: CallKind) -> Self {
        match kind {
            CallKind::Call => Self::Call,
            CallKind::CallCode => Self::CallCode,
            CallKind::StaticCall => Self::StaticCall,
            CallKind::DelegateCall => Self::DelegateCall,
            CallKind::Create => Self::Create,
            CallKind::Create2 => Self::Create2,
            CallKind::SelfDestruct | CallKind::Other => Self::Unknown,
        }
    }
}

/// Whether the Data API lists a frame of this kind moving this value.
pub fn is_listed(kind: CallKind, value: U256) -> bool {
    match kind {
        CallKind::Call | CallKind::CallCode => !value.is_zero(),
        CallKind::Create | CallKind::Create2 => true,
        CallKind::StaticCall
        | CallKind::DelegateCall
        | CallKind::SelfDestruct
        | CallKind::Other => false,
    }
}

/// The listed frames of a tree, root included (depth 0), in depth-first order. Iterative, so a
/// tree 1,024 calls deep costs no stack.
pub fn internal_transactions(root: &CallFrame<'_>) -> Vec<InternalCall> {
    let mut out = Vec::new();
    // (frame, depth, reverted above it)
    let mut stack: Vec<(&CallFrame<'_>, u32, bool)> = vec![(root, 0, false)];
    while let Some((frame, depth, reverted_above)) = stack.pop() {
        let reverted = reverted_above || frame.error.is_some();
        let value = frame.value.unwrap_or(U256::ZERO);
        if is_listed(frame.kind, value) {
            out.push(InternalCall {
                depth,
                kind: frame.kind,
                from: frame.from,
                to: frame.to,
                value,
                gas_limit: frame.gas,
                gas_used: frame.gas_used,
                reverted,
            });
        }
        for child in frame.calls.iter().rev() {
            stack.push((child, depth.saturating_add(1), reverted));
        }
    }
    out
}
