//! The collector against an in-memory signature source of 100 devnet validators with slow,
//! down, wrong-key and not-yet-seen nodes. Time is paused: the deadlines are virtual.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use snowline_devnet::nodes::{BLS_SIG_DST, DevnetNode};
use snowline_types::warp::UnsignedMessage;
use snowline_types::{Id, NodeId};
use snowline_warp::{
    AggregateError, AggregationRequest, Aggregator, AggregatorConfig, CanonicalSet, NodeValidator,
    PublicKey, QuorumError, SignatureCache, SignatureSource, SourceError, required_weight,
    verify_message,
};

const N: u32 = 100;

fn devnet() -> &'static [DevnetNode] {
    static NODES: OnceLock<Vec<DevnetNode>> = OnceLock::new();
    NODES.get_or_init(|| (0..N).map(|i| DevnetNode::new(42, i).unwrap()).collect())
}

/// Varied weights: 1 to 991 in an uneven pattern.
fn weight(i: usize) -> u64 {
    1 + (i as u64 * 37 % 100) * 10
}

#[derive(Clone, Copy, Debug)]
enum Behaviour {
    Sign,
    Slow(Duration),
    Down,
    WrongKey,
    /// Empty answers for the first `n` requests, then a signature.
    EmptyFirst(usize),
    /// Never answers.
    Hang,
}

struct Fake {
    keys: HashMap<NodeId, DevnetNode>,
    behaviour: HashMap<NodeId, Behaviour>,
    calls: Mutex<HashMap<NodeId, usize>>,
    justifications: Mutex<HashSet<Vec<u8>>>,
    disconnected: HashSet<NodeId>,
}

impl Fake {
    fn new(behaviour: impl Fn(usize) -> Behaviour) -> Self {
        let nodes = devnet();
        Self {
            keys: nodes.iter().map(|n| (n.node_id, n.clone())).collect(),
            behaviour: nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.node_id, behaviour(i)))
                .collect(),
            calls: Mutex::new(HashMap::new()),
            justifications: Mutex::new(HashSet::new()),
            disconnected: HashSet::new(),
        }
    }

    fn disconnect(mut self, devnet_indices: impl Iterator<Item = usize>) -> Self {
        self.disconnected = devnet_indices.map(|i| devnet()[i].node_id).collect();
        self
    }

    fn calls(&self, node: &NodeId) -> usize {
        self.calls.lock().unwrap().get(node).copied().unwrap_or(0)
    }

    fn asked(&self) -> HashSet<NodeId> {
        self.calls.lock().unwrap().keys().copied().collect()
    }

    fn reset(&self) {
        self.calls.lock().unwrap().clear();
    }
}

impl SignatureSource for Fake {
    async fn request(
        &self,
        node: &NodeId,
        message: &[u8],
        justification: &[u8],
    ) -> Result<Vec<u8>, SourceError> {
        self.justifications
            .lock()
            .unwrap()
            .insert(justification.to_vec());
        let n = {
            let mut calls = self.calls.lock().unwrap();
            let c = calls.entry(*node).or_default();
            *c += 1;
            *c
        };
        let key = self.keys.get(node).ok_or(SourceError::NotConnected)?;
        let sign = |k: &DevnetNode| Ok(k.bls_sign(message).compress().to_vec());
        match self.behaviour.get(node).copied().unwrap_or(Behaviour::Down) {
            Behaviour::Sign => sign(key),
            Behaviour::Slow(d) => {
                tokio::time::sleep(d).await;
                sign(key)
            }
            Behaviour::Down => Err(SourceError::NotConnected),
            Behaviour::WrongKey => {
                let other = self.keys.values().find(|k| k.node_id != *node).unwrap();
                sign(other)
            }
            Behaviour::EmptyFirst(k) if n <= k => Ok(Vec::new()),
            Behaviour::EmptyFirst(_) => sign(key),
            Behaviour::Hang => std::future::pending().await,
        }
    }

    fn is_connected(&self, node: &NodeId) -> bool {
        !self.disconnected.contains(node)
    }
}

