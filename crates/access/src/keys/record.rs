//! What is stored about a key, and what a lookup answers.

use snowline_store::DecodeError;
use snowline_store::value::ValueCodec;

pub use snowline_types::access::{Caller, KeyLookup};

use super::tier::Tier;
use crate::bytes::{Reader, put_str, put_varint};

/// A key as stored and listed. Holds nothing secret: the secret is never stored, and the key id
/// is derived from its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    /// First 8 bytes of SHA-256(secret), lowercase hex: names the key in the CLI and in usage.
    pub key_id: String,
    /// A label chosen at creation.
    pub name: String,
    /// The organisation the key belongs to; usage is metered per organisation.
    pub org_id: String,
    /// The tier, never [`Tier::Anonymous`].
    pub tier: Tier,
    /// Creation time, Unix seconds.
    pub created_at: u64,
    /// A disabled key is refused (the REST edge answers 403) until re-enabled.
    pub disabled: bool,
}

/// The stored value: everything but the key id (which is in the table key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredKey {
    pub(crate) name: String,
    pub(crate) org_id: String,
    pub(crate) tier: Tier,
    pub(crate) created_at: u64,
    pub(crate) disabled: bool,
}

/// Encoding version byte, first in every value.
const VERSION: u8 = 1;

impl StoredKey {
    pub(crate) fn into_record(self, key_id: String) -> KeyRecord {
        KeyRecord {
            key_id,
            name: self.name,
            org_id: self.org_id,
            tier: self.tier,
            created_at: self.created_at,
            disabled: self.disabled,
        }
    }
}

/// `version ‖ flags (bit 0 = disabled) ‖ created_at varint ‖ tier str ‖ name str ‖ org_id str`.
impl ValueCodec for StoredKey {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.push(VERSION);
        out.push(u8::from(self.disabled));
        put_varint(out, self.created_at);
        put_str(out, self.tier.as_str());
        put_str(out, &self.name);
        put_str(out, &self.org_id);
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes);
        let version = r.u8()?;
        if version != VERSION {
            return Err(DecodeError::Other(format!(
                "unknown key record version {version}"
            )));
        }
        let disabled = match r.u8()? {
            0 => false,
            1 => true,
            b => return Err(DecodeError::InvalidBool(b)),
        };
        let created_at = r.varint()?;
        let tier_name = r.string()?;
        let tier = tier_name
            .parse::<Tier>()
            .map_err(|e| DecodeError::Other(e.to_string()))?;
        let name = r.string()?;
        let org_id = r.string()?;
        r.finish()?;
        Ok(Self {
            name,
            org_id,
            tier,
            created_at,
            disabled,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use snowline_store::encode_value;

    proptest! {
        #[test]
        fn stored_keys_round_trip(
            name in ".{0,30}", org_id in ".{0,30}", tier in 0usize..5,
            created_at in any::<u64>(), disabled in any::<bool>(),
        ) {
            let k = StoredKey { name, org_id, tier: Tier::ALL[tier], created_at, disabled };
            let bytes = encode_value(&k);
            prop_assert_eq!(StoredKey::decode_value(&bytes).unwrap(), k);
            prop_assert!(StoredKey::decode_value(&bytes[..bytes.len() - 1]).is_err());
        }
    }
}
