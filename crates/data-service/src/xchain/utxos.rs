//! `GET /v1/networks/{network}/blockchains/{blockchainId}/utxos` for the X-Chain: the UTXOs of a
//! set of addresses, one keyset-paged merge of each address's order (by creation time or amount,
//! then UTXO id), a UTXO owned by several of them listed once. Listed are the UTXOs spendable on
//! the X-Chain: its own, and those other chains exported to it (`createdOnChainId` names the
//! source), as `avm.getUTXOs` lists them without and with `sourceChain`. Listed are the UTXOs spendable on
//! the X-Chain: its own, and those other chains exported to it (`createdOnChainId` names the
//! source), as `avm.getUTXOs` lists them without and with `sourceChain`.

use std::cell::RefCell;

use snowline_indexer::XStateError;
use snowline_indexer::history::{HistoryUtxo, Holding, UtxoOrder, UtxoPosition, XHistoryReader};
use snowline_query::params::{AddressList, SortOrder, UtxoSortBy, boolean_or, page_size, required};
use snowline_query::{FilterDigest, PositionReader, PositionWriter, merge_sorted};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_store::Direction;
use snowline_types::rest::ListUtxosResponse;
use snowline_types::{Chain, Id};

use super::context::{XChainApi, internal};
use super::render::Assets;
use crate::params::{bad, invalid_token, page_token, param_error};

/// The chains the UTXO endpoint names (P, X, C; only X is indexed here).
const ALLOWED: [Chain; 3] = [Chain::P, Chain::X, Chain::C];

/// UTXOs examined (filtered out or kept) for one page at most. A page that reaches it before
/// filling ends early, with a token after the last UTXO examined: the cost of a page stays
/// bounded however selective `assetId` or `minUtxoAmount` are, and paging still visits every
/// match exactly once.
const MAX_EXAMINED: usize = 10_000;

/// What one request asks for, validated.
struct Query {
    addresses: AddressList,
    page_size: usize,
    asset: Option<Id>,
    min_amount: u64,
    include_spent: bool,
    order: UtxoOrder,
    sort: SortOrder,
}

pub(crate) fn handle(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    let target = api.x_target(req, &ALLOWED)?;
    let q = parse(api, req)?;
    let digest = FilterDigest::new("x-chain/utxos")
        .field("network", api.network.name)
        .field("addresses", &q.addresses.strings.join(","))
        .optional("assetId", q.asset.map(|a| a.to_string()).as_deref())
        .field("minUtxoAmount", &q.min_amount.to_string())
        .field(
            "includeSpent",
            if q.include_spent { "true" } else { "false" },
        )
        .field("sortBy", sort_by_name(q.order))
        .field("sortOrder", q.sort.as_str())
        .finish();
    let from = match page_token(api, req, &digest)? {
        Some(bytes) => Some(read_position(&bytes)?),
        // Ascending by amount with a minimum: start at the minimum rather than filter up to it.
        None if q.order == UtxoOrder::Amount && q.sort == SortOrder::Asc && q.min_amount > 0 => {
            Some(UtxoPosition {
                sort: q.min_amount - 1,
                utxo_id: Id([0xff; 32]),
            })
        }
        None => None,
    };

    let snapshot = api.store.snapshot();
    let reader = XHistoryReader::new(&snapshot);
    let (items, next) = page(&reader, &q, from.as_ref())?;
    let mut assets = Assets::new(&reader);
    let utxos = items
        .iter()
        .map(|u| api.utxo_record(u, &mut assets))
        .collect::<Result<Vec<_>, _>>()?;
    let next_page_token = next.map(|p| {
        let mut w = PositionWriter::new();
        w.u64(p.sort).bytes32(&p.utxo_id.0);
        api.tokens.encode(&digest, &w.finish(), None)
    });
    Reply::json(&ListUtxosResponse {
        next_page_token,
        utxos,
        chain_info: target.chain_info(),
    })
}