fn set_of(nodes: impl Iterator<Item = NodeValidator>) -> Arc<CanonicalSet> {
    Arc::new(CanonicalSet::flatten(nodes).unwrap())
}

fn full_set() -> Arc<CanonicalSet> {
    set_of(devnet().iter().enumerate().map(|(i, n)| NodeValidator {
        node_id: n.node_id,
        public_key: Some(PublicKey::from_compressed(&n.bls_public_key).unwrap()),
        weight: weight(i),
    }))
}

fn message() -> UnsignedMessage {
    UnsignedMessage {
        network_id: 5,
        source_chain_id: Id([9; 32]),
        payload: b"an addressed call".to_vec(),
    }
}

fn request(
    set: &Arc<CanonicalSet>,
    quorum: u64,
    buffer: u64,
    timeout_s: u64,
) -> AggregationRequest {
    AggregationRequest {
        message: message(),
        justification: Vec::new(),
        validators: Arc::clone(set),
        quorum_percentage: quorum,
        quorum_buffer_percentage: buffer,
        timeout: Duration::from_secs(timeout_s),
        excluded: Vec::new(),
    }
}

fn aggregator(fake: Fake) -> Aggregator<Fake> {
    Aggregator::with_cache(
        Arc::new(fake),
        Arc::new(SignatureCache::default()),
        AggregatorConfig {
            request_timeout: Duration::from_secs(3),
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(1),
        },
    )
}

/// Checks the signed bytes with blst directly: the signature verifies against the aggregate of
/// the keys of the validators named by the bitset, computed here from the devnet keys.
fn check_independently(bytes: &[u8], set: &CanonicalSet) -> u64 {
    let msg = snowline_types::warp::Message::parse(bytes).unwrap();
    let indices = msg.signature.signer_indices().unwrap();
    let by_key: HashMap<[u8; 48], &DevnetNode> =
        devnet().iter().map(|n| (n.bls_public_key, n)).collect();
    let mut keys = Vec::new();
    let mut w = 0;
    for i in &indices {
        let v = &set.validators[*i];
        let node = by_key[&v.public_key.to_compressed()];
        assert!(v.node_ids.contains(&node.node_id));
        keys.push(blst::min_pk::PublicKey::uncompress(&node.bls_public_key).unwrap());
        w += v.weight;
    }
    let refs: Vec<_> = keys.iter().collect();
    let agg = blst::min_pk::AggregatePublicKey::aggregate(&refs, true)
        .unwrap()
        .to_public_key();
    let sig = blst::min_pk::Signature::uncompress(&msg.signature.signature).unwrap();
    assert_eq!(
        sig.verify(true, &message().bytes(), BLS_SIG_DST, &[], &agg, true),
        blst::BLST_ERROR::BLST_SUCCESS
    );
    w
}

fn faulty(i: usize) -> Behaviour {
    match i % 10 {
        _ if i == 5 => Behaviour::WrongKey,
        0 => Behaviour::Down,
        1 => Behaviour::Slow(Duration::from_secs(2)),
        3 => Behaviour::EmptyFirst(2),
        _ => Behaviour::Sign,
    }
}

#[tokio::test(start_paused = true)]
async fn collects_a_quorum_despite_faults() {
    let set = full_set();
    let agg = aggregator(Fake::new(faulty));
    let mut req = request(&set, 67, 0, 30);
    req.justification = vec![0xab; 32];
    let out = agg.aggregate(req).await.unwrap();
    // Every request carried the justification.
    assert_eq!(
        *agg.source().justifications.lock().unwrap(),
        HashSet::from([vec![0xab; 32]])
    );

    let w = check_independently(&out.bytes, &set);
    assert_eq!(w, out.signed_weight);
    assert!(u128::from(w) >= required_weight(set.total_weight, 67));
    verify_message(&out.message, &set, 67).unwrap();

    // The wrong-key validator is neither a signer nor cached; down ones are not signers.
    let idx = |d: usize| set.index_of_node(&devnet()[d].node_id).unwrap();
    assert!(!out.signers.contains(&idx(5)));
    assert!(!out.signers.contains(&idx(10)));
    let cached = agg.cache().get(&message().id());
    assert!(!cached.contains_key(&set.validators[idx(5)].public_key_bytes));
    assert_eq!(out.stats.invalid, 1);
    assert_eq!(out.stats.asked, 100);
    assert_eq!(out.stats.cached, 0);
    assert!(out.stats.answered >= out.signers.len());
    assert!(out.stats.reached_weight >= out.stats.required_weight);
    // The wrong key is asked once (a single node, no other to try).
    assert_eq!(agg.source().calls(&devnet()[5].node_id), 1);
}

