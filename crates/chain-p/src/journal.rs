//! [`Journal`]: what each P-Chain block did to UTXOs, stakers and L1 validators, told as it is
//! derived to a hook riding the same batch after the P-Chain's own (the webhooks'), which
//! drains it per container (a P-Chain block, or an X- or C-Chain container completing a P-Chain
//! import late). Nothing is kept when no one holds the journal.

use std::sync::{Arc, Mutex};

use snowline_types::{Id, NodeId, ShortId};

use crate::rows::StakerKind;

/// One thing a P-Chain block did, in the order it was derived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// A UTXO was created or consumed by one of the block's txs.
    Utxo(UtxoNote),
    /// A staker was settled by a `RewardValidatorTx` (its option block accepted).
    Reward(RewardNote),
    /// An L1 validator's balance or status changed.
    L1(L1Note),
    /// A UTXO a P-Chain `ImportTx` consumed, learnt only now, when the other chain's
    /// container with its export is derived after the import's block (the index followed that
    /// chain behind the P-Chain).
    LateImport {
        /// The consumption (`tx` the import).
        utxo: UtxoNote,
        /// The import's block height.
        height: u64,
        /// The import's block time, Unix seconds.
        timestamp: u64,
    },
}

/// A UTXO a tx created (`created`) or consumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtxoNote {
    /// The tx.
    pub tx: Id,
    /// The UTXO.
    pub utxo: Id,
    /// Its asset.
    pub asset: Id,
    /// Its amount.
    pub amount: u64,
    /// Its owners.
    pub owners: Vec<ShortId>,
    /// Whether created (else consumed).
    pub created: bool,
    /// Whether staked (a staking tx's stake output).
    pub staked: bool,
    /// Whether in atomic memory: exported by the tx (created), or imported (consumed).
    pub shared: bool,
}

/// A reward UTXO a settled staker's `RewardValidatorTx` paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payout {
    /// The UTXO.
    pub utxo: Id,
    /// `validation`, `delegation` or `delegatee` (a validator's fee share of a delegation).
    pub kind: &'static str,
    /// nAVAX.
    pub amount: u64,
    /// Its owners.
    pub owners: Vec<ShortId>,
}

/// A staker settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewardNote {
    /// The `RewardValidatorTx`.
    pub tx: Id,
    /// The staker's own tx.
    pub staker_tx: Id,
    /// Validator or delegator, of the primary network or a subnet.
    pub kind: StakerKind,
    /// Its node.
    pub node: NodeId,
    /// Its subnet.
    pub subnet: Id,
    /// Staking period, Unix seconds.
    pub start: u64,
    /// Staking period's end.
    pub end: u64,
    /// The stake.
    pub weight: u64,
    /// Whether the proposal was committed (rewarded), else aborted.
    pub rewarded: bool,
    /// The reward UTXOs paid (none when aborted, or when the reward was 0).
    pub payouts: Vec<Payout>,
}

/// What happened to an L1 validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum L1Change {
    /// `IncreaseL1ValidatorBalanceTx` added `amount` nAVAX.
    BalanceIncreased {
        /// nAVAX added.
        amount: u64,
    },
    /// `DisableL1ValidatorTx`: deactivated, its balance refunded.
    Disabled,
    /// `SetL1ValidatorWeightTx` to weight 0: removed, its balance refunded.
    Removed,
    /// Its balance ran out paying the continuous fee: deactivated without a tx.
    Exhausted,
}

/// An L1 validator changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L1Note {
    /// The tx (none for [`L1Change::Exhausted`]).
    pub tx: Option<Id>,
    /// The validation id.
    pub validation_id: Id,
    /// Its L1 (subnet).
    pub subnet: Id,
    /// Its node id's bytes.
    pub node: Vec<u8>,
    /// What happened.
    pub change: L1Change,
    /// Balance left after it, nAVAX (0 once inactive).
    pub balance: u64,
    /// nAVAX refunded to the remaining balance owner.
    pub refunded: u64,
}

/// The notes of the P-Chain block being derived, shared between the P-Chain's hook, which
/// adds them, and a hook after it, which takes them.
#[derive(Debug, Clone, Default)]
pub struct Journal(Arc<Mutex<Vec<Note>>>);

impl Journal {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Note>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the notes added since the last take.
    pub fn take(&self) -> Vec<Note> {
        std::mem::take(&mut *self.lock())
    }

    /// Forgets the notes (a batch dropped).
    pub fn clear(&self) {
        self.lock().clear();
    }

    pub(crate) fn push(&self, note: Note) {
        self.lock().push(note);
    }
}
