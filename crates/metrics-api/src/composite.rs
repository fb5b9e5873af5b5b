//! The Looking Glass's composite query: `POST /v2/lookingGlass/compositeQuery`
//! (`compositeQueryV2`) and the legacy `POST /v1/lookingGlass/compositeQuery`
//! (`compositeQueryV1`), one `CompositeQueryRequestDto` body each: the body checked field by
//! field (a 400 naming the field), the sub-queries run by `chain-evm`'s
//! [`EvmPages::composite`](snowline_chain_evm::pages::EvmPages::composite), the
//! `CompositeQueryResponse` rendered. Page tokens are the stored UUIDs, bound to the request's
//! canonical form with the last address listed.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::{Map, Value};
use snowline_chain_evm::export::parse_date;
use snowline_chain_evm::pages::{Asset, Operator, Span, SubQuery};
use snowline_query::params::evm_address;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::evm::{Address, U256};
use snowline_types::rest::evm::checksummed;

use crate::context::{MetricsApi, token_failed};
use crate::holders::{amount, looking_glass_failed};

/// The most sub-queries one request holds.
pub const MAX_SUB_QUERIES: usize = 20;
/// `pageSize` bounds and default (the OpenAPI's).
const MAX_PAGE_SIZE: u64 = 10_000;
const DEFAULT_PAGE_SIZE: u64 = 1_000;
/// The last second of a UTC day, after its first.
const DAY_END: u64 = 86_399;

/// The sub-query types the OpenAPI names that read no indexed data.
const NOT_INDEXED: [&str; 3] = [
    "AllTimeStarsArenaBalance",
    "AnyTimeStarsArenaBalance",
    "LatestBalanceStarsArena",
];

/// `CompositeQueryResponse`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CompositeQueryResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    next_page_token: Option<String>,
    sub_query_counts: BTreeMap<String, u64>,
    total_count: u64,
    addresses: Vec<String>,
}

fn bad(field: &str, what: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("{field}: {what}"))
}

/// A member of `obj` that must be a string.
fn text<'a>(obj: &'a Map<String, Value>, at: &str, name: &str) -> Result<&'a str, ApiError> {
    match obj.get(name) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(bad(
            &format!("{at}.{name}"),
            format!("must be a string, not {other}"),
        )),
        None => Err(bad(&format!("{at}.{name}"), "is required")),
    }
}

/// A `YYYY-MM-DD` member: the Unix seconds of its day's start.
fn date(obj: &Map<String, Value>, at: &str, name: &str) -> Result<u64, ApiError> {
    let raw = text(obj, at, name)?;
    parse_date(raw).ok_or_else(|| {
        bad(
            &format!("{at}.{name}"),
            format!("must be a date, YYYY-MM-DD (UTC), from 1970 on; got {raw:?}"),
        )
    })
}

/// A Unix-seconds member (a JSON number with no fraction).
fn seconds(obj: &Map<String, Value>, at: &str, name: &str) -> Result<u64, ApiError> {
    let field = format!("{at}.{name}");
    match obj.get(name) {
        Some(Value::Number(n)) => n
            .as_u64()
            .or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1.8e19)
                    .map(|f| f as u64)
            })
            .ok_or_else(|| bad(&field, format!("must be Unix seconds (0 or more), not {n}"))),
        Some(other) => Err(bad(&field, format!("must be a number, not {other}"))),
        None => Err(bad(&field, "is required")),
    }
}

/// The `[from, to]` of `firstDate`/`lastDate` (whole UTC days) or `startTs`/`endTs`.
fn range(obj: &Map<String, Value>, at: &str, timestamps: bool) -> Result<(u64, u64), ApiError> {
    let (from, to, first) = if timestamps {
        let from = seconds(obj, at, "startTs")?;
        (from, seconds(obj, at, "endTs")?, "startTs")
    } else {
        let from = date(obj, at, "firstDate")?;
        (
            from,
            date(obj, at, "lastDate")?.saturating_add(DAY_END),
            "firstDate",
        )
    };
    if from > to {
        return Err(bad(
            &format!("{at}.{first}"),
            "must not be after the range's end",
        ));
    }
    Ok((from, to))
}

