//! [`AddressSet`]: the addresses an `address_activity` webhook watches, sorted, shared and
//! compared by content. Webhooks watching the same addresses hold one copy, in memory (the
//! [`crate::registry::Registry`] interns them) and in the store (rows keyed by the set's
//! [`AddressSet::key`], counted in `wh_set_refs`), so ten thousand webhooks over a few lists
//! of ten thousand addresses cost those few lists, not a hundred million entries.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use sha2::{Digest, Sha256};
use snowline_types::evm::Address;

/// A sorted set of addresses without duplicates, cheap to clone (shared).
#[derive(Debug, Clone, Default)]
pub struct AddressSet(Arc<[Address]>);

impl AddressSet {
    /// How many addresses.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `a` is in it.
    pub fn contains(&self, a: &Address) -> bool {
        self.0.binary_search(a).is_ok()
    }

    /// The addresses, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Address> {
        self.0.iter()
    }

    /// Whether `self` and `other` are the same copy (not merely equal).
    pub fn same(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Where this copy lives: the identity under which interned sets are indexed.
    pub(crate) fn ptr(&self) -> usize {
        self.0.as_ptr() as usize
    }

    /// The set's storage key: the lowercase hex SHA-256 of its addresses' 20 bytes each, in
    /// order. Equal sets have one key, so the store keeps their rows once.
    pub fn key(&self) -> String {
        let mut h = Sha256::new();
        for a in self.iter() {
            h.update(a.as_slice());
        }
        hex::encode(h.finalize())
    }
}

impl FromIterator<Address> for AddressSet {
    fn from_iter<I: IntoIterator<Item = Address>>(iter: I) -> Self {
        let mut v: Vec<Address> = iter.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        Self(v.into())
    }
}

impl<'a> IntoIterator for &'a AddressSet {
    type Item = &'a Address;
    type IntoIter = std::slice::Iter<'a, Address>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for AddressSet {
    fn eq(&self, other: &Self) -> bool {
        self.same(other) || self.0 == other.0
    }
}

impl Eq for AddressSet {}

impl Hash for AddressSet {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

/// Which groups (numbers the registry gives each interned set of a chain) watch each address.
/// Nearly every address is in one group, held as 4 bytes beside its 20 (a hash table slot of
/// 24 bytes); an address in several groups is marked and listed apart. So an index of a million
/// addresses is about 50 MB, not the ~100 MB of a list per address.
#[derive(Debug, Default)]
pub(crate) struct AddressIndex {
    one: HashMap<Address, u32>,
    many: HashMap<Address, Vec<u32>>,
}

/// The mark of an address in several groups.
const MANY: u32 = u32::MAX;

impl AddressIndex {
    /// Group `g` (not `MANY`) watches `a`.
    pub(crate) fn insert(&mut self, a: Address, g: u32) {
        match self.one.get_mut(&a) {
            None => {
                self.one.insert(a, g);
            }
            Some(v) if *v == MANY => self.many.entry(a).or_default().push(g),
            Some(v) => {
                self.many.insert(a, vec![*v, g]);
                *v = MANY;
            }
        }
    }

    /// Group `g` no longer watches `a`.
    pub(crate) fn remove(&mut self, a: &Address, g: u32) {
        match self.one.get(a).copied() {
            Some(MANY) => {
                let Some(list) = self.many.get_mut(a) else {
                    return;
                };
                list.retain(|x| *x != g);
                if let [only] = list[..] {
                    self.many.remove(a);
                    self.one.insert(*a, only);
                }
            }
            Some(v) if v == g => {
                self.one.remove(a);
            }
            _ => {}
        }
    }

    /// The groups watching `a`.
    pub(crate) fn get(&self, a: &Address) -> &[u32] {
        match self.one.get(a) {
            None => &[],
            Some(&MANY) => self.many.get(a).map_or(&[], Vec::as_slice),
            Some(v) => std::slice::from_ref(v),
        }
    }

    /// How many addresses it holds.
    pub(crate) fn len(&self) -> usize {
        self.one.len()
    }

    /// Whether it holds none.
    pub(crate) fn is_empty(&self) -> bool {
        self.one.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_sorted_without_duplicates_and_equal_sets_share_a_key() {
        let (a, b, c) = (
            Address::repeat_byte(1),
            Address::repeat_byte(2),
            Address::repeat_byte(3),
        );
        let s: AddressSet = [c, a, b, a].into_iter().collect();
        assert_eq!(s.iter().copied().collect::<Vec<_>>(), [a, b, c]);
        assert!(s.contains(&b) && !s.contains(&Address::repeat_byte(4)));
        let t: AddressSet = [b, c, a].into_iter().collect();
        assert_eq!(s, t);
        assert!(!s.same(&t), "equal, but two copies until interned");
        assert_eq!(s.key(), t.key());
        // The key is SHA-256 over the sorted 20-byte addresses.
        let mut bytes = Vec::new();
        for x in [a, b, c] {
            bytes.extend_from_slice(x.as_slice());
        }
        assert_eq!(s.key(), hex::encode(Sha256::digest(&bytes)));
        let u: AddressSet = [a, b].into_iter().collect();
        assert_ne!(s, u);
        assert_ne!(s.key(), u.key());
    }

    #[test]
    fn the_index_holds_one_group_inline_and_lists_several_apart() {
        let (a, b) = (Address::repeat_byte(1), Address::repeat_byte(2));
        let mut x = AddressIndex::default();
        x.insert(a, 7);
        x.insert(b, 7);
        assert_eq!(x.get(&a), [7]);
        x.insert(a, 9);
        x.insert(a, 11);
        assert_eq!(x.get(&a), [7, 9, 11]);
        assert_eq!((x.len(), x.many.len()), (2, 1));
        x.remove(&a, 9);
        x.remove(&a, 7);
        assert_eq!(x.get(&a), [11]);
        assert!(x.many.is_empty(), "back to one, held inline");
        x.remove(&a, 7); // not watching it: nothing changes
        assert_eq!(x.get(&a), [11]);
        x.remove(&a, 11);
        x.remove(&b, 7);
        assert!(x.is_empty() && x.get(&a).is_empty());
    }
}
