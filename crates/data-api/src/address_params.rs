//! The parameters the balances and UTXO endpoints take on every primary chain: the addresses
//! (with the chain's prefix, or none), `blockTimestamp`, and the UTXO listing's paging, filters
//! and order. Each chain's handler parses them here and maps them to its pages' query.

use serde::Deserialize;
use snowline_chain_p::pages::PUtxoQuery;
use snowline_chain_x::history::{UtxoOrder, UtxoQuery};
use snowline_query::params::{
    AddressList, SortOrder, UtxoSortBy, boolean_or, cb58_id, page_size, required, u64_opt,
};
use snowline_query::{Digest, FilterDigest, SealedPageTokens};
use snowline_rest_api::{ApiError, Request};
use snowline_types::network::NetworkInfo;
use snowline_types::{Chain, Id};

use crate::params::{bad, open_token, param_error};

/// `addresses` as `chain` spells them (`X-…`, `P-…`, `C-…`, or without prefix).
fn addresses(
    raw: Option<&str>,
    network: &NetworkInfo,
    chain: Chain,
) -> Result<AddressList, ApiError> {
    let raw = required("addresses", raw).map_err(bad)?;
    AddressList::parse(raw, network.hrp, &[chain]).map_err(bad)
}

/// What the balances endpoint takes.
pub(crate) struct BalanceParams {
    /// The addresses.
    pub(crate) addresses: AddressList,
    /// `blockTimestamp`: the balances as of this second (now when absent).
    pub(crate) at: Option<u64>,
}

impl BalanceParams {
    /// Parses the request for `chain` on `network`.
    pub(crate) fn parse(
        req: &Request,
        network: &NetworkInfo,
        chain: Chain,
    ) -> Result<Self, ApiError> {
        let [raw, at] = req.query_values(["addresses", "blockTimestamp"]);
        Ok(Self {
            addresses: addresses(raw, network, chain)?,
            at: u64_opt("blockTimestamp", at, 0).map_err(bad)?,
        })
    }
}

/// What the UTXO listing takes.
pub(crate) struct UtxoParams {
    /// The owners.
    pub(crate) addresses: AddressList,
    /// UTXOs per page.
    pub(crate) page_size: usize,
    /// `assetId`: checked on every chain, applied where the chain's handler says (the spec: the
    /// X-Chain only).
    pub(crate) asset: Option<Id>,
    /// `minUtxoAmount`.
    pub(crate) min_amount: u64,
    /// `includeSpent`.
    pub(crate) include_spent: bool,
    /// `sortBy`.
    pub(crate) sort_by: UtxoSortBy,
    /// `sortOrder`: the real service lists newest (or largest) first unless told otherwise.
    pub(crate) sort: SortOrder,
    /// `pageToken`, still sealed: the handler opens it against the listing's digest.
    pub(crate) page_token: Option<String>,
}

/// `PrimaryNetworkAddressesBodyDto`: the addresses of a `POST` (v2) request.
#[derive(Deserialize)]
pub(crate) struct AddressesBody {
    /// Comma-separated addresses.
    pub(crate) addresses: String,
}

impl AddressesBody {
    /// The request's JSON body.
    pub(crate) fn parse(req: &Request) -> Result<Self, ApiError> {
        serde_json::from_slice(req.body()).map_err(|e| {
            ApiError::bad_request(format!(
                "the body must be a JSON object with an `addresses` string: {e}"
            ))
        })
    }
}

/// The UTXO listing's query parameters, read in one pass: `addresses` first, then what
/// [`UtxoParams::with_addresses`] takes, in its order.
const UTXO_QUERY: [&str; 8] = [
    "addresses",
    "pageSize",
    "assetId",
    "minUtxoAmount",
    "includeSpent",
    "sortBy",
    "sortOrder",
    "pageToken",
];

