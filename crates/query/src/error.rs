//! The crate's errors: [`QueryError`] wraps the three specific kinds a caller meets —
//! [`TokenError`] (a `pageToken` that is not accepted), [`ParamError`] (a bad query or path
//! parameter) and [`PositionError`] (a keyset position that does not decode). Every one of them
//! is the client's fault and maps to HTTP 400 at the REST edge, except [`QueryError::Random`].

use std::fmt;

/// The longest prefix of a rejected value echoed back in a [`ParamError`], in characters.
pub const MAX_ECHO_CHARS: usize = 64;

/// Any error of this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// The operating system's random source failed while generating a [`crate::TokenSecret`].
    #[error("could not generate a page-token secret: {0}")]
    Random(String),
    /// A page-token secret given as hex is not 64 hex digits.
    #[error("page-token secret must be 64 hex digits (32 bytes), got {len} characters{detail}")]
    SecretHex {
        /// Characters given.
        len: usize,
        /// What else is wrong (a non-hex character), or empty.
        detail: String,
    },
    /// A page token was rejected.
    #[error(transparent)]
    Token(#[from] TokenError),
    /// A request parameter was rejected.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A keyset position did not decode.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Why a `pageToken` was rejected. All variants are the client's fault (HTTP 400).
///
/// A forged or altered token and a token issued for other filters give the same
/// [`TokenError::Invalid`], so the error does not tell an attacker which check failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Not URL-safe unpadded base64, or too short or too long to be a token.
    #[error("pageToken is malformed: {0}")]
    Malformed(&'static str),
    /// The first byte names a token format this server does not know.
    #[error("pageToken has an unknown version {0}")]
    UnknownVersion(u8),
    /// The signature does not match: altered, forged, from another server, or issued for another
    /// endpoint, other filters or another sort order.
    #[error("pageToken is not valid for this query")]
    Invalid,
    /// The token carried an expiry that has passed.
    #[error("pageToken expired at {expired_at} (unix seconds); request the first page again")]
    Expired {
        /// The expiry the token carried, unix seconds.
        expired_at: u64,
    },
}

/// A rejected request parameter: which one, and what is wrong with it. Displays as
/// `Invalid pageSize: must be an integer between 1 and 100, got "abc"`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Invalid {param}: {message}")]
pub struct ParamError {
    /// The parameter's wire name (`pageSize`, `addresses`, …).
    pub param: String,
    /// What is allowed and what was given.
    pub message: String,
}

impl ParamError {
    /// An error with a free-form message.
    pub fn new(param: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            param: param.into(),
            message: message.into(),
        }
    }

    /// `<expected>, got "<raw>"`, the value echoed truncated to [`MAX_ECHO_CHARS`].
    pub fn invalid(param: impl Into<String>, expected: impl fmt::Display, raw: &str) -> Self {
        Self::new(param, format!("{expected}, got {}", echo(raw)))
    }

    /// A required parameter that was not given.
    pub fn missing(param: impl Into<String>) -> Self {
        Self::new(param, "is required")
    }
}

/// `raw` quoted and escaped for an error message; a value over [`MAX_ECHO_CHARS`] characters is
/// cut to them and followed by `…` and its total length (`"aaaa…"… (20000 characters)`), so a
/// rejected value of any size gives a message of bounded size.
pub(crate) fn echo(raw: &str) -> String {
    match raw.char_indices().nth(MAX_ECHO_CHARS) {
        Some((cut, _)) => format!(
            "{:?}… ({} characters)",
            raw.get(..cut).unwrap_or_default(),
            raw.chars().count()
        ),
        None => format!("{raw:?}"),
    }
}

/// A keyset position shorter than what its reader expected, or with bytes left over.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A field needed more bytes than remain.
    #[error(
        "position truncated: {what} needs {needed} bytes at offset {offset}, {remaining} remain"
    )]
    Truncated {
        /// The field being read (`u64`, `bytes32`, …).
        what: &'static str,
        /// Bytes the field needs.
        needed: usize,
        /// Where it starts.
        offset: usize,
        /// Bytes left.
        remaining: usize,
    },
    /// A string field is not UTF-8.
    #[error("position string at offset {offset} is not UTF-8")]
    NotUtf8 {
        /// Where the string starts.
        offset: usize,
    },
    /// The reader finished with bytes unread.
    #[error("position has {0} trailing bytes")]
    Trailing(usize),
}

impl From<PositionError> for TokenError {
    /// A position that does not decode inside an authentic token means the token is not one this
    /// query can resume from; the client sees the same 400 as for any invalid token.
    fn from(_: PositionError) -> Self {
        TokenError::Invalid
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{
        AddressList, BlockRange, BlockchainRef, Network, SortOrder, block_ref, cb58_id,
        cb58_or_hex_id, chain_ref, evm_address, evm_hash, hex_payload, node_id, node_ids,
        page_size, u64_at_least,
    };
    use snowline_types::{Chain, NetworkInfo};

    #[test]
    fn an_echoed_value_is_cut_with_its_length() {
        assert_eq!(echo("abc"), r#""abc""#);
        let exact = "a".repeat(MAX_ECHO_CHARS);
        assert_eq!(echo(&exact), format!("{exact:?}"));
        let long = "é".repeat(20_000);
        let shown = echo(&long);
        assert!(
            shown.starts_with(&format!("\"{}\"…", "é".repeat(MAX_ECHO_CHARS))),
            "{shown}"
        );
        assert!(shown.ends_with("… (20000 characters)"), "{shown}");
    }

    /// Every parser, fed values of tens of kilobytes, answers a message of bounded size.
    #[test]
    fn rejected_values_of_any_size_give_short_messages() {
        let hostile = [
            "%ff".repeat(20_000),
            "\u{fffd}".repeat(20_000),
            "a".repeat(60_000),
            format!("{}-x", "z".repeat(60_000)),
            format!("x-{}", "z".repeat(60_000)),
            format!("{}1qqqq", "h".repeat(60_000)),
            vec!["%ff"; 20_000].join(","),
            vec!["\0\u{1b}".repeat(30); 64].join(","),
            vec![format!("{}-q", "p".repeat(900)); 64].join(","),
        ];
        let net = &NetworkInfo::FUJI;
        for raw in &hostile {
            let messages: Vec<String> = [
                AddressList::parse(raw, "fuji", &[Chain::X, Chain::P]).err(),
                evm_address("address", raw).err(),
                evm_hash("txHash", raw).err(),
                block_ref("block", raw).err(),
                cb58_id("txId", raw).err(),
                cb58_or_hex_id("id", raw).err(),
                node_id("nodeId", raw).err(),
                node_ids("nodeIds", raw).err(),
                hex_payload("payload", raw).err(),
                chain_ref("chainId", raw).err(),
                Network::parse(raw, true).err(),
                BlockchainRef::parse(raw, net, &[Chain::X, Chain::P]).err(),
                SortOrder::parse(raw).err(),
                page_size(Some(raw), 100).err(),
                u64_at_least("startBlock", raw, 0).err(),
                BlockRange::parse(Some(raw), None).err(),
            ]
            .into_iter()
            .flatten()
            .map(|e| e.to_string())
            .collect();
            assert!(messages.len() >= 14, "parsers reject {:?}…", &raw[..8]);
            for m in messages {
                assert!(
                    m.len() <= 2_048,
                    "{} bytes: {}",
                    m.len(),
                    &m[..300.min(m.len())]
                );
            }
        }
    }
}
