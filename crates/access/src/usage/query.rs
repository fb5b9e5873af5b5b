//! What an aggregation asks for: range, bucket size, grouping and filters.

use std::fmt;
use std::str::FromStr;

use crate::error::AccessError;

/// Bucket size of an aggregation. Buckets are aligned in UTC: minutes, hours and days on their
/// boundaries, weeks on Monday 00:00, months on the 1st at 00:00.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Interval {
    /// One minute.
    Minute,
    /// One hour.
    Hourly,
    /// One day (the default).
    #[default]
    Daily,
    /// One week, starting Monday.
    Weekly,
    /// One calendar month (28 to 31 days).
    Monthly,
}

impl Interval {
    /// Every interval.
    pub const ALL: [Interval; 5] = [
        Interval::Minute,
        Interval::Hourly,
        Interval::Daily,
        Interval::Weekly,
        Interval::Monthly,
    ];

    /// The Data API's name (`timeInterval`), also used as `aggregateDuration`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Interval::Minute => "minute",
            Interval::Hourly => "hourly",
            Interval::Daily => "daily",
            Interval::Weekly => "weekly",
            Interval::Monthly => "monthly",
        }
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Interval {
    type Err = AccessError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Interval::ALL
            .into_iter()
            .find(|i| i.as_str() == s)
            .ok_or_else(|| AccessError::InvalidParameter {
                name: "timeInterval",
                value: s.to_owned(),
                reason: "expected one of minute, hourly, daily, weekly, monthly".to_owned(),
            })
    }
}

/// The event field values are grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroupBy {
    /// The route template.
    RequestPath,
    /// The HTTP status.
    ResponseCode,
    /// The chain id.
    ChainId,
    /// The key id.
    ApiKeyId,
    /// `data` or `rpc`.
    RequestType,
}

impl GroupBy {
    /// Every grouping.
    pub const ALL: [GroupBy; 5] = [
        GroupBy::RequestPath,
        GroupBy::ResponseCode,
        GroupBy::ChainId,
        GroupBy::ApiKeyId,
        GroupBy::RequestType,
    ];

    /// The Data API's name (`groupBy`, and `groupedBy` in the answer).
    pub const fn as_str(self) -> &'static str {
        match self {
            GroupBy::RequestPath => "requestPath",
            GroupBy::ResponseCode => "responseCode",
            GroupBy::ChainId => "chainId",
            GroupBy::ApiKeyId => "apiKeyId",
            GroupBy::RequestType => "requestType",
        }
    }
}

impl fmt::Display for GroupBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GroupBy {
    type Err = AccessError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GroupBy::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| AccessError::InvalidParameter {
                name: "groupBy",
                value: s.to_owned(),
                reason: "expected one of requestPath, responseCode, chainId, apiKeyId, requestType"
                    .to_owned(),
            })
    }
}

/// Exact-match filters; `None` matches everything, `Some("")` matches the empty value (for
/// `api_key_id`: anonymous calls).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UsageFilters {
    /// Only this chain id.
    pub chain_id: Option<String>,
    /// Only this HTTP status (decimal; anything else is an error).
    pub response_code: Option<String>,
    /// Only `data` or only `rpc`.
    pub request_type: Option<String>,
    /// Only this key id.
    pub api_key_id: Option<String>,
    /// Only this route template.
    pub request_path: Option<String>,
}

/// An aggregation request (the Data API's `/v1/apiUsageMetrics` parameters, with times in ms).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UsageQuery {
    /// Only this organisation's events; `None` = every organisation (an admin's view).
    pub org_id: Option<String>,
    /// Range start, ms since the epoch, inclusive.
    pub start_ms: u64,
    /// Range end, ms since the epoch, exclusive.
    pub end_ms: u64,
    /// Bucket size.
    pub interval: Interval,
    /// Grouping within each bucket; `None` = one group per bucket.
    pub group_by: Option<GroupBy>,
    /// Exact-match filters.
    pub filters: UsageFilters,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_fail() {
        for i in Interval::ALL {
            assert_eq!(i.as_str().parse::<Interval>().unwrap(), i);
        }
        for g in GroupBy::ALL {
            assert_eq!(g.as_str().parse::<GroupBy>().unwrap(), g);
        }
        assert!("yearly".parse::<Interval>().is_err());
        assert!("country".parse::<GroupBy>().is_err());
    }
}
