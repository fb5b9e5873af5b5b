//! Each caller's rate-limit state, kept here rather than in governor's keyed maps so that a
//! keep-alive connection can hold on to its caller's [`Budget`] and spend it without a map lookup.
//!
//! governor still does all the arithmetic (GCRA, the decision, the remaining units): a window's
//! limiter is keyed by the budget itself, and its state store ([`Slot`]) reads and swaps that
//! window's value inside the budget, exactly as governor's own `InMemoryState` does.

use super::LimitKey;
use dashmap::DashMap;
use governor::nanos::Nanos;
use governor::state::StateStore;
use std::hash::{Hash, Hasher};
use std::net::IpAddr;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// One caller's GCRA state in each window of its tier: governor's "theoretical arrival time", in
/// nanoseconds since the window limiter's start, 0 while never spent (governor's encoding).
#[derive(Debug, Default)]
pub struct Budget {
    minute: AtomicU64,
    day: AtomicU64,
}

impl Budget {
    /// Whether every window is full again at `now` (nanoseconds since the tier's start, taken
    /// no earlier than the windows' own starts): a fresh budget would decide alike.
    fn is_full(&self, now: u64) -> bool {
        self.minute.load(Ordering::Relaxed) <= now && self.day.load(Ordering::Relaxed) <= now
    }
}

/// Budgets are governor keys, compared by identity (two callers never share one).
impl PartialEq for Budget {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Budget {}

impl Hash for Budget {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::ptr::hash(self, state);
    }
}

/// Which value of a [`Budget`] a window's limiter keeps: governor's state store for that window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The per-minute window.
    Minute,
    /// The per-day window.
    Day,
}

impl StateStore for Slot {
    type Key = Arc<Budget>;

    /// governor's `InMemoryState` update, on this window's value of `budget`: decide from the
    /// value read, and store the decision's new value only if nothing changed it meanwhile.
    fn measure_and_replace<T, F, E>(&self, budget: &Arc<Budget>, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        let cell = match self {
            Slot::Minute => &budget.minute,
            Slot::Day => &budget.day,
        };
        let decide = |v: u64| f(NonZeroU64::new(v).map(|n| Nanos::from(n.get())));
        let mut prev = cell.load(Ordering::Acquire);
        loop {
            let (result, next) = decide(prev)?;
            match cell.compare_exchange_weak(
                prev,
                next.into(),
                Ordering::Release,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok(result),
                Err(now) => prev = now,
            }
        }
    }
}

/// [`LimitKey`] borrowed: what a request is limited by, without allocating the key id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitKeyRef<'a> {
    /// A keyed caller, by key id.
    Key(&'a str),
    /// An anonymous caller, by client IP.
    Ip(IpAddr),
}

impl LimitKeyRef<'_> {
    /// The owned key.
    pub fn to_owned(self) -> LimitKey {
        match self {
            Self::Key(k) => LimitKey::Key(k.to_owned()),
            Self::Ip(ip) => LimitKey::Ip(ip),
        }
    }

    fn is(self, key: &LimitKey) -> bool {
        match (self, key) {
            (Self::Key(a), LimitKey::Key(b)) => a == b,
            (Self::Ip(a), LimitKey::Ip(b)) => a == *b,
            _ => false,
        }
    }
}

impl LimitKey {
    /// The borrowed form.
    pub fn as_ref(&self) -> LimitKeyRef<'_> {
        match self {
            Self::Key(k) => LimitKeyRef::Key(k),
            Self::Ip(ip) => LimitKeyRef::Ip(*ip),
        }
    }
}

/// The budgets of one tier's callers.
///
/// An entry leaves the map when its budget is full again and no connection holds it: a held
/// budget may be spent at any moment without the map, so removing it would let its caller start
/// a second, fresh budget beside it.
#[derive(Debug, Default)]
pub(crate) struct Budgets {
    map: DashMap<LimitKey, Arc<Budget>>,
}

impl Budgets {
    /// Runs `f` on `key`'s budget, creating it if new, without taking a reference to it.
    pub(crate) fn with<R>(&self, key: LimitKeyRef<'_>, f: impl FnOnce(&Arc<Budget>) -> R) -> R {
        let owned = key.to_owned();
        if let Some(b) = self.map.get(&owned) {
            return f(b.value());
        }
        let b = self.map.entry(owned).or_default();
        f(b.value())
    }

