//! The collector: cached signatures first, then every validator still missing asked at once
//! (retrying with backoff, trying a merged validator's other nodes), each answer verified, until
//! quorum plus buffer is reached or the deadline passes; then prune to the quorum and aggregate.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use snowline_types::warp::{Message, UnsignedMessage};
use snowline_types::{Id, NodeId};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::assemble::assemble;
use crate::bls::Signature;
use crate::cache::SignatureCache;
use crate::error::{AggregateError, AggregationStats};
use crate::quorum::{Quorum, prune_to_quorum, required_weight};
use crate::source::SignatureSource;
use crate::validators::{CanonicalSet, CanonicalValidator};

/// How requests to one validator are paced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AggregatorConfig {
    /// Longest wait for one answer before it counts as failed (`DefaultAppRequestTimeout`).
    pub request_timeout: Duration,
    /// Wait before the first retry; doubled after each, up to `max_backoff`.
    pub initial_backoff: Duration,
    /// Longest wait between retries.
    pub max_backoff: Duration,
}

impl Default for AggregatorConfig {
    fn default() -> Self {
        Self {
            request_timeout: Duration::from_secs(10),
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(2),
        }
    }
}

/// One aggregation: what to sign, who signs, how much must sign, how long to try.
#[derive(Debug, Clone)]
pub struct AggregationRequest {
    /// The message validators sign.
    pub message: UnsignedMessage,
    /// Sent along to the signers (ACP-118 justification); may be empty.
    pub justification: Vec<u8>,
    /// The signing subnet's canonical set.
    pub validators: Arc<CanonicalSet>,
    /// Percentage of total weight that must sign (1..=100).
    pub quorum_percentage: u64,
    /// Extra percentage collected when validators answer; pruned away before aggregating.
    pub quorum_buffer_percentage: u64,
    /// Budget for the whole collection.
    pub timeout: Duration,
    /// Canonical indices the caller leaves out of the signature: not asked, cached shares
    /// unused, weight still in the total. (An L1's inactive validators need none: they have no
    /// key in the set, so they are outside the canonical list already.)
    pub excluded: Vec<usize>,
}

/// A signed message and how it was obtained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aggregated {
    /// The signed message.
    pub message: Message,
    /// Its bytes (`signed-message`).
    pub bytes: Vec<u8>,
    /// Canonical indices of the signers kept after pruning, ascending.
    pub signers: Vec<usize>,
    /// Their weight.
    pub signed_weight: u64,
    /// The figures of the collection.
    pub stats: AggregationStats,
}

/// Collects and aggregates Warp signatures from a [`SignatureSource`], keeping verified ones in a
/// shared [`SignatureCache`].
pub struct Aggregator<S> {
    source: Arc<S>,
    cache: Arc<SignatureCache>,
    config: AggregatorConfig,
}

impl<S> std::fmt::Debug for Aggregator<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Aggregator")
            .field("cache", &self.cache)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

enum Answer {
    Signed(Signature),
    Failed,
    NotSeen,
    Invalid,
}

struct Event {
    index: usize,
    answer: Answer,
}

#[derive(Clone, Copy, Default)]
struct ValidatorState {
    asked: bool,
    signed: bool,
    cached: bool,
    failed: bool,
    invalid: bool,
    not_seen: bool,
    excluded: bool,
    /// Has answered at least once in this collection.
    heard: bool,
}

fn to_u64(w: u128) -> u64 {
    u64::try_from(w).unwrap_or(u64::MAX)
}

