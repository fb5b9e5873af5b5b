//! The EVM endpoints of the Data API (blocks, transactions, an address's history, token
//! transfers, internal transactions, native, ERC-20, ERC-721, ERC-1155 and collectible
//! balances, contracts and their metadata, deployment transactions, NFT collections' tokens, the
//! latest blocks and transactions of one chain or all, and `reindexNft`), read through the chain
//! crate's pages (`snowline_chain_evm::pages::EvmPages`). `{chainId}` is resolved through the
//! chain registry; a listed chain with nothing indexed is a 404 saying so.

mod address_transfers;
mod all_chains;
mod balances;
mod blocks;
mod collections;
mod context;
mod contracts;
mod history;
mod holdings;
mod internals;
mod latest;
mod prices;
mod reindex;
mod render;
mod transaction;
mod transfers;

use std::sync::Arc;

use snowline_chain_evm::metadata::MetadataQueue;
use snowline_chain_evm::pages::EvmPages;
use snowline_chain_icm::IcmPages;
use snowline_chain_registry::ChainRegistry;
use snowline_query::{SealedPageTokens, TokenSecret};
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};

pub use context::{EvmApi, TokenReputations};
pub use prices::{NoPrices, PriceSource};
pub(crate) use render::erc20_token;

type Handler = fn(&EvmApi, &Request) -> Result<Reply, ApiError>;

/// Adds the EVM endpoints over `pages`, for the chains of `registry`, pricing with `prices`;
/// page tokens are authenticated with `secret`; a deployment's `teleporterMessageInfo` comes
/// from `icm` when given; ERC-20 balances carry the ratings of `reputations`; `reindexNft`
/// queues tokens on `metadata`.
#[allow(clippy::too_many_arguments)]
pub fn routes(
    router: Router,
    pages: Arc<EvmPages>,
    registry: ChainRegistry,
    prices: Arc<dyn PriceSource>,
    secret: TokenSecret,
    icm: Option<IcmPages>,
    reputations: TokenReputations,
    metadata: Arc<MetadataQueue>,
) -> Router {
    let api = Arc::new(EvmApi::new(
        pages,
        registry,
        prices,
        SealedPageTokens::new(secret),
        icm,
        reputations,
        metadata,
    ));
    let endpoints: [(&str, Weight, Handler); 26] = [
        (
            "/v1/chains/{chainId}/addresses/{address}/transactions",
            Weight::MEDIUM,
            history::v1,
        ),
        (
            "/v2/chains/{chainId}/addresses/{address}/transactions",
            Weight::MEDIUM,
            history::v2,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}/transactions:listNative",
            Weight::MEDIUM,
            history::native,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}/transactions:listErc20",
            Weight::MEDIUM,
            address_transfers::erc20,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}/transactions:listErc721",
            Weight::MEDIUM,
            address_transfers::erc721,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}/transactions:listErc1155",
            Weight::MEDIUM,
            address_transfers::erc1155,
        ),
        (
            "/v1/chains/{chainId}/transactions/{txHash}",
            Weight::MEDIUM,
            transaction::handle,
        ),
        (
            "/v1/chains/{chainId}/blocks/{blockId}/transactions",
            Weight::MEDIUM,
            latest::block_txs,
        ),
        (
            "/v1/chains/{chainId}/transactions",
            Weight::MEDIUM,
            latest::txs,
        ),
        ("/v1/chains/{chainId}/blocks", Weight::SMALL, latest::blocks),
        ("/v1/transactions", Weight::MEDIUM, all_chains::txs),
        ("/v1/blocks", Weight::MEDIUM, all_chains::blocks),
        (
            "/v1/address/{address}/chains",
            Weight::MEDIUM,
            all_chains::address_chains,
        ),
        (
            "/v1/chains/{chainId}/blocks/{blockId}",
            Weight::SMALL,
            blocks::handle,
        ),
        (
            "/v1/chains/{chainId}/tokens/{address}/transfers",
            Weight::MEDIUM,
            transfers::handle,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}/transactions:listInternals",
            Weight::MEDIUM,
            internals::handle,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}/balances:listErc721",
            Weight::MEDIUM,
            balances::erc721,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}/balances:getNative",
            Weight::MEDIUM,
            balances::native,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}/balances:listErc20",
            Weight::MEDIUM,
            holdings::erc20,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}/balances:listErc1155",
            Weight::MEDIUM,
            holdings::erc1155,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}/balances:listCollectibles",
            Weight::MEDIUM,
            holdings::collectibles,
        ),
        (
            "/v1/chains/{chainId}/addresses/{address}",
            Weight::SMALL,
            contracts::metadata,
        ),
        (
            "/v1/chains/{chainId}/nfts/collections/{address}/tokens",
            Weight::MEDIUM,
            collections::list,
        ),
        (
            "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}",
            Weight::SMALL,
            collections::details,
        ),
        (
            "/v1/chains/{chainId}/contracts/{address}/deployments",
            Weight::MEDIUM,
            contracts::deployments,
        ),
        (
            "/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment",
            Weight::MEDIUM,
            contracts::deployment,
        ),
    ];
    let router = endpoints
        .into_iter()
        .fold(router, |router, (template, weight, f)| {
            let api = Arc::clone(&api);
            router.get_blocking(template, weight, move |req| f(&api, req))
        });
    router.post_blocking(
        "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex",
        Weight::SMALL,
        move |req| reindex::handle(&api, req),
    )
}
