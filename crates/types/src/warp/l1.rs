//! The ACP-77 P-Chain Warp messages (`vms/platformvm/warp/message`), carried in an
//! `AddressedCall` with an empty source address, and the L1 validation ids.
//!
//! Each message is `u16 0 | u32 type id | body` with ids 0 `SubnetToL1Conversion`,
//! 1 `RegisterL1Validator`, 2 `L1ValidatorRegistration`, 3 `L1ValidatorWeight`.

use super::WarpError;
use crate::codec::{
    CODEC_VERSION, CodecError, Decode, Encode, MinSize, Reader, Writer, marshal, unmarshal_with_max,
};
use crate::hashing::sha256;
use crate::platformvm::signer::BLS_PUBLIC_KEY_LEN;
use crate::{Id, ShortId};

/// The P-Chain message codec has no size limit beyond the input (`math.MaxInt`).
const MAX_SIZE: usize = usize::MAX;

/// Threshold owners of L1 balances and disable rights (`message.PChainOwner`):
/// `u32 threshold | u32 n | addr[20]×n` (no locktime, unlike `OutputOwners`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct PChainOwner {
    /// How many of `addresses` must sign.
    pub threshold: u32,
    /// Sorted, unique addresses when valid.
    pub addresses: Vec<ShortId>,
}
impl Decode for PChainOwner {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            threshold: r.u32()?,
            addresses: Vec::decode(r)?,
        })
    }
}
impl Encode for PChainOwner {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.threshold);
        self.addresses.encode(w);
    }
}
impl MinSize for PChainOwner {
    const MIN_SIZE: usize = 8;
}

/// One validator of a conversion (`SubnetToL1ConversionValidatorData`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConversionValidatorData {
    /// Node id bytes.
    pub node_id: Vec<u8>,
    /// Compressed BLS public key.
    pub bls_public_key: [u8; BLS_PUBLIC_KEY_LEN],
    /// Initial weight.
    pub weight: u64,
}
impl Decode for ConversionValidatorData {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            node_id: r.bytes()?.to_vec(),
            bls_public_key: r.array()?,
            weight: r.u64()?,
        })
    }
}
impl Encode for ConversionValidatorData {
    fn encode(&self, w: &mut Writer) {
        w.bytes(&self.node_id);
        w.raw(&self.bls_public_key);
        w.u64(self.weight);
    }
}
impl MinSize for ConversionValidatorData {
    const MIN_SIZE: usize = 4 + BLS_PUBLIC_KEY_LEN + 8;
}

/// What a `ConvertSubnetToL1Tx` fixed (`SubnetToL1ConversionData`); its hash is the conversion id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConversionData {
    /// The converted subnet.
    pub subnet_id: Id,
    /// Chain of the validator manager.
    pub manager_chain_id: Id,
    /// Address of the validator manager.
    pub manager_address: Vec<u8>,
    /// The initial validators, in tx order.
    pub validators: Vec<ConversionValidatorData>,
}
impl Decode for ConversionData {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            subnet_id: Id::decode(r)?,
            manager_chain_id: Id::decode(r)?,
            manager_address: r.bytes()?.to_vec(),
            validators: Vec::decode(r)?,
        })
    }
}
impl Encode for ConversionData {
    fn encode(&self, w: &mut Writer) {
        self.subnet_id.encode(w);
        self.manager_chain_id.encode(w);
        w.bytes(&self.manager_address);
        self.validators.encode(w);
    }
}

impl ConversionData {
    /// `SubnetToL1ConversionID`: `sha256(u16 0 | data)` (a plain struct, no type id).
    pub fn conversion_id(&self) -> Id {
        Id(sha256(&marshal(self)))
    }
}

/// A validator being registered on an L1 (`RegisterL1Validator`, type 1).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RegisterL1Validator {
    /// The L1's subnet id.
    pub subnet_id: Id,
    /// Node id bytes (20 when valid).
    pub node_id: Vec<u8>,
    /// Compressed BLS public key.
    pub bls_public_key: [u8; BLS_PUBLIC_KEY_LEN],
    /// Unix seconds after which the message cannot be used.
    pub expiry: u64,
    /// Who gets the balance left when the validator leaves.
    pub remaining_balance_owner: PChainOwner,
    /// Who may disable the validator (`deactivationOwner` in APIs).
    pub disable_owner: PChainOwner,
    /// Initial weight.
    pub weight: u64,
}
impl Decode for RegisterL1Validator {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            subnet_id: Id::decode(r)?,
            node_id: r.bytes()?.to_vec(),
            bls_public_key: r.array()?,
            expiry: r.u64()?,
            remaining_balance_owner: PChainOwner::decode(r)?,
            disable_owner: PChainOwner::decode(r)?,
            weight: r.u64()?,
        })
    }
}
impl Encode for RegisterL1Validator {
    fn encode(&self, w: &mut Writer) {
        self.subnet_id.encode(w);
        w.bytes(&self.node_id);
        w.raw(&self.bls_public_key);
        w.u64(self.expiry);
        self.remaining_balance_owner.encode(w);
        self.disable_owner.encode(w);
        w.u64(self.weight);
    }
}

