//! What every P-Chain endpoint shares: the P-Chain's pages, the network it indexes, the
//! page-token codec, the `P-` address format, and the records of AVAX amounts.

use std::sync::Arc;

use snowline_chain_p::pages::{PChainPages, PageError};
use snowline_query::SealedPageTokens;
use snowline_rest_api::ApiError;
use snowline_types::address::AddressFormatter;
use snowline_types::network::NetworkInfo;
use snowline_types::rest::{AssetAmount, AssetType};
use snowline_types::{Id, ShortId};

use crate::params::invalid_token;

/// Shared state of the P-Chain endpoints.
pub struct PChainApi {
    pub(crate) pages: Arc<PChainPages>,
    pub(crate) network: &'static NetworkInfo,
    pub(crate) tokens: SealedPageTokens,
    p_addresses: AddressFormatter,
}

impl PChainApi {
    /// The endpoints' state for `network`'s data, read through `pages`.
    pub fn new(
        pages: Arc<PChainPages>,
        network: &'static NetworkInfo,
        tokens: SealedPageTokens,
    ) -> Result<Self, snowline_types::AddressError> {
        Ok(Self {
            pages,
            network,
            tokens,
            p_addresses: AddressFormatter::new("P", network.hrp)?,
        })
    }

    /// `P-<hrp>1…` of each address.
    pub(crate) fn addresses(&self, addrs: &[ShortId]) -> Vec<String> {
        addrs.iter().map(|a| self.p_addresses.format(a)).collect()
    }

    /// `AssetAmount` of `amount` of `asset` (see [`asset_amount`]).
    pub(crate) fn asset_amount(&self, asset: &Id, amount: u128) -> AssetAmount {
        asset_amount(self.network, asset, amount)
    }

    /// AVAX `AssetAmount` of `amount` nAVAX.
    pub(crate) fn avax(&self, amount: u64) -> AssetAmount {
        self.asset_amount(&self.network.avax_asset_id, u128::from(amount))
    }
}

/// `AssetAmount` of `amount` of `asset` on `network`'s P-Chain, which holds AVAX only: AVAX by
/// name; another asset (atomic memory may name one of the X-Chain's) by id with empty name and
/// symbol.
pub(crate) fn asset_amount(network: &NetworkInfo, asset: &Id, amount: u128) -> AssetAmount {
    let avax = *asset == network.avax_asset_id;
    AssetAmount {
        asset_id: asset.to_string(),
        name: if avax {
            "Avalanche".into()
        } else {
            String::new()
        },
        symbol: if avax { "AVAX".into() } else { String::new() },
        denomination: if avax { 9 } else { 0 },
        asset_type: AssetType::Secp256k1,
        amount: amount.to_string(),
    }
}

/// A page that could not be read: a position that does not fit the listing is the client's
/// (the same 400 as any invalid token); a read failure is ours, a 500 with the reason.
pub(crate) fn page_error(e: PageError) -> ApiError {
    match e {
        PageError::BadPosition => invalid_token(),
        PageError::Read(e) => ApiError::internal(format!("reading the P-Chain index failed: {e}")),
    }
}

/// `NodeID-` + cb58 of a node id of any length (L1 validators' ids are 20 bytes in practice).
pub(crate) fn node_id_string(bytes: &[u8]) -> String {
    match <[u8; 20]>::try_from(bytes) {
        Ok(b) => snowline_types::NodeId(ShortId(b)).to_string(),
        Err(_) => format!(
            "{}{}",
            snowline_types::NodeId::PREFIX,
            snowline_types::cb58::encode(bytes)
        ),
    }
}
