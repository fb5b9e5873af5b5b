//! Avalanche Warp Messaging formats (`vms/platformvm/warp`): unsigned and signed messages with
//! their ids, the `Hash`/`AddressedCall` payloads, the ACP-77 P-Chain messages and L1
//! validation ids. Pure byte formats: BLS verification needs a validator set and lives elsewhere.

pub mod l1;
pub mod message;
pub mod payload;

pub use l1::{
    ConversionData, ConversionValidatorData, L1Message, L1ValidatorRegistration, L1ValidatorWeight,
    PChainOwner, RegisterL1Validator, conversion_validation_id, registration_validation_id,
};
pub use message::{BitSetSignature, Message, UnsignedMessage};
pub use payload::{AddressedCall, Payload};

use crate::codec::CodecError;

/// Why Warp bytes are invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WarpError {
    /// The bytes do not decode.
    #[error("invalid warp bytes: {0}")]
    Codec(#[from] CodecError),
    /// A signer bitset with leading zero bytes (`ErrInvalidBitSet`).
    #[error("bitset is invalid")]
    InvalidBitSet,
}
