//! The holders of a token, for the metrics service's Looking Glass: an NFT collection's holders
//! with the number of its tokens each holds now, and the holders of an ERC-20 whose balance
//! reached a threshold within a time range, with their balance at its end. Both read the token's
//! `ev_holders` range whole (a cost in the token's holders, not the page), the second each
//! holder's `ev_holding_history` within the range too.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;

use snowline_store::{Direction, ReadView};
use snowline_types::evm::{Address, U256};

use super::composite::block_window;
use super::{EvmPages, EvmReadError, cursor_in, token_rows};
use crate::rows::{TokenRow, TransferKind};
use crate::tables::{Addr, EvHolders, EvHoldingHistory, Word};

/// One page of holders, by address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HolderPage {
    /// Each holder and its figure (tokens held, or balance).
    pub holders: Vec<(Address, U256)>,
    /// The last holder listed, when more follow.
    pub next: Option<Address>,
}

/// An NFT collection's holders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NftHolders {
    /// The page, each holder with the number of the collection's tokens it holds.
    pub page: HolderPage,
    /// Holders of at least one token.
    pub total_holders: u64,
    /// Token ids held by someone (not burnt).
    pub total_tokens: u64,
    /// What the collection's contract told of itself, when it was asked.
    pub token: Option<TokenRow>,
}

/// The balances of every holder `token` of standard `kind` ever had, by holder then id.
fn holdings(
    view: &impl ReadView,
    chain: u64,
    token: Addr,
    kind: u8,
    after: Option<Addr>,
) -> Result<impl Iterator<Item = Result<(Addr, Word, U256), EvmReadError>> + '_, EvmReadError> {
    let low = match after {
        Some(a) => Bound::Excluded((chain, token, kind, a, [0xFF; 32])),
        None => Bound::Included((chain, token, kind, [0u8; 20], [0u8; 32])),
    };
    let high = Bound::Included((chain, token, kind, [0xFF; 20], [0xFF; 32]));
    Ok(view
        .scan::<EvHolders, _>((low, high), Direction::Forward)?
        .map(|e| {
            e.map(|((_, _, _, owner, id), w)| (owner, id, U256::from_be_bytes(w)))
                .map_err(EvmReadError::from)
        }))
}

/// The first `size` of `figures` past `after`, with the last listed when more follow.
pub(super) fn page_of(figures: BTreeMap<Addr, U256>, size: usize) -> HolderPage {
    let mut holders: Vec<(Address, U256)> = figures
        .into_iter()
        .take(size.saturating_add(1))
        .map(|(a, v)| (Address::from(a), v))
        .collect();
    let next = (holders.len() > size).then(|| {
        holders.truncate(size);
        holders.last().map(|(a, _)| *a)
    });
    HolderPage {
        holders,
        next: next.flatten(),
    }
}

impl EvmPages {
    /// The holders of NFT collection `contract` on `chain` now, by address, strictly past
    /// `after`, each with the number of its tokens held (ERC-1155 amounts summed).
    pub fn nft_holders(
        &self,
        chain: u64,
        contract: Address,
        size: usize,
        after: Option<Address>,
    ) -> Result<NftHolders, EvmReadError> {
        if self.unsnapshotted() {
            nft_holders_in(&*self.store, chain, contract, (size, after))
        } else {
            nft_holders_in(&self.store.snapshot(), chain, contract, (size, after))
        }
    }

    /// The holders of ERC-20 `token` on `chain` whose balance was at least `threshold` at some
    /// point of the blocks timed within `[from, to]` (Unix seconds; the balance entering the
    /// first such block counts), by address strictly past `after`, each with its balance after
    /// the last such block.
    pub fn erc20_holders_over_time(
        &self,
        chain: u64,
        token: Address,
        threshold: U256,
        range: (u64, u64),
        size: usize,
        after: Option<Address>,
    ) -> Result<HolderPage, EvmReadError> {
        let page = (size, after);
        if self.unsnapshotted() {
            erc20_holders_in(&*self.store, (chain, token), threshold, range, page)
        } else {
            erc20_holders_in(
                &self.store.snapshot(),
                (chain, token),
                threshold,
                range,
                page,
            )
        }
    }
}

/// [`EvmPages::nft_holders`] over `view`.
fn nft_holders_in(
    view: &impl ReadView,
    chain: u64,
    contract: Address,
    (size, after): (usize, Option<Address>),
) -> Result<NftHolders, EvmReadError> {
    cursor_in(view, chain)?;
    let c = contract.0.0;
    let mut held: BTreeMap<Addr, U256> = BTreeMap::new();
    let mut ids: BTreeSet<Word> = BTreeSet::new();
    for kind in [TransferKind::Erc721, TransferKind::Erc1155] {
        for entry in holdings(view, chain, c, kind.code(), None)? {
            let (owner, id, balance) = entry?;
            if balance.is_zero() {
                continue;
            }
            let n = held.entry(owner).or_default();
            *n = n.saturating_add(balance);
            ids.insert(id);
        }
    }
    let total_holders = held.len() as u64;
    let listed: BTreeMap<Addr, U256> = match after {
        Some(a) => held
            .split_off(&a.0.0)
            .into_iter()
            .filter(|(o, _)| *o != a.0.0)
            .collect(),
        None => held,
    };
    Ok(NftHolders {
        page: page_of(listed, size),
        total_holders,
        total_tokens: ids.len() as u64,
        token: token_rows(view, None, chain, [contract])?.remove(&contract),
    })
}

/// [`EvmPages::erc20_holders_over_time`] over `view`.
fn erc20_holders_in(
    view: &impl ReadView,
    (chain, token): (u64, Address),
    threshold: U256,
    (from, to): (u64, u64),
    (size, after): (usize, Option<Address>),
) -> Result<HolderPage, EvmReadError> {
    let cursor = cursor_in(view, chain)?;
    let Some((start, end)) = block_window(view, chain, &cursor, (from, to))? else {
        return Ok(HolderPage {
            holders: Vec::new(),
            next: None,
        });
    };
    let t = token.0.0;
    let kind = TransferKind::Erc20.code();
    let mut found: BTreeMap<Addr, U256> = BTreeMap::new();
    for entry in holdings(view, chain, t, kind, after.map(|a| a.0.0))? {
        let (owner, _, _) = entry?;
        let low = (chain, owner, kind, t, [0u8; 32], 0u64);
        let high = (chain, owner, kind, t, [0u8; 32], end);
        let mut at_end = None;
        let mut reached = false;
        for row in view.scan::<EvHoldingHistory, _>(low..=high, Direction::Reverse)? {
            let ((.., block), w) = row?;
            let balance = U256::from_be_bytes(w);
            at_end.get_or_insert(balance);
            reached |= balance >= threshold;
            if block < start || reached {
                break;
            }
        }
        if reached {
            // The balance after the window's last block: the first row read, newest first.
            found.insert(owner, at_end.unwrap_or(U256::ZERO));
            if found.len() > size {
                break;
            }
        }
    }
    Ok(page_of(found, size))
}
