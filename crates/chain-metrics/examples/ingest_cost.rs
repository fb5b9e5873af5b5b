//! What the metrics hook costs EVM ingest: the same synthetic blocks derived and written by the
//! EVM deriver (`chain_evm::write_blocks`) into fresh stores, without and with
//! [`ChainMetrics`]' hook, interleaved over a few rounds; prints txs/s of each and the ratio.
//! Only the derive-and-write stage is measured (no JSON-RPC, no parsing, no `eth_call`s).
//!
//! ```sh
//! cargo run --release -p snowline-chain-metrics --example ingest_cost -- \
//!     [BLOCKS=2000] [TXS_PER_BLOCK=50] [ADDRESSES=50000] [BLOCKS_PER_BATCH=16] [ROUNDS=3]
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use snowline_chain_evm::enrich::Enrichment;
use snowline_chain_evm::parse::{Block, Tx};
use snowline_chain_evm::{EvmChain, write_blocks};
use snowline_chain_metrics::ChainMetrics;
use snowline_store::{Schema, Store};
use snowline_types::evm::{Address, B256, CallKind, InternalCall, TransferLog, U256};

const CHAIN: u64 = 43_114;

/// A small deterministic generator (64-bit LCG, Knuth's constants).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn address(n: u64) -> Address {
    let mut b = [0u8; 20];
    b[12..].copy_from_slice(&(n + 1).to_be_bytes());
    Address::from(b)
}

fn word(n: u64) -> B256 {
    B256::from(U256::from(n + 1))
}

/// `blocks` blocks of `txs` txs 2 s apart: each tx between two of `addresses` accounts with an
/// ERC-20 transfer between two others, every 100th a creation.
fn synthetic(blocks: u64, txs: u64, addresses: u64) -> (Vec<Block>, Vec<Enrichment>) {
    let mut rng = Lcg(7);
    let mut out = Vec::new();
    let mut enrichments = Vec::new();
    for n in 0..blocks {
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
            timestamp: 1_700_000_000 + 2 * n,
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

/// Derives and writes every block into a fresh store, `per_batch` blocks a batch; the time.
fn run(blocks: &[Block], enrichments: &[Enrichment], per_batch: usize, metrics: bool) -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let schema = snowline_chain_evm::tables()
        .into_iter()
        .chain(snowline_chain_metrics::tables())
        .fold(Schema::new(1), Schema::with_spec);
    let store = Store::open(dir.path(), &schema).unwrap();
    let mut chain = EvmChain::open(&store, CHAIN, 0).unwrap();
    if metrics {
        chain = chain.with_hooks(ChainMetrics::hooks().open(&store, CHAIN).unwrap());
    }
    let start = Instant::now();
    for (b, e) in blocks.chunks(per_batch).zip(enrichments.chunks(per_batch)) {
        write_blocks(&store, &mut chain, b, e).unwrap();
    }
    start.elapsed()
}

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (n, txs, addresses) = (arg(1, 2_000), arg(2, 50), arg(3, 50_000));
    let (per_batch, rounds) = (arg(4, 16) as usize, arg(5, 3));
    let (blocks, enrichments) = synthetic(n, txs, addresses);
    let total = (n * txs) as f64;
    let (mut without, mut with) = (Duration::MAX, Duration::MAX);
    for round in 1..=rounds {
        let a = run(&blocks, &enrichments, per_batch, false);
        let b = run(&blocks, &enrichments, per_batch, true);
        println!(
            "round {round}: without {:.0} txs/s, with metrics {:.0} txs/s",
            total / a.as_secs_f64(),
            total / b.as_secs_f64()
        );
        without = without.min(a);
        with = with.min(b);
    }
    let (a, b) = (total / without.as_secs_f64(), total / with.as_secs_f64());
    println!(
        "best of {rounds}: {n} blocks x {txs} txs, {addresses} addresses, {per_batch} blocks a \
         batch: without {a:.0} txs/s, with metrics {b:.0} txs/s ({:.1}% of the rate without)",
        100.0 * b / a
    );
}
