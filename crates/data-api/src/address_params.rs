//! The parameters the balances and UTXO endpoints take on every primary chain: the addresses
//! (with the chain's prefix, or none), `blockTimestamp`, and the UTXO listing's paging, filters
//! and order. Each chain's handler parses them here and maps them to its pages' query.

use serde::Deserialize;
use snowline_chain_p::pages::PUtxoQuery;
use snowline_chain_x::history::{UtxoOrder, UtxoQuery};
use snowline_query::params::{
    AddressList, SortOrder, UtxoSortBy, boolean_or, cb58_id, page_size, required, u64_opt,
};
use snowline_query::{Digest, FilterDigest};
use snowline_rest_api::{ApiError, Request};
use snowline_types::network::NetworkInfo;
use snowline_types::{Chain, Id};

use crate::params::{bad, min_utxo_amount};

/// `addresses` as `chain` spells them (`X-…`, `P-…`, `C-…`, or without prefix).
fn addresses(req: &Request, network: &NetworkInfo, chain: Chain) -> Result<AddressList, ApiError> {
    let raw = required("addresses", req.query("addresses")).map_err(bad)?;
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
        Ok(Self {
            addresses: addresses(req, network, chain)?,
            at: u64_opt("blockTimestamp", req.query("blockTimestamp"), 0).map_err(bad)?,
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
        Self::with_addresses(req, addresses(req, network, chain)?, 100)
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
        Self::with_addresses(req, addresses, 1024)
    }

    /// The query's parameters for `addresses`, pages of at most `max_page`.
    fn with_addresses(
        req: &Request,
        addresses: AddressList,
        max_page: u32,
    ) -> Result<Self, ApiError> {
        Ok(Self {
            addresses,
            page_size: page_size(req.query("pageSize"), max_page).map_err(bad)? as usize,
            asset: req
                .query("assetId")
                .map(|raw| cb58_id("assetId", raw))
                .transpose()
                .map_err(bad)?,
            min_amount: min_utxo_amount(req.query("minUtxoAmount"))?,
            include_spent: boolean_or("includeSpent", req.query("includeSpent"), false)
                .map_err(bad)?,
            sort_by: UtxoSortBy::parse_or(req.query("sortBy"), UtxoSortBy::Timestamp)
                .map_err(bad)?,
            sort: SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?,
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
