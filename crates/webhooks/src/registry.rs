//! [`Registry`]: every webhook with its addresses, in memory, for the block hook (which must not
//! read the store per block) and the delivery loop. The store is the record; the registry is
//! loaded from it at start and replaced entry by entry after each change is written. The active
//! webhooks are also indexed by chain and address, so matching a tx costs a lookup per address
//! it touches, however many webhooks there are.
//!
//! Address sets are interned: webhooks watching equal sets hold one copy, and the address index
//! maps each (chain, address) to the few distinct sets that hold it, each set to its active
//! webhooks. So its size follows the distinct sets' addresses, not webhooks times addresses.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};

use snowline_store::{Direction, ReadView, Store, StoreError};
use snowline_types::ShortId;
use snowline_types::evm::Address;

use crate::addresses::{AddressIndex, AddressSet};
use crate::model::{Status, Webhook};
use crate::tables::{WhAddresses, WhWebhooks};
use crate::validator::Key;

/// A webhook and the addresses it watches.
#[derive(Debug, Clone)]
pub struct Sub {
    /// The record.
    pub webhook: Webhook,
    /// Watched addresses, in order.
    pub addresses: AddressSet,
}

/// The active `address_activity` webhooks of one chain watching one interned set.
#[derive(Debug)]
struct Group {
    /// The set (kept alive while indexed: where it lives is part of the group's key).
    set: AddressSet,
    subs: BTreeMap<String, Arc<Sub>>,
}

#[derive(Debug, Default)]
struct Inner {
    by_id: BTreeMap<String, Arc<Sub>>,
    /// Each distinct address set and how many webhooks of `by_id` hold it.
    sets: HashMap<AddressSet, usize>,
    /// The number of the group of each (chain, interned set) with active webhooks.
    group_of: HashMap<(u64, usize), u32>,
    /// The groups by number; a number freed is given again.
    groups: Vec<Option<Group>>,
    free: Vec<u32>,
    /// The groups watching each address, by chain.
    watching: HashMap<u64, AddressIndex>,
    /// How many active webhooks each chain has.
    active: HashMap<u64, usize>,
    /// How many of those need every log of the txs they are sent.
    logs: HashMap<u64, usize>,
    /// The active `validator_activity` webhooks watching each node or subnet, by id.
    validators: HashMap<Key, BTreeMap<String, Arc<Sub>>>,
    /// The active `primary_network_address_activity` webhooks by address.
    primary: HashMap<ShortId, BTreeMap<String, Arc<Sub>>>,
}

/// Whether `sub` is an active `address_activity` webhook (indexed by chain and address).
fn evm_active(sub: &Sub) -> bool {
    sub.webhook.status == Status::Active && sub.webhook.is_evm()
}

/// The addresses an active `primary_network_address_activity` webhook watches.
fn primary_addresses(sub: &Sub) -> &[ShortId] {
    match &sub.webhook.primary {
        Some(p) if sub.webhook.status == Status::Active => &p.addresses,
        _ => &[],
    }
}

/// The node or subnet an active `validator_activity` webhook watches.
fn validator_key(sub: &Sub) -> Option<Key> {
    (sub.webhook.status == Status::Active)
        .then_some(sub.webhook.validator.as_ref())
        .flatten()
        .map(|v| v.key)
}

impl Inner {
    /// The one copy of `set` the registry keeps, counted once more.
    fn intern(&mut self, set: AddressSet) -> AddressSet {
        if let Some((kept, _)) = self.sets.get_key_value(&set) {
            let kept = kept.clone();
            if let Some(n) = self.sets.get_mut(&kept) {
                *n += 1;
            }
            return kept;
        }
        self.sets.insert(set.clone(), 1);
        set
    }

