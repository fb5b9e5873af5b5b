//! UTC civil-date arithmetic (proleptic Gregorian), shared by the RFC 3339 timestamps of the
//! container index and the calendar buckets of usage metrics. Howard Hinnant's
//! `days_from_civil` / `civil_from_days` ("chrono-compatible low-level date algorithms"): exact
//! for every day count that fits in `i64` arithmetic here. Also the Unix seconds of a container's
//! nanosecond acceptance time, as the chains' indexes date their rows.

/// Days since 1970-01-01 of the date `y-m-d` (`m` in 1..=12, `d` in 1..=31).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Whether `y` is a leap year in the proleptic Gregorian calendar.
pub fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

/// Days in month `m` (1..=12) of year `y`.
pub fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The date `(year, month 1..=12, day 1..=31)` of a day count since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    // m is 1..=12 and d is 1..=31 by construction.
    (
        y,
        u32::try_from(m).unwrap_or(1),
        u32::try_from(d).unwrap_or(1),
    )
}

/// Unix seconds of a timestamp in nanoseconds (an index container's acceptance time); times
/// before 1970 become 0.
pub fn unix_seconds(ns: i64) -> u64 {
    u64::try_from(ns.div_euclid(1_000_000_000)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn leap_years_follow_the_gregorian_rule() {
        assert!(is_leap(2024) && is_leap(2000) && !is_leap(1900) && !is_leap(2023));
        assert_eq!(days_in_month(2024, 2), 29);
        assert_eq!(days_in_month(1900, 2), 28);
        assert_eq!(days_in_month(2023, 4), 30);
        assert_eq!(days_in_month(2023, 12), 31);
    }

    #[test]
    fn known_dates() {
        // 1599696000 (avalanchego genesis startTime) is 2020-09-10.
        assert_eq!(civil_from_days(1_599_696_000 / 86_400), (2020, 9, 10));
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
    }

    proptest! {
        #[test]
        fn the_two_are_inverse(days in -1_000_000i64..10_000_000) {
            let (y, m, d) = civil_from_days(days);
            // Every civil date is a real day of its month.
            prop_assert!(i64::from(d) <= days_in_month(y, i64::from(m)));
            prop_assert!((1..=12).contains(&m) && (1..=31).contains(&d));
            prop_assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
