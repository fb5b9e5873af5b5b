//! [`Webhooks`]: the operations of the webhook API over the store, each change written in one
//! batch and then put in the [`Registry`]. Every operation takes the caller's organisation; a
//! webhook of another organisation is not found.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use snowline_store::{Direction, ReadView, Store, WriteBatch};
use snowline_types::evm::Address;
use tokio::sync::Notify;

use crate::addresses::AddressSet;
use crate::error::WebhookError;
use crate::model::{
    CreateRequest, Metadata, Status, UpdateRequest, Webhook, WebhookResponse, check_event_type,
    parse_address, parse_event_signatures, text, uuid_text,
};
use crate::net::check_url;
use crate::outbox::Wakers;
use crate::pnaddress::parse_address_watch;
use crate::registry::{Registry, Sub};
use crate::tables::{WhAddresses, WhSecrets, WhSetRefs, WhWebhooks};
use crate::validator::parse_watch;

/// What one organisation may hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Addresses per webhook.
    pub addresses: usize,
    /// Webhooks per organisation.
    pub webhooks: usize,
    /// Events a webhook may have queued and not acknowledged before it is deactivated.
    pub queued: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            addresses: 10_000,
            webhooks: 1_000,
            queued: 100_000,
        }
    }
}

/// What a new webhook's events come from, as the caller named it and the server checked it.
#[derive(Debug, Clone)]
pub enum Target {
    /// `address_activity` on the EVM chain of this id.
    Evm(u64),
    /// `validator_activity` on this server's network, whose P-Chain has id `chain_id`.
    Platform {
        /// The network's name.
        network: String,
        /// The P-Chain's id.
        chain_id: String,
    },
    /// `primary_network_address_activity` on this server's network's P-, X- or C-Chain.
    Primary {
        /// The network's name.
        network: String,
        /// The chain's id.
        chain_id: String,
        /// Whether the chain keeps UTXOs of its own (the P- and X-Chain), whose balances
        /// `balance_threshold` watches.
        thresholds: bool,
        /// The network's bech32 HRP.
        hrp: String,
    },
}

/// A page of a listing and the position after it.
#[derive(Debug)]
pub struct Page<T, P> {
    /// The items.
    pub items: Vec<T>,
    /// Where the next page starts, if there is one.
    pub next: Option<P>,
}

/// The webhook operations.
#[derive(Debug)]
pub struct Webhooks {
    store: Arc<Store>,
    registry: Registry,
    limits: Limits,
    /// Serialises changes (each reads a record and writes it back).
    write: Mutex<()>,
    /// Woken when a webhook changes, so the delivery loop looks again.
    changed: Arc<Notify>,
    /// Each webhook's delivery task's bell, rung by the hooks' written batches and by a change
    /// of the webhook (a reactivation delivers what stayed queued at once).
    wakers: Arc<Wakers>,
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn random<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    if getrandom::fill(&mut b).is_err() {
        // No OS randomness: fall back to the clock (ids stay unique by their time prefix).
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        for (i, x) in b.iter_mut().enumerate() {
            *x = (t >> ((i % 16) * 8)) as u8;
        }
    }
    b
}

/// The time field of the last id made: ids made in one millisecond take the next ones.
static LAST_ID_MS: AtomicU64 = AtomicU64::new(0);

/// A UUID (version 7: Unix milliseconds first, strictly increasing in this process, so ids
/// sort by creation).
fn new_id() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis()) as u64;
    let prev = LAST_ID_MS
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |last| {
            Some(now.max(last + 1))
        })
        .unwrap_or(now);
    let ms = now.max(prev + 1);
    let mut b: [u8; 16] = random();
    b[..6].copy_from_slice(&ms.to_be_bytes()[2..]);
    b[6] = 0x70 | (b[6] & 0x0f);
    b[8] = 0x80 | (b[8] & 0x3f);
    uuid_text(&b)
}

impl Webhooks {
    /// The operations over `store` (its webhooks loaded into memory).
    pub fn open(store: Arc<Store>, limits: Limits) -> Result<Self, WebhookError> {
        let registry = Registry::load(&store)?;
        Ok(Self {
            store,
            registry,
            limits,
            write: Mutex::new(()),
            changed: Arc::new(Notify::new()),
            wakers: Arc::default(),
        })
    }

    /// The webhooks in memory, which the block hook and the delivery loop read.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The store the webhooks are kept in.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// Notified after every change.
    pub fn changed(&self) -> &Arc<Notify> {
        &self.changed
    }

    /// The delivery tasks' bells, for the hooks to ring.
    pub fn wakers(&self) -> &Arc<Wakers> {
        &self.wakers
    }