/// A contract address member.
fn contract(obj: &Map<String, Value>, at: &str) -> Result<Address, ApiError> {
    let field = format!("{at}.contractAddress");
    evm_address(&field, text(obj, at, "contractAddress")?)
        .map(Address::from)
        .map_err(|e| ApiError::bad_request(e.to_string()))
}

/// Parses `evmChainId`, a chain served here with its EVM index.
fn chain(api: &MetricsApi, obj: &Map<String, Value>, at: &str) -> Result<u64, ApiError> {
    let raw = text(obj, at, "evmChainId")?;
    api.chain(raw)
        .map(|(id, _)| id)
        .map_err(|e| ApiError::new(e.status, format!("{at}.evmChainId: {}", e.message)))
}

/// One element of `queries`: its id and the sub-query.
fn sub_query(api: &MetricsApi, q: &Value, at: &str) -> Result<(String, SubQuery), ApiError> {
    let obj = q
        .as_object()
        .ok_or_else(|| bad(at, "must be an object with id, type and params"))?;
    let id = text(obj, at, "id")?.to_owned();
    let kind = text(obj, at, "type")?;
    let p_at = format!("{at}.params");
    let p = match obj.get("params") {
        Some(Value::Object(p)) => p,
        Some(_) => return Err(bad(&p_at, "must be an object")),
        None => return Err(bad(&p_at, "is required")),
    };
    let min = |p: &Map<String, Value>| {
        amount(&format!("{p_at}.minBalance"), text(p, &p_at, "minBalance")?)
    };
    let windowed = |all: bool, r: (u64, u64)| {
        if all {
            Span::AllTime(r.0, r.1)
        } else {
            Span::AnyTime(r.0, r.1)
        }
    };
    let query = match kind {
        "AllTimeNativeBalance" | "AnyTimeNativeBalance" => SubQuery {
            chain: chain(api, p, &p_at)?,
            asset: Asset::Native,
            span: windowed(kind.starts_with("All"), range(p, &p_at, false)?),
            min: min(p)?,
        },
        "AllTimeErc20Balance" | "AnyTimeErc20Balance" => SubQuery {
            chain: chain(api, p, &p_at)?,
            asset: Asset::Erc20(contract(p, &p_at)?),
            span: windowed(kind.starts_with("All"), range(p, &p_at, false)?),
            min: min(p)?,
        },
        "AllTimeNftHolders" | "AnyTimeNftHolders" => {
            // `TimestampRangeNftHoldersParam` or `DateRangeNftHoldersParam`.
            let timestamps = p.contains_key("startTs") || p.contains_key("endTs");
            SubQuery {
                chain: chain(api, p, &p_at)?,
                asset: Asset::Nft(contract(p, &p_at)?),
                span: windowed(kind.starts_with("All"), range(p, &p_at, timestamps)?),
                min: U256::from(1u8),
            }
        }
        "LatestBalance" => {
            let asset = match text(p, &p_at, "tokenType")? {
                "NATIVE" => Asset::Native,
                "ERC20" => Asset::Erc20(contract(p, &p_at)?),
                other => {
                    return Err(bad(
                        &format!("{p_at}.tokenType"),
                        format!("must be ERC20 or NATIVE, not {other:?}"),
                    ));
                }
            };
            SubQuery {
                chain: chain(api, p, &p_at)?,
                asset,
                span: Span::Latest,
                min: min(p)?,
            }
        }
        k if NOT_INDEXED.contains(&k) => {
            return Err(bad(
                &format!("{at}.type"),
                format!(
                    "{k} is not served: Stars Arena balances are not indexed by this instance \
                     (the native, ERC-20 and NFT sub-queries are)"
                ),
            ));
        }
        other => {
            return Err(bad(
                &format!("{at}.type"),
                format!(
                    "must be one of AllTimeNativeBalance, AnyTimeNativeBalance, \
                     AllTimeErc20Balance, AnyTimeErc20Balance, AllTimeNftHolders, \
                     AnyTimeNftHolders, LatestBalance; not {other:?}"
                ),
            ));
        }
    };
    Ok((id, query))
}

/// A parsed request: the sub-queries with their ids, the operator, the page size and the
/// page token sent.
struct Composite {
    queries: Vec<(String, SubQuery)>,
    operator: Operator,
    size: usize,
    token: Option<String>,
}

