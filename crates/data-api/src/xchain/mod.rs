//! The X-Chain endpoints of the Data API, read through the chain crate's pages
//! (`snowline_chain_x::history::XHistoryPages`): balances, UTXOs, vertices by height, and the
//! blockchain details of the primary chains. Each handler parses, calls one page function and
//! renders; the reads run on the blocking pool, each from one snapshot.

mod balances;
mod blockchains;
mod context;
mod render;
mod utxos;
mod vertices;

use std::sync::Arc;

use snowline_chain_x::history::XHistoryPages;
use snowline_query::{PageTokens, TokenSecret};
use snowline_rest::{Router, Weight};
use snowline_types::network::NetworkInfo;

pub use context::XChainApi;

/// Adds the X-Chain endpoints over `pages`, for the network they index; page tokens are
/// authenticated with `secret`.
pub fn routes(
    router: Router,
    pages: Arc<XHistoryPages>,
    network: &'static NetworkInfo,
    secret: TokenSecret,
) -> Result<Router, String> {
    let api = Arc::new(
        XChainApi::new(pages, network, PageTokens::new(secret))
            .map_err(|e| format!("X-Chain addresses of {}: {e}", network.name))?,
    );
    let (a, b, c, d) = (
        Arc::clone(&api),
        Arc::clone(&api),
        Arc::clone(&api),
        Arc::clone(&api),
    );
    Ok(router
        .get_blocking(
            "/v1/networks/{network}/blockchains/{blockchainId}/balances",
            Weight::XL,
            move |req| balances::handle(&a, req),
        )
        .get_blocking(
            "/v1/networks/{network}/blockchains/{blockchainId}/utxos",
            Weight::XL,
            move |req| utxos::handle(&b, req),
        )
        .get_blocking(
            "/v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight",
            Weight::MEDIUM,
            move |req| vertices::handle(&c, req),
        )
        .get_blocking(
            "/v1/networks/{network}/blockchains/{blockchainId}",
            Weight::MEDIUM,
            move |req| blockchains::handle(&d, req),
        ))
}
