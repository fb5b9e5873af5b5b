//! [`PlatformHook`]: the P-Chain's derive hook that queues, in the batch of the block that holds
//! it, a `validator_activity` event for every staking tx a webhook watches: `validator_stake`
//! for a validator's tx (`AddValidatorTx`, `AddPermissionlessValidatorTx`,
//! `AddSubnetValidatorTx`), `delegator_stake` for a delegator's (`AddDelegatorTx`,
//! `AddPermissionlessDelegatorTx`); and, from what the P-Chain's deriver tells its [`Journal`]
//! about the block, rewards and L1 validator changes (`validator_activity`) and the UTXOs and
//! rewards of watched addresses (`primary_network_address_activity`, [`crate::pevents`]); and,
//! from what the X-Chain history's [`XJournal`] tells of each container, the UTXOs of watched
//! X-Chain addresses and of the C-Chain's atomic txs (`primary_network_address_activity`). It
//! rides the index's batches after the X- and P-Chain's own rows, so events and index commit
//! together, into one outbox, as the EVM hook's do.
//!
//! Only decision txs are read: those of standard blocks and the decision txs of a Banff proposal
//! block. Since Durango (avalanchego v1.11) every staking tx is a decision tx; a staking tx
//! proposed in a proposal block before it takes effect only if the next block commits it, and
//! is not reported.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};
use snowline_chain_p::{Journal, Note};
use snowline_chain_x::history::{TxNote, XJournal};
use snowline_derive::{Derive, DeriveError, Staging};
use snowline_store::{Store, WriteBatch};
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::{Block, UnsignedTx, parse_block};
use snowline_types::{Id, ShortId};

use crate::outbox::{Outbox, Wakers, message_id};
use crate::pevents::{BlockAt, Item, items};
use crate::pnaddress::BALANCE_THRESHOLD;
use crate::registry::{Registry, Sub};
use crate::threshold::{self, Balances, Chains, moves};
use crate::validator::{Key, Stake, VALIDATOR_ACTIVITY};

/// The Primary Network's webhook deriver (`validator_activity`,
/// `primary_network_address_activity`).
#[derive(Debug)]
pub struct PlatformHook {
    outbox: Outbox,
    /// What the P-Chain's deriver did with the container being derived.
    journal: Journal,
    /// What the X-Chain history did with it.
    x_journal: XJournal,
    /// The network's bech32 HRP, in which addresses are written.
    hrp: String,
    /// The network's P- and X-Chain and its AVAX.
    chains: Chains,
    /// The balances `balance_threshold` webhooks watch.
    balances: Balances,
}

impl PlatformHook {
    /// The hook queueing `registry`'s `validator_activity` events; `written` rings each
    /// webhook a written batch holds events of; a webhook with `max_queued` events unacknowledged
    /// is deactivated.
    pub fn new(registry: Registry, written: Arc<Wakers>, max_queued: u64) -> Self {
        Self {
            outbox: Outbox::new(registry, written, max_queued),
            journal: Journal::default(),
            x_journal: XJournal::default(),
            hrp: snowline_types::network::hrp(0).to_owned(),
            chains: Chains {
                p: Id::EMPTY,
                x: Id::EMPTY,
                avax: Id::EMPTY,
            },
            balances: Balances::default(),
        }
    }

    /// The same hook for `network`: its addresses written with its bech32 HRP, its P-Chain's
    /// rewards, its P- and X-Chain's AVAX balances.
    pub fn for_network(mut self, network: &NetworkInfo) -> Self {
        network.hrp.clone_into(&mut self.hrp);
        self.chains = Chains {
            p: network.p_chain_id,
            x: network.x_chain_id,
            avax: network.avax_asset_id,
        };
        self
    }

    /// The journal the P-Chain's deriver must tell (`PChain::with_journal`) for the events
    /// derived from what a block did.
    pub fn journal(&self) -> Journal {
        self.journal.clone()
    }

    /// The journal the X-Chain history must tell (`XHistory::with_journal`) for the X-Chain's
    /// and the C-Chain's atomic address events.
    pub fn x_journal(&self) -> XJournal {
        self.x_journal.clone()
    }

