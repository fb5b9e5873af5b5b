//! Warp signature aggregation (spec endpoints 1 and 2): the signing subnet's validator set at a
//! P-Chain height from this instance's own P-Chain index (`chain_p::PChainPages`), signatures
//! collected from the validators through a [`SignatureSource`] (the P2P layer's ACP-118
//! requests) by `snowline_warp::Aggregator`, which verifies, caches and aggregates them.

mod l1;
mod request;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use snowline_chain_p::pages::{PChainPages, ValidatorSet, ValidatorSetError};
use snowline_query::ParamError;
use snowline_query::params::cb58_id;
use snowline_query::params::served_network;
use snowline_rest_api::{ApiError, Profile, Reply, Request, Router, Weight};
use snowline_types::network::NetworkInfo;
use snowline_types::warp::UnsignedMessage;
use snowline_types::{Id, NodeId};
use snowline_warp::{
    AggregateError, AggregationRequest, Aggregator, CanonicalSet, NodeValidator, PublicKey,
    SignatureSource,
};

use crate::params::bad;

/// What the aggregation endpoints share.
pub struct WarpApi<S> {
    pchain: Arc<PChainPages>,
    aggregator: Arc<Aggregator<S>>,
    network: &'static NetworkInfo,
    timeout: Duration,
}

impl<S> WarpApi<S> {
    /// Aggregation on `network` over the P-Chain index `pchain`, asking through `aggregator`,
    /// each request given `timeout` to collect its quorum.
    pub fn new(
        pchain: Arc<PChainPages>,
        aggregator: Arc<Aggregator<S>>,
        network: &'static NetworkInfo,
        timeout: Duration,
    ) -> Self {
        Self {
            pchain,
            aggregator,
            network,
            timeout,
        }
    }
}

/// Adds the two aggregation endpoints.
pub fn routes<S: SignatureSource + 'static>(router: Router, api: WarpApi<S>) -> Router {
    let api = Arc::new(api);
    let (a, b) = (Arc::clone(&api), api);
    router
        .post(
            "/v1/signatureAggregator/{network}/aggregateSignatures",
            Weight::MEDIUM,
            move |req| {
                let api = Arc::clone(&a);
                async move { api.aggregate_body(req).await }
            },
        )
        .get(
            "/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}",
            Weight::MEDIUM,
            move |req| {
                let api = Arc::clone(&b);
                async move { api.aggregate_tx(req).await }
            },
        )
}

/// What one aggregation asks for, once resolved.
struct Job {
    message: UnsignedMessage,
    justification: Vec<u8>,
    subnet: Id,
    height: Option<u64>,
    quorum: u64,
    buffer: u64,
}

impl<S: SignatureSource + 'static> WarpApi<S> {
    /// `POST .../aggregateSignatures`.
    async fn aggregate_body(&self, req: Request) -> Result<Reply, ApiError> {
        served_network(req.required_param("network")?, self.network)?;
        let body = request::parse(&req.json::<Value>()?)?;
        let Some(raw) = body.message.as_deref() else {
            return Err(bad(ParamError::new(
                "message",
                "is required to aggregate: a justification alone names no message to sign",
            )));
        };
        let message = request::unpack_message(raw)?;
        self.check_network(&message)?;
        let subnet = match body.signing_subnet {
            Some(s) => s,
            None => self.subnet_of(message.source_chain_id).await?,
        };
        let job = Job {
            message,
            justification: body.justification.unwrap_or_default(),
            subnet,
            height: (body.p_chain_height != 0).then_some(body.p_chain_height),
            quorum: body.quorum,
            buffer: body.buffer,
        };
        self.run(job, req.profile()).await
    }

    /// `GET .../aggregateSignatures/{txHash}`: the L1 Warp message a P-Chain tx carries or
    /// implies, signed by its L1's validators.
    async fn aggregate_tx(&self, req: Request) -> Result<Reply, ApiError> {
        served_network(req.required_param("network")?, self.network)?;
        let tx = cb58_id("txHash", req.required_param("txHash")?).map_err(bad)?;
        let pchain = Arc::clone(&self.pchain);
        let network = self.network;
        let found = blocking(move || l1::message_of_tx(&pchain, network, &tx)).await??;
        let job = Job {
            message: found.message,
            justification: found.justification,
            subnet: found.subnet,
            height: None,
            quorum: request::DEFAULT_QUORUM,
            buffer: 0,
        };
        self.run(job, req.profile()).await
    }

    fn check_network(&self, m: &UnsignedMessage) -> Result<(), ApiError> {
        if m.network_id != self.network.network_id {
            return Err(bad(ParamError::new(
                "message",
                format!(
                    "is for network {}, this instance serves network {}",
                    m.network_id, self.network.network_id
                ),
            )));
        }
        Ok(())
    }

    /// The subnet that validates `chain` (the P-Chain's messages: the primary network).
    async fn subnet_of(&self, chain: Id) -> Result<Id, ApiError> {
        if chain == self.network.p_chain_id {
            return Ok(Id::default());
        }
        let pchain = Arc::clone(&self.pchain);
        let row = blocking(move || pchain.chain(&chain))
            .await?
            .map_err(|e| ApiError::internal(format!("reading the P-Chain index failed: {e}")))?;
        match row {
            Some(c) => Ok(c.subnet_id),
            None => Err(bad(ParamError::new(
                "message",
                format!(
                    "comes from chain {chain}, which the P-Chain index does not know (created \
                     by no CreateChainTx indexed here): give signingSubnetId"
                ),
            ))),
        }
    }

    async fn run(&self, job: Job, profile: Profile) -> Result<Reply, ApiError> {
        let pchain = Arc::clone(&self.pchain);
        let (subnet, height) = (job.subnet, job.height);
        let set = blocking(move || pchain.validator_set(&subnet, height))
            .await?
            .map_err(set_error)?;
        if set.validators.is_empty() {
            return Err(aggregate_error(AggregateError::NoValidatorsForSubnet {
                subnet,
                height: set.height,
            }));
        }
        let canonical = canonical(&set)?;
        let aggregated = self
            .aggregator
            .aggregate(AggregationRequest {
                message: job.message,
                justification: job.justification,
                validators: Arc::new(canonical),
                quorum_percentage: job.quorum,
                quorum_buffer_percentage: job.buffer,
                timeout: self.timeout,
                excluded: Vec::new(),
            })
            .await
            .map_err(aggregate_error)?;
        let reply = Reply::json(&json!({"signedMessage": hex::encode(&aggregated.bytes)}))?;
        // The official client accepts only the real service's 201.
        Ok(match profile {
            Profile::Glacier => reply.with_status(snowline_rest_api::hyper::StatusCode::CREATED),
            Profile::Spec => reply,
        })
    }
}

