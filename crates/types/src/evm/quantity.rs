//! Serde helpers for the JSON-RPC `QUANTITY` encoding (`"0x1a"`): hex without leading zeros,
//! read into a `u64` without allocating. A plain JSON number is accepted too, since some
//! nodes' extensions answer with numbers.

use std::fmt;

use serde::Deserializer;
use serde::de::{Error, Visitor};

struct QuantityVisitor;

impl Visitor<'_> for QuantityVisitor {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a hex quantity such as \"0x1a\"")
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<u64, E> {
        Ok(v)
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<u64, E> {
        parse(v).ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(v), &self))
    }
}

/// Parses `0x`-prefixed hex of at most 64 bits (`"0x0"`, `"0x1a"`; `"0x"` is not a quantity).
pub fn parse(s: &str) -> Option<u64> {
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    if digits.is_empty() || digits.len() > 16 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

/// `deserialize_with` for a required quantity.
pub fn u64<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    d.deserialize_any(QuantityVisitor)
}

/// `deserialize_with` for an optional quantity (absent or `null` is `None`; add
/// `#[serde(default)]`).
pub fn opt_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    struct Opt;
    impl<'de> Visitor<'de> for Opt {
        type Value = Option<u64>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a hex quantity or null")
        }
        fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            u64(d).map(Some)
        }
    }
    d.deserialize_option(Opt)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn quantities_as_the_json_rpc_spec_writes_them() {
        // The examples of the Ethereum JSON-RPC spec's "Quantities" section:
        // 0x41 (65), 0x400 (1024), 0x0 (0); 0x (empty) is invalid.
        assert_eq!(parse("0x41"), Some(65));
        assert_eq!(parse("0x400"), Some(1024));
        assert_eq!(parse("0x0"), Some(0));
        assert_eq!(parse("0x"), None);
        assert_eq!(parse("ff"), None);
        assert_eq!(parse("0xffffffffffffffff"), Some(u64::MAX));
        assert_eq!(parse("0x10000000000000000"), None);
        assert_eq!(parse("0x+1"), None);
    }
}
