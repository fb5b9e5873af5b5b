//! What every X-Chain endpoint shares: the history's pages, the network it indexes, the
//! page-token codec, and the `X-` address format.

use std::sync::Arc;

use snowline_chain_x::history::{PageError, XHistoryPages};
use snowline_query::SealedPageTokens;
use snowline_rest_api::ApiError;
use snowline_types::address::AddressFormatter;
use snowline_types::network::NetworkInfo;

use crate::params::invalid_token;

/// Shared state of the X-Chain endpoints.
pub struct XChainApi {
    pub(crate) pages: Arc<XHistoryPages>,
    pub(crate) network: &'static NetworkInfo,
    pub(crate) tokens: SealedPageTokens,
    pub(crate) x_addresses: AddressFormatter,
}

impl XChainApi {
    /// The endpoints' state for `network`'s data, read through `pages`.
    pub fn new(
        pages: Arc<XHistoryPages>,
        network: &'static NetworkInfo,
        tokens: SealedPageTokens,
    ) -> Result<Self, snowline_types::AddressError> {
        Ok(Self {
            pages,
            network,
            tokens,
            x_addresses: AddressFormatter::new("X", network.hrp)?,
        })
    }
}

/// A page that could not be read: a position that does not fit the listing is the client's
/// (the same 400 as any invalid token); a read failure is ours, a 500 with the reason.
pub(crate) fn page_error(e: PageError) -> ApiError {
    match e {
        PageError::BadPosition => invalid_token(),
        PageError::Read(e) => ApiError::internal(format!("reading the X-Chain index failed: {e}")),
    }
}
