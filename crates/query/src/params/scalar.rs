//! Scalars: `pageSize`, booleans, non-negative integers, required parameters.

use crate::error::ParamError;

/// The `pageSize` when none is given.
pub const DEFAULT_PAGE_SIZE: u32 = 10;

/// The value of a required parameter, or an error naming it.
pub fn required<'a>(param: &str, raw: Option<&'a str>) -> Result<&'a str, ParamError> {
    raw.ok_or_else(|| ParamError::missing(param))
}

/// `pageSize`: an integer in `1..=max`, [`DEFAULT_PAGE_SIZE`] (or `max` if smaller) when absent.
pub fn page_size(raw: Option<&str>, max: u32) -> Result<u32, ParamError> {
    let Some(raw) = raw else {
        return Ok(DEFAULT_PAGE_SIZE.min(max.max(1)));
    };
    let expected = || format!("must be an integer between 1 and {max}");
    match parse_digits(raw) {
        Some(n) if (1..=u64::from(max)).contains(&n) => Ok(u32::try_from(n).unwrap_or(max)),
        _ => Err(ParamError::invalid("pageSize", expected(), raw)),
    }
}

/// A boolean: exactly `true` or `false`.
pub fn boolean(param: &str, raw: &str) -> Result<bool, ParamError> {
    match raw {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ParamError::invalid(param, "must be true or false", raw)),
    }
}

/// An optional boolean with its default.
pub fn boolean_or(param: &str, raw: Option<&str>, default: bool) -> Result<bool, ParamError> {
    raw.map_or(Ok(default), |r| boolean(param, r))
}

/// A non-negative decimal integer of at least `min`: ASCII digits only, so negatives, fractions,
/// exponents, spaces, the empty string and values above `u64::MAX` are rejected.
pub fn u64_at_least(param: &str, raw: &str, min: u64) -> Result<u64, ParamError> {
    match parse_digits(raw) {
        Some(n) if n >= min => Ok(n),
        _ if min == 0 => Err(ParamError::invalid(
            param,
            format!("must be an integer between 0 and {}", u64::MAX),
            raw,
        )),
        _ => Err(ParamError::invalid(
            param,
            format!("must be an integer between {min} and {}", u64::MAX),
            raw,
        )),
    }
}

/// An optional [`u64_at_least`].
pub fn u64_opt(param: &str, raw: Option<&str>, min: u64) -> Result<Option<u64>, ParamError> {
    raw.map(|r| u64_at_least(param, r, min)).transpose()
}

/// ASCII decimal digits as a u64; `None` when empty, not all digits, or too large.
fn parse_digits(raw: &str) -> Option<u64> {
    if raw.is_empty() || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    raw.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn page_size_bounds_default_and_message() {
        assert_eq!(page_size(None, 100), Ok(10));
        assert_eq!(page_size(None, 5), Ok(5));
        assert_eq!(page_size(Some("1"), 100), Ok(1));
        assert_eq!(page_size(Some("100"), 100), Ok(100));
        assert_eq!(page_size(Some("500"), 500), Ok(500));
        for bad in [
            "0",
            "101",
            "-1",
            "1.5",
            "",
            " 5",
            "abc",
            "99999999999999999999999",
        ] {
            assert!(page_size(Some(bad), 100).is_err(), "{bad:?} accepted");
        }
        assert_eq!(
            page_size(Some("abc"), 100).unwrap_err().to_string(),
            r#"Invalid pageSize: must be an integer between 1 and 100, got "abc""#
        );
    }

    #[test]
    fn long_values_are_echoed_truncated() {
        let long = "x".repeat(500);
        let msg = page_size(Some(&long), 100).unwrap_err().to_string();
        assert!(msg.len() < 180, "{msg}");
        assert!(msg.ends_with("… (500 characters)"), "{msg}");
        // Control characters are escaped, not echoed raw.
        let msg = page_size(Some("1\n2"), 100).unwrap_err().to_string();
        assert!(msg.contains(r#""1\n2""#), "{msg}");
    }

    #[test]
    fn booleans_are_exact() {
        assert_eq!(boolean("includeSpent", "true"), Ok(true));
        assert_eq!(boolean("includeSpent", "false"), Ok(false));
        for bad in ["True", "1", "yes", ""] {
            let err = boolean("includeSpent", bad).unwrap_err();
            assert_eq!(err.param, "includeSpent");
        }
        assert_eq!(boolean_or("x", None, true), Ok(true));
    }

    #[test]
    fn integers_reject_signs_fractions_overflow_and_empty() {
        assert_eq!(u64_at_least("vertexHeight", "0", 0), Ok(0));
        assert_eq!(
            u64_at_least("vertexHeight", &u64::MAX.to_string(), 0),
            Ok(u64::MAX)
        );
        for bad in ["-1", "+1", "1.0", "1e3", "", "18446744073709551616", "0x10"] {
            let err = u64_at_least("vertexHeight", bad, 0).unwrap_err();
            assert!(
                err.to_string()
                    .starts_with("Invalid vertexHeight: must be an integer"),
                "{err}"
            );
        }
        assert!(u64_at_least("n", "4", 5).is_err());
        assert_eq!(u64_opt("n", None, 0), Ok(None));
        assert_eq!(
            required("addresses", None).unwrap_err().to_string(),
            "Invalid addresses: is required"
        );
    }

    proptest! {
        #[test]
        fn every_u64_round_trips(n in any::<u64>()) {
            prop_assert_eq!(u64_at_least("n", &n.to_string(), 0), Ok(n));
        }

        #[test]
        fn page_size_accepts_exactly_the_range(n in 0u64..1000, max in 1u32..600) {
            let got = page_size(Some(&n.to_string()), max);
            prop_assert_eq!(got.is_ok(), n >= 1 && n <= u64::from(max));
        }
    }
}
