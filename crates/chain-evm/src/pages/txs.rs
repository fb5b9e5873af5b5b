//! One transaction with its block, token transfers and internal transactions.

use std::collections::BTreeMap;

use snowline_store::{Linear, ReadView};
use snowline_types::evm::{Address, B256};

use super::{EvmPages, EvmReadError, Transfer, cursor_in, token_rows};
use crate::error::EvmError;
use crate::rows::{BlockRow, InternalRow, TokenRow, TransferKind, TxParts, TxRow, TxTransfer};
use crate::tables::{EvBlocks, EvNftUris, EvTxHashes, EvTxParts, EvTxs};
use crate::token_cache::TokenCache;

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
    /// How many TeleporterMessenger logs it emitted (none: it sent or delivered no ICM message).
    pub messenger_logs: u32,
}

/// Tx `hash` of `chain` with its block, transfers and internal transactions, if indexed: the
/// tx, its parts and its block are three point lookups; the transfers' tokens and NFT URIs one
/// batched lookup each, when there are any.
pub(crate) fn tx_detail(
    view: &impl ReadView,
    cache: Option<&TokenCache>,
    chain: u64,
    hash: B256,
) -> Result<Option<TxDetail>, EvmReadError> {
    let Some(Linear(at)) = view.get::<EvTxHashes>(&(chain, hash.0))? else {
        return Ok(None);
    };
    let Linear(tx) = view
        .get::<EvTxs>(&(chain, at.block, at.index))?
        .ok_or_else(|| corrupt(format!("tx {hash} is indexed at block {}", at.block)))?;
    let parts = parts_of(view, chain, (at.block, at.index))?;
    let Linear(block) = view
        .get::<EvBlocks>(&(chain, tx.block))?
        .ok_or_else(|| corrupt(format!("tx {hash} names block {}", tx.block)))?;
    let transfers = transfers_in(view, chain, &[(hash, &tx, &parts.transfers)])?;
    let tokens = token_rows(view, cache, chain, transfers.iter().map(|t| t.token))?;
    Ok(Some(TxDetail {
        hash,
        tx,
        block,
        transfers,
        tokens,
        internals: parts.internals,
        messenger_logs: parts.messenger_logs,
    }))
}

/// What the tx at `(block, index)` did beyond its own fields (empty when it did none of it).
pub(crate) fn parts_of(
    view: &impl ReadView,
    chain: u64,
    (block, index): (u64, u32),
) -> Result<TxParts, EvmReadError> {
    Ok(view
        .get::<EvTxParts>(&(chain, block, index))?
        .map(|Linear(p)| p)
        .unwrap_or_default())
}

/// The parts of each tx at `(block, index)` of `txs` (empty where it has none), in one batched
/// lookup.
pub(crate) fn parts_of_many(
    view: &impl ReadView,
    chain: u64,
    txs: &[(u64, u32)],
) -> Result<Vec<TxParts>, EvmReadError> {
    let keys: Vec<(u64, u64, u32)> = txs.iter().map(|&(b, i)| (chain, b, i)).collect();
    Ok(view
        .multi_get::<EvTxParts>(&keys)?
        .into_iter()
        .map(|p| p.map(|Linear(p)| p).unwrap_or_default())
        .collect())
}

/// The transfers of each `(hash, tx, transfers)` as [`Transfer`]s, in the order given, NFT
/// moves with their URIs (one batched lookup for all of them).
pub(crate) fn transfers_in(
    view: &impl ReadView,
    chain: u64,
    txs: &[(B256, &TxRow, &Vec<TxTransfer>)],
) -> Result<Vec<Transfer>, EvmReadError> {
    let nft_keys: Vec<(u64, [u8; 20], [u8; 32])> = txs
        .iter()
        .flat_map(|(_, _, ts)| ts.iter())
        .filter(|t| t.kind != TransferKind::Erc20)
        .map(|t| (chain, t.token.0.0, t.token_id.to_be_bytes::<32>()))
        .collect();
    let mut uris = if nft_keys.is_empty() {
        Vec::new()
    } else {
        view.multi_get::<EvNftUris>(&nft_keys)?
    }
    .into_iter();
    let mut out = Vec::new();
    for (hash, tx, ts) in txs {
        for t in ts.iter() {
            let uri = if t.kind == TransferKind::Erc20 {
                None
            } else {
                uris.next().flatten()
            };
            out.push(Transfer {
                token: t.token,
                block: tx.block,
                log_index: t.log_index,
                row: t.row(*hash, tx),
                uri,
            });
        }
    }
    Ok(out)
}

impl EvmPages {
    /// Tx `hash` of `chain` with its block, transfers and internal transactions, if indexed
    /// (a chain with no block indexed is [`EvmReadError::NotIndexed`]).
    pub fn transaction(&self, chain: u64, hash: B256) -> Result<Option<TxDetail>, EvmReadError> {
        let snapshot = self.store.snapshot();
        match tx_detail(&snapshot, self.tokens.as_deref(), chain, hash)? {
            Some(d) => Ok(Some(d)),
            // The chain's cursor only when the tx is not found: a found tx proves it indexed.
            None => cursor_in(&snapshot, chain).map(|_| None),
        }
    }
}

pub(crate) fn corrupt(what: String) -> EvmReadError {
    EvmReadError::Read(EvmError::Corrupt(format!("{what}, which is not stored")))
}
