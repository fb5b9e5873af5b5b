//! `GET /v1/chains/{chainId}/addresses/{address}/balances:listErc20`, `...:listErc1155` (both
//! as of `blockNumber` or the last indexed block, with the native balance at the same block) and
//! `...:listCollectibles` (ERC-721 and ERC-1155 together, now): the token balances summed at
//! ingest from the transfer logs.

use snowline_chain_evm::pages::{Holding, HoldingKinds, HoldingPage, HoldingsQuery};
use snowline_chain_evm::rows::TransferKind;
use snowline_query::params::{Currency, boolean_or, evm_address, page_size};
use snowline_query::{Digest, FilterDigest};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::evm::Address;
use snowline_types::rest::evm::{Erc721TokenBalance, checksummed};
use snowline_types::rest::evm_balances::{
    CollectibleBalance, Erc20TokenBalance, Erc1155TokenBalance, ListCollectibleBalancesResponse,
    ListErc20BalancesResponse, ListErc1155BalancesResponse,
};

use super::balances::{block_number, native_token_balance};
use super::context::{EvmApi, EvmChain, currency, page_error, path_address, value_of};
use super::render::{erc20_token, erc721_token, erc1155_token};
use crate::params::{bad, page_token};

/// Contracts one `contractAddresses` filter may name.
const MAX_CONTRACTS: usize = 100;

/// A holdings listing read: the chain, the owner, the query's digest and the page.
struct Listing<'a> {
    chain: EvmChain<'a>,
    owner: Address,
    digest: Digest,
    page: HoldingPage,
}

/// Parses a listing named `name` (its page tokens open no other listing) of what `query` asks
/// (its filters already parsed; `extra`, the other parameters its tokens are bound to) and
/// reads its page.
fn listing<'a>(
    api: &'a EvmApi,
    req: &Request,
    name: &str,
    query: HoldingsQuery<'_>,
    extra: &[(&str, Option<String>)],
) -> Result<Listing<'a>, ApiError> {
    let chain = api.chain(req)?;
    let owner = path_address(req)?;
    let size = page_size(req.query("pageSize"), 500).map_err(bad)?;
    let joined = query
        .contracts
        .iter()
        .map(checksummed)
        .collect::<Vec<_>>()
        .join(",");
    let mut digest = FilterDigest::new(name)
        .field("chainId", &chain.id.to_string())
        .field("address", &checksummed(&owner))
        .field("contracts", &joined)
        .optional("blockNumber", query.at.map(|b| b.to_string()).as_deref());
    for (k, v) in extra {
        digest = digest.optional(k, v.as_deref());
    }
    let digest = digest.finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .holdings(chain.id, owner, query, size, from.as_deref())
        .map_err(page_error)?;
    Ok(Listing {
        chain,
        owner,
        digest,
        page,
    })
}

/// The optional `contractAddress` (one contract).
fn one_contract(req: &Request) -> Result<Vec<Address>, ApiError> {
    req.query("contractAddress")
        .map(|raw| evm_address("contractAddress", raw).map(Address::from))
        .transpose()
        .map(|c| c.into_iter().collect())
        .map_err(bad)
}

/// The optional `contractAddresses`: a comma-separated list of at most [`MAX_CONTRACTS`].
fn contract_list(req: &Request) -> Result<Vec<Address>, ApiError> {
    let Some(raw) = req.query("contractAddresses") else {
        return Ok(Vec::new());
    };
    let parts: Vec<&str> = raw.split(',').map(str::trim).collect();
    if parts.len() > MAX_CONTRACTS {
        return Err(crate::params::param_error(
            "contractAddresses",
            &format!("at most {MAX_CONTRACTS} comma-separated addresses"),
            raw,
        ));
    }
    parts
        .into_iter()
        .map(|p| evm_address("contractAddresses", p).map(Address::from))
        .collect::<Result<_, _>>()
        .map_err(bad)
}

