//! Splitting a request path into percent-decoded segments, strictly: a bad escape or
//! invalid UTF-8 is an error (HTTP 400), not something passed on as-is.

use percent_encoding::percent_decode_str;
use std::borrow::Cow;

/// Segments of a decoded path, or why it does not decode.
pub type Segments<'a> = Result<Vec<Cow<'a, str>>, String>;

/// A request target decoded in one call: its path's segments, and whether its query string (if
/// any) is well formed.
pub fn decode_target<'a>(path: &'a str, query: Option<&str>) -> (Segments<'a>, Result<(), String>) {
    (decode_segments(path), query.map_or(Ok(()), check_query))
}

/// Splits `path` (which starts with `/`) on `/`, then percent-decodes each segment, so
/// an encoded `%2F` stays inside its segment and `%3A` becomes `:` before actions match.
pub fn decode_segments(path: &str) -> Result<Vec<Cow<'_, str>>, String> {
    let rest = path.strip_prefix('/').unwrap_or(path);
    rest.split('/').map(decode_segment).collect()
}

fn decode_segment(raw: &str) -> Result<Cow<'_, str>, String> {
    if !raw.contains('%') {
        return Ok(Cow::Borrowed(raw));
    }
    let bytes = raw.as_bytes();
    for (i, _) in raw.match_indices('%') {
        let valid = bytes
            .get(i + 1..i + 3)
            .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
        if !valid {
            let shown: String = raw[i..].chars().take(3).collect();
            return Err(format!(
                "Invalid percent-encoding {shown:?} in path segment {raw:?}"
            ));
        }
    }
    percent_decode_str(raw)
        .decode_utf8()
        .map_err(|_| format!("Path segment {raw:?} does not decode to valid UTF-8"))
}

/// Checks that every name and value of `query` percent-decodes to valid UTF-8 (as its path
/// does), so a handler never sees U+FFFD where the client sent bytes; bad escapes are left to
/// the lenient form decoding (`%zz` stays `%zz`).
pub fn check_query(query: &str) -> Result<(), String> {
    if !query.contains('%') {
        return Ok(());
    }
    for pair in query.split('&') {
        let name = pair.split_once('=').map_or(pair, |(n, _)| n);
        for part in [name, pair] {
            if percent_decode_str(part).decode_utf8().is_err() {
                let shown: String = name.chars().take(64).collect();
                return Err(format!(
                    "Query parameter {shown:?} does not decode to valid UTF-8"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_that_decodes_to_invalid_utf8_is_refused_naming_its_parameter() {
        assert!(check_query("a=1&b=%C3%A9&c=%zz").is_ok());
        assert_eq!(
            check_query("a=1&pageSize=%ff"),
            Err("Query parameter \"pageSize\" does not decode to valid UTF-8".to_owned())
        );
        assert_eq!(
            check_query("%fe%ff=1"),
            Err("Query parameter \"%fe%ff\" does not decode to valid UTF-8".to_owned())
        );
    }
    use proptest::prelude::*;

    #[test]
    fn encoded_slash_stays_in_its_segment() {
        assert_eq!(
            decode_segments("/v1/a%2Fb/c%3Ad").unwrap(),
            vec!["v1", "a/b", "c:d"]
        );
    }

    #[test]
    fn bad_escapes_and_utf8_are_errors() {
        assert!(decode_segments("/v1/%zz").is_err());
        assert!(decode_segments("/v1/%4").is_err());
        assert!(decode_segments("/v1/ab%").is_err());
        assert!(decode_segments("/v1/%ff%fe").is_err());
    }

    proptest! {
        #[test]
        fn encoding_then_decoding_round_trips(segs in proptest::collection::vec(".{0,12}", 1..5)) {
            let path: String = segs
                .iter()
                .map(|s| format!("/{}", percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC)))
                .collect();
            prop_assert_eq!(decode_segments(&path).unwrap(), segs);
        }
    }
}
