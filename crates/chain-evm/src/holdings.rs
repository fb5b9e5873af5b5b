//! [`Holdings`]: the token balances the deriver keeps, summed from the ERC-20, ERC-721 and
//! ERC-1155 transfer logs: the balance of every (owner, token, id) after the last block
//! (`ev_holdings`) and after each block that changed it (`ev_holding_history`), so a balance at
//! a past block is one reverse seek, never a question to the node; and the same balances by token
//! (`ev_holders`), for the holders of a token. Mints (from the zero address)
//! and burns (to it) change only the other side.

use rustc_hash::FxHashSet;
use snowline_derive::{PendingRows, Staging, StagingParts};
use snowline_store::{ReadView, Store, WriteBatch};
use snowline_types::evm::U256;

use crate::error::EvmError;
use crate::rows::TransferKind;
use crate::tables::{Addr, EvHolders, EvHoldingHistory, EvHoldings, EvNftTokens, Word};

/// A holding's key: chain, owner, kind code, token, token id.
type Key = (u64, Addr, u8, Addr, Word);

/// The balances the unwritten batches changed, and the keys the current block changed.
#[derive(Debug, Default)]
pub(crate) struct Holdings {
    now: PendingRows<EvHoldings>,
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

    /// Writes the balance after block `n` of every key the block changed into `batch`, in its
    /// history and in the token's holders.
    pub(crate) fn end_block(&mut self, n: u64, batch: &mut WriteBatch) {
        for key in self.block.drain() {
            let Some((Some(value), _)) = self.now.get(&key) else {
                continue;
            };
            let (c, owner, kind, token, id) = key;
            batch.put::<EvHoldingHistory>(&(c, owner, kind, token, id, n), value);
            batch.put::<EvHolders>(&(c, token, kind, owner, id), value);
        }
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

/// The current balances are the one part; the block's changes are forgotten with a dropped
/// batch.
impl StagingParts for Holdings {
    fn parts(&mut self) -> impl Staging + '_ {
        &mut self.now
    }

    fn discard_own(&mut self) {
        self.block.clear();
    }
}
