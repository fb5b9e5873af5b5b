//! [`EvmPages`]: the Data API's EVM reads, each from one store snapshot. Listings are keyset
//! pages: a page resumes strictly past the position its caller carries in a page token (the
//! `next` bytes each page returns); the REST layer authenticates those bytes, this layer gives
//! them meaning. Nothing here knows HTTP.

mod balances;
mod blocks;
mod bridged;
mod collections;
mod composite;
mod contracts;
mod history;
mod holders;
mod holdings;
mod internals;
mod latest;
mod nfts;
mod scan;
mod transfers;
mod txs;

use std::collections::BTreeMap;
use std::sync::Arc;

use snowline_store::{Linear, Mode, ReadView, Snapshot, Store, StoreError};
use snowline_types::evm::Address;

pub use balances::NativeBalance;
pub use blocks::BlockId;
pub use collections::{CollectionPage, CollectionToken, ContractFacts};
pub use composite::{
    Asset, CompositePage, LOOKING_GLASS_MAX_ROWS, LookingGlassError, Operator, Span, SubQuery,
};
pub use contracts::{ContractPage, Deployed};
pub use history::{AddressTransferPage, HistoryPage, HistoryQuery, HistoryTx};
pub use holders::{HolderPage, NftHolders};
pub use holdings::{Holding, HoldingKinds, HoldingPage, HoldingsQuery};
pub use internals::InternalPage;
pub use latest::{BlockPage, ListedBlock, ListedTx, StatusFilter, TxPage};
pub use nfts::{Erc721Page, OwnedNft};
pub use transfers::{Transfer, TransferPage};
pub use txs::TxDetail;

use crate::error::EvmError;
use crate::rows::{CursorRow, MetadataRow, TokenRow};
use crate::tables::{Addr, EvCursor, EvNftMetadata, EvNftUris, EvTokens, Word};
use crate::token_cache::TokenCache;

/// Why an EVM read could not be answered (the store's generic `PageError` carries only a
/// read failure and a bad position; EVM reads also know untraced chains, partial histories
/// and heights beyond the tip).
#[derive(Debug, thiserror::Error)]
pub enum EvmReadError {
    /// The store holds no block of the chain: it is not indexed here (yet).
    #[error("chain {0} is not indexed by this instance yet")]
    NotIndexed(u64),
    /// The position to resume from is not one this layer wrote (a token for another listing).
    #[error("the page position does not fit this listing")]
    BadPosition,
    /// A block past the last one indexed.
    #[error("block {asked} is not indexed yet (the last indexed block is {last})")]
    BeyondTip {
        /// The block asked for.
        asked: u64,
        /// The last block indexed.
        last: u64,
    },
    /// Internal transactions asked for blocks the node served without call traces.
    #[error(
        "internal transactions are not known from block {0} on: the chain's node served those \
         blocks without call traces (debug_traceBlockByNumber)"
    )]
    Untraced(u64),
    /// No block up to the one asked touched the address, and the chain's genesis allocation is
    /// not known (or the index starts after block 0): its native balance there is not known.
    #[error(
        "the native balance of {address} on chain {chain} is not known before the index saw \
         the address: the chain's genesis allocation is not known to this index (give the chain \
         a genesisFile or genesisAccounts in the EVM sources, or index the P-Chain that created \
         it, from block 0)"
    )]
    GenesisUnknown {
        /// The chain.
        chain: u64,
        /// The address.
        address: Address,
    },
    /// Token balances asked of a chain indexed from a block after 0: they are summed from the
    /// transfer logs, and the logs before that block are not indexed.
    #[error(
        "token balances on chain {chain} are not known: they are summed from the transfer logs, \
         and this index holds the chain from block {first} on only (startBlock)"
    )]
    PartialHistory {
        /// The chain.
        chain: u64,
        /// Its first indexed block.
        first: u64,
    },
    /// Reading the index failed (our fault).
    #[error(transparent)]
    Read(#[from] EvmError),
}

impl From<StoreError> for EvmReadError {
    fn from(e: StoreError) -> Self {
        EvmReadError::Read(e.into())
    }
}

/// The Data API's view of the EVM chains: every call reads one snapshot, so a page is
/// consistent while ingestion writes.
#[derive(Debug, Clone)]
pub struct EvmPages {
    store: Arc<Store>,
    /// Token rows kept in memory, when the store's writer clears them as they change.
    tokens: Option<Arc<TokenCache>>,
}

