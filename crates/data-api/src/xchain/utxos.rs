//! `GET /v1/networks/{network}/blockchains/{blockchainId}/utxos` for the X-Chain: the UTXOs of a
//! set of addresses, one keyset-paged merge of each address's order (by creation time or amount,
//! then UTXO id), a UTXO owned by several of them listed once. Listed are the UTXOs spendable on
//! the X-Chain: its own, and those other chains exported to it (`createdOnChainId` names the
//! source), as `avm.getUTXOs` lists them without and with `sourceChain`.

use snowline_chain_x::history::{UtxoOrder, UtxoQuery};
use snowline_query::FilterDigest;
use snowline_query::params::{AddressList, SortOrder, UtxoSortBy, boolean_or, page_size, required};
use snowline_rest::{ApiError, Reply, Request};
use snowline_types::rest::ListUtxosResponse;
use snowline_types::{Chain, Id};

use super::context::{XChainApi, page_error};
use crate::params::{bad, page_token, param_error};

/// The chains the UTXO endpoint names (P, X, C; only X is indexed here).
const ALLOWED: [Chain; 3] = [Chain::P, Chain::X, Chain::C];

pub(crate) fn handle(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    let target = api.x_target(req, &ALLOWED)?;
    let (addresses, q) = parse(api, req)?;
    let digest = FilterDigest::new("x-chain/utxos")
        .field("network", api.network.name)
        .field("addresses", &addresses.strings.join(","))
        .optional("assetId", q.asset.map(|a| a.to_string()).as_deref())
        .field("minUtxoAmount", &q.min_amount.to_string())
        .field(
            "includeSpent",
            if q.include_spent { "true" } else { "false" },
        )
        .field("sortBy", sort_by_name(q.order))
        .field("sortOrder", q.sort.as_str())
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api.pages.utxos(&q, from.as_deref()).map_err(page_error)?;
    let utxos = page
        .utxos
        .iter()
        .map(|u| api.utxo_record(u, &page.assets))
        .collect();
    let next_page_token = page
        .next
        .map(|position| api.tokens.encode(&digest, &position, None));
    Reply::json(&ListUtxosResponse {
        next_page_token,
        utxos,
        chain_info: target.chain_info(),
    })
}

/// The addresses as sent (for the token's digest) and the query they make.
fn parse(api: &XChainApi, req: &Request) -> Result<(AddressList, UtxoQuery), ApiError> {
    let raw = required("addresses", req.query("addresses")).map_err(bad)?;
    let addresses = AddressList::parse(raw, api.network.hrp, &[Chain::X]).map_err(bad)?;
    let asset = match req.query("assetId") {
        Some(raw) => Some(
            raw.parse::<Id>()
                .map_err(|_| param_error("assetId", "must be an asset id (cb58)", raw))?,
        ),
        None => None,
    };
    let order =
        match UtxoSortBy::parse_or(req.query("sortBy"), UtxoSortBy::Timestamp).map_err(bad)? {
            UtxoSortBy::Timestamp => UtxoOrder::Timestamp,
            UtxoSortBy::Amount => UtxoOrder::Amount,
        };
    let q = UtxoQuery {
        addresses: addresses.ids.clone(),
        page_size: page_size(req.query("pageSize"), 100).map_err(bad)? as usize,
        asset,
        min_amount: min_utxo_amount(req.query("minUtxoAmount"))?,
        include_spent: boolean_or("includeSpent", req.query("includeSpent"), false).map_err(bad)?,
        order,
        // The real service lists newest (or largest) first unless told otherwise.
        sort: SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?,
    };
    Ok((addresses, q))
}

/// `minUtxoAmount`, the inclusive floor of the amounts listed (default 0). The spec and the
/// OpenAPI type it as a number >= 0 (the SDK sends whatever number it is given), so a fraction or
/// an exponent (`1.5`, `1e3`) is accepted: amounts are whole nano-units, so the floor is the value
/// rounded up; a value beyond every amount saturates at `u64::MAX`. Anything else is a 400.
fn min_utxo_amount(raw: Option<&str>) -> Result<u64, ApiError> {
    let Some(raw) = raw else {
        return Ok(0);
    };
    if let Ok(whole) = raw.parse::<u64>() {
        return Ok(whole);
    }
    match raw.parse::<f64>() {
        // `as` saturates: a value above u64::MAX becomes u64::MAX.
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x.ceil() as u64),
        _ => Err(param_error(
            "minUtxoAmount",
            "must be a number >= 0 (nano-units)",
            raw,
        )),
    }
}

fn sort_by_name(order: UtxoOrder) -> &'static str {
    match order {
        UtxoOrder::Timestamp => "timestamp",
        UtxoOrder::Amount => "amount",
    }
}

#[cfg(test)]
mod tests {
    use super::min_utxo_amount;

    #[test]
    fn min_utxo_amount_takes_any_number_at_least_zero() {
        // Regression: `1.5` and `1e3` are numbers as the OpenAPI types the parameter, and were
        // refused with 400 ("must be an integer").
        let cases: [(Option<&str>, u64); 9] = [
            (None, 0),
            (Some("0"), 0),
            (Some("-0"), 0),
            (Some("1000"), 1000),
            (Some("1.5"), 2),
            (Some("0.0001"), 1),
            (Some("1e3"), 1000),
            (Some("18446744073709551615"), u64::MAX),
            (Some("1e30"), u64::MAX),
        ];
        for (raw, want) in cases {
            assert_eq!(min_utxo_amount(raw).ok(), Some(want), "{raw:?}");
        }
        // Whole numbers are exact, also beyond f64's 53-bit precision.
        for n in (0..64).map(|shift| (1u64 << shift) + 1) {
            assert_eq!(min_utxo_amount(Some(&n.to_string())).ok(), Some(n), "{n}");
        }
    }

    #[test]
    fn min_utxo_amount_refuses_what_is_not_a_number_at_least_zero() {
        for raw in ["-1", "-0.5", "abc", "", "NaN", "inf", "1,5", "0x10"] {
            let err = min_utxo_amount(Some(raw)).err();
            assert_eq!(
                err.as_ref().map(|e| e.status.as_u16()),
                Some(400),
                "{raw:?}"
            );
            let message = err.map(|e| e.message).unwrap_or_default();
            assert!(
                message.contains("minUtxoAmount") && message.contains(&format!("{raw:?}")),
                "{raw:?}: {message}"
            );
        }
    }
}
