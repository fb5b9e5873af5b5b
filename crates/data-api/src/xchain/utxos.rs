//! `GET /v1/networks/{network}/blockchains/{blockchainId}/utxos` for the X-Chain: the UTXOs of a
//! set of addresses, one keyset-paged merge of each address's order (by creation time or amount,
//! then UTXO id), a UTXO owned by several of them listed once. Listed are the UTXOs spendable on
//! the X-Chain: its own, and those other chains exported to it (`createdOnChainId` names the
//! source), as `avm.getUTXOs` lists them without and with `sourceChain`.

use snowline_chain_x::history::{UtxoOrder, UtxoQuery};
use snowline_query::FilterDigest;
use snowline_query::params::{AddressList, SortOrder, UtxoSortBy, boolean_or, page_size, required};
use snowline_rest::{ApiError, Reply, Request};
use snowline_types::rest::{ListUtxosResponse, PrimaryChainInfo};
use snowline_types::{Chain, Id};

use super::context::{XChainApi, page_error};
use crate::params::{bad, min_utxo_amount, page_token, param_error};

pub(crate) fn handle(
    api: &XChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
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
        chain_info,
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

fn sort_by_name(order: UtxoOrder) -> &'static str {
    match order {
        UtxoOrder::Timestamp => "timestamp",
        UtxoOrder::Amount => "amount",
    }
}