    /// Queues `body(sub)` for each of `subs`.
    fn queue_all(
        &mut self,
        view: &Store,
        batch: &mut WriteBatch,
        subs: Vec<Arc<Sub>>,
        body: impl Fn(&Sub) -> Option<Value>,
    ) -> Result<(), DeriveError> {
        for sub in subs {
            let Some(v) = body(&sub) else {
                continue;
            };
            self.outbox
                .queue(view, batch, &sub, || {
                    serde_json::to_vec(&v).unwrap_or_default()
                })
                .map_err(|e| DeriveError::Derive(format!("webhook outbox: {e}")))?;
        }
        Ok(())
    }
}

/// One container's notes in its order, the X-Chain history's and the P-Chain's, with the X- and
/// C-Chain's tx types: the X-Chain history tells its own before the P-Chain (it derives first),
/// so a C-Chain block's moves with X's and P's atomic memory are put back in the block's tx
/// order. `at` takes the container's height and time (and a C-Chain block's EVM hash) from the
/// txs the X-Chain history applied.
fn merge(
    path: IndexPath,
    x_notes: Vec<snowline_derive::Note<TxNote>>,
    p_notes: Vec<Note>,
    at: &mut BlockAt<'_>,
) -> (HashMap<Id, &'static str>, Vec<Note>) {
    use snowline_derive::Note as N;
    let mut typed = HashMap::new();
    let mut order: HashMap<Id, usize> = HashMap::new();
    let mut notes = Vec::with_capacity(x_notes.len() + p_notes.len());
    for n in x_notes {
        match n {
            N::Room(t) => {
                if order.is_empty() {
                    at.height = t.height;
                    at.timestamp = t.timestamp;
                    at.evm_hash = t.block_hash;
                }
                let next = order.len();
                order.entry(t.tx).or_insert(next);
                typed.insert(t.tx, t.tx_type);
            }
            N::Utxo(u) => notes.push(N::Utxo(u)),
            N::LateImport {
                utxo,
                height,
                timestamp,
            } => notes.push(N::LateImport {
                utxo,
                height,
                timestamp,
            }),
        }
    }
    notes.extend(p_notes);
    if path == IndexPath::CBlock {
        // Stable: each tx's moves keep their order; late parts go last.
        notes.sort_by_key(|n| match n {
            N::Utxo(u) => order.get(&u.tx).copied().unwrap_or(usize::MAX),
            _ => usize::MAX,
        });
    }
    (typed, notes)
}

/// The decision txs of `block` with their ids: a standard block's, a Banff proposal's
/// decision txs (its proposal tx excluded).
pub(crate) fn decisions<'a>(block: &'a Block, ids: &[Id]) -> Vec<(Id, &'a UnsignedTx)> {
    let txs: Vec<_> = match block {
        Block::ApricotStandard { txs, .. }
        | Block::BanffStandard { txs, .. }
        | Block::BanffProposal { txs, .. } => txs.iter().collect(),
        _ => Vec::new(),
    };
    txs.into_iter()
        .zip(ids)
        .map(|(t, id)| (*id, &t.unsigned))
        .collect()
}

/// The `event` of a `validator_activity` delivery.
pub fn event(s: &Stake, tx: &Id, block_id: &Id, height: u64, timestamp: u64) -> Value {
    let mut e = Map::new();
    e.insert("subEventType".into(), json!(s.sub_event));
    e.insert("txHash".into(), json!(tx.to_string()));
    e.insert("txType".into(), json!(s.tx_type));
    e.insert("blockHash".into(), json!(block_id.to_string()));
    e.insert("blockNumber".into(), json!(height.to_string()));
    e.insert("blockTimestamp".into(), json!(timestamp));
    e.insert("nodeId".into(), json!(s.node.to_string()));
    e.insert("subnetId".into(), json!(s.subnet.to_string()));
    e.insert("startTimestamp".into(), json!(s.start));
    e.insert("endTimestamp".into(), json!(s.end));
    e.insert("amountStaked".into(), json!(s.weight.to_string()));
    if let Some(shares) = s.shares {
        // The Data API's `delegationFeePercent`: millionths as a percentage, in decimal text.
        e.insert(
            "delegationFeePercent".into(),
            json!(format!("{}", f64::from(shares) / 10_000.0)),
        );
    }
    Value::Object(e)
}

impl Staging for PlatformHook {
    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), DeriveError> {
        self.outbox.finish(batch);
        self.balances.finish(batch, view)
    }

    fn seal(&mut self) {
        self.outbox.seal();
        self.balances.seal();
    }

    fn committed(&mut self) {
        self.outbox.committed();
        self.balances.committed();
    }

    fn discard(&mut self) {
        self.outbox.discard();
        self.balances.discard();
        self.journal.clear();
        self.x_journal.clear();
    }
}

