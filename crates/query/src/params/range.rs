//! Half-open ranges of blocks (`startBlock`/`endBlock`) and timestamps
//! (`startTimestamp`/`endTimestamp`).

use std::ops::Bound;

use snowline_types::Id;

use super::SortOrder;
use super::scalar::u64_opt;
use crate::error::ParamError;

/// `[start, end)` over block heights: `startBlock` inclusive, `endBlock` exclusive. With only
/// `startBlock` the range runs to the latest block; with only `endBlock` it starts at genesis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BlockRange {
    /// First height included, if bounded.
    pub start: Option<u64>,
    /// First height excluded, if bounded.
    pub end: Option<u64>,
}

/// `[start, end)` over unix timestamps (`startTimestamp` inclusive, `endTimestamp` exclusive);
/// either side may be open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TimeRange {
    /// First timestamp included, if bounded.
    pub start: Option<u64>,
    /// First timestamp excluded, if bounded.
    pub end: Option<u64>,
}

impl BlockRange {
    /// Parses `startBlock` and `endBlock` ([`block_bound`]: any number >= 0); `start >= end` is
    /// an error naming both.
    pub fn parse(start: Option<&str>, end: Option<&str>) -> Result<Self, ParamError> {
        let s = block_bound("startBlock", start)?;
        let e = block_bound("endBlock", end)?;
        let (start, end) = ordered(("startBlock", s), ("endBlock", e))?;
        Ok(BlockRange { start, end })
    }

    /// Whether `height` lies in the range.
    pub fn contains(&self, height: u64) -> bool {
        contains(self.start, self.end, height)
    }

    /// The range as bounds, for `BTreeMap::range` and store scans.
    pub fn bounds(&self) -> (Bound<u64>, Bound<u64>) {
        bounds(self.start, self.end)
    }
}

impl TimeRange {
    /// Parses `startTimestamp` and `endTimestamp`; `start >= end` is an error naming both.
    pub fn parse(start: Option<&str>, end: Option<&str>) -> Result<Self, ParamError> {
        let s = u64_opt("startTimestamp", start, 0)?;
        let e = u64_opt("endTimestamp", end, 0)?;
        let (start, end) = ordered(("startTimestamp", s), ("endTimestamp", e))?;
        Ok(TimeRange { start, end })
    }

    /// Whether `ts` lies in the range.
    pub fn contains(&self, ts: u64) -> bool {
        contains(self.start, self.end, ts)
    }

    /// The range as bounds, for `BTreeMap::range` and store scans.
    pub fn bounds(&self) -> (Bound<u64>, Bound<u64>) {
        bounds(self.start, self.end)
    }

    /// Where a keyset scan of `(timestamp, id)` positions in `sort` order resumes, strictly
    /// past the result: past `from` (a page token's position) or just outside the range's
    /// near edge, whichever is further along.
    pub fn scan_start(&self, sort: SortOrder, from: Option<(u64, Id)>) -> Option<(u64, Id)> {
        let edge = match sort {
            SortOrder::Desc => self.end.map(|e| (e, Id::EMPTY)),
            SortOrder::Asc => self
                .start
                .and_then(|s| s.checked_sub(1))
                .map(|s| (s, Id([0xff; 32]))),
        };
        match (from, edge) {
            (Some(f), Some(e)) => Some(match sort {
                SortOrder::Desc => f.min(e),
                SortOrder::Asc => f.max(e),
            }),
            (f, e) => f.or(e),
        }
    }

    /// Whether a scan in `sort` order at timestamp `ts` has left the range for good.
    pub fn passed(&self, sort: SortOrder, ts: u64) -> bool {
        match sort {
            SortOrder::Desc => self.start.is_some_and(|s| ts < s),
            SortOrder::Asc => self.end.is_some_and(|e| ts >= e),
        }
    }
}