/// The P-Chain's answer on whether a validation id is (or will never be) registered
/// (`L1ValidatorRegistration`, type 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct L1ValidatorRegistration {
    /// The validator.
    pub validation_id: Id,
    /// `true`: registered; `false`: removed or never registrable.
    pub registered: bool,
}

/// A weight change for an L1 validator (`L1ValidatorWeight`, type 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct L1ValidatorWeight {
    /// The validator.
    pub validation_id: Id,
    /// Strictly increasing per validator; `u64::MAX` is reserved.
    pub nonce: u64,
    /// New weight (0 = removal).
    pub weight: u64,
}

/// Any P-Chain Warp message payload (the `payload` of an `AddressedCall`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum L1Message {
    /// 0: a subnet was converted; the id is [`ConversionData::conversion_id`].
    SubnetToL1Conversion {
        /// The conversion id.
        conversion_id: Id,
    },
    /// 1: register a validator.
    RegisterL1Validator(RegisterL1Validator),
    /// 2: registration status.
    L1ValidatorRegistration(L1ValidatorRegistration),
    /// 3: weight change.
    L1ValidatorWeight(L1ValidatorWeight),
}

impl L1Message {
    /// The message codec type id.
    pub fn type_id(&self) -> u32 {
        match self {
            Self::SubnetToL1Conversion { .. } => 0,
            Self::RegisterL1Validator(_) => 1,
            Self::L1ValidatorRegistration(_) => 2,
            Self::L1ValidatorWeight(_) => 3,
        }
    }

    /// Parses `u16 0 | u32 type | body`, nothing trailing (`message.Parse`).
    pub fn parse(bytes: &[u8]) -> Result<Self, WarpError> {
        Ok(unmarshal_with_max(bytes, MAX_SIZE)?)
    }

    /// The message bytes.
    pub fn bytes(&self) -> Vec<u8> {
        marshal(self)
    }
}

impl Decode for L1Message {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        match r.u32()? {
            0 => Ok(Self::SubnetToL1Conversion {
                conversion_id: Id::decode(r)?,
            }),
            1 => Ok(Self::RegisterL1Validator(RegisterL1Validator::decode(r)?)),
            2 => Ok(Self::L1ValidatorRegistration(L1ValidatorRegistration {
                validation_id: Id::decode(r)?,
                registered: r.bool()?,
            })),
            3 => Ok(Self::L1ValidatorWeight(L1ValidatorWeight {
                validation_id: Id::decode(r)?,
                nonce: r.u64()?,
                weight: r.u64()?,
            })),
            type_id => Err(CodecError::UnknownTypeId {
                type_id,
                context: "P-Chain warp message",
            }),
        }
    }
}
impl Encode for L1Message {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.type_id());
        match self {
            Self::SubnetToL1Conversion { conversion_id } => conversion_id.encode(w),
            Self::RegisterL1Validator(m) => m.encode(w),
            Self::L1ValidatorRegistration(m) => {
                m.validation_id.encode(w);
                w.bool(m.registered);
            }
            Self::L1ValidatorWeight(m) => {
                m.validation_id.encode(w);
                w.u64(m.nonce);
                w.u64(m.weight);
            }
        }
    }
}

impl RegisterL1Validator {
    /// The message bytes (`u16 0 | u32 1 | body`).
    pub fn bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(256);
        w.u16(CODEC_VERSION);
        w.u32(1);
        self.encode(&mut w);
        w.into_bytes()
    }

    /// The validation id of a validator registered by `RegisterL1ValidatorTx`:
    /// `sha256` of this message's bytes (`RegisterL1Validator.ValidationID`).
    pub fn validation_id(&self) -> Id {
        Id(sha256(&self.bytes()))
    }
}

/// The validation id of the `index`-th validator of a `ConvertSubnetToL1Tx`:
/// `subnetID.Append(index)` = `sha256(subnetID ‖ u32_be(index))`.
pub fn conversion_validation_id(subnet_id: &Id, index: u32) -> Id {
    subnet_id.append(&[index])
}

/// The validation id of a validator registered with the given `RegisterL1Validator` message
/// bytes: `sha256(bytes)`.
pub fn registration_validation_id(register_message_bytes: &[u8]) -> Id {
    Id(sha256(register_message_bytes))
}
