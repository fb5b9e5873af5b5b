//! Warp payloads (`vms/platformvm/warp/payload`): `u16 0 | u32 type | body`, at most 24 KiB;
//! type 0 `Hash`, type 1 `AddressedCall`.

use super::WarpError;
use crate::Id;
use crate::codec::{CodecError, Decode, Encode, Reader, Writer, marshal, unmarshal_with_max};

/// Largest payload (`payload.MaxMessageSize`, 24 KiB).
pub const MAX_PAYLOAD_SIZE: usize = 24 * 1024;

/// A Warp payload.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Payload {
    /// 0: a 32-byte hash attested by the source chain (e.g. a block hash).
    Hash(Id),
    /// 1: a message from an address on the source chain.
    AddressedCall(AddressedCall),
}

/// A message from a source address (`payload.AddressedCall`): `u32+sourceAddress | u32+payload`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct AddressedCall {
    /// The sender on the source chain (20-byte EVM address; empty for the P-Chain).
    pub source_address: Vec<u8>,
    /// The application payload (a Teleporter message, a P-Chain [`super::l1::L1Message`], …).
    pub payload: Vec<u8>,
}

impl Payload {
    /// Parses payload bytes (`payload.Parse`).
    pub fn parse(bytes: &[u8]) -> Result<Self, WarpError> {
        Ok(unmarshal_with_max(bytes, MAX_PAYLOAD_SIZE)?)
    }

    /// The payload bytes.
    pub fn bytes(&self) -> Vec<u8> {
        marshal(self)
    }

    /// The payload type id.
    pub fn type_id(&self) -> u32 {
        match self {
            Self::Hash(_) => 0,
            Self::AddressedCall(_) => 1,
        }
    }
}

impl Decode for Payload {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        match r.u32()? {
            0 => Ok(Self::Hash(Id::decode(r)?)),
            1 => Ok(Self::AddressedCall(AddressedCall {
                source_address: r.bytes()?.to_vec(),
                payload: r.bytes()?.to_vec(),
            })),
            type_id => Err(CodecError::UnknownTypeId {
                type_id,
                context: "warp payload",
            }),
        }
    }
}
impl Encode for Payload {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.type_id());
        match self {
            Self::Hash(h) => h.encode(w),
            Self::AddressedCall(a) => {
                w.bytes(&a.source_address);
                w.bytes(&a.payload);
            }
        }
    }
}
