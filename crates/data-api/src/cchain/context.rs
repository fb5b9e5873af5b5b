//! What the C-Chain endpoints share: the X-Chain history's and the P-Chain's pages (which hold
//! the two halves of the C-Chain's atomic memory), the network, the page-token codec and the
//! `C-` address format.

use std::sync::Arc;

use snowline_chain_p::pages::PChainPages;
use snowline_chain_x::history::XHistoryPages;
use snowline_query::SealedPageTokens;
use snowline_types::address::AddressFormatter;
use snowline_types::network::NetworkInfo;

/// Shared state of the C-Chain endpoints.
pub struct CChainApi {
    pub(crate) x: Arc<XHistoryPages>,
    pub(crate) p: Arc<PChainPages>,
    pub(crate) network: &'static NetworkInfo,
    pub(crate) tokens: SealedPageTokens,
    pub(crate) c_addresses: AddressFormatter,
}

impl CChainApi {
    /// The endpoints' state for `network`'s data, read through `x` and `p`.
    pub fn new(
        x: Arc<XHistoryPages>,
        p: Arc<PChainPages>,
        network: &'static NetworkInfo,
        tokens: SealedPageTokens,
    ) -> Result<Self, snowline_types::AddressError> {
        Ok(Self {
            x,
            p,
            network,
            tokens,
            c_addresses: AddressFormatter::new("C", network.hrp)?,
        })
    }
}
