//! UTC calendar arithmetic for buckets: where a bucket starts and how long it lasts. Days are
//! converted with `snowline_types::time` (proleptic Gregorian, exact for every `i64` second in
//! range).

use super::query::Interval;

const MINUTE: i64 = 60;
const HOUR: i64 = 3_600;
const DAY: i64 = 86_400;

pub use snowline_types::time::{civil_from_days, days_from_civil};

/// Start (Unix seconds) of the bucket holding `ts_ms`; negative for the week of 1970-01-01, which
/// began on Monday 1969-12-29.
pub fn bucket_start(ts_ms: u64, interval: Interval) -> i64 {
    // u64 ms / 1000 fits in i64.
    let secs = i64::try_from(ts_ms / 1000).unwrap_or(i64::MAX);
    let days = secs.div_euclid(DAY);
    match interval {
        Interval::Minute => secs - secs.rem_euclid(MINUTE),
        Interval::Hourly => secs - secs.rem_euclid(HOUR),
        Interval::Daily => days * DAY,
        // 1970-01-01 was a Thursday: weekday index with Monday = 0 is (days + 3) mod 7.
        Interval::Weekly => (days - (days + 3).rem_euclid(7)) * DAY,
        Interval::Monthly => {
            let (y, m, _) = civil_from_days(days);
            days_from_civil(y, m, 1) * DAY
        }
    }
}

/// Length in seconds of the bucket starting at `start` (from [`bucket_start`]).
pub fn bucket_len(start: i64, interval: Interval) -> i64 {
    match interval {
        Interval::Minute => MINUTE,
        Interval::Hourly => HOUR,
        Interval::Daily => DAY,
        Interval::Weekly => 7 * DAY,
        Interval::Monthly => {
            let (y, m, _) = civil_from_days(start.div_euclid(DAY));
            let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            (days_from_civil(ny, nm, 1) - days_from_civil(y, m, 1)) * DAY
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// 2024-01-01T00:00:00Z (a Monday), from `date -u -d 2024-01-01 +%s`.
    const JAN_1_2024: i64 = 1_704_067_200;

    fn ms(secs: i64) -> u64 {
        u64::try_from(secs).unwrap() * 1000
    }

    #[test]
    fn civil_dates_match_known_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2024, 1, 1) * DAY, JAN_1_2024);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn buckets_cut_on_their_edges() {
        let t = JAN_1_2024;
        // Last second of 2023 and first of 2024: Dec -> Jan.
        assert_eq!(
            bucket_start(ms(t - 1) + 999, Interval::Monthly),
            days_from_civil(2023, 12, 1) * DAY
        );
        assert_eq!(bucket_start(ms(t), Interval::Monthly), t);
        assert_eq!(bucket_start(ms(t - 1), Interval::Daily), t - DAY);
        assert_eq!(bucket_start(ms(t - 1), Interval::Hourly), t - HOUR);
        assert_eq!(bucket_start(ms(t - 1), Interval::Minute), t - MINUTE);
        assert_eq!(bucket_start(ms(t + 59) + 999, Interval::Minute), t);
        // 2024-01-01 is a Monday: Sunday 2023-12-31 belongs to the week of Monday 12-25.
        assert_eq!(bucket_start(ms(t), Interval::Weekly), t);
        assert_eq!(bucket_start(ms(t - 1), Interval::Weekly), t - 7 * DAY);
        assert_eq!(bucket_start(ms(t + 7 * DAY - 1), Interval::Weekly), t);
        // Thursday 1970-01-01 is in the week of Monday 1969-12-29.
        assert_eq!(bucket_start(0, Interval::Weekly), -3 * DAY);
    }

    #[test]
    fn months_have_their_calendar_length() {
        let feb_2024 = days_from_civil(2024, 2, 1) * DAY;
        assert_eq!(bucket_len(feb_2024, Interval::Monthly), 29 * DAY);
        assert_eq!(
            bucket_len(days_from_civil(2023, 2, 1) * DAY, Interval::Monthly),
            28 * DAY
        );
        assert_eq!(
            bucket_len(days_from_civil(2023, 12, 1) * DAY, Interval::Monthly),
            31 * DAY
        );
        assert_eq!(
            bucket_len(days_from_civil(2024, 4, 1) * DAY, Interval::Monthly),
            30 * DAY
        );
    }

    proptest! {
        #[test]
        fn every_instant_lies_in_an_aligned_bucket(ts_ms in 0u64..8_000_000_000_000, i in 0usize..5) {
            let interval = Interval::ALL[i];
            let start = bucket_start(ts_ms, interval);
            let len = bucket_len(start, interval);
            let secs = i64::try_from(ts_ms / 1000).unwrap();
            prop_assert!(start <= secs && secs < start + len);
            // Both edges are bucket starts themselves.
            let next = start + len;
            prop_assert_eq!(bucket_start(ms(next), interval), next);
            if start >= 0 {
                prop_assert_eq!(bucket_start(ms(start), interval), start);
            }
            match interval {
                Interval::Weekly => prop_assert_eq!((start / DAY + 3).rem_euclid(7), 0),
                Interval::Monthly => prop_assert_eq!(civil_from_days(start / DAY).2, 1),
                _ => {}
            }
        }

        #[test]
        fn civil_conversion_round_trips(days in -1_000_000i64..1_000_000) {
            let (y, m, d) = civil_from_days(days);
            prop_assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
