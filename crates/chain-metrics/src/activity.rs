//! [`Activity`]: what one EVM block adds to the metrics, read from the block alone: its txs,
//! gas and fees, the addresses it saw (senders and recipients of txs and token transfers) and
//! the contracts it created with their deployers.

use std::collections::BTreeMap;

use snowline_chain_evm::parse::Block;
use snowline_types::evm::CallKind;

use crate::tables::{Addr, seen};

/// One block's contribution.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Activity {
    /// Transactions.
    pub txs: u64,
    /// The block's `gasUsed`.
    pub gas_used: u64,
    /// Σ gasUsed × effectiveGasPrice, wei.
    pub fees: u128,
    /// Σ effectiveGasPrice, wei.
    pub gas_price_sum: u128,
    /// The highest effectiveGasPrice, wei.
    pub gas_price_max: u128,
    /// Contracts created (and not reverted).
    pub contracts: u64,
    /// Every address the block saw, with what it did ([`seen`] bits).
    pub addresses: BTreeMap<Addr, u8>,
}

/// The zero address: the `from` of a mint and the `to` of a burn, not an actor.
const ZERO: Addr = [0; 20];

impl Activity {
    /// Reads `block`. Addresses count as the metrics API defines them: the `from` and `to` of
    /// each tx and each ERC-20/721/1155 transfer (the zero address of mints and burns left
    /// out); a contract is a creation that stayed (the tx's own, or a `CREATE`/`CREATE2` frame
    /// inside it), its deployer the frame's `from` (the sender, or the factory contract).
    pub fn of(block: &Block) -> Self {
        let mut a = Activity {
            txs: block.txs.len() as u64,
            gas_used: block.gas_used,
            ..Activity::default()
        };
        for tx in &block.txs {
            let price: u128 = tx.effective_gas_price.saturating_to();
            a.fees = a
                .fees
                .saturating_add(u128::from(tx.gas_used).saturating_mul(price));
            a.gas_price_sum = a.gas_price_sum.saturating_add(price);
            a.gas_price_max = a.gas_price_max.max(price);
            a.mark(tx.from.0.0, seen::ACTIVE | seen::SENDER);
            if let Some(to) = tx.to {
                a.mark(to.0.0, seen::ACTIVE);
            }
            for (emitter, log_index, log) in &tx.transfers {
                for t in log.transfers(*emitter, *log_index) {
                    a.mark(t.from.0.0, seen::ACTIVE | seen::SENDER);
                    a.mark(t.to.0.0, seen::ACTIVE);
                }
            }
            if tx.status != Some(false) && tx.contract_address.is_some() {
                a.contracts += 1;
                a.mark(tx.from.0.0, seen::DEPLOYER);
            }
            for f in tx.internals.iter().flatten() {
                let create = matches!(f.kind, CallKind::Create | CallKind::Create2);
                if f.depth > 0 && create && !f.reverted && f.to.is_some() {
                    a.contracts += 1;
                    a.mark(f.from.0.0, seen::DEPLOYER);
                }
            }
        }
        a
    }

    fn mark(&mut self, address: Addr, bits: u8) {
        if address != ZERO {
            *self.addresses.entry(address).or_default() |= bits;
        }
    }
}
