//! The Helicon (ACP-236) auto-renewed staking txs, codec type ids 40–42
//! (`vms/platformvm/txs/codec.go` `RegisterHeliconTypes`).
//!
//! Helicon is unscheduled on mainnet and Fuji (`upgrade/upgrade.go`: `HeliconTime:
//! UnscheduledActivationTime`), so these txs cannot appear in their history yet; they are decoded
//! so that a node running a newer avalanchego (or a local network) never stops the indexer.

use super::base::BaseTx;
use super::macros::codec_struct;
use crate::Id;
use crate::platformvm::{Auth, Owner, Signer, TransferableOutput};

codec_struct! {
    /// Adds a primary-network validator that restarts a new cycle when one ends
    /// (`AddAutoRenewedValidatorTx`, type 40).
    pub struct AddAutoRenewedValidatorTx {
        /// Common fields.
        pub base: BaseTx,
        /// The node id as bytes (`types.JSONByteSlice`; 20 bytes when valid).
        pub node_id: Vec<u8>,
        /// BLS key and proof of possession.
        pub signer: Signer,
        /// The staked outputs (returned when the validator exits).
        pub stake: Vec<TransferableOutput>,
        /// Who receives withdrawn validation rewards.
        pub validator_rewards_owner: Owner,
        /// Who receives withdrawn delegation fees.
        pub delegator_rewards_owner: Owner,
        /// Who may change the auto-renew configuration.
        pub validator_authority: Owner,
        /// Delegation fee in millionths.
        pub delegation_shares: u32,
        /// Share of each cycle's rewards restaked, millionths.
        pub auto_compound_reward_shares: u32,
        /// First cycle length, seconds.
        pub period: u64,
    }
}

codec_struct! {
    /// Changes an auto-renewed validator's configuration for its next cycle
    /// (`SetAutoRenewedValidatorConfigTx`, type 41).
    pub struct SetAutoRenewedValidatorConfigTx {
        /// Common fields.
        pub base: BaseTx,
        /// The `AddAutoRenewedValidatorTx` that created the validator.
        pub tx_id: Id,
        /// Signature indices of the validator authority.
        pub auth: Auth,
        /// Share of each cycle's rewards restaked, millionths.
        pub auto_compound_reward_shares: u32,
        /// Next cycle length, seconds (0 = exit at the end of the current cycle).
        pub period: u64,
    }
}

codec_struct! {
    /// Proposes settling an auto-renewed validator's cycle (`RewardAutoRenewedValidatorTx`,
    /// type 42). Commit = rewarded (and renewed unless its next period is 0), abort = removed.
    pub struct RewardAutoRenewedValidatorTx {
        /// The `AddAutoRenewedValidatorTx` that created the validator.
        pub tx_id: Id,
        /// The cycle's end time, Unix seconds (makes each cycle's reward tx id distinct).
        pub timestamp: u64,
    }
}
