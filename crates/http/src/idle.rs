//! Which served connections are idle, and since when: past the connection cap, a new
//! connection makes room by closing the one idle the longest (no request in flight), as nginx
//! reuses its keep-alive connections when it runs out. A request costs two atomic stores; the
//! scan for the oldest runs only when the cap is reached.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tokio::sync::{Notify, OwnedSemaphorePermit, oneshot};

/// `idle_since` of a connection with a request in flight.
const BUSY: u64 = 0;
/// `idle_since` of a connection chosen for eviction.
const EVICTED: u64 = u64::MAX;

/// One served connection's state.
pub(crate) struct Slot {
    /// Nanoseconds (plus one) since the registry's epoch at which the connection became idle,
    /// or [`BUSY`], or [`EVICTED`].
    idle_since: AtomicU64,
    /// Whether a request is in flight (evicted or not).
    in_flight: AtomicBool,
    /// Woken when the connection is chosen for eviction.
    evict: Notify,
    /// Whether it holds a place under the cap (else it is waiting for one).
    served: AtomicBool,
    /// Where an evicted served connection hands its place when it ends: to the connection
    /// that evicted it, ahead of every connection waiting in the cap's queue.
    handoff: Mutex<Option<oneshot::Sender<OwnedSemaphorePermit>>>,
}

impl Slot {
    /// Whether a request is in flight.
    pub(crate) fn busy(&self) -> bool {
        self.in_flight.load(Ordering::Acquire)
    }

    /// Completes once the connection is chosen for eviction.
    pub(crate) async fn evicted(&self) {
        self.evict.notified().await;
    }

    /// The connection now holds a place under the cap.
    pub(crate) fn set_served(&self) {
        self.served.store(true, Ordering::Release);
    }

    /// The connection ends holding `permit`: to the connection that evicted it, if one did and
    /// still waits, else back to the cap.
    pub(crate) fn release(&self, permit: OwnedSemaphorePermit) {
        let to = self
            .handoff
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(to) = to {
            let _ = to.send(permit);
        }
    }
}

/// The served connections.
pub(crate) struct Registry {
    epoch: Instant,
    next_id: AtomicU64,
    slots: Mutex<HashMap<u64, Arc<Slot>>>,
}

/// A connection's registration: marks it busy and idle, and unregisters it when dropped.
pub(crate) struct Entry {
    registry: Arc<Registry>,
    id: u64,
    slot: Arc<Slot>,
}

impl Registry {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self {
            epoch: Instant::now(),
            next_id: AtomicU64::new(0),
            slots: Mutex::new(HashMap::new()),
        })
    }

    fn now(&self) -> u64 {
        // Plus one: never BUSY; an epoch 584 years old is never EVICTED.
        u64::try_from(self.epoch.elapsed().as_nanos())
            .unwrap_or(EVICTED - 1)
            .saturating_add(1)
            .min(EVICTED - 1)
    }

    /// Registers a new connection, idle from now (it has not sent a request yet).
    pub(crate) fn register(self: &Arc<Self>) -> Entry {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let slot = Arc::new(Slot {
            idle_since: AtomicU64::new(self.now()),
            in_flight: AtomicBool::new(false),
            evict: Notify::new(),
            served: AtomicBool::new(false),
            handoff: Mutex::new(None),
        });
        self.slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, Arc::clone(&slot));
        Entry {
            registry: Arc::clone(self),
            id,
            slot,
        }
    }

    /// Chooses, among the connections accepted before `making_room` (the one asking), the one
    /// idle the longest, preferring those holding a place under the cap, marks it evicted and
    /// wakes it; `None` when each of those has a request in flight (or is already being
    /// evicted). A connection accepted later is never chosen: it may have sent its first
    /// request, not read yet. Evicting a served connection hands its place to the asker when it
    /// ends (the receiver); evicting one still waiting removes a competitor only.
    pub(crate) fn evict_oldest_idle(&self, making_room: &Entry) -> Option<Eviction> {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            let oldest = slots
                .iter()
                .filter(|(id, _)| **id < making_room.id)
                .filter_map(|(_, s)| {
                    let since = s.idle_since.load(Ordering::Acquire);
                    let waiting = !s.served.load(Ordering::Acquire);
                    (since != BUSY && since != EVICTED).then_some(((waiting, since), s))
                })
                .min_by_key(|(key, _)| *key);
            let ((waiting, since), slot) = oldest?;
            // It may have taken a request since it was read: then look again.
            if slot
                .idle_since
                .compare_exchange(since, EVICTED, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                let handoff = (!waiting).then(|| {
                    let (tx, rx) = oneshot::channel();
                    *slot.handoff.lock().unwrap_or_else(PoisonError::into_inner) = Some(tx);
                    rx
                });
                slot.evict.notify_one();
                return Some(Eviction { handoff });
            }
        }
    }
}

/// A connection chosen for eviction: the place it will hand over, if it holds one.
pub(crate) struct Eviction {
    pub(crate) handoff: Option<oneshot::Receiver<OwnedSemaphorePermit>>,
}

impl Entry {
    pub(crate) fn slot(&self) -> &Arc<Slot> {
        &self.slot
    }
}

impl Drop for Entry {
    fn drop(&mut self) {
        self.registry
            .slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}

/// Marks a connection busy while a request is in flight (from the handler's call to its
/// answer), idle again when dropped. An evicted connection stays evicted.
pub(crate) struct InFlight {
    registry: Arc<Registry>,
    slot: Arc<Slot>,
}

impl InFlight {
    pub(crate) fn start(registry: &Arc<Registry>, slot: &Arc<Slot>) -> Self {
        slot.in_flight.store(true, Ordering::Release);
        let _ = slot
            .idle_since
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| {
                (v != EVICTED).then_some(BUSY)
            });
        Self {
            registry: Arc::clone(registry),
            slot: Arc::clone(slot),
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.slot.in_flight.store(false, Ordering::Release);
        let now = self.registry.now();
        let _ =
            self.slot
                .idle_since
                .compare_exchange(BUSY, now, Ordering::AcqRel, Ordering::Acquire);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_idle_the_longest_is_evicted_never_a_busy_one() {
        let r = Registry::new();
        let a = r.register();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = r.register();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let c = r.register();
        // D is the newcomer asking for room, E came after it: neither is chosen for D.
        let d = r.register();
        let e = r.register();
        let d_asks = &d;
        // A takes a request: B is now the one idle the longest.
        let in_flight = InFlight::start(&r, a.slot());
        assert!(a.slot().busy());
        assert!(r.evict_oldest_idle(d_asks).is_some());
        assert_eq!(b.slot().idle_since.load(Ordering::Acquire), EVICTED);
        assert!(r.evict_oldest_idle(d_asks).is_some());
        assert_eq!(c.slot().idle_since.load(Ordering::Acquire), EVICTED);
        // Only A is left, busy, and D asking.
        assert!(r.evict_oldest_idle(d_asks).is_none());
        assert_ne!(d.slot().idle_since.load(Ordering::Acquire), EVICTED);
        assert_ne!(e.slot().idle_since.load(Ordering::Acquire), EVICTED);
        drop(in_flight);
        assert!(!a.slot().busy());
        assert!(r.evict_oldest_idle(d_asks).is_some());
        // An evicted connection taking a request stays evicted.
        let late = InFlight::start(&r, b.slot());
        assert!(b.slot().busy());
        drop(late);
        assert_eq!(b.slot().idle_since.load(Ordering::Acquire), EVICTED);
        drop((a, b, c, d, e));
        assert!(
            r.slots
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .is_empty()
        );
    }
}