    /// `set` held by one webhook fewer.
    fn release(&mut self, set: &AddressSet) {
        if let Some(n) = self.sets.get_mut(set) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.sets.remove(set);
            }
        }
    }

    /// Indexes the active `address_activity` webhook `sub` (its set interned).
    fn index(&mut self, sub: &Arc<Sub>) {
        let chain = sub.webhook.chain_id;
        let set = &sub.addresses;
        let key = (chain, set.ptr());
        let g = match self.group_of.get(&key) {
            Some(g) => *g,
            None => {
                let group = Group {
                    set: set.clone(),
                    subs: BTreeMap::new(),
                };
                let g = match self.free.pop() {
                    Some(g) => {
                        if let Some(slot) = self.groups.get_mut(g as usize) {
                            *slot = Some(group);
                        }
                        g
                    }
                    None => {
                        self.groups.push(Some(group));
                        u32::try_from(self.groups.len() - 1).unwrap_or(u32::MAX - 1)
                    }
                };
                let by_address = self.watching.entry(chain).or_default();
                for a in set {
                    by_address.insert(*a, g);
                }
                self.group_of.insert(key, g);
                g
            }
        };
        if let Some(Some(group)) = self.groups.get_mut(g as usize) {
            group.subs.insert(sub.webhook.id.clone(), Arc::clone(sub));
        }
    }

    /// Takes the active `address_activity` webhook `sub` out of the index.
    fn unindex(&mut self, sub: &Sub) {
        let chain = sub.webhook.chain_id;
        let key = (chain, sub.addresses.ptr());
        let Some(&g) = self.group_of.get(&key) else {
            return;
        };
        let Some(slot) = self.groups.get_mut(g as usize) else {
            return;
        };
        if let Some(group) = slot {
            group.subs.remove(&sub.webhook.id);
            if !group.subs.is_empty() {
                return;
            }
        }
        let group = slot.take();
        self.group_of.remove(&key);
        self.free.push(g);
        if let (Some(group), Some(by_address)) = (group, self.watching.get_mut(&chain)) {
            for a in &group.set {
                by_address.remove(a, g);
            }
            if by_address.is_empty() {
                self.watching.remove(&chain);
            }
        }
    }

    fn set(&mut self, mut sub: Sub) {
        let id = sub.webhook.id.clone();
        if let Some(old) = self.by_id.remove(&id) {
            for a in primary_addresses(&old) {
                if let Some(subs) = self.primary.get_mut(a) {
                    subs.remove(&id);
                    if subs.is_empty() {
                        self.primary.remove(a);
                    }
                }
            }
            if let Some(key) = validator_key(&old) {
                if let Some(subs) = self.validators.get_mut(&key) {
                    subs.remove(&id);
                    if subs.is_empty() {
                        self.validators.remove(&key);
                    }
                }
            }
            if evm_active(&old) {
                if let Some(n) = self.active.get_mut(&old.webhook.chain_id) {
                    *n = n.saturating_sub(1);
                }
                if old.webhook.needs_logs() {
                    if let Some(n) = self.logs.get_mut(&old.webhook.chain_id) {
                        *n = n.saturating_sub(1);
                    }
                }
                self.unindex(&old);
            }
            self.release(&old.addresses);
        }
        sub.addresses = self.intern(sub.addresses);
        let sub = Arc::new(sub);
        for a in primary_addresses(&sub) {
            self.primary
                .entry(*a)
                .or_default()
                .insert(id.clone(), Arc::clone(&sub));
        }
        if let Some(key) = validator_key(&sub) {
            self.validators
                .entry(key)
                .or_default()
                .insert(id.clone(), Arc::clone(&sub));
        }
        if evm_active(&sub) {
            *self.active.entry(sub.webhook.chain_id).or_default() += 1;
            if sub.webhook.needs_logs() {
                *self.logs.entry(sub.webhook.chain_id).or_default() += 1;
            }
            self.index(&sub);
        }
        self.by_id.insert(id, sub);
    }
}

/// The address rows stored under `key` (a set's key, or a webhook id for rows written before
/// sets were shared).
pub(crate) fn stored_set(store: &Store, key: &str) -> Result<AddressSet, StoreError> {
    let mut v = Vec::new();
    for a in store.prefix_scan::<WhAddresses, _>(&key.to_owned(), None, Direction::Forward)? {
        let ((_, a), ()) = a?;
        v.push(Address::from(a));
    }
    Ok(v.into_iter().collect())
}

/// The webhooks by id, shared.
#[derive(Debug, Clone, Default)]
pub struct Registry(Arc<RwLock<Inner>>);