/// `addresses` and the rest of [`UTXO_QUERY`]'s values.
fn split([addresses, rest @ ..]: [Option<&str>; 8]) -> ([Option<&str>; 1], [Option<&str>; 7]) {
    ([addresses], rest)
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

/// `getUtxosByAddressesV2`: the most addresses its body may list (the OpenAPI gives v2 "an
/// increased address limit" without a figure; each address is one more scan merged per page).
pub(crate) const V2_MAX_ADDRESSES: usize = 256;

impl UtxoParams {
    /// Parses the request for `chain` on `network`.
    pub(crate) fn parse(
        req: &Request,
        network: &NetworkInfo,
        chain: Chain,
    ) -> Result<Self, ApiError> {
        let ([raw], rest) = split(req.query_values(UTXO_QUERY));
        Self::with_addresses(rest, addresses(raw, network, chain)?, 100)
    }

    /// Parses a `getUtxosByAddressesV2` request for `chain` on `network`: the addresses from
    /// the body (at most [`V2_MAX_ADDRESSES`]), pages of up to 1024 (the OpenAPI's maximum).
    pub(crate) fn parse_v2(
        req: &Request,
        network: &NetworkInfo,
        chain: Chain,
    ) -> Result<Self, ApiError> {
        let body = AddressesBody::parse(req)?;
        let addresses =
            AddressList::parse_with_max(&body.addresses, network.hrp, &[chain], V2_MAX_ADDRESSES)
                .map_err(bad)?;
        // The addresses come from the body: their query parameter, if any, is not read.
        let (_, rest) = split(req.query_values(UTXO_QUERY));
        Self::with_addresses(rest, addresses, 1024)
    }

    /// The listing's other parameters (`UTXO_QUERY` after `addresses`), for `addresses`, pages
    /// of at most `max_page`.
    fn with_addresses(
        [size, asset, min_amount, spent, sort_by, sort, token]: [Option<&str>; 7],
        addresses: AddressList,
        max_page: u32,
    ) -> Result<Self, ApiError> {
        Ok(Self {
            addresses,
            page_size: page_size(size, max_page).map_err(bad)? as usize,
            asset: asset
                .map(|raw| cb58_id("assetId", raw))
                .transpose()
                .map_err(bad)?,
            min_amount: min_utxo_amount(min_amount)?,
            include_spent: boolean_or("includeSpent", spent, false).map_err(bad)?,
            sort_by: UtxoSortBy::parse_or(sort_by, UtxoSortBy::Timestamp).map_err(bad)?,
            sort: SortOrder::parse_or(sort, SortOrder::Desc).map_err(bad)?,
            page_token: token.map(str::to_owned),
        })
    }

    /// The digest of the listing `listing` on `network` with these filters (the asset among them
    /// when `with_asset`), which its page tokens are bound to.
    pub(crate) fn digest(&self, listing: &str, network: &str, with_asset: bool) -> Digest {
        let digest = FilterDigest::new(listing)
            .field("network", network)
            .field("addresses", &self.addresses.strings.join(","));
        let digest = if with_asset {
            digest.optional("assetId", self.asset.map(|a| a.to_string()).as_deref())
        } else {
            digest
        };
        digest
            .field("minUtxoAmount", &self.min_amount.to_string())
            .field(
                "includeSpent",
                if self.include_spent { "true" } else { "false" },
            )
            .field("sortBy", self.sort_by.as_str())
            .field("sortOrder", self.sort.as_str())
            .finish()
    }

    /// Where the page starts: the position sealed in `pageToken`, checked against `digest` (the
    /// listing's filters) at `now`; none for a first page.
    pub(crate) fn start(
        &self,
        tokens: &SealedPageTokens,
        digest: &Digest,
        now: u64,
    ) -> Result<Option<Vec<u8>>, ApiError> {
        open_token(tokens, self.page_token.as_deref(), digest, now)
    }

    /// The X-Chain history's query, filtered by `asset` (or not).
    pub(crate) fn x_query(&self, asset: Option<Id>) -> UtxoQuery {
        UtxoQuery {
            addresses: self.addresses.ids.clone(),
            page_size: self.page_size,
            asset,
            min_amount: self.min_amount,
            include_spent: self.include_spent,
            order: match self.sort_by {
                UtxoSortBy::Timestamp => UtxoOrder::Timestamp,
                UtxoSortBy::Amount => UtxoOrder::Amount,
            },
            sort: self.sort,
        }
    }

    /// The P-Chain's query.
    pub(crate) fn p_query(&self) -> PUtxoQuery {
        PUtxoQuery {
            addresses: self.addresses.ids.clone(),
            page_size: self.page_size,
            min_amount: self.min_amount,
            include_spent: self.include_spent,
            order: self.sort_by,
            sort: self.sort,
        }
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
