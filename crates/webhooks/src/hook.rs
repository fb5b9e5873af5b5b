//! [`WebhookHook`]: the EVM deriver's block hook that queues, in the block's own batch, an event
//! for every active webhook of the chain that a tx of the block touches. The events and each
//! webhook's next sequence number are written with the block and the chain's cursor, so a crash
//! loses none and a restart invents none. Matching is in memory ([`Registry`]); nothing here
//! waits on a receiver.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use snowline_chain_evm::parse::Block;
use snowline_chain_evm::{BlockHook, BlockHooks, EvmError};
use snowline_derive::{DeriveError, Staging};
use snowline_store::{ReadView, Store, WriteBatch};
use tokio::sync::Notify;

use crate::event::{body, message_id, touched, transaction};
use crate::registry::Registry;
use crate::tables::{WhEvents, WhNext};

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
}

impl WebhookHook {
    /// The hooks that queue every followed chain's events for `registry`'s webhooks; `written`
    /// is notified after each batch holding events is written.
    pub fn hooks(registry: Registry, written: Arc<Notify>) -> BlockHooks {
        BlockHooks::new().with(move |_store, chain| {
            let hook: Box<dyn BlockHook> = Box::new(WebhookHook {
                chain,
                registry: registry.clone(),
                next: HashMap::new(),
                dirty: HashSet::new(),
                written: Arc::clone(&written),
                sealed_events: false,
                staged_events: false,
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
}

impl BlockHook for WebhookHook {
    fn block(
        &mut self,
        store: &Store,
        chain: u64,
        block: &Block,
        batch: &mut WriteBatch,
    ) -> Result<(), EvmError> {
        let subs = self.registry.active(Some(self.chain));
        if subs.is_empty() {
            return Ok(());
        }
        let mut cumulative = 0u64;
        for (index, tx) in block.txs.iter().enumerate() {
            cumulative = cumulative.saturating_add(tx.gas_used);
            let touched = touched(tx);
            let mut rendered = [None, None];
            for sub in &subs {
                if !touched.iter().any(|a| sub.addresses.contains(a)) {
                    continue;
                }
                let internals = sub.webhook.include_internal_txs;
                let t = rendered[usize::from(internals)].get_or_insert_with(|| {
                    transaction(chain, block, index, tx, cumulative, internals)
                });
                let id = &sub.webhook.id;
                let message = message_id(id, chain, tx);
                let seq = self.next_seq(store, id)?;
                batch.put::<WhEvents>(&(id.clone(), seq), &body(id, &message, t));
                self.next.insert(id.clone(), seq + 1);
                self.dirty.insert(id.clone());
                self.staged_events = true;
            }
        }
        Ok(())
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
    }

    fn committed(&mut self) {
        if std::mem::take(&mut self.sealed_events) {
            self.written.notify_waiters();
        }
    }

    fn discard(&mut self) {
        self.next.clear();
        self.dirty.clear();
        self.sealed_events = false;
        self.staged_events = false;
    }
}
