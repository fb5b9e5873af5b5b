//! `GET /v1/networks/{network}/rewards` (rewards paid) and `.../rewards:listPending` (stakes
//! still running), of a set of reward addresses and/or nodes; with both, a reward matches both.

use snowline_chain_p::pages::{HistoricalReward as Paid, PendingReward as Running, RewardQuery};
use snowline_query::params::served_network;
use snowline_query::params::{AddressList, Currency, SortOrder, node_ids, page_size};
use snowline_query::{Digest, FilterDigest, ParamError};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Chain;
use snowline_types::rest::{
    AssetWithPriceInfo, HistoricalReward, ListHistoricalRewardsResponse,
    ListPendingRewardsResponse, PendingReward,
};

use super::context::{PChainApi, page_error};
use crate::params::{bad, page_token};

/// `GET /v1/networks/{network}/rewards`.
pub(crate) fn historical(api: &PChainApi, req: &Request) -> Result<Reply, ApiError> {
    let (q, digest) = parse(api, req, "rewards")?;
    // No price source: `historicalPrice` is omitted, whatever the currency.
    Currency::parse_or(req.query("currency"), Currency::Usd).map_err(bad)?;
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .historical_rewards(&q, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListHistoricalRewardsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        historical_rewards: page.rewards.iter().map(|r| paid(api, r)).collect(),
    })
}

/// `GET /v1/networks/{network}/rewards:listPending`.
pub(crate) fn pending(api: &PChainApi, req: &Request) -> Result<Reply, ApiError> {
    let (q, digest) = parse(api, req, "rewards:listPending")?;
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .pending_rewards(&q, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListPendingRewardsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        pending_rewards: page
            .rewards
            .iter()
            .map(|r| running(api, r, page.chain_time))
            .collect(),
    })
}

/// The rules both listings share: `network`, one of `addresses` / `nodeIds`, paging,
/// `sortOrder` (newest first by default).
fn parse(api: &PChainApi, req: &Request, what: &str) -> Result<(RewardQuery, Digest), ApiError> {
    served_network(req.required_param("network")?, api.network)?;
    let raw_addresses = req.query("addresses");
    let raw_nodes = req.query("nodeIds");
    if raw_addresses.is_none() && raw_nodes.is_none() {
        return Err(bad(ParamError::new(
            "addresses",
            "one of addresses or nodeIds is required",
        )));
    }
    let addresses = raw_addresses
        .map(|raw| AddressList::parse(raw, api.network.hrp, &[Chain::P]))
        .transpose()
        .map_err(bad)?;
    let mut nodes = raw_nodes
        .map(|raw| node_ids("nodeIds", raw))
        .transpose()
        .map_err(bad)?
        .unwrap_or_default();
    nodes.sort_unstable();
    nodes.dedup();
    let q = RewardQuery {
        addresses: addresses
            .as_ref()
            .map(|a| a.ids.clone())
            .unwrap_or_default(),
        nodes,
        page_size: page_size(req.query("pageSize"), 100).map_err(bad)? as usize,
        sort: SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?,
    };
    let digest = FilterDigest::new(what)
        .field("network", api.network.name)
        .field(
            "addresses",
            &addresses.map(|a| a.strings.join(",")).unwrap_or_default(),
        )
        .field(
            "nodeIds",
            &q.nodes
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(","),
        )
        .field("sortOrder", q.sort.as_str())
        .finish();
    Ok((q, digest))
}

fn paid(api: &PChainApi, r: &Paid) -> HistoricalReward {
    let u = &r.utxo;
    HistoricalReward {
        addresses: api.addresses(&u.utxo.output.owners().addrs),
        tx_hash: r.staker_id.to_string(),
        amount_staked: r.staker.weight.to_string(),
        node_id: r.staker.node_id.to_string(),
        start_timestamp: r.staker.start,
        end_timestamp: r.staker.end,
        reward_type: u.row.origin.reward_type().unwrap_or("VALIDATOR").to_owned(),
        utxo_id: u.id.to_string(),
        output_index: u64::from(u.utxo.utxo_id.output_index),
        reward: AssetWithPriceInfo {
            asset: api.asset_amount(&u.utxo.asset_id, u128::from(u.row.amount)),
            historical_price: None,
        },
        reward_tx_hash: u.row.created.tx_id.to_string(),
    }
}

fn running(api: &PChainApi, r: &Running, chain_time: u64) -> PendingReward {
    let s = &r.staker;
    PendingReward {
        addresses: api.addresses(&s.reward_owners),
        tx_hash: r.staker_id.to_string(),
        amount_staked: s.weight.to_string(),
        node_id: s.node_id.to_string(),
        start_timestamp: s.start,
        end_timestamp: s.end,
        reward_type: s.kind.reward_type().to_owned(),
        progress: progress(s.start, s.end, chain_time),
        estimated_reward: api.avax(s.potential_reward),
    }
}

/// Percent of `[start, end)` elapsed at `now`, clamped to 0..=100.
fn progress(start: u64, end: u64, now: u64) -> f64 {
    if end <= start {
        return 100.0;
    }
    let done = now.clamp(start, end) - start;
    (done as f64 / (end - start) as f64) * 100.0
}

#[cfg(test)]
mod tests {
    use super::progress;

    #[test]
    fn progress_is_the_elapsed_percent_clamped() {
        assert_eq!(progress(100, 200, 50), 0.0);
        assert_eq!(progress(100, 200, 100), 0.0);
        assert_eq!(progress(100, 200, 125), 25.0);
        assert_eq!(progress(100, 200, 200), 100.0);
        assert_eq!(progress(100, 200, 10_000), 100.0);
        assert_eq!(progress(100, 100, 0), 100.0);
    }
}
