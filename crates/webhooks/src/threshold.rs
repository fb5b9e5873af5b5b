//! [`Balances`]: the `unlocked` balance of each address a `balance_threshold` webhook watches,
//! kept after each container incrementally from the UTXO moves the derivers' journals tell, and
//! the `balance_threshold` event when it crosses a webhook's threshold.
//!
//! An address's balance is read once, from the chain's rows, the first time a container moves
//! it while a threshold webhook watches it (or after a restart); from then on each container's
//! moves update it. The rows read may lag the batches derived but not yet written: the moves of
//! those (the sealed batch, unless the store already shows it, and the staged one) are kept
//! here and added. The store shows the sealed batch when it holds that batch's number, which
//! every batch writes ([`BATCH_MARK`]).

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};
use snowline_chain_p::PReader;
use snowline_chain_x::history::XHistoryReader;
use snowline_derive::{DeriveError, Note, UtxoNote};
use snowline_store::{ReadView, Store, WriteBatch};
use snowline_types::{Id, ShortId};

use crate::outbox::message_id;
use crate::pevents::BlockAt;
use crate::pnaddress::{BALANCE_THRESHOLD, PRIMARY_NETWORK_ADDRESS_ACTIVITY, UNLOCKED};
use crate::registry::Sub;
use crate::tables::{BATCH_MARK, WhNext};

/// An address of a chain.
type Key = (Id, ShortId);

/// The chains whose balances are kept and the asset counted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Chains {
    /// The P-Chain.
    pub p: Id,
    /// The X-Chain.
    pub x: Id,
    /// The network's AVAX.
    pub avax: Id,
}

/// The balances of the watched addresses, and the moves of the batches not yet written.
#[derive(Debug, Default)]
pub(crate) struct Balances {
    /// Each address's balance after the last container derived.
    known: HashMap<Key, u128>,
    /// The moves of the staged batch, and of the sealed one.
    staged: HashMap<Key, i128>,
    sealed: HashMap<Key, i128>,
    /// The containers derived in all finished batches (read from the store on first use),
    /// and that count as the sealed batch left it.
    last: Option<u64>,
    sealed_number: Option<u64>,
    /// The containers derived in the staged batch.
    staged_containers: u64,
}

/// What the `unlocked` balance of each address counts of a container's UTXO moves: AVAX outside
/// atomic memory, unlocked when created; a move's tx's chain is the balance's.
pub(crate) fn moves<A, B>(a: &[Note<A>], b: &[Note<B>], avax: &Id) -> BTreeMap<Key, i128> {
    let notes = a.iter().filter_map(utxo).chain(b.iter().filter_map(utxo));
    let mut out: BTreeMap<Key, i128> = BTreeMap::new();
    for u in notes.filter(|u| !u.shared && !u.locked && u.asset == *avax) {
        let amount = i128::from(u.amount);
        for o in &u.owners {
            *out.entry((u.chain, *o)).or_default() += if u.created { amount } else { -amount };
        }
    }
    out
}

/// The UTXO move `n` tells, if it tells one of the container's own txs.
fn utxo<E>(n: &Note<E>) -> Option<&UtxoNote> {
    match n {
        Note::Utxo(u) => Some(u),
        _ => None,
    }
}

impl Balances {
    /// Applies a container's `moves`: the balance before and after of each address moved that
    /// is known or `wanted` (read first when not known).
    pub(crate) fn advance(
        &mut self,
        view: &Store,
        chains: &Chains,
        moves: &BTreeMap<Key, i128>,
        wanted: impl Fn(&Key) -> bool,
    ) -> Result<Vec<(Key, u128, u128)>, DeriveError> {
        self.staged_containers += 1;
        let mut out = Vec::new();
        for (key, delta) in moves.iter().filter(|(_, d)| **d != 0) {
            let before = match self.known.get(key) {
                Some(b) => *b,
                None if wanted(key) => self.read(view, chains, key)?,
                None => continue,
            };
            let after = clamp(i128::try_from(before).unwrap_or(i128::MAX) + delta);
            self.known.insert(*key, after);
            out.push((*key, before, after));
        }
        for (key, delta) in moves {
            *self.staged.entry(*key).or_default() += delta;
        }
        Ok(out)
    }

