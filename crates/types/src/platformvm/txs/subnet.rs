//! Subnet management txs: creating subnets and chains, transforming a subnet into a
//! permissionless one (Banff) and transferring its ownership (Durango).

use super::base::BaseTx;
use super::macros::codec_struct;
use crate::Id;
use crate::codec::{CodecError, Decode, Encode, Reader, Writer};
use crate::platformvm::{Auth, Owner};

/// Creates a blockchain on a subnet (`CreateChainTx`, type 15).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CreateChainTx {
    /// Common fields.
    pub base: BaseTx,
    /// The subnet that validates the chain.
    pub subnet_id: Id,
    /// Human-readable name (`u16` length; letters, digits and spaces when valid).
    pub chain_name: String,
    /// The VM that runs the chain.
    pub vm_id: Id,
    /// Feature extensions the VM uses.
    pub fx_ids: Vec<Id>,
    /// The chain's genesis bytes.
    pub genesis_data: Vec<u8>,
    /// Signature indices of the subnet owners.
    pub subnet_auth: Auth,
}

impl Decode for CreateChainTx {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            base: BaseTx::decode(r)?,
            subnet_id: Id::decode(r)?,
            chain_name: r.str()?.to_owned(),
            vm_id: Id::decode(r)?,
            fx_ids: Vec::decode(r)?,
            genesis_data: r.bytes()?.to_vec(),
            subnet_auth: Auth::decode(r)?,
        })
    }
}
impl Encode for CreateChainTx {
    fn encode(&self, w: &mut Writer) {
        self.base.encode(w);
        self.subnet_id.encode(w);
        w.str(&self.chain_name);
        self.vm_id.encode(w);
        self.fx_ids.encode(w);
        w.bytes(&self.genesis_data);
        self.subnet_auth.encode(w);
    }
}

codec_struct! {
    /// Creates a subnet owned by `owner` (`CreateSubnetTx`, type 16); the subnet id is the tx id.
    pub struct CreateSubnetTx {
        /// Common fields.
        pub base: BaseTx,
        /// Who controls the subnet.
        pub owner: Owner,
    }
}

codec_struct! {
    /// Turns a subnet permissionless with its own staking asset (`TransformSubnetTx`, type 24).
    pub struct TransformSubnetTx {
        /// Common fields.
        pub base: BaseTx,
        /// The subnet transformed.
        pub subnet_id: Id,
        /// Its staking asset.
        pub asset_id: Id,
        /// Supply at transformation.
        pub initial_supply: u64,
        /// Supply cap for rewards.
        pub maximum_supply: u64,
        /// Reward rate for zero-length staking, in millionths.
        pub min_consumption_rate: u64,
        /// Reward rate for a full minting period, in millionths.
        pub max_consumption_rate: u64,
        /// Smallest validator stake.
        pub min_validator_stake: u64,
        /// Largest validator stake.
        pub max_validator_stake: u64,
        /// Shortest staking period, seconds.
        pub min_stake_duration: u32,
        /// Longest staking period, seconds.
        pub max_stake_duration: u32,
        /// Smallest delegation fee, millionths.
        pub min_delegation_fee: u32,
        /// Smallest delegator stake.
        pub min_delegator_stake: u64,
        /// Cap on delegation as a multiple of the validator's own stake.
        pub max_validator_weight_factor: u8,
        /// Uptime needed for rewards, millionths.
        pub uptime_requirement: u32,
        /// Signature indices of the subnet owners.
        pub subnet_auth: Auth,
    }
}

codec_struct! {
    /// Hands a subnet to new owners (`TransferSubnetOwnershipTx`, type 33; Durango).
    pub struct TransferSubnetOwnershipTx {
        /// Common fields.
        pub base: BaseTx,
        /// The subnet.
        pub subnet_id: Id,
        /// Signature indices of the current owners.
        pub subnet_auth: Auth,
        /// The new owners.
        pub owner: Owner,
    }
}