impl Registry {
    /// Every webhook `store` holds, each stored address set read once however many webhooks
    /// share it.
    pub fn load(store: &Store) -> Result<Self, StoreError> {
        let registry = Registry::default();
        let mut read: HashMap<String, AddressSet> = HashMap::new();
        for entry in store.scan::<WhWebhooks, _>(.., Direction::Forward)? {
            let (_, json) = entry?;
            let Ok(webhook) = serde_json::from_slice::<Webhook>(&json) else {
                tracing::warn!("an unreadable webhook record was skipped");
                continue;
            };
            let key = webhook.rows_key().to_owned();
            let addresses = match read.get(&key) {
                Some(set) => set.clone(),
                None => {
                    let set = stored_set(store, &key)?;
                    if webhook.address_set.is_some() {
                        read.insert(key, set.clone());
                    }
                    set
                }
            };
            registry.set(Sub { webhook, addresses });
        }
        Ok(registry)
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Inner> {
        self.0.read().unwrap_or_else(|e| e.into_inner())
    }

    /// The webhook `id`.
    pub fn get(&self, id: &str) -> Option<Arc<Sub>> {
        self.read().by_id.get(id).cloned()
    }

    /// Puts `sub` in place of the webhook with its id.
    pub fn set(&self, sub: Sub) {
        self.0.write().unwrap_or_else(|e| e.into_inner()).set(sub);
    }

    /// The active webhooks, of chain `chain` only if given.
    pub fn active(&self, chain: Option<u64>) -> Vec<Arc<Sub>> {
        self.read()
            .by_id
            .values()
            .filter(|s| s.webhook.status == Status::Active)
            .filter(|s| chain.is_none_or(|c| s.webhook.chain_id == c))
            .cloned()
            .collect()
    }

    /// Whether chain `chain` has an active webhook.
    pub fn watches(&self, chain: u64) -> bool {
        self.read().active.get(&chain).is_some_and(|n| *n > 0)
    }

    /// Whether an active webhook of chain `chain` needs every log of the txs it is sent.
    pub fn wants_logs(&self, chain: u64) -> bool {
        self.read().logs.get(&chain).is_some_and(|n| *n > 0)
    }

    /// The active webhooks of chain `chain` watching any of `addresses`, by id.
    pub fn watching<'a>(
        &self,
        chain: u64,
        addresses: impl IntoIterator<Item = &'a Address>,
    ) -> Vec<Arc<Sub>> {
        let inner = self.read();
        let mut found: BTreeMap<&str, &Arc<Sub>> = BTreeMap::new();
        let Some(by_address) = inner.watching.get(&chain) else {
            return Vec::new();
        };
        for a in addresses {
            for g in by_address.get(a) {
                if let Some(Some(group)) = inner.groups.get(*g as usize) {
                    found.extend(group.subs.iter().map(|(id, s)| (id.as_str(), s)));
                }
            }
        }
        found.into_values().cloned().collect()
    }

    /// How many distinct address sets the webhooks hold, and how many (chain, address) keys
    /// the index of the active ones has: what its memory comes down to.
    pub fn footprint(&self) -> (usize, usize) {
        let inner = self.read();
        let keys = inner.watching.values().map(AddressIndex::len).sum();
        (inner.sets.len(), keys)
    }

    /// Whether an active `validator_activity` webhook exists.
    pub fn watches_validators(&self) -> bool {
        !self.read().validators.is_empty()
    }

    /// Whether an active webhook watches P-Chain activity (validators or addresses).
    pub fn watches_platform(&self) -> bool {
        let inner = self.read();
        !inner.validators.is_empty() || !inner.primary.is_empty()
    }

