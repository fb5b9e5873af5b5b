//! API hex decoding of a container-sized payload (what an import of JSON lines spends its parse
//! threads on).
#![allow(missing_docs, clippy::unwrap_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use snowline_types::formatting::{decode_hex_plain, encode_hex_plain};

fn hex(c: &mut Criterion) {
    let data: Vec<u8> = (0..1_200u32).map(|i| (i * 31 % 251) as u8).collect();
    let text = encode_hex_plain(&data);
    let mut g = c.benchmark_group("hex");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("decode_plain_1200B", |b| {
        b.iter(|| decode_hex_plain(std::hint::black_box(&text)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, hex);
criterion_main!(benches);
