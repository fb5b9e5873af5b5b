//! [`Holdings`]: the token balances the deriver keeps, summed from the ERC-20, ERC-721 and
//! ERC-1155 transfer logs: the balance of every (owner, token, id) after the last block
//! (`ev_holdings`) and after each block that changed it (`ev_holding_history`), so a balance at
//! a past block is one reverse seek, never a question to the node; the same changes by owner,
//! kind and block (`ev_holding_log`) with periodic snapshots of the owner's whole holdings of the
//! kind (`ev_holding_snapshots`), so all of an owner's balances of a kind at a past block are one
//! seek and a short scan; and the same balances by token (`ev_holders`), for the holders of a token. Mints
//! (from the zero address) and burns (to it) change only the other side.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};
use snowline_derive::{PendingRows, Staging, StagingParts};
use snowline_store::{Direction, Linear, ReadView, Store, WriteBatch};
use snowline_types::evm::U256;

use crate::error::EvmError;
use crate::rows::{HeldToken, HoldingSnapshot, HoldingTally, TransferKind};
use crate::tables::{
    Addr, EvHolders, EvHoldingHistory, EvHoldingLog, EvHoldingSnapshots, EvHoldingTally,
    EvHoldings, EvNftTokens, Word,
};

/// The fewest change-log rows between two snapshots of an owner's holdings. A snapshot is due
/// once the log ran past the last one by as many rows as it held, and at least this many: its
/// bytes then cost at most one holding per change (disk within twice the log's), and a past
/// block's listing replays fewer rows than it lists, or than this (CPU within twice the page's
/// own reads, one seek instead of one per token).
pub const SNAPSHOT_EVERY: u32 = 32;

/// A holding's key: chain, owner, kind code, token, token id.
type Key = (u64, Addr, u8, Addr, Word);

/// The balances the unwritten batches changed, and the keys the current block changed.
#[derive(Debug, Default)]
pub(crate) struct Holdings {
    now: PendingRows<EvHoldings>,
    tally: PendingRows<EvHoldingTally>,
    block: FxHashSet<Key>,
}

/// One token movement, as a transfer row says it.
pub(crate) struct Movement {
    pub(crate) kind: TransferKind,
    pub(crate) token: Addr,
    pub(crate) id: Word,
    pub(crate) from: Addr,
    pub(crate) to: Addr,
    pub(crate) value: U256,
}

impl Holdings {
    /// Applies one movement of chain `chain`'s tokens: `value` leaves `from` and reaches `to`
    /// (the zero address on either side is a mint or a burn, not a holder). A debit past zero
    /// (a token that moves balances without logs) stops at zero.
    pub(crate) fn apply(
        &mut self,
        store: &Store,
        chain: u64,
        m: &Movement,
        batch: &mut WriteBatch,
    ) -> Result<(), EvmError> {
        let code = m.kind.code();
        if m.kind != TransferKind::Erc20 {
            batch.put::<EvNftTokens>(&(chain, m.token, m.id), &code);
        }
        if m.from == m.to {
            return Ok(());
        }
        if m.from != [0u8; 20] {
            let key = (chain, m.from, code, m.token, m.id);
            let (old, stored) = self.balance(store, &key)?;
            self.set(key, old.saturating_sub(m.value), stored);
        }
        if m.to != [0u8; 20] {
            let key = (chain, m.to, code, m.token, m.id);
            let (old, stored) = self.balance(store, &key)?;
            self.set(key, old.saturating_add(m.value), stored);
        }
        Ok(())
    }

    /// Writes the balance after block `n` of every key the block changed into `batch`: in its
    /// history, in its owner's change log and in the token's holders; and a snapshot of each
    /// owner's holdings whose log ran far enough past its last one.
    pub(crate) fn end_block(
        &mut self,
        store: &Store,
        n: u64,
        batch: &mut WriteBatch,
    ) -> Result<(), EvmError> {
        let mut owners: FxHashMap<(u64, Addr, u8), u32> = FxHashMap::default();
        for key in self.block.drain() {
            let Some((Some(value), _)) = self.now.get(&key) else {
                continue;
            };
            let (c, owner, kind, token, id) = key;
            batch.put::<EvHoldingHistory>(&(c, owner, kind, token, id, n), value);
            batch.put::<EvHoldingLog>(&(c, owner, kind, n, token, id), value);
            batch.put::<EvHolders>(&(c, token, kind, owner, id), value);
            *owners.entry((c, owner, kind)).or_default() += 1;
        }
        for (key, changes) in owners {
            let (mut tally, stored) = match self.tally.get(&key) {
                Some((v, stored)) => (v.map(|l| l.0).unwrap_or_default(), stored),
                None => match store.get::<EvHoldingTally>(&key)? {
                    Some(Linear(t)) => (t, true),
                    None => (HoldingTally::default(), false),
                },
            };
            tally.since = tally.since.saturating_add(changes);
            if tally.since >= tally.size.max(SNAPSHOT_EVERY) {
                let snapshot = self.snapshot(store, key)?;
                tally = HoldingTally {
                    since: 0,
                    size: u32::try_from(snapshot.held.len()).unwrap_or(u32::MAX),
                };
                batch.put::<EvHoldingSnapshots>(&(key.0, key.1, key.2, n), &Linear(snapshot));
            }
            self.tally.put(key, Linear(tally), stored);
        }
        Ok(())
    }

    /// Every non-zero holding of kind `kind` of `owner` on `chain` as the unwritten batches leave
    /// it: the store's rows with the unwritten changes over them.
    fn snapshot(
        &self,
        store: &Store,
        (chain, owner, kind): (u64, Addr, u8),
    ) -> Result<HoldingSnapshot, EvmError> {
        let mut held: BTreeMap<(Addr, Word), Word> = BTreeMap::new();
        for e in
            store.prefix_scan::<EvHoldings, _>(&(chain, owner, kind), None, Direction::Forward)?
        {
            let ((_, _, _, token, id), balance) = e?;
            held.insert((token, id), balance);
        }
        for ((c, o, k, token, id), balance) in self.now.changes() {
            if (*c, *o, *k) == (chain, owner, kind) {
                held.insert((*token, *id), balance.copied().unwrap_or([0u8; 32]));
            }
        }
        Ok(HoldingSnapshot {
            held: held
                .into_iter()
                .filter(|(_, balance)| *balance != [0u8; 32])
                .map(|((token, id), balance)| HeldToken { token, id, balance })
                .collect(),
        })
    }

    fn balance(&self, store: &Store, key: &Key) -> Result<(U256, bool), EvmError> {
        Ok(match self.now.get(key) {
            Some((v, stored)) => (v.map_or(U256::ZERO, |w| U256::from_be_bytes(*w)), stored),
            None => match store.get::<EvHoldings>(key)? {
                Some(w) => (U256::from_be_bytes(w), true),
                None => (U256::ZERO, false),
            },
        })
    }

    fn set(&mut self, key: Key, value: U256, stored: bool) {
        self.now.put(key, value.to_be_bytes::<32>(), stored);
        self.block.insert(key);
    }
}

/// The current balances and the owners' tallies are the parts; the block's changes are
/// forgotten with a dropped batch.
impl StagingParts for Holdings {
    fn parts(&mut self) -> impl Staging + '_ {
        [&mut self.now as &mut dyn Staging, &mut self.tally]
    }

    fn discard_own(&mut self) {
        self.block.clear();
    }
}