#[tokio::test(start_paused = true)]
async fn empty_answers_are_retried_until_signed() {
    // Only the "empty first" validators and enough weight to need them.
    let set = full_set();
    let agg = aggregator(Fake::new(|i| {
        if i % 2 == 0 {
            Behaviour::EmptyFirst(2)
        } else {
            Behaviour::Down
        }
    }));
    // Even indices weigh about half; ask for 40% so the even ones are needed.
    let out = agg.aggregate(request(&set, 40, 0, 30)).await.unwrap();
    check_independently(&out.bytes, &set);
    let signer_node = &set.validators[out.signers[0]].node_ids[0];
    assert_eq!(
        agg.source().calls(signer_node),
        3,
        "two empty answers, then the signature"
    );
}

#[tokio::test(start_paused = true)]
async fn buffer_collects_80_percent_then_prunes_to_67() {
    let set = full_set();
    let agg = aggregator(Fake::new(|_| Behaviour::Sign));
    let out = agg.aggregate(request(&set, 67, 13, 30)).await.unwrap();
    let target = required_weight(set.total_weight, 80);
    let required = required_weight(set.total_weight, 67);
    assert!(u128::from(out.stats.reached_weight) >= target);
    assert_eq!(out.stats.target_weight as u128, target);
    // Everything collected is cached, the signed subset is the pruned one.
    let cached = agg.cache().get(&message().id());
    let cached_weight: u64 = set
        .validators
        .iter()
        .filter(|v| cached.contains_key(&v.public_key_bytes))
        .map(|v| v.weight)
        .sum();
    assert_eq!(cached_weight, out.stats.reached_weight);
    assert!(out.signers.len() < cached.len());
    let w = check_independently(&out.bytes, &set);
    assert!(u128::from(w) >= required);
    let lightest = out
        .signers
        .iter()
        .map(|&i| set.validators[i].weight)
        .min()
        .unwrap();
    assert!(
        u128::from(w - lightest) < required,
        "pruned to a minimal set"
    );
    // Heaviest first: no unsigned cached validator outweighs a kept one.
    for (i, v) in set.validators.iter().enumerate() {
        if cached.contains_key(&v.public_key_bytes) && !out.signers.contains(&i) {
            assert!(v.weight <= lightest);
        }
    }
}

#[tokio::test(start_paused = true)]
async fn second_call_asks_only_what_the_cache_lacks() {
    let set = full_set();
    let agg = aggregator(Fake::new(|_| Behaviour::Sign));
    let first = agg.aggregate(request(&set, 50, 0, 30)).await.unwrap();
    let cached: HashSet<NodeId> = set
        .validators
        .iter()
        .filter(|v| {
            agg.cache()
                .get(&message().id())
                .contains_key(&v.public_key_bytes)
        })
        .map(|v| v.node_ids[0])
        .collect();
    assert_eq!(cached.len(), first.stats.answered);
    assert!(cached.len() < 100);

    agg.source().reset();
    let second = agg.aggregate(request(&set, 90, 0, 30)).await.unwrap();
    let asked = agg.source().asked();
    assert_eq!(asked.len(), 100 - cached.len());
    assert!(asked.is_disjoint(&cached));
    assert_eq!(second.stats.cached, cached.len());
    assert_eq!(second.stats.asked, asked.len());
    assert!(
        u128::from(check_independently(&second.bytes, &set))
            >= required_weight(set.total_weight, 90)
    );

    // Everything needed is now cached: a third call asks nobody.
    agg.source().reset();
    let third = agg.aggregate(request(&set, 67, 0, 30)).await.unwrap();
    assert!(agg.source().asked().is_empty());
    assert_eq!(third.stats.asked, 0);
    check_independently(&third.bytes, &set);
}

