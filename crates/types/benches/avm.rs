//! X-Chain decode + id (borrowed and owned input) and JSON rendering of a signed 2-input
//! 2-output BaseTx.
#![allow(missing_docs, clippy::unwrap_used)]

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use snowline_types::avm::{
    BaseTx, Credential, TransferableIn, TransferableInput, TransferableOut, TransferableOutput, Tx,
    UnsignedTx,
};
use snowline_types::components::UtxoId;
use snowline_types::components::json::{JsonCtx, to_json_string};
use snowline_types::fx::secp256k1fx::{
    Credential as SecpCred, Input, OutputOwners, TransferInput, TransferOutput,
};
use snowline_types::{Id, ShortId};

fn sample_tx() -> Vec<u8> {
    let asset = Id([0x21; 32]);
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
            utxo_id: UtxoId::new(Id([0x42; 32]), i),
            asset_id: asset,
            input: TransferableIn::Secp256k1(TransferInput {
                amount: 2_000_000,
                input: Input {
                    sig_indices: vec![0],
                },
            }),
        })
        .collect();
    let creds = (0..2u8)
        .map(|i| {
            Credential::Secp256k1(SecpCred {
                sigs: vec![[i; 65]],
            })
        })
        .collect();
    Tx::new(
        UnsignedTx::Base(BaseTx {
            network_id: 1,
            blockchain_id: Id([0x33; 32]),
            outputs,
            inputs,
            memo: vec![],
        }),
        creds,
    )
    .bytes()
}

fn bench(c: &mut Criterion) {
    let bytes = sample_tx();
    let ctx = JsonCtx::new("X", "avax").unwrap();
    let parsed = Tx::parse(&bytes).unwrap();
    let mut g = c.benchmark_group("avm_base_tx_2in_2out");
    g.throughput(Throughput::Elements(1));
    g.bench_function("decode_and_id", |b| {
        b.iter(|| Tx::parse(std::hint::black_box(&bytes)).unwrap().id)
    });
    g.bench_function("decode_and_id_owned", |b| {
        b.iter_batched(
            || bytes.clone(),
            |owned| Tx::parse_vec(owned).unwrap().id,
            BatchSize::SmallInput,
        )
    });
    g.bench_function("json", |b| {
        b.iter(|| to_json_string(std::hint::black_box(&parsed), &ctx))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
