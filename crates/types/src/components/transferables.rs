//! `avax.TransferableOutput` / `avax.TransferableInput`: an asset id plus a VM output or input.

use super::{ComponentError, FxValue, UtxoId, verify_asset_id};
use crate::Id;
use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer, encode_to_vec};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};

/// An output of a tx: `assetID[32] | O` where `O` writes its own type id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TransferableOutput<O> {
    /// The asset.
    pub asset_id: Id,
    /// The VM's output (type id + fx body).
    pub output: O,
}

impl<O: Decode> Decode for TransferableOutput<O> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            asset_id: Id::decode(r)?,
            output: O::decode(r)?,
        })
    }
}
impl<O: Encode> Encode for TransferableOutput<O> {
    fn encode(&self, w: &mut Writer) {
        self.asset_id.encode(w);
        self.output.encode(w);
    }
}
impl<O: MinSize> MinSize for TransferableOutput<O> {
    const MIN_SIZE: usize = 32 + O::MIN_SIZE;
}

impl<O: FxValue> TransferableOutput<O> {
    /// `TransferableOutput.Verify`: non-empty asset and a valid output.
    pub fn verify(&self) -> Result<(), ComponentError> {
        verify_asset_id(&self.asset_id)?;
        Ok(self.output.verify()?)
    }
}

impl<O: FxValue + WriteJson> WriteJson for TransferableOutput<O> {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        w.key("assetID");
        w.id(&self.asset_id);
        w.key("fxID");
        w.id(&self.output.fx_id());
        w.key("output");
        self.output.write_json(w, ctx);
        w.end_object();
    }
}

/// Whether outputs are sorted as `avax.IsSortedTransferableOutputs` wants: by asset id, then by
/// the codec bytes of the output (type id included). Equal neighbours are allowed.
pub fn is_sorted_outputs<O: Encode>(outs: &[TransferableOutput<O>]) -> bool {
    outs.windows(2).all(|pair| match pair {
        [a, b] => match a.asset_id.cmp(&b.asset_id) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => encode_to_vec(&a.output) <= encode_to_vec(&b.output),
        },
        _ => true,
    })
}

/// Sorts outputs into the order [`is_sorted_outputs`] checks (for tx builders).
pub fn sort_outputs<O: Encode>(outs: &mut [TransferableOutput<O>]) {
    outs.sort_by_cached_key(|o| (o.asset_id, encode_to_vec(&o.output)));
}

/// An input of a tx: `UtxoId | assetID[32] | I` where `I` writes its own type id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TransferableInput<I> {
    /// The UTXO being spent.
    pub utxo_id: UtxoId,
    /// Its asset.
    pub asset_id: Id,
    /// The VM's input (type id + fx body).
    pub input: I,
}

impl<I: Decode> Decode for TransferableInput<I> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            utxo_id: UtxoId::decode(r)?,
            asset_id: Id::decode(r)?,
            input: I::decode(r)?,
        })
    }
}
impl<I: Encode> Encode for TransferableInput<I> {
    fn encode(&self, w: &mut Writer) {
        self.utxo_id.encode(w);
        self.asset_id.encode(w);
        self.input.encode(w);
    }
}
impl<I: MinSize> MinSize for TransferableInput<I> {
    const MIN_SIZE: usize = UtxoId::MIN_SIZE + 32 + I::MIN_SIZE;
}

impl<I: FxValue> TransferableInput<I> {
    /// `TransferableInput.Verify`: non-empty asset and a valid input.
    pub fn verify(&self) -> Result<(), ComponentError> {
        verify_asset_id(&self.asset_id)?;
        Ok(self.input.verify()?)
    }
}

impl<I: FxValue + WriteJson> WriteJson for TransferableInput<I> {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        self.utxo_id.write_json_fields(w);
        w.key("assetID");
        w.id(&self.asset_id);
        w.key("fxID");
        w.id(&self.input.fx_id());
        w.key("input");
        self.input.write_json(w, ctx);
        w.end_object();
    }
}

/// Whether inputs are strictly ascending by UTXO id (`utils.IsSortedAndUnique` on inputs).
pub fn is_sorted_unique_inputs<I>(ins: &[TransferableInput<I>]) -> bool {
    ins.windows(2)
        .all(|pair| matches!(pair, [a, b] if a.utxo_id < b.utxo_id))
}

/// Verifies each output and input and their order, as `avax.VerifyTx` does minus the fee/flow check
/// (which needs the chain's fee config).
pub fn verify_transferables<O: FxValue + Encode, I: FxValue>(
    outs: &[TransferableOutput<O>],
    ins: &[TransferableInput<I>],
) -> Result<(), ComponentError> {
    for o in outs {
        o.verify()?;
    }
    if !is_sorted_outputs(outs) {
        return Err(ComponentError::OutputsNotSorted);
    }
    for i in ins {
        i.verify()?;
    }
    if !is_sorted_unique_inputs(ins) {
        return Err(ComponentError::InputsNotSortedUnique);
    }
    Ok(())
}