    /// `key`'s budget, creating it if new, for a connection to keep.
    fn shared(&self, key: LimitKeyRef<'_>) -> Arc<Budget> {
        self.with(key, Arc::clone)
    }

    /// Forgets the budgets that are full at `now` (see [`Budget::is_full`]) and held by no
    /// connection. Under a shard's write lock no new reference can be taken from the map, and
    /// one held elsewhere keeps the count above 1, so a count of 1 cannot change meanwhile.
    pub(crate) fn retain_recent(&self, now: u64) {
        self.map
            .retain(|_, b| Arc::strong_count(b) > 1 || !b.is_full(now));
        self.map.shrink_to_fit();
    }

    /// Callers known.
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}

/// A connection's memory of the budget its last request spent, so that the next request of the
/// same caller on the same tier spends it directly: no key allocation, hashing or map lock.
/// Requests of one connection run one after another, so its lock is never contended.
#[derive(Debug, Default)]
pub struct BudgetCache(Mutex<Option<Held>>);

#[derive(Debug)]
struct Held {
    tier: usize,
    key: LimitKey,
    budget: Arc<Budget>,
}

impl BudgetCache {
    /// An empty cache, for a new connection.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `f` on the budget of `key` in tier number `tier` of `budgets`, held from the last
    /// call when it was the same caller and tier, else fetched (and then held).
    pub(crate) fn with<R>(
        &self,
        tier: usize,
        key: LimitKeyRef<'_>,
        budgets: &Budgets,
        f: impl FnOnce(&Arc<Budget>) -> R,
    ) -> R {
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match &*held {
            Some(h) if h.tier == tier && key.is(&h.key) => f(&h.budget),
            _ => {
                let budget = budgets.shared(key);
                let r = f(&budget);
                *held = Some(Held {
                    tier,
                    key: key.to_owned(),
                    budget,
                });
                r
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_budgets_outlive_cleanup_and_others_go_once_full() {
        let budgets = Budgets::default();
        let a = LimitKeyRef::Ip(IpAddr::from([10, 0, 0, 1]));
        let b = LimitKeyRef::Key("k");
        let cache = BudgetCache::new();
        cache.with(0, a, &budgets, |x| x.minute.store(50, Ordering::Relaxed));
        budgets.with(b, |x| x.day.store(50, Ordering::Relaxed));
        assert_eq!(budgets.len(), 2);
        // Not full yet at 49: both stay.
        budgets.retain_recent(49);
        assert_eq!(budgets.len(), 2);
        // Full at 50: the unheld one goes, the held one stays.
        budgets.retain_recent(50);
        assert_eq!(budgets.len(), 1);
        let spent = cache.with(0, a, &budgets, |x| x.minute.load(Ordering::Relaxed));
        assert_eq!(spent, 50);
        // The map's entry is the held one, not a fresh budget.
        budgets.with(a, |x| assert_eq!(x.minute.load(Ordering::Relaxed), 50));
        // Another caller on the connection replaces what it holds; then the first can go.
        cache.with(0, b, &budgets, |x| {
            assert_eq!(x.day.load(Ordering::Relaxed), 0)
        });
        budgets.retain_recent(50);
        budgets.with(a, |x| assert_eq!(x.minute.load(Ordering::Relaxed), 0));
    }

    #[test]
    fn the_cache_tells_tiers_and_keys_apart() {
        let tiers = [Budgets::default(), Budgets::default()];
        let cache = BudgetCache::new();
        let ip = LimitKeyRef::Ip(IpAddr::from([192, 0, 2, 1]));
        let minute = |x: &Arc<Budget>| x.minute.load(Ordering::Relaxed);
        cache.with(0, ip, &tiers[0], |x| x.minute.store(7, Ordering::Relaxed));
        for key in [
            LimitKeyRef::Key("192.0.2.1"),
            LimitKeyRef::Ip(IpAddr::from([192, 0, 2, 2])),
        ] {
            assert_eq!(cache.with(0, key, &tiers[0], minute), 0, "{key:?}");
        }
        assert_eq!(cache.with(1, ip, &tiers[1], minute), 0, "another tier");
        assert_eq!(cache.with(0, ip, &tiers[0], minute), 7, "found again");
        assert_eq!(tiers[0].len(), 3);
        assert_eq!(tiers[1].len(), 1);
    }
}
