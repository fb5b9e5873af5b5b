//! [`Journal`]: what each P-Chain block did to UTXOs, stakers and L1 validators, told as it is
//! derived to a hook riding the same batch after the P-Chain's own (the webhooks'), which
//! drains it per container (a P-Chain block, or an X- or C-Chain container completing a P-Chain
//! import late, or a C-Chain block's atomic txs with P's atomic memory). The UTXO moves are the
//! derive kit's [`snowline_derive::journal`] shape, which the X-Chain history tells too.

use snowline_types::{Id, NodeId, ShortId};

use crate::rows::StakerKind;

/// What only the P-Chain's deriver tells, beside the UTXO moves of [`Note`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PNote {
    /// A staker was settled by a `RewardValidatorTx` (its option block accepted).
    Reward(RewardNote),
    /// An L1 validator's balance or status changed.
    L1(L1Note),
}

/// One thing a P-Chain block did, in the order it was derived.
pub type Note = snowline_derive::Note<PNote>;

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

/// The notes of the container being derived, shared between the P-Chain's hook, which adds
/// them, and a hook after it, which takes them.
pub type Journal = snowline_derive::Journal<PNote>;
