//! What the AVAX supply figures read from the P-Chain index (`docs/pchain-history.md`,
//! "AVAX supply"): the burned-AVAX counters the derivation keeps for the P-Chain's txs and the
//! C-Chain's atomic txs, the L1 validators' continuous fees paid, the genesis's initial supply,
//! the reward calculator's current supply with the potential rewards and stakes of the
//! primary-network stakers not settled yet, and the stakeable-locked AVAX not staked.

use std::ops::Bound;

use snowline_store::{Direction, ReadView};

use super::{PChainPages, PageError, tip};
use crate::error::PChainError;
use crate::metrics::{L1MetricsError, curve_at};
use crate::tables::{
    FEE_CURVE_TOTAL, META_C_BURNED, META_INITIAL_SUPPLY, META_L1_ACCRUED_FEES, META_P_BURNED,
    META_UNSETTLED_REWARDS, META_UNSETTLED_STAKE, PhMeta, PhStakeableLocked,
};

/// The P-Chain's part of the AVAX supply, nAVAX, at the chain time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PSupply {
    /// The genesis's initial supply.
    pub initial_supply: u64,
    /// The reward calculator's current supply: the initial supply plus the rewards of the
    /// stakers committed and the potential rewards of those not settled.
    pub current_supply: u64,
    /// What the P-Chain's txs burned.
    pub p_burned: u64,
    /// What the C-Chain's atomic txs burned.
    pub c_burned: u64,
    /// What L1 validators paid in continuous fees.
    pub l1_fees: u64,
    /// The potential rewards of the primary-network stakers not settled yet.
    pub unsettled_rewards: u128,
    /// Their stakes.
    pub staked: u128,
    /// AVAX in unspent P-Chain outputs stakeable-locked past the chain time, not staked.
    pub locked: u128,
    /// The chain time.
    pub chain_time: u64,
}

impl PSupply {
    /// The rewards minted so far: the current supply less the initial supply and the potential
    /// rewards not settled.
    pub fn rewards(&self) -> u128 {
        u128::from(self.current_supply)
            .saturating_sub(u128::from(self.initial_supply))
            .saturating_sub(self.unsettled_rewards)
    }
}

impl PChainPages {
    /// The P-Chain's supply figures in its AVAX; `None` before the genesis is indexed.
    pub fn supply(&self) -> Result<Option<PSupply>, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let meta = |key: u8| -> Result<Option<u64>, PageError> { Ok(v.get::<PhMeta>(&key)?) };
        let Some(initial_supply) = meta(META_INITIAL_SUPPLY)? else {
            return Ok(None);
        };
        let chain_time = tip(v)?.chain_time;
        let accrued = meta(META_L1_ACCRUED_FEES)?.unwrap_or(0);
        let l1_fees = curve_at(v, &FEE_CURVE_TOTAL, accrued)
            .map_err(|e| match e {
                L1MetricsError::Read(e) => PageError::Read(e),
                other => PageError::Read(PChainError::Corrupt(other.to_string())),
            })?
            .fees;
        // Kept at ingest as each primary-network staker is added and settled.
        let unsettled_rewards = u128::from(meta(META_UNSETTLED_REWARDS)?.unwrap_or(0));
        let staked = u128::from(meta(META_UNSETTLED_STAKE)?.unwrap_or(0));
        Ok(Some(PSupply {
            initial_supply,
            current_supply: crate::reader::PReader::new(v).current_supply()?,
            p_burned: meta(META_P_BURNED)?.unwrap_or(0),
            c_burned: meta(META_C_BURNED)?.unwrap_or(0),
            l1_fees,
            unsettled_rewards,
            staked,
            locked: locked(v, chain_time)?,
            chain_time,
        }))
    }
}

/// AVAX in unspent P-Chain outputs whose stakeable lock runs past `chain_time`, not staked:
/// the sums of `ph_stakeable_locked` past it.
fn locked(v: &impl ReadView, chain_time: u64) -> Result<u128, PageError> {
    let mut sum = 0u128;
    let after = (Bound::Excluded(chain_time), Bound::Unbounded);
    for e in v.scan::<PhStakeableLocked, _>(after, Direction::Forward)? {
        sum += e?.1.amount;
    }
    Ok(sum)
}
