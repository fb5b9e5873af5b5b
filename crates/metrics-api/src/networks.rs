//! The legacy OpenAPI's listings (`metrics-api-legacy-v1.json`): `/v1/mapping[/{subnetID}]`
//! (the served EVM chains' subnets), `/v1/chains/network/{network}[/subnetId/{subnetID}]` (the
//! chains the P-Chain created) and `/v1/subnets/network/{network}[/subnetId/{subnetID}]` (the
//! subnets it created), read from the P-Chain index. Each lists in creation order (then by id),
//! a hundred a page with `startKey`, `from`/`to` selecting by creation time.

use std::sync::Arc;

use snowline_chain_p::metrics::StakingQuery;
use snowline_chain_p::pages::PChainPages;
use snowline_query::ParamError;
use snowline_query::params::cb58_id;
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};
use snowline_types::Id;
use snowline_types::address::AddressFormatter;

use crate::context::{MetricsApi, read_failed, subnet_read_failed, token_failed};
use crate::params::{self, DEFAULT_PAGE_SIZE};
use crate::render::{ChainInformationJson, Listing, SubnetInformationJson, SubnetMappingJson};

type Handler = fn(&MetricsApi, &Request) -> Result<Reply, ApiError>;

/// Adds the listings over `api`.
pub(crate) fn routes(router: Router, api: &Arc<MetricsApi>) -> Router {
    let listings: [(&str, Handler); 6] = [
        ("/v1/mapping", mapping),
        ("/v1/mapping/{subnetID}", mapping),
        ("/v1/chains/network/{network}", chains),
        ("/v1/chains/network/{network}/subnetId/{subnetID}", chains),
        ("/v1/subnets/network/{network}", subnets),
        ("/v1/subnets/network/{network}/subnetId/{subnetID}", subnets),
    ];
    listings.into_iter().fold(router, |router, (path, f)| {
        let api = Arc::clone(api);
        router.get_blocking(path, Weight::SMALL, move |req| f(&api, req))
    })
}

/// What every listing request asks: the creation times selected and the subnet named.
struct Ask {
    from: u64,
    to: u64,
    subnet: Option<Id>,
}

impl Ask {
    fn parse(req: &Request) -> Result<Self, ApiError> {
        let from = params::timestamp(req, "from")?.unwrap_or(0);
        let to = params::timestamp(req, "to")?.unwrap_or(u64::MAX);
        if from > to {
            return Err(ApiError::bad_request(
                ParamError::new("from", format!("from must not be after to ({to})")).to_string(),
            ));
        }
        let subnet = req
            .param("subnetID")
            .map(|raw| cb58_id("subnetID", raw).map_err(|e| ApiError::bad_request(e.to_string())))
            .transpose()?;
        Ok(Self { from, to, subnet })
    }

    /// Whether a row created at `time` on `subnet` is selected.
    fn wants(&self, time: u64, subnet: &Id) -> bool {
        (self.from..=self.to).contains(&time) && self.subnet.is_none_or(|s| s == *subnet)
    }

    /// The page tokens' query: the route and its parameters.
    fn key(&self, route: &str, network: &str) -> String {
        let subnet = self.subnet.map(|s| s.to_string()).unwrap_or_default();
        format!(
            "Listing|{route}|{network}|{subnet}|{}|{}",
            self.from, self.to
        )
    }
}

/// The page of `rows` (ordered) `startKey` points at (the first without one): at most a
/// hundred, and the key of the next.
pub(crate) fn page<T>(
    api: &MetricsApi,
    req: &Request,
    key: &str,
    mut rows: Vec<T>,
) -> Result<(Vec<T>, Option<String>), ApiError> {
    let start = match req.query("startKey") {
        None => 0,
        Some(token) => {
            let (issued_for, position) = api.tokens.redeem(token).map_err(token_failed)?;
            if issued_for != key {
                return Err(ApiError::bad_request(
                    "Invalid startKey: it was issued for another query; send the parameters of \
                     the first page with it",
                ));
            }
            usize::try_from(position).unwrap_or(usize::MAX)
        }
    };
    let end = start.saturating_add(DEFAULT_PAGE_SIZE);
    let next = (end < rows.len())
        .then(|| api.tokens.issue(key, end as u64))
        .transpose()
        .map_err(token_failed)?;
    rows.truncate(end);
    let rows = rows.into_iter().skip(start).collect();
    Ok((rows, next))
}

fn p_failed(e: snowline_chain_p::pages::PageError) -> ApiError {
    ApiError::internal(format!("reading the P-Chain index failed: {e}"))
}

/// A 404 when `ask` names a subnet the P-Chain never created (the primary network is known).
fn known_subnet(pages: &PChainPages, ask: &Ask) -> Result<(), ApiError> {
    let Some(subnet) = ask.subnet else {
        return Ok(());
    };
    if subnet == Id::default()
        || pages
            .every_subnet()
            .map_err(p_failed)?
            .iter()
            .any(|(id, _)| *id == subnet)
    {
        return Ok(());
    }
    Err(ApiError::not_found(format!(
        "subnet {subnet} is not known to the indexed P-Chain"
    )))
}

