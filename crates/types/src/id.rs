//! Fixed-size identifiers: `Id` (32 bytes), `ShortId` (20 bytes) and `NodeId` (`NodeID-` + cb58).
//! They order by raw bytes, display as cb58 as avalanchego does (`ids/id.go`, `ids/short.go`,
//! `ids/node_id.go`), and serialize as those strings.

use std::fmt;
use std::str::FromStr;

use crate::cb58::{self, Cb58Error};
use crate::hashing::sha256;

/// Why an id string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    /// The cb58 text itself is malformed.
    #[error(transparent)]
    Cb58(#[from] Cb58Error),
    /// The decoded payload has the wrong length.
    #[error("expected {expected} bytes but got {actual}")]
    Length {
        /// The length this id type has.
        expected: usize,
        /// The length that was decoded.
        actual: usize,
    },
    /// A node id without its `NodeID-` prefix.
    #[error("missing NodeID- prefix")]
    MissingNodeIdPrefix,
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
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
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
    /// `sha256(u64_be(prefix) ‖ id)`, avalanchego's `ids.ID.Prefix`: a UTXO id is
    /// `txID.prefix(outputIndex)`.
    pub fn prefix(&self, prefix: u64) -> Id {
        let mut buf = [0u8; 40];
        buf[..8].copy_from_slice(&prefix.to_be_bytes());
        buf[8..].copy_from_slice(&self.0);
        Id(sha256(&buf))
    }

    /// The id of some bytes: their SHA-256.
    pub fn of_bytes(bytes: &[u8]) -> Id {
        Id(sha256(bytes))
    }
}

/// A node id: the short id of a staking certificate, shown as `NodeID-` + cb58.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct NodeId(pub ShortId);

impl NodeId {
    /// The string prefix of a node id.
    pub const PREFIX: &'static str = "NodeID-";
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
    fn from_str(s: &str) -> Result<Self, IdError> {
        let rest = s
            .strip_prefix(Self::PREFIX)
            .ok_or(IdError::MissingNodeIdPrefix)?;
        Ok(NodeId(rest.parse()?))
    }
}

impl serde::Serialize for NodeId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for NodeId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
