//! An address's history: `GET /v1/chains/{chainId}/addresses/{address}/transactions`
//! (`listTransactions`, each tx with the transfers and internal txs the address was party to),
//! `GET /v2/...` (`listTransactionsV2`, ERC-20 tokens with their reputation) and
//! `.../transactions:listNative` (the txs it sent, received or created a contract with), within
//! `[startBlock, endBlock)`; the first two newest first or, with `sortOrder=asc`, oldest first.

use snowline_chain_evm::pages::{HistoryPage, HistoryQuery, HistoryTx};
use snowline_chain_evm::rows::Roles;
use snowline_query::SortOrder;
use snowline_query::params::boolean_or;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::evm::Address;
use snowline_types::rest::evm::{
    Erc20TokenV2, Erc20TransferDetailsV2, ListNativeTransactionsResponse,
    ListTransactionDetailsResponse, ListTransactionDetailsResponseV2, TokenReputation,
    TransactionDetails, TransactionDetailsV2,
};

use super::context::{EvmApi, RangeListing, page_error};
use super::render::{TransferDetails, internal, native_tx, transfer};
use crate::params::bad;

/// `listTransactions`.
pub(crate) fn v1(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let (q, page) = read(api, req, "evm/addresses/transactions", &[])?;
    let chain = q.chain.id;
    let transactions = page
        .txs
        .iter()
        .map(|t| {
            let p = parts(&page, t);
            TransactionDetails {
                native_transaction: native_tx(chain, &t.tx),
                erc20_transfers: p.erc20,
                erc721_transfers: p.erc721,
                erc1155_transfers: p.erc1155,
                internal_transactions: p.internals,
            }
        })
        .collect();
    Reply::json(&ListTransactionDetailsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&q.digest, &p, None)),
        transactions,
    })
}

/// `listTransactionsV2`: each ERC-20 token rated by the operator's reputation list (the chain's
/// `tokenReputation` in the sources file; `null` where it rates none), and with
/// `filterSpamTokens` the transfers of a token it rates `Malicious` left out of each tx.
pub(crate) fn v2(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let spam = boolean_or("filterSpamTokens", req.query("filterSpamTokens"), false).map_err(bad)?;
    let (q, page) = read(
        api,
        req,
        "evm/addresses/transactions/v2",
        &[("filterSpamTokens", if spam { "true" } else { "false" })],
    )?;
    let chain = q.chain.id;
    let transactions = page
        .txs
        .iter()
        .map(|t| {
            let p = parts(&page, t);
            TransactionDetailsV2 {
                native_transaction: native_tx(chain, &t.tx),
                erc20_transfers: p.erc20.and_then(|list| {
                    let kept: Vec<Erc20TransferDetailsV2> = list
                        .into_iter()
                        .map(|d| erc20_v2(api, chain, d))
                        .filter(|d| {
                            !(spam
                                && d.erc20_token.token_reputation
                                    == Some(TokenReputation::Malicious))
                        })
                        .collect();
                    (!kept.is_empty()).then_some(kept)
                }),
                erc721_transfers: p.erc721,
                erc1155_transfers: p.erc1155,
                internal_transactions: p.internals,
            }
        })
        .collect();
    Reply::json(&ListTransactionDetailsResponseV2 {
        next_page_token: page.next.map(|p| api.tokens.encode(&q.digest, &p, None)),
        transactions,
    })
}

/// `listNativeTransactions`: newest first.
pub(crate) fn native(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let q = api.range_listing(req, "evm/addresses/transactions:listNative")?;
    let query = HistoryQuery {
        only: Roles::NATIVE,
        parts: false,
        order: SortOrder::Desc,
    };
    let page = api
        .pages
        .address_txs(
            q.chain.id,
            q.address,
            q.range,
            query,
            q.size,
            q.from.as_deref(),
        )
        .map_err(page_error)?;
    Reply::json(&ListNativeTransactionsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&q.digest, &p, None)),
        transactions: page
            .txs
            .iter()
            .map(|t| native_tx(q.chain.id, &t.tx))
            .collect(),
    })
}

/// Parses a history listing named `listing` (with `sortOrder` and `extra` in its digest) and
/// reads its page, every tx with its parts.
fn read<'a>(
    api: &'a EvmApi,
    req: &Request,
    listing: &str,
    extra: &[(&str, &str)],
) -> Result<(RangeListing<'a>, HistoryPage), ApiError> {
    let order = SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?;
    let mut fields = vec![("sortOrder", order.as_str())];
    fields.extend_from_slice(extra);
    let q = api.range_listing_with(req, listing, &fields)?;
    let query = HistoryQuery {
        only: Roles::default(),
        parts: true,
        order,
    };
    let page = api
        .pages
        .address_txs(
            q.chain.id,
            q.address,
            q.range,
            query,
            q.size,
            q.from.as_deref(),
        )
        .map_err(page_error)?;
    Ok((q, page))
}

/// A tx's parts as the listing renders them; an empty list is omitted.
struct Parts {
    erc20: Option<Vec<snowline_types::rest::evm::Erc20TransferDetails>>,
    erc721: Option<Vec<snowline_types::rest::evm::Erc721TransferDetails>>,
    erc1155: Option<Vec<snowline_types::rest::evm::Erc1155TransferDetails>>,
    internals: Option<Vec<snowline_types::rest::evm::InternalTransactionDetails>>,
}

fn parts(page: &HistoryPage, t: &HistoryTx) -> Parts {
    let (mut erc20, mut erc721, mut erc1155) = (Vec::new(), Vec::new(), Vec::new());
    for x in &t.transfers {
        match transfer(x, page.tokens.get(&x.token), None) {
            TransferDetails::Erc20(d) => erc20.push(d),
            TransferDetails::Erc721(d) => erc721.push(d),
            TransferDetails::Erc1155(d) => erc1155.push(d),
        }
    }
    let some = |v: Vec<_>| (!v.is_empty()).then_some(v);
    Parts {
        erc20: (!erc20.is_empty()).then_some(erc20),
        erc721: (!erc721.is_empty()).then_some(erc721),
        erc1155: (!erc1155.is_empty()).then_some(erc1155),
        internals: some(t.internals.iter().map(internal).collect()),
    }
}

/// An ERC-20 transfer with the v2 token record: its reputation on `chain` as the operator's
/// list gives it (`null`: not rated).
fn erc20_v2(
    api: &EvmApi,
    chain: u64,
    d: snowline_types::rest::evm::Erc20TransferDetails,
) -> Erc20TransferDetailsV2 {
    let t = d.erc20_token;
    let reputation = t
        .address
        .parse::<Address>()
        .ok()
        .and_then(|a| api.reputation(chain, &a));
    Erc20TransferDetailsV2 {
        from: d.from,
        to: d.to,
        log_index: d.log_index,
        value: d.value,
        erc20_token: Erc20TokenV2 {
            address: t.address,
            name: t.name,
            symbol: t.symbol,
            decimals: t.decimals,
            logo_uri: t.logo_uri,
            erc_type: t.erc_type,
            price: t.price,
            token_reputation: reputation,
        },
    }
}
