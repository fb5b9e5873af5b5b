//! ICM messages (spec endpoint 18): `/v1/icm/messages`, `/v1/icm/messages/{messageId}` and
//! `/v1/icm/addresses/{address}/messages`, and the same under the legacy `/v1/teleporter/`
//! names, read through the ICM room's pages (`snowline_chain_icm::IcmPages`).

mod render;

use std::sync::Arc;

use snowline_chain_evm::pages::EvmPages;
use snowline_chain_icm::{IcmPageError, IcmPages, IcmQuery};
use snowline_chain_registry::ChainRegistry;
use snowline_query::params::served_network;
use snowline_query::params::{ChainRef, cb58_id, chain_ref, evm_address, page_size};
use snowline_query::{FilterDigest, ParamError, SealedPageTokens, TokenSecret};
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};
use snowline_types::Id;
use snowline_types::evm::{Address, B256};
use snowline_types::network::NetworkInfo;
use snowline_types::rest::icm::ListIcmMessagesResponse;

use crate::params::{bad, invalid_token, page_token};

/// What the ICM endpoints share.
pub struct IcmApi {
    pages: IcmPages,
    evm: Arc<EvmPages>,
    registry: ChainRegistry,
    tokens: SealedPageTokens,
    network: &'static NetworkInfo,
}

type Handler = fn(&IcmApi, &Request) -> Result<Reply, ApiError>;

/// Adds the ICM endpoints over `pages` (the fee tokens' names from `evm`), for the chains of
/// `registry` on `network`; page tokens are authenticated with `secret`.
pub fn routes(
    router: Router,
    pages: IcmPages,
    evm: Arc<EvmPages>,
    registry: ChainRegistry,
    network: &'static NetworkInfo,
    secret: TokenSecret,
) -> Router {
    let api = Arc::new(IcmApi {
        pages,
        evm,
        registry,
        tokens: SealedPageTokens::new(secret),
        network,
    });
    let mut endpoints: Vec<(String, Handler)> = Vec::new();
    for root in ["/v1/icm", "/v1/teleporter"] {
        endpoints.push((format!("{root}/messages"), list));
        endpoints.push((format!("{root}/messages/{{messageId}}"), one));
        endpoints.push((format!("{root}/addresses/{{address}}/messages"), by_address));
    }
    endpoints.into_iter().fold(router, |router, (template, f)| {
        let api = Arc::clone(&api);
        router.get_blocking(&template, Weight::MEDIUM, move |req| f(&api, req))
    })
}

/// `GET .../messages/{messageId}`.
fn one(api: &IcmApi, req: &Request) -> Result<Reply, ApiError> {
    let raw = req.required_param("messageId")?;
    let id = message_id(raw)?;
    let view = api
        .pages
        .message(id)
        .map_err(page_error)?
        .ok_or_else(|| ApiError::not_found(format!("ICM message {raw} is not indexed here")))?;
    Reply::json(&render::message(api, &view)?)
}

/// `GET .../messages`: every filter of the spec.
fn list(api: &IcmApi, req: &Request) -> Result<Reply, ApiError> {
    let mut q = IcmQuery::default();
    let mut unknown_chain = false;
    for (name, slot) in [
        ("sourceBlockchainId", &mut q.source),
        ("destinationBlockchainId", &mut q.destination),
    ] {
        if let Some(raw) = req.query(name) {
            match api.blockchain(chain_ref(name, raw).map_err(bad)?)? {
                Some(id) => *slot = Some(id),
                None => unknown_chain = true,
            }
        }
    }
    if let Some(raw) = req.query("blockchainId") {
        q.chain = Some(B256::from(
            *cb58_id("blockchainId", raw).map_err(bad)?.as_bytes(),
        ));
    }
    for (name, slot) in [("from", &mut q.from), ("to", &mut q.to)] {
        if let Some(raw) = req.query(name) {
            *slot = Some(Address::from(evm_address(name, raw).map_err(bad)?));
        }
    }
    api.listing(req, q, unknown_chain, "icm/messages")
}