impl Derive for PlatformHook {
    /// The P-Chain's blocks, the X-Chain's containers and the C-Chain's blocks (their atomic
    /// txs), each after the X-Chain history and the P-Chain derived it.
    const PATHS: &'static [IndexPath] = &IndexPath::ALL;
    type Prepared = ();

    fn derive(
        &mut self,
        batch: &mut WriteBatch,
        view: &Store,
        record: &ContainerRecord,
        _index: u64,
        _prepared: &(),
    ) -> Result<(), DeriveError> {
        // Taken whether or not anything watches, so that no container's notes reach the next.
        let p_notes: Vec<Note> = self.journal.take();
        let x_notes = self.x_journal.take();
        let registry = self.outbox.registry().clone();
        let moved = moves(&x_notes, &p_notes, &self.chains.avax);
        if !registry.watches_platform() {
            self.balances
                .advance(view, &self.chains, &moved, |_| false)?;
            return Ok(());
        }
        let hrp = self.hrp.clone();
        let accepted = u64::try_from(record.timestamp_ns / 1_000_000_000).unwrap_or(0);
        let mut at = BlockAt {
            id: record.id,
            height: None,
            timestamp: accepted,
            evm_hash: None,
            hrp: &hrp,
        };
        let (typed, notes) = merge(record.path, x_notes, p_notes, &mut at);
        // The P-Chain's own hook has parsed these bytes in the same batch and refused them if
        // they were not a block; a block this one cannot read gives no stake event. Another
        // chain's container gives only what its notes tell.
        let parsed = (record.path == IndexPath::PBlock)
            .then(|| parse_block(&record.bytes).ok())
            .flatten();
        let mut decided = Vec::new();
        if let Some(parsed) = &parsed {
            let block = &parsed.block;
            at.height = Some(block.block.height());
            at.timestamp = block.block.timestamp().unwrap_or(accepted);
            decided = decisions(&block.block, &block.tx_ids);
        }
        let p_chain = self.chains.p;
        for item in items(&decided, &typed, &notes) {
            match item {
                Item::Stake(tx, s) => {
                    let keys = [Key::Node(s.node), Key::Subnet(s.subnet)];
                    let subs = registry.validator_watching(&keys);
                    self.queue_all(view, batch, subs, |sub| {
                        let v = sub.webhook.validator.as_ref()?;
                        if !v.wants(s.sub_event, Some(s.node), s.subnet) {
                            return None;
                        }
                        let id = &sub.webhook.id;
                        Some(json!({
                            "webhookId": id,
                            "eventType": VALIDATOR_ACTIVITY,
                            "messageId": message_id(id, &tx, s.sub_event),
                            "event": event(&s, &tx, &at.id, at.height.unwrap_or_default(), at.timestamp),
                        }))
                    })?;
                }
                Item::Validator(v) => {
                    let subs = registry.validator_watching(&v.keys());
                    self.queue_all(view, batch, subs, |sub| v.body(sub, &at))?;
                }
                Item::Address(a) => {
                    let subs = registry.primary_watching(a.owners());
                    self.queue_all(view, batch, subs, |sub| a.body(sub, &at, &p_chain))?;
                }
            }
        }
        // The balances after the container, and the thresholds they crossed.
        let thresholds = |key: &(Id, ShortId)| -> Vec<Arc<Sub>> {
            let chain = key.0.to_string();
            registry
                .primary_watching([&key.1])
                .into_iter()
                .filter(|s| {
                    s.webhook.primary.as_ref().is_some_and(|w| {
                        w.threshold.is_some() && w.chain_id == chain && w.wants(BALANCE_THRESHOLD)
                    })
                })
                .collect()
        };
        let chains = self.chains;
        let changed = self
            .balances
            .advance(view, &chains, &moved, |k| !thresholds(k).is_empty())?;
        for ((chain, addr), before, after) in changed {
            let subs = thresholds(&(chain, addr));
            self.queue_all(view, batch, subs, |sub| {
                threshold::body(sub, &at, &addr, (before, after), &chains.avax)
            })?;
        }
        Ok(())
    }

    fn overlaps_writes(&self) -> bool {
        // Nothing here reads what a batch not yet written holds: the next sequence numbers
        // are kept in memory over the staged and sealed batches, and a balance read from the
        // store gets the moves of the batches the store does not show yet added.
        true
    }
}
