//! Signed X-Chain txs (`vms/avm/txs/tx.go`): `u16 version | UnsignedTx | credentials`.

use super::fx_types::Credential;
use super::txs::UnsignedTx;
use crate::Id;
use crate::codec::{CodecError, DEFAULT_MAX_SIZE};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};
use crate::components::signed::{ParsedSigned, SignedTx};

/// Largest tx the X-Chain parses: 256 KiB (`codec.NewDefaultManager`).
pub const MAX_TX_SIZE: usize = DEFAULT_MAX_SIZE;
/// Largest genesis tx: `math.MaxInt32` (the genesis codec).
pub const MAX_GENESIS_TX_SIZE: usize = i32::MAX as usize;

/// A signed X-Chain tx: the unsigned tx and one credential per input/operation.
pub type Tx = SignedTx<UnsignedTx, Credential>;

/// A parsed X-Chain tx with its signed bytes and id.
pub type ParsedTx = ParsedSigned<UnsignedTx, Credential>;

impl Tx {
    /// Parses signed tx bytes (version 0, at most 256 KiB, nothing trailing), keeping the bytes
    /// and the id.
    pub fn parse(bytes: &[u8]) -> Result<ParsedTx, CodecError> {
        ParsedTx::parse_with_max(bytes, MAX_TX_SIZE)
    }

    /// [`Tx::parse`] of bytes the caller owns: they are kept in the [`ParsedTx`] without a copy.
    pub fn parse_vec(bytes: Vec<u8>) -> Result<ParsedTx, CodecError> {
        ParsedTx::from_vec_with_max(bytes, MAX_TX_SIZE)
    }

    /// Writes the tx JSON object (`unsignedTx`, `credentials`, `id`) with a known id.
    pub fn write_json_with_id(&self, w: &mut JsonWriter, ctx: &JsonCtx, id: &Id) {
        w.begin_object();
        w.key("unsignedTx");
        self.unsigned.write_json(w, ctx);
        w.key("credentials");
        w.begin_array();
        for c in &self.credentials {
            c.write_fx_json(w, ctx);
        }
        w.end_array();
        w.key("id");
        w.id(id);
        w.end_object();
    }
}

/// The `avm.getTx` JSON object; computes the id.
impl WriteJson for Tx {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        self.write_json_with_id(w, ctx, &self.id());
    }
}

/// The `avm.getTx` JSON object.
impl WriteJson for ParsedTx {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        self.tx.write_json_with_id(w, ctx, &self.id);
    }
}
