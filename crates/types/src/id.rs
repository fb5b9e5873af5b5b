//! Fixed-size identifiers: `Id` (32 bytes), `ShortId` (20 bytes) and `NodeId` (`NodeID-` + cb58).
//! They order by raw bytes, display as cb58 as avalanchego does (`ids/id.go`, `ids/short.go`,
//! `ids/node_id.go`), and serialize as those strings.

use std::fmt;
use std::str::FromStr;

use crate::cb58::{self, Cb58Error};
use crate::hashing::sha256;

/// Why an id string was rejected; messages follow avalanchego (`ids/`, `utils/hashing`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    /// The cb58 text itself is malformed.
    #[error(transparent)]
    Cb58(#[from] Cb58Error),
    /// The decoded payload has the wrong length (avalanchego `ErrInvalidHashLen`).
    #[error("invalid hash length: expected {expected} bytes but got {actual}")]
    Length {
        /// The length this id type has.
        expected: usize,
        /// The length that was decoded.
        actual: usize,
    },
    /// A prefixed id (`NodeID-…`) without its prefix (avalanchego `ShortFromPrefixedString`).
    #[error("ID: {input} is missing the prefix: {prefix}")]
    MissingPrefix {
        /// The text that was given.
        input: String,
        /// The prefix it should have started with.
        prefix: &'static str,
    },
    /// A JSON node id too short to hold anything after `NodeID-` (avalanchego `errShortNodeID`).
    #[error("insufficient NodeID length: expected to be > 9")]
    ShortNodeId,
}

macro_rules! fixed_id {
    ($(#[$meta:meta])* $name:ident, $len:expr) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub [u8; $len]);

        impl $name {
            /// Length in bytes.
            pub const LEN: usize = $len;
            /// The all-zero value.
            pub const EMPTY: Self = Self([0u8; $len]);

            /// The raw bytes.
            #[inline]
            pub const fn as_bytes(&self) -> &[u8; $len] {
                &self.0
            }

            /// Builds from a slice of exactly the right length.
            pub fn from_slice(b: &[u8]) -> Result<Self, IdError> {
                <[u8; $len]>::try_from(b)
                    .map(Self)
                    .map_err(|_| IdError::Length { expected: $len, actual: b.len() })
            }

            /// Whether every byte is zero.
            pub fn is_empty(&self) -> bool {
                self.0 == [0u8; $len]
            }
        }

        impl From<[u8; $len]> for $name {
            fn from(b: [u8; $len]) -> Self {
                Self(b)
            }
        }

        impl AsRef<[u8]> for $name {
            fn as_ref(&self) -> &[u8] {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&cb58::encode(&self.0))
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self)
            }
        }

        impl FromStr for $name {
            type Err = IdError;
            fn from_str(s: &str) -> Result<Self, IdError> {
                Self::from_slice(&cb58::decode(s)?)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            /// Parses the cb58 string; JSON `null` gives the empty id, as avalanchego's
            /// `UnmarshalJSON` does.
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                deserialize_text(d, concat!("a cb58 ", stringify!($name)), |s| s.parse())
            }
        }
    };
}

fixed_id!(
    /// A 32-byte id: txs, blocks, chains, assets, UTXOs.
    Id,
    32
);
fixed_id!(
    /// A 20-byte id: addresses (the hash of a public key).
    ShortId,
    20
);

impl Id {
    /// `sha256(u64_be(prefix) ‖ id)`, avalanchego's `ids.ID.Prefix` with one prefix: a UTXO id is
    /// `txID.prefix(outputIndex)`.
    pub fn prefix(&self, prefix: u64) -> Id {
        self.prefixes(&[prefix])
    }

    /// `sha256(u64_be(p₀) ‖ … ‖ u64_be(pₙ) ‖ id)`: avalanchego's variadic `ids.ID.Prefix`.
    pub fn prefixes(&self, prefixes: &[u64]) -> Id {
        let mut buf = Vec::with_capacity(prefixes.len() * 8 + Self::LEN);
        for p in prefixes {
            buf.extend_from_slice(&p.to_be_bytes());
        }
        buf.extend_from_slice(&self.0);
        Id(sha256(&buf))
    }

    /// `sha256(id ‖ u32_be(s₀) ‖ … ‖ u32_be(sₙ))`: avalanchego's `ids.ID.Append`, which derives
    /// ACP-77 validation ids.
    pub fn append(&self, suffixes: &[u32]) -> Id {
        let mut buf = Vec::with_capacity(Self::LEN + suffixes.len() * 4);
        buf.extend_from_slice(&self.0);
        for s in suffixes {
            buf.extend_from_slice(&s.to_be_bytes());
        }
        Id(sha256(&buf))
    }

