//! An address's history: the txs it took part in (sender, recipient, created contract, party to
//! a token transfer or a listed internal tx) within a block range, newest or oldest first, and
//! the token transfers of one standard it sent or received, newest first.

use std::collections::BTreeMap;

use snowline_query::params::BlockRange;
use snowline_query::{FilterLimits, SortOrder, encode_position, filtered_page};
use snowline_store::{Linear, ReadView};
use snowline_types::evm::{Address, B256};

use super::scan::in_order;
use super::transfers::with_uris;
use super::txs::{corrupt, parts_of_many, transfers_in};
use super::{EvmPages, EvmReadError, Transfer};
use crate::rows::{
    AddressTransfer, AddressTxRow, InternalRow, Roles, TokenRow, TransferKind, TxRow, TxTransfer,
};
use crate::tables::{EvTransfersByAddress, EvTransfersByToken, EvTxs, EvTxsByAddress};

/// A tx of an address's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryTx {
    /// What the address did in it.
    pub roles: Roles,
    /// The tx.
    pub tx: TxRow,
    /// The token transfers the address sent or received in it (only when asked for).
    pub transfers: Vec<Transfer>,
    /// The internal txs from or to the address in it (only when asked for).
    pub internals: Vec<InternalRow>,
}

/// One page of an address's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryPage {
    /// In the order asked.
    pub txs: Vec<HistoryTx>,
    /// What each transferred token's contract told of itself.
    pub tokens: BTreeMap<Address, TokenRow>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

/// What a history listing asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryQuery {
    /// Only txs where the address played all these roles (`Roles::default()`: every tx).
    pub only: Roles,
    /// Whether to read the transfers and internal txs the address was party to.
    pub parts: bool,
    /// Newest first (`Desc`) or oldest first.
    pub order: SortOrder,
}

/// One page of an address's transfers of one standard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressTransferPage {
    /// Newest first.
    pub transfers: Vec<Transfer>,
    /// What each transferred token's contract told of itself.
    pub tokens: BTreeMap<Address, TokenRow>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

impl EvmPages {
    /// One page of the txs `address` took part in on `chain` in blocks `range`, in `q.order`,
    /// resuming strictly past `from`; with `q.parts`, each with the transfers and internal txs
    /// the address was party to. A page examines at most `MAX_EXAMINED` entries (the roles
    /// filter), so it may come back short with a position to go on from.
    pub fn address_txs(
        &self,
        chain: u64,
        address: Address,
        range: BlockRange,
        q: HistoryQuery,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<HistoryPage, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let a = address.0.0;
        let entries = in_order::<EvTxsByAddress>(&snapshot, chain, a, range, q.order, from)?
            .map(|e| e.map(|((_, _, block, index), Linear(row))| (block, index, row)));
        let wanted = |row: &AddressTxRow| row.roles.contains(q.only);
        let page = filtered_page(
            entries,
            FilterLimits::page(page_size as usize),
            |chunk: &[(u64, u32, AddressTxRow)]| {
                let keys: Vec<(u64, u64, u32)> = chunk
                    .iter()
                    .filter(|(_, _, r)| wanted(r))
                    .map(|(block, index, _)| (chain, *block, *index))
                    .collect();
                let mut rows = snapshot.multi_get::<EvTxs>(&keys)?.into_iter();
                chunk
                    .iter()
                    .map(|(block, index, r)| {
                        if !wanted(r) {
                            return Ok(None);
                        }
                        match rows.next().flatten() {
                            Some(Linear(tx)) => Ok(Some(tx)),
                            None => Err(corrupt(format!(
                                "an address names tx {index} of block {block}"
                            ))),
                        }
                    })
                    .collect::<Result<Vec<_>, EvmReadError>>()
            },
            |(_, _, r), tx| wanted(r) && tx.is_some(),
            |_| false,
        )?;
        let mut txs: Vec<HistoryTx> = page
            .items
            .into_iter()
            .filter_map(|((_, _, r), tx)| {
                tx.map(|tx| HistoryTx {
                    roles: r.roles,
                    tx,
                    transfers: Vec::new(),
                    internals: Vec::new(),
                })
            })
            .collect();
        if q.parts {
            read_parts(&snapshot, chain, address, &mut txs)?;
        }
        let tokens = self.token_rows(
            &snapshot,
            chain,
            txs.iter().flat_map(|t| t.transfers.iter().map(|x| x.token)),
        )?;
        Ok(HistoryPage {
            txs,
            tokens,
            next: page.next.map(|(b, i, _)| encode_position(&(b, i))),
        })
    }

