//! The tokens an address holds, now or after a past block: ERC-20, ERC-1155, or its
//! collectibles (ERC-721 and ERC-1155 together), by standard, contract and token id, from the
//! balances summed at ingest (`ev_holdings`; at a past block, the owner's last snapshot
//! `ev_holding_snapshots` replayed with its change log `ev_holding_log`).

use std::collections::BTreeMap;
use std::ops::Bound;

use rustc_hash::FxHashMap;

use snowline_query::{FilterLimits, decode_position, encode_position, filtered_page};
use snowline_store::{Direction, Linear, ReadView, Snapshot};
use snowline_types::evm::{Address, U256};

use super::balances::balance_at;
use super::{EvmPages, EvmReadError, last_block, nft_details, token_rows};
use crate::rows::{HeldToken, MetadataRow, TokenRow, TransferKind};
use crate::tables::{Addr, EvHoldingLog, EvHoldingSnapshots, EvHoldings, Word};
use crate::token_cache::TokenCache;

/// Which of an address's tokens a listing shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoldingKinds {
    /// ERC-20 tokens.
    Erc20,
    /// ERC-1155 tokens.
    Erc1155,
    /// ERC-721 and ERC-1155 tokens.
    Collectibles,
}

impl HoldingKinds {
    /// The kind codes listed, ascending (the key order).
    fn codes(self) -> &'static [u8] {
        const ERC20: [u8; 1] = [TransferKind::Erc20.code()];
        const ERC1155: [u8; 1] = [TransferKind::Erc1155.code()];
        const BOTH: [u8; 2] = [TransferKind::Erc721.code(), TransferKind::Erc1155.code()];
        match self {
            Self::Erc20 => &ERC20,
            Self::Erc1155 => &ERC1155,
            Self::Collectibles => &BOTH,
        }
    }
}

/// What a holdings listing asks besides the owner and the page.
#[derive(Debug, Clone, Copy)]
pub struct HoldingsQuery<'a> {
    /// The standards listed.
    pub kinds: HoldingKinds,
    /// Only these contracts, when not empty.
    pub contracts: &'a [Address],
    /// After this block (the last indexed one when `None`).
    pub at: Option<u64>,
    /// Contracts left out (the caller's filter, say of tokens flagged as spam), sorted.
    pub hidden: &'a [Address],
}

/// One token an address holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    /// The standard.
    pub kind: TransferKind,
    /// The token contract.
    pub contract: Address,
    /// The token id (zero for ERC-20).
    pub token_id: U256,
    /// The balance (1 for an ERC-721 token held).
    pub balance: U256,
    /// `tokenURI` / `uri` as of the id's last move, when the contract answered (NFTs).
    pub uri: Option<String>,
    /// The metadata fetched for the token (NFTs), when it was.
    pub metadata: Option<MetadataRow>,
    /// What the contract told of itself, when it was asked.
    pub token: Option<TokenRow>,
}

/// One page of holdings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoldingPage {
    /// By standard, contract, token id, ascending; only non-zero balances.
    pub holdings: Vec<Holding>,
    /// The block the balances are as of.
    pub block: u64,
    /// The owner's native balance after that block, wei.
    pub native_balance: U256,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

/// A listing position: kind code, contract, token id.
type Position = (u8, Addr, Word);

impl EvmPages {
    /// One page of the tokens `owner` holds on `chain` as `query` asks, resuming strictly past
    /// `from`, with the owner's native balance after the same block, all from one snapshot. A
    /// block past the last indexed one is [`EvmReadError::BeyondTip`]; a chain indexed from a block
    /// after 0 is [`EvmReadError::PartialHistory`].
    pub fn holdings(
        &self,
        chain: u64,
        owner: Address,
        query: HoldingsQuery<'_>,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<HoldingPage, EvmReadError> {
        let HoldingsQuery {
            kinds,
            contracts,
            at,
            hidden,
        } = query;
        let (snapshot, cursor) = self.open(chain)?;
        if cursor.first > 0 {
            return Err(EvmReadError::PartialHistory {
                chain,
                first: cursor.first,
            });
        }
        let last = last_block(&cursor).ok_or(EvmReadError::NotIndexed(chain))?;
        let block = at.unwrap_or(last);
        if block > last {
            return Err(EvmReadError::BeyondTip { asked: block, last });
        }
        let after = from
            .map(|bytes| decode_position::<Position>(bytes).ok_or(EvmReadError::BadPosition))
            .transpose()?;
        if after.is_some_and(|(k, _, _)| !kinds.codes().contains(&k)) {
            return Err(EvmReadError::BadPosition);
        }
        let o = owner.0.0;
        let mut wanted: Vec<Addr> = contracts.iter().map(|c| c.0.0).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut ranges = Vec::new();
        for &k in kinds.codes() {
            let spans: Vec<(Addr, Addr)> = if wanted.is_empty() {
                vec![([0u8; 20], [0xFF; 20])]
            } else {
                wanted.iter().map(|c| (*c, *c)).collect()
            };
            for (lo, hi) in spans {
                let high = (k, hi, [0xFF; 32]);
                if after.is_some_and(|p| p >= high) {
                    continue;
                }
                let low = match after {
                    Some(p) if p >= (k, lo, [0u8; 32]) => {
                        Bound::Excluded((chain, o, p.0, p.1, p.2))
                    }
                    _ => Bound::Included((chain, o, k, lo, [0u8; 32])),
                };
                ranges.push((low, Bound::Included((chain, o, high.0, high.1, high.2))));
            }
        }
        let scans = ranges
            .into_iter()
            .map(|r| snapshot.scan::<EvHoldings, _>(r, Direction::Forward))
            .collect::<Result<Vec<_>, _>>()?;
        let positions = scans.into_iter().flatten().map(|e| {
            e.map(|((_, _, k, t, id), now)| ((k, t, id), now))
                .map_err(EvmReadError::from)
        });
        let past = (block < last)
            .then(|| held_at(&snapshot, chain, o, kinds.codes(), block))
            .transpose()?;
        let page = filtered_page(
            positions,
            FilterLimits::page(page_size as usize),
            |chunk: &[(Position, Word)]| {
                Ok::<_, EvmReadError>(
                    chunk
                        .iter()
                        .map(|(p, now)| match &past {
                            Some(held) => held.balance(p),
                            None => U256::from_be_bytes(*now),
                        })
                        .collect(),
                )
            },
            |((_, t, _), _), balance| {
                *balance > U256::ZERO && hidden.binary_search(&Address::from(*t)).is_err()
            },
            |_| false,
        )?;
        let holdings = describe(&snapshot, self.tokens.as_deref(), chain, &page.items)?;
        Ok(HoldingPage {
            holdings,
            block,
            native_balance: balance_at(&snapshot, chain, owner, block)?,
            next: page.next.map(|(p, _)| encode_position(&p)),
        })
    }
}

