//! The EVM endpoints of the spec (spec endpoints 3, 6, 7, 10, 12 and 16, and the native balance
//! they reference): `chainId` through the chain registry, addresses and hashes, block ranges,
//! page sizes.

use std::sync::Arc;

use snowline_query::params::{BlockRange, Currency, block_ref, evm_address, page_size, required};
use snowline_rest::{ApiError, Reply, Request, Router, Weight};

use super::{Planned, not_indexed};
use crate::params::{bad, page_token_present};

/// Which checks an EVM endpoint applies beyond `chainId` and `{address}`.
#[derive(Clone, Copy)]
enum Rules {
    /// `currency`.
    Currency,
    /// `startBlock`, `endBlock`, `pageToken`, `pageSize` 1..100.
    BlockRangePage,
    /// `pageToken`, `pageSize` 1..500, `contractAddress`.
    Erc721Page,
    /// `pageToken`, `pageSize` 1..100.
    Page,
    /// `currency` (native balance; `blockNumber` optional).
    Native,
}

const ENDPOINTS: [(&str, Rules, &str); 6] = [
    (
        "/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment",
        Rules::Currency,
        "contract deployment data",
    ),
    (
        "/v1/chains/{chainId}/tokens/{address}/transfers",
        Rules::BlockRangePage,
        "token transfers",
    ),
    (
        "/v1/chains/{chainId}/addresses/{address}/transactions:listInternals",
        Rules::BlockRangePage,
        "internal transactions",
    ),
    (
        "/v1/chains/{chainId}/addresses/{address}/balances:listErc721",
        Rules::Erc721Page,
        "ERC-721 balances",
    ),
    (
        "/v1/chains/{chainId}/contracts/{address}/deployments",
        Rules::Page,
        "contract deployments",
    ),
    (
        "/v1/chains/{chainId}/addresses/{address}/balances:getNative",
        Rules::Native,
        "native balances",
    ),
];

pub(crate) fn routes(mut router: Router, planned: &Arc<Planned>) -> Router {
    for (template, rules, what) in ENDPOINTS {
        let p = Arc::clone(planned);
        router = router.get(template, Weight::MEDIUM, move |req| {
            let p = Arc::clone(&p);
            async move {
                check(&p, &req, rules)?;
                Err::<Reply, _>(not_indexed(&format!("EVM chain data ({what})")))
            }
        });
    }
    let p = Arc::clone(planned);
    router.get(
        "/v1/chains/{chainId}/blocks/{blockId}",
        Weight::SMALL,
        move |req| {
            let p = Arc::clone(&p);
            async move {
                p.chain(&req)?;
                block_ref("blockId", req.required_param("blockId")?).map_err(bad)?;
                Err::<Reply, _>(not_indexed("EVM chain data (blocks)"))
            }
        },
    )
}

fn check(p: &Planned, req: &Request, rules: Rules) -> Result<(), ApiError> {
    p.chain(req)?;
    evm_address("address", req.required_param("address")?).map_err(bad)?;
    match rules {
        Rules::Currency | Rules::Native => {
            Currency::parse_or(req.query("currency"), Currency::Usd).map_err(bad)?;
            if let Some(raw) = req.query("blockNumber") {
                snowline_query::params::u64_at_least("blockNumber", raw, 0).map_err(bad)?;
            }
        }
        Rules::BlockRangePage => {
            BlockRange::parse(req.query("startBlock"), req.query("endBlock")).map_err(bad)?;
            page_size(req.query("pageSize"), 100).map_err(bad)?;
            page_token_present(req)?;
        }
        Rules::Erc721Page => {
            page_size(req.query("pageSize"), 500).map_err(bad)?;
            if let Some(raw) = req.query("contractAddress") {
                evm_address(
                    "contractAddress",
                    required("contractAddress", Some(raw)).map_err(bad)?,
                )
                .map_err(bad)?;
            }
            page_token_present(req)?;
        }
        Rules::Page => {
            page_size(req.query("pageSize"), 100).map_err(bad)?;
            page_token_present(req)?;
        }
    }
    Ok(())
}
