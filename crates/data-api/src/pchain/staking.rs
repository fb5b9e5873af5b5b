//! `GET /v1/networks/{network}/validators`, `.../validators/{nodeId}`, `.../delegators` and
//! `GET /v1/networks/{network}` (the network's staking totals), read through `chain-p`'s staking
//! pages at the index's chain time.
//!
//! Uptime is not in the chain's data: an active validator's `uptimePerformance` and
//! `validatorHealth` are what the followed node's `platform.getCurrentValidators` last said
//! (`chain_p::record_uptimes`); `reachabilityPercent` is 100 when the node was connected to the
//! validator, 0 when not, and the benched percentages are 0 (the node's validator API does not
//! report benching). Without such a source (an imported index, a node that gives no uptimes)
//! the two fields are omitted and the uptime filters and sort are refused with a 400 that says
//! so. The AvalancheGo version is omitted, `geolocation` is `null` (the spec's "not
//! available") and the version distribution is empty.

use snowline_chain_p::pages::{
    DelegatorEntry, DelegatorQuery, StakerStatus, ValidatorEntry, ValidatorQuery, ValidatorSort,
    bls_signer, delegation_fee,
};
use snowline_query::params::{
    AddressList, SortOrder, node_id, node_ids, page_size, served_network,
};
use snowline_query::{Digest, FilterDigest, ParamError};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::formatting::encode_hex_plain;
use snowline_types::rest::BlsCredentials;
use snowline_types::rest::staking::{
    DelegatorDetails, DelegatorsDetails, GetNetworkDetailsResponse, ListDelegatorDetailsResponse,
    ListValidatorDetailsResponse, Rewards, ValidatorDetails, ValidatorHealthDetails,
    ValidatorsDetails,
};
use snowline_types::{Chain, Id};

use super::context::{PChainApi, page_error};
use crate::params::{bad, page_token};

/// Why the uptime filters and sort are refused when no uptimes are known.
const NO_UPTIME: &str = "uptime is not in the chain's data and the node this index follows \
                         gives none (platform.getCurrentValidators)";

/// Refuses `param` when the index knows no uptimes.
fn need_uptimes(api: &PChainApi, param: &str) -> Result<(), ApiError> {
    match api.pages.uptimes_at().map_err(page_error)? {
        Some(_) => Ok(()),
        None => Err(bad(ParamError::new(param, NO_UPTIME))),
    }
}

/// `GET /v1/networks/{network}/validators`.
pub(crate) fn validators(api: &PChainApi, req: &Request) -> Result<Reply, ApiError> {
    served_network(req.required_param("network")?, api.network)?;
    for p in ["minUptimePerformance", "maxUptimePerformance"] {
        if req.query(p).is_some() {
            need_uptimes(api, p)?;
        }
    }
    let sort_by = match req.query("sortBy") {
        None | Some("blockIndex") => ValidatorSort::BlockIndex,
        Some("delegationCapacity") => ValidatorSort::DelegationCapacity,
        Some("timeRemaining") => ValidatorSort::TimeRemaining,
        Some("delegationFee") => ValidatorSort::DelegationFee,
        Some("uptimePerformance") => {
            need_uptimes(api, "sortBy")?;
            ValidatorSort::UptimePerformance
        }
        Some(raw) => {
            return Err(bad(ParamError::invalid(
                "sortBy",
                "must be one of blockIndex, delegationCapacity, timeRemaining, delegationFee, \
                 uptimePerformance",
                raw,
            )));
        }
    };
    let node_substrings = match req.query("nodeIds") {
        None => Vec::new(),
        Some(raw) => substrings(raw)?,
    };
    let capacity = (
        nano_bound(req, "minDelegationCapacity")?,
        nano_bound(req, "maxDelegationCapacity")?,
    );
    let time_remaining = (
        number_bound(req, "minTimeRemaining", (0.0, 2_147_483_647.0), 1.0, true)?,
        number_bound(req, "maxTimeRemaining", (0.0, 2_147_483_647.0), 1.0, false)?,
    );
    // Percent to millionths.
    let fee = (
        number_bound(req, "minFeePercentage", (2.0, 100.0), 10_000.0, true)?,
        number_bound(req, "maxFeePercentage", (2.0, 100.0), 10_000.0, false)?,
    );
    // Percent to ten-thousandths.
    let uptime = (
        number_bound(req, "minUptimePerformance", (0.0, 100.0), 10_000.0, true)?,
        number_bound(req, "maxUptimePerformance", (0.0, 100.0), 10_000.0, false)?,
    );
    let q = ValidatorQuery {
        status: validation_status(req.query("validationStatus"), true)?,
        subnet: req
            .query("subnetId")
            .map(|raw| snowline_query::params::cb58_id("subnetId", raw))
            .transpose()
            .map_err(bad)?,
        node_substrings,
        node: None,
        capacity,
        time_remaining,
        fee,
        uptime,
        sort_by,
        sort: SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?,
        page_size: page_size(req.query("pageSize"), 100).map_err(bad)? as usize,
    };
    let bound = |b: Option<u64>| b.map(|v| v.to_string()).unwrap_or_default();
    let digest = FilterDigest::new("validators")
        .field("network", api.network.name)
        .field(
            "validationStatus",
            q.status.map(StakerStatus::name).unwrap_or_default(),
        )
        .field(
            "subnetId",
            &q.subnet.map(|s| s.to_string()).unwrap_or_default(),
        )
        .field("nodeIds", &q.node_substrings.join(","))
        .field("sortBy", req.query("sortBy").unwrap_or("blockIndex"))
        .field("sortOrder", q.sort.as_str())
        .field("minDelegationCapacity", &bound(q.capacity.0))
        .field("maxDelegationCapacity", &bound(q.capacity.1))
        .field("minTimeRemaining", &bound(q.time_remaining.0))
        .field("maxTimeRemaining", &bound(q.time_remaining.1))
        .field("minFeePercentage", &bound(q.fee.0))
        .field("maxFeePercentage", &bound(q.fee.1))
        .field("minUptimePerformance", &bound(q.uptime.0))
        .field("maxUptimePerformance", &bound(q.uptime.1))
        .finish();
    validator_page(api, req, &q, &digest)
}