    pub(crate) fn owned(&self, org: &str, id: &str) -> Result<Arc<Sub>, WebhookError> {
        self.registry
            .get(id)
            .filter(|s| s.webhook.org_id == org)
            .ok_or_else(|| WebhookError::NotFound(id.to_owned()))
    }

    fn addresses(&self, raw: &[String]) -> Result<BTreeSet<Address>, WebhookError> {
        if raw.len() > self.limits.addresses {
            return Err(WebhookError::invalid(format!(
                "Invalid addresses: at most {} per webhook",
                self.limits.addresses
            )));
        }
        raw.iter().map(|a| parse_address(a)).collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ()> {
        self.write.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes `sub` (and, when its addresses differ from `before`'s, its set's rows unless
    /// another webhook's set already holds them, releasing the old set's), then publishes it.
    fn save(&self, mut sub: Sub, before: Option<&Sub>) -> Result<WebhookResponse, WebhookError> {
        let mut batch = WriteBatch::new();
        if before.is_none_or(|b| b.addresses != sub.addresses) {
            sub.webhook.address_set = (!sub.addresses.is_empty()).then(|| sub.addresses.key());
            if let Some(key) = &sub.webhook.address_set {
                let n = self.store.get::<WhSetRefs>(key)?.unwrap_or(0);
                if n == 0 {
                    for a in &sub.addresses {
                        batch.put::<WhAddresses>(&(key.clone(), a.into_array()), &());
                    }
                }
                batch.put::<WhSetRefs>(key, &(n + 1));
            }
            if let Some(old) = before {
                self.release_rows(&mut batch, old)?;
            }
        }
        let w = &sub.webhook;
        let json = serde_json::to_vec(w).map_err(|e| WebhookError::invalid(e.to_string()))?;
        batch.put::<WhWebhooks>(&(w.org_id.clone(), w.id.clone()), &json);
        if self.store.get::<WhSecrets>(&w.org_id)?.is_none() {
            batch.put::<WhSecrets>(&w.org_id, &new_secret());
        }
        self.store.write(batch)?;
        let response = response(&sub);
        let id = sub.webhook.id.clone();
        self.registry.set(sub);
        self.changed.notify_waiters();
        self.wakers.wake([&id]);
        Ok(response)
    }

    /// `old` no longer watches its addresses: its set's rows go when no other webhook holds
    /// them (rows under a webhook's own id are its alone).
    fn release_rows(&self, batch: &mut WriteBatch, old: &Sub) -> Result<(), WebhookError> {
        let key = old.webhook.rows_key().to_owned();
        if old.webhook.address_set.is_some() {
            let n = self.store.get::<WhSetRefs>(&key)?.unwrap_or(0);
            if n > 1 {
                batch.put::<WhSetRefs>(&key, &(n - 1));
                return Ok(());
            }
            batch.delete::<WhSetRefs>(&key);
        }
        for a in &old.addresses {
            batch.delete::<WhAddresses>(&(key.clone(), a.into_array()));
        }
        Ok(())
    }

    /// `createWebhook` for organisation `org`; `target` is the EVM chain or the network the
    /// caller named, already checked to be this server's.
    pub fn create(
        &self,
        org: &str,
        req: CreateRequest,
        target: Target,
    ) -> Result<WebhookResponse, WebhookError> {
        check_event_type(&req.event_type)?;
        check_url(&req.url)?;
        let metadata = req
            .metadata
            .ok_or_else(|| WebhookError::invalid("Invalid metadata: required"))?;
        let mut primary = None;
        let (chain, addresses, event_signatures, validator) = match target {
            Target::Evm(chain) => {
                let metadata: Metadata = serde_json::from_value(metadata)
                    .map_err(|e| WebhookError::invalid(format!("Invalid metadata: {e}")))?;
                let signatures = parse_event_signatures(
                    metadata.event_signatures.as_deref().unwrap_or_default(),
                )?;
                let raw = metadata
                    .addresses
                    .ok_or_else(|| WebhookError::invalid("Invalid metadata.addresses: required"))?;
                (chain, self.addresses(&raw)?, signatures, None)
            }
            Target::Platform { network, chain_id } => {
                let watch = parse_watch(metadata, &network, &chain_id)?;
                (0, BTreeSet::new(), Vec::new(), Some(watch))
            }
            Target::Primary {
                network,
                chain_id,
                thresholds,
                hrp,
            } => {
                let max = self.limits.addresses;
                let chain = (chain_id.as_str(), thresholds);
                let watch = parse_address_watch(metadata, &network, chain, &hrp, max)?;
                primary = Some(watch);
                (0, BTreeSet::new(), Vec::new(), None)
            }
        };
        let _guard = self.lock();
        if self.registry.count(org) >= self.limits.webhooks {
            return Err(WebhookError::invalid(format!(
                "an organisation may have at most {} webhooks",
                self.limits.webhooks
            )));
        }
        let webhook = Webhook {
            id: new_id(),
            org_id: org.to_owned(),
            url: req.url,
            chain_id: chain,
            name: text("name", req.name, 256)?,
            description: text("description", req.description, 1024)?,
            status: Status::Active,
            created_at: now_secs(),
            include_internal_txs: req.include_internal_txs.unwrap_or(false),
            include_logs: req.include_logs.unwrap_or(false),
            event_signatures,
            validator,
            primary,
            address_set: None,
        };
        self.save(
            Sub {
                webhook,
                addresses: addresses.into_iter().collect(),
            },
            None,
        )
    }

    /// `getWebhook`.
    pub fn get(&self, org: &str, id: &str) -> Result<WebhookResponse, WebhookError> {
        Ok(response(&*self.owned(org, id)?))
    }

    /// `listWebhooks`: `org`'s webhooks oldest first, of `status` only if given, `size` at a
    /// time after the webhook `after`.
    pub fn list(
        &self,
        org: &str,
        status: Option<Status>,
        after: Option<&str>,
        size: usize,
    ) -> Result<Page<WebhookResponse, String>, WebhookError> {
        let org_key = org.to_owned();
        let after_key = after.map(|a| (org_key.clone(), a.to_owned()));
        let mut items = Vec::new();
        let mut next = None;
        for entry in self.store.prefix_scan::<WhWebhooks, _>(
            &org_key,
            after_key.as_ref(),
            Direction::Forward,
        )? {
            let ((_, id), _) = entry?;
            let Some(sub) = self.registry.get(&id) else {
                continue;
            };
            if status.is_some_and(|s| s != sub.webhook.status) {
                continue;
            }
            if items.len() == size {
                next = items.last().map(|r: &WebhookResponse| r.id.clone());
                break;
            }
            items.push(response(&sub));
        }
        Ok(Page { items, next })
    }

    /// `updateWebhook`: the fields present replace the stored ones.
    pub fn update(
        &self,
        org: &str,
        id: &str,
        req: UpdateRequest,
    ) -> Result<WebhookResponse, WebhookError> {
        let _guard = self.lock();
        let old = self.owned(org, id)?;
        let mut sub = (*old).clone();
        let w = &mut sub.webhook;
        if let Some(url) = req.url {
            check_url(&url)?;
            w.url = url;
        }
        if let Some(status) = req.status {
            w.status = Status::parse(&status).ok_or_else(|| {
                WebhookError::invalid(format!(
                    "Invalid status: must be \"active\" or \"inactive\", got {status:?}"
                ))
            })?;
        }
        if req.name.is_some() {
            w.name = text("name", req.name, 256)?;
        }
        if req.description.is_some() {
            w.description = text("description", req.description, 1024)?;
        }
        if let Some(b) = req.include_internal_txs {
            w.include_internal_txs = b;
        }
        if let Some(b) = req.include_logs {
            w.include_logs = b;
        }
        self.save(sub, Some(&old))
    }

    /// `deactivateWebhook`: nothing more is queued or delivered; what is queued stays, and
    /// is delivered if the webhook is made active again.
    pub fn deactivate(&self, org: &str, id: &str) -> Result<WebhookResponse, WebhookError> {
        self.update(
            org,
            id,
            UpdateRequest {
                status: Some("inactive".to_owned()),
                ..UpdateRequest::default()
            },
        )
    }

    /// `addAddressesToWebhook`.
    pub fn add_addresses(
        &self,
        org: &str,
        id: &str,
        raw: &[String],
    ) -> Result<WebhookResponse, WebhookError> {
        let more = self.addresses(raw)?;
        let _guard = self.lock();
        let old = self.owned(org, id)?;
        let mut sub = (*old).clone();
        if sub.webhook.validator.is_some() {
            return Err(WebhookError::invalid(
                "Invalid addresses: a validator_activity webhook watches a node or a subnet, \
                 not addresses",
            ));
        }
        if sub.webhook.primary.is_some() {
            return Err(WebhookError::invalid(
                "Invalid addresses: a primary_network_address_activity webhook's addresses \
                 are its metadata.keys, set at creation",
            ));
        }
        let added: Vec<Address> = more
            .into_iter()
            .filter(|a| !sub.addresses.contains(a))
            .collect();
        if sub.addresses.len() + added.len() > self.limits.addresses {
            return Err(WebhookError::invalid(format!(
                "Invalid addresses: at most {} per webhook",
                self.limits.addresses
            )));
        }
        sub.addresses = sub.addresses.iter().copied().chain(added).collect();
        self.save(sub, Some(&old))
    }

    /// `removeAddressesFromWebhook` (an address not watched is ignored).
    pub fn remove_addresses(
        &self,
        org: &str,
        id: &str,
        raw: &[String],
    ) -> Result<WebhookResponse, WebhookError> {
        let less = self.addresses(raw)?;
        let _guard = self.lock();
        let old = self.owned(org, id)?;
        let mut sub = (*old).clone();
        sub.addresses =
            AddressSet::from_iter(sub.addresses.iter().copied().filter(|a| !less.contains(a)));
        self.save(sub, Some(&old))
    }

    /// `getAddressesFromWebhook`: `size` addresses after `after`, and how many it watches.
    pub fn list_addresses(
        &self,
        org: &str,
        id: &str,
        after: Option<[u8; 20]>,
        size: usize,
    ) -> Result<(Page<String, [u8; 20]>, usize), WebhookError> {
        let sub = self.owned(org, id)?;
        let key = sub.webhook.rows_key().to_owned();
        let after_key = after.map(|a| (key.clone(), a));
        let mut items = Vec::new();
        let mut last = None;
        let mut next = None;
        for entry in self.store.prefix_scan::<WhAddresses, _>(
            &key,
            after_key.as_ref(),
            Direction::Forward,
        )? {
            let ((_, a), ()) = entry?;
            if items.len() == size {
                next = last;
                break;
            }
            items.push(Address::from(a).to_checksum(None));
            last = Some(a);
        }
        Ok((Page { items, next }, sub.addresses.len()))
    }

    /// `generateOrRotateSharedSecret`: a new secret for `org`; deliveries from now on are
    /// signed with it.
    pub fn rotate_secret(&self, org: &str) -> Result<String, WebhookError> {
        let _guard = self.lock();
        let secret = new_secret();
        self.store.put::<WhSecrets>(&org.to_owned(), &secret)?;
        Ok(secret)
    }

    /// `getSharedSecret`: `org`'s secret, made on first use.
    pub fn secret(&self, org: &str) -> Result<String, WebhookError> {
        let org = org.to_owned();
        if let Some(s) = self.store.get::<WhSecrets>(&org)? {
            return Ok(s);
        }
        let _guard = self.lock();
        // Looked at again under the lock: two first uses make one secret.
        if let Some(s) = self.store.get::<WhSecrets>(&org)? {
            return Ok(s);
        }
        let secret = new_secret();
        self.store.put::<WhSecrets>(&org, &secret)?;
        Ok(secret)
    }
}

fn new_secret() -> String {
    hex::encode(random::<32>())
}

fn response(sub: &Sub) -> WebhookResponse {
    let addresses: Vec<Address> = sub.addresses.iter().copied().collect();
    sub.webhook.response(&addresses)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use snowline_store::Schema;

    use super::*;

    fn count<T>(store: &Store) -> usize
    where
        T: snowline_store::Table,
    {
        store.scan::<T, _>(.., Direction::Forward).unwrap().count()
    }

    fn request(addresses: &[Address]) -> CreateRequest {
        let addresses: Vec<String> = addresses.iter().map(|a| a.to_checksum(None)).collect();
        CreateRequest {
            event_type: "address_activity".to_owned(),
            url: "http://example.com/hook".to_owned(),
            chain_id: Some("7".to_owned()),
            network: None,
            name: None,
            description: None,
            metadata: Some(serde_json::json!({ "addresses": addresses })),
            include_internal_txs: None,
            include_logs: None,
        }
    }

    /// A store of the webhook tables in `dir`, and the webhooks over it.
    fn opened(dir: &std::path::Path) -> (Arc<Store>, Webhooks) {
        let schema = crate::tables()
            .into_iter()
            .fold(Schema::new(1), Schema::with_spec);
        let store = Arc::new(Store::open(dir, &schema).unwrap());
        let w = Webhooks::open(Arc::clone(&store), Limits::default()).unwrap();
        (store, w)
    }

    #[test]
    fn webhooks_watching_equal_addresses_share_one_stored_set() {
        let dir = tempfile::tempdir().unwrap();
        let (store, w) = opened(dir.path());
        let list: Vec<Address> = (1..=50).map(Address::repeat_byte).collect();
        let mut ids = Vec::new();
        for _ in 0..3 {
            ids.push(w.create("o", request(&list), Target::Evm(7)).unwrap().id);
        }
        // Three webhooks, 50 rows, one set counted three times.
        assert_eq!(count::<WhAddresses>(&store), 50);
        let key = w
            .registry()
            .get(&ids[0])
            .unwrap()
            .webhook
            .address_set
            .clone()
            .unwrap();
        assert_eq!(store.get::<WhSetRefs>(&key).unwrap(), Some(3));
        // One more address for one of them: a set of its own, the first still counted twice.
        let extra = Address::repeat_byte(0xaa).to_checksum(None);
        w.add_addresses("o", &ids[0], std::slice::from_ref(&extra))
            .unwrap();
        assert_eq!(count::<WhAddresses>(&store), 50 + 51);
        assert_eq!(store.get::<WhSetRefs>(&key).unwrap(), Some(2));
        let (page, total) = w.list_addresses("o", &ids[0], None, 100).unwrap();
        assert_eq!((page.items.len(), total), (51, 51));
        assert!(page.items.contains(&extra));
        // Taken away again: back to the shared set, whose rows were never rewritten; the
        // one-off set's rows are gone with their last holder.
        w.remove_addresses("o", &ids[0], &[extra]).unwrap();
        assert_eq!(count::<WhAddresses>(&store), 50);
        assert_eq!(count::<WhSetRefs>(&store), 1);
        assert_eq!(store.get::<WhSetRefs>(&key).unwrap(), Some(3));
        // Emptied: no rows of its own, the shared set counted by the two others.
        w.remove_addresses(
            "o",
            &ids[1],
            &list.iter().map(|a| a.to_checksum(None)).collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(store.get::<WhSetRefs>(&key).unwrap(), Some(2));
        assert_eq!(w.list_addresses("o", &ids[1], None, 100).unwrap().1, 0);
        // Reloaded: the stored set is read once and shared in memory.
        drop(w);
        let w = Webhooks::open(Arc::clone(&store), Limits::default()).unwrap();
        let (a, c) = (
            w.registry().get(&ids[0]).unwrap(),
            w.registry().get(&ids[2]).unwrap(),
        );
        assert!(a.addresses.same(&c.addresses));
        assert_eq!(a.addresses.iter().copied().collect::<Vec<_>>(), list);
        assert_eq!(w.registry().watching(7, &[list[0]]).len(), 2);
    }

    #[test]
    fn rows_stored_under_a_webhooks_id_are_still_read_and_replaced_on_change() {
        let dir = tempfile::tempdir().unwrap();
        let (store, w) = opened(dir.path());
        let list: Vec<Address> = (1..=3).map(Address::repeat_byte).collect();
        let id = w.create("o", request(&list), Target::Evm(7)).unwrap().id;
        // As a store written before sets were shared holds it: rows under the id, no key.
        let mut old = w.registry().get(&id).unwrap().webhook.clone();
        let key = old.address_set.take().unwrap();
        let mut batch = WriteBatch::new();
        for a in &list {
            batch.delete::<WhAddresses>(&(key.clone(), a.into_array()));
            batch.put::<WhAddresses>(&(id.clone(), a.into_array()), &());
        }
        batch.delete::<WhSetRefs>(&key);
        batch.put::<WhWebhooks>(
            &("o".to_owned(), id.clone()),
            &serde_json::to_vec(&old).unwrap(),
        );
        store.write(batch).unwrap();
        drop(w);
        let w = Webhooks::open(Arc::clone(&store), Limits::default()).unwrap();
        assert_eq!(w.registry().watching(7, &[list[1]]).len(), 1);
        assert_eq!(
            w.list_addresses("o", &id, None, 10).unwrap().0.items.len(),
            3
        );
        // A change moves them to a shared set and drops the rows under the id.
        w.remove_addresses("o", &id, &[list[0].to_checksum(None)])
            .unwrap();
        let rows: Vec<String> = store
            .scan::<WhAddresses, _>(.., Direction::Forward)
            .unwrap()
            .map(|e| e.unwrap().0.0)
            .collect();
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|k| *k != id));
        assert_eq!(w.list_addresses("o", &id, None, 10).unwrap().1, 2);
    }

    #[test]
    fn ids_sort_by_creation_even_within_a_millisecond() {
        let ids: Vec<String> = (0..1000).map(|_| new_id()).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        // RFC 9562 section 5.7: version 7, variant 10.
        assert!(ids.iter().all(|id| &id[14..15] == "7"));
        assert!(
            ids.iter()
                .all(|id| matches!(&id[19..20], "8" | "9" | "a" | "b"))
        );
    }
}
