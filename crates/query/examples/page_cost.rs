//! Measures what one page costs: token encode and decode, and a page of a k-way merge at
//! increasing depths (the cost must not grow with depth). Run with
//! `cargo run --release -p snowline-query --example page_cost`.

use std::hint::black_box;
use std::time::Instant;

use snowline_query::{
    FilterDigest, PositionWriter, SealedPageTokens, SortOrder, TokenSecret, merge_sorted, take_page,
};

fn main() -> Result<(), snowline_query::QueryError> {
    let tokens = SealedPageTokens::new(TokenSecret::generate()?);
    let digest = FilterDigest::new("xchain.utxos")
        .field("addresses", "avax1…,avax1…")
        .field("sortBy", "timestamp")
        .field("sortOrder", "desc")
        .finish();
    let mut w = PositionWriter::new();
    w.u64(1_700_000_000).bytes32(&[7; 32]);
    let position = w.into_bytes();

    let n = 200_000u32;
    let start = Instant::now();
    let mut token = String::new();
    for i in 0..n {
        token = tokens.encode(&digest, black_box(&position), Some(u64::from(i) + 1));
    }
    let encode = start.elapsed() / n;
    let start = Instant::now();
    for _ in 0..n {
        black_box(tokens.decode(black_box(&token), &digest, 0)?);
    }
    let decode = start.elapsed() / n;
    println!(
        "token: {} chars; encode {encode:?}, decode {decode:?}",
        token.len()
    );

    // 64 sources (addresses) of 1M keys each, interleaved; a page of 100 starting at depth d.
    let k = 64u64;
    for depth in [0u64, 1_000, 1_000_000, 60_000_000] {
        let runs = 2_000u32;
        let start = Instant::now();
        for _ in 0..runs {
            // Each source resumes strictly after the position, as a store range scan would.
            let sources: Vec<_> = (0..k)
                .map(|s| {
                    let first = (depth.saturating_sub(s)).div_ceil(k) * k + s;
                    (0..1_000_000u64).map(move |i| first + i * k)
                })
                .collect();
            let page = take_page(merge_sorted(sources, SortOrder::Asc, |x| *x), 100, |x| {
                x.to_be_bytes().to_vec()
            });
            black_box(page);
        }
        println!(
            "merge of {k} sources, page of 100 at depth {depth}: {:?}",
            start.elapsed() / runs
        );
    }
    Ok(())
}
