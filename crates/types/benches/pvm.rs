//! P-Chain decode + ids of a proposervm-wrapped Banff standard block with 10 signed BaseTxs.
#![allow(missing_docs, clippy::unwrap_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use snowline_types::components::UtxoId;
use snowline_types::fx::secp256k1fx::{
    Credential as SecpCred, Input, OutputOwners, TransferInput, TransferOutput,
};
use snowline_types::platformvm::txs::{BaseTx, UnsignedTx};
use snowline_types::platformvm::{
    Block, CommonBlock, Credential, TransferableIn, TransferableInput, TransferableOut,
    TransferableOutput, Tx, parse_block,
};
use snowline_types::{Id, ShortId, proposervm};

fn sample_block() -> Vec<u8> {
    let asset = Id([0x21; 32]);
    let txs = (0..10u8)
        .map(|n| {
            let outputs = (0..2u8)
                .map(|i| TransferableOutput {
                    asset_id: asset,
                    output: TransferableOut::Secp256k1(TransferOutput {
                        amount: 1_000_000 + u64::from(i),
                        owners: OutputOwners::new(1, vec![ShortId([i + 1; 20])]),
                    }),
                })
                .collect();
            let inputs = (0..2u32)
                .map(|i| TransferableInput {
                    utxo_id: UtxoId::new(Id([n; 32]), i),
                    asset_id: asset,
                    input: TransferableIn::Secp256k1(TransferInput {
                        amount: 2_000_000,
                        input: Input {
                            sig_indices: vec![0],
                        },
                    }),
                })
                .collect();
            Tx::new(
                UnsignedTx::BaseTx(BaseTx {
                    network_id: 1,
                    blockchain_id: Id([0; 32]),
                    outputs,
                    inputs,
                    memo: Vec::new(),
                }),
                vec![
                    Credential::Secp256k1(SecpCred {
                        sigs: vec![[7; 65]]
                    });
                    2
                ],
            )
        })
        .collect();
    let inner = Block::BanffStandard {
        time: 1_700_000_000,
        common: CommonBlock {
            parent_id: Id([1; 32]),
            height: 1_000,
        },
        txs,
    };
    let outer = proposervm::Block::build_unsigned(
        Id([2; 32]),
        1_700_000_000,
        999,
        proposervm::Epoch::default(),
        inner.bytes(),
    );
    outer.bytes
}

fn bench(c: &mut Criterion) {
    let bytes = sample_block();
    let mut g = c.benchmark_group("pvm");
    g.throughput(Throughput::Elements(1));
    g.bench_function("wrapped_banff_standard_10tx_decode_and_ids", |b| {
        b.iter(|| {
            let p = parse_block(std::hint::black_box(&bytes)).unwrap();
            std::hint::black_box((p.id(), p.block.tx_ids.len()))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
