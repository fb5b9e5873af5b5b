//! What the usage operations (`getApiUsageMetrics` and the two RPC usage metrics) share in their
//! parameters: the API key they require and the day-rounded time range.

use snowline_query::params::u64_at_least;
use snowline_rest_api::{ApiError, Caller, Request};

use crate::params::bad;

/// Seconds in a day: the range is whole UTC days.
const DAY: u64 = 86_400;

/// The caller: usage is reported per organisation, so a key is required. `reported` says what
/// is reported for the key's organisation, in the 401's message (`"usage metrics are"`).
pub(crate) fn required_caller<'r>(
    req: &'r Request,
    reported: &str,
) -> Result<&'r Caller, ApiError> {
    req.caller().ok_or_else(|| {
        ApiError::unauthorized(format!(
            "an API key is required: {reported} reported for the key's organisation (send it \
             in x-data-api-key)"
        ))
    })
}

/// The range `[start_ms, end_ms)` a request asks for: `startTimestamp` and `endTimestamp` (Unix
/// seconds) rounded down to 00:00 UTC of their day, the end day included; by default the last
/// 7 days up to and including the day of `now`.
pub(crate) fn day_range(req: &Request, now: u64) -> Result<(u64, u64), ApiError> {
    let end_day = match req.query("endTimestamp") {
        Some(raw) => u64_at_least("endTimestamp", raw, 0).map_err(bad)?,
        None => now,
    } / DAY
        * DAY;
    let start_day = match req.query("startTimestamp") {
        Some(raw) => u64_at_least("startTimestamp", raw, 0).map_err(bad)? / DAY * DAY,
        None => end_day.saturating_sub(6 * DAY),
    };
    if start_day > end_day {
        return Err(ApiError::bad_request(format!(
            "Invalid startTimestamp: the start day ({start_day}) is after the end day ({end_day})"
        )));
    }
    Ok((
        start_day.saturating_mul(1000),
        end_day.saturating_add(DAY).saturating_mul(1000),
    ))
}
