//! The pieces every P-Chain tx shares: [`BaseTx`] (`avax.BaseTx` with P-Chain outputs and
//! inputs) and the staker descriptions [`Validator`] and [`SubnetValidator`].

use super::macros::codec_struct;
use crate::codec::MinSize;
use crate::platformvm::{TransferableInput, TransferableOutput};
use crate::{Id, NodeId};

codec_struct! {
    /// The common part of every P-Chain tx (`txs.BaseTx` → `avax.BaseTx`):
    /// `u32 networkID | blockchainID | outs | ins | u32+memo`.
    pub struct BaseTx {
        /// Network the tx is for (1 mainnet, 5 fuji, …).
        pub network_id: u32,
        /// The P-Chain's id (all zeros on every network).
        pub blockchain_id: Id,
        /// Outputs, sorted by asset then bytes when valid.
        pub outputs: Vec<TransferableOutput>,
        /// Inputs, sorted by UTXO id when valid.
        pub inputs: Vec<TransferableInput>,
        /// Arbitrary bytes (at most 256 when valid).
        pub memo: Vec<u8>,
    }
}

codec_struct! {
    /// A staker (`txs.Validator`): `nodeID[20] | u64 start | u64 end | u64 weight`.
    pub struct Validator {
        /// The staking node.
        pub node_id: NodeId,
        /// Unix seconds the staking starts (ignored after Durango; 0 in newer txs).
        pub start: u64,
        /// Unix seconds the staking ends.
        pub end: u64,
        /// Stake amount (primary network) or weight (subnets), in nAVAX.
        pub weight: u64,
    }
}
impl MinSize for Validator {
    const MIN_SIZE: usize = 44;
}

codec_struct! {
    /// A subnet staker (`txs.SubnetValidator`): a [`Validator`] then the subnet id.
    pub struct SubnetValidator {
        /// Node, period and weight.
        pub validator: Validator,
        /// The subnet validated.
        pub subnet_id: Id,
    }
}
