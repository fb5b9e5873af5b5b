//! [`ApiKeys`]: create, list, change and resolve keys in the keys store.

use std::time::{SystemTime, UNIX_EPOCH};

use snowline_store::{Direction, ReadView, WriteBatch};

use super::record::{Caller, KeyLookup, KeyRecord, StoredKey};
use super::secret::{generate, hash, key_id_of, parse_key_id, parse_secret, split};
use super::table::{ApiKeysTable, schema};
use super::tier::Tier;
use crate::error::{AccessError, Result};
use crate::side_store::{SideStore, side_store_owner};

/// The key of the key table: the hash split at the key id.
type TableKey = ([u8; 8], [u8; 24]);

/// Longest accepted key name and organisation id, in bytes.
pub const MAX_FIELD_BYTES: usize = 256;

/// The API keys, over their own store. The `data-api keys` CLI opens it read-write
/// ([`ApiKeys::open`]); the server follows it as a secondary ([`ApiKeys::open_secondary`]) and
/// calls [`ApiKeys::catch_up`] periodically to see the CLI's changes.
#[derive(Debug)]
pub struct ApiKeys {
    store: SideStore,
}

side_store_owner!(ApiKeys, schema, "the writer's changes");

impl ApiKeys {
    /// Creates a key and returns its record and its secret (`snl_` + base58 of 32 random
    /// bytes). The secret is not stored and cannot be shown again.
    pub fn create(&self, name: &str, org_id: &str, tier: Tier) -> Result<(KeyRecord, String)> {
        check_field("name", name)?;
        check_field("org_id", org_id)?;
        let tier = Tier::for_key(tier.as_str())?;
        let created_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        // A key id is 64 bits of the hash: a clash is practically impossible, but would make
        // the id ambiguous, so draw another secret rather than share an id.
        loop {
            let (raw, shown) = generate()?;
            let h = hash(&raw);
            let (id, rest) = split(&h);
            if self.find(&id)?.is_some() {
                continue;
            }
            let stored = StoredKey {
                name: name.to_owned(),
                org_id: org_id.to_owned(),
                tier,
                created_at,
                disabled: false,
            };
            self.store.put::<ApiKeysTable>(&(id, rest), &stored)?;
            return Ok((stored.into_record(key_id_of(&h)), shown));
        }
    }

    /// Every key, ordered by key id.
    pub fn list(&self) -> Result<Vec<KeyRecord>> {
        self.store
            .scan::<ApiKeysTable, _>(.., Direction::Forward)?
            .map(|entry| {
                let ((id, _), stored) = entry?;
                Ok(stored.into_record(hex::encode(id)))
            })
            .collect()
    }

    /// The key with this id; [`AccessError::UnknownKey`] if none.
    pub fn get(&self, key_id: &str) -> Result<KeyRecord> {
        let id = parse_key_id(key_id)?;
        match self.find(&id)? {
            Some((_, stored)) => Ok(stored.into_record(key_id.to_owned())),
            None => Err(AccessError::UnknownKey(key_id.to_owned())),
        }
    }

    /// Disables (`true`) or re-enables (`false`) a key; returns the updated record.
    pub fn set_disabled(&self, key_id: &str, disabled: bool) -> Result<KeyRecord> {
        self.update(key_id, |k| k.disabled = disabled)
    }

    /// Changes a key's tier (any but [`Tier::Anonymous`]); returns the updated record.
    pub fn set_tier(&self, key_id: &str, tier: Tier) -> Result<KeyRecord> {
        let tier = Tier::for_key(tier.as_str())?;
        self.update(key_id, |k| k.tier = tier)
    }

    /// Deletes a key for good; returns the record it had.
    pub fn delete(&self, key_id: &str) -> Result<KeyRecord> {
        let id = parse_key_id(key_id)?;
        let (key, stored) = self
            .find(&id)?
            .ok_or_else(|| AccessError::UnknownKey(key_id.to_owned()))?;
        let mut batch = WriteBatch::new();
        batch.delete::<ApiKeysTable>(&key);
        self.store.write(batch)?;
        Ok(stored.into_record(key_id.to_owned()))
    }

    /// Whose key `presented` is: hashes it and reads one entry (no scan). A malformed secret is
    /// [`KeyLookup::Unknown`] without touching the store.
    pub fn resolve(&self, presented: &str) -> Result<KeyLookup> {
        let Some(raw) = parse_secret(presented) else {
            return Ok(KeyLookup::Unknown);
        };
        let h = hash(&raw);
        Ok(match self.store.get::<ApiKeysTable>(&split(&h))? {
            None => KeyLookup::Unknown,
            Some(k) if k.disabled => KeyLookup::Disabled,
            Some(k) => KeyLookup::Active(Caller {
                key_id: key_id_of(&h),
                org_id: k.org_id,
                tier: k.tier.as_str().to_owned(),
            }),
        })
    }

    /// The entry whose hash starts with `id`, if any.
    fn find(&self, id: &[u8; 8]) -> Result<Option<(TableKey, StoredKey)>> {
        let mut scan =
            self.store
                .prefix_scan::<ApiKeysTable, [u8; 8]>(id, None, Direction::Forward)?;
        Ok(scan.next().transpose()?)
    }

    fn update(&self, key_id: &str, change: impl FnOnce(&mut StoredKey)) -> Result<KeyRecord> {
        let id = parse_key_id(key_id)?;
        let (key, mut stored) = self
            .find(&id)?
            .ok_or_else(|| AccessError::UnknownKey(key_id.to_owned()))?;
        change(&mut stored);
        self.store.put::<ApiKeysTable>(&key, &stored)?;
        Ok(stored.into_record(key_id.to_owned()))
    }
}

fn check_field(field: &'static str, value: &str) -> Result<()> {
    if value.is_empty() || value.len() > MAX_FIELD_BYTES {
        return Err(AccessError::InvalidField {
            field,
            value: value.to_owned(),
            max: MAX_FIELD_BYTES,
        });
    }
    Ok(())
}
