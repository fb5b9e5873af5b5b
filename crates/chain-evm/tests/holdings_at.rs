//! An address's token balances at a past block, served from its change log and snapshots
//! (`ev_holding_log`, `ev_holding_snapshots`): a synthetic chain where a few accounts make many
//! changes is indexed, and every account's ERC-20 and collectible balances after every block
//! (blocks between snapshots, exactly at them and just after) equal the balances summed from the
//! generator's own record of what each tx moved (`SynthTx::moved`, which knows nothing of the
//! indexer).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use common::*;
use snowline_chain_evm::genesis::GenesisOrigin;
use snowline_chain_evm::pages::{EvmPages, HoldingKinds, HoldingsQuery};
use snowline_chain_evm::tables::{EvGenesis, EvHoldingSnapshots};
use snowline_evm_devnet::spawn_synth;
use snowline_evm_devnet::synth::{Standard, Synth, SynthConfig};
use snowline_store::{Direction, ReadView, WriteBatch};
use snowline_types::evm::{Address, U256};

/// A holding as the model keys it: owner, ERC code (20, 721, 1155), token, id.
type Key = (Address, u16, Address, U256);

fn config() -> SynthConfig {
    SynthConfig {
        seed: 11,
        blocks: 80,
        txs_per_block: 30,
        accounts: 30,
        erc20: 12,
        erc721: 6,
        erc1155: 4,
        ..SynthConfig::default()
    }
}

/// The non-zero balances after each block, `out[n]` after block `n`, summed from the model's
/// movements of the successful txs (a mint from, or a burn to, the zero address changes only the
/// other side; a debit past zero stops at zero, as the indexer documents).
fn model_balances(synth: &Synth) -> Vec<BTreeMap<Key, U256>> {
    let mut now: BTreeMap<Key, U256> = BTreeMap::new();
    let mut out = vec![BTreeMap::new()];
    for n in 1..=synth.head() {
        for tx in synth.block(n).unwrap().txs.iter().filter(|t| t.success) {
            for m in &tx.moved {
                if m.from == m.to {
                    continue;
                }
                let code = match m.standard {
                    Standard::Erc20 => 20,
                    Standard::Erc721 => 721,
                    Standard::Erc1155 => 1155,
                };
                if m.from != Address::ZERO {
                    let b = now.entry((m.from, code, m.token, m.id)).or_default();
                    *b = b.saturating_sub(m.value);
                }
                if m.to != Address::ZERO {
                    let b = now.entry((m.to, code, m.token, m.id)).or_default();
                    *b = b.saturating_add(m.value);
                }
            }
        }
        out.push(
            now.iter()
                .filter(|(_, v)| **v > U256::ZERO)
                .map(|(k, v)| (*k, *v))
                .collect(),
        );
    }
    out
}

/// Every holding of `owner` the pages list after `block` for `kinds`, all pages of `size`.
fn listed(
    pages: &EvmPages,
    chain: u64,
    owner: Address,
    kinds: HoldingKinds,
    block: u64,
    size: u32,
) -> BTreeMap<(u16, Address, U256), U256> {
    let mut out = BTreeMap::new();
    let mut from: Option<Vec<u8>> = None;
    loop {
        let query = HoldingsQuery {
            kinds,
            contracts: &[],
            at: Some(block),
            hidden: &[],
        };
        let page = pages
            .holdings(chain, owner, query, size, from.as_deref())
            .unwrap();
        assert_eq!(page.block, block);
        for h in page.holdings {
            let code = match h.kind.code() {
                20 => 20,
                21 => 721,
                _ => 1155,
            };
            assert!(
                out.insert((code, h.contract, h.token_id), h.balance)
                    .is_none(),
                "listed twice"
            );
        }
        match page.next {
            Some(next) => from = Some(next),
            None => return out,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_balance_at_every_block_equals_the_models_around_each_snapshot() {
    let node = spawn_synth(config()).await.unwrap();
    let synth = Synth::new(config());
    let chain = snowline_evm_devnet::C_CHAIN_ID;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(open(dir.path()));
    // Each page carries the owner's native balance, served only where the genesis is known: it
    // is said to be (the native balances are not what this test compares).
    let mut batch = WriteBatch::new();
    batch.put::<EvGenesis>(&chain, &GenesisOrigin::File.code());
    store.write(batch).unwrap();
    sync_to(&store, &node.url, 4, node.head).await.unwrap();
    let after = model_balances(&synth);
    let owners: BTreeSet<Address> = after.iter().flat_map(|b| b.keys().map(|k| k.0)).collect();

    // The snapshot blocks of each owner, as the store holds them.
    let mut snapshots: BTreeMap<Address, Vec<u64>> = BTreeMap::new();
    for e in store
        .prefix_scan::<EvHoldingSnapshots, u64>(&chain, None, Direction::Forward)
        .unwrap()
    {
        let ((_, owner, _, block), _) = e.unwrap();
        snapshots
            .entry(Address::from(owner))
            .or_default()
            .push(block);
    }
    let many = snapshots.values().filter(|s| s.len() >= 3).count();
    assert!(
        many >= 3,
        "accounts with 3+ snapshots: {many} ({snapshots:?})"
    );
    // Some snapshot lies strictly inside the chain, so blocks before, at and after it are asked.
    assert!(
        snapshots
            .values()
            .flatten()
            .any(|b| *b > 1 && *b < node.head),
        "{snapshots:?}"
    );

    let pages = EvmPages::new(Arc::clone(&store));
    let mut checked = 0;
    for owner in &owners {
        for n in 0..=node.head {
            let want: BTreeMap<(u16, Address, U256), U256> = after[n as usize]
                .iter()
                .filter(|((o, ..), _)| o == owner)
                .map(|((_, s, t, id), v)| ((*s, *t, *id), *v))
                .collect();
            let mut got = listed(&pages, chain, *owner, HoldingKinds::Erc20, n, 7);
            got.extend(listed(
                &pages,
                chain,
                *owner,
                HoldingKinds::Collectibles,
                n,
                5,
            ));
            assert_eq!(got, want, "{owner} after block {n}");
            checked += want.len();
        }
    }
    assert!(checked > 10_000, "balances compared: {checked}");
}
