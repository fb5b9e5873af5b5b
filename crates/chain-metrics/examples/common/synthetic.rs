//! Synthetic EVM blocks for the metrics examples: deterministic, each tx between two accounts of
//! a pool plus an ERC-20 transfer between two others, every 100th a creation.

#![allow(dead_code)]

use snowline_chain_evm::enrich::Enrichment;
use snowline_chain_evm::parse::{Block, Tx};
use snowline_types::evm::{Address, B256, CallKind, InternalCall, TransferLog, U256};

/// A small deterministic generator (64-bit LCG, Knuth's constants).
pub struct Lcg(pub u64);

impl Lcg {
    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// The `n`th synthetic address.
pub fn address(n: u64) -> Address {
    let mut b = [0u8; 20];
    b[12..].copy_from_slice(&(n + 1).to_be_bytes());
    Address::from(b)
}

/// A 32-byte word from `n`.
pub fn word(n: u64) -> B256 {
    B256::from(U256::from(n + 1))
}

/// `blocks` blocks of `txs` txs `secs` apart from 2023-11-14: each tx between two of `addresses`
/// accounts with an ERC-20 transfer between two others, every 100th a creation; with the
/// balances the EVM deriver would be given.
pub fn synthetic(
    blocks: u64,
    txs: u64,
    addresses: u64,
    secs: u64,
) -> (Vec<Block>, Vec<Enrichment>) {
    synthetic_from(0, blocks, txs, addresses, secs)
}

/// Blocks `first..first + blocks` of [`synthetic`]'s chain (each chunk draws its own accounts).
pub fn synthetic_from(
    first: u64,
    blocks: u64,
    txs: u64,
    addresses: u64,
    secs: u64,
) -> (Vec<Block>, Vec<Enrichment>) {
    let mut rng = Lcg(7 + first);
    let mut out = Vec::new();
    let mut enrichments = Vec::new();
    for n in first..first + blocks {
        let mut enrichment = Enrichment::default();
        let block_txs: Vec<Tx> = (0..txs)
            .map(|i| {
                let from = address(rng.below(addresses));
                let to = address(rng.below(addresses));
                let create = (n * txs + i) % 100 == 0;
                let token = address(addresses + rng.below(100));
                enrichment.balances.push((from, U256::from(n)));
                enrichment.balances.push((to, U256::from(n)));
                Tx {
                    hash: word(n << 32 | i),
                    nonce: n,
                    from,
                    to: (!create).then_some(to),
                    value: U256::from(1u8),
                    gas: 100_000,
                    gas_price: None,
                    max_fee: Some(U256::from(50_000_000_000u64)),
                    max_priority_fee: Some(U256::from(1u8)),
                    input: vec![0xa9, 0x05, 0x9c, 0xbb],
                    tx_type: 2,
                    gas_used: 50_000,
                    effective_gas_price: U256::from(25_000_000_000u64 + rng.below(1_000)),
                    contract_address: create.then(|| address(10 * addresses + n * txs + i)),
                    status: Some(true),
                    emitters: vec![token],
                    transfers: vec![(
                        token,
                        i,
                        TransferLog::Erc20 {
                            from: address(rng.below(addresses)),
                            to: address(rng.below(addresses)),
                            value: U256::from(5u8),
                        },
                    )],
                    internals: Some(vec![InternalCall {
                        depth: 0,
                        kind: if create {
                            CallKind::Create
                        } else {
                            CallKind::Call
                        },
                        from,
                        to: Some(to),
                        value: U256::from(1u8),
                        gas_limit: 100_000,
                        gas_used: 50_000,
                        reverted: false,
                    }]),
                    frame_ends: vec![from, to],
                    messenger_logs: Vec::new(),
                    logs: None,
                }
            })
            .collect();
        out.push(Block {
            number: n,
            hash: word(1 << 40 | n),
            parent: if n == 0 {
                B256::ZERO
            } else {
                word(1 << 40 | (n - 1))
            },
            timestamp: 1_700_000_000 + secs * n,
            miner: Address::ZERO,
            gas_limit: 15_000_000,
            gas_used: 50_000 * txs,
            base_fee: Some(U256::from(25_000_000_000u64)),
            block_gas_cost: None,
            txs: block_txs,
        });
        enrichments.push(enrichment);
    }
    (out, enrichments)
}
