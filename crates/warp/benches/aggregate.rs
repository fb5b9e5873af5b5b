//! Aggregating 100 validators' signatures at 67% and 67+13% with a source that answers at once
//! from precomputed signatures: the CPU cost of verifying shares, pruning and aggregating, with a
//! cold cache (every share verified) and a warm one (shares from the cache).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use snowline_devnet::nodes::DevnetNode;
use snowline_types::warp::UnsignedMessage;
use snowline_types::{Id, NodeId};
use snowline_warp::{
    AggregationRequest, Aggregator, AggregatorConfig, CanonicalSet, NodeValidator, PublicKey,
    SignatureCache, SignatureSource, SourceError,
};

struct Presigned(HashMap<NodeId, Vec<u8>>);

impl SignatureSource for Presigned {
    async fn request(&self, node: &NodeId, _m: &[u8], _j: &[u8]) -> Result<Vec<u8>, SourceError> {
        self.0.get(node).cloned().ok_or(SourceError::NotConnected)
    }
}

fn setup() -> (Arc<CanonicalSet>, UnsignedMessage, Presigned) {
    let message = UnsignedMessage {
        network_id: 5,
        source_chain_id: Id([9; 32]),
        payload: vec![7; 200],
    };
    let bytes = message.bytes();
    let nodes: Vec<DevnetNode> = (0..100).map(|i| DevnetNode::new(1, i).unwrap()).collect();
    let set = CanonicalSet::flatten(nodes.iter().enumerate().map(|(i, n)| NodeValidator {
        node_id: n.node_id,
        public_key: Some(PublicKey::from_compressed(&n.bls_public_key).unwrap()),
        weight: 1 + (i as u64 * 37 % 100) * 10,
    }))
    .unwrap();
    let sigs = nodes
        .iter()
        .map(|n| (n.node_id, n.bls_sign(&bytes).compress().to_vec()))
        .collect();
    (Arc::new(set), message, Presigned(sigs))
}

fn bench(c: &mut Criterion) {
    let (set, message, source) = setup();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let agg = Aggregator::with_cache(
        Arc::new(source),
        Arc::new(SignatureCache::default()),
        AggregatorConfig::default(),
    );
    let request = |quorum, buffer| AggregationRequest {
        message: message.clone(),
        justification: Vec::new(),
        validators: Arc::clone(&set),
        quorum_percentage: quorum,
        quorum_buffer_percentage: buffer,
        timeout: Duration::from_secs(10),
        excluded: Vec::new(),
    };
    let mut group = c.benchmark_group("aggregate_100");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(4));
    group.warm_up_time(Duration::from_secs(1));
    for (name, quorum, buffer) in [("67", 67, 0), ("67+13", 67, 13)] {
        group.bench_function(format!("cold/{name}"), |b| {
            b.iter(|| {
                agg.cache().clear();
                black_box(rt.block_on(agg.aggregate(request(quorum, buffer))).unwrap())
            })
        });
        agg.cache().clear();
        rt.block_on(agg.aggregate(request(quorum, buffer))).unwrap();
        group.bench_function(format!("warm/{name}"), |b| {
            b.iter(|| black_box(rt.block_on(agg.aggregate(request(quorum, buffer))).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
