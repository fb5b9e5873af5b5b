//! [`WebhookHook`]: the EVM deriver's block hook that queues, in the block's own batch, an event
//! for every active webhook of the chain that a tx of the block touches. The events and each
//! webhook's next sequence number are written with the block and the chain's cursor, so a crash
//! loses none and a restart invents none. Matching is in memory ([`Registry`]); nothing here
//! waits on a receiver. A webhook whose receiver has fallen `max_queued` events behind is
//! deactivated in the same batch (as Glacier deactivates a failing webhook), so a dead receiver
//! cannot grow the outbox without bound; its queued events stay.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use snowline_chain_evm::parse::Block;
use snowline_chain_evm::{BlockHook, BlockHooks, EvmError};
use snowline_derive::{DeriveError, Staging};
use snowline_store::{ReadView, Store, WriteBatch};
use tokio::sync::Notify;

use crate::event::{body, logs, message_id, signed_with, touched, transaction};
use crate::model::Status;
use crate::registry::{Registry, Sub};
use crate::tables::{WhAcked, WhEvents, WhNext, WhWebhooks};

/// One chain's event deriver.
#[derive(Debug)]
pub struct WebhookHook {
    chain: u64,
    registry: Registry,
    /// Each webhook's next sequence number after the staged and sealed batches (loaded from
    /// the store on first use; forgotten when batches are dropped).
    next: HashMap<String, u64>,
    /// The webhooks whose number the staged batch changed.
    dirty: HashSet<String>,
    /// Woken when a batch with events is written.
    written: Arc<Notify>,
    /// Whether the sealed batch holds events.
    sealed_events: bool,
    staged_events: bool,
    /// Most events a webhook may have queued and not acknowledged.
    max_queued: u64,
    /// Each webhook's acknowledged cursor as last read (it only grows).
    acked: HashMap<String, u64>,
    /// Webhooks deactivated by the staged batch, and by the sealed one: published when written.
    staged_off: Vec<Sub>,
    sealed_off: Vec<Sub>,
}

impl WebhookHook {
    /// The hooks that queue every followed chain's events for `registry`'s webhooks; `written`
    /// is notified after each batch holding events is written.
    /// A webhook with `max_queued` events unacknowledged is deactivated.
    pub fn hooks(registry: Registry, written: Arc<Notify>, max_queued: u64) -> BlockHooks {
        BlockHooks::new().with(move |_store, chain| {
            let hook: Box<dyn BlockHook> = Box::new(WebhookHook {
                chain,
                registry: registry.clone(),
                next: HashMap::new(),
                dirty: HashSet::new(),
                written: Arc::clone(&written),
                sealed_events: false,
                staged_events: false,
                max_queued,
                acked: HashMap::new(),
                staged_off: Vec::new(),
                sealed_off: Vec::new(),
            });
            Ok(hook)
        })
    }

    fn next_seq(&mut self, store: &Store, id: &str) -> Result<u64, EvmError> {
        if let Some(n) = self.next.get(id) {
            return Ok(*n);
        }
        let n = store.get::<WhNext>(&id.to_owned())?.unwrap_or(0);
        self.next.insert(id.to_owned(), n);
        Ok(n)
    }

    /// Whether webhook `id`, about to queue event `seq`, has `max_queued` unacknowledged.
    fn full(&mut self, store: &Store, id: &str, seq: u64) -> Result<bool, EvmError> {
        let known = self.acked.get(id).copied().unwrap_or(0);
        if seq.saturating_sub(known) < self.max_queued {
            return Ok(false);
        }
        let acked = store.get::<WhAcked>(&id.to_owned())?.unwrap_or(0);
        self.acked.insert(id.to_owned(), acked);
        Ok(seq.saturating_sub(acked) >= self.max_queued)
    }

    fn off(&self, id: &str) -> bool {
        self.staged_off
            .iter()
            .chain(&self.sealed_off)
            .any(|s| s.webhook.id == id)
    }
}

impl BlockHook for WebhookHook {
    fn block(
        &mut self,
        store: &Store,
        chain: u64,
        block: &Block,
        batch: &mut WriteBatch,
    ) -> Result<(), EvmError> {
        if !self.registry.watches(self.chain) {
            return Ok(());
        }
        let mut cumulative = 0u64;
        for (index, tx) in block.txs.iter().enumerate() {
            cumulative = cumulative.saturating_add(tx.gas_used);
            let touched = touched(tx);
            let mut rendered = [None, None];
            let mut rendered_logs = None;
            for sub in &self.registry.watching(self.chain, &touched) {
                let id = &sub.webhook.id;
                if self.off(id) {
                    continue;
                }
                // A block read before a webhook needing logs existed (or asked for them) has
                // none: its filter cannot be applied, so such a webhook starts with the next
                // batch read, as one created a moment later would.
                match signed_with(tx, &sub.webhook.event_signatures) {
                    Some(true) => {}
                    Some(false) | None => continue,
                }
                let seq = self.next_seq(store, id)?;
                if self.full(store, id, seq)? {
                    tracing::warn!(
                        webhook = %id,
                        queued = self.max_queued,
                        "receiver too far behind: webhook deactivated"
                    );
                    let mut off = (**sub).clone();
                    off.webhook.status = Status::Inactive;
                    let json = serde_json::to_vec(&off.webhook)
                        .map_err(|e| EvmError::Answer(e.to_string()))?;
                    batch.put::<WhWebhooks>(&(off.webhook.org_id.clone(), id.clone()), &json);
                    self.staged_off.push(off);
                    continue;
                }
                let internals = sub.webhook.include_internal_txs;
                let t = rendered[usize::from(internals)].get_or_insert_with(|| {
                    transaction(chain, block, index, tx, cumulative, internals)
                });
                let message = message_id(id, chain, tx);
                let listed = if sub.webhook.include_logs {
                    rendered_logs.get_or_insert_with(|| logs(index, tx)).as_ref()
                } else {
                    None
                };
                batch.put::<WhEvents>(&(id.clone(), seq), &body(id, &message, t, listed));
                self.next.insert(id.clone(), seq + 1);
                self.dirty.insert(id.clone());
                self.staged_events = true;
            }
        }
        Ok(())
    }

