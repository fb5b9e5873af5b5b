//! The live continuation: the same bytes for the same seed whatever the clock says, stamps from
//! the clock (strictly increasing, never before it), the chains continued (heights and parents),
//! and the bundled history untouched by it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use snowline_devnet::{Devnet, DevnetConfig};
use snowline_types::container::{ContainerRecord, IndexPath};

/// Steps a fresh small devnet live `steps` times with a clock starting at `start_ns` and moving
/// `tick_ns` per reading.
fn live(seed: u64, steps: usize, start_ns: i64, tick_ns: i64) -> Vec<ContainerRecord> {
    let d = Devnet::generate(DevnetConfig::small().with_seed(seed)).unwrap();
    let mut live = d.into_live().unwrap();
    let mut now = start_ns;
    let mut clock = || {
        now += tick_ns;
        now
    };
    let mut out = Vec::new();
    for _ in 0..steps {
        out.extend(live.step(&mut clock).unwrap());
    }
    out
}

fn bytes(recs: &[ContainerRecord]) -> Vec<(IndexPath, Vec<u8>)> {
    recs.iter().map(|r| (r.path, r.bytes.clone())).collect()
}

#[test]
fn same_seed_same_containers_whatever_the_clock() {
    let a = live(1, 60, 1_790_000_000_000_000_000, 1_000_000);
    let b = live(1, 60, 1_800_000_000_000_000_000, 250_000_000);
    assert_eq!(bytes(&a), bytes(&b));
    assert_ne!(
        a.iter().map(|r| r.timestamp_ns).collect::<Vec<_>>(),
        b.iter().map(|r| r.timestamp_ns).collect::<Vec<_>>()
    );
    let c = live(2, 60, 1_790_000_000_000_000_000, 1_000_000);
    assert_ne!(bytes(&a), bytes(&c));
}

#[test]
fn stamps_come_from_the_clock_and_increase() {
    let start = 1_790_000_000_000_000_000i64;
    let recs = live(1, 40, start, 3_000_000);
    // The clock is read twice a step: the first stamp is the second reading.
    assert_eq!(recs[0].timestamp_ns, start + 6_000_000);
    for w in recs.windows(2) {
        assert!(w[1].timestamp_ns > w[0].timestamp_ns);
    }
    // A clock that stands still still gives increasing stamps.
    let still = live(1, 40, start, 0);
    assert!(
        still
            .windows(2)
            .all(|w| w[1].timestamp_ns > w[0].timestamp_ns)
    );
    assert!(still.iter().all(|r| r.timestamp_ns >= start));
}

#[test]
fn both_chains_go_on_and_the_history_stays_as_it_was() {
    let mut d = Devnet::generate(DevnetConfig::small()).unwrap();
    let history: Vec<ContainerRecord> = d.by_ref().map(|r| r.unwrap()).collect();
    let fresh: Vec<ContainerRecord> = Devnet::generate(DevnetConfig::small())
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(history, fresh, "the history does not depend on going live");
    let before = d.stats();
    let mut live = d.into_live().unwrap();
    let mut now = 1_790_000_000_000_000_000i64;
    let mut clock = || {
        now += 1_000_000;
        now
    };
    let mut recs = Vec::new();
    for _ in 0..30 {
        recs.extend(live.step(&mut clock).unwrap());
    }
    let after = live.devnet().stats();
    let x = recs.iter().filter(|r| r.path == IndexPath::XBlock).count() as u64;
    let p = recs.iter().filter(|r| r.path == IndexPath::PBlock).count() as u64;
    assert!(x > 0 && p > 0, "{x} X and {p} P blocks");
    assert_eq!(after.blocks, before.blocks + x);
    assert_eq!(after.p_blocks, before.p_blocks + p);
    assert!(after.txs > before.txs && after.p_txs > before.p_txs);
    assert!(
        recs.iter()
            .all(|r| r.path == IndexPath::XBlock || r.path == IndexPath::PBlock)
    );
    assert!(recs[0].timestamp_ns > history.last().unwrap().timestamp_ns);
}