/// `GET /v1/mapping` and `/v1/mapping/{subnetID}`: every EVM chain this instance serves metrics
/// of that the indexed P-Chain created, with its subnet and creation time.
fn mapping(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let ask = Ask::parse(req)?;
    let pages = api.p_chain()?;
    let network = api.staking.as_ref().map_or("", |(_, n)| n.name);
    let tip = pages.tip().map_err(p_failed)?;
    let mut rows = Vec::new();
    for (id, _) in api.pages.chains().map_err(read_failed)? {
        let Some(blockchain) = api
            .registry
            .lookup(&id.to_string())
            .ok()
            .and_then(|r| r.blockchain_id())
        else {
            continue;
        };
        let Some(row) = pages.chain(&blockchain).map_err(p_failed)? else {
            continue;
        };
        if ask.wants(row.created.timestamp, &row.subnet_id) {
            rows.push(SubnetMappingJson {
                chain_id: id,
                subnet_id: row.subnet_id.to_string(),
                timestamp: row.created.timestamp,
                network,
            });
        }
    }
    rows.sort_by_key(|a| (a.timestamp, a.chain_id));
    let (results, next_page_start_key) = page(api, req, &ask.key("mapping", network), rows)?;
    Reply::json(&Listing {
        results,
        status: 200,
        last_run: tip.chain_time,
        next_page_start_key,
    })
}

/// `GET /v1/chains/network/{network}[/subnetId/{subnetID}]`: the chains the P-Chain created
/// (its genesis chains too).
fn chains(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let ask = Ask::parse(req)?;
    let network = req.required_param("network")?;
    let pages = api.staking(network)?;
    known_subnet(pages, &ask)?;
    let tip = pages.tip().map_err(p_failed)?;
    let mut rows: Vec<ChainInformationJson> = pages
        .every_chain()
        .map_err(p_failed)?
        .into_iter()
        .filter(|(_, row)| ask.wants(row.created.timestamp, &row.subnet_id))
        .map(|(id, row)| ChainInformationJson {
            subnet_id: row.subnet_id.to_string(),
            timestamp: row.created.timestamp,
            blockchain_id: id.to_string(),
            vm_id: row.vm_id.to_string(),
            chain_name: row.name,
        })
        .collect();
    rows.sort_by(|a, b| (a.timestamp, &a.blockchain_id).cmp(&(b.timestamp, &b.blockchain_id)));
    let (results, next_page_start_key) = page(api, req, &ask.key("chains", network), rows)?;
    Reply::json(&Listing {
        results,
        status: 200,
        last_run: tip.chain_time,
        next_page_start_key,
    })
}

/// `GET /v1/subnets/network/{network}[/subnetId/{subnetID}]`: the subnets the P-Chain created,
/// with their owner (`controlKeys` as P-Chain addresses, `threshold`) and their validator count
/// at the chain time (the staking series' last point).
fn subnets(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let ask = Ask::parse(req)?;
    let raw_network = req.required_param("network")?;
    let pages = api.staking(raw_network)?;
    known_subnet(pages, &ask)?;
    let hrp = api.staking.as_ref().map_or("", |(_, n)| n.hrp);
    let p_addresses = AddressFormatter::new("P", hrp)
        .map_err(|e| ApiError::internal(format!("the network's address prefix: {e}")))?;
    let tip = pages.tip().map_err(p_failed)?;
    let mut created: Vec<_> = pages
        .every_subnet()
        .map_err(p_failed)?
        .into_iter()
        .filter(|(id, row)| ask.wants(row.created.timestamp, id))
        .collect();
    created.sort_by(|(a, ra), (b, rb)| (ra.created.timestamp, a).cmp(&(rb.created.timestamp, b)));
    let (created, next_page_start_key) = page(api, req, &ask.key("subnets", raw_network), created)?;
    let results = created
        .into_iter()
        .map(|(id, row)| {
            let now = pages
                .staking_metrics(&StakingQuery {
                    subnet: id,
                    from: 0,
                    to: u64::MAX,
                    page_size: 1,
                })
                .map_err(subnet_read_failed)?;
            Ok(SubnetInformationJson {
                control_keys: row
                    .owner
                    .addrs
                    .iter()
                    .map(|a| p_addresses.format(a))
                    .collect(),
                threshold: row.owner.threshold,
                subnet_id: id.to_string(),
                timestamp: row.created.timestamp,
                validator_count: now.points.first().map_or(0, |p| p.figures.validator_count),
            })
        })
        .collect::<Result<_, ApiError>>()?;
    Reply::json(&Listing {
        results,
        status: 200,
        last_run: tip.chain_time,
        next_page_start_key,
    })
}
