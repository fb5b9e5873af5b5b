//! What the P-Chain index keeps for the metrics service and how it is read: each subnet's
//! staking figures per UTC day (`staking_days.rs` at ingest, `staking.rs` read), the L1
//! validators' continuous fees per day and as fee curves (`l1_usage.rs`, `l1.rs`), a subnet's
//! validators by date range (`validators_by_date.rs`), and every chain and subnet the P-Chain
//! created, for the legacy listings (`created.rs`). The reads are methods of
//! [`PChainPages`](crate::pages::PChainPages), each from one snapshot. See `docs/metrics-api.md`.

mod created;
mod l1;
pub(crate) mod l1_usage;
mod staking;
pub(crate) mod staking_days;
mod validators_by_date;

use snowline_types::Id;

use crate::error::PChainError;

pub use crate::rows::StakingFigures;
pub(crate) use l1::curve_at;
pub use l1::{L1Figure, L1MetricsError, L1MetricsQuery, L1Point, L1Scope};
pub use staking::{StakingPage, StakingPoint, StakingQuery};
pub use validators_by_date::{RangeValidator, ValidatorRangePage, ValidatorRangeQuery};

/// Why a read of one subnet's history (staking metrics, validators by date range) failed.
#[derive(Debug, thiserror::Error)]
pub enum SubnetReadError {
    /// The P-Chain genesis is not indexed.
    #[error("the P-Chain is not indexed by this instance")]
    NotIndexed,
    /// The subnet was never created on the indexed P-Chain.
    #[error("subnet {0} is not known to the indexed P-Chain")]
    UnknownSubnet(Id),
    /// Reading the index failed (our fault).
    #[error(transparent)]
    Read(#[from] PChainError),
}

impl From<snowline_store::StoreError> for SubnetReadError {
    fn from(e: snowline_store::StoreError) -> Self {
        SubnetReadError::Read(e.into())
    }
}