    /// `key`'s balance before the container being derived: the chain's rows, with the moves
    /// of the batches they do not show yet.
    fn read(&self, view: &Store, chains: &Chains, key: &Key) -> Result<u128, DeriveError> {
        let snap = view.snapshot();
        let shown = match self.sealed_number {
            Some(n) => snap.get::<WhNext>(&BATCH_MARK.to_owned())? == Some(n),
            None => true,
        };
        let (chain, addr) = key;
        let rows = if *chain == chains.p {
            PReader::new(&snap).unlocked_owned(addr, &chains.avax)?
        } else if *chain == chains.x {
            XHistoryReader::new(&snap).unlocked_owned(addr, &chains.avax)?
        } else {
            0
        };
        let mut b = i128::try_from(rows).unwrap_or(i128::MAX);
        if !shown {
            b += self.sealed.get(key).copied().unwrap_or(0);
        }
        b += self.staged.get(key).copied().unwrap_or(0);
        Ok(clamp(b))
    }

    /// The staged batch is complete: it carries the count of containers derived up to its end,
    /// which the store shows once it is written. A count, not a batch number, so the index
    /// does not depend on how the containers were cut into batches (a restart, a fault).
    pub(crate) fn finish(
        &mut self,
        batch: &mut WriteBatch,
        view: &Store,
    ) -> Result<(), DeriveError> {
        let last = match self.last {
            Some(n) => n,
            None => view.get::<WhNext>(&BATCH_MARK.to_owned())?.unwrap_or(0),
        };
        let mark = last + std::mem::take(&mut self.staged_containers);
        self.last = Some(mark);
        batch.put::<WhNext>(&BATCH_MARK.to_owned(), &mark);
        Ok(())
    }

    pub(crate) fn seal(&mut self) {
        self.sealed = std::mem::take(&mut self.staged);
        self.sealed_number = self.last;
    }

    pub(crate) fn committed(&mut self) {
        self.sealed.clear();
        self.sealed_number = None;
    }

    /// The batches not written are dropped: what was derived from them is forgotten.
    pub(crate) fn discard(&mut self) {
        *self = Self::default();
    }
}

fn clamp(b: i128) -> u128 {
    u128::try_from(b).unwrap_or(0)
}

/// The `balance_threshold` delivery for `sub` when `addr`'s balance went from `before` to
/// `after` across its threshold in the container at `at`: `above` when it rose to the
/// threshold or past it, `below` when it fell under it.
pub(crate) fn body(
    sub: &Sub,
    at: &BlockAt<'_>,
    addr: &ShortId,
    (before, after): (u128, u128),
    avax: &Id,
) -> Option<Value> {
    let watch = sub.webhook.primary.as_ref()?;
    let t = u128::from(watch.threshold?);
    if !watch.wants(BALANCE_THRESHOLD) {
        return None;
    }
    let crossed = match (before >= t, after >= t) {
        (false, true) => "above",
        (true, false) => "below",
        _ => return None,
    };
    let text = watch.text(addr);
    let mut e = Map::new();
    e.insert("subEventType".into(), json!(BALANCE_THRESHOLD));
    e.insert("chainId".into(), json!(watch.chain_id));
    at.fields(&mut e);
    e.insert("address".into(), json!(text));
    e.insert("assetId".into(), json!(avax.to_string()));
    e.insert("balanceType".into(), json!(UNLOCKED));
    e.insert("balanceThreshold".into(), json!(t.to_string()));
    e.insert("previousBalance".into(), json!(before.to_string()));
    e.insert("balance".into(), json!(after.to_string()));
    e.insert("crossed".into(), json!(crossed));
    let id = &sub.webhook.id;
    let message = message_id(id, &at.id, &format!("{BALANCE_THRESHOLD}/{text}"));
    Some(
        json!({"webhookId": id, "eventType": PRIMARY_NETWORK_ADDRESS_ACTIVITY,
                "messageId": message, "event": Value::Object(e)}),
    )
}
