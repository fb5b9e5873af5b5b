//! `GET /v2/subnets/{subnetId}/validators:getAddresses` (`getValidatorsByDateRange`): the
//! validators of a subnet whose validation period meets `[startTimestamp, endTimestamp]`, each as
//! its validation rewards owner's addresses and its staker tx's block time (`sortKey`), read
//! through `chain-p`'s [`PChainPages::validators_by_date_range`]. Page tokens are the series'
//! UUIDs; the position's tx id rides in the query key the token remembers (the token store keeps
//! one integer position).
//!
//! [`PChainPages::validators_by_date_range`]: snowline_chain_p::pages::PChainPages::validators_by_date_range

use serde::Serialize;
use snowline_chain_p::metrics::ValidatorRangeQuery;
use snowline_query::ParamError;
use snowline_query::params::cb58_id;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Id;
use snowline_types::address::format_bech32;

use crate::context::{MetricsApi, subnet_read_failed, token_failed};
use crate::params;

/// `PChainLookingGlassResponse`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LookingGlass {
    addresses: Vec<AddressDetails>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_page_token: Option<String>,
}

/// `PChainAddressDetails`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AddressDetails {
    addresses: Vec<String>,
    sort_key: String,
}

fn bad(e: ParamError) -> ApiError {
    ApiError::bad_request(e.to_string())
}

/// `GET /v2/subnets/{subnetId}/validators:getAddresses`.
pub fn by_date_range(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let subnet = cb58_id("subnetId", req.required_param("subnetId")?).map_err(bad)?;
    let from = params::timestamp(req, "startTimestamp")?.unwrap_or(0);
    let to = params::timestamp(req, "endTimestamp")?.unwrap_or(u64::MAX);
    if from > to {
        return Err(bad(ParamError::new(
            "startTimestamp",
            format!("startTimestamp must not be after endTimestamp ({to})"),
        )));
    }
    let page_size = params::address_page_size(req)?;
    let network = req.query("network");
    let pages = match network {
        Some(raw) => api.staking(raw)?,
        None => api.p_chain()?,
    };
    let hrp = api.staking.as_ref().map_or("", |(_, n)| n.hrp);
    let key = format!(
        "Validators|{}|{subnet}|{from}|{to}|{page_size}|",
        network.unwrap_or("")
    );
    let mut query = ValidatorRangeQuery {
        subnet,
        from,
        to,
        page_size,
        after: None,
    };
    if let Some(token) = req.query("pageToken") {
        let (issued_for, ts) = api.tokens.redeem(token).map_err(token_failed)?;
        let tx = issued_for
            .strip_prefix(&key)
            .and_then(|tx| cb58_id("pageToken", tx).ok())
            .ok_or_else(|| {
                ApiError::bad_request(
                    "Invalid pageToken: it was issued for another query; send the parameters of \
                     the first page with it",
                )
            })?;
        query.after = Some((ts, tx));
    }
    let page = pages
        .validators_by_date_range(&query)
        .map_err(subnet_read_failed)?;
    let next_page_token = page
        .next
        .map(|(ts, tx): (u64, Id)| api.tokens.issue(&format!("{key}{tx}"), ts))
        .transpose()
        .map_err(token_failed)?;
    let addresses = page
        .validators
        .iter()
        .map(|v| {
            let addresses = v
                .reward_owners
                .iter()
                .map(|a| format_bech32(hrp, a))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| ApiError::internal(format!("formatting an address failed: {e}")))?;
            Ok(AddressDetails {
                addresses,
                sort_key: v.accepted.to_string(),
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Reply::json(&LookingGlass {
        addresses,
        next_page_token,
    })
}