/// The canonical set of `set` (avalanchego `snow/validators/warp.go` `FlattenValidatorSet`):
/// the validators with a key, in key order, which signer bits index; the total weight counts
/// the keyless ones too (an L1's inactive validators, under the empty node id), so they weigh
/// against the quorum but are never asked.
fn canonical(set: &ValidatorSet) -> Result<CanonicalSet, ApiError> {
    let mut nodes = Vec::with_capacity(set.validators.len());
    for v in &set.validators {
        let public_key = match &v.public_key {
            Some(k) => Some(PublicKey::from_compressed(k).map_err(|e| {
                ApiError::internal(format!("the validator set holds a bad BLS key: {e}"))
            })?),
            None => None,
        };
        nodes.push(NodeValidator {
            // Every node id avalanchego accepts is 20 bytes; any other could not be dialled.
            node_id: NodeId::from(<[u8; 20]>::try_from(v.node_id.as_slice()).unwrap_or([0; 20])),
            public_key,
            weight: v.weight,
        });
    }
    CanonicalSet::flatten(nodes)
        .map_err(|e| ApiError::internal(format!("the validator set's weights: {e}")))
}

fn set_error(e: ValidatorSetError) -> ApiError {
    match e {
        ValidatorSetError::NotIndexed => ApiError::service_unavailable(e.to_string()),
        ValidatorSetError::BeyondTip { .. } => bad(ParamError::new("pChainHeight", e.to_string())),
        ValidatorSetError::Read(e) => {
            ApiError::internal(format!("reading the P-Chain index failed: {e}"))
        }
    }
}

/// An aggregation failure: bad quorum settings are the caller's (400); too few reachable
/// validators or signatures is the validators' (503, with how far it got); a share that does
/// not aggregate is ours (500).
fn aggregate_error(e: AggregateError) -> ApiError {
    let figures = e.stats().map(|s| {
        format!(
            ": reached weight {} of the {} required ({} targeted, total {}); {} validators, {} \
             from the cache, {} asked, {} signed, {} failed, {} invalid, {} had not seen the \
             message",
            s.reached_weight,
            s.required_weight,
            s.target_weight,
            s.total_weight,
            s.validators,
            s.cached,
            s.asked,
            s.answered,
            s.failed,
            s.invalid,
            s.not_seen
        )
    });
    let message = format!("{e}{}", figures.unwrap_or_default());
    match e {
        AggregateError::Quorum(_) => ApiError::bad_request(message),
        AggregateError::NoValidators | AggregateError::NoValidatorsForSubnet { .. } => {
            ApiError::bad_request(message)
        }
        AggregateError::NotEnoughSignatures(_) | AggregateError::NotEnoughConnectedStake(_) => {
            ApiError::service_unavailable(message)
        }
        AggregateError::Aggregate { .. } => ApiError::internal(message),
    }
}

/// Runs a store read on tokio's blocking pool.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("a read task failed: {e}")))
}