    /// The active `primary_network_address_activity` webhooks watching any of `addresses`,
    /// each once, in id order.
    pub fn primary_watching<'a>(
        &self,
        addresses: impl IntoIterator<Item = &'a ShortId>,
    ) -> Vec<Arc<Sub>> {
        let inner = self.read();
        let mut found: BTreeMap<&str, &Arc<Sub>> = BTreeMap::new();
        for a in addresses {
            if let Some(subs) = inner.primary.get(a) {
                found.extend(subs.iter().map(|(id, s)| (id.as_str(), s)));
            }
        }
        found.into_values().cloned().collect()
    }

    /// The active `validator_activity` webhooks watching any of `keys`, by id.
    pub fn validator_watching(&self, keys: &[Key]) -> Vec<Arc<Sub>> {
        let inner = self.read();
        let mut found: BTreeMap<&str, &Arc<Sub>> = BTreeMap::new();
        for k in keys {
            if let Some(subs) = inner.validators.get(k) {
                found.extend(subs.iter().map(|(id, s)| (id.as_str(), s)));
            }
        }
        found.into_values().cloned().collect()
    }

    /// How many webhooks organisation `org` has.
    pub fn count(&self, org: &str) -> usize {
        self.read()
            .by_id
            .values()
            .filter(|s| s.webhook.org_id == org)
            .count()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn sub(id: &str, chain: u64, status: Status, addresses: &[u8]) -> Sub {
        Sub {
            webhook: Webhook {
                id: id.to_owned(),
                org_id: "o".to_owned(),
                url: "http://example.com/".to_owned(),
                chain_id: chain,
                name: String::new(),
                description: String::new(),
                status,
                created_at: 0,
                include_internal_txs: false,
                include_logs: false,
                event_signatures: Vec::new(),
                validator: None,
                primary: None,
                address_set: None,
            },
            addresses: addresses.iter().map(|b| Address::repeat_byte(*b)).collect(),
        }
    }

    fn ids(subs: &[Arc<Sub>]) -> Vec<&str> {
        subs.iter().map(|s| s.webhook.id.as_str()).collect()
    }

    #[test]
    fn the_address_index_follows_every_change() {
        let r = Registry::default();
        let (a1, a2, a3) = (
            Address::repeat_byte(1),
            Address::repeat_byte(2),
            Address::repeat_byte(3),
        );
        r.set(sub("b", 7, Status::Active, &[1, 2]));
        r.set(sub("a", 7, Status::Active, &[2]));
        r.set(sub("c", 8, Status::Active, &[1]));
        assert!(r.watches(7) && r.watches(8) && !r.watches(9));
        assert!(!r.wants_logs(7));
        let mut logs = sub("d", 7, Status::Active, &[3]);
        logs.webhook.include_logs = true;
        r.set(logs.clone());
        assert!(r.wants_logs(7) && !r.wants_logs(8));
        logs.webhook.status = Status::Inactive;
        r.set(logs);
        assert!(!r.wants_logs(7));
        // Each webhook once, by id, whichever addresses it watches; only the chain's own.
        assert_eq!(ids(&r.watching(7, &[a1, a2, a3])), ["a", "b"]);
        assert_eq!(ids(&r.watching(8, &[a1, a2])), ["c"]);
        // An address removed, a webhook deactivated: the index forgets them.
        r.set(sub("b", 7, Status::Active, &[1]));
        assert_eq!(ids(&r.watching(7, &[a2])), ["a"]);
        r.set(sub("a", 7, Status::Inactive, &[2]));
        assert!(r.watching(7, &[a2]).is_empty());
        r.set(sub("b", 7, Status::Inactive, &[1]));
        assert!(!r.watches(7));
        assert_eq!(r.active(None).len(), 1);
        assert_eq!(r.count("o"), 4);
    }

    #[test]
    fn equal_address_sets_are_held_once_and_indexed_once() {
        let r = Registry::default();
        // Three webhooks on one list of 1,000 addresses, one on another; one of another chain.
        let list: Vec<u8> = (0..=255).collect();
        for id in ["a", "b", "c"] {
            r.set(sub(id, 7, Status::Active, &list));
        }
        r.set(sub("d", 7, Status::Active, &[1, 2]));
        r.set(sub("e", 8, Status::Active, &list));
        let (a, b, e) = (
            r.get("a").unwrap(),
            r.get("b").unwrap(),
            r.get("e").unwrap(),
        );
        assert!(a.addresses.same(&b.addresses) && a.addresses.same(&e.addresses));
        // Two distinct sets; chain 7 indexes each address once (256), chain 8 once more.
        assert_eq!(r.footprint(), (2, 256 + 256));
        let x = Address::repeat_byte(1);
        assert_eq!(ids(&r.watching(7, &[x])), ["a", "b", "c", "d"]);
        assert_eq!(
            ids(&r.watching(7, &[Address::repeat_byte(200)])),
            ["a", "b", "c"]
        );
        assert_eq!(ids(&r.watching(8, &[x])), ["e"]);
        // Deactivating some keeps the set indexed for the others; the last one takes it out.
        r.set(sub("a", 7, Status::Inactive, &list));
        r.set(sub("b", 7, Status::Inactive, &list));
        assert_eq!(ids(&r.watching(7, &[x])), ["c", "d"]);
        r.set(sub("c", 7, Status::Inactive, &list));
        assert_eq!(ids(&r.watching(7, &[x])), ["d"]);
        assert!(r.watching(7, &[Address::repeat_byte(200)]).is_empty());
        // Inactive webhooks still hold their (shared) set; chain 7 indexes only d's two now.
        assert_eq!(r.footprint(), (2, 2 + 256));
        // A changed set is a set of its own; the old one goes with its last holder.
        r.set(sub("d", 7, Status::Active, &[1, 2, 3]));
        assert_eq!(r.footprint(), (2, 3 + 256));
        for id in ["a", "b", "c", "e"] {
            r.set(sub(id, 7, Status::Active, &[1, 2, 3]));
        }
        assert_eq!(r.footprint(), (1, 3));
        assert_eq!(
            ids(&r.watching(7, &[Address::repeat_byte(3)])),
            ["a", "b", "c", "d", "e"]
        );
        assert!(r.watching(8, &[x]).is_empty());
    }
}
