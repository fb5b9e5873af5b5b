//! The P-Chain's interface values. The P-Chain codec (`vms/platformvm/txs/codec.go`) registers the
//! same secp256k1fx structs as the X-Chain but under its own type ids, plus the stakeable locks and
//! BLS signers; each enum here reads a `u32` type id then the body.
//!
//! Like the X-Chain enums, each position accepts only the types that can pass avalanchego's
//! verification there (e.g. a stakeable lock never wraps another lock: `errNestedStakeableLocks`),
//! so hostile nesting cannot recurse.

use super::signer::ProofOfPossession;
use super::stakeable::{LockIn, LockOut};
use super::type_id;
use crate::Id;
use crate::components::FxValue;
use crate::fx::{FxError, SECP256K1FX_ID, secp256k1fx};

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
