//! Request parameters of the `avm` methods (avalanchego `api/common_args_responses.go` and
//! `vms/avm/service.go`); decoding failures are the "couldn't unmarshal an argument" error.

use serde::Deserialize;
use snowline_jsonrpc::{JsonU32, JsonU64};
use snowline_types::Id;

use crate::index::Encoding;

/// `{txID, encoding}` (`api.GetTxArgs`, and `api.JSONTxID` without encoding).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct TxArgs {
    #[serde(rename = "txID", default)]
    pub(crate) tx_id: Option<Id>,
    #[serde(default)]
    pub(crate) encoding: Encoding,
}

/// `{blockID, encoding}`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct BlockArgs {
    #[serde(rename = "blockID", default)]
    pub(crate) block_id: Option<Id>,
    #[serde(default)]
    pub(crate) encoding: Encoding,
}

/// `{height, encoding}`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct HeightArgs {
    #[serde(default)]
    pub(crate) height: JsonU64,
    #[serde(default)]
    pub(crate) encoding: Encoding,
}

/// `{assetID}` (a string: an alias or a cb58 id).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct AssetArgs {
    #[serde(rename = "assetID", default)]
    pub(crate) asset_id: String,
}

/// `{address, assetID, includePartial}`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct BalanceArgs {
    #[serde(default)]
    pub(crate) address: String,
    #[serde(rename = "assetID", default)]
    pub(crate) asset_id: String,
    #[serde(rename = "includePartial", default)]
    pub(crate) include_partial: bool,
}

/// `{address, includePartial}`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct AllBalancesArgs {
    #[serde(default)]
    pub(crate) address: String,
    #[serde(rename = "includePartial", default)]
    pub(crate) include_partial: bool,
}

/// `api.Index`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct StartIndex {
    #[serde(default)]
    pub(crate) address: String,
    #[serde(default)]
    pub(crate) utxo: String,
}

/// `api.GetUTXOsArgs`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct UtxosArgs {
    #[serde(default)]
    pub(crate) addresses: Vec<String>,
    #[serde(rename = "sourceChain", default)]
    pub(crate) source_chain: String,
    #[serde(default)]
    pub(crate) limit: JsonU32,
    #[serde(rename = "startIndex", default)]
    pub(crate) start_index: StartIndex,
    #[serde(default)]
    pub(crate) encoding: Encoding,
}

/// No parameters.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct NoArgs {}

impl Encoding {
    /// The name avalanchego writes back in `encoding`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Encoding::Hex => "hex",
            Encoding::HexC => "hexc",
            Encoding::HexNc => "hexnc",
            Encoding::Json => "json",
        }
    }

    /// `formatting.Encode`: hex with checksum, plain hex, or the JSON error.
    pub(crate) fn encode_bytes(self, bytes: &[u8]) -> Result<String, &'static str> {
        match self {
            Encoding::Hex | Encoding::HexC => {
                Ok(snowline_types::formatting::encode_hex_checksum(bytes))
            }
            Encoding::HexNc => Ok(snowline_types::formatting::encode_hex_plain(bytes)),
            Encoding::Json => Err(crate::index::UNSUPPORTED_ENCODING),
        }
    }
}
