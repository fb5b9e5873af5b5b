//! The webhook operations of the Glacier Data API (`/v1/webhooks...`) over `snowline-webhooks`:
//! parse, authenticate the caller's organisation, call one operation, render. Every operation
//! needs an API key; a webhook of another organisation is a 404. Writes run on tokio's blocking
//! pool, reads on the REST edge's read pool. `docs/webhooks.md`.

use std::sync::Arc;

use serde::Serialize;
use snowline_chain_registry::ChainRegistry;
use snowline_query::params::page_size;
use snowline_query::{FilterDigest, SealedPageTokens, TokenSecret};
use snowline_rest_api::hyper::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue};
use snowline_rest_api::hyper::{Method, StatusCode};
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight, handler};
use snowline_types::network::NetworkInfo;
use snowline_webhooks::model::{
    ADDRESS_ACTIVITY, AddressesChange, CreateRequest, Status, UpdateRequest,
};
use snowline_webhooks::net::{check_url, resolve};
use snowline_webhooks::pnaddress::PRIMARY_NETWORK_ADDRESS_ACTIVITY;
use snowline_webhooks::{AllowList, Target, WebhookError, Webhooks};

use crate::params::{bad, page_token, param_error};

/// What the webhook handlers share.
struct WebhookApi {
    webhooks: Arc<Webhooks>,
    registry: ChainRegistry,
    network: &'static NetworkInfo,
    tokens: SealedPageTokens,
    allow: AllowList,
}

/// `ListWebhooksResponse`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListWebhooksResponse<T> {
    #[serde(skip_serializing_if = "Option::is_none")]
    next_page_token: Option<String>,
    webhooks: Vec<T>,
}

/// `ListWebhookAddressesResponse`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListAddressesResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    next_page_token: Option<String>,
    addresses: Vec<String>,
    total_addresses: usize,
}

/// `SharedSecretsResponse`.
#[derive(Serialize)]
struct SharedSecret {
    secret: String,
}

fn error(e: WebhookError) -> ApiError {
    match e {
        WebhookError::Invalid(m) => ApiError::bad_request(m),
        WebhookError::NotFound(id) => ApiError::not_found(format!("Webhook {id:?} not found")),
        WebhookError::Store(e) => ApiError::internal(format!("webhook store: {e}")),
    }
}

/// The caller's organisation: webhooks belong to the API key's organisation.
fn org(req: &Request) -> Result<String, ApiError> {
    req.caller().map(|c| c.org_id.clone()).ok_or_else(|| {
        ApiError::unauthorized(
            "an API key is required: webhooks belong to the key's organisation (send it in \
             x-data-api-key)",
        )
    })
}

/// Runs a store operation on the blocking pool.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, WebhookError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("webhook operation: {e}")))?
        .map_err(error)
}

/// Checks that `url` is well formed and resolves to an address deliveries may reach.
async fn check_destination(url: &str, allow: &AllowList) -> Result<(), ApiError> {
    let uri = check_url(url).map_err(error)?;
    resolve(&uri, allow)
        .await
        .map(drop)
        .map_err(|why| ApiError::bad_request(format!("Invalid url: {why}")))
}

