//! One transaction with its block, token transfers and internal transactions.

use std::collections::BTreeMap;

use snowline_store::{Direction, Linear, ReadView};
use snowline_types::evm::{Address, B256};

use super::transfers::with_uris;
use super::{EvmPages, EvmReadError, Transfer, token_rows};
use crate::error::EvmError;
use crate::rows::{BlockRow, InternalRow, TokenRow, TxRow};
use crate::tables::{EvBlocks, EvInternalByTx, EvTransfersByToken, EvTransfersByTx, EvTxs};

/// A transaction with everything its detail shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxDetail {
    /// Its hash.
    pub hash: B256,
    /// The transaction.
    pub tx: TxRow,
    /// Its block.
    pub block: BlockRow,
    /// Its token transfers, by log index (then batch index).
    pub transfers: Vec<Transfer>,
    /// What each transferred token's contract told of itself.
    pub tokens: BTreeMap<Address, TokenRow>,
    /// Its internal transactions, depth-first (the root frame first when listed).
    pub internals: Vec<InternalRow>,
}

/// Tx `hash` of `chain` with its block, transfers and internal transactions, if indexed.
pub(crate) fn tx_detail(
    view: &impl ReadView,
    chain: u64,
    hash: B256,
) -> Result<Option<TxDetail>, EvmReadError> {
    let h = hash.0;
    let Some(Linear(tx)) = view.get::<EvTxs>(&(chain, h))? else {
        return Ok(None);
    };
    let Linear(block) = view
        .get::<EvBlocks>(&(chain, tx.block))?
        .ok_or_else(|| corrupt(format!("tx {hash} names block {}", tx.block)))?;
    let transfers = transfers_of(view, chain, hash)?;
    let tokens = token_rows(view, chain, transfers.iter().map(|t| t.token))?;
    let internals = internals_of(view, chain, hash)?;
    Ok(Some(TxDetail {
        hash,
        tx,
        block,
        transfers,
        tokens,
        internals,
    }))
}

/// The token transfers of tx `hash`, by log index (then batch index).
pub(crate) fn transfers_of(
    view: &impl ReadView,
    chain: u64,
    hash: B256,
) -> Result<Vec<Transfer>, EvmReadError> {
    let h = hash.0;
    let refs = view
        .prefix_scan::<EvTransfersByTx, _>(&(chain, h), None, Direction::Forward)?
        .map(|e| e.map(|((_, _, log, sub), Linear(r))| (log, sub, r)))
        .collect::<Result<Vec<_>, _>>()?;
    let keys: Vec<_> = refs
        .iter()
        .map(|(log, sub, r)| (chain, r.token.0.0, r.block, *log, *sub))
        .collect();
    let rows = view.multi_get::<EvTransfersByToken>(&keys)?;
    let mut transfers = Vec::with_capacity(refs.len());
    for ((log, _, r), row) in refs.iter().zip(rows) {
        let Linear(row) =
            row.ok_or_else(|| corrupt(format!("tx {hash} names a transfer at log {log}")))?;
        transfers.extend(with_uris(view, chain, r.token, vec![(r.block, *log, row)])?);
    }
    Ok(transfers)
}

/// The internal transactions of tx `hash`, depth-first.
pub(crate) fn internals_of(
    view: &impl ReadView,
    chain: u64,
    hash: B256,
) -> Result<Vec<InternalRow>, EvmReadError> {
    Ok(view
        .prefix_scan::<EvInternalByTx, _>(&(chain, hash.0), None, Direction::Forward)?
        .map(|e| e.map(|(_, Linear(r))| r))
        .collect::<Result<Vec<_>, _>>()?)
}

impl EvmPages {
    /// Tx `hash` of `chain` with its block, transfers and internal transactions, if indexed.
    pub fn transaction(&self, chain: u64, hash: B256) -> Result<Option<TxDetail>, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        tx_detail(&snapshot, chain, hash)
    }
}

pub(crate) fn corrupt(what: String) -> EvmReadError {
    EvmReadError::Read(EvmError::Corrupt(format!("{what}, which is not stored")))
}