#[tokio::test(start_paused = true)]
async fn timeout_below_quorum_fails_with_the_weight_reached() {
    let set = full_set();
    // Half the validators down, the rest slow but in time.
    let agg = aggregator(Fake::new(|i| {
        if i % 2 == 0 {
            Behaviour::Down
        } else {
            Behaviour::Slow(Duration::from_secs(1))
        }
    }));
    let start = tokio::time::Instant::now();
    let err = agg.aggregate(request(&set, 67, 0, 20)).await.unwrap_err();
    // The down validators are retried until the next backoff (at most 1 s) would pass the
    // deadline; then nothing is left to wait for.
    let elapsed = start.elapsed();
    assert!(
        elapsed > Duration::from_secs(19) && elapsed <= Duration::from_secs(20),
        "{elapsed:?}"
    );
    assert_eq!(
        err.to_string(),
        "failed to collect a threshold of signatures"
    );
    let AggregateError::NotEnoughSignatures(stats) = &err else {
        panic!("{err:?}")
    };
    let odd_weight: u64 = (0..100).filter(|i| i % 2 == 1).map(weight).sum();
    assert_eq!(stats.reached_weight, odd_weight);
    assert_eq!(stats.total_weight, set.total_weight);
    assert_eq!(
        stats.required_weight as u128,
        required_weight(set.total_weight, 67)
    );
    assert_eq!(stats.asked, 100);
    assert_eq!(stats.answered, 50);
    assert_eq!(stats.failed, 50);
    assert_eq!(stats.invalid, 0);
    // The down nodes were retried with backoff, more than once each.
    assert!(agg.source().calls(&devnet()[0].node_id) > 2);
    assert_eq!(err.stats(), Some(&**stats));
}

#[tokio::test(start_paused = true)]
async fn quorum_without_buffer_after_one_round_uses_the_quorum() {
    let set = full_set();
    // Validators with index % 4 == 0 down: about 75% of the weight answers, under 80%.
    let agg = aggregator(Fake::new(|i| {
        if i % 4 == 0 {
            Behaviour::Down
        } else {
            Behaviour::Sign
        }
    }));
    let up: u64 = (0..100).filter(|i| i % 4 != 0).map(weight).sum();
    assert!(u128::from(up) < required_weight(set.total_weight, 80));
    assert!(u128::from(up) >= required_weight(set.total_weight, 67));
    let start = tokio::time::Instant::now();
    let out = agg.aggregate(request(&set, 67, 13, 10)).await.unwrap();
    // Everyone answered once and the quorum is met: no waiting for the buffer.
    assert_eq!(start.elapsed(), Duration::ZERO);
    assert_eq!(out.stats.reached_weight, up);
    let w = check_independently(&out.bytes, &set);
    assert!(u128::from(w) >= required_weight(set.total_weight, 67));
    assert!(w < up, "pruned");
}

#[tokio::test(start_paused = true)]
async fn merged_validator_tries_its_other_nodes() {
    // Nodes 0 and 1 share node 1's key; node 0 is down (or hangs), node 1 signs.
    for first in [Behaviour::Down, Behaviour::Hang] {
        let nodes = devnet();
        let shared = PublicKey::from_compressed(&nodes[1].bls_public_key).unwrap();
        let set = set_of((0..4).map(|i| NodeValidator {
            node_id: nodes[i].node_id,
            public_key: Some(if i < 2 {
                shared
            } else {
                PublicKey::from_compressed(&nodes[i].bls_public_key).unwrap()
            }),
            weight: 100,
        }));
        assert_eq!(set.len(), 3);
        let agg = aggregator(Fake::new(|i| match i {
            0 => first,
            2 | 3 => Behaviour::Down,
            _ => Behaviour::Sign,
        }));
        // The merged validator alone weighs 50%.
        let out = agg.aggregate(request(&set, 50, 0, 30)).await.unwrap();
        let merged = set.index_of_node(&nodes[0].node_id).unwrap();
        assert_eq!(out.signers, vec![merged], "{first:?}");
        assert_eq!(set.validators[merged].node_ids.len(), 2);
        assert_eq!(agg.source().calls(&nodes[0].node_id), 1);
        assert_eq!(agg.source().calls(&nodes[1].node_id), 1);
        check_independently(&out.bytes, &set);
    }
}

