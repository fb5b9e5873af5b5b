//! API keys end to end: lifecycle, hash-only storage, a secondary following the writer.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use sha2::{Digest, Sha256};
use snowline_access::AccessError;
use snowline_access::keys::{
    ApiKeys, Caller, KEYS_TABLE, KeyLookup, SECRET_PREFIX, Tier, key_id_of, parse_secret,
};
use snowline_store::{DecodeError, Direction, KeyCodec, ReadView, Table};

fn active(keys: &ApiKeys, secret: &str) -> Caller {
    match keys.resolve(secret).unwrap() {
        KeyLookup::Active(c) => c,
        other => panic!("expected an active key, got {other:?}"),
    }
}

#[test]
fn a_key_lives_through_create_disable_tier_change_and_delete() {
    let dir = tempfile::tempdir().unwrap();
    let keys = ApiKeys::open(dir.path().join("keys")).unwrap();
    let (record, secret) = keys.create("ci", "org-7", Tier::Pro).unwrap();
    assert!(secret.starts_with(SECRET_PREFIX));
    assert_eq!(record.key_id.len(), 16);
    assert_eq!(
        (
            record.name.as_str(),
            record.org_id.as_str(),
            record.tier,
            record.disabled
        ),
        ("ci", "org-7", Tier::Pro, false)
    );

    let caller = active(&keys, &secret);
    assert_eq!(
        caller,
        Caller {
            key_id: record.key_id.clone(),
            org_id: "org-7".into(),
            tier: "pro".into()
        }
    );

    // Another well-formed secret, a tampered one, a malformed one: all unknown.
    let (_, other_secret) = ApiKeys::open(dir.path().join("other"))
        .unwrap()
        .create("x", "org-7", Tier::Free)
        .unwrap();
    assert_eq!(keys.resolve(&other_secret).unwrap(), KeyLookup::Unknown);
    let mut tampered = secret.clone();
    let last = tampered.pop().unwrap();
    tampered.push(if last == '2' { '3' } else { '2' });
    assert_eq!(keys.resolve(&tampered).unwrap(), KeyLookup::Unknown);
    assert_eq!(keys.resolve("").unwrap(), KeyLookup::Unknown);
    assert_eq!(
        keys.resolve(&secret[SECRET_PREFIX.len()..]).unwrap(),
        KeyLookup::Unknown
    );

    assert!(keys.set_disabled(&record.key_id, true).unwrap().disabled);
    assert_eq!(keys.resolve(&secret).unwrap(), KeyLookup::Disabled);
    assert!(keys.get(&record.key_id).unwrap().disabled);
    assert!(!keys.set_disabled(&record.key_id, false).unwrap().disabled);
    assert_eq!(active(&keys, &secret).tier, "pro");

    assert_eq!(
        keys.set_tier(&record.key_id, Tier::Unlimited).unwrap().tier,
        Tier::Unlimited
    );
    assert_eq!(active(&keys, &secret).tier, "unlimited");
    assert_eq!(keys.get(&record.key_id).unwrap().tier, Tier::Unlimited);
    assert!(matches!(
        keys.set_tier(&record.key_id, Tier::Anonymous),
        Err(AccessError::InvalidTier { .. })
    ));

    let deleted = keys.delete(&record.key_id).unwrap();
    assert_eq!(deleted.key_id, record.key_id);
    assert_eq!(keys.resolve(&secret).unwrap(), KeyLookup::Unknown);
    assert_eq!(
        keys.get(&record.key_id),
        Err(AccessError::UnknownKey(record.key_id.clone()))
    );
    assert_eq!(
        keys.delete(&record.key_id),
        Err(AccessError::UnknownKey(record.key_id.clone()))
    );
}

#[test]
fn unknown_and_malformed_ids_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let keys = ApiKeys::open(dir.path()).unwrap();
    let missing = "00112233445566ff";
    assert_eq!(
        keys.get(missing),
        Err(AccessError::UnknownKey(missing.into()))
    );
    assert_eq!(
        keys.set_disabled(missing, true),
        Err(AccessError::UnknownKey(missing.into()))
    );
    assert_eq!(
        keys.set_tier(missing, Tier::Free),
        Err(AccessError::UnknownKey(missing.into()))
    );
    assert_eq!(
        keys.get("xyz"),
        Err(AccessError::InvalidKeyId("xyz".into()))
    );
}

#[test]
fn creation_checks_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let keys = ApiKeys::open(dir.path()).unwrap();
    assert!(matches!(
        keys.create("", "org", Tier::Free),
        Err(AccessError::InvalidField { field: "name", .. })
    ));
    assert!(matches!(
        keys.create("n", "", Tier::Free),
        Err(AccessError::InvalidField {
            field: "org_id",
            ..
        })
    ));
    assert!(matches!(
        keys.create("n", &"o".repeat(300), Tier::Free),
        Err(AccessError::InvalidField {
            field: "org_id",
            ..
        })
    ));
    assert!(matches!(
        keys.create("n", "org", Tier::Anonymous),
        Err(AccessError::InvalidTier { .. })
    ));
    assert!(
        keys.list().unwrap().is_empty(),
        "failed creations store nothing"
    );
}

