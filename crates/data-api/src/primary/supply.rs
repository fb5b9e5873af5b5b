//! `GET /v1/avax/supply` (`getAvaxSupply`): the AVAX supply of the network this instance
//! indexes, from the P-Chain's and the X-Chain's indexes at their tips (`docs/pchain-history.md`,
//! "AVAX supply", says how each figure is derived and which are exact).

use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::supply::{AvaxSupplyResponse, avax_decimal};
use snowline_types::time::civil_from_days;

use super::PrimaryApi;

/// The supply figures now.
pub(crate) fn handle(api: &PrimaryApi, _req: &Request) -> Result<Reply, ApiError> {
    let p = api
        .p
        .pages
        .supply()
        .map_err(crate::pchain::page_error)?
        .ok_or_else(|| {
            ApiError::not_found("the P-Chain genesis is not indexed by this instance yet")
        })?;
    let x_burned = api
        .x
        .pages
        .summary()
        .map_err(crate::xchain::page_error)?
        .burned;
    let p_burned = u128::from(p.p_burned) + u128::from(p.l1_fees);
    let burned = p_burned + u128::from(x_burned) + u128::from(p.c_burned);
    let total = (u128::from(p.initial_supply) + p.rewards()).saturating_sub(burned);
    Reply::json(&AvaxSupplyResponse {
        circulating_supply: avax_decimal(total.saturating_sub(p.locked)),
        total_supply: avax_decimal(total),
        total_p_burned: avax_decimal(p_burned),
        total_c_burned: avax_decimal(u128::from(p.c_burned)),
        total_x_burned: avax_decimal(u128::from(x_burned)),
        total_staked: avax_decimal(p.staked),
        total_locked: avax_decimal(p.locked),
        total_rewards: avax_decimal(p.rewards()),
        last_updated: rfc3339(p.chain_time),
        genesis_unlock: avax_decimal(u128::from(p.initial_supply)),
        l1_validator_fees: avax_decimal(u128::from(p.l1_fees)),
    })
}

/// Unix seconds as RFC 3339 in UTC with milliseconds (`2025-11-05T20:15:15.000Z`).
fn rfc3339(t: u64) -> String {
    let days = i64::try_from(t / 86_400).unwrap_or(i64::MAX);
    let (y, m, d) = civil_from_days(days);
    let s = t % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.000Z",
        s / 3_600,
        s % 3_600 / 60,
        s % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_rfc3339_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        // 2025-11-05T20:15:15Z, the OpenAPI's example of `lastUpdated`.
        assert_eq!(rfc3339(1_762_373_715), "2025-11-05T20:15:15.000Z");
    }
}
