//! Keys a fleet shares: each key's record under its hash (64 lowercase hex digits) in a key-value
//! bucket every node watches. [`SharedKeys`] is a node's copy in memory, kept current from the
//! bucket's changes; the functions below make and change the bucket's values for the CLI. Like
//! the keys store, the bucket holds the hash only, never a secret.

use std::collections::HashMap;
use std::sync::{PoisonError, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

use snowline_store::value::ValueCodec;

use super::api::MAX_FIELD_BYTES;
use super::record::{Caller, KeyLookup, KeyRecord, StoredKey};
use super::secret::{generate, hash, key_id_of, parse_key_id, parse_secret};
use super::tier::Tier;
use crate::error::{AccessError, Result};

/// The keys of a fleet, by hash, as last seen in its bucket.
#[derive(Debug, Default)]
pub struct SharedKeys {
    keys: RwLock<HashMap<[u8; 32], StoredKey>>,
}

impl SharedKeys {
    /// An empty copy.
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies one change of the bucket: `value` is the record put under `bucket_key`, `None`
    /// a deletion. A key that is not a hash or a value that is not a record is refused (and
    /// changes nothing).
    pub fn apply(&self, bucket_key: &str, value: Option<&[u8]>) -> Result<()> {
        let h = parse_bucket_key(bucket_key)?;
        let mut keys = self.keys.write().unwrap_or_else(PoisonError::into_inner);
        match value {
            Some(bytes) => {
                keys.insert(h, StoredKey::decode_value(bytes).map_err(decode)?);
            }
            None => {
                keys.remove(&h);
            }
        }
        Ok(())
    }

    /// Whose key `presented` is, when the fleet knows it (`None`: not a fleet key; a malformed
    /// secret is `Some(Unknown)`).
    pub fn resolve(&self, presented: &str) -> Option<KeyLookup> {
        let Some(raw) = parse_secret(presented) else {
            return Some(KeyLookup::Unknown);
        };
        let h = hash(&raw);
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        keys.get(&h).map(|k| match k.disabled {
            true => KeyLookup::Disabled,
            false => KeyLookup::Active(Caller {
                key_id: key_id_of(&h),
                org_id: k.org_id.clone(),
                tier: k.tier.as_str().to_owned(),
            }),
        })
    }

    /// The tier of the fleet key with this id, if the fleet knows it.
    pub fn tier_of(&self, key_id: &str) -> Option<Tier> {
        let id = parse_key_id(key_id).ok()?;
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        keys.iter()
            .find(|(h, _)| h.starts_with(&id))
            .map(|(_, k)| k.tier)
    }

    /// Keys known.
    pub fn len(&self) -> usize {
        self.keys
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether no key is known.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A new fleet key: its bucket key (the hash in hex), the value to create there, its record and
/// its secret (shown once).
pub fn new_shared_key(
    name: &str,
    org_id: &str,
    tier: Tier,
) -> Result<(String, Vec<u8>, KeyRecord, String)> {
    for (field, value) in [("name", name), ("org_id", org_id)] {
        if value.is_empty() || value.len() > MAX_FIELD_BYTES {
            return Err(AccessError::InvalidField {
                field,
                value: value.to_owned(),
                max: MAX_FIELD_BYTES,
            });
        }
    }
    let stored = StoredKey {
        name: name.to_owned(),
        org_id: org_id.to_owned(),
        tier: Tier::for_key(tier.as_str())?,
        created_at: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        disabled: false,
    };
    let (raw, shown) = generate()?;
    let h = hash(&raw);
    let value = snowline_store::encode_value(&stored);
    Ok((
        hex::encode(h),
        value,
        stored.into_record(key_id_of(&h)),
        shown,
    ))
}

/// The record a bucket entry holds.
pub fn shared_record(bucket_key: &str, value: &[u8]) -> Result<KeyRecord> {
    let h = parse_bucket_key(bucket_key)?;
    Ok(StoredKey::decode_value(value)
        .map_err(decode)?
        .into_record(key_id_of(&h)))
}

/// What the CLI changes in a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyChange {
    /// Disables (`true`) or re-enables it.
    Disabled(bool),
    /// Gives it another tier (any but anonymous).
    Tier(Tier),
}

/// The value of a bucket entry after `change`.
pub fn change_shared(value: &[u8], change: KeyChange) -> Result<Vec<u8>> {
    let mut stored = StoredKey::decode_value(value).map_err(decode)?;
    match change {
        KeyChange::Disabled(d) => stored.disabled = d,
        KeyChange::Tier(t) => stored.tier = Tier::for_key(t.as_str())?,
    }
    Ok(snowline_store::encode_value(&stored))
}

/// Whether `bucket_key` (a hash in hex) is of the key `key_id`; an invalid id is an error.
pub fn is_key_of(bucket_key: &str, key_id: &str) -> Result<bool> {
    parse_key_id(key_id)?;
    Ok(bucket_key.len() == 64 && bucket_key.starts_with(key_id))
}

fn parse_bucket_key(bucket_key: &str) -> Result<[u8; 32]> {
    let mut h = [0u8; 32];
    match bucket_key.bytes().any(|b| b.is_ascii_uppercase()) {
        true => Err(AccessError::InvalidKeyId(bucket_key.to_owned())),
        false => hex::decode_to_slice(bucket_key, &mut h)
            .map(|()| h)
            .map_err(|_| AccessError::InvalidKeyId(bucket_key.to_owned())),
    }
}

fn decode(e: snowline_store::DecodeError) -> AccessError {
    AccessError::Store(snowline_store::StoreError::Decode {
        table: super::KEYS_TABLE,
        part: snowline_store::Part::Value,
        source: e,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fleet_key_resolves_once_applied_and_follows_its_changes() {
        let shared = SharedKeys::new();
        let (bucket_key, value, record, secret) = new_shared_key("n", "org", Tier::Pro).unwrap();
        assert_eq!(shared.resolve(&secret), None);
        assert!(bucket_key.starts_with(&record.key_id));
        assert!(is_key_of(&bucket_key, &record.key_id).unwrap());
        // The bucket holds the hash and the record, nothing secret.
        assert!(!bucket_key.contains(&secret[4..]));
        assert_eq!(shared_record(&bucket_key, &value).unwrap(), record);

        shared.apply(&bucket_key, Some(&value)).unwrap();
        match shared.resolve(&secret) {
            Some(KeyLookup::Active(c)) => {
                assert_eq!(
                    (c.key_id.as_str(), c.org_id.as_str()),
                    (&*record.key_id, "org")
                );
                assert_eq!(c.tier, "pro");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(shared.tier_of(&record.key_id), Some(Tier::Pro));

        let off = change_shared(&value, KeyChange::Disabled(true)).unwrap();
        shared.apply(&bucket_key, Some(&off)).unwrap();
        assert_eq!(shared.resolve(&secret), Some(KeyLookup::Disabled));
        shared.apply(&bucket_key, None).unwrap();
        assert_eq!(shared.resolve(&secret), None);
        assert!(shared.is_empty());
    }

    #[test]
    fn bad_entries_and_secrets_are_refused() {
        let shared = SharedKeys::new();
        assert!(shared.apply("not-hex", Some(b"x")).is_err());
        assert!(shared.apply(&"ab".repeat(32), Some(b"\x07")).is_err());
        assert!(shared.apply(&"AB".repeat(32), None).is_err());
        assert_eq!(shared.resolve("snl_nope"), Some(KeyLookup::Unknown));
        assert!(change_shared(b"", KeyChange::Disabled(true)).is_err());
        assert!(change_shared(&[1, 0, 0], KeyChange::Tier(Tier::Anonymous)).is_err());
        assert!(is_key_of(&"ab".repeat(32), "ABAB").is_err());
    }
}
