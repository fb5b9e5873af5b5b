//! The Etna (ACP-77) L1 txs: converting a subnet to an L1 and managing its validators.

use super::base::BaseTx;
use super::macros::codec_struct;
use crate::Id;
use crate::codec::MinSize;
use crate::platformvm::Auth;
use crate::platformvm::signer::{BLS_SIGNATURE_LEN, ProofOfPossession};
use crate::warp::l1::PChainOwner;

codec_struct! {
    /// One initial L1 validator (`txs.ConvertSubnetToL1Validator`).
    pub struct ConvertSubnetToL1Validator {
        /// The node id as bytes (20 bytes when valid).
        pub node_id: Vec<u8>,
        /// Consensus weight.
        pub weight: u64,
        /// nAVAX paid up front for the continuous fee.
        pub balance: u64,
        /// BLS key and proof of possession (a struct here, not a `Signer` interface).
        pub signer: ProofOfPossession,
        /// Who gets the balance left when the validator is removed.
        pub remaining_balance_owner: PChainOwner,
        /// Who may disable the validator.
        pub deactivation_owner: PChainOwner,
    }
}
impl MinSize for ConvertSubnetToL1Validator {
    const MIN_SIZE: usize = 4 + 8 + 8 + ProofOfPossession::MIN_SIZE + 2 * PChainOwner::MIN_SIZE;
}

codec_struct! {
    /// Converts a subnet into an L1 managed by a contract (`ConvertSubnetToL1Tx`, type 35).
    pub struct ConvertSubnetToL1Tx {
        /// Common fields.
        pub base: BaseTx,
        /// The subnet converted.
        pub subnet_id: Id,
        /// The chain the validator manager runs on.
        pub chain_id: Id,
        /// The validator manager's address on that chain.
        pub address: Vec<u8>,
        /// Initial validators (validation ids = `subnetID.Append(index)`).
        pub validators: Vec<ConvertSubnetToL1Validator>,
        /// Signature indices of the subnet owners.
        pub subnet_auth: Auth,
    }
}

codec_struct! {
    /// Registers an L1 validator from a signed Warp `RegisterL1Validator` message
    /// (`RegisterL1ValidatorTx`, type 36).
    pub struct RegisterL1ValidatorTx {
        /// Common fields.
        pub base: BaseTx,
        /// nAVAX paid for the continuous fee.
        pub balance: u64,
        /// BLS proof of possession of the key in the message.
        pub proof_of_possession: [u8; BLS_SIGNATURE_LEN],
        /// The signed Warp message bytes.
        pub message: Vec<u8>,
    }
}

codec_struct! {
    /// Changes an L1 validator's weight from a signed Warp `L1ValidatorWeight` message
    /// (`SetL1ValidatorWeightTx`, type 37).
    pub struct SetL1ValidatorWeightTx {
        /// Common fields.
        pub base: BaseTx,
        /// The signed Warp message bytes.
        pub message: Vec<u8>,
    }
}

codec_struct! {
    /// Tops up an L1 validator's fee balance (`IncreaseL1ValidatorBalanceTx`, type 38).
    pub struct IncreaseL1ValidatorBalanceTx {
        /// Common fields.
        pub base: BaseTx,
        /// The validator.
        pub validation_id: Id,
        /// nAVAX added.
        pub balance: u64,
    }
}

codec_struct! {
    /// Disables an L1 validator and returns its balance (`DisableL1ValidatorTx`, type 39).
    pub struct DisableL1ValidatorTx {
        /// Common fields.
        pub base: BaseTx,
        /// The validator.
        pub validation_id: Id,
        /// Signature indices of the validator's deactivation owner.
        pub disable_auth: Auth,
    }
}
