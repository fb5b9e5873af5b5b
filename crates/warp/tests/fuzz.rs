//! Fuzz-style properties for everything that takes bytes from outside: answers from signature
//! sources and signed messages checked against a set. None may panic or be accepted.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use proptest::prelude::*;
use snowline_devnet::nodes::DevnetNode;
use snowline_types::warp::{BitSetSignature, Message, UnsignedMessage};
use snowline_types::{Id, NodeId};
use snowline_warp::{
    AggregateError, AggregationRequest, Aggregator, AggregatorConfig, CanonicalSet, NodeValidator,
    PublicKey, SignatureCache, SignatureSource, SourceError, verify_message,
};

fn nodes() -> &'static [DevnetNode] {
    static NODES: OnceLock<Vec<DevnetNode>> = OnceLock::new();
    NODES.get_or_init(|| (0..4).map(|i| DevnetNode::new(5, i).unwrap()).collect())
}

fn set() -> Arc<CanonicalSet> {
    Arc::new(
        CanonicalSet::flatten(nodes().iter().map(|n| NodeValidator {
            node_id: n.node_id,
            public_key: Some(PublicKey::from_compressed(&n.bls_public_key).unwrap()),
            weight: 25,
        }))
        .unwrap(),
    )
}

fn unsigned() -> UnsignedMessage {
    UnsignedMessage {
        network_id: 1,
        source_chain_id: Id([3; 32]),
        payload: vec![1, 2, 3],
    }
}

/// Answers each node with fixed bytes.
struct Canned(HashMap<NodeId, Vec<u8>>);

impl SignatureSource for Canned {
    async fn request(&self, node: &NodeId, _m: &[u8], _j: &[u8]) -> Result<Vec<u8>, SourceError> {
        self.0.get(node).cloned().ok_or(SourceError::NotConnected)
    }
}

fn answer() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        Just(vec![0; 96]),
        proptest::collection::vec(any::<u8>(), 96),
        proptest::collection::vec(any::<u8>(), 0..200),
        // A real signature of another message.
        (0usize..4).prop_map(|i| nodes()[i].bls_sign(b"other").compress().to_vec()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn arbitrary_answers_are_never_accepted(answers in proptest::collection::vec(answer(), 4)) {
        let set = set();
        let canned = nodes()
            .iter()
            .zip(&answers)
            .map(|(n, a)| (n.node_id, a.clone()))
            .collect();
        let agg = Aggregator::with_cache(
            Arc::new(Canned(canned)),
            Arc::new(SignatureCache::default()),
            AggregatorConfig {
                request_timeout: Duration::from_secs(1),
                initial_backoff: Duration::from_millis(200),
                max_backoff: Duration::from_millis(400),
            },
        );
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        let err = rt
            .block_on(agg.aggregate(AggregationRequest {
                message: unsigned(),
                justification: Vec::new(),
                validators: Arc::clone(&set),
                quorum_percentage: 1,
                quorum_buffer_percentage: 0,
                timeout: Duration::from_secs(2),
                excluded: Vec::new(),
            }))
            .unwrap_err();
        let AggregateError::NotEnoughSignatures(stats) = err else {
            return Err(TestCaseError::fail("expected NotEnoughSignatures"));
        };
        let empty = answers
            .iter()
            .filter(|a| a.iter().all(|&b| b == 0))
            .count();
        prop_assert_eq!(stats.invalid, 4 - empty);
        prop_assert_eq!(stats.not_seen, empty);
        prop_assert_eq!(stats.reached_weight, 0);
        prop_assert!(agg.cache().is_empty());
    }

    #[test]
    fn forged_signed_messages_never_verify(
        signers in proptest::collection::vec(any::<u8>(), 0..4),
        signature in proptest::collection::vec(any::<u8>(), 96),
    ) {
        let msg = Message {
            unsigned: unsigned(),
            signature: BitSetSignature {
                signers,
                signature: signature.try_into().unwrap(),
            },
        };
        prop_assert!(verify_message(&msg, &set(), 1).is_err());
        // And through the byte form.
        if let Ok(parsed) = Message::parse(&msg.bytes()) {
            prop_assert!(verify_message(&parsed, &set(), 1).is_err());
        }
    }
}