/// `GET /v1/networks/{network}/validators/{nodeId}`: the node's validations, by start.
pub(crate) fn single_validator(api: &PChainApi, req: &Request) -> Result<Reply, ApiError> {
    served_network(req.required_param("network")?, api.network)?;
    let node = node_id("nodeId", req.required_param("nodeId")?).map_err(bad)?;
    let q = ValidatorQuery {
        status: validation_status(req.query("validationStatus"), true)?,
        subnet: None,
        node_substrings: Vec::new(),
        node: Some(node),
        capacity: (None, None),
        time_remaining: (None, None),
        fee: (None, None),
        uptime: (None, None),
        sort_by: ValidatorSort::BlockIndex,
        sort: SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?,
        page_size: page_size(req.query("pageSize"), 100).map_err(bad)? as usize,
    };
    let digest = FilterDigest::new("validators/{nodeId}")
        .field("network", api.network.name)
        .field("nodeId", &node.to_string())
        .field(
            "validationStatus",
            q.status.map(StakerStatus::name).unwrap_or_default(),
        )
        .field("sortOrder", q.sort.as_str())
        .finish();
    validator_page(api, req, &q, &digest)
}

fn validator_page(
    api: &PChainApi,
    req: &Request,
    q: &ValidatorQuery,
    digest: &Digest,
) -> Result<Reply, ApiError> {
    let from = page_token(&api.tokens, req, digest)?;
    let page = api
        .pages
        .validators(q, from.as_deref())
        .map_err(page_error)?;
    let validators = page
        .validators
        .iter()
        .map(|e| validator_record(api, e))
        .collect::<Result<_, _>>()?;
    Reply::json(&ListValidatorDetailsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(digest, &p, None)),
        validators,
    })
}

/// `GET /v1/networks/{network}/delegators`.
pub(crate) fn delegators(api: &PChainApi, req: &Request) -> Result<Reply, ApiError> {
    served_network(req.required_param("network")?, api.network)?;
    let addresses = req
        .query("rewardAddresses")
        .map(|raw| AddressList::parse(raw, api.network.hrp, &[Chain::P]))
        .transpose()
        .map_err(|e| bad(ParamError::new("rewardAddresses", e.message)))?;
    let mut nodes = req
        .query("nodeIds")
        .map(|raw| node_ids("nodeIds", raw))
        .transpose()
        .map_err(bad)?
        .unwrap_or_default();
    nodes.sort_unstable();
    nodes.dedup();
    let mut reward_addresses = addresses.map(|a| a.ids).unwrap_or_default();
    reward_addresses.sort_unstable();
    reward_addresses.dedup();
    let q = DelegatorQuery {
        status: validation_status(req.query("delegationStatus"), false)?,
        reward_addresses,
        nodes,
        sort: SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?,
        page_size: page_size(req.query("pageSize"), 100).map_err(bad)? as usize,
    };
    let join = |v: Vec<String>| v.join(",");
    let digest = FilterDigest::new("delegators")
        .field("network", api.network.name)
        .field(
            "delegationStatus",
            q.status.map(StakerStatus::name).unwrap_or_default(),
        )
        .field("rewardAddresses", &join(api.addresses(&q.reward_addresses)))
        .field(
            "nodeIds",
            &join(q.nodes.iter().map(ToString::to_string).collect()),
        )
        .field("sortOrder", q.sort.as_str())
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .delegators(&q, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListDelegatorDetailsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        delegators: page
            .delegators
            .iter()
            .map(|e| delegator_record(api, e))
            .collect(),
    })
}

