//! The primary-network endpoints of the Data API, routed by chain: balances and UTXOs (by query
//! and, v2, by body) of the P- and X-Chain and of the C-Chain's atomic memory, txs of the three
//! chains (the C-Chain's atomic ones), X-Chain vertices, P-Chain rewards, the three chains'
//! blocks (by id, latest, by proposer) and L1 validators, and the details of every blockchain
//! the P-Chain created. The reads run on the blocking pool, each from one snapshot per chain
//! crate.

mod activity;
mod blockchains;
pub(crate) mod blocks;
mod chain_ids;
mod subnets;
mod supply;
pub(crate) mod tx_params;

use std::sync::Arc;

use snowline_chain_p::pages::PChainPages;
use snowline_chain_x::history::XHistoryPages;
use snowline_query::{SealedPageTokens, TokenSecret};
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};
use snowline_types::Chain;
use snowline_types::network::NetworkInfo;

use crate::address_params::UtxoParams;
use crate::cchain::{self, CChainApi};
use crate::pchain::{self, PChainApi};
use crate::target::resolve;
use crate::xchain::{self, XChainApi};

/// The three chains' endpoint state.
pub(crate) struct PrimaryApi {
    pub(crate) x: XChainApi,
    pub(crate) p: PChainApi,
    pub(crate) c: CChainApi,
}

/// Adds the primary-network endpoints over the X-Chain history `x` and the P-Chain `p` (which
/// hold the C-Chain's atomic memory too), for the network they index; page tokens are
/// authenticated with `secret`.
pub fn routes(
    router: Router,
    x: Arc<XHistoryPages>,
    p: Arc<PChainPages>,
    network: &'static NetworkInfo,
    secret: TokenSecret,
) -> Result<Router, String> {
    let tokens = SealedPageTokens::new(secret);
    let addresses = |e| format!("addresses of {}: {e}", network.name);
    let api = Arc::new(PrimaryApi {
        c: CChainApi::new(Arc::clone(&x), Arc::clone(&p), network, tokens.clone())
            .map_err(addresses)?,
        x: XChainApi::new(x, network, tokens.clone()).map_err(addresses)?,
        p: PChainApi::new(p, network, tokens).map_err(addresses)?,
    });
    let route = |router: Router, path: &'static str, weight: Weight, f: Handler| {
        let api = Arc::clone(&api);
        router.get_blocking(path, weight, move |req| f(&api, req))
    };
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/balances",
        Weight::XL,
        balances,
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/utxos",
        Weight::XL,
        utxos,
    );
    let router = {
        let api = Arc::clone(&api);
        router.post_blocking(
            "/v1/networks/{network}/blockchains/{blockchainId}/utxos",
            Weight::XL,
            move |req| utxos_v2(&api, req),
        )
    };
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight",
        Weight::MEDIUM,
        |api, req| xchain::vertices::by_height(&api.x, req),
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/vertices",
        Weight::MEDIUM,
        |api, req| xchain::vertices::latest(&api.x, req),
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}",
        Weight::MEDIUM,
        |api, req| xchain::vertices::by_hash(&api.x, req),
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}",
        Weight::MEDIUM,
        blockchains::handle,
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks",
        Weight::MEDIUM,
        blocks_by_node,
    );
    let router = route(
        router,
        "/v1/networks/{network}/addresses:listChainIds",
        Weight::MEDIUM,
        chain_ids::handle,
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses",
        Weight::MEDIUM,
        activity::get,
    );
    let router = {
        let api = Arc::clone(&api);
        router.post_blocking(
            "/v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses",
            Weight::MEDIUM,
            move |req| activity::post(&api, req),
        )
    };
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}",
        Weight::MEDIUM,
        |api, req| xchain::assets::get(&api.x, req),
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}/transactions",
        Weight::XL,
        |api, req| xchain::assets::txs(&api.x, req),
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}",
        Weight::MEDIUM,
        block_by_id,
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/blocks",
        Weight::MEDIUM,
        latest_blocks,
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}",
        Weight::MEDIUM,
        tx_by_hash,
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/transactions",
        Weight::XL,
        txs,
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking",
        Weight::XL,
        staking_txs,
    );
    let router = route(
        router,
        "/v1/networks/{network}/rewards",
        Weight::XL,
        |api, req| pchain::rewards::historical(&api.p, req),
    );
    let router = route(
        router,
        "/v1/networks/{network}/rewards:listPending",
        Weight::XL,
        |api, req| pchain::rewards::pending(&api.p, req),
    );
    let router = route(
        router,
        "/v1/networks/{network}",
        Weight::MEDIUM,
        |api, req| pchain::staking::network_details(&api.p, req),
    );
    let router = route(
        router,
        "/v1/networks/{network}/validators",
        // The OpenAPI's x-execution-weight: a page of validations is a medium request.
        Weight::MEDIUM,
        |api, req| pchain::staking::validators(&api.p, req),
    );
    let router = route(
        router,
        "/v1/networks/{network}/validators/{nodeId}",
        Weight::MEDIUM,
        |api, req| pchain::staking::single_validator(&api.p, req),
    );
    let router = route(
        router,
        "/v1/networks/{network}/blockchains",
        Weight::MEDIUM,
        subnets::blockchains,
    );
    let router = route(
        router,
        "/v1/networks/{network}/subnets",
        Weight::MEDIUM,
        subnets::list,
    );
    let router = route(
        router,
        "/v1/networks/{network}/subnets/{subnetId}",
        Weight::MEDIUM,
        subnets::by_id,
    );
    let router = route(
        router,
        "/v1/networks/{network}/delegators",
        Weight::XL,
        |api, req| pchain::staking::delegators(&api.p, req),
    );
    let router = route(router, "/v1/avax/supply", Weight::FREE, supply::handle);
    Ok(route(
        router,
        "/v1/networks/{network}/l1Validators",
        Weight::MEDIUM,
        |api, req| pchain::l1::handle(&api.p, req),
    ))
}

