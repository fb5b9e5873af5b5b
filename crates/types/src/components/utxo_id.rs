//! `avax.UTXOID`: the tx that created an output and the output's index in it.

use crate::Id;
use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};

/// Where a UTXO came from: `txID[32] | u32 outputIndex`. Orders by tx id bytes then index, as
/// `UTXOID.Compare` does (the order inputs must be sorted in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct UtxoId {
    /// The creating tx.
    pub tx_id: Id,
    /// The output's index in that tx.
    pub output_index: u32,
}

impl UtxoId {
    /// A UTXO id from its parts.
    pub const fn new(tx_id: Id, output_index: u32) -> Self {
        Self {
            tx_id,
            output_index,
        }
    }

    /// The UTXO's own id, `txID.Prefix(outputIndex)` = `sha256(u64_be(index) ‖ txID)` (`InputID`).
    pub fn id(&self) -> Id {
        self.tx_id.prefix(u64::from(self.output_index))
    }

    /// Writes the `"txID"` and `"outputIndex"` members into an open object.
    pub fn write_json_fields(&self, w: &mut JsonWriter) {
        w.key("txID");
        w.id(&self.tx_id);
        w.key("outputIndex");
        w.u64(u64::from(self.output_index));
    }
}

impl Decode for UtxoId {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            tx_id: Id::decode(r)?,
            output_index: r.u32()?,
        })
    }
}
impl Encode for UtxoId {
    #[inline]
    fn encode(&self, w: &mut Writer) {
        self.tx_id.encode(w);
        w.u32(self.output_index);
    }
}
impl MinSize for UtxoId {
    const MIN_SIZE: usize = 36;
}
impl WriteJson for UtxoId {
    fn write_json(&self, w: &mut JsonWriter, _ctx: &JsonCtx) {
        w.begin_object();
        self.write_json_fields(w);
        w.end_object();
    }
}
