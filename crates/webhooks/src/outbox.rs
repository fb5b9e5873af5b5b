//! [`Outbox`]: what a deriver's hook needs to queue events into the batch it rides: each
//! webhook's next sequence number over the staged and sealed batches, the queue bound (a
//! webhook whose receiver has fallen `max_queued` events behind is deactivated in the same
//! batch, its queued events kept), and the batch protocol that publishes deactivations and,
//! once a batch with events is written, wakes the delivery task of each webhook it holds events
//! of ([`Wakers`]), and no other. The EVM block hook and the P-Chain hook each own one.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};
use snowline_store::{ReadView, Store, WriteBatch};
use snowline_types::Id;
use tokio::sync::Notify;

use crate::error::WebhookError;
use crate::model::Status;
use crate::model::uuid_text;
use crate::registry::{Registry, Sub};
use crate::tables::{STREAM_KEPT, WhAcked, WhEvents, WhNext, WhStream, WhWebhooks};

/// Each webhook's delivery task's bell: rung when a written batch holds events of that
/// webhook, so ten thousand idle webhooks do not all look at their outboxes for one that got
/// an event. A ring before the task waits is kept (one permit), so none is lost.
#[derive(Debug, Default)]
pub struct Wakers(Mutex<HashMap<String, Arc<Notify>>>);

impl Wakers {
    /// Webhook `id`'s bell.
    pub(crate) fn of(&self, id: &str) -> Arc<Notify> {
        let mut m = self.0.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(m.entry(id.to_owned()).or_default())
    }

    /// Rings the bells of `ids`.
    pub(crate) fn wake<'a>(&self, ids: impl IntoIterator<Item = &'a String>) {
        let mut m = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for id in ids {
            m.entry(id.clone()).or_default().notify_one();
        }
    }
}

/// One hook's staged events and numbering.
#[derive(Debug)]
pub(crate) struct Outbox {
    registry: Registry,
    /// Each webhook's next sequence number after the staged and sealed batches (loaded from
    /// the store on first use; forgotten when batches are dropped).
    next: HashMap<String, u64>,
    /// The webhooks whose number the staged batch changed.
    dirty: HashSet<String>,
    /// Rung for each webhook a written batch holds events of.
    written: Arc<Wakers>,
    /// The webhooks the staged batch, and the sealed one, hold events of.
    staged_events: HashSet<String>,
    sealed_events: HashSet<String>,
    /// Most events a webhook may have queued and not acknowledged.
    max_queued: u64,
    /// Each webhook's acknowledged cursor as last read (it only grows).
    acked: HashMap<String, u64>,
    /// Webhooks deactivated by the staged batch, and by the sealed one: published when written.
    staged_off: Vec<Sub>,
    sealed_off: Vec<Sub>,
}

impl Outbox {
    /// An outbox for `registry`'s webhooks; `written` rings each webhook a written batch holds
    /// events of; a webhook with `max_queued` events unacknowledged is deactivated.
    pub(crate) fn new(registry: Registry, written: Arc<Wakers>, max_queued: u64) -> Self {
        Self {
            registry,
            next: HashMap::new(),
            dirty: HashSet::new(),
            written,
            staged_events: HashSet::new(),
            sealed_events: HashSet::new(),
            max_queued,
            acked: HashMap::new(),
            staged_off: Vec::new(),
            sealed_off: Vec::new(),
        }
    }

    /// The webhooks.
    pub(crate) fn registry(&self) -> &Registry {
        &self.registry
    }

    fn next_seq(&mut self, store: &Store, id: &str) -> Result<u64, WebhookError> {
        if let Some(n) = self.next.get(id) {
            return Ok(*n);
        }
        let n = store.get::<WhNext>(&id.to_owned())?.unwrap_or(0);
        self.next.insert(id.to_owned(), n);
        Ok(n)
    }

    /// Whether webhook `id`, about to queue event `seq`, has `max_queued` unacknowledged.
    fn full(&mut self, store: &Store, id: &str, seq: u64) -> Result<bool, WebhookError> {
        let known = self.acked.get(id).copied().unwrap_or(0);
        if seq.saturating_sub(known) < self.max_queued {
            return Ok(false);
        }
        let acked = store.get::<WhAcked>(&id.to_owned())?.unwrap_or(0);
        self.acked.insert(id.to_owned(), acked);
        Ok(seq.saturating_sub(acked) >= self.max_queued)
    }

    /// Whether webhook `id` was deactivated by a batch not yet written.
    pub(crate) fn off(&self, id: &str) -> bool {
        self.staged_off
            .iter()
            .chain(&self.sealed_off)
            .any(|s| s.webhook.id == id)
    }

    /// Queues the event `body()` for `sub` in `batch`, unless a batch not yet written
    /// deactivated it; a webhook at the queue bound is deactivated in `batch` instead.
    pub(crate) fn queue(
        &mut self,
        store: &Store,
        batch: &mut WriteBatch,
        sub: &Sub,
        body: impl FnOnce() -> Vec<u8>,
    ) -> Result<(), WebhookError> {
        let id = &sub.webhook.id;
        if self.off(id) {
            return Ok(());
        }
        let seq = self.next_seq(store, id)?;
        if self.full(store, id, seq)? {
            tracing::warn!(
                webhook = %id,
                queued = self.max_queued,
                "receiver too far behind: webhook deactivated"
            );
            let mut off = sub.clone();
            off.webhook.status = Status::Inactive;
            let json = serde_json::to_vec(&off.webhook)
                .map_err(|e| WebhookError::invalid(e.to_string()))?;
            batch.put::<WhWebhooks>(&(off.webhook.org_id.clone(), id.clone()), &json);
            self.staged_off.push(off);
            return Ok(());
        }
        let body = body();
        batch.put::<WhEvents>(&(id.clone(), seq), &body);
        batch.put::<WhStream>(&(id.clone(), seq), &body);
        if let Some(old) = seq.checked_sub(STREAM_KEPT) {
            batch.delete::<WhStream>(&(id.clone(), old));
        }
        self.next.insert(id.clone(), seq + 1);
        self.dirty.insert(id.clone());
        self.staged_events.insert(id.clone());
        Ok(())
    }

    /// The staged batch is complete: each changed webhook's next number goes with it.
    pub(crate) fn finish(&mut self, batch: &mut WriteBatch) {
        for id in self.dirty.drain() {
            if let Some(n) = self.next.get(&id) {
                batch.put::<WhNext>(&id, n);
            }
        }
    }

    pub(crate) fn seal(&mut self) {
        self.sealed_events = std::mem::take(&mut self.staged_events);
        self.sealed_off = std::mem::take(&mut self.staged_off);
    }

    pub(crate) fn committed(&mut self) {
        for off in self.sealed_off.drain(..) {
            self.registry.set(off);
        }
        let sealed = std::mem::take(&mut self.sealed_events);
        if !sealed.is_empty() {
            self.written.wake(&sealed);
        }
    }

    pub(crate) fn discard(&mut self) {
        self.staged_off.clear();
        self.sealed_off.clear();
        self.next.clear();
        self.dirty.clear();
        self.sealed_events.clear();
        self.staged_events.clear();
    }
}

/// The stable `messageId` of sub-event `sub_event` of tx `tx` (or, for an event without a tx,
/// the id it is about and a `sub_event` naming the height) for webhook `webhook`.
pub fn message_id(webhook: &str, tx: &Id, sub_event: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"snowline-webhooks/validator-activity/v1");
    h.update(webhook.as_bytes());
    h.update(tx.as_bytes());
    h.update(sub_event.as_bytes());
    let d = h.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    uuid_text(&b)
}