fn parse(api: &XChainApi, req: &Request) -> Result<Query, ApiError> {
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
    Ok(Query {
        addresses,
        page_size: page_size(req.query("pageSize"), 100).map_err(bad)? as usize,
        asset,
        min_amount: min_utxo_amount(req.query("minUtxoAmount"))?,
        include_spent: boolean_or("includeSpent", req.query("includeSpent"), false).map_err(bad)?,
        order,
        // The real service lists newest (or largest) first unless told otherwise.
        sort: SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?,
    })
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

fn read_position(bytes: &[u8]) -> Result<UtxoPosition, ApiError> {
    let mut r = PositionReader::new(bytes);
    let invalid = |_| invalid_token();
    let sort = r.u64().map_err(invalid)?;
    let utxo_id = Id(r.bytes32().map_err(invalid)?);
    r.finish().map_err(invalid)?;
    Ok(UtxoPosition { sort, utxo_id })
}

/// One page: up to `page_size` matching UTXOs strictly after `from`, and the position to resume
/// from when more may follow.
fn page<V: snowline_store::ReadView>(
    reader: &XHistoryReader<'_, V>,
    q: &Query,
    from: Option<&UtxoPosition>,
) -> Result<(Vec<HistoryUtxo>, Option<UtxoPosition>), ApiError> {
    let dir = match q.sort {
        SortOrder::Asc => Direction::Forward,
        SortOrder::Desc => Direction::Reverse,
    };
    let failure: RefCell<Option<XStateError>> = RefCell::new(None);
    let mut sources = Vec::with_capacity(q.addresses.ids.len());
    for addr in &q.addresses.ids {
        let scan = reader
            .utxos_by_address(addr, q.order, q.include_spent, from, dir)
            .map_err(internal)?;
        let failure = &failure;
        sources.push(scan.map_while(move |r| match r {
            Ok(p) => Some(p),
            Err(e) => {
                *failure.borrow_mut() = Some(e);
                None
            }
        }));
    }
    // Equal positions (one UTXO owned by several of the addresses) come out once.
    let mut merged = merge_sorted(sources, q.sort, |p: &UtxoPosition| *p);
    let mut kept: Vec<(UtxoPosition, HistoryUtxo)> = Vec::with_capacity(q.page_size + 1);
    let mut examined = 0usize;
    let mut last_examined = None;
    let mut exhausted = false;
    'fill: while kept.len() <= q.page_size {
        if examined >= MAX_EXAMINED {
            break;
        }
        let want = (q.page_size + 1 - kept.len()).clamp(16, 256);
        let mut chunk: Vec<UtxoPosition> = merged.by_ref().take(want).collect();
        if chunk.len() < want {
            exhausted = true;
        }
        // Descending by amount: nothing below the minimum can follow.
        if q.order == UtxoOrder::Amount && q.sort == SortOrder::Desc {
            if let Some(cut) = chunk.iter().position(|p| p.sort < q.min_amount) {
                chunk.truncate(cut);
                exhausted = true;
            }
        }
        let ids: Vec<Id> = chunk.iter().map(|p| p.utxo_id).collect();
        let rows = reader.utxos(&ids).map_err(internal)?;
        for (pos, row) in chunk.into_iter().zip(rows) {
            examined += 1;
            last_examined = Some(pos);
            let u = row.ok_or_else(|| {
                internal(format!(
                    "the address index names UTXO {}, which is not stored",
                    pos.utxo_id
                ))
            })?;
            // UTXOs an X-Chain export put in another chain's atomic memory are spent there,
            // not on X: they show in the balances' atomic memory, not in X's UTXO list.
            let matches = u.record.holding != Holding::ExportedFromX
                && q.asset.is_none_or(|a| a == u.utxo.asset_id)
                && u.record.amount >= q.min_amount;
            if matches {
                kept.push((pos, u));
                if kept.len() > q.page_size {
                    break 'fill;
                }
            }
        }
        if exhausted {
            break;
        }
    }
    if let Some(e) = failure.into_inner() {
        return Err(internal(e));
    }
    if kept.len() > q.page_size {
        kept.truncate(q.page_size);
        let next = kept.last().map(|(p, _)| *p);
        return Ok((kept.into_iter().map(|(_, u)| u).collect(), next));
    }
    // Not filled: either nothing more matches, or the examination budget ran out first.
    let next = if exhausted { None } else { last_examined };
    Ok((kept.into_iter().map(|(_, u)| u).collect(), next))
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
