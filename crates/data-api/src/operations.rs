//! Transaction exports (`POST /v1/operations/transactions:export`, `GET
//! /v1/operations/{operationId}`) over `chain_evm::export` (the Primary Network's rows from
//! [`crate::pexport`]), and the CSV they write (`GET
//! /v1/operations/{operationId}/download`, the `downloadUrl`). Every operation needs an API key;
//! an export belongs to the key's organisation and is a 404 to any other. `docs/exports.md`.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use snowline_chain_evm::export::{
    EVM_EXPORT as EVM, ExportError, ExportJob, ExportStatus, Exports, date_text, parse_date,
};
use snowline_chain_registry::ChainRegistry;
use snowline_rest_api::hyper::StatusCode;
use snowline_rest_api::hyper::header::{CONTENT_TYPE, HeaderValue};
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};
use snowline_types::evm::Address;
use snowline_types::network::NetworkInfo;
use snowline_types::{Id, ShortId};

use crate::params::param_error;
use crate::pexport::{PRIMARY, PRIMARY_SIMPLE, PRIMARY_STAKING};

/// Most addresses and chains one export may name.
const MAX_ADDRESSES: usize = 100;
const MAX_CHAINS: usize = 20;

/// The Primary Network types of the OpenAPI.
const PRIMARY_TYPES: [&str; 3] = [PRIMARY, PRIMARY_STAKING, PRIMARY_SIMPLE];

/// `CreateEvmTransactionExportRequest` (the Primary Network's shares `type`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExportRequest {
    #[serde(rename = "type")]
    kind: String,
    first_date: Option<String>,
    last_date: Option<String>,
    start_date: Option<String>,
    end_date: Option<String>,
    options: Option<serde_json::Value>,
}

/// `EvmNetworkOptions`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EvmOptions {
    addresses: Vec<String>,
    include_chains: Vec<String>,
}

/// `PrimaryNetworkOptions`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PrimaryOptions {
    #[serde(default)]
    addresses: Vec<String>,
    #[serde(default)]
    c_chain_evm_addresses: Vec<String>,
    include_chains: Vec<String>,
}

/// `OperationStatusResponse`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OperationStatusResponse {
    operation_id: String,
    operation_type: String,
    operation_status: ExportStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<Metadata>,
    created_at_timestamp: u64,
    updated_at_timestamp: u64,
}

/// `TransactionExportMetadata`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Metadata {
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    download_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_date: Option<String>,
}

fn org(req: &Request) -> Result<String, ApiError> {
    req.caller().map(|c| c.org_id.clone()).ok_or_else(|| {
        ApiError::unauthorized(
            "an API key is required: an export belongs to the key's organisation (send it in \
             x-data-api-key)",
        )
    })
}

fn internal(e: ExportError) -> ApiError {
    ApiError::internal(format!("export: {e}"))
}

/// The answer for `job`; `base` is the server's own URL (`http://HOST`), when known.
fn status(job: &ExportJob, base: Option<&str>) -> OperationStatusResponse {
    let download = format!("/v1/operations/{}/download", job.id);
    let metadata = match job.status {
        ExportStatus::Running => None,
        ExportStatus::Completed | ExportStatus::CompletedWithWarning => Some(Metadata {
            code: job.next_day.map(|_| "WarnTruncatedExport"),
            download_url: Some(base.map_or(download.clone(), |b| format!("{b}{download}"))),
            next_date: job.next_day.map(date_text),
        }),
        ExportStatus::Failed => Some(Metadata {
            code: Some("ErrInternal"),
            download_url: None,
            next_date: None,
        }),
    };
    OperationStatusResponse {
        operation_id: job.id.clone(),
        operation_type: job.kind.clone(),
        operation_status: job.status,
        message: job.message.clone(),
        metadata,
        created_at_timestamp: job.created_at,
        updated_at_timestamp: job.updated_at,
    }
}

/// `http://HOST` from the request's `Host` header.
fn base(req: &Request) -> Option<String> {
    req.header("host").map(|h| format!("http://{h}"))
}

