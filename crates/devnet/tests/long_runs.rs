//! Long runs must not drain the spendable AVAX: `large:1000000` used to stop after about 290k
//! txs with "no spendable UTXO left" because time-locked recipients and exports took a fraction
//! of each coin they touched, so the spendable total shrank geometrically until every coin was
//! dust. These tests measure that total on runs small enough for a debug build.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

use snowline_devnet::{Devnet, DevnetConfig};

/// Generates `cfg` to the end; returns the spendable AVAX before and after, and the tx count.
fn run(cfg: DevnetConfig) -> (u128, u128, u64) {
    let mut d = Devnet::generate(cfg).unwrap();
    let before = d.spendable_avax();
    for r in d.by_ref() {
        r.unwrap();
    }
    (before, d.spendable_avax(), d.stats().txs)
}

#[test]
fn large_preset_makes_its_full_count_and_keeps_its_avax() {
    let n = 6_000;
    let (before, after, txs) = run(DevnetConfig::large(n));
    assert!(txs >= n - n / 50, "large({n}) made only {txs} txs");
    // Fees (1 mAVAX a tx) and capped locked/exported amounts (≤ 1 AVAX a tx) cost at most about
    // 6 000 AVAX here, a 50 000th of the 300 M AVAX genesis; the old proportional outputs lost
    // about 40 % of it by 6 000 txs.
    assert!(before > 0);
    assert!(
        after >= before - before / 10_000,
        "spendable AVAX fell from {before} to {after} in {txs} txs"
    );
}

#[test]
fn few_keys_keep_their_avax_too() {
    let cfg = DevnetConfig {
        keys: 3,
        ..DevnetConfig::large(4_000)
    };
    let (before, after, txs) = run(cfg);
    assert!(txs >= 3_900, "made only {txs} txs");
    assert!(
        after >= before - before / 10_000,
        "spendable AVAX fell from {before} to {after} in {txs} txs"
    );
}
