//! [`Registry`]: every webhook with its addresses, in memory, for the block hook (which must not
//! read the store per block) and the delivery loop. The store is the record; the registry is
//! loaded from it at start and replaced entry by entry after each change is written.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, RwLock};

use snowline_store::{Direction, ReadView, Store, StoreError};
use snowline_types::evm::Address;

use crate::model::{Status, Webhook};
use crate::tables::{WhAddresses, WhWebhooks};

/// A webhook and the addresses it watches.
#[derive(Debug, Clone)]
pub struct Sub {
    /// The record.
    pub webhook: Webhook,
    /// Watched addresses, in order.
    pub addresses: BTreeSet<Address>,
}

/// The webhooks by id, shared.
#[derive(Debug, Clone, Default)]
pub struct Registry(Arc<RwLock<BTreeMap<String, Arc<Sub>>>>);

impl Registry {
    /// Every webhook `store` holds.
    pub fn load(store: &Store) -> Result<Self, StoreError> {
        let mut all = BTreeMap::new();
        for entry in store.scan::<WhWebhooks, _>(.., Direction::Forward)? {
            let (_, json) = entry?;
            let Ok(webhook) = serde_json::from_slice::<Webhook>(&json) else {
                tracing::warn!("an unreadable webhook record was skipped");
                continue;
            };
            let mut addresses = BTreeSet::new();
            for a in store.prefix_scan::<WhAddresses, _>(&webhook.id, None, Direction::Forward)? {
                let ((_, a), ()) = a?;
                addresses.insert(Address::from(a));
            }
            all.insert(webhook.id.clone(), Arc::new(Sub { webhook, addresses }));
        }
        Ok(Self(Arc::new(RwLock::new(all))))
    }

    /// The webhook `id`.
    pub fn get(&self, id: &str) -> Option<Arc<Sub>> {
        self.0
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Puts `sub` in place of the webhook with its id.
    pub fn set(&self, sub: Sub) {
        self.0
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(sub.webhook.id.clone(), Arc::new(sub));
    }

    /// The active webhooks, of chain `chain` only if given.
    pub fn active(&self, chain: Option<u64>) -> Vec<Arc<Sub>> {
        self.0
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|s| s.webhook.status == Status::Active)
            .filter(|s| chain.is_none_or(|c| s.webhook.chain_id == c))
            .cloned()
            .collect()
    }

    /// How many webhooks organisation `org` has.
    pub fn count(&self, org: &str) -> usize {
        self.0
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|s| s.webhook.org_id == org)
            .count()
    }
}
