//! The token holders of the Looking Glass: `GET /v2/chains/{chainId}/contracts/{address}/nfts:listHolders`
//! (`getNftHoldersByContractAddress`: a collection's holders now, `sortKey` the number of its
//! tokens each holds) and `GET /v2/chains/{chainId}/contracts/{address}/balances`
//! (`getAddressesByBalanceOverTime`: the holders of an ERC-20 whose balance was at least
//! `threshold` within `[startTimestamp, endTimestamp]`, `sortKey` the balance at its end), read
//! through `chain-evm`'s [`EvmPages`], by address. Page tokens are the stored UUIDs; the last
//! address listed rides in the query key the token remembers.

use serde::Serialize;
use snowline_chain_evm::pages::{EvmPages, EvmReadError, HolderPage, LookingGlassError};
use snowline_query::ParamError;
use snowline_query::params::evm_address;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::evm::{Address, U256};
use snowline_types::rest::evm::checksummed;

use crate::context::{MetricsApi, token_failed};
use crate::params;

/// `AddressDetails`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AddressDetails {
    address: String,
    sort_key: String,
}

/// `NftHoldersResponse`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NftHoldersResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    next_page_token: Option<String>,
    addresses: Vec<AddressDetails>,
    nft_collection_name: String,
    nft_symbol: String,
    total_holders: u64,
    total_tokens: u64,
}

/// `LookingGlassResponse`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LookingGlassResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) next_page_token: Option<String>,
    pub(crate) addresses: Vec<AddressDetails>,
}

fn bad(e: ParamError) -> ApiError {
    ApiError::bad_request(e.to_string())
}

pub(crate) fn read_failed(e: EvmReadError) -> ApiError {
    match e {
        EvmReadError::NotIndexed(_) => ApiError::not_found(e.to_string()),
        EvmReadError::BadPosition => ApiError::bad_request(e.to_string()),
        e => ApiError::internal(format!("reading the EVM index failed: {e}")),
    }
}

/// The chain, its EVM pages and the contract a request names.
pub(crate) fn target<'a>(
    api: &'a MetricsApi,
    req: &Request,
) -> Result<(u64, &'a EvmPages, Address), ApiError> {
    let (chain, _) = api.chain(req.required_param("chainId")?)?;
    let pages = api.evm.as_ref().ok_or_else(|| {
        ApiError::not_found("this instance serves no EVM token holders (no EVM index)")
    })?;
    let address = evm_address("address", req.required_param("address")?)
        .map(Address::from)
        .map_err(bad)?;
    Ok((chain, pages, address))
}

/// The holder after which a page starts, from `pageToken` issued for `key`.
pub(crate) fn after(
    api: &MetricsApi,
    req: &Request,
    key: &str,
) -> Result<Option<Address>, ApiError> {
    req.query("pageToken")
        .map(|token| resume(api, token, key))
        .transpose()
}

/// The address page token `token` resumes after, when it was issued for `key`.
pub(crate) fn resume(api: &MetricsApi, token: &str, key: &str) -> Result<Address, ApiError> {
    let (issued_for, _) = api.tokens.redeem(token).map_err(token_failed)?;
    issued_for
        .strip_prefix(key)
        .and_then(|a| evm_address("pageToken", a).ok())
        .map(Address::from)
        .ok_or_else(|| {
            ApiError::bad_request(
                "Invalid pageToken: it was issued for another query; send the parameters of the \
                 first page with it",
            )
        })
}

/// The required `threshold` query parameter, an [`amount`].
pub(crate) fn threshold(req: &Request) -> Result<U256, ApiError> {
    let raw = req.query("threshold").ok_or_else(|| {
        bad(ParamError::new(
            "threshold",
            "threshold is required (a decimal amount in the token's smallest unit)",
        ))
    })?;
    amount("threshold", raw)
}

/// An amount in a token's smallest unit: decimal digits, at most 2^256 - 1.
pub(crate) fn amount(field: &str, raw: &str) -> Result<U256, ApiError> {
    let digits = !raw.is_empty() && raw.len() <= 78 && raw.bytes().all(|b| b.is_ascii_digit());
    digits
        .then(|| U256::from_str_radix(raw, 10).ok())
        .flatten()
        .ok_or_else(|| {
            bad(ParamError::invalid(
                field,
                "a decimal amount between 0 and 2^256 - 1",
                raw,
            ))
        })
}

/// A Looking Glass read that failed: a query past the row cap is the client's to narrow (400),
/// balances the index cannot know a 404 saying why.
pub(crate) fn looking_glass_failed(e: LookingGlassError) -> ApiError {
    match e {
        LookingGlassError::TooBroad { .. } => ApiError::bad_request(e.to_string()),
        LookingGlassError::NativeUnknown(_) => ApiError::not_found(e.to_string()),
        LookingGlassError::Read(EvmReadError::PartialHistory { .. }) => {
            ApiError::not_found(e.to_string())
        }
        LookingGlassError::Read(e) => read_failed(e),
    }
}

/// The page's records and the token of the page after it.
pub(crate) fn render(
    api: &MetricsApi,
    key: &str,
    page: HolderPage,
) -> Result<(Vec<AddressDetails>, Option<String>), ApiError> {
    let next = page
        .next
        .map(|a| api.tokens.issue(&format!("{key}{}", checksummed(&a)), 0))
        .transpose()
        .map_err(token_failed)?;
    let addresses = page
        .holders
        .iter()
        .map(|(a, v)| AddressDetails {
            address: checksummed(a),
            sort_key: v.to_string(),
        })
        .collect();
    Ok((addresses, next))
}

/// `GET /v2/chains/{chainId}/contracts/{address}/nfts:listHolders`.
pub fn nft_holders(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let (chain, pages, contract) = target(api, req)?;
    let size = params::address_page_size(req)?;
    let key = format!("NftHolders|{chain}|{}|{size}|", checksummed(&contract));
    let after = after(api, req, &key)?;
    let holders = pages
        .nft_holders(chain, contract, size, after)
        .map_err(read_failed)?;
    let (addresses, next_page_token) = render(api, &key, holders.page)?;
    let name = |f: fn(&snowline_chain_evm::rows::TokenRow) -> Option<String>| {
        holders.token.as_ref().and_then(f).unwrap_or_default()
    };
    Reply::json(&NftHoldersResponse {
        next_page_token,
        addresses,
        nft_collection_name: name(|t| t.name.clone()),
        nft_symbol: name(|t| t.symbol.clone()),
        total_holders: holders.total_holders,
        total_tokens: holders.total_tokens,
    })
}

/// `GET /v2/chains/{chainId}/contracts/{address}/balances`.
pub fn balances_over_time(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let (chain, pages, token) = target(api, req)?;
    let threshold = threshold(req)?;
    let from = params::timestamp(req, "startTimestamp")?.unwrap_or(0);
    let to = params::timestamp(req, "endTimestamp")?.unwrap_or(u64::MAX);
    if from > to {
        return Err(bad(ParamError::new(
            "startTimestamp",
            format!("startTimestamp must not be after endTimestamp ({to})"),
        )));
    }
    let size = params::address_page_size(req)?;
    let key = format!(
        "Balances|{chain}|{}|{threshold}|{from}|{to}|{size}|",
        checksummed(&token)
    );
    let after = after(api, req, &key)?;
    let page = pages
        .erc20_holders_over_time(chain, token, threshold, (from, to), size, after)
        .map_err(read_failed)?;
    let (addresses, next_page_token) = render(api, &key, page)?;
    Reply::json(&LookingGlassResponse {
        next_page_token,
        addresses,
    })
}
