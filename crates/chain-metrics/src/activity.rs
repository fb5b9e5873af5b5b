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

#[cfg(test)]
mod tests {
    use super::*;
    use snowline_chain_evm::parse::Tx;
    use snowline_types::evm::{Address, B256, InternalCall, TransferLog, U256};

    fn a(n: u8) -> Address {
        Address::with_last_byte(n)
    }

    fn tx(from: u8, to: Option<u8>) -> Tx {
        Tx {
            hash: B256::ZERO,
            nonce: 0,
            from: a(from),
            to: to.map(a),
            value: U256::ZERO,
            gas: 100_000,
            gas_price: None,
            max_fee: None,
            max_priority_fee: None,
            input: Vec::new(),
            tx_type: 2,
            gas_used: 50_000,
            effective_gas_price: U256::from(25_000_000_000u64),
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

    fn create(depth: u32, from: u8, to: u8, reverted: bool) -> InternalCall {
        InternalCall {
            depth,
            kind: CallKind::Create2,
            from: a(from),
            to: Some(a(to)),
            value: U256::ZERO,
            gas_limit: 0,
            gas_used: 0,
            reverted,
        }
    }

    #[test]
    fn what_a_block_adds() {
        // 1 calls token 9, which mints to 2 (from the zero address) and moves 2 -> 3.
        let mut call = tx(1, Some(9));
        call.transfers = vec![
            (
                a(9),
                0,
                TransferLog::Erc20 {
                    from: Address::ZERO,
                    to: a(2),
                    value: U256::from(5u8),
                },
            ),
            (
                a(9),
                1,
                TransferLog::Erc20 {
                    from: a(2),
                    to: a(3),
                    value: U256::from(1u8),
                },
            ),
        ];
        // 4 deploys 10, whose constructor CREATE2s 11 (kept) and 12 (reverted).
        let mut deploy = tx(4, None);
        deploy.contract_address = Some(a(10));
        deploy.internals = Some(vec![
            create(0, 4, 10, false),
            create(1, 10, 11, false),
            create(1, 10, 12, true),
        ]);
        // 5's creation failed: no contract, and 5 deployed nothing.
        let mut failed = tx(5, None);
        failed.contract_address = Some(a(13));
        failed.status = Some(false);
        let block = Block {
            number: 7,
            hash: B256::ZERO,
            parent: B256::ZERO,
            timestamp: 1_700_000_000,
            miner: Address::ZERO,
            gas_limit: 8_000_000,
            gas_used: 150_000,
            base_fee: None,
            block_gas_cost: None,
            txs: vec![call, deploy, failed],
        };
        let got = Activity::of(&block);
        assert_eq!((got.txs, got.gas_used, got.contracts), (3, 150_000, 2));
        assert_eq!(got.fees, 3 * 50_000 * 25_000_000_000);
        assert_eq!(got.gas_price_sum, 3 * 25_000_000_000);
        assert_eq!(got.gas_price_max, 25_000_000_000);
        use seen::{ACTIVE, DEPLOYER, SENDER};
        let want: BTreeMap<Addr, u8> = [
            (1, ACTIVE | SENDER),
            (2, ACTIVE | SENDER),
            (3, ACTIVE),
            (4, ACTIVE | SENDER | DEPLOYER),
            (5, ACTIVE | SENDER),
            (9, ACTIVE),
            (10, DEPLOYER),
        ]
        .into_iter()
        .map(|(n, bits)| (a(n).0.0, bits))
        .collect();
        assert_eq!(got.addresses, want);
    }
}
