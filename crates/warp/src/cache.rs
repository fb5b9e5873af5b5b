//! A bounded cache of verified signatures keyed by (message id, validator key), so a second
//! request for the same message (a higher quorum, a retry) asks only the validators missing.
//! Signatures are kept parsed, so a cache hit costs no decompression or subgroup check.
//! Eviction drops whole messages, least recently used first.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use snowline_types::Id;

use crate::bls::{PUBLIC_KEY_UNCOMPRESSED_LEN, SIGNATURE_LEN, Signature};

/// Uncompressed public key bytes.
pub type KeyBytes = [u8; PUBLIC_KEY_UNCOMPRESSED_LEN];

/// Default bound: 1 MiB of key and signature bytes (icm-services' `signature-cache-size`).
pub const DEFAULT_MAX_SIGNATURES: usize = (1 << 20) / (PUBLIC_KEY_UNCOMPRESSED_LEN + SIGNATURE_LEN);

#[derive(Default)]
struct Inner {
    messages: HashMap<Id, Entry>,
    /// Recency tick → message, oldest first.
    recency: BTreeMap<u64, Id>,
    tick: u64,
    len: usize,
}

struct Entry {
    signatures: HashMap<KeyBytes, Signature>,
    tick: u64,
}

impl Inner {
    fn touch(&mut self, id: &Id) {
        self.tick += 1;
        let tick = self.tick;
        if let Some(e) = self.messages.get_mut(id) {
            self.recency.remove(&e.tick);
            e.tick = tick;
            self.recency.insert(tick, *id);
        }
    }
}

/// Thread-safe signature cache holding at most `max_signatures` signatures.
pub struct SignatureCache {
    inner: Mutex<Inner>,
    max_signatures: usize,
}

impl std::fmt::Debug for SignatureCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignatureCache")
            .field("len", &self.len())
            .field("max_signatures", &self.max_signatures)
            .finish()
    }
}

impl Default for SignatureCache {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_SIGNATURES)
    }
}

impl SignatureCache {
    /// A cache bounded to `max_signatures` signatures.
    pub fn new(max_signatures: usize) -> Self {
        Self {
            inner: Mutex::new(Inner::default()),
            max_signatures,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave the maps inconsistent in a way that
        // matters for a cache, so a poisoned lock is used as is.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The cached signatures of `message`, by key.
    pub fn get(&self, message: &Id) -> HashMap<KeyBytes, Signature> {
        let mut inner = self.lock();
        inner.touch(message);
        inner
            .messages
            .get(message)
            .map(|e| e.signatures.clone())
            .unwrap_or_default()
    }

    /// Caches a verified signature. When over the bound, least recently used messages other
    /// than this one are dropped; if this message alone fills the cache, the signature is not
    /// kept.
    pub fn insert(&self, message: Id, key: KeyBytes, signature: Signature) {
        let mut inner = self.lock();
        if inner
            .messages
            .get(&message)
            .is_some_and(|e| e.signatures.contains_key(&key))
        {
            inner.touch(&message);
            return;
        }
        while inner.len >= self.max_signatures {
            let oldest = inner
                .recency
                .iter()
                .map(|(t, id)| (*t, *id))
                .find(|(_, id)| *id != message);
            let Some((tick, id)) = oldest else {
                return;
            };
            inner.recency.remove(&tick);
            if let Some(e) = inner.messages.remove(&id) {
                inner.len -= e.signatures.len();
            }
        }
        let inner = &mut *inner;
        let entry = inner.messages.entry(message).or_insert_with(|| {
            inner.recency.insert(0, message);
            Entry {
                signatures: HashMap::new(),
                tick: 0,
            }
        });
        entry.signatures.insert(key, signature);
        inner.len += 1;
        inner.touch(&message);
    }

    /// Number of cached signatures.
    pub fn len(&self) -> usize {
        self.lock().len
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops everything.
    pub fn clear(&self) {
        *self.lock() = Inner::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(b: u8) -> Id {
        Id([b; 32])
    }

    fn sig(n: u8) -> Signature {
        let sk = blst::min_pk::SecretKey::key_gen(&[n; 32], &[]).unwrap_or_else(|_| unreachable!());
        Signature::from(sk.sign(b"m", crate::bls::SIGNATURE_DST, &[]))
    }

    #[test]
    fn stores_and_returns_by_message_and_key() {
        let c = SignatureCache::new(10);
        c.insert(id(1), [1; 96], sig(10));
        c.insert(id(1), [2; 96], sig(20));
        c.insert(id(2), [1; 96], sig(30));
        c.insert(id(1), [1; 96], sig(10)); // duplicate: not counted twice
        assert_eq!(c.len(), 3);
        let m1 = c.get(&id(1));
        assert_eq!(m1.len(), 2);
        assert_eq!(m1.get(&[2; 96]), Some(&sig(20)));
        assert_eq!(c.get(&id(2)).get(&[1; 96]), Some(&sig(30)));
        assert!(c.get(&id(3)).is_empty());
    }

    #[test]
    fn evicts_least_recently_used_message() {
        let c = SignatureCache::new(3);
        c.insert(id(1), [1; 96], sig(1));
        c.insert(id(2), [1; 96], sig(2));
        c.insert(id(3), [1; 96], sig(3));
        let _ = c.get(&id(1)); // 2 is now the oldest
        c.insert(id(4), [1; 96], sig(4));
        assert_eq!(c.len(), 3);
        assert!(c.get(&id(2)).is_empty());
        assert_eq!(c.get(&id(1)).len(), 1);
        assert_eq!(c.get(&id(4)).len(), 1);
    }

    #[test]
    fn one_message_never_evicts_itself() {
        let c = SignatureCache::new(2);
        c.insert(id(1), [1; 96], sig(1));
        c.insert(id(1), [2; 96], sig(1));
        c.insert(id(1), [3; 96], sig(1));
        assert_eq!(c.len(), 2);
        assert_eq!(c.get(&id(1)).len(), 2);
        c.clear();
        assert!(c.is_empty());
        let zero = SignatureCache::new(0);
        zero.insert(id(1), [1; 96], sig(1));
        assert!(zero.is_empty());
    }
}
