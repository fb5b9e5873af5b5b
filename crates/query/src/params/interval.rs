//! Bucket arithmetic of [`TimeInterval`]: UTC minutes, hours, days, weeks starting Monday
//! 00:00, and calendar months. Timestamps are unix seconds.

use super::enums::TimeInterval;

const MINUTE: u64 = 60;
const HOUR: u64 = 3_600;
const DAY: u64 = 86_400;
const WEEK: u64 = 7 * DAY;
/// 1970-01-01 was a Thursday: day 0 is three days after a Monday.
const EPOCH_DAYS_AFTER_MONDAY: u64 = 3;
/// Seconds from the Monday before the epoch to the epoch.
const MONDAY_SHIFT: u64 = EPOCH_DAYS_AFTER_MONDAY * DAY;

impl TimeInterval {
    /// The bucket length in seconds, or `None` for months (28–31 days).
    pub const fn fixed_seconds(self) -> Option<u64> {
        match self {
            TimeInterval::Minute => Some(MINUTE),
            TimeInterval::Hourly => Some(HOUR),
            TimeInterval::Daily => Some(DAY),
            TimeInterval::Weekly => Some(WEEK),
            TimeInterval::Monthly => None,
        }
    }

    /// The start of the bucket holding `ts`. The week holding the first days of 1970 began
    /// before the epoch; its start is clamped to 0.
    pub fn bucket_start(self, ts: u64) -> u64 {
        match self {
            TimeInterval::Minute | TimeInterval::Hourly | TimeInterval::Daily => {
                let len = self.fixed_seconds().unwrap_or(DAY);
                ts - ts % len
            }
            TimeInterval::Weekly => {
                let start = monday_on_or_before(ts).saturating_sub(u128::from(MONDAY_SHIFT));
                u64::try_from(start).unwrap_or(u64::MAX)
            }
            TimeInterval::Monthly => {
                let (y, m, _) = civil_from_days(days_of(ts));
                seconds_of(days_from_civil(y, m, 1))
            }
        }
    }

    /// The start of the bucket after the one holding `ts` (the end, exclusive, of `ts`'s bucket);
    /// `u64::MAX` when that lies beyond the representable range.
    pub fn next_bucket(self, ts: u64) -> u64 {
        match self {
            TimeInterval::Minute | TimeInterval::Hourly | TimeInterval::Daily => {
                let len = self.fixed_seconds().unwrap_or(DAY);
                (ts - ts % len).saturating_add(len)
            }
            TimeInterval::Weekly => {
                let next = monday_on_or_before(ts) + u128::from(WEEK - MONDAY_SHIFT);
                u64::try_from(next).unwrap_or(u64::MAX)
            }
            TimeInterval::Monthly => {
                let (y, m, _) = civil_from_days(days_of(ts));
                let (y, m) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
                seconds_of(days_from_civil(y, m, 1))
            }
        }
    }
}

/// `ts + MONDAY_SHIFT` rounded down to a whole week: the Monday 00:00 on or before `ts`, plus
/// [`MONDAY_SHIFT`]. Computed in u128 so that no timestamp overflows.
fn monday_on_or_before(ts: u64) -> u128 {
    let shifted = u128::from(ts) + u128::from(MONDAY_SHIFT);
    shifted - shifted % u128::from(WEEK)
}

/// Whole days since the epoch (fits an i64 for every u64 timestamp).
fn days_of(ts: u64) -> i64 {
    i64::try_from(ts / DAY).unwrap_or(i64::MAX)
}

/// Seconds at the start of `days` since the epoch, clamped to the u64 range.
fn seconds_of(days: i64) -> u64 {
    u64::try_from(days).map_or(0, |d| d.saturating_mul(DAY))
}

/// (year, month 1–12, day 1–31) of a day count since 1970-01-01, proleptic Gregorian
/// (H. Hinnant, "chrono-compatible low-level date algorithms", `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Calendar vectors computed with Python's calendar.timegm.
    #[test]
    fn monthly_follows_the_calendar_with_leap_years() {
        let m = TimeInterval::Monthly;
        // 2024-02-29 12:00 -> 2024-02-01, next 2024-03-01.
        assert_eq!(m.bucket_start(1_709_208_000), 1_706_745_600);
        assert_eq!(m.next_bucket(1_709_208_000), 1_709_251_200);
        // 2023-12-31 23:59:59 -> 2023-12-01, next 2024-01-01.
        assert_eq!(m.bucket_start(1_704_067_199), 1_701_388_800);
        assert_eq!(m.next_bucket(1_704_067_199), 1_704_067_200);
        // 2000-02-29 (a leap day of a century year) -> next 2000-03-01.
        assert_eq!(m.next_bucket(951_782_400), 951_868_800);
        assert_eq!(m.bucket_start(0), 0);
    }

    #[test]
    fn weekly_starts_monday() {
        let w = TimeInterval::Weekly;
        // Wednesday 2024-01-03 05:06:07 -> Monday 2024-01-01, next Monday 2024-01-08.
        assert_eq!(w.bucket_start(1_704_258_367), 1_704_067_200);
        assert_eq!(w.next_bucket(1_704_258_367), 1_704_672_000);
        // The first days of 1970: the week began before the epoch; the next one is Jan 5.
        assert_eq!(w.bucket_start(0), 0);
        assert_eq!(w.next_bucket(0), 345_600);
        assert_eq!(w.bucket_start(345_600), 345_600);
    }

    #[test]
    fn the_far_future_saturates() {
        for i in TimeInterval::ALL {
            let start = i.bucket_start(u64::MAX);
            assert!(u64::MAX - start < 31 * DAY, "{i}: {start}");
            assert_eq!(i.bucket_start(start), start);
            assert_eq!(i.next_bucket(u64::MAX), u64::MAX);
        }
    }

    proptest! {
        #[test]
        fn buckets_contain_their_timestamp_and_tile_time(ts in 0u64..=10_000_000_000_000, which in 0usize..5) {
            let i = TimeInterval::ALL[which];
            let start = i.bucket_start(ts);
            let next = i.next_bucket(ts);
            prop_assert!(start <= ts && ts < next);
            prop_assert_eq!(i.bucket_start(next), next);
            prop_assert_eq!(i.bucket_start(next - 1), start);
            if let Some(len) = i.fixed_seconds() {
                if start > 0 { prop_assert_eq!(next - start, len); }
            } else {
                prop_assert!((28 * DAY..=31 * DAY).contains(&(next - start)));
            }
            if i == TimeInterval::Weekly && start > 0 {
                prop_assert_eq!((start / DAY + EPOCH_DAYS_AFTER_MONDAY) % 7, 0);
            }
        }

        #[test]
        fn civil_dates_round_trip(days in -1_000_000i64..100_000_000) {
            let (y, m, d) = civil_from_days(days);
            prop_assert!((1..=12).contains(&m) && (1..=31).contains(&d));
            prop_assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