/// Adds the ten webhook operations; `network` is the server's (the one `validator_activity`
/// webhooks watch); `allow` is the operator's private networks, checked at creation and on each
/// delivery.
pub fn routes(
    router: Router,
    webhooks: Arc<Webhooks>,
    registry: ChainRegistry,
    network: &'static NetworkInfo,
    secret: TokenSecret,
    allow: AllowList,
) -> Router {
    let api = Arc::new(WebhookApi {
        webhooks,
        registry,
        network,
        tokens: SealedPageTokens::new(secret),
        allow,
    });
    let a = Arc::clone(&api);
    let router = router.post("/v1/webhooks", Weight::MEDIUM, move |req| {
        let api = Arc::clone(&a);
        async move { create(&api, req).await }
    });
    let a = Arc::clone(&api);
    let router = router.get_blocking("/v1/webhooks", Weight::SMALL, move |req| list(&a, req));
    let a = Arc::clone(&api);
    let router = router.get_blocking("/v1/webhooks/{id}", Weight::SMALL, move |req| {
        let (org, id) = (org(req)?, req.required_param("id")?);
        Reply::json(&a.webhooks.get(&org, id).map_err(error)?)
    });
    let a = Arc::clone(&api);
    let router = router.route(
        Method::PATCH,
        "/v1/webhooks/{id}",
        Weight::MEDIUM,
        handler(move |req: Request| {
            let api = Arc::clone(&a);
            async move { update(&api, req).await }
        }),
    );
    let a = Arc::clone(&api);
    let router = router.route(
        Method::DELETE,
        "/v1/webhooks/{id}",
        Weight::MEDIUM,
        handler(move |req: Request| {
            let api = Arc::clone(&a);
            async move {
                let (org, id) = (org(&req)?, req.required_param("id")?.to_owned());
                let w = Arc::clone(&api.webhooks);
                Reply::json(&blocking(move || w.deactivate(&org, &id)).await?)
            }
        }),
    );
    let a = Arc::clone(&api);
    let router = router.post(
        "/v1/webhooks:generateOrRotateSharedSecret",
        Weight::MEDIUM,
        move |req| {
            let api = Arc::clone(&a);
            async move {
                let org = org(&req)?;
                let w = Arc::clone(&api.webhooks);
                let secret = blocking(move || w.rotate_secret(&org)).await?;
                Ok(Reply::json(&SharedSecret { secret })?.with_status(StatusCode::CREATED))
            }
        },
    );
    let a = Arc::clone(&api);
    let router = router.get_blocking("/v1/webhooks:getSharedSecret", Weight::SMALL, move |req| {
        let secret = a.webhooks.secret(&org(req)?).map_err(error)?;
        Reply::json(&SharedSecret { secret })
    });
    let mut router = router;
    for (method, add) in [(Method::PATCH, true), (Method::DELETE, false)] {
        let a = Arc::clone(&api);
        router = router.route(
            method,
            "/v1/webhooks/{id}/addresses",
            Weight::MEDIUM,
            handler(move |req: Request| {
                let api = Arc::clone(&a);
                async move {
                    let (org, id) = (org(&req)?, req.required_param("id")?.to_owned());
                    let change: AddressesChange = req.json()?;
                    let w = Arc::clone(&api.webhooks);
                    let answer = blocking(move || {
                        if add {
                            w.add_addresses(&org, &id, &change.addresses)
                        } else {
                            w.remove_addresses(&org, &id, &change.addresses)
                        }
                    })
                    .await?;
                    Reply::json(&answer)
                }
            }),
        );
    }
    let a = Arc::clone(&api);
    let router = router.get_blocking("/v1/webhooks/{id}/addresses", Weight::MEDIUM, move |req| {
        addresses(&a, req)
    });
    let a = Arc::clone(&api);
    router.get_blocking("/v1/webhooks/{id}/events", Weight::MEDIUM, move |req| {
        events(&a, req)
    })
}

/// How long an event-stream client waits before asking again (the SSE `retry` field).
const STREAM_RETRY_MS: u64 = 1_000;

/// `GET /v1/webhooks/{id}/events`: the webhook's events after the `Last-Event-ID` header (or
/// the `lastEventId` query parameter), at most `pageSize` (1–100, 100), as Server-Sent Events:
/// each `id` is the event's sequence number and `data` its delivery body. The response ends
/// after them and tells the client to come back (`retry`), so an `EventSource` resumes where it
/// stopped, with nothing lost or repeated.
fn events(api: &WebhookApi, req: &Request) -> Result<Reply, ApiError> {
    let (org, id) = (org(req)?, req.required_param("id")?);
    let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
    let raw = req
        .header("last-event-id")
        .map(|v| ("Last-Event-ID", v))
        .or_else(|| req.query("lastEventId").map(|v| ("lastEventId", v)));
    let after = match raw {
        None | Some((_, "")) => None,
        Some((name, v)) => Some(
            v.parse::<u64>()
                .map_err(|_| param_error(name, "must be the id of an event of this stream", v))?,
        ),
    };
    let events = api.webhooks.stream(&org, id, after, size).map_err(error)?;
    let mut body = format!("retry: {STREAM_RETRY_MS}\n\n").into_bytes();
    for (seq, data) in events {
        body.extend_from_slice(format!("id: {seq}\ndata: ").as_bytes());
        body.extend_from_slice(&data);
        body.extend_from_slice(b"\n\n");
    }
    Ok(Reply::bytes(StatusCode::OK, body)
        .with_header(
            CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream; charset=utf-8"),
        )
        .with_header(CACHE_CONTROL, HeaderValue::from_static("no-store")))
}

