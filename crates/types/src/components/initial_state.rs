//! `txs.InitialState`: the outputs a `CreateAssetTx` creates for one fx.

use super::{ComponentError, FxValue};
use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer, encode_to_vec};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};
use crate::fx::FX_IDS;

/// `u32 fxIndex | u32 n | O×n`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InitialState<O> {
    /// Index of the fx in the chain's fx list (0 secp256k1fx, 1 nftfx, 2 propertyfx on the X-Chain).
    pub fx_index: u32,
    /// The created outputs (type id + fx body each).
    pub outputs: Vec<O>,
}

/// Why an initial state is invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InitialStateError {
    /// `fxIndex` beyond the chain's fxs (`ErrUnknownFx`).
    #[error("unknown feature extension")]
    UnknownFx,
    /// Outputs not sorted by their bytes (`ErrOutputsNotSorted`).
    #[error("outputs not sorted")]
    OutputsNotSorted,
    /// An output failed its own check.
    #[error(transparent)]
    Component(#[from] ComponentError),
}

impl<O: FxValue + Encode> InitialState<O> {
    /// `InitialState.Verify(codec, numFxs)`.
    pub fn verify(&self, num_fxs: usize) -> Result<(), InitialStateError> {
        if self.fx_index as usize >= num_fxs {
            return Err(InitialStateError::UnknownFx);
        }
        for o in &self.outputs {
            o.verify().map_err(ComponentError::from)?;
        }
        let sorted = self
            .outputs
            .windows(2)
            .all(|p| matches!(p, [a, b] if encode_to_vec(a) <= encode_to_vec(b)));
        if sorted {
            Ok(())
        } else {
            Err(InitialStateError::OutputsNotSorted)
        }
    }
}

impl<O: Decode + MinSize> Decode for InitialState<O> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            fx_index: r.u32()?,
            outputs: Vec::decode(r)?,
        })
    }
}
impl<O: Encode> Encode for InitialState<O> {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.fx_index);
        self.outputs.encode(w);
    }
}
impl<O> MinSize for InitialState<O> {
    const MIN_SIZE: usize = 8;
}

/// `{"fxIndex","fxID","outputs"}`; an fx index beyond the known fxs (never accepted on chain)
/// renders the empty id.
impl<O: WriteJson> WriteJson for InitialState<O> {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        w.begin_object();
        w.key("fxIndex");
        w.u64(u64::from(self.fx_index));
        w.key("fxID");
        let fx = FX_IDS
            .get(self.fx_index as usize)
            .copied()
            .unwrap_or_default();
        w.id(&fx);
        w.key("outputs");
        w.array(ctx, &self.outputs);
        w.end_object();
    }
}
