//! Acknowledgements in groups: a delivery that the receiver answered 2xx is handed to one writer
//! thread ([`Acks`]), which writes every acknowledgement queued by then in one batch (the
//! delivered events' deletes and each webhook's cursor), so ten thousand deliveries a block are
//! tens of writes, not ten thousand. No timer: the writer takes what is queued when it is free,
//! so an acknowledgement waits at most one write, and groups grow only when writes are busy.
//!
//! An acknowledgement is known in memory (each webhook's next sequence to deliver) before it is
//! written, so a delivery task goes on at once; a kill before the write sends those events
//! again after the restart, which at least once allows, and never skips one.

use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use snowline_store::{Store, StoreError, WriteBatch};

use crate::tables::{WhAcked, WhEvents};

/// Most acknowledgements one batch writes.
const MAX_GROUP: usize = 4096;

/// The acknowledgements of all webhooks' deliveries, written in groups by one thread.
#[derive(Debug)]
pub(crate) struct Acks {
    queue: Mutex<Option<Sender<(String, u64)>>>,
    /// Each webhook's first sequence not acknowledged, as delivered (written or not yet).
    next: Mutex<HashMap<String, u64>>,
    store: Arc<Store>,
}

impl Acks {
    /// Starts the writer of `store`'s acknowledgements; it ends when the last [`Acks`] goes.
    pub(crate) fn start(store: Arc<Store>) -> Arc<Self> {
        let (tx, rx) = channel();
        let writer = Arc::clone(&store);
        let spawned = std::thread::Builder::new()
            .name("webhook-acks".to_owned())
            .spawn(move || write_groups(&writer, &rx));
        // Without the thread each acknowledgement is written where it is made.
        let queue = match spawned {
            Ok(_) => Some(tx),
            Err(e) => {
                tracing::warn!(error = %e, "webhook acknowledgements written one by one");
                None
            }
        };
        Arc::new(Self {
            queue: Mutex::new(queue),
            next: Mutex::new(HashMap::new()),
            store,
        })
    }

    /// Webhook `id`'s first sequence not acknowledged, when a delivery of this process knows it.
    pub(crate) fn next(&self, id: &str) -> Option<u64> {
        let m = self.next.lock().unwrap_or_else(|e| e.into_inner());
        m.get(id).copied()
    }

    /// Records that webhook `id`'s event `seq` was delivered: known at once, written with the
    /// next group.
    pub(crate) fn ack(&self, id: &str, seq: u64) {
        {
            let mut m = self.next.lock().unwrap_or_else(|e| e.into_inner());
            let n = m.entry(id.to_owned()).or_default();
            *n = (*n).max(seq + 1);
        }
        let sent = {
            let q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            q.as_ref()
                .is_some_and(|tx| tx.send((id.to_owned(), seq)).is_ok())
        };
        if !sent && let Err(e) = write_group(&self.store, &[(id.to_owned(), seq)]) {
            tracing::warn!(webhook = %id, error = %e, "recording a delivery failed");
        }
    }
}

/// The writer: each time it is free, every acknowledgement queued (up to [`MAX_GROUP`]) in one
/// batch; until the queue closes.
fn write_groups(store: &Store, rx: &Receiver<(String, u64)>) {
    let mut group = Vec::with_capacity(MAX_GROUP);
    while let Ok(first) = rx.recv() {
        group.push(first);
        while group.len() < MAX_GROUP {
            match rx.try_recv() {
                Ok(ack) => group.push(ack),
                Err(_) => break,
            }
        }
        if let Err(e) = write_group(store, &group) {
            // Delivered but not recorded: sent again after a restart (at least once).
            tracing::warn!(error = %e, acks = group.len(), "recording deliveries failed");
        }
        group.clear();
    }
}

/// One batch: each delivered event deleted, each webhook's cursor past its last one.
fn write_group(store: &Store, group: &[(String, u64)]) -> Result<(), StoreError> {
    let mut batch = WriteBatch::new();
    let mut cursors: HashMap<&String, u64> = HashMap::new();
    for (id, seq) in group {
        batch.delete::<WhEvents>(&(id.clone(), *seq));
        let c = cursors.entry(id).or_default();
        *c = (*c).max(seq + 1);
    }
    for (id, next) in cursors {
        batch.put::<WhAcked>(id, &next);
    }
    store.write(batch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use snowline_store::{Direction, ReadView, Schema};

    fn store(dir: &std::path::Path) -> Arc<Store> {
        let schema = crate::tables::tables()
            .into_iter()
            .fold(Schema::new(1), Schema::with_spec);
        Arc::new(Store::open(dir, &schema).unwrap())
    }

    #[test]
    fn a_group_deletes_the_delivered_events_and_advances_each_cursor_to_its_last() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let mut b = WriteBatch::new();
        for id in ["a", "b"] {
            for seq in 0..4u64 {
                b.put::<WhEvents>(&(id.to_owned(), seq), &vec![1]);
            }
        }
        s.write(b).unwrap();
        let group = [
            ("a".to_owned(), 0),
            ("b".to_owned(), 0),
            ("a".to_owned(), 1),
            ("a".to_owned(), 2),
        ];
        write_group(&s, &group).unwrap();
        assert_eq!(s.get::<WhAcked>(&"a".to_owned()).unwrap(), Some(3));
        assert_eq!(s.get::<WhAcked>(&"b".to_owned()).unwrap(), Some(1));
        let left = |id: &str| -> Vec<u64> {
            s.prefix_scan::<WhEvents, _>(&id.to_owned(), None, Direction::Forward)
                .unwrap()
                .map(|e| e.unwrap().0.1)
                .collect()
        };
        assert_eq!(left("a"), [3]);
        assert_eq!(left("b"), [1, 2, 3]);
    }

    #[test]
    fn acknowledgements_are_known_at_once_and_written_by_the_thread() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let acks = Acks::start(Arc::clone(&s));
        assert_eq!(acks.next("a"), None);
        for seq in 0..100 {
            acks.ack("a", seq);
        }
        assert_eq!(acks.next("a"), Some(100), "known before any write");
        // The writer thread catches up; nothing else writes this store.
        let mut written = None;
        for _ in 0..10_000 {
            written = s.get::<WhAcked>(&"a".to_owned()).unwrap();
            if written == Some(100) {
                break;
            }
            std::thread::yield_now();
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(written, Some(100));
    }
}
