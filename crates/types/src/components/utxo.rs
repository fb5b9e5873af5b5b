//! `avax.UTXO`: an unspent output, `u16 version | UtxoId | assetID | O` at top level.

use super::{ComponentError, FxValue, UtxoId, verify_asset_id};
use crate::Id;
use crate::codec::{
    CodecError, DEFAULT_MAX_SIZE, Decode, Encode, MinSize, Reader, Writer, marshal,
    unmarshal_with_max,
};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};

/// An unspent output and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Utxo<O> {
    /// The creating tx and output index.
    pub utxo_id: UtxoId,
    /// The asset.
    pub asset_id: Id,
    /// The VM's output (type id + fx body).
    pub output: O,
}

impl<O: Decode> Utxo<O> {
    /// Parses a UTXO as served by `avm.getUTXOs` (codec version first, nothing after).
    pub fn parse(bytes: &[u8]) -> Result<Self, CodecError> {
        unmarshal_with_max(bytes, DEFAULT_MAX_SIZE)
    }
}

impl<O: Encode> Utxo<O> {
    /// The UTXO's bytes with the codec version.
    pub fn to_bytes(&self) -> Vec<u8> {
        marshal(self)
    }
}

impl<O> Utxo<O> {
    /// The UTXO's id: `txID.Prefix(outputIndex)`.
    pub fn id(&self) -> Id {
        self.utxo_id.id()
    }
}

impl<O: FxValue> Utxo<O> {
    /// `UTXO.Verify`: non-empty asset and a valid output.
    pub fn verify(&self) -> Result<(), ComponentError> {
        verify_asset_id(&self.asset_id)?;
        Ok(self.output.verify()?)
    }
}

impl<O: Decode> Decode for Utxo<O> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            utxo_id: UtxoId::decode(r)?,
            asset_id: Id::decode(r)?,
            output: O::decode(r)?,
        })
    }
}
impl<O: Encode> Encode for Utxo<O> {
    fn encode(&self, w: &mut Writer) {
        self.utxo_id.encode(w);
        self.asset_id.encode(w);
        self.output.encode(w);
    }
}
impl<O: MinSize> MinSize for Utxo<O> {
    const MIN_SIZE: usize = UtxoId::MIN_SIZE + 32 + O::MIN_SIZE;
}

/// `{"txID","outputIndex","assetID","output"}`, the field order of `avax.UTXO`.
impl<O: WriteJson> WriteJson for Utxo<O> {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        self.utxo_id.write_json_fields(w);
        w.key("assetID");
        w.id(&self.asset_id);
        w.key("output");
        self.output.write_json(w, ctx);
        w.end_object();
    }
}