    /// The id of some bytes: their SHA-256.
    pub fn of_bytes(bytes: &[u8]) -> Id {
        Id(sha256(bytes))
    }

    /// Lower-case hex of the bytes, no prefix (avalanchego `ids.ID.Hex`).
    pub fn to_hex(&self) -> String {
        crate::formatting::encode_hex_bare(&self.0)
    }
}

impl ShortId {
    /// `prefix` + cb58, as avalanchego's `ShortID.PrefixedString` (e.g. `NodeID-…`).
    pub fn prefixed_string(&self, prefix: &str) -> String {
        format!("{prefix}{self}")
    }

    /// Parses `prefix` + cb58 (avalanchego `ids.ShortFromPrefixedString`).
    pub fn from_prefixed_str(s: &str, prefix: &'static str) -> Result<Self, IdError> {
        let rest = s
            .strip_prefix(prefix)
            .ok_or_else(|| IdError::MissingPrefix {
                input: s.to_owned(),
                prefix,
            })?;
        rest.parse()
    }

    /// Lower-case hex of the bytes, no prefix (avalanchego `ids.ShortID.Hex`).
    pub fn to_hex(&self) -> String {
        crate::formatting::encode_hex_bare(&self.0)
    }
}

/// A node id: the short id of a staking certificate, shown as `NodeID-` + cb58.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct NodeId(pub ShortId);

impl NodeId {
    /// The string prefix of a node id.
    pub const PREFIX: &'static str = "NodeID-";
    /// The all-zero node id.
    pub const EMPTY: Self = Self(ShortId::EMPTY);

    /// The node id of a DER staking certificate: `ripemd160(sha256(cert))` (avalanchego
    /// `ids.NodeIDFromCert`).
    pub fn from_cert_der(cert: &[u8]) -> Self {
        NodeId(ShortId(crate::hashing::hash160(cert)))
    }

    /// The raw 20 bytes.
    pub const fn as_bytes(&self) -> &[u8; 20] {
        self.0.as_bytes()
    }
}

impl From<ShortId> for NodeId {
    fn from(id: ShortId) -> Self {
        NodeId(id)
    }
}

impl From<[u8; 20]> for NodeId {
    fn from(b: [u8; 20]) -> Self {
        NodeId(ShortId(b))
    }
}

impl AsRef<[u8]> for NodeId {
    fn as_ref(&self) -> &[u8] {
        &self.0.0
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Self::PREFIX, self.0)
    }
}

impl fmt::Debug for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for NodeId {
    type Err = IdError;
    /// Parses `NodeID-` + cb58 (avalanchego `ids.NodeIDFromString`).
    fn from_str(s: &str) -> Result<Self, IdError> {
        ShortId::from_prefixed_str(s, Self::PREFIX).map(NodeId)
    }
}

impl serde::Serialize for NodeId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for NodeId {
    /// Parses `NodeID-` + cb58; JSON `null` gives the empty node id and a string no longer than
    /// the prefix is `insufficient NodeID length`, as avalanchego's `UnmarshalJSON`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_text(d, "a NodeID- string", |s| {
            if s.len() <= Self::PREFIX.len() {
                return Err(IdError::ShortNodeId);
            }
            s.parse()
        })
    }
}

/// Deserializes an id from its text: human-readable formats (JSON) may also give `null`, which
/// yields the default (all-zero) value as in avalanchego; others must give a string.
fn deserialize_text<'de, D, T>(
    d: D,
    what: &'static str,
    parse: fn(&str) -> Result<T, IdError>,
) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default,
{
    struct TextVisitor<T> {
        what: &'static str,
        parse: fn(&str) -> Result<T, IdError>,
    }

    impl<T: Default> serde::de::Visitor<'_> for TextVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.what)
        }

        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<T, E> {
            (self.parse)(v).map_err(E::custom)
        }

        fn visit_unit<E: serde::de::Error>(self) -> Result<T, E> {
            Ok(T::default())
        }

        fn visit_none<E: serde::de::Error>(self) -> Result<T, E> {
            Ok(T::default())
        }
    }

    let visitor = TextVisitor { what, parse };
    if d.is_human_readable() {
        d.deserialize_any(visitor)
    } else {
        d.deserialize_str(visitor)
    }
}
