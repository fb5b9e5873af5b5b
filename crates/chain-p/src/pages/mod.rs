//! [`PChainPages`]: the Data API's P-Chain reads, each from one store snapshot, as keyset pages.
//! A page resumes strictly past the position its caller carries in a page token (the `next`
//! bytes each page returns); the REST layer authenticates those bytes, this layer gives them
//! meaning. Nothing here knows HTTP.

mod activity;
mod balances;
mod blocks;
mod c_blocks;
mod c_txs;
mod chain_blocks;
mod l1;
mod rewards;
mod staking;
mod subnets;
mod supply;
mod tx;
mod txs;
mod utxos;
mod validators;

use std::sync::Arc;

use snowline_store::{Linear, Store};
use snowline_types::Id;

pub use activity::LastActivity;
pub use balances::{AssetTotal, Bucket, PBalances, bucket};
pub use blocks::BlockPage;
pub use c_blocks::CBlockRef;
pub use c_txs::CTxPosition;
pub use l1::{L1Page, L1Query};
pub use rewards::{HistoricalReward, PendingReward, RewardPage, RewardQuery};
pub use snowline_query::SortPosition as Position;
pub use staking::{
    DelegatorEntry, DelegatorPage, DelegatorQuery, MAX_VALIDATOR_STAKE,
    MAX_VALIDATOR_WEIGHT_FACTOR, NetworkStaking, StakerStatus, ValidatorEntry, ValidatorPage,
    ValidatorQuery, ValidatorSort, bls_signer, delegation_capacity, delegation_fee,
};
pub use subnets::{ChainPage, SubnetEntry, SubnetPage};
pub use supply::PSupply;
pub use txs::{PTx, PTxL1, PTxPage, PTxQuery};
pub use utxos::{PUtxo, PUtxoQuery, SharedUtxoPage, UtxoPage};
pub use validators::{SetValidator, ValidatorSet, ValidatorSetError};

use crate::error::PChainError;
use crate::reader::PReader;
use crate::rows::ChainRow;
use crate::tables::{META_CHAIN_TIME, PhMeta};

/// Why a page could not be read: the store's one page error, reading the P-Chain tables.
pub type PageError = snowline_store::PageError<PChainError>;

/// What the index knows of the P-Chain's progress, read in one snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChainTip {
    /// Height of the last applied block (`None` before the first).
    pub height: Option<u64>,
    /// The chain time: the last block's time (the genesis time before the first block).
    pub chain_time: u64,
}

/// The Data API's view of the P-Chain: every call reads one snapshot, so a page is consistent
/// while ingestion writes.
#[derive(Debug, Clone)]
pub struct PChainPages {
    pub(crate) store: Arc<Store>,
}

impl PChainPages {
    /// Pages over `store` (which holds the P-Chain tables).
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }

    /// The chain created on the P-Chain with id `id` (genesis chains too), if any.
    pub fn chain(&self, id: &Id) -> Result<Option<ChainRow>, PageError> {
        let snapshot = self.store.snapshot();
        Ok(PReader::new(&snapshot).chain(id)?)
    }

    /// The height and chain time of the index.
    pub fn tip(&self) -> Result<ChainTip, PageError> {
        let snapshot = self.store.snapshot();
        tip(&snapshot)
    }
}

fn tip(view: &impl snowline_store::ReadView) -> Result<ChainTip, PageError> {
    Ok(ChainTip {
        height: PReader::new(view).height()?,
        chain_time: view.get::<PhMeta>(&META_CHAIN_TIME)?.unwrap_or(0),
    })
}

/// The store's scan direction of a sort order.
fn direction(sort: snowline_query::SortOrder) -> snowline_store::Direction {
    match sort {
        snowline_query::SortOrder::Asc => snowline_store::Direction::Forward,
        snowline_query::SortOrder::Desc => snowline_store::Direction::Reverse,
    }
}

/// Unwraps rows read in one batched lookup, each of which the index that named it promises.
fn expect_rows<T, K: std::fmt::Display>(
    rows: Vec<Option<Linear<T>>>,
    ids: &[K],
    what: &str,
) -> Result<Vec<T>, PChainError> {
    rows.into_iter()
        .zip(ids)
        .map(|(row, id)| {
            row.map(|Linear(r)| r).ok_or_else(|| {
                PChainError::Corrupt(format!("an index names {what} {id}, which is not stored"))
            })
        })
        .collect()
}
