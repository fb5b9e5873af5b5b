//! The P-Chain's interface values. The P-Chain codec (`vms/platformvm/txs/codec.go`) registers the
//! same secp256k1fx structs as the X-Chain but under its own type ids, plus the stakeable locks and
//! BLS signers; each enum here reads a `u32` type id then the body.
//!
//! Like the X-Chain enums, each position accepts only the types that can pass avalanchego's
//! verification there (e.g. a stakeable lock never wraps another lock: `errNestedStakeableLocks`),
//! so hostile nesting cannot recurse.

use super::signer::ProofOfPossession;
use super::stakeable::{LockIn, LockOut};
use crate::Id;
use crate::components::FxValue;
use crate::fx::{FxError, SECP256K1FX_ID, secp256k1fx};

/// P-Chain codec type ids, in registration order (`txs/codec.go`, `block/codec.go`).
pub mod type_id {
    /// `block.ApricotProposalBlock`.
    pub const APRICOT_PROPOSAL_BLOCK: u32 = 0;
    /// `block.ApricotAbortBlock`.
    pub const APRICOT_ABORT_BLOCK: u32 = 1;
    /// `block.ApricotCommitBlock`.
    pub const APRICOT_COMMIT_BLOCK: u32 = 2;
    /// `block.ApricotStandardBlock`.
    pub const APRICOT_STANDARD_BLOCK: u32 = 3;
    /// `block.ApricotAtomicBlock`.
    pub const APRICOT_ATOMIC_BLOCK: u32 = 4;
    /// `secp256k1fx.TransferInput`.
    pub const SECP256K1_TRANSFER_INPUT: u32 = 5;
    /// `secp256k1fx.TransferOutput` (6, `MintOutput`, is skipped).
    pub const SECP256K1_TRANSFER_OUTPUT: u32 = 7;
    /// `secp256k1fx.Credential` (8, `MintOperation`, is skipped).
    pub const SECP256K1_CREDENTIAL: u32 = 9;
    /// `secp256k1fx.Input` (subnet and disable authorizations).
    pub const SECP256K1_INPUT: u32 = 10;
    /// `secp256k1fx.OutputOwners` (reward, subnet and change owners).
    pub const SECP256K1_OUTPUT_OWNERS: u32 = 11;
    /// `txs.AddValidatorTx`.
    pub const ADD_VALIDATOR_TX: u32 = 12;
    /// `txs.AddSubnetValidatorTx`.
    pub const ADD_SUBNET_VALIDATOR_TX: u32 = 13;
    /// `txs.AddDelegatorTx`.
    pub const ADD_DELEGATOR_TX: u32 = 14;
    /// `txs.CreateChainTx`.
    pub const CREATE_CHAIN_TX: u32 = 15;
    /// `txs.CreateSubnetTx`.
    pub const CREATE_SUBNET_TX: u32 = 16;
    /// `txs.ImportTx`.
    pub const IMPORT_TX: u32 = 17;
    /// `txs.ExportTx`.
    pub const EXPORT_TX: u32 = 18;
    /// `txs.AdvanceTimeTx`.
    pub const ADVANCE_TIME_TX: u32 = 19;
    /// `txs.RewardValidatorTx`.
    pub const REWARD_VALIDATOR_TX: u32 = 20;
    /// `stakeable.LockIn`.
    pub const STAKEABLE_LOCK_IN: u32 = 21;
    /// `stakeable.LockOut`.
    pub const STAKEABLE_LOCK_OUT: u32 = 22;
    /// `txs.RemoveSubnetValidatorTx`.
    pub const REMOVE_SUBNET_VALIDATOR_TX: u32 = 23;
    /// `txs.TransformSubnetTx`.
    pub const TRANSFORM_SUBNET_TX: u32 = 24;
    /// `txs.AddPermissionlessValidatorTx`.
    pub const ADD_PERMISSIONLESS_VALIDATOR_TX: u32 = 25;
    /// `txs.AddPermissionlessDelegatorTx`.
    pub const ADD_PERMISSIONLESS_DELEGATOR_TX: u32 = 26;
    /// `signer.Empty`.
    pub const SIGNER_EMPTY: u32 = 27;
    /// `signer.ProofOfPossession`.
    pub const SIGNER_PROOF_OF_POSSESSION: u32 = 28;
    /// `block.BanffProposalBlock`.
    pub const BANFF_PROPOSAL_BLOCK: u32 = 29;
    /// `block.BanffAbortBlock`.
    pub const BANFF_ABORT_BLOCK: u32 = 30;
    /// `block.BanffCommitBlock`.
    pub const BANFF_COMMIT_BLOCK: u32 = 31;
    /// `block.BanffStandardBlock`.
    pub const BANFF_STANDARD_BLOCK: u32 = 32;
    /// `txs.TransferSubnetOwnershipTx` (Durango).
    pub const TRANSFER_SUBNET_OWNERSHIP_TX: u32 = 33;
    /// `txs.BaseTx` (Durango).
    pub const BASE_TX: u32 = 34;
    /// `txs.ConvertSubnetToL1Tx` (Etna).
    pub const CONVERT_SUBNET_TO_L1_TX: u32 = 35;
    /// `txs.RegisterL1ValidatorTx` (Etna).
    pub const REGISTER_L1_VALIDATOR_TX: u32 = 36;
    /// `txs.SetL1ValidatorWeightTx` (Etna).
    pub const SET_L1_VALIDATOR_WEIGHT_TX: u32 = 37;
    /// `txs.IncreaseL1ValidatorBalanceTx` (Etna).
    pub const INCREASE_L1_VALIDATOR_BALANCE_TX: u32 = 38;
    /// `txs.DisableL1ValidatorTx` (Etna).
    pub const DISABLE_L1_VALIDATOR_TX: u32 = 39;
    /// `txs.AddAutoRenewedValidatorTx` (Helicon).
    pub const ADD_AUTO_RENEWED_VALIDATOR_TX: u32 = 40;
    /// `txs.SetAutoRenewedValidatorConfigTx` (Helicon).
    pub const SET_AUTO_RENEWED_VALIDATOR_CONFIG_TX: u32 = 41;
    /// `txs.RewardAutoRenewedValidatorTx` (Helicon).
    pub const REWARD_AUTO_RENEWED_VALIDATOR_TX: u32 = 42;
}

