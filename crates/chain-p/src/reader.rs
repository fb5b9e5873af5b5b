//! [`PReader`]: typed reads of the P-Chain tables.

use snowline_store::{Direction, KeysetScans, Linear, ReadView};
use snowline_types::{Id, ShortId};

use crate::derive::locked_at;
use crate::rows::Holding;

use crate::error::PChainError;
use crate::rows::{BlockRow, ChainRow, L1ValidatorRow, StakerRow, SubnetRow, UtxoRow};
use crate::tables::{
    META_CURRENT_SUPPLY, META_HEIGHT, META_L1_ACCRUED_FEES, PhBlocks, PhChains, PhL1Validators,
    PhMeta, PhStakers, PhSubnets, PhUnspentByTime, PhUtxos,
};

/// Reads of the P-Chain tables through any view (the store or a snapshot).
#[derive(Debug, Clone, Copy)]
pub struct PReader<'a, V: ReadView> {
    view: &'a V,
}

impl<'a, V: ReadView> PReader<'a, V> {
    /// Reads through `view`.
    pub fn new(view: &'a V) -> Self {
        Self { view }
    }

    fn meta(&self, key: u8) -> Result<Option<u64>, PChainError> {
        Ok(self.view.get::<PhMeta>(&key)?)
    }

    /// Height of the last applied block (`None` before the first).
    pub fn height(&self) -> Result<Option<u64>, PChainError> {
        self.meta(META_HEIGHT)
    }

    /// The reward calculator's current supply.
    pub fn current_supply(&self) -> Result<u64, PChainError> {
        Ok(self.meta(META_CURRENT_SUPPLY)?.unwrap_or(0))
    }

    /// Per-L1-validator fees accrued so far.
    pub fn l1_accrued_fees(&self) -> Result<u64, PChainError> {
        Ok(self.meta(META_L1_ACCRUED_FEES)?.unwrap_or(0))
    }

    /// A UTXO by id.
    pub fn utxo(&self, id: &Id) -> Result<Option<UtxoRow>, PChainError> {
        Ok(self.view.get::<PhUtxos>(id)?.map(|Linear(r)| r))
    }

    /// The amount of `asset` in the unspent P-Chain UTXOs (not in atomic memory, stakes
    /// included) `addr` owns, alone or with others, that were unlocked when created: the
    /// balance a `balance_threshold` webhook starts from, which the journal's UTXO moves keep.
    pub fn unlocked_owned(&self, addr: &ShortId, asset: &Id) -> Result<u128, PChainError> {
        let mut sum = 0u128;
        let scan =
            self.view
                .positions::<PhUnspentByTime, ShortId>(addr, None, Direction::Forward)?;
        for p in scan {
            let (_, id) = p?;
            let Some(row) = self.utxo(&id)? else {
                continue;
            };
            let utxo = row
                .utxo()
                .map_err(|e| PChainError::Corrupt(format!("UTXO {id}: {e}")))?;
            if row.holding == Holding::Native
                && utxo.asset_id == *asset
                && !locked_at(&utxo, row.created.timestamp)
            {
                sum += u128::from(row.amount);
            }
        }
        Ok(sum)
    }

    /// A staker by its tx id.
    pub fn staker(&self, id: &Id) -> Result<Option<StakerRow>, PChainError> {
        Ok(self.view.get::<PhStakers>(id)?.map(|Linear(r)| r))
    }

    /// A block by height.
    pub fn block(&self, height: u64) -> Result<Option<BlockRow>, PChainError> {
        Ok(self.view.get::<PhBlocks>(&height)?.map(|Linear(r)| r))
    }

    /// A subnet by id.
    pub fn subnet(&self, id: &Id) -> Result<Option<SubnetRow>, PChainError> {
        Ok(self.view.get::<PhSubnets>(id)?.map(|Linear(r)| r))
    }

    /// A chain by id.
    pub fn chain(&self, id: &Id) -> Result<Option<ChainRow>, PChainError> {
        Ok(self.view.get::<PhChains>(id)?.map(|Linear(r)| r))
    }

    /// An L1 validator by validation id.
    pub fn l1_validator(&self, id: &Id) -> Result<Option<L1ValidatorRow>, PChainError> {
        Ok(self.view.get::<PhL1Validators>(id)?.map(|Linear(r)| r))
    }
}