/// The last id made's time part: ids made in one nanosecond take the next ones.
static LAST_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A UUID-shaped id for a new job: the nanoseconds of its creation (strictly increasing in this
/// process) and the process id, so ids never repeat on one server.
fn new_id() -> String {
    use std::sync::atomic::Ordering;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos()) as u64;
    let prev = LAST_ID
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |last| {
            Some(now.max(last + 1))
        })
        .unwrap_or(now);
    let t = now.max(prev + 1);
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&t.to_be_bytes());
    b[8..12].copy_from_slice(&std::process::id().to_be_bytes());
    let h = hex::encode(b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// Adds the export operations over `exports`; `registry` says which EVM chains exist,
/// `network` which Primary Network is served.
pub fn routes(
    router: Router,
    exports: Arc<Exports>,
    registry: ChainRegistry,
    network: &'static NetworkInfo,
) -> Router {
    let e = Arc::clone(&exports);
    let router = router.post(
        "/v1/operations/transactions:export",
        Weight::MEDIUM,
        move |req| {
            let (e, registry) = (Arc::clone(&e), registry.clone());
            async move { create(&e, &registry, network, req).await }
        },
    );
    let e = Arc::clone(&exports);
    let router = router.get_blocking("/v1/operations/{operationId}", Weight::SMALL, move |req| {
        let (org, id) = (org(req)?, req.required_param("operationId")?);
        match e.get(&org, id).map_err(internal)? {
            Some(job) => Reply::json(&status(&job, base(req).as_deref())),
            None => Err(ApiError::not_found(format!("Operation {id:?} not found"))),
        }
    });
    let e = exports;
    router.get_blocking(
        "/v1/operations/{operationId}/download",
        Weight::LARGE,
        move |req| {
            let (org, id) = (org(req)?, req.required_param("operationId")?);
            match e.csv(&org, id).map_err(internal)? {
                Some(csv) => Ok(Reply::bytes(StatusCode::OK, csv)
                    .with_header(CONTENT_TYPE, HeaderValue::from_static("text/csv"))),
                None => Err(ApiError::not_found(format!(
                    "Operation {id:?} has no file: it does not exist or is not complete"
                ))),
            }
        },
    )
}

/// What a Primary Network job reads: its addresses and chains.
fn primary_options(
    raw: serde_json::Value,
    network: &NetworkInfo,
) -> Result<(Vec<ShortId>, Vec<Id>), ApiError> {
    let options: PrimaryOptions = serde_json::from_value(raw)
        .map_err(|e| ApiError::bad_request(format!("Invalid options: {e}")))?;
    if !options.c_chain_evm_addresses.is_empty() {
        return Err(ApiError::bad_request(
            "Invalid options.cChainEvmAddresses: the C-Chain's txs are not in Primary Network \
             exports of this server yet; omit it",
        ));
    }
    if options.addresses.is_empty() || options.addresses.len() > MAX_ADDRESSES {
        return Err(ApiError::bad_request(format!(
            "Invalid options.addresses: name 1 to {MAX_ADDRESSES} addresses"
        )));
    }
    let mut addresses = Vec::new();
    for raw in &options.addresses {
        let bech = raw.split_once('-').map_or(raw.as_str(), |(_, b)| b);
        match snowline_types::address::parse_bech32(bech) {
            Ok((hrp, a)) if hrp == network.hrp => {
                if !addresses.contains(&a) {
                    addresses.push(a);
                }
            }
            _ => {
                return Err(param_error(
                    "options.addresses",
                    &format!(
                        "each must be a bech32 address of this network ({})",
                        network.hrp
                    ),
                    raw,
                ));
            }
        }
    }
    if options.include_chains.is_empty() {
        return Err(ApiError::bad_request(
            "Invalid options.includeChains: name the P-Chain",
        ));
    }
    let p = network.p_chain_id;
    for raw in &options.include_chains {
        if raw != "p-chain" && *raw != p.to_string() {
            return Err(param_error(
                "options.includeChains",
                &format!("only the P-Chain (\"p-chain\" or {p}) is exported by this server yet"),
                raw,
            ));
        }
    }
    Ok((addresses, vec![p]))
}

async fn create(
    exports: &Arc<Exports>,
    registry: &ChainRegistry,
    network: &NetworkInfo,
    req: Request,
) -> Result<Reply, ApiError> {
    let org = org(&req)?;
    let body: ExportRequest = req.json()?;
    let primary = PRIMARY_TYPES.contains(&body.kind.as_str());
    if body.kind != EVM && !primary {
        return Err(param_error(
            "type",
            "must be TRANSACTION_EXPORT_EVM or a TRANSACTION_EXPORT_PRIMARY_NETWORK type",
            &body.kind,
        ));
    }
    let (mut addresses, mut chains) = (Vec::new(), Vec::new());
    let (mut primary_addresses, mut primary_chains) = (Vec::new(), Vec::new());
    if primary {
        (primary_addresses, primary_chains) =
            primary_options(body.options.clone().unwrap_or_default(), network)?;
    } else {
        (addresses, chains) = evm_options(body.options.clone().unwrap_or_default(), registry)?;
    }
    let day = |name: &str, raw: Option<&String>, default: u64| match raw {
        Some(r) => parse_date(r).ok_or_else(|| param_error(name, "must be a date, YYYY-MM-DD", r)),
        None => Ok(default),
    };
    let today = req.now_secs() / 86_400 * 86_400;
    let last_day = day(
        "lastDate",
        body.last_date.as_ref().or(body.end_date.as_ref()),
        today,
    )?;
    let first_day = day(
        "firstDate",
        body.first_date.as_ref().or(body.start_date.as_ref()),
        0,
    )?;
    if first_day > last_day {
        return Err(ApiError::bad_request(format!(
            "Invalid firstDate: {} is after lastDate {}",
            date_text(first_day),
            date_text(last_day)
        )));
    }
    let now = req.now_secs();
    let job = ExportJob {
        id: new_id(),
        org_id: org,
        kind: body.kind,
        addresses,
        chains,
        primary_addresses,
        primary_chains,
        first_day,
        last_day,
        status: ExportStatus::Running,
        created_at: now,
        updated_at: now,
        rows: 0,
        next_day: None,
        message: None,
    };
    let e = Arc::clone(exports);
    let saved = job.clone();
    tokio::task::spawn_blocking(move || e.create(&saved))
        .await
        .map_err(|e| ApiError::internal(format!("export: {e}")))?
        .map_err(internal)?;
    Reply::json(&status(&job, base(&req).as_deref()))
}

/// What an EVM job reads: its addresses and chains.
fn evm_options(
    raw: serde_json::Value,
    registry: &ChainRegistry,
) -> Result<(Vec<Address>, Vec<u64>), ApiError> {
    let options: EvmOptions = serde_json::from_value(raw)
        .map_err(|e| ApiError::bad_request(format!("Invalid options: {e}")))?;
    if options.addresses.is_empty() || options.addresses.len() > MAX_ADDRESSES {
        return Err(ApiError::bad_request(format!(
            "Invalid options.addresses: name 1 to {MAX_ADDRESSES} addresses"
        )));
    }
    let addresses = options
        .addresses
        .iter()
        .map(|a| {
            snowline_webhooks::model::parse_address(a)
                .map_err(|e| ApiError::bad_request(format!("Invalid options.addresses: {e}")))
        })
        .collect::<Result<Vec<Address>, _>>()?;
    if options.include_chains.is_empty() || options.include_chains.len() > MAX_CHAINS {
        return Err(ApiError::bad_request(format!(
            "Invalid options.includeChains: name 1 to {MAX_CHAINS} chains"
        )));
    }
    let mut chains = Vec::new();
    for raw in &options.include_chains {
        match raw.parse::<u64>() {
            Ok(id) if !raw.starts_with('+') && registry.lookup(raw).is_ok() => {
                if !chains.contains(&id) {
                    chains.push(id);
                }
            }
            _ => {
                return Err(param_error(
                    "options.includeChains",
                    "each must be the decimal id of an EVM chain this server knows (GET /v1/chains)",
                    raw,
                ));
            }
        }
    }
    Ok((addresses, chains))
}