/// One end of a block range. The OpenAPI types `startBlock` and `endBlock` as `number`, not
/// `integer` (and the SDK sends whatever number it is given), so a fraction or an exponent
/// (`2.5`, `0.0`, `1e3`) is accepted, rounded up: heights are whole, and a height `h` is at or
/// after `startBlock` `x`, or before `endBlock` `x`, exactly when it is at or after, or before,
/// `ceil(x)`. A value above every height saturates at `u64::MAX`. Anything that is not a number
/// >= 0 is a 400.
fn block_bound(param: &'static str, raw: Option<&str>) -> Result<Option<u64>, ParamError> {
    let Some(raw) = raw else {
        return Ok(None);
    };
    // Whole numbers exactly, also beyond f64's 53-bit precision.
    if !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(n) = raw.parse::<u64>() {
            return Ok(Some(n));
        }
    }
    match raw.parse::<f64>() {
        // `as` saturates: a value above u64::MAX becomes u64::MAX.
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(Some(x.ceil() as u64)),
        _ => Err(ParamError::invalid(
            param,
            "must be a block number (a number >= 0)",
            raw,
        )),
    }
}

type Named = (&'static str, Option<u64>);

/// The two ends, unless both are given and the start is not before the end.
fn ordered(start: Named, end: Named) -> Result<(Option<u64>, Option<u64>), ParamError> {
    let (s, e) = (start.1, end.1);
    if let (Some(s), Some(e)) = (s, e) {
        if s >= e {
            return Err(ParamError::new(
                start.0,
                format!("{} ({s}) must be less than {} ({e})", start.0, end.0),
            ));
        }
    }
    Ok((s, e))
}

fn contains(start: Option<u64>, end: Option<u64>, x: u64) -> bool {
    start.is_none_or(|s| x >= s) && end.is_none_or(|e| x < e)
}

fn bounds(start: Option<u64>, end: Option<u64>) -> (Bound<u64>, Bound<u64>) {
    (
        start.map_or(Bound::Unbounded, Bound::Included),
        end.map_or(Bound::Unbounded, Bound::Excluded),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn open_and_closed_ends() {
        assert_eq!(BlockRange::parse(None, None), Ok(BlockRange::default()));
        let r = BlockRange::parse(Some("5"), None).unwrap();
        assert!(r.contains(5) && r.contains(u64::MAX) && !r.contains(4));
        let r = BlockRange::parse(None, Some("5")).unwrap();
        assert!(r.contains(0) && r.contains(4) && !r.contains(5));
        let r = TimeRange::parse(Some("10"), Some("12")).unwrap();
        assert!(!r.contains(9) && r.contains(10) && r.contains(11) && !r.contains(12));
    }

    #[test]
    fn a_time_scan_starts_at_the_near_edge_or_past_the_token_and_ends_past_the_far_edge() {
        let r = TimeRange::parse(Some("10"), Some("20")).unwrap();
        let (a, b) = (Id([1; 32]), Id([2; 32]));
        // Descending: from the end (exclusive), or the token when it is further down.
        assert_eq!(r.scan_start(SortOrder::Desc, None), Some((20, Id::EMPTY)));
        assert_eq!(r.scan_start(SortOrder::Desc, Some((15, a))), Some((15, a)));
        assert_eq!(
            r.scan_start(SortOrder::Desc, Some((25, a))),
            Some((20, Id::EMPTY))
        );
        // Ascending: just before the start, or the token when it is further up.
        assert_eq!(
            r.scan_start(SortOrder::Asc, None),
            Some((9, Id([0xff; 32])))
        );
        assert_eq!(r.scan_start(SortOrder::Asc, Some((12, b))), Some((12, b)));
        assert_eq!(
            r.scan_start(SortOrder::Asc, Some((3, b))),
            Some((9, Id([0xff; 32])))
        );
        let open = TimeRange::default();
        assert_eq!(open.scan_start(SortOrder::Asc, None), None);
        assert_eq!(open.scan_start(SortOrder::Desc, Some((7, a))), Some((7, a)));
        assert!(r.passed(SortOrder::Desc, 9) && !r.passed(SortOrder::Desc, 10));
        assert!(r.passed(SortOrder::Asc, 20) && !r.passed(SortOrder::Asc, 19));
        assert!(!open.passed(SortOrder::Asc, u64::MAX) && !open.passed(SortOrder::Desc, 0));
    }

    #[test]
    fn start_not_before_end_names_both() {
        let err = BlockRange::parse(Some("7"), Some("7")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Invalid startBlock: startBlock (7) must be less than endBlock (7)"
        );
        let err = TimeRange::parse(Some("9"), Some("3")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Invalid startTimestamp: startTimestamp (9) must be less than endTimestamp (3)"
        );
        assert_eq!(
            BlockRange::parse(Some("-1"), None).unwrap_err().param,
            "startBlock"
        );
        assert_eq!(
            TimeRange::parse(None, Some("1.5")).unwrap_err().param,
            "endTimestamp"
        );
    }

    #[test]
    fn block_bounds_take_any_number_at_least_zero_rounded_up() {
        // Regression: the OpenAPI (`listTransfers`, `listInternalTransactions`) types startBlock
        // and endBlock as `number`; schemathesis sent `startBlock=0.0` and
        // `endBlock=0.000685834614974512`, which were refused with 400 ("must be an integer").
        let cases: [(&str, u64); 9] = [
            ("0", 0),
            ("0.0", 0),
            ("-0", 0),
            ("7", 7),
            ("2.5", 3),
            ("0.000685834614974512", 1),
            ("1e3", 1000),
            ("18446744073709551615", u64::MAX),
            ("1e30", u64::MAX),
        ];
        for (raw, want) in cases {
            assert_eq!(
                BlockRange::parse(Some(raw), None).map(|r| r.start),
                Ok(Some(want)),
                "{raw}"
            );
            assert_eq!(
                BlockRange::parse(None, Some(raw)).map(|r| r.end),
                Ok(Some(want)),
                "{raw}"
            );
        }
        // [2.5, 7.5) holds the heights 3..=7, as [3, 8) does.
        let r = BlockRange::parse(Some("2.5"), Some("7.5")).unwrap();
        assert_eq!(
            (2..10).filter(|h| r.contains(*h)).collect::<Vec<_>>(),
            [3, 4, 5, 6, 7]
        );
        // Whole numbers are exact beyond f64's precision.
        let big = (1u64 << 60) + 1;
        assert_eq!(
            BlockRange::parse(Some(&big.to_string()), None)
                .unwrap()
                .start,
            Some(big)
        );
        for bad in [
            "-1", "-0.5", "", "abc", "NaN", "inf", "1,5", "0x10", "null", "true",
        ] {
            let err = BlockRange::parse(Some(bad), None).unwrap_err();
            assert_eq!(err.param, "startBlock", "{bad:?}");
            let err = BlockRange::parse(None, Some(bad)).unwrap_err();
            assert_eq!(err.param, "endBlock", "{bad:?}");
        }
        // Timestamps stay integers (`integer` in the OpenAPI).
        assert!(TimeRange::parse(Some("2.5"), None).is_err());
    }

    proptest! {
        #[test]
        fn contains_agrees_with_bounds(s in proptest::option::of(0u64..50), e in proptest::option::of(0u64..50), x in 0u64..60) {
            let (ss, es) = (s.map(|v| v.to_string()), e.map(|v| v.to_string()));
            match BlockRange::parse(ss.as_deref(), es.as_deref()) {
                Ok(r) => {
                    prop_assert_eq!(r.contains(x), std::ops::RangeBounds::contains(&r.bounds(), &x));
                    prop_assert!(!matches!((s, e), (Some(s), Some(e)) if s >= e));
                }
                Err(_) => prop_assert!(matches!((s, e), (Some(s), Some(e)) if s >= e)),
            }
        }
    }
}
