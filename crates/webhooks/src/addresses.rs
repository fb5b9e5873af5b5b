//! [`AddressSet`]: the addresses an `address_activity` webhook watches, sorted, shared and
//! compared by content. Webhooks watching the same addresses hold one copy, in memory (the
//! [`crate::registry::Registry`] interns them) and in the store (rows keyed by the set's
//! [`AddressSet::key`], counted in `wh_set_refs`), so ten thousand webhooks over a few lists
//! of ten thousand addresses cost those few lists, not a hundred million entries.

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

/// The interned sets (by [`AddressSet::ptr`]) that watch one address on one chain: almost
/// always one, so one is held inline (a word and a tag, not a vector's three words and a heap
/// block), which is what the address index's size comes down to.
#[derive(Debug, Clone)]
pub(crate) enum SetList {
    One(usize),
    Many(Vec<usize>),
}

impl SetList {
    /// Adds `set` (not already in).
    pub(crate) fn push(&mut self, set: usize) {
        match self {
            SetList::One(first) => *self = SetList::Many(vec![*first, set]),
            SetList::Many(v) => v.push(set),
        }
    }

    /// Removes `set`; false when none is left.
    pub(crate) fn remove(&mut self, set: usize) -> bool {
        match self {
            SetList::One(first) => *first != set,
            SetList::Many(v) => {
                v.retain(|s| *s != set);
                let left = !v.is_empty();
                if let [only] = v[..] {
                    *self = SetList::One(only);
                }
                left
            }
        }
    }

    /// The sets.
    pub(crate) fn as_slice(&self) -> &[usize] {
        match self {
            SetList::One(first) => std::slice::from_ref(first),
            SetList::Many(v) => v,
        }
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
    fn a_set_list_holds_one_inline_and_falls_back_to_one() {
        assert_eq!(
            std::mem::size_of::<SetList>(),
            std::mem::size_of::<Vec<usize>>()
        );
        let mut l = SetList::One(7);
        assert_eq!(l.as_slice(), [7]);
        l.push(9);
        l.push(11);
        assert_eq!(l.as_slice(), [7, 9, 11]);
        assert!(l.remove(9));
        assert!(l.remove(7));
        assert!(matches!(l, SetList::One(11)));
        assert!(!l.remove(11), "none left");
    }
}