#[test]
fn list_returns_every_key_by_id_and_keys_survive_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let mut made = Vec::new();
    {
        let keys = ApiKeys::open(dir.path()).unwrap();
        for (i, tier) in Tier::FOR_KEYS.into_iter().enumerate() {
            made.push(
                keys.create(&format!("k{i}"), &format!("org{}", i % 2), tier)
                    .unwrap(),
            );
        }
    }
    let keys = ApiKeys::open(dir.path()).unwrap();
    let listed = keys.list().unwrap();
    let mut expected: Vec<_> = made.iter().map(|(r, _)| r.clone()).collect();
    expected.sort_by(|a, b| a.key_id.cmp(&b.key_id));
    assert_eq!(listed, expected);
    for (record, secret) in &made {
        let c = active(&keys, secret);
        assert_eq!(
            (c.key_id.as_str(), c.org_id.as_str()),
            (record.key_id.as_str(), record.org_id.as_str())
        );
        assert_eq!(keys.get(&record.key_id).unwrap(), *record);
    }
}

/// The key table read as raw bytes, to inspect what is really stored.
struct RawKey(Vec<u8>);

impl KeyCodec for RawKey {
    fn encode_key(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0);
    }
    fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
        let all = input.to_vec();
        *input = &[];
        Ok(RawKey(all))
    }
}

struct RawKeys;

impl Table for RawKeys {
    const NAME: &'static str = KEYS_TABLE;
    type Key = RawKey;
    type Value = Vec<u8>;
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn the_store_holds_hashes_never_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let keys = ApiKeys::open(dir.path()).unwrap();
    let made: Vec<_> = (0..5)
        .map(|i| keys.create(&format!("k{i}"), "org", Tier::Free).unwrap())
        .collect();
    let rows: Vec<(Vec<u8>, Vec<u8>)> = keys
        .store()
        .scan::<RawKeys, _>(.., Direction::Forward)
        .unwrap()
        .map(|r| {
            let (k, v) = r.unwrap();
            (k.0, v)
        })
        .collect();
    assert_eq!(rows.len(), made.len());
    for (record, secret) in &made {
        let raw = parse_secret(secret).unwrap();
        let hash: [u8; 32] = Sha256::digest(raw).into();
        assert_eq!(key_id_of(&hash), record.key_id);
        // The row is found by the hash...
        assert!(rows.iter().any(|(k, _)| k.as_slice() == hash.as_slice()));
        // ...and no row holds the secret in any form.
        let b58 = &secret[SECRET_PREFIX.len()..];
        for (k, v) in &rows {
            for stored in [k, v] {
                assert!(!contains(stored, &raw), "raw secret bytes stored");
                assert!(!contains(stored, b58.as_bytes()), "base58 secret stored");
                assert!(!contains(stored, secret.as_bytes()), "shown secret stored");
            }
        }
    }
}

/// Every form a leaked secret could take: the shown key, its base58 part, the 32 bytes, their
/// hex (both cases) and base64 (standard and URL-safe, padded or not).
fn secret_forms(shown: &str) -> Vec<(&'static str, Vec<u8>)> {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    let raw = parse_secret(shown).unwrap();
    let b58 = &shown[SECRET_PREFIX.len()..];
    vec![
        ("shown", shown.as_bytes().to_vec()),
        ("base58", b58.as_bytes().to_vec()),
        ("raw", raw.to_vec()),
        ("hex", hex::encode(raw).into_bytes()),
        ("HEX", hex::encode_upper(raw).into_bytes()),
        ("base64", STANDARD.encode(raw).into_bytes()),
        ("base64 unpadded", STANDARD_NO_PAD.encode(raw).into_bytes()),
        ("base64url", URL_SAFE.encode(raw).into_bytes()),
        (
            "base64url unpadded",
            URL_SAFE_NO_PAD.encode(raw).into_bytes(),
        ),
        // A prefix long enough to be unique, for secrets cut or split across records.
        ("base58 half", b58.as_bytes()[..b58.len() / 2].to_vec()),
    ]
}