#[tokio::test(start_paused = true)]
async fn rejects_empty_sets_and_bad_quorums() {
    let agg = aggregator(Fake::new(|_| Behaviour::Sign));
    let empty = Arc::new(CanonicalSet::default());
    let err = agg.aggregate(request(&empty, 67, 0, 5)).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot aggregate signatures from subnet with no validators"
    );
    let keyless = set_of((0..3).map(|i| NodeValidator {
        node_id: devnet()[i].node_id,
        public_key: None,
        weight: 10,
    }));
    assert_eq!(
        agg.aggregate(request(&keyless, 67, 0, 5))
            .await
            .unwrap_err(),
        AggregateError::NoValidators
    );
    let set = full_set();
    let err = agg.aggregate(request(&set, 67, 34, 5)).await.unwrap_err();
    assert_eq!(
        err,
        AggregateError::Quorum(QuorumError::InvalidTotalQuorumPercentage(101))
    );
    assert!(
        err.to_string()
            .starts_with("invalid total quorum percentage")
    );
    assert!(err.is_input_error());
    assert!(agg.source().asked().is_empty());
}

#[tokio::test(start_paused = true)]
async fn unreachable_quorum_fails_without_asking() {
    // Keyless weight so large the keyed validators cannot reach 67%.
    let nodes = devnet();
    let set = set_of((0..10).map(|i| NodeValidator {
        node_id: nodes[i].node_id,
        public_key: (i < 3).then(|| PublicKey::from_compressed(&nodes[i].bls_public_key).unwrap()),
        weight: 100,
    }));
    let agg = aggregator(Fake::new(|_| Behaviour::Sign));
    let err = agg.aggregate(request(&set, 67, 0, 5)).await.unwrap_err();
    let stats = err.stats().unwrap();
    assert_eq!(
        (stats.asked, stats.total_weight, stats.required_weight),
        (0, 1000, 670)
    );
    assert!(agg.source().asked().is_empty());
}

#[tokio::test(start_paused = true)]
async fn excluded_validators_are_not_asked_nor_used_from_cache() {
    let set = full_set();
    let agg = aggregator(Fake::new(|_| Behaviour::Sign));
    // Fill the cache with everyone.
    agg.aggregate(request(&set, 100, 0, 30)).await.unwrap();
    assert_eq!(agg.cache().len(), 100);

    let mut by_weight: Vec<usize> = (0..set.len()).collect();
    by_weight.sort_by_key(|&i| std::cmp::Reverse(set.validators[i].weight));
    let excluded: Vec<usize> = by_weight[..3].to_vec();
    let mut req = request(&set, 67, 0, 30);
    req.excluded = excluded.clone();
    agg.source().reset();
    let out = agg.aggregate(req).await.unwrap();
    assert!(agg.source().asked().is_empty(), "all others cached");
    assert!(excluded.iter().all(|i| !out.signers.contains(i)));
    assert_eq!(out.stats.cached, 97);
    check_independently(&out.bytes, &set);

    // Uncached and excluded: the excluded nodes are never asked.
    let fresh = aggregator(Fake::new(|_| Behaviour::Sign));
    let mut req = request(&set, 67, 13, 30);
    req.excluded = excluded.clone();
    let out = fresh.aggregate(req).await.unwrap();
    assert_eq!(out.stats.asked, 97);
    for &i in &excluded {
        assert_eq!(fresh.source().calls(&set.validators[i].node_ids[0]), 0);
    }
    check_independently(&out.bytes, &set);
}

#[test]
fn the_aggregation_future_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    let agg = aggregator(Fake::new(|_| Behaviour::Sign));
    let fut = agg.aggregate(request(&full_set(), 67, 0, 1));
    assert_send(&fut);
}