/// An owner's balances after a past block: for each listed kind its last snapshot at or before
/// the block (sorted by token and id), and the change-log rows after it up to the block over it.
struct HeldAt {
    snapshots: Vec<(u8, Vec<HeldToken>)>,
    changed: FxHashMap<Position, Word>,
}

impl HeldAt {
    /// The balance at `p` (zero when neither the log nor the snapshot has it).
    fn balance(&self, p: &Position) -> U256 {
        let (kind, token, id) = p;
        let word = self.changed.get(p).copied().or_else(|| {
            let (_, held) = self.snapshots.iter().find(|(k, _)| k == kind)?;
            held.binary_search_by(|h| (&h.token, &h.id).cmp(&(token, id)))
                .ok()
                .map(|i| held[i].balance)
        });
        word.map_or(U256::ZERO, U256::from_be_bytes)
    }
}

/// `owner`'s balances of `kinds` after `block`: per kind one reverse seek for the last snapshot
/// at or before it and one scan of the change log after that snapshot up to it, however many
/// tokens the owner holds.
fn held_at(
    view: &Snapshot<'_>,
    chain: u64,
    owner: Addr,
    kinds: &[u8],
    block: u64,
) -> Result<HeldAt, EvmReadError> {
    let mut held = HeldAt {
        snapshots: Vec::with_capacity(kinds.len()),
        changed: FxHashMap::default(),
    };
    for &kind in kinds {
        let mut from = 0;
        let last = view
            .scan::<EvHoldingSnapshots, _>(
                (chain, owner, kind, 0)..=(chain, owner, kind, block),
                Direction::Reverse,
            )?
            .next()
            .transpose()?;
        if let Some(((_, _, _, at), Linear(snap))) = last {
            held.snapshots.push((kind, snap.held));
            from = at.saturating_add(1);
        }
        if from <= block {
            let low = (chain, owner, kind, from, [0u8; 20], [0u8; 32]);
            let high = (chain, owner, kind, block, [0xFF; 20], [0xFF; 32]);
            for e in view.scan::<EvHoldingLog, _>(low..=high, Direction::Forward)? {
                let ((_, _, _, _, token, id), balance) = e?;
                held.changed.insert((kind, token, id), balance);
            }
        }
    }
    Ok(held)
}

/// The page's holdings with their URIs and token rows.
fn describe(
    view: &Snapshot<'_>,
    cache: Option<&TokenCache>,
    chain: u64,
    items: &[((Position, Word), U256)],
) -> Result<Vec<Holding>, EvmReadError> {
    // URIs and metadata exist only for NFTs: an ERC-20 page looks none up.
    let erc20 = TransferKind::Erc20.code();
    let uri_keys: Vec<(u64, Addr, Word)> = items
        .iter()
        .filter(|(((k, _, _), _), _)| *k != erc20)
        .map(|(((_, t, id), _), _)| (chain, *t, *id))
        .collect();
    let mut details = nft_details(view, &uri_keys)?.into_iter();
    let mut tokens = token_rows(
        view,
        cache,
        chain,
        items.iter().map(|(((_, t, _), _), _)| Address::from(*t)),
    )?;
    // Each row moves into the last holding of its contract (an ERC-20 page names each contract
    // once); the earlier ones get a copy.
    let mut left: BTreeMap<Addr, usize> = BTreeMap::new();
    for (((_, t, _), _), _) in items {
        *left.entry(*t).or_default() += 1;
    }
    items
        .iter()
        .map(|(((k, t, id), _), balance)| {
            let contract = Address::from(*t);
            let kind = TransferKind::from_code(*k)
                .map_err(|e| EvmReadError::Read(crate::error::EvmError::Corrupt(e.to_string())))?;
            let (uri, metadata) = if kind == TransferKind::Erc20 {
                (None, None)
            } else {
                details.next().unwrap_or_default()
            };
            Ok(Holding {
                kind,
                contract,
                token_id: U256::from_be_bytes(*id),
                balance: *balance,
                uri,
                metadata,
                token: match left.get_mut(t) {
                    Some(n) if *n > 1 => {
                        *n -= 1;
                        tokens.get(&contract).cloned()
                    }
                    _ => tokens.remove(&contract),
                },
            })
        })
        .collect()
}