impl EvmPages {
    /// Pages over `store` (which holds the EVM tables).
    pub fn new(store: Arc<Store>) -> Self {
        Self {
            store,
            tokens: None,
        }
    }

    /// Reads token rows through `cache` (which must be of the same store, and given to its
    /// writer, [`crate::SyncConfig::tokens`], so that it is cleared as rows change).
    pub fn with_token_cache(mut self, cache: Arc<TokenCache>) -> Self {
        self.tokens = Some(cache);
        self
    }

    /// The token rows of `contracts` on `chain`: through the cache when there is one, else
    /// from `view`.
    fn token_rows(
        &self,
        view: &impl ReadView,
        chain: u64,
        contracts: impl IntoIterator<Item = Address>,
    ) -> Result<BTreeMap<Address, TokenRow>, EvmReadError> {
        token_rows(view, self.tokens.as_deref(), chain, contracts)
    }

    /// Where the index of `chain` stands (`None`: not indexed).
    pub fn cursor(&self, chain: u64) -> Result<Option<CursorRow>, EvmReadError> {
        Ok(self.store.get::<EvCursor>(&chain)?.map(|Linear(c)| c))
    }

    /// What the token probes of `contract` on `chain` found (`None`: never probed).
    pub fn token(&self, chain: u64, contract: Address) -> Result<Option<TokenRow>, EvmReadError> {
        Ok(self
            .store
            .get::<EvTokens>(&(chain, contract.0.0))?
            .map(|Linear(t)| t))
    }

    /// A snapshot and the chain's cursor in it; a chain with no block indexed is
    /// [`EvmReadError::NotIndexed`].
    fn open(&self, chain: u64) -> Result<(Snapshot<'_>, CursorRow), EvmReadError> {
        let snapshot = self.store.snapshot();
        let cursor = cursor_in(&snapshot, chain)?;
        Ok((snapshot, cursor))
    }

    /// Whether reads go to the store itself rather than a snapshot: a secondary instance (the
    /// metrics service's) has no snapshots in RocksDB, and its data changes only when it
    /// catches up with the writer, so a read between two catch-ups is consistent all the same.
    fn unsnapshotted(&self) -> bool {
        self.store.mode() == Mode::Secondary
    }
}

/// The cursor of `chain` in `view`; a chain with none is [`EvmReadError::NotIndexed`].
fn cursor_in(view: &impl ReadView, chain: u64) -> Result<CursorRow, EvmReadError> {
    view.get::<EvCursor>(&chain)?
        .map(|Linear(c)| c)
        .ok_or(EvmReadError::NotIndexed(chain))
}

/// The last block a cursor covers (`None` before the first).
fn last_block(cursor: &CursorRow) -> Option<u64> {
    cursor.next.checked_sub(1).filter(|l| *l >= cursor.first)
}

/// An NFT's URI as of its last move and its fetched metadata, each when known.
type NftDetails = (Option<String>, Option<MetadataRow>);

/// The [`NftDetails`] of each NFT `(chain, contract, id)`, in two batched lookups.
fn nft_details(
    view: &impl ReadView,
    keys: &[(u64, Addr, Word)],
) -> Result<Vec<NftDetails>, EvmReadError> {
    let uris = view.multi_get::<EvNftUris>(keys)?;
    let fetched = view.multi_get::<EvNftMetadata>(keys)?;
    Ok(uris
        .into_iter()
        .zip(fetched)
        .map(|(uri, m)| (uri, m.map(|Linear(m)| m)))
        .collect())
}

/// The token rows of `contracts` (those read by `eth_call`; a contract never probed is absent),
/// in one batched lookup: of `view`, or of those `cache` does not hold. A cached row is the
/// store's latest, which may be newer than `view` (a row only gains facts).
fn token_rows(
    view: &impl ReadView,
    cache: Option<&TokenCache>,
    chain: u64,
    contracts: impl IntoIterator<Item = Address>,
) -> Result<BTreeMap<Address, TokenRow>, EvmReadError> {
    let mut wanted: Vec<Address> = contracts.into_iter().collect();
    wanted.sort_unstable();
    wanted.dedup();
    if let Some(cache) = cache {
        return Ok(cache.rows(chain, wanted)?);
    }
    let keys: Vec<(u64, [u8; 20])> = wanted.iter().map(|a| (chain, a.0.0)).collect();
    let rows = view.multi_get::<EvTokens>(&keys)?;
    Ok(wanted
        .into_iter()
        .zip(rows)
        .filter_map(|(a, row)| row.map(|Linear(r)| (a, r)))
        .collect())
}