#[tokio::test(start_paused = true)]
async fn only_connected_nodes_are_asked() {
    // Node 0 shares node 1's key but is not connected; nodes 2..4 are connected and down.
    let nodes = devnet();
    let shared = PublicKey::from_compressed(&nodes[1].bls_public_key).unwrap();
    let set = set_of((0..4).map(|i| NodeValidator {
        node_id: nodes[i].node_id,
        public_key: Some(if i < 2 {
            shared
        } else {
            PublicKey::from_compressed(&nodes[i].bls_public_key).unwrap()
        }),
        weight: 100,
    }));
    let agg = aggregator(
        Fake::new(|i| {
            if i < 2 {
                Behaviour::Sign
            } else {
                Behaviour::Down
            }
        })
        .disconnect(0..1),
    );
    let out = agg.aggregate(request(&set, 50, 0, 30)).await.unwrap();
    assert_eq!(agg.source().calls(&nodes[0].node_id), 0);
    assert_eq!(agg.source().calls(&nodes[1].node_id), 1);
    assert_eq!(out.stats.connected_weight, 400);
    check_independently(&out.bytes, &set);
}

#[tokio::test(start_paused = true)]
async fn connected_stake_below_quorum_fails_at_once() {
    let set = full_set();
    // Every other validator unreachable: about half the weight is connected.
    let agg =
        aggregator(Fake::new(|_| Behaviour::Sign).disconnect((0..100).filter(|i| i % 2 == 0)));
    let start = tokio::time::Instant::now();
    let err = agg.aggregate(request(&set, 67, 0, 30)).await.unwrap_err();
    assert_eq!(start.elapsed(), Duration::ZERO);
    assert_eq!(err.to_string(), "failed to connect to a threshold of stake");
    let stats = err.stats().unwrap();
    let odd: u64 = (0..100).filter(|i| i % 2 == 1).map(weight).sum();
    assert_eq!(stats.connected_weight, odd);
    assert!(agg.source().asked().is_empty());

    // With the cached shares of some disconnected validators, the quorum is reachable.
    for i in (0..40).filter(|i| i % 2 == 0) {
        let v = &set.validators[set.index_of_node(&devnet()[i].node_id).unwrap()];
        let sig = devnet()[i].bls_sign(&message().bytes());
        agg.cache()
            .insert(message().id(), v.public_key_bytes, sig.into());
    }
    let out = agg.aggregate(request(&set, 67, 0, 30)).await.unwrap();
    assert_eq!(out.stats.cached, 20);
    assert!(out.stats.connected_weight > odd);
    check_independently(&out.bytes, &set);
}

#[tokio::test(start_paused = true)]
async fn the_buffer_waits_for_slow_validators_of_the_round() {
    let set = full_set();
    // A third of the validators answer after 2 s (within the 3 s request timeout); the rest at
    // once.
    let agg = aggregator(Fake::new(|i| {
        if i % 3 == 0 {
            Behaviour::Slow(Duration::from_secs(2))
        } else {
            Behaviour::Sign
        }
    }));
    let fast: u64 = (0..100).filter(|i| i % 3 != 0).map(weight).sum();
    assert!(u128::from(fast) >= required_weight(set.total_weight, 50));
    assert!(u128::from(fast) < required_weight(set.total_weight, 90));
    let start = tokio::time::Instant::now();
    let out = agg.aggregate(request(&set, 50, 40, 30)).await.unwrap();
    assert_eq!(start.elapsed(), Duration::from_secs(2));
    assert!(u128::from(out.stats.reached_weight) >= required_weight(set.total_weight, 90));

    // Slower than the request timeout: they count as failed for the round, and the quorum
    // (without the buffer) is used once the round is over.
    let agg = aggregator(Fake::new(|i| {
        if i % 3 == 0 {
            Behaviour::Slow(Duration::from_secs(5))
        } else {
            Behaviour::Sign
        }
    }));
    let start = tokio::time::Instant::now();
    let out = agg.aggregate(request(&set, 50, 40, 30)).await.unwrap();
    assert_eq!(start.elapsed(), Duration::from_secs(3));
    assert_eq!(out.stats.reached_weight, fast);
    let w = check_independently(&out.bytes, &set);
    assert!(u128::from(w) >= required_weight(set.total_weight, 50));
}