    fn wants_logs(&self) -> bool {
        self.registry.wants_logs(self.chain)
    }
}

impl Staging for WebhookHook {
    fn finish(&mut self, batch: &mut WriteBatch, _view: &Store) -> Result<(), DeriveError> {
        for id in self.dirty.drain() {
            if let Some(n) = self.next.get(&id) {
                batch.put::<WhNext>(&id, n);
            }
        }
        Ok(())
    }

    fn seal(&mut self) {
        self.sealed_events = std::mem::take(&mut self.staged_events);
        self.sealed_off = std::mem::take(&mut self.staged_off);
    }

    fn committed(&mut self) {
        for off in self.sealed_off.drain(..) {
            self.registry.set(off);
        }
        if std::mem::take(&mut self.sealed_events) {
            self.written.notify_waiters();
        }
    }

    fn discard(&mut self) {
        self.staged_off.clear();
        self.sealed_off.clear();
        self.next.clear();
        self.dirty.clear();
        self.sealed_events = false;
        self.staged_events = false;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use std::collections::BTreeSet;

    use snowline_chain_evm::parse::Tx;
    use snowline_store::{Direction, Schema};
    use snowline_types::evm::{Address, B256, U256};

    use super::*;
    use crate::model::Webhook;

    fn tx(n: u8, from: Address) -> Tx {
        Tx {
            hash: B256::repeat_byte(n),
            nonce: u64::from(n),
            from,
            to: Some(Address::repeat_byte(0xee)),
            value: U256::from(n),
            gas: 21_000,
            gas_price: Some(U256::from(1)),
            max_fee: None,
            max_priority_fee: None,
            input: Vec::new(),
            tx_type: 0,
            gas_used: 21_000,
            effective_gas_price: U256::from(1),
            contract_address: None,
            status: Some(true),
            emitters: Vec::new(),
            transfers: Vec::new(),
            internals: None,
            frame_ends: Vec::new(),
            messenger_logs: Vec::new(),
            logs: None,
        }
    }

    fn block(number: u64, txs: Vec<Tx>) -> Block {
        Block {
            number,
            hash: B256::repeat_byte(number as u8),
            parent: B256::ZERO,
            timestamp: 1_700_000_000 + number,
            miner: Address::ZERO,
            gas_limit: 8_000_000,
            gas_used: 21_000,
            base_fee: None,
            block_gas_cost: None,
            txs,
        }
    }

    fn events(store: &Store, id: &str) -> Vec<u64> {
        store
            .prefix_scan::<WhEvents, _>(&id.to_owned(), None, Direction::Forward)
            .unwrap()
            .map(|e| e.unwrap().0.1)
            .collect()
    }

    #[test]
    fn events_are_numbered_with_the_written_batches_and_a_dropped_batch_gives_none() {
        let dir = tempfile::tempdir().unwrap();
        let schema = crate::tables()
            .into_iter()
            .fold(Schema::new(1), Schema::with_spec);
        let store = Store::open(dir.path(), &schema).unwrap();
        let watched = Address::repeat_byte(0x11);
        let registry = Registry::default();
        let webhook = Webhook {
            id: "w".to_owned(),
            org_id: "o".to_owned(),
            url: "http://example.com/".to_owned(),
            chain_id: 7,
            name: String::new(),
            description: String::new(),
            status: Status::Active,
            created_at: 0,
            include_internal_txs: false,
            include_logs: false,
        };
        registry.set(Sub {
            webhook,
            addresses: BTreeSet::from([watched]),
        });
        let written = Arc::new(Notify::new());
        let mut hook = WebhookHook::hooks(registry, written, 100)
            .open(&store, 7)
            .unwrap()
            .pop()
            .unwrap();
        let other = Address::repeat_byte(0x22);
        let write = |hook: &mut Box<dyn BlockHook>, b: &Block| {
            let mut batch = WriteBatch::new();
            hook.block(&store, 7, b, &mut batch).unwrap();
            hook.finish(&mut batch, &store).unwrap();
            hook.seal();
            store.write(batch).unwrap();
            hook.committed();
        };
        // Two of the three txs touch the watched address: two events, numbered 0 and 1.
        write(
            &mut hook,
            &block(1, vec![tx(1, watched), tx(2, other), tx(3, watched)]),
        );
        assert_eq!(events(&store, "w"), [0, 1]);
        // A staged batch that is dropped leaves nothing, and its numbers are given again.
        let mut dropped = WriteBatch::new();
        hook.block(&store, 7, &block(2, vec![tx(4, watched)]), &mut dropped)
            .unwrap();
        hook.discard();
        write(&mut hook, &block(2, vec![tx(4, watched)]));
        assert_eq!(events(&store, "w"), [0, 1, 2]);
        assert_eq!(store.get::<WhNext>(&"w".to_owned()).unwrap(), Some(3));
        // A block touching none of its addresses adds nothing.
        write(&mut hook, &block(3, vec![tx(5, other)]));
        assert_eq!(events(&store, "w"), [0, 1, 2]);
    }
}