pub(crate) fn erc20(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let currency = currency(req)?;
    // The operator's reputation list flags tokens (none by default): the filter hides those
    // flagged `Malicious`.
    let filter_spam =
        boolean_or("filterSpamTokens", req.query("filterSpamTokens"), true).map_err(bad)?;
    let contracts = contract_list(req)?;
    let at = block_number(req)?;
    let chain = api.chain(req)?;
    let hidden = if filter_spam {
        api.flagged(chain.id)
    } else {
        Vec::new()
    };
    let extra = [
        ("currency", Some(currency.as_str().to_owned())),
        ("filterSpamTokens", Some(filter_spam.to_string())),
    ];
    let query = HoldingsQuery {
        kinds: HoldingKinds::Erc20,
        contracts: &contracts,
        at,
        hidden: &hidden,
    };
    let l = listing(api, req, "evm/addresses/erc20", query, &extra)?;
    let balances = l
        .page
        .holdings
        .iter()
        .map(|h| erc20_balance(api, &l.chain, h, currency, req))
        .collect();
    Reply::json(&ListErc20BalancesResponse {
        next_page_token: l.page.next.map(|p| api.tokens.encode(&l.digest, &p, None)),
        native_token_balance: native_token_balance(
            api,
            &l.chain,
            l.page.native_balance,
            currency,
            req.profile(),
        ),
        erc20_token_balances: balances,
    })
}

fn erc20_balance(
    api: &EvmApi,
    chain: &EvmChain<'_>,
    h: &Holding,
    currency: Currency,
    req: &Request,
) -> Erc20TokenBalance {
    let price = api.price(chain.id, Some(h.contract), currency, None, req.profile());
    let token = erc20_token(&h.contract, h.token.as_ref(), price);
    let balance_value = token
        .price
        .as_ref()
        .map(|p| value_of(h.balance, token.decimals, p));
    Erc20TokenBalance {
        token,
        chain_id: chain.record.chain_id.clone(),
        balance: h.balance.to_string(),
        balance_value,
        token_reputation: api.reputation(chain.id, &h.contract),
    }
}

pub(crate) fn erc1155(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let contracts = one_contract(req)?;
    let at = block_number(req)?;
    let query = HoldingsQuery {
        kinds: HoldingKinds::Erc1155,
        contracts: &contracts,
        at,
        hidden: &[],
    };
    let l = listing(api, req, "evm/addresses/erc1155", query, &[])?;
    Reply::json(&ListErc1155BalancesResponse {
        next_page_token: l.page.next.map(|p| api.tokens.encode(&l.digest, &p, None)),
        native_token_balance: native_token_balance(
            api,
            &l.chain,
            l.page.native_balance,
            Currency::Usd,
            req.profile(),
        ),
        erc1155_token_balances: l
            .page
            .holdings
            .iter()
            .map(|h| erc1155_balance(&l.chain, h))
            .collect(),
    })
}

fn erc1155_balance(chain: &EvmChain<'_>, h: &Holding) -> Erc1155TokenBalance {
    Erc1155TokenBalance {
        token: erc1155_token(
            &h.contract,
            &h.token_id,
            h.uri.as_deref(),
            h.metadata.as_ref(),
        ),
        chain_id: chain.record.chain_id.clone(),
        balance: h.balance.to_string(),
    }
}

pub(crate) fn collectibles(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let contracts = one_contract(req)?;
    let query = HoldingsQuery {
        kinds: HoldingKinds::Collectibles,
        contracts: &contracts,
        at: None,
        hidden: &[],
    };
    let l = listing(api, req, "evm/addresses/collectibles", query, &[])?;
    let collectible = |h: &Holding| match h.kind {
        TransferKind::Erc721 => CollectibleBalance::Erc721(Erc721TokenBalance {
            token: erc721_token(
                &h.contract,
                &h.token_id,
                h.uri.as_deref(),
                h.token.as_ref(),
                Some(&l.owner),
                h.metadata.as_ref(),
            ),
            chain_id: l.chain.record.chain_id.clone(),
        }),
        _ => CollectibleBalance::Erc1155(erc1155_balance(&l.chain, h)),
    };
    Reply::json(&ListCollectibleBalancesResponse {
        next_page_token: l.page.next.map(|p| api.tokens.encode(&l.digest, &p, None)),
        collectible_balances: l.page.holdings.iter().map(collectible).collect(),
    })
}
