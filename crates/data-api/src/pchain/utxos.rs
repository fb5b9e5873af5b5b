//! `GET /v1/networks/{network}/blockchains/{blockchainId}/utxos` for the P-Chain: the
//! `ListPChainUtxosResponse` of a set of addresses, keyset-paged (by creation time or amount,
//! then UTXO id). Listed are the UTXOs spendable on the P-Chain: its own (stakes and rewards
//! included) and those other chains exported to it.

use snowline_chain_p::pages::PUtxoQuery;
use snowline_query::FilterDigest;
use snowline_query::params::{
    AddressList, SortOrder, UtxoSortBy, boolean_or, cb58_id, page_size, required,
};
use snowline_rest::{ApiError, Reply, Request};
use snowline_types::Chain;
use snowline_types::rest::{ListPChainUtxosResponse, PrimaryChainInfo};

use super::context::{PChainApi, page_error};
use crate::params::{bad, min_utxo_amount, page_token};

pub(crate) fn handle(
    api: &PChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let raw = required("addresses", req.query("addresses")).map_err(bad)?;
    let addresses = AddressList::parse(raw, api.network.hrp, &[Chain::P]).map_err(bad)?;
    // `assetId` applies to the X-Chain only (the spec): checked, then ignored.
    if let Some(raw) = req.query("assetId") {
        cb58_id("assetId", raw).map_err(bad)?;
    }
    let q = PUtxoQuery {
        addresses: addresses.ids.clone(),
        page_size: page_size(req.query("pageSize"), 100).map_err(bad)? as usize,
        min_amount: min_utxo_amount(req.query("minUtxoAmount"))?,
        include_spent: boolean_or("includeSpent", req.query("includeSpent"), false).map_err(bad)?,
        order: UtxoSortBy::parse_or(req.query("sortBy"), UtxoSortBy::Timestamp).map_err(bad)?,
        // The real service lists newest (or largest) first unless told otherwise.
        sort: SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?,
    };
    let digest = FilterDigest::new("p-chain/utxos")
        .field("network", api.network.name)
        .field("addresses", &addresses.strings.join(","))
        .field("minUtxoAmount", &q.min_amount.to_string())
        .field(
            "includeSpent",
            if q.include_spent { "true" } else { "false" },
        )
        .field("sortBy", q.order.as_str())
        .field("sortOrder", q.sort.as_str())
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api.pages.utxos(&q, from.as_deref()).map_err(page_error)?;
    Reply::json(&ListPChainUtxosResponse {
        next_page_token: page
            .next
            .map(|position| api.tokens.encode(&digest, &position, None)),
        utxos: page.utxos.iter().map(|u| api.utxo_record(u)).collect(),
        chain_info,
    })
}
