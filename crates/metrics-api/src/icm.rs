//! The ICM metrics: `GET /v2/icm/timeseries` (messages sent per bucket, optionally split by
//! source, destination or pair) and `GET /v2/icm/summary` (messages sent over rolling windows),
//! read through `chain-icm`'s [`IcmMetrics`](snowline_chain_icm::IcmMetrics). A message is
//! counted once, at its send (at its delivery when its source chain is not indexed).

use snowline_chain_icm::IcmLabel;
use snowline_chain_icm::{IcmCount, IcmCountQuery, IcmFilter, IcmGroup, IcmMetrics};
use snowline_chain_metrics::{Interval, Window};
use snowline_query::ParamError;
use snowline_query::params::cb58_or_hex_id;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Id;
use snowline_types::evm::B256;

use crate::context::{MetricsApi, token_failed};
use crate::params;
use crate::render::{IcmPointJson, IcmRollingJson, IcmRollingResponse, IcmSeries};

/// The `groupBy` values, as the OpenAPI spells them.
const GROUPS: [(&str, IcmGroup); 3] = [
    ("srcBlockchainId", IcmGroup::Source),
    ("destBlockchainId", IcmGroup::Destination),
    ("srcBlockchainId,destBlockchainId", IcmGroup::Pair),
];

fn bad(e: ParamError) -> ApiError {
    ApiError::bad_request(e.to_string())
}

/// The ICM reads, or a 404 when the index holds no ICM tables; checks `network` if given.
fn served<'a>(api: &'a MetricsApi, req: &Request) -> Result<&'a IcmMetrics, ApiError> {
    let Some((metrics, network)) = &api.icm else {
        return Err(ApiError::not_found(
            "this instance's index has no ICM tables (an index written before ICM messages were \
             indexed): the ICM metrics are not served",
        ));
    };
    if let Some(raw) = req.query("network") {
        snowline_query::params::served_network(raw, network)?;
    }
    Ok(metrics)
}

/// `srcBlockchainId` and `destBlockchainId` (cb58, or 64 hex digits).
fn filter(req: &Request) -> Result<IcmFilter, ApiError> {
    let id = |name: &str| {
        req.query(name)
            .map(|raw| {
                cb58_or_hex_id(name, raw)
                    .map(|Id(b)| B256::from(b))
                    .map_err(bad)
            })
            .transpose()
    };
    Ok(IcmFilter {
        source: id("srcBlockchainId")?,
        destination: id("destBlockchainId")?,
    })
}

/// `groupBy` (none when absent).
fn group(req: &Request) -> Result<IcmGroup, ApiError> {
    let Some(raw) = req.query("groupBy") else {
        return Ok(IcmGroup::None);
    };
    GROUPS
        .iter()
        .find(|(name, _)| *name == raw)
        .map(|(_, g)| *g)
        .ok_or_else(|| {
            bad(ParamError::invalid(
                "groupBy",
                "one of srcBlockchainId, destBlockchainId, srcBlockchainId,destBlockchainId",
                raw,
            ))
        })
}

/// A blockchain id in an answer: cb58, `""` for every chain.
fn cb58(id: Option<B256>) -> String {
    id.map(|b| Id(b.0).to_string()).unwrap_or_default()
}

/// A label in a page token: each end in hex, `-` for every chain.
fn write_label((s, d): IcmLabel) -> String {
    let end = |x: Option<B256>| x.map_or_else(|| "-".to_owned(), |b| format!("{b:x}"));
    format!("{},{}", end(s), end(d))
}

fn read_label(raw: &str) -> Option<IcmLabel> {
    let (s, d) = raw.split_once(',')?;
    let end = |x: &str| -> Option<Option<B256>> {
        if x == "-" {
            return Some(None);
        }
        x.parse::<B256>().ok().map(Some)
    };
    Some((end(s)?, end(d)?))
}

/// The last second counted for buckets starting up to `end`: the end of the bucket holding it.
fn last_second(interval: Interval, end: u64) -> u64 {
    let next = interval.next(interval.start(end));
    if next <= end { u64::MAX } else { next - 1 }
}