/// `GET /v1/networks/{network}`: the primary network's active validators and delegators.
pub(crate) fn network_details(api: &PChainApi, req: &Request) -> Result<Reply, ApiError> {
    served_network(req.required_param("network")?, api.network)?;
    let s = api.pages.network_staking().map_err(page_error)?;
    let f = s.figures;
    let active = f.validator_weight.saturating_add(f.delegator_weight);
    Reply::json(&GetNetworkDetailsResponse {
        validator_details: ValidatorsDetails {
            validator_count: f.validator_count,
            total_amount_staked: f.validator_weight.to_string(),
            estimated_annual_staking_reward: s.potential_rewards.to_string(),
            staking_distribution_by_version: Vec::new(),
            staking_ratio: ratio(active, u128::from(s.current_supply)),
        },
        delegator_details: DelegatorsDetails {
            delegator_count: f.delegator_count,
            total_amount_staked: f.delegator_weight.to_string(),
        },
    })
}

/// `a / b` in decimal with nine decimals, truncated (`0` when `b` is 0).
pub(crate) fn ratio(a: u128, b: u128) -> String {
    if b == 0 {
        return "0".into();
    }
    let scaled = a.saturating_mul(1_000_000_000) / b;
    format!("{}.{:09}", scaled / 1_000_000_000, scaled % 1_000_000_000)
}

/// A fee in millionths as the percent the Data API shows, with four decimals (`20000` is
/// `"2.0000"`).
pub(crate) fn fee_percent(shares: u32) -> String {
    format!("{}.{:04}", shares / 10_000, shares % 10_000)
}

fn validator_record(api: &PChainApi, e: &ValidatorEntry) -> Result<ValidatorDetails, ApiError> {
    let r = &e.row;
    let bls = bls_signer(r).map_err(page_error)?.map(|p| BlsCredentials {
        public_key: encode_hex_plain(&p.public_key),
        proof_of_possession: encode_hex_plain(&p.proof_of_possession),
    });
    let rewards = |reward_tx: Option<Id>| Rewards {
        validation_reward_amount: match (&r.settled, e.status) {
            (Some(s), _) if !s.rewarded => "0".into(),
            _ => r.potential_reward.to_string(),
        },
        delegation_reward_amount: e.delegation_fees.to_string(),
        reward_addresses: (!r.reward_owners.is_empty()).then(|| api.addresses(&r.reward_owners)),
        reward_tx_hash: reward_tx.map(|t| t.to_string()),
    };
    let mut out = ValidatorDetails {
        tx_hash: e.staker_id.to_string(),
        node_id: r.node_id.to_string(),
        subnet_id: r.subnet_id.to_string(),
        amount_staked: r.weight.to_string(),
        delegation_fee: delegation_fee(r).map(fee_percent),
        start_timestamp: r.start,
        end_timestamp: r.end,
        bls_credentials: bls,
        stake_percentage: None,
        delegator_count: None,
        amount_delegated: None,
        delegation_capacity: None,
        uptime_performance: None,
        validator_health: None,
        potential_rewards: None,
        geolocation: None,
        rewards: None,
        remove_tx_hash: None,
        remove_timestamp: None,
        validation_status: e.status.name().into(),
    };
    match e.status {
        StakerStatus::Pending => {}
        StakerStatus::Active => {
            out.stake_percentage = Some(if e.subnet_active_stake == 0 {
                0.0
            } else {
                r.weight as f64 * 100.0 / e.subnet_active_stake as f64
            });
            out.delegator_count = Some(e.delegator_count);
            out.amount_delegated = Some(e.delegated.to_string());
            out.delegation_capacity = e.capacity.map(|c| c.to_string());
            out.potential_rewards = Some(rewards(None));
            out.geolocation = Some(None);
            if let Some(u) = e.uptime {
                out.uptime_performance = Some(f64::from(u.uptime) / 10_000.0);
                out.validator_health = Some(ValidatorHealthDetails {
                    reachability_percent: if u.connected { 100.0 } else { 0.0 },
                    benched_p_chain_requests_percent: 0.0,
                    benched_x_chain_requests_percent: 0.0,
                    benched_c_chain_requests_percent: 0.0,
                });
            }
        }
        StakerStatus::Completed => {
            out.delegator_count = Some(e.delegator_count);
            out.amount_delegated = Some(e.delegated.to_string());
            out.rewards = Some(rewards(r.settled.as_ref().map(|s| s.event.tx_id)));
        }
        StakerStatus::Removed => {
            if let Some(s) = &r.settled {
                out.remove_tx_hash = Some(s.event.tx_id.to_string());
                out.remove_timestamp = Some(s.event.timestamp);
            }
        }
    }
    Ok(out)
}