    /// One page of the `kind` transfers `address` sent or received on `chain` in blocks
    /// `range`, newest first, resuming strictly past `from` (within the `MAX_EXAMINED` budget,
    /// as [`EvmPages::address_txs`]).
    pub fn address_transfers(
        &self,
        chain: u64,
        address: Address,
        kind: TransferKind,
        range: BlockRange,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<AddressTransferPage, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let a = address.0.0;
        type Entry = (u64, u64, u32, AddressTransfer);
        let entries =
            in_order::<EvTransfersByAddress>(&snapshot, chain, a, range, SortOrder::Desc, from)?
                .map(|e| e.map(|((_, _, block, log, sub), Linear(t))| (block, log, sub, t)));
        let page = filtered_page(
            entries,
            FilterLimits::page(page_size as usize),
            |chunk: &[Entry]| {
                let keys: Vec<_> = chunk
                    .iter()
                    .filter(|(_, _, _, t)| t.kind == kind)
                    .map(|(b, l, s, t)| (chain, t.token.0.0, *b, *l, *s))
                    .collect();
                let mut rows = snapshot.multi_get::<EvTransfersByToken>(&keys)?.into_iter();
                chunk
                    .iter()
                    .map(|(b, l, _, t)| {
                        if t.kind != kind {
                            return Ok(None);
                        }
                        match rows.next().flatten() {
                            Some(Linear(row)) => Ok(Some(row)),
                            None => Err(corrupt(format!(
                                "an address names a transfer of {} at block {b} log {l}",
                                t.token
                            ))),
                        }
                    })
                    .collect::<Result<Vec<_>, EvmReadError>>()
            },
            |(_, _, _, t), row| t.kind == kind && row.is_some(),
            |_| false,
        )?;
        let mut transfers = Vec::with_capacity(page.items.len());
        for ((block, log, _, t), row) in page.items {
            let Some(row) = row else { continue };
            transfers.extend(with_uris(
                &snapshot,
                chain,
                t.token,
                vec![(block, log, row)],
            )?);
        }
        let tokens = self.token_rows(&snapshot, chain, transfers.iter().map(|t| t.token))?;
        Ok(AddressTransferPage {
            transfers,
            tokens,
            next: page.next.map(|(b, l, s, _)| encode_position(&(b, l, s))),
        })
    }
}

/// The transfers and internal txs of each of `txs` that `address` was party to, read for the
/// txs whose roles say there are some: one batched lookup of their parts, one of the NFT URIs.
fn read_parts(
    view: &impl ReadView,
    chain: u64,
    address: Address,
    txs: &mut [HistoryTx],
) -> Result<(), EvmReadError> {
    let wanted = Roles::ERC20
        .with(Roles::ERC721)
        .with(Roles::ERC1155)
        .with(Roles::INTERNAL);
    let with_parts: Vec<usize> = (0..txs.len())
        .filter(|&i| txs[i].roles.0 & wanted.0 != 0)
        .collect();
    let keys: Vec<(u64, u32)> = with_parts
        .iter()
        .map(|&i| (txs[i].tx.block, txs[i].tx.index))
        .collect();
    let parts = parts_of_many(view, chain, &keys)?;
    let mine: Vec<Vec<TxTransfer>> = parts
        .iter()
        .map(|p| {
            p.transfers
                .iter()
                .filter(|t| t.from == address || t.to == address)
                .cloned()
                .collect()
        })
        .collect();
    let listed: Vec<(B256, &TxRow, &Vec<TxTransfer>)> = with_parts
        .iter()
        .zip(&mine)
        .map(|(&i, ts)| (txs[i].tx.hash, &txs[i].tx, ts))
        .collect();
    let mut transfers = transfers_in(view, chain, &listed)?.into_iter();
    for ((&i, p), ts) in with_parts.iter().zip(parts).zip(&mine) {
        let h = &mut txs[i];
        h.transfers = transfers.by_ref().take(ts.len()).collect();
        h.internals = p
            .internals
            .into_iter()
            .filter(|f| f.from == address || f.to == Some(address))
            .collect();
    }
    Ok(())
}