/// `GET /v2/icm/timeseries`: newest bucket first, then by source and destination; pages are the
/// series' UUID tokens, remembering the query, the last bucket served and the last label in it.
pub fn timeseries(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let interval = params::interval(req)?;
    let start = params::timestamp(req, "startTimestamp")?;
    let end = params::timestamp(req, "endTimestamp")?;
    let page_size = params::page_size(req)?;
    let (from, to) = params::range(interval, start, end, ("startTimestamp", "endTimestamp"))?;
    let filter = filter(req)?;
    let group = group(req)?;
    let metrics = served(api, req)?;
    let mut q = IcmCountQuery {
        from,
        to: last_second(interval, to),
        filter,
        group,
    };
    let key = format!(
        "icm|{}|{from}|{to}|{}|{group:?}|{page_size}",
        interval.name(),
        write_label((filter.source, filter.destination))
    );
    let after = match req.query("pageToken") {
        None => None,
        Some(token) => {
            let (issued_for, position) = api.tokens.redeem(token).map_err(token_failed)?;
            let label = issued_for
                .strip_prefix(&key)
                .and_then(|rest| rest.strip_prefix('|'))
                .and_then(read_label)
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "Invalid pageToken: it was issued for another query; send the \
                         parameters of the first page with it",
                    )
                })?;
            // Newer buckets were served: read from the resumed one down.
            q.to = q.to.min(last_second(interval, position));
            Some((position, label))
        }
    };
    let mut rows: Vec<IcmCount> = metrics
        .counts(&q, interval, after, page_size + 1)
        .map_err(|e| ApiError::internal(format!("reading the ICM messages failed: {e}")))?;
    let more = rows.len() > page_size;
    rows.truncate(page_size);
    let next_page_token = match rows.last() {
        Some(last) if more => Some(
            api.tokens
                .issue(&format!("{key}|{}", write_label(last.label())), last.start)
                .map_err(token_failed)?,
        ),
        _ => None,
    };
    Reply::json(&IcmSeries {
        results: rows
            .iter()
            .map(|c| IcmPointJson {
                value: c.messages,
                timestamp: c.start,
                src_blockchain_id: cb58(c.source),
                dest_blockchain_id: cb58(c.destination),
            })
            .collect(),
        next_page_token,
    })
}

/// `GET /v2/icm/summary`: the messages sent in each rolling window, ending with the hour of the
/// newest block indexed (of any chain with metrics, or of any ICM event). The answer has one
/// `result`, so a `groupBy` is checked but the filtered total is answered.
pub fn summary(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let filter = filter(req)?;
    group(req)?;
    let metrics = served(api, req)?;
    let read = |e: snowline_chain_icm::IcmError| {
        ApiError::internal(format!("reading the ICM messages failed: {e}"))
    };
    let chains_tip = api
        .pages
        .chains()
        .map_err(crate::context::read_failed)?
        .iter()
        .map(|(_, c)| c.last_time)
        .max();
    let tip = chains_tip.max(metrics.newest().map_err(read)?).unwrap_or(0);
    let starts: Vec<u64> = Window::ALL.iter().map(|w| w.start(tip)).collect();
    let totals = metrics.totals_since(&filter, &starts).map_err(read)?;
    let mut result = IcmRollingJson {
        src_blockchain_id: cb58(filter.source),
        dest_blockchain_id: cb58(filter.destination),
        ..IcmRollingJson::default()
    };
    for (w, n) in Window::ALL.iter().zip(totals) {
        let slot = match w {
            Window::LastHour => &mut result.last_hour,
            Window::LastDay => &mut result.last_day,
            Window::LastWeek => &mut result.last_week,
            Window::LastMonth => &mut result.last_month,
            Window::Last90Days => &mut result.last_90_days,
            Window::LastYear => &mut result.last_year,
            Window::AllTime => &mut result.all_time,
        };
        *slot = n;
    }
    Reply::json(&IcmRollingResponse { result })
}
