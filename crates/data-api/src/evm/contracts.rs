//! `GET /v1/chains/{chainId}/contracts/{address}/deployments` (the contracts an address
//! deployed, newest first), `.../transactions:getDeployment` (the tx that deployed a contract,
//! with its transfers and internal transactions) and `GET /v1/chains/{chainId}/addresses/
//! {address}` (`getContractMetadata`: the contract's standard, names and deployment).

use snowline_chain_evm::pages::Deployed;
use snowline_chain_evm::rows::{ContractRow, TokenRow};
use snowline_query::FilterDigest;
use snowline_query::params::page_size;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::evm::Address;
use snowline_types::rest::evm::{
    ContractDeploymentDetails, ContractInfo, DeployedContract, Erc20Contract, Erc721Contract,
    Erc1155Contract, ErcType, ListContractsResponse, checksummed,
};

use super::context::{EvmApi, currency, page_error, path_address};
use super::render::hash;
use super::transaction::transaction_response;
use crate::params::{bad, page_token};

pub(crate) fn deployments(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let deployer = path_address(req)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)?;
    let digest = FilterDigest::new("evm/contracts/deployments")
        .field("chainId", &chain.id.to_string())
        .field("address", &checksummed(&deployer))
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .deployments(chain.id, deployer, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListContractsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        contracts: page.contracts.iter().map(contract).collect(),
    })
}

pub(crate) fn deployment(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let address = path_address(req)?;
    let currency = currency(req)?;
    let (_, d) = api
        .pages
        .deployment(chain.id, address)
        .map_err(page_error)?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "{} is not a contract deployed on chain {} (as far as this index knows)",
                checksummed(&address),
                chain.id
            ))
        })?;
    Reply::json(&transaction_response(
        api,
        &chain,
        &d,
        currency,
        req.profile(),
    )?)
}

pub(crate) fn metadata(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let address = path_address(req)?;
    let facts = api
        .pages
        .contract_facts(chain.id, address)
        .map_err(page_error)?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "{} is not a contract on chain {} as far as this index knows (it saw no \
                 creation of it and no token event from it)",
                checksummed(&address),
                chain.id
            ))
        })?;
    Reply::json(&contract_record(
        &address,
        facts.deployment.as_ref(),
        facts.token.as_ref(),
    ))
}

/// A deployed contract as its standard's record.
fn contract(c: &Deployed) -> DeployedContract {
    contract_record(&c.address, Some(&c.row), c.token.as_ref())
}

/// Contract `address` as its standard's record (by EIP-165 and the ERC-20 answers its
/// `eth_call`s gave; `UNKNOWN` when it was never asked), with how it was deployed when known.
fn contract_record(
    address: &Address,
    deployment: Option<&ContractRow>,
    token: Option<&TokenRow>,
) -> DeployedContract {
    let info = ContractInfo {
        name: token.and_then(|t| t.name.clone()),
        address: checksummed(address),
        deployment_details: deployment.map(|row| ContractDeploymentDetails {
            tx_hash: hash(&row.tx_hash),
            deployer_address: checksummed(&row.deployer),
            deployer_contract_address: row.deployer_contract.as_ref().map(checksummed),
        }),
        ..ContractInfo::default()
    };
    let symbol = token.and_then(|t| t.symbol.clone());
    match token.map_or(ErcType::Unknown, |t| t.erc_type()) {
        ErcType::Erc20 => DeployedContract::Erc20(Erc20Contract {
            info,
            symbol,
            decimals: token.and_then(|t| t.probes.decimals()).unwrap_or(0),
            pricing_providers: None,
        }),
        ErcType::Erc721 => DeployedContract::Erc721(Erc721Contract { info, symbol }),
        ErcType::Erc1155 => DeployedContract::Erc1155(Erc1155Contract {
            info,
            symbol,
            pricing_providers: None,
        }),
        ErcType::Unknown => DeployedContract::Unknown(info),
    }
}