/// Declares a P-Chain interface enum (`crate::codec::typed_enum!` with the P-Chain's type ids).
macro_rules! pvm_enum {
    ($($t:tt)*) => {
        crate::codec::typed_enum! { $($t)* }
    };
}

pvm_enum!(
    /// A P-Chain tx or UTXO output (`avax.TransferableOut`): plain or stakeable-locked amounts.
    TransferableOut, "P-Chain output", {
        /// secp256k1fx amount (7).
        Secp256k1(secp256k1fx::TransferOutput) = type_id::SECP256K1_TRANSFER_OUTPUT;
        /// Amount locked until a time but stakeable (22).
        StakeableLock(LockOut) = type_id::STAKEABLE_LOCK_OUT;
    }
);

pvm_enum!(
    /// A P-Chain tx input (`avax.TransferableIn`): plain or stakeable-locked spends.
    TransferableIn, "P-Chain input", {
        /// secp256k1fx spend (5).
        Secp256k1(secp256k1fx::TransferInput) = type_id::SECP256K1_TRANSFER_INPUT;
        /// Spend of a stakeable-locked output (21).
        StakeableLock(LockIn) = type_id::STAKEABLE_LOCK_IN;
    }
);

pvm_enum!(
    /// A credential (`verify.Verifiable` in `Tx.Creds`): only secp256k1fx signatures verify.
    Credential, "P-Chain credential", {
        /// secp256k1fx signatures (9).
        Secp256k1(secp256k1fx::Credential) = type_id::SECP256K1_CREDENTIAL;
    }
);

pvm_enum!(
    /// An owner (`fx.Owner`): who receives rewards, owns a subnet, or gets change.
    Owner, "P-Chain owner", {
        /// secp256k1fx threshold owners (11).
        Secp256k1(secp256k1fx::OutputOwners) = type_id::SECP256K1_OUTPUT_OWNERS;
    }
);

pvm_enum!(
    /// An authorization (`verify.Verifiable` in `SubnetAuth`/`DisableAuth`): which owner
    /// addresses sign, as indices into the owner's addresses.
    Auth, "P-Chain authorization", {
        /// secp256k1fx signature indices (10).
        Secp256k1(secp256k1fx::Input) = type_id::SECP256K1_INPUT;
    }
);

pvm_enum!(
    /// A validator's BLS signer (`signer.Signer`): none, or a key with its proof of possession.
    Signer, "P-Chain signer", {
        /// No BLS key (27): subnet validators and pre-Banff style validators.
        Empty(super::signer::Empty) = type_id::SIGNER_EMPTY;
        /// BLS public key and proof of possession (28).
        ProofOfPossession(ProofOfPossession) = type_id::SIGNER_PROOF_OF_POSSESSION;
    }
);

impl TransferableOut {
    /// The amount carried (locked or not).
    pub fn amount(&self) -> u64 {
        match self {
            Self::Secp256k1(o) => o.amount,
            Self::StakeableLock(l) => l.output.amount,
        }
    }

    /// The owners of the amount.
    pub fn owners(&self) -> &secp256k1fx::OutputOwners {
        match self {
            Self::Secp256k1(o) => &o.owners,
            Self::StakeableLock(l) => &l.output.owners,
        }
    }

    /// The stakeable locktime, 0 when not locked.
    pub fn stakeable_locktime(&self) -> u64 {
        match self {
            Self::Secp256k1(_) => 0,
            Self::StakeableLock(l) => l.locktime,
        }
    }
}

impl TransferableIn {
    /// The amount consumed (locked or not).
    pub fn amount(&self) -> u64 {
        match self {
            Self::Secp256k1(i) => i.amount,
            Self::StakeableLock(l) => l.input.amount,
        }
    }
}

impl FxValue for TransferableOut {
    fn fx_id(&self) -> Id {
        SECP256K1FX_ID
    }
    fn verify(&self) -> Result<(), FxError> {
        match self {
            Self::Secp256k1(o) => o.verify(),
            Self::StakeableLock(l) => l.output.verify(),
        }
    }
}

impl FxValue for TransferableIn {
    fn fx_id(&self) -> Id {
        SECP256K1FX_ID
    }
    fn verify(&self) -> Result<(), FxError> {
        match self {
            Self::Secp256k1(i) => i.verify(),
            Self::StakeableLock(l) => l.input.verify(),
        }
    }
}

impl Owner {
    /// The threshold owners.
    pub fn owners(&self) -> &secp256k1fx::OutputOwners {
        match self {
            Self::Secp256k1(o) => o,
        }
    }
}

impl Credential {
    /// The recoverable signatures.
    pub fn signatures(&self) -> &[secp256k1fx::Signature] {
        match self {
            Self::Secp256k1(c) => &c.sigs,
        }
    }
}

impl Signer {
    /// The 48-byte compressed BLS public key, if any.
    pub fn public_key(&self) -> Option<&[u8; super::signer::BLS_PUBLIC_KEY_LEN]> {
        match self {
            Self::Empty(_) => None,
            Self::ProofOfPossession(p) => Some(&p.public_key),
        }
    }
}
