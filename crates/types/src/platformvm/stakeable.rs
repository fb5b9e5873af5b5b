//! `vms/platformvm/stakeable`: amounts locked until a time that may still be staked.
//!
//! `LockOut` = `u64 locktime | u32 type id | TransferOutput`; `LockIn` = `u64 locktime | u32 type
//! id | TransferInput`. The inner value is always secp256k1fx: avalanchego rejects nested locks.

use super::type_id;
use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer};
use crate::fx::secp256k1fx::{TransferInput, TransferOutput};

/// A stakeable-locked output (`stakeable.LockOut`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct LockOut {
    /// Unix seconds until which the amount can only be staked.
    pub locktime: u64,
    /// The locked amount and its owners.
    pub output: TransferOutput,
}

/// A spend of a stakeable-locked output (`stakeable.LockIn`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct LockIn {
    /// The locktime of the output being spent.
    pub locktime: u64,
    /// The spend.
    pub input: TransferInput,
}

fn expect_type(r: &mut Reader<'_>, want: u32, context: &'static str) -> Result<(), CodecError> {
    match r.u32()? {
        t if t == want => Ok(()),
        type_id => Err(CodecError::UnknownTypeId { type_id, context }),
    }
}

impl Decode for LockOut {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let locktime = r.u64()?;
        expect_type(
            r,
            type_id::SECP256K1_TRANSFER_OUTPUT,
            "stakeable lock output",
        )?;
        Ok(Self {
            locktime,
            output: TransferOutput::decode(r)?,
        })
    }
}
impl Encode for LockOut {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.locktime);
        w.u32(type_id::SECP256K1_TRANSFER_OUTPUT);
        self.output.encode(w);
    }
}
impl MinSize for LockOut {
    const MIN_SIZE: usize = 12 + TransferOutput::MIN_SIZE;
}

impl Decode for LockIn {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let locktime = r.u64()?;
        expect_type(r, type_id::SECP256K1_TRANSFER_INPUT, "stakeable lock input")?;
        Ok(Self {
            locktime,
            input: TransferInput::decode(r)?,
        })
    }
}
impl Encode for LockIn {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.locktime);
        w.u32(type_id::SECP256K1_TRANSFER_INPUT);
        self.input.encode(w);
    }
}
impl MinSize for LockIn {
    const MIN_SIZE: usize = 12 + TransferInput::MIN_SIZE;
}