/// The keys store reopened read-only by the store crate, every column family (the default and
/// meta ones included) read as raw bytes, and every file of the directory (WAL, SST, manifest,
/// logs) read too: no form of any secret appears anywhere.
#[test]
fn no_secret_in_any_table_or_file_of_the_keys_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("keys");
    let mut secrets = Vec::new();
    {
        let keys = ApiKeys::open(&path).unwrap();
        for i in 0..20 {
            let tier = Tier::FOR_KEYS[i % Tier::FOR_KEYS.len()];
            let (record, secret) = keys.create(&format!("k{i}"), "org", tier).unwrap();
            if i % 3 == 0 {
                keys.set_disabled(&record.key_id, true).unwrap();
            }
            if i % 5 == 0 {
                keys.delete(&record.key_id).unwrap();
            }
            // Resolving writes nothing, but would be where a careless cache stored secrets.
            keys.resolve(&secret).unwrap();
            secrets.push(secret);
        }
        // Half the rows flushed to SST files, half left in the WAL.
        keys.store().flush().unwrap();
        for i in 20..30 {
            let (_, secret) = keys.create(&format!("k{i}"), "org", Tier::Free).unwrap();
            secrets.push(secret);
        }
    }
    let store =
        snowline_store::Store::open_read_only(&path, &snowline_access::keys::schema()).unwrap();
    let tables = store.raw_tables().unwrap();
    assert!(tables.iter().any(|t| t == KEYS_TABLE), "{tables:?}");
    let mut stored: Vec<(String, Vec<u8>)> = Vec::new();
    for table in &tables {
        store
            .for_each_raw(table, |k, v| {
                stored.push((format!("{table} key"), k.to_vec()));
                stored.push((format!("{table} value"), v.to_vec()));
            })
            .unwrap();
    }
    // 30 keys made, 4 of them deleted (0, 5, 10, 15).
    let rows = stored
        .iter()
        .filter(|(w, _)| w == &format!("{KEYS_TABLE} key"))
        .count();
    assert_eq!(rows, 26);
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&path).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            files.push((
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).unwrap(),
            ));
        }
    }
    assert!(
        files.iter().any(|(n, _)| n.ends_with(".log")),
        "a WAL is read"
    );
    assert!(
        files.iter().any(|(n, _)| n.ends_with(".sst")),
        "an SST is read"
    );
    for secret in &secrets {
        for (form, needle) in secret_forms(secret) {
            for (where_, bytes) in stored.iter().chain(files.iter()) {
                assert!(
                    !contains(bytes, &needle),
                    "the secret's {form} form is stored in {where_}"
                );
            }
        }
    }
    // The check can fail: the same scan finds a hash that is stored.
    let raw = parse_secret(&secrets[1]).unwrap();
    let hash: [u8; 32] = Sha256::digest(raw).into();
    assert!(stored.iter().any(|(_, b)| contains(b, &hash[8..])));
}

#[test]
fn a_secondary_sees_the_writers_changes_after_catch_up() {
    let dir = tempfile::tempdir().unwrap();
    let primary = dir.path().join("keys");
    // The server may start first: the secondary creates the empty store.
    let reader = ApiKeys::open_secondary(&primary, dir.path().join("keys-secondary")).unwrap();
    assert!(reader.list().unwrap().is_empty());
    let writer = ApiKeys::open(&primary).unwrap();

    let (record, secret) = writer.create("cli", "org-1", Tier::Free).unwrap();
    assert_eq!(
        reader.resolve(&secret).unwrap(),
        KeyLookup::Unknown,
        "before catch_up"
    );
    reader.catch_up().unwrap();
    assert_eq!(active(&reader, &secret).key_id, record.key_id);

    writer.set_disabled(&record.key_id, true).unwrap();
    reader.catch_up().unwrap();
    assert_eq!(reader.resolve(&secret).unwrap(), KeyLookup::Disabled);

    writer.delete(&record.key_id).unwrap();
    reader.catch_up().unwrap();
    assert_eq!(reader.resolve(&secret).unwrap(), KeyLookup::Unknown);

    // A secondary refuses writes.
    assert!(matches!(
        reader.create("x", "org-1", Tier::Free),
        Err(AccessError::Store(_))
    ));
    // A writer is not a secondary.
    assert!(writer.catch_up().is_err());
}

#[test]
fn a_catch_up_thread_brings_the_writers_keys_to_the_server() {
    use snowline_access::keys::CatchUp;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let primary = dir.path().join("keys");
    let reader = Arc::new(ApiKeys::open_secondary(&primary, dir.path().join("sec")).unwrap());
    let follower = CatchUp::start(Arc::clone(&reader), Duration::from_millis(10)).unwrap();
    let writer = ApiKeys::open(&primary).unwrap();
    let (record, secret) = writer.create("cli", "org-1", Tier::Pro).unwrap();
    // Wait (bounded, generously) for the follower to pick the key up; no catch_up by hand.
    let give_up = Instant::now() + Duration::from_secs(30);
    let caller = loop {
        if let KeyLookup::Active(c) = reader.resolve(&secret).unwrap() {
            break c;
        }
        assert!(Instant::now() < give_up, "the follower never caught up");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(caller.key_id, record.key_id);
    assert_eq!(follower.failures(), 0);
    drop(follower);
}
