//! The X-Chain endpoints of the Data API, read from the indexer's X-Chain history
//! (`snowline_indexer::history`): balances, UTXOs, vertices by height, and the blockchain details
//! of the primary chains.
//!
//! Every request reads one snapshot, so a page is consistent even while ingestion writes.

mod balances;
mod blockchains;
mod context;
mod render;
mod utxos;
mod vertices;

use std::sync::Arc;

use snowline_query::{PageTokens, TokenSecret};
use snowline_rest_api::{Router, Weight};
use snowline_store::Store;
use snowline_types::network::NetworkInfo;

pub use context::XChainApi;

/// Adds the X-Chain endpoints over `store` (which holds `indexer::history::tables()`), for the
/// network the store indexes; page tokens are authenticated with `secret`.
pub fn routes(
    router: Router,
    store: Arc<Store>,
    network: &'static NetworkInfo,
    secret: TokenSecret,
) -> Result<Router, String> {
    let api = Arc::new(
        XChainApi::new(store, network, PageTokens::new(secret))
            .map_err(|e| format!("X-Chain addresses of {}: {e}", network.name))?,
    );
    let (a, b, c, d) = (
        Arc::clone(&api),
        Arc::clone(&api),
        Arc::clone(&api),
        Arc::clone(&api),
    );
    Ok(router
        .get(
            "/v1/networks/{network}/blockchains/{blockchainId}/balances",
            Weight::XL,
            move |req| {
                let api = Arc::clone(&a);
                async move { balances::handle(&api, &req) }
            },
        )
        .get(
            "/v1/networks/{network}/blockchains/{blockchainId}/utxos",
            Weight::XL,
            move |req| {
                let api = Arc::clone(&b);
                async move { utxos::handle(&api, &req) }
            },
        )
        .get(
            "/v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight",
            Weight::MEDIUM,
            move |req| {
                let api = Arc::clone(&c);
                async move { vertices::handle(&api, &req) }
            },
        )
        .get(
            "/v1/networks/{network}/blockchains/{blockchainId}",
            Weight::MEDIUM,
            move |req| {
                let api = Arc::clone(&d);
                async move { blockchains::handle(&api, &req) }
            },
        ))
}
