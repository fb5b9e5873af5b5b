//! The committed sample in `fixtures/devnet/` is exactly what the generator makes for the small
//! preset, seed 1 (regenerate with the command in `docs/devnet.md`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

use std::path::PathBuf;

use snowline_devnet::{Devnet, DevnetConfig, genesis_json, write_jsonl};
use snowline_types::container::{ContainerRecord, IndexCounter};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/devnet")
}

#[test]
fn committed_sample_regenerates_byte_for_byte() {
    let mut d = Devnet::generate(DevnetConfig::small().with_seed(1)).unwrap();
    let mut jsonl = Vec::new();
    write_jsonl(&mut d, &mut jsonl).unwrap();
    let committed = std::fs::read(fixtures().join("containers.jsonl")).unwrap();
    assert!(
        jsonl == committed,
        "containers.jsonl differs; regenerate (docs/devnet.md)"
    );
    let genesis = std::fs::read_to_string(fixtures().join("genesis.json")).unwrap();
    assert!(
        genesis_json(&d) == genesis,
        "genesis.json differs; regenerate (docs/devnet.md)"
    );
    assert!(
        committed.len() < 760_000,
        "sample too big: {}",
        committed.len()
    );
}

#[test]
fn committed_sample_is_a_valid_import_file() {
    let text = std::fs::read_to_string(fixtures().join("containers.jsonl")).unwrap();
    let mut counter = IndexCounter::new();
    let mut n = 0;
    for line in text.lines() {
        let l = ContainerRecord::parse_json_line(line).unwrap();
        counter.assign(&l).unwrap();
        l.record.check_id().unwrap();
        n += 1;
    }
    assert!(n > 100);
}