type Handler = fn(&PrimaryApi, &Request) -> Result<Reply, ApiError>;

fn balances(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let target = resolve(req, api.p.network, &Chain::ALL)?;
    match target.chain {
        Chain::P => pchain::balances::handle(&api.p, req, target.chain_info()),
        Chain::X => xchain::balances::handle(&api.x, req, target.chain_info()),
        Chain::C => cchain::balances::handle(&api.c, req, target.chain_info()),
    }
}

fn utxos(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    utxos_with(api, req, UtxoParams::parse)
}

/// `getUtxosByAddressesV2`: the same listing, the addresses in the body.
fn utxos_v2(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    utxos_with(api, req, UtxoParams::parse_v2)
}

type ParseUtxos = fn(&Request, &NetworkInfo, Chain) -> Result<UtxoParams, ApiError>;

fn utxos_with(api: &PrimaryApi, req: &Request, parse: ParseUtxos) -> Result<Reply, ApiError> {
    let target = resolve(req, api.p.network, &Chain::ALL)?;
    let params = parse(req, api.p.network, target.chain)?;
    match target.chain {
        Chain::P => pchain::utxos::handle(&api.p, req, params, target.chain_info()),
        Chain::X => xchain::utxos::handle(&api.x, req, params, target.chain_info()),
        Chain::C => cchain::utxos::handle(&api.c, req, params, target.chain_info()),
    }
}

fn blocks_by_node(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let target = resolve(req, api.p.network, &Chain::ALL)?;
    match target.chain {
        Chain::P => pchain::blocks::by_node(&api.p, req, target.chain_info()),
        Chain::X => xchain::blocks::by_node(&api.x, req, target.chain_info()),
        Chain::C => cchain::blocks::by_node(&api.c, req, target.chain_info()),
    }
}

fn tx_by_hash(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let target = resolve(req, api.p.network, &Chain::ALL)?;
    match target.chain {
        Chain::P => pchain::txs::by_hash(&api.p, req),
        Chain::X => xchain::txs::by_hash(&api.x, req),
        Chain::C => cchain::txs::by_hash(&api.c, req),
    }
}

fn txs(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let target = resolve(req, api.p.network, &Chain::ALL)?;
    match target.chain {
        Chain::P => pchain::txs::list(&api.p, req, target.chain_info()),
        Chain::X => xchain::txs::list(&api.x, req, target.chain_info()),
        Chain::C => cchain::txs::list(&api.c, req, target.chain_info()),
    }
}

fn staking_txs(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let target = resolve(req, api.p.network, &[Chain::P])?;
    pchain::txs::list_staking(&api.p, req, target.chain_info())
}

fn block_by_id(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let target = resolve(req, api.p.network, &Chain::ALL)?;
    match target.chain {
        Chain::P => pchain::blocks::by_id(&api.p, req),
        Chain::X => xchain::blocks::by_id(&api.x, req),
        Chain::C => cchain::blocks::by_id(&api.c, req),
    }
}

fn latest_blocks(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let target = resolve(req, api.p.network, &Chain::ALL)?;
    match target.chain {
        Chain::P => pchain::blocks::latest(&api.p, req, target.chain_info()),
        Chain::X => xchain::blocks::latest(&api.x, req, target.chain_info()),
        Chain::C => cchain::blocks::latest(&api.c, req, target.chain_info()),
    }
}
