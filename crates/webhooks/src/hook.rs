//! [`WebhookHook`]: the EVM deriver's block hook that queues, in the block's own batch, an event
//! for every active webhook of the chain that a tx of the block touches. The events and each
//! webhook's next sequence number are written with the block and the chain's cursor, so a crash
//! loses none and a restart invents none. Matching is in memory ([`Registry`]); nothing here
//! waits on a receiver. A webhook whose receiver has fallen `max_queued` events behind is
//! deactivated in the same batch (as Glacier deactivates a failing webhook), so a dead receiver
//! cannot grow the outbox without bound; its queued events stay.

use std::sync::Arc;

use snowline_chain_evm::parse::Block;
use snowline_chain_evm::{BlockHook, BlockHooks, EvmError};
use snowline_derive::{DeriveError, Staging};
use snowline_store::{Store, WriteBatch};

use crate::event::{body, logs, message_id, signed_with, touched, transaction};
use crate::outbox::{Outbox, Wakers};
use crate::registry::Registry;

/// One chain's event deriver.
#[derive(Debug)]
pub struct WebhookHook {
    chain: u64,
    outbox: Outbox,
}

impl WebhookHook {
    /// The hooks that queue every followed chain's events for `registry`'s webhooks; `written`
    /// rings each webhook a written batch holds events of.
    /// A webhook with `max_queued` events unacknowledged is deactivated.
    pub fn hooks(registry: Registry, written: Arc<Wakers>, max_queued: u64) -> BlockHooks {
        BlockHooks::new().with(move |_store, chain| {
            let hook: Box<dyn BlockHook> = Box::new(WebhookHook {
                chain,
                outbox: Outbox::new(registry.clone(), Arc::clone(&written), max_queued),
            });
            Ok(hook)
        })
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
        let registry = self.outbox.registry().clone();
        if !registry.watches(self.chain) {
            return Ok(());
        }
        let mut cumulative = 0u64;
        for (index, tx) in block.txs.iter().enumerate() {
            cumulative = cumulative.saturating_add(tx.gas_used);
            let touched = touched(tx);
            let mut rendered = [None, None];
            let mut rendered_logs = None;
            for sub in &registry.watching(self.chain, &touched) {
                // A block read before a webhook needing logs existed (or asked for them) has
                // none: its filter cannot be applied, so such a webhook starts with the next
                // batch read, as one created a moment later would.
                match signed_with(tx, &sub.webhook.event_signatures) {
                    Some(true) => {}
                    Some(false) | None => continue,
                }
                let id = &sub.webhook.id;
                let internals = sub.webhook.include_internal_txs;
                let t = rendered[usize::from(internals)].get_or_insert_with(|| {
                    transaction(chain, block, index, tx, cumulative, internals)
                });
                let listed = if sub.webhook.include_logs {
                    rendered_logs
                        .get_or_insert_with(|| logs(index, tx))
                        .as_ref()
                } else {
                    None
                };
                let message = message_id(id, chain, tx);
                self.outbox
                    .queue(store, batch, sub, || body(id, &message, t, listed))
                    .map_err(|e| EvmError::Answer(format!("webhook outbox: {e}")))?;
            }
        }
        Ok(())
    }

    fn wants_logs(&self) -> bool {
        self.outbox.registry().wants_logs(self.chain)
    }
}

impl Staging for WebhookHook {
    fn finish(&mut self, batch: &mut WriteBatch, _view: &Store) -> Result<(), DeriveError> {
        self.outbox.finish(batch);
        Ok(())
    }

    fn seal(&mut self) {
        self.outbox.seal();
    }

    fn committed(&mut self) {
        self.outbox.committed();
    }

    fn discard(&mut self) {
        self.outbox.discard();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use snowline_chain_evm::parse::Tx;
    use snowline_store::{Direction, ReadView, Schema};
    use snowline_types::evm::{Address, B256, U256};

    use super::*;
    use crate::model::{Status, Webhook};
    use crate::registry::Sub;
    use crate::tables::{WhEvents, WhNext};

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
            event_signatures: Vec::new(),
            validator: None,
            primary: None,
            address_set: None,
        };
        registry.set(Sub {
            webhook,
            addresses: [watched].into_iter().collect(),
        });
        let written = Arc::new(Wakers::default());
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