fn delegator_record(api: &PChainApi, e: &DelegatorEntry) -> DelegatorDetails {
    let r = &e.row;
    let (_, net) = e.reward_split();
    let gross = r.potential_reward;
    let mut out = DelegatorDetails {
        tx_hash: e.staker_id.to_string(),
        node_id: r.node_id.to_string(),
        reward_addresses: api.addresses(&r.reward_owners),
        amount_delegated: r.weight.to_string(),
        delegation_fee: fee_percent(e.fee_shares),
        start_timestamp: r.start,
        end_timestamp: r.end,
        estimated_gross_reward: None,
        estimated_net_reward: None,
        gross_reward: None,
        net_reward: None,
        delegation_status: e.status.name().into(),
    };
    if e.status.current() {
        out.estimated_gross_reward = Some(gross.to_string());
        out.estimated_net_reward = Some(net.to_string());
    } else {
        let rewarded = r.settled.as_ref().is_some_and(|s| s.rewarded);
        let (gross, net) = if rewarded { (gross, net) } else { (0, 0) };
        out.gross_reward = Some(gross.to_string());
        out.net_reward = Some(net.to_string());
    }
    out
}

/// `validationStatus` (`delegationStatus` when `!validators`, which has no `removed`).
fn validation_status(
    raw: Option<&str>,
    validators: bool,
) -> Result<Option<StakerStatus>, ApiError> {
    let (param, allowed) = if validators {
        (
            "validationStatus",
            "must be one of completed, active, pending, removed",
        )
    } else {
        (
            "delegationStatus",
            "must be one of completed, active, pending",
        )
    };
    raw.map(|raw| match raw {
        "completed" => Ok(StakerStatus::Completed),
        "active" => Ok(StakerStatus::Active),
        "pending" => Ok(StakerStatus::Pending),
        "removed" if validators => Ok(StakerStatus::Removed),
        _ => Err(bad(ParamError::invalid(param, allowed, raw))),
    })
    .transpose()
}

/// The `nodeIds` substrings: comma-separated, none empty.
fn substrings(raw: &str) -> Result<Vec<String>, ApiError> {
    let parts: Vec<String> = raw.split(',').map(|s| s.trim().to_owned()).collect();
    if parts.iter().any(String::is_empty) || parts.len() > 100 {
        return Err(bad(ParamError::invalid(
            "nodeIds",
            "must be 1 to 100 comma-separated node ids or parts of them",
            raw,
        )));
    }
    Ok(parts)
}

/// A nAVAX bound given as decimal digits, 0 to 720,000,000,000,000,000.
fn nano_bound(req: &Request, param: &str) -> Result<Option<u64>, ApiError> {
    req.query(param)
        .map(|raw| {
            raw.parse::<u64>()
                .ok()
                .filter(|v| *v <= 720_000_000_000_000_000)
                .ok_or_else(|| {
                    bad(ParamError::invalid(
                        param,
                        "must be an integer from 0 to 720000000000000000",
                        raw,
                    ))
                })
        })
        .transpose()
}

/// A number bound within `range`, scaled by `scale` to an integer: a minimum rounds up, a
/// maximum down, so the integer bound keeps exactly the values the number does.
fn number_bound(
    req: &Request,
    param: &str,
    range: (f64, f64),
    scale: f64,
    minimum: bool,
) -> Result<Option<u64>, ApiError> {
    req.query(param)
        .map(|raw| {
            let v = raw
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= range.0 && *v <= range.1)
                .ok_or_else(|| {
                    bad(ParamError::invalid(
                        param,
                        format!("must be a number from {} to {}", range.0, range.1),
                        raw,
                    ))
                })?;
            let scaled = v * scale;
            // A decimal like 3.1415 times 10,000 lands a hair off the integer it names.
            let nearest = scaled.round();
            let rounded = if (scaled - nearest).abs() < 1e-6 {
                nearest
            } else if minimum {
                scaled.ceil()
            } else {
                scaled.floor()
            };
            Ok(rounded as u64)
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fees_are_percent_with_four_decimals() {
        assert_eq!(fee_percent(20_000), "2.0000");
        assert_eq!(fee_percent(1_000_000), "100.0000");
        assert_eq!(fee_percent(123_456), "12.3456");
    }

    #[test]
    fn ratios_truncate_to_nine_decimals() {
        assert_eq!(ratio(1, 3), "0.333333333");
        assert_eq!(ratio(2, 1), "2.000000000");
        assert_eq!(ratio(5, 0), "0");
    }
}