async fn create(api: &WebhookApi, req: Request) -> Result<Reply, ApiError> {
    let org = org(&req)?;
    let body: CreateRequest = req.json()?;
    snowline_webhooks::model::check_event_type(&body.event_type).map_err(error)?;
    let target = if body.event_type == ADDRESS_ACTIVITY {
        let raw = body
            .chain_id
            .as_deref()
            .ok_or_else(|| ApiError::bad_request("Invalid chainId: required"))?;
        Target::Evm(chain_id(api, raw)?)
    } else {
        let raw = body
            .network
            .as_deref()
            .ok_or_else(|| ApiError::bad_request("Invalid network: required"))?;
        if raw != api.network.name {
            return Err(param_error(
                "network",
                &format!("this server indexes the {:?} network", api.network.name),
                raw,
            ));
        }
        let p_chain = api.network.p_chain_id.to_string();
        if body.event_type == PRIMARY_NETWORK_ADDRESS_ACTIVITY {
            let chain = body
                .chain_id
                .as_deref()
                .ok_or_else(|| ApiError::bad_request("Invalid chainId: required"))?;
            let n = api.network;
            let chains = [n.p_chain_id, n.x_chain_id, n.c_chain_id].map(|c| c.to_string());
            if !chains.iter().any(|c| c == chain) {
                return Err(param_error(
                    "chainId",
                    &format!(
                        "must be the P-, X- or C-Chain's id of this network ({})",
                        chains.join(", ")
                    ),
                    chain,
                ));
            }
            Target::Primary {
                network: raw.to_owned(),
                chain_id: chain.to_owned(),
                thresholds: chain != chains[2],
                hrp: api.network.hrp.to_owned(),
            }
        } else {
            Target::Platform {
                network: raw.to_owned(),
                chain_id: p_chain,
            }
        }
    };
    check_destination(&body.url, &api.allow).await?;
    let w = Arc::clone(&api.webhooks);
    let created = blocking(move || w.create(&org, body, target)).await?;
    Ok(Reply::json(&created)?.with_status(StatusCode::CREATED))
}

/// A webhook's `chainId`: the decimal id of an EVM chain in the registry.
fn chain_id(api: &WebhookApi, raw: &str) -> Result<u64, ApiError> {
    let parsed = raw.parse::<u64>().ok().filter(|_| !raw.starts_with('+'));
    match parsed {
        Some(id) if api.registry.lookup(raw).is_ok() => Ok(id),
        _ => Err(param_error(
            "chainId",
            "must be the decimal id of an EVM chain this server knows (GET /v1/chains)",
            raw,
        )),
    }
}

async fn update(api: &WebhookApi, req: Request) -> Result<Reply, ApiError> {
    let (org, id) = (org(&req)?, req.required_param("id")?.to_owned());
    let body: UpdateRequest = req.json()?;
    if let Some(url) = &body.url {
        check_destination(url, &api.allow).await?;
    }
    let w = Arc::clone(&api.webhooks);
    Reply::json(&blocking(move || w.update(&org, &id, body)).await?)
}

fn list(api: &WebhookApi, req: &Request) -> Result<Reply, ApiError> {
    let org = org(req)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
    let status = match req.query("status") {
        Some(raw) => Some(
            Status::parse(raw)
                .ok_or_else(|| param_error("status", "must be \"active\" or \"inactive\"", raw))?,
        ),
        None => None,
    };
    let digest = FilterDigest::new("webhooks")
        .field("org", &org)
        .optional("status", req.query("status"))
        .finish();
    let after = page_token(&api.tokens, req, &digest)?
        .map(|p| String::from_utf8(p).map_err(|_| bad_token()))
        .transpose()?;
    let page = api
        .webhooks
        .list(&org, status, after.as_deref(), size)
        .map_err(error)?;
    Reply::json(&ListWebhooksResponse {
        next_page_token: page
            .next
            .map(|id| api.tokens.encode(&digest, id.as_bytes(), None)),
        webhooks: page.items,
    })
}

fn bad_token() -> ApiError {
    ApiError::bad_request("Invalid pageToken: not valid for this query")
}

fn addresses(api: &WebhookApi, req: &Request) -> Result<Reply, ApiError> {
    let (org, id) = (org(req)?, req.required_param("id")?);
    let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
    let digest = FilterDigest::new("webhooks/addresses")
        .field("org", &org)
        .field("id", id)
        .finish();
    let after = page_token(&api.tokens, req, &digest)?
        .map(|p| <[u8; 20]>::try_from(p.as_slice()).map_err(|_| bad_token()))
        .transpose()?;
    let (page, total) = api
        .webhooks
        .list_addresses(&org, id, after, size)
        .map_err(error)?;
    Reply::json(&ListAddressesResponse {
        next_page_token: page.next.map(|a| api.tokens.encode(&digest, &a, None)),
        addresses: page.items,
        total_addresses: total,
    })
}