impl Composite {
    fn parse(api: &MetricsApi, body: &Value) -> Result<Self, ApiError> {
        let obj = body.as_object().ok_or_else(|| {
            ApiError::bad_request("the body must be a CompositeQueryRequestDto object")
        })?;
        let operator = match obj.get("operator") {
            Some(Value::String(s)) if s == "AND" => Operator::And,
            Some(Value::String(s)) if s == "OR" => Operator::Or,
            Some(other) => return Err(bad("operator", format!("must be AND or OR, not {other}"))),
            None => return Err(bad("operator", "is required (AND or OR)")),
        };
        let list = match obj.get("queries") {
            Some(Value::Array(a)) => a,
            Some(_) => return Err(bad("queries", "must be an array of sub-queries")),
            None => return Err(bad("queries", "is required")),
        };
        if list.is_empty() || list.len() > MAX_SUB_QUERIES {
            return Err(bad(
                "queries",
                format!(
                    "must hold 1 to {MAX_SUB_QUERIES} sub-queries, not {}",
                    list.len()
                ),
            ));
        }
        let mut queries = Vec::with_capacity(list.len());
        let mut ids = BTreeSet::new();
        for (i, q) in list.iter().enumerate() {
            let at = format!("queries[{i}]");
            let (id, query) = sub_query(api, q, &at)?;
            if !ids.insert(id.clone()) {
                return Err(bad(
                    &format!("{at}.id"),
                    format!("{id:?} names another sub-query too; subQueryCounts is by id"),
                ));
            }
            queries.push((id, query));
        }
        let size = match obj.get("pageSize") {
            None => DEFAULT_PAGE_SIZE,
            Some(v) => v
                .as_u64()
                .filter(|n| (1..=MAX_PAGE_SIZE).contains(n))
                .ok_or_else(|| {
                    bad(
                        "pageSize",
                        format!("must be an integer from 1 to {MAX_PAGE_SIZE}, not {v}"),
                    )
                })?,
        };
        let token = match obj.get("pageToken") {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => return Err(bad("pageToken", format!("must be a string, not {other}"))),
        };
        Ok(Self {
            queries,
            operator,
            size: usize::try_from(size).unwrap_or(usize::MAX),
            token,
        })
    }

    /// The request as its page tokens name it: everything that shapes the answer.
    fn key(&self) -> String {
        let mut key = format!("Composite|{:?}|{}", self.operator, self.size);
        for (id, q) in &self.queries {
            let asset = match q.asset {
                Asset::Native => "native".to_owned(),
                Asset::Erc20(a) => format!("erc20:{}", checksummed(&a)),
                Asset::Nft(a) => format!("nft:{}", checksummed(&a)),
            };
            let _ = write!(
                key,
                "|{}:{id}|{}|{asset}|{:?}|{}",
                id.len(),
                q.chain,
                q.span,
                q.min
            );
        }
        key.push('|');
        key
    }
}

/// `POST /v2/lookingGlass/compositeQuery` and `POST /v1/lookingGlass/compositeQuery`.
pub fn composite(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let pages = api.evm.as_ref().ok_or_else(|| {
        ApiError::not_found("this instance serves no Looking Glass (no EVM index)")
    })?;
    let body: Value = req.json()?;
    let query = Composite::parse(api, &body)?;
    let key = query.key();
    let after = match &query.token {
        Some(t) => Some(crate::holders::resume(api, t, &key)?),
        None => None,
    };
    let subs: Vec<SubQuery> = query.queries.iter().map(|(_, q)| *q).collect();
    let page = pages
        .composite(&subs, query.operator, (query.size, after), api.max_rows)
        .map_err(looking_glass_failed)?;
    let next_page_token = page
        .next
        .map(|a| api.tokens.issue(&format!("{key}{}", checksummed(&a)), 0))
        .transpose()
        .map_err(token_failed)?;
    Reply::json(&CompositeQueryResponse {
        next_page_token,
        sub_query_counts: query
            .queries
            .iter()
            .map(|(id, _)| id.clone())
            .zip(page.counts)
            .collect(),
        total_count: page.total,
        addresses: page.addresses.iter().map(checksummed).collect(),
    })
}
