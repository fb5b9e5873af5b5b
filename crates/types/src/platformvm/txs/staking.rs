//! Staking txs: primary-network and subnet validators and delegators (Apricot and Banff), their
//! removal, and the two proposal-only txs that drive staking time (`AdvanceTimeTx`,
//! `RewardValidatorTx`).

use super::base::{BaseTx, SubnetValidator, Validator};
use super::macros::codec_struct;
use crate::Id;
use crate::NodeId;
use crate::platformvm::{Auth, Owner, Signer, TransferableOutput};

codec_struct! {
    /// Adds a primary-network validator (`AddValidatorTx`, type 12; Apricot).
    pub struct AddValidatorTx {
        /// Common fields.
        pub base: BaseTx,
        /// Node, period and stake.
        pub validator: Validator,
        /// The staked outputs (returned at the end).
        pub stake: Vec<TransferableOutput>,
        /// Who receives the validation reward.
        pub rewards_owner: Owner,
        /// Delegation fee in millionths (`reward.PercentDenominator`).
        pub delegation_shares: u32,
    }
}

codec_struct! {
    /// Adds a subnet validator (`AddSubnetValidatorTx`, type 13).
    pub struct AddSubnetValidatorTx {
        /// Common fields.
        pub base: BaseTx,
        /// Node, period, weight and subnet.
        pub validator: SubnetValidator,
        /// Signature indices of the subnet owners.
        pub subnet_auth: Auth,
    }
}

codec_struct! {
    /// Delegates to a primary-network validator (`AddDelegatorTx`, type 14; Apricot).
    pub struct AddDelegatorTx {
        /// Common fields.
        pub base: BaseTx,
        /// The validator delegated to, period and stake.
        pub validator: Validator,
        /// The staked outputs.
        pub stake: Vec<TransferableOutput>,
        /// Who receives the delegation reward.
        pub rewards_owner: Owner,
    }
}

codec_struct! {
    /// Proposes moving chain time forward (`AdvanceTimeTx`, type 19; pre-Banff proposal blocks).
    pub struct AdvanceTimeTx {
        /// The proposed Unix seconds.
        pub time: u64,
    }
}

codec_struct! {
    /// Proposes ending a staker's period and paying (or not) its reward (`RewardValidatorTx`,
    /// type 20). Commit = rewarded, abort = not.
    pub struct RewardValidatorTx {
        /// The tx that added the staker.
        pub tx_id: Id,
    }
}

codec_struct! {
    /// Removes a subnet validator (`RemoveSubnetValidatorTx`, type 23; Banff).
    pub struct RemoveSubnetValidatorTx {
        /// Common fields.
        pub base: BaseTx,
        /// The node removed.
        pub node_id: NodeId,
        /// Its subnet.
        pub subnet_id: Id,
        /// Signature indices of the subnet owners.
        pub subnet_auth: Auth,
    }
}

codec_struct! {
    /// Adds a validator to the primary network or a permissionless subnet
    /// (`AddPermissionlessValidatorTx`, type 25; Banff).
    pub struct AddPermissionlessValidatorTx {
        /// Common fields.
        pub base: BaseTx,
        /// Node, period and stake.
        pub validator: Validator,
        /// The subnet (all zeros = primary network).
        pub subnet_id: Id,
        /// BLS key and proof of possession (primary network) or empty.
        pub signer: Signer,
        /// The staked outputs.
        pub stake: Vec<TransferableOutput>,
        /// Who receives the validation reward.
        pub validator_rewards_owner: Owner,
        /// Who receives the delegation fees.
        pub delegator_rewards_owner: Owner,
        /// Delegation fee in millionths.
        pub delegation_shares: u32,
    }
}

codec_struct! {
    /// Delegates on the primary network or a permissionless subnet
    /// (`AddPermissionlessDelegatorTx`, type 26; Banff).
    pub struct AddPermissionlessDelegatorTx {
        /// Common fields.
        pub base: BaseTx,
        /// The validator delegated to, period and stake.
        pub validator: Validator,
        /// The subnet (all zeros = primary network).
        pub subnet_id: Id,
        /// The staked outputs.
        pub stake: Vec<TransferableOutput>,
        /// Who receives the delegation reward.
        pub rewards_owner: Owner,
    }
}
