//! Half-open ranges of blocks (`startBlock`/`endBlock`) and timestamps
//! (`startTimestamp`/`endTimestamp`).

use std::ops::Bound;

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
    /// Parses `startBlock` and `endBlock` (non-negative integers); `start >= end` is an error
    /// naming both.
    pub fn parse(start: Option<&str>, end: Option<&str>) -> Result<Self, ParamError> {
        let (start, end) = parse_pair(("startBlock", start), ("endBlock", end))?;
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
        let (start, end) = parse_pair(("startTimestamp", start), ("endTimestamp", end))?;
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
}

type Named<'a> = (&'static str, Option<&'a str>);

fn parse_pair(start: Named<'_>, end: Named<'_>) -> Result<(Option<u64>, Option<u64>), ParamError> {
    let s = u64_opt(start.0, start.1, 0)?;
    let e = u64_opt(end.0, end.1, 0)?;
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