impl<S: SignatureSource + 'static> Aggregator<S> {
    /// An aggregator with its own default-sized cache and default pacing.
    pub fn new(source: S) -> Self {
        Self::with_cache(
            Arc::new(source),
            Arc::new(SignatureCache::default()),
            AggregatorConfig::default(),
        )
    }

    /// An aggregator over a shared source and cache.
    pub fn with_cache(
        source: Arc<S>,
        cache: Arc<SignatureCache>,
        config: AggregatorConfig,
    ) -> Self {
        Self {
            source,
            cache,
            config,
        }
    }

    /// The signature cache.
    pub fn cache(&self) -> &Arc<SignatureCache> {
        &self.cache
    }

    /// The source.
    pub fn source(&self) -> &Arc<S> {
        &self.source
    }

    /// Collects signatures for `req` and returns the signed message, or why not.
    pub async fn aggregate(&self, req: AggregationRequest) -> Result<Aggregated, AggregateError> {
        let quorum = Quorum::new(req.quorum_percentage, req.quorum_buffer_percentage)?;
        let set = Arc::clone(&req.validators);
        if set.is_empty() || set.total_weight == 0 {
            return Err(AggregateError::NoValidators);
        }
        let deadline = Instant::now() + req.timeout;
        let message_id = req.message.id();
        let required = required_weight(set.total_weight, quorum.percentage());
        let target = required_weight(set.total_weight, quorum.target_percentage());
        let mut stats = AggregationStats {
            total_weight: set.total_weight,
            required_weight: to_u64(required),
            target_weight: to_u64(target),
            validators: set.len(),
            ..AggregationStats::default()
        };
        let mut states = vec![ValidatorState::default(); set.len()];
        for &i in &req.excluded {
            if let Some(s) = states.get_mut(i) {
                s.excluded = true;
            }
        }
        let mut shares: BTreeMap<usize, Signature> = BTreeMap::new();
        let mut reached: u128 = 0;

        let cached = self.cache.get(&message_id);
        for (i, v) in set.validators.iter().enumerate() {
            if states.get(i).is_some_and(|s| s.excluded) {
                continue;
            }
            // Cached entries were verified against this key on the way in.
            let Some(sig) = cached.get(&v.public_key_bytes) else {
                continue;
            };
            shares.insert(i, *sig);
            reached += u128::from(v.weight);
            if let Some(s) = states.get_mut(i) {
                s.cached = true;
                s.signed = true;
            }
        }
        tracing::debug!(
            message_id = %message_id,
            cached = shares.len(),
            cached_weight = %reached,
            required = %required,
            target = %target,
            "warp aggregation starts"
        );

        // Only connected nodes are asked; a validator counts as reachable when it has a share
        // or a connected node.
        let reachable: Vec<Vec<NodeId>> = set
            .validators
            .iter()
            .enumerate()
            .map(|(i, v)| {
                if states.get(i).is_none_or(|s| s.excluded || s.signed) {
                    return Vec::new();
                }
                v.node_ids
                    .iter()
                    .filter(|n| self.source.is_connected(n))
                    .copied()
                    .collect()
            })
            .collect();
        let possible =
            set.weight_of((0..set.len()).filter(|&i| states.get(i).is_some_and(|s| !s.excluded)));
        let connected = set.weight_of((0..set.len()).filter(|&i| {
            states.get(i).is_some_and(|s| s.signed)
                || reachable.get(i).is_some_and(|r| !r.is_empty())
        }));
        stats.connected_weight = to_u64(connected);
        if reached < target && possible >= required {
            if connected < required {
                tracing::warn!(
                    message_id = %message_id,
                    connected = %connected,
                    required = %required,
                    total = set.total_weight,
                    "failed to connect to a threshold of stake"
                );
                stats.reached_weight = to_u64(reached);
                stats.cached = shares.len();
                return Err(AggregateError::NotEnoughConnectedStake(Box::new(stats)));
            }
            reached = self
                .collect(
                    &req,
                    &set,
                    &reachable,
                    message_id,
                    deadline,
                    (required, target),
                    &mut states,
                    &mut shares,
                    reached,
                    &mut stats,
                )
                .await;
        }

        for s in &states {
            stats.cached += usize::from(s.cached);
            stats.asked += usize::from(s.asked);
            stats.answered += usize::from(s.signed && !s.cached);
            stats.failed += usize::from(s.failed && !s.signed);
            stats.invalid += usize::from(s.invalid);
            stats.not_seen += usize::from(s.not_seen && !s.signed);
        }
        stats.reached_weight = to_u64(reached);

        if reached < required {
            tracing::warn!(
                message_id = %message_id,
                reached = %reached,
                required = %required,
                total = set.total_weight,
                asked = stats.asked,
                answered = stats.answered,
                failed = stats.failed,
                invalid = stats.invalid,
                "failed to collect a threshold of signatures"
            );
            return Err(AggregateError::NotEnoughSignatures(Box::new(stats)));
        }

        let weighted: Vec<(usize, u64)> = shares
            .keys()
            .filter_map(|&i| set.validators.get(i).map(|v| (i, v.weight)))
            .collect();
        let kept = prune_to_quorum(&weighted, set.total_weight, quorum.percentage());
        let pruned: BTreeMap<usize, Signature> = kept
            .iter()
            .filter_map(|i| shares.get(i).map(|s| (*i, *s)))
            .collect();
        let message =
            assemble(&req.message, &set, &pruned).map_err(|source| AggregateError::Aggregate {
                source,
                stats: Box::new(stats.clone()),
            })?;
        let signed_weight = to_u64(set.weight_of(kept.iter().copied()));
        tracing::info!(
            message_id = %message_id,
            signers = kept.len(),
            signed_weight,
            reached = %reached,
            total = set.total_weight,
            "created signed warp message"
        );
        Ok(Aggregated {
            bytes: message.bytes(),
            message,
            signers: kept,
            signed_weight,
            stats,
        })
    }

    /// Asks every validator not yet signed, concurrently, until `target` weight is held or the
    /// deadline passes; returns the weight held.
    #[allow(clippy::too_many_arguments)]
    async fn collect(
        &self,
        req: &AggregationRequest,
        set: &Arc<CanonicalSet>,
        reachable: &[Vec<NodeId>],
        message_id: Id,
        deadline: Instant,
        (required, target): (u128, u128),
        states: &mut [ValidatorState],
        shares: &mut BTreeMap<usize, Signature>,
        mut reached: u128,
        stats: &mut AggregationStats,
    ) -> u128 {
        let message: Arc<[u8]> = req.message.bytes().into();
        let justification: Arc<[u8]> = req.justification.clone().into();
        let (tx, mut rx) = mpsc::unbounded_channel::<Event>();
        let enough = Arc::new(AtomicBool::new(false));
        let mut workers = JoinSet::new();
        for (index, validator) in set.validators.iter().enumerate() {
            let nodes = reachable.get(index).cloned().unwrap_or_default();
            let excluded = states.get(index).is_none_or(|s| s.excluded);
            if excluded || shares.contains_key(&index) || nodes.is_empty() {
                continue;
            }
            if let Some(s) = states.get_mut(index) {
                s.asked = true;
            }
            workers.spawn(ask_validator(
                Arc::clone(&self.source),
                self.config,
                index,
                CanonicalValidator {
                    node_ids: nodes,
                    ..validator.clone()
                },
                Arc::clone(&message),
                Arc::clone(&justification),
                deadline,
                tx.clone(),
                Arc::clone(&enough),
            ));
        }
        drop(tx);
        let mut unheard = states.iter().filter(|s| s.asked).count();

        let sleep = tokio::time::sleep_until(deadline);
        tokio::pin!(sleep);
        while reached < target {
            let event = tokio::select! {
                event = rx.recv() => event,
                () = &mut sleep => {
                    tracing::debug!(message_id = %message_id, "warp aggregation deadline reached");
                    break;
                }
            };
            let Some(Event { index, answer }) = event else {
                break;
            };
            stats.requests += 1;
            let Some(state) = states.get_mut(index) else {
                continue;
            };
            if !state.heard {
                state.heard = true;
                unheard -= 1;
            }
            match answer {
                Answer::Signed(sig) => {
                    if state.signed {
                        continue;
                    }
                    state.signed = true;
                    if let Some(v) = set.validators.get(index) {
                        self.cache.insert(message_id, v.public_key_bytes, sig);
                        reached += u128::from(v.weight);
                    }
                    shares.insert(index, sig);
                }
                Answer::Failed => state.failed = true,
                Answer::NotSeen => state.not_seen = true,
                Answer::Invalid => state.invalid = true,
            }
            // Every validator asked has answered once (a round, in icm-services' terms) and
            // the quorum is met: the buffer is not worth waiting for.
            if unheard == 0 && reached >= required {
                tracing::debug!(message_id = %message_id, "quorum met after one round, buffer not");
                break;
            }
        }
        enough.store(true, Ordering::Relaxed);
        workers.abort_all();
        reached
    }
}

