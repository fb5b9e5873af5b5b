//! `GET /v1/networks/{network}/blockchains/{blockchainId}/balances` for the P-Chain: the
//! `ListPChainBalancesResponse` of the given addresses, now or as of `blockTimestamp`.

use snowline_chain_p::pages::{AssetTotal, Bucket, PBalances};
use snowline_chain_p::rows::Holding;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::{
    AggregatedAssetAmount, ListPChainBalancesResponse, PChainBalances, PChainSharedAsset,
    PrimaryChainInfo,
};
use snowline_types::{Chain, Id};

use super::context::{PChainApi, page_error};
use crate::address_params::BalanceParams;

pub(crate) fn handle(
    api: &PChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let params = BalanceParams::parse(req, api.network, Chain::P)?;
    let balances = api
        .pages
        .balances(&params.addresses.ids, params.at, req.now_secs())
        .map_err(page_error)?;
    Reply::json(&ListPChainBalancesResponse {
        balances: record(api, &balances),
        chain_info,
    })
}

/// `PChainBalance` of the sums.
fn record(api: &PChainApi, b: &PBalances) -> PChainBalances {
    let plain = |bucket: Bucket| {
        b.of(bucket)
            .map(|(asset, t)| AggregatedAssetAmount {
                asset: api.asset_amount(asset, t.amount),
                utxo_count: t.utxo_count,
            })
            .collect()
    };
    let shared = |locked: bool| {
        b.atomic(locked)
            .map(
                |(chain, holding, asset, t): (Id, Holding, Id, AssetTotal)| PChainSharedAsset {
                    asset: api.asset_amount(&asset, t.amount),
                    utxo_count: t.utxo_count,
                    shared_with_chain_id: chain.to_string(),
                    status: status(holding).into(),
                },
            )
            .collect()
    };
    PChainBalances {
        unlocked_unstaked: plain(Bucket::UnlockedUnstaked),
        unlocked_staked: plain(Bucket::UnlockedStaked),
        locked_platform: plain(Bucket::LockedPlatform),
        locked_stakeable: plain(Bucket::LockedStakeable),
        locked_staked: plain(Bucket::LockedStaked),
        pending_staked: plain(Bucket::PendingStaked),
        atomic_memory_unlocked: shared(false),
        atomic_memory_locked: shared(true),
    }
}

/// The `status` of an atomic-memory balance: `exported` when the P-Chain exported it (the other
/// chain imports it), `importable` when it was exported to the P-Chain (a P `ImportTx` takes it).
fn status(holding: Holding) -> &'static str {
    match holding {
        Holding::ExportedFromP => "exported",
        Holding::ExportedToP | Holding::Native => "importable",
    }
}
