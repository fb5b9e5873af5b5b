//! Signed P-Chain txs (`vms/platformvm/txs/tx.go`): `u16 version | UnsignedTx | credentials`;
//! the id is `sha256` of those signed bytes.

use super::fx_types::Credential;
use super::txs::UnsignedTx;
use crate::Id;
use crate::codec::{CodecError, DEFAULT_MAX_SIZE, Decode, Reader};
use crate::components::signed::{ParsedSigned, SignedTx};

/// Largest tx the P-Chain parses: 256 KiB (`codec.NewDefaultManager`).
pub const MAX_TX_SIZE: usize = DEFAULT_MAX_SIZE;
/// Largest genesis tx: `math.MaxInt32` (`txs.GenesisCodec`).
pub const MAX_GENESIS_TX_SIZE: usize = i32::MAX as usize;

/// A signed P-Chain tx: the unsigned tx and one credential per input (plus one per
/// authorization).
pub type Tx = SignedTx<UnsignedTx, Credential>;

/// A parsed P-Chain tx with its signed bytes and id.
pub type ParsedTx = ParsedSigned<UnsignedTx, Credential>;

impl Tx {
    /// Parses signed tx bytes (version 0, at most 256 KiB, nothing trailing).
    pub fn parse(bytes: &[u8]) -> Result<ParsedTx, CodecError> {
        ParsedTx::parse_with_max(bytes, MAX_TX_SIZE)
    }
}

/// The id of a tx whose version-less bytes are `body`: `sha256(0x0000 ‖ body)`, without copying.
pub fn tx_id_of_body(body: &[u8]) -> Id {
    crate::codec::versioned_id(body)
}

/// Parses the bytes of one tx as a block nests it (no codec version; what a
/// [`super::block::ParsedBlock::tx_ranges`] entry spans), so one tx is read without its block.
pub fn parse_nested_tx(body: &[u8]) -> Result<Tx, CodecError> {
    Tx::parse_nested(body)
}

/// Decodes a tx nested in a block and computes its id from the bytes it spans.
pub(crate) fn decode_tx_with_id(r: &mut Reader<'_>) -> Result<(Tx, Id), CodecError> {
    let start = r.position();
    let tx = Tx::decode(r)?;
    let body = r.input().get(start..r.position()).unwrap_or(&[]);
    Ok((tx, tx_id_of_body(body)))
}