/// `GET .../addresses/{address}/messages`: sent or received by the address.
fn by_address(api: &IcmApi, req: &Request) -> Result<Reply, ApiError> {
    let raw = req.required_param("address")?;
    let q = IcmQuery {
        address: Some(Address::from(evm_address("address", raw).map_err(bad)?)),
        ..IcmQuery::default()
    };
    api.listing(req, q, false, "icm/addresses/messages")
}

impl IcmApi {
    /// One page of `q`; `empty` when a filter names an EVM chain no registry knows (nothing can
    /// match it).
    fn listing(
        &self,
        req: &Request,
        q: IcmQuery,
        empty: bool,
        listing: &str,
    ) -> Result<Reply, ApiError> {
        let size = page_size(req.query("pageSize"), 100).map_err(bad)?;
        if let Some(raw) = req.query("network") {
            served_network(raw, self.network)?;
        }
        let hex = |id: &Option<B256>| id.map(|i| i.to_string());
        let addr = |a: &Option<Address>| a.map(|a| a.to_string());
        let digest = FilterDigest::new(listing)
            .optional("sourceBlockchainId", hex(&q.source).as_deref())
            .optional("destinationBlockchainId", hex(&q.destination).as_deref())
            .optional("blockchainId", hex(&q.chain).as_deref())
            .optional("from", addr(&q.from).as_deref())
            .optional("to", addr(&q.to).as_deref())
            .optional("address", addr(&q.address).as_deref())
            .finish();
        let from = page_token(&self.tokens, req, &digest)?;
        if empty {
            return Reply::json(&ListIcmMessagesResponse {
                next_page_token: None,
                messages: Vec::new(),
            });
        }
        let page = self
            .pages
            .list(&q, size, from.as_deref())
            .map_err(page_error)?;
        Reply::json(&ListIcmMessagesResponse {
            next_page_token: page.next.map(|p| self.tokens.encode(&digest, &p, None)),
            messages: page
                .messages
                .iter()
                .map(|v| render::message(self, v))
                .collect::<Result<_, _>>()?,
        })
    }

    /// The blockchain id a chain reference names: an EVM chain id as the indexed chain's
    /// messenger has it, else as the registry lists it (`None`: neither knows it).
    fn blockchain(&self, r: ChainRef) -> Result<Option<B256>, ApiError> {
        match r {
            ChainRef::Blockchain(id) => Ok(Some(B256::from(*id.as_bytes()))),
            ChainRef::Evm(n) => {
                if let Some(id) = self.pages.blockchain_of(n).map_err(page_error)? {
                    return Ok(Some(id));
                }
                Ok(self
                    .registry
                    .lookup(&n.to_string())
                    .ok()
                    .and_then(|c| c.blockchain_id())
                    .map(|id| B256::from(*id.as_bytes())))
            }
        }
    }

    /// The EVM chain id of blockchain `id`: an indexed chain's, else the registry's.
    fn evm_chain_of(&self, id: B256) -> Option<String> {
        if let Ok(Some(chain)) = self.pages.evm_chain_of(id) {
            return Some(chain.to_string());
        }
        let cb58 = Id::from(id.0).to_string();
        self.registry.lookup(&cb58).ok().map(|c| c.chain_id.clone())
    }
}

/// A message id: 32 bytes in hex (`0x` optional) as the EVM logs carry it, or in cb58 as
/// Avalanche tools print an `ids.ID`.
fn message_id(raw: &str) -> Result<B256, ApiError> {
    let digits = raw.strip_prefix("0x").unwrap_or(raw);
    if digits.len() == 64 {
        if let Ok(b) = hex::decode(digits) {
            return Ok(B256::from_slice(&b));
        }
    }
    raw.parse::<Id>()
        .map(|id| B256::from(*id.as_bytes()))
        .map_err(|_| {
            bad(ParamError::invalid(
                "messageId",
                "must be 32 bytes in hex (0x and 64 hex digits) or an id in cb58",
                raw,
            ))
        })
}

fn page_error(e: IcmPageError) -> ApiError {
    match e {
        IcmPageError::BadPosition => invalid_token(),
        e => ApiError::internal(format!("reading the ICM index failed: {e}")),
    }
}