/// One validator's requests: its connected nodes in turn, until a valid signature, every node having
/// sent a wrong one, or the deadline. Each request is reported as an [`Event`].
#[allow(clippy::too_many_arguments)]
async fn ask_validator<S: SignatureSource>(
    source: Arc<S>,
    config: AggregatorConfig,
    index: usize,
    validator: CanonicalValidator,
    message: Arc<[u8]>,
    justification: Arc<[u8]>,
    deadline: Instant,
    events: mpsc::UnboundedSender<Event>,
    enough: Arc<AtomicBool>,
) {
    let nodes = validator.node_ids.len();
    let mut node = 0usize;
    let mut invalid_nodes = vec![false; nodes];
    let mut backoff = config.initial_backoff;
    loop {
        let Some(node_id) = validator.node_ids.get(node % nodes.max(1)).copied() else {
            return;
        };
        let answer = match tokio::time::timeout(
            config.request_timeout,
            source.request(&node_id, &message, &justification),
        )
        .await
        {
            Err(_) => {
                tracing::debug!(node = %node_id, "signature request timed out");
                node += 1;
                Answer::Failed
            }
            Ok(Err(e)) => {
                tracing::debug!(node = %node_id, error = %e, "signature request failed");
                node += 1;
                Answer::Failed
            }
            // Empty or all zero: the node has not seen the message yet.
            Ok(Ok(bytes)) if bytes.iter().all(|&b| b == 0) => Answer::NotSeen,
            // The collection is over: spare the pairing.
            Ok(Ok(_)) if enough.load(Ordering::Relaxed) => return,
            Ok(Ok(bytes)) => match Signature::from_bytes(&bytes) {
                Ok(sig) if sig.verify(&validator.public_key, &message) => Answer::Signed(sig),
                _ => {
                    tracing::debug!(node = %node_id, "invalid signature response");
                    if let Some(flag) = invalid_nodes.get_mut(node % nodes.max(1)) {
                        *flag = true;
                    }
                    node += 1;
                    Answer::Invalid
                }
            },
        };
        let done = matches!(answer, Answer::Signed(_)) || invalid_nodes.iter().all(|&b| b);
        if events.send(Event { index, answer }).is_err() || done {
            return;
        }
        // Skip nodes that already sent a wrong signature.
        while invalid_nodes
            .get(node % nodes.max(1))
            .copied()
            .unwrap_or(false)
        {
            node += 1;
        }
        let now = Instant::now();
        if now + backoff >= deadline {
            return;
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(config.max_backoff);
    }
}
