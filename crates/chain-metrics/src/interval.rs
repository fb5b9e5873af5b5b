//! The four bucket sizes (`timeInterval`): an hour, a UTC day, a week starting Monday 0:00 UTC,
//! a calendar month; each bucket is named by the Unix second it starts at.

use snowline_types::time::{civil_from_days, days_from_civil};

const HOUR: u64 = 3_600;
const DAY: u64 = 86_400;

/// A bucket size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Interval {
    /// One hour.
    Hour,
    /// One UTC day.
    Day,
    /// Monday 0:00 UTC to the next.
    Week,
    /// The 1st 0:00 UTC to the next month's.
    Month,
}

impl Interval {
    /// Every interval, smallest first.
    pub const ALL: [Interval; 4] = [Self::Hour, Self::Day, Self::Week, Self::Month];

    /// The code in table keys.
    pub fn code(self) -> u8 {
        match self {
            Self::Hour => 0,
            Self::Day => 1,
            Self::Week => 2,
            Self::Month => 3,
        }
    }

    /// The `timeInterval` name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Hour => "hour",
            Self::Day => "day",
            Self::Week => "week",
            Self::Month => "month",
        }
    }

    /// The interval a `timeInterval` value names.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|i| i.name() == name)
    }

    /// The start of the bucket holding `ts`.
    pub fn start(self, ts: u64) -> u64 {
        match self {
            Self::Hour => ts - ts % HOUR,
            Self::Day => ts - ts % DAY,
            Self::Week => {
                // 1970-01-01 was a Thursday: day d is (d + 3) % 7 days after a Monday.
                let d = ts / DAY;
                d.saturating_sub((d + 3) % 7) * DAY
            }
            Self::Month => {
                let (y, m, _) = civil_from_days(days(ts));
                secs(days_from_civil(y, m, 1))
            }
        }
    }

    /// The start of the bucket after the one starting at `start`.
    pub fn next(self, start: u64) -> u64 {
        match self {
            Self::Hour => start.saturating_add(HOUR),
            Self::Day => start.saturating_add(DAY),
            Self::Week => start.saturating_add(7 * DAY),
            Self::Month => {
                let (y, m, _) = civil_from_days(days(start));
                let (y, m) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
                secs(days_from_civil(y, m, 1))
            }
        }
    }
}

fn days(ts: u64) -> i64 {
    i64::try_from(ts / DAY).unwrap_or(i64::MAX)
}

fn secs(days: i64) -> u64 {
    u64::try_from(days).unwrap_or(0).saturating_mul(DAY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_dates() {
        // 2023-11-14 22:13:20 UTC, a Tuesday.
        let ts = 1_700_000_000;
        assert_eq!(Interval::Hour.start(ts), 1_699_999_200);
        assert_eq!(Interval::Day.start(ts), 1_699_920_000);
        // Monday 2023-11-13.
        assert_eq!(Interval::Week.start(ts), 1_699_833_600);
        // 2023-11-01 and 2023-12-01.
        assert_eq!(Interval::Month.start(ts), 1_698_796_800);
        assert_eq!(Interval::Month.next(1_698_796_800), 1_701_388_800);
        // 2024-02-01 to 2024-03-01: a leap February.
        assert_eq!(
            Interval::Month.next(1_706_745_600) - 1_706_745_600,
            29 * DAY
        );
    }

    proptest! {
        /// Every timestamp lies in its bucket, and buckets tile time.
        #[test]
        fn buckets_tile(ts in 345_600u64..4_000_000_000, i in 0usize..4) {
            let interval = Interval::ALL[i];
            let start = interval.start(ts);
            let next = interval.next(start);
            prop_assert!(start <= ts && ts < next);
            prop_assert_eq!(interval.start(next), next);
            prop_assert_eq!(interval.start(next - 1), start);
        }
    }
}
