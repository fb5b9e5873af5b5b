//! avalanchego's `json.Uint64/Uint32/Uint8` (`utils/json/uint*.go`): accepted as a
//! JSON number or a decimal string, always emitted as a decimal string.

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Parses like Go's `strconv.ParseUint(s, 10, bits)`: ASCII digits only, no sign.
fn parse_uint(s: &str, max: u64) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse::<u64>().ok().filter(|v| *v <= max)
}

macro_rules! json_uint {
    ($name:ident, $t:ty, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub $t);

        impl From<$t> for $name {
            fn from(v: $t) -> Self {
                Self(v)
            }
        }

        impl From<$name> for $t {
            fn from(v: $name) -> $t {
                v.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("an unsigned integer or a decimal string")
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$name, E> {
                        <$t>::try_from(v)
                            .map($name)
                            .map_err(|_| E::custom("value out of range"))
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$name, E> {
                        <$t>::try_from(v)
                            .map($name)
                            .map_err(|_| E::custom("value out of range"))
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$name, E> {
                        parse_uint(v, u64::from(<$t>::MAX))
                            .and_then(|x| <$t>::try_from(x).ok())
                            .map($name)
                            .ok_or_else(|| E::custom("invalid decimal string"))
                    }
                    fn visit_unit<E: de::Error>(self) -> Result<$name, E> {
                        Ok($name(0))
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}

json_uint!(
    JsonU64,
    u64,
    "A `u64` read from `5` or `\"5\"` and written as `\"5\"` (avalanchego `json.Uint64`)."
);
json_uint!(
    JsonU32,
    u32,
    "A `u32` read from `5` or `\"5\"` and written as `\"5\"` (avalanchego `json.Uint32`)."
);
json_uint!(
    JsonU8,
    u8,
    "A `u8` read from `5` or `\"5\"` and written as `\"5\"` (avalanchego `json.Uint8`)."
);

#[cfg(test)]
mod tests {
    use super::*;

    // Behaviour of avalanchego utils/json/uint64.go (UnmarshalJSON strips the quotes
    // and calls strconv.ParseUint(str, 10, 64); MarshalJSON writes a quoted decimal).
    #[test]
    fn accepts_number_and_string() {
        assert_eq!(serde_json::from_str::<JsonU64>("5").unwrap(), JsonU64(5));
        assert_eq!(
            serde_json::from_str::<JsonU64>("\"5\"").unwrap(),
            JsonU64(5)
        );
        assert_eq!(
            serde_json::from_str::<JsonU64>("\"007\"").unwrap(),
            JsonU64(7)
        );
        assert_eq!(serde_json::from_str::<JsonU64>("null").unwrap(), JsonU64(0));
        assert_eq!(
            serde_json::from_str::<JsonU64>("18446744073709551615").unwrap(),
            JsonU64(u64::MAX)
        );
        for bad in [
            "-1",
            "5.0",
            "\"\"",
            "\"+5\"",
            "\" 5\"",
            "\"1_0\"",
            "true",
            "18446744073709551616",
            "\"18446744073709551616\"",
        ] {
            assert!(serde_json::from_str::<JsonU64>(bad).is_err(), "{bad}");
        }
        assert!(serde_json::from_str::<JsonU8>("256").is_err());
        assert!(serde_json::from_str::<JsonU32>("\"4294967296\"").is_err());
        assert_eq!(
            serde_json::from_str::<JsonU32>("\"4294967295\"").unwrap(),
            JsonU32(u32::MAX)
        );
    }

    #[test]
    fn emits_string() {
        assert_eq!(
            serde_json::to_string(&JsonU64(u64::MAX)).unwrap(),
            "\"18446744073709551615\""
        );
        assert_eq!(serde_json::to_string(&JsonU8(9)).unwrap(), "\"9\"");
    }

    proptest::proptest! {
        #[test]
        fn round_trip(v: u64) {
            let s = serde_json::to_string(&JsonU64(v)).unwrap();
            proptest::prop_assert_eq!(serde_json::from_str::<JsonU64>(&s).unwrap(), JsonU64(v));
            proptest::prop_assert_eq!(serde_json::from_str::<JsonU64>(&v.to_string()).unwrap(), JsonU64(v));
        }
    }
}
