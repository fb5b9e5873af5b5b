//! The metrics endpoints' query parameters, each parsed into a typed value or a 400 naming the
//! parameter, what it allows and what was sent.

use snowline_chain_metrics::{Interval, Metric};
use snowline_query::ParamError;
use snowline_rest_api::{ApiError, Request};

/// The v2 series' largest `pageSize`.
pub const MAX_PAGE_SIZE: usize = 2_160;
/// The `pageSize` when none is given (v2), and the page size of v1's `avg_tps`.
pub const DEFAULT_PAGE_SIZE: usize = 100;

fn bad(e: ParamError) -> ApiError {
    ApiError::bad_request(e.to_string())
}

/// An optional Unix-seconds parameter (a non-negative integer).
pub fn timestamp(req: &Request, name: &str) -> Result<Option<u64>, ApiError> {
    req.query(name)
        .map(|raw| {
            raw.parse::<u64>().map_err(|_| {
                bad(ParamError::invalid(
                    name,
                    "a non-negative integer (Unix seconds)",
                    raw,
                ))
            })
        })
        .transpose()
}

/// `timeInterval` (`day` when absent).
pub fn interval(req: &Request) -> Result<Interval, ApiError> {
    interval_named(req, "timeInterval")
}

/// The interval query parameter `name` (v2's `timeInterval`, the legacy `interval`): `day`
/// when absent.
pub fn interval_named(req: &Request, name: &str) -> Result<Interval, ApiError> {
    match req.query(name) {
        None => Ok(Interval::Day),
        Some(raw) => Interval::from_name(raw).ok_or_else(|| {
            bad(ParamError::invalid(
                name,
                "one of hour, day, week, month",
                raw,
            ))
        }),
    }
}

/// `pageSize`: 1 to [`MAX_PAGE_SIZE`], [`DEFAULT_PAGE_SIZE`] when absent.
pub fn page_size(req: &Request) -> Result<usize, ApiError> {
    page_size_within(req, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
}

/// `pageSize` of the routes listing addresses (validators by date range, token holders,
/// bridged addresses): 1 to 5,000, 1,000 when absent, as the OpenAPI bounds them.
pub fn address_page_size(req: &Request) -> Result<usize, ApiError> {
    page_size_within(req, 1_000, 5_000)
}

/// `pageSize`: 1 to `max`, `default` when absent.
fn page_size_within(req: &Request, default: usize, max: usize) -> Result<usize, ApiError> {
    let Some(raw) = req.query("pageSize") else {
        return Ok(default);
    };
    match raw.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(bad(ParamError::invalid(
            "pageSize",
            format_args!("an integer from 1 to {max}"),
            raw,
        ))),
    }
}

/// The `{metric}` path segment, served at `interval`.
pub fn metric(raw: &str, interval: Interval) -> Result<Metric, ApiError> {
    let metric = Metric::from_name(raw).ok_or_else(|| {
        let names: Vec<&str> = Metric::ALL.iter().map(|m| m.name()).collect();
        bad(ParamError::invalid(
            "metric",
            format_args!("one of {}", names.join(", ")),
            raw,
        ))
    })?;
    if !metric.allows(interval) {
        let allowed: Vec<&str> = metric.intervals().map(Interval::name).collect();
        return Err(bad(ParamError::new(
            "timeInterval",
            format!(
                "{} is served at timeInterval {} only, not {}",
                metric.name(),
                allowed.join(", "),
                interval.name()
            ),
        )));
    }
    Ok(metric)
}

/// The bucket starts `[from, to]` a request's timestamps select: buckets starting from the one
/// holding `startTimestamp` up to `endTimestamp`.
pub fn range(
    interval: Interval,
    start: Option<u64>,
    end: Option<u64>,
    names: (&str, &str),
) -> Result<(u64, u64), ApiError> {
    let to = end.unwrap_or(u64::MAX);
    let start = start.unwrap_or(0);
    if start > to {
        return Err(bad(ParamError::new(
            names.0,
            format!("{} must not be after {} ({to})", names.0, names.1),
        )));
    }
    Ok((interval.start(start), to))
}
