//! `GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}`,
//! `.../transactions` and `.../transactions:listStaking` for the P-Chain: the
//! `PChainTransaction` of a tx, and the `ListPChainTransactionsResponse` of an address history,
//! of the chain's latest txs, or of the current staking txs of addresses.

use std::collections::BTreeMap;

use snowline_chain_p::pages::{PTx, PTxPage, PTxQuery, PUtxo, PageError};
use snowline_chain_p::rows::{Origin, StakerKind};
use snowline_query::params::cb58_id;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::formatting::encode_hex_plain;
use snowline_types::platformvm::Signer;
use snowline_types::platformvm::txs::{DATA_API_TX_TYPES, UnsignedTx};
use snowline_types::rest::{
    AssetAmount, BlockchainInfo, BlsCredentials, L1ValidatorDetailsTransaction,
    L1ValidatorManagerDetails, ListPChainTransactionsResponse, PChainTransaction, PrimaryChainInfo,
    SubnetOwnershipInfo,
};
use snowline_types::{Chain, Id};

use super::context::{PChainApi, page_error};
use crate::params::{bad, page_token};
use crate::primary::tx_params::TxListParams;

/// `getTxByHash` on the P-Chain.
pub(crate) fn by_hash(api: &PChainApi, req: &Request) -> Result<Reply, ApiError> {
    let id = cb58_id("txHash", req.required_param("txHash")?).map_err(bad)?;
    match api.pages.tx_details(&id).map_err(page_error)? {
        Some(tx) => Reply::json(&api.tx_record(&tx, req.now_secs())),
        None => Err(ApiError::not_found(format!(
            "tx {id} is not an accepted P-Chain tx"
        ))),
    }
}

/// `listLatestPrimaryNetworkTransactions` on the P-Chain.
pub(crate) fn list(
    api: &PChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    tx_listing(api, req, chain_info, "p-chain/transactions", |q, from| {
        api.pages.txs(q, from)
    })
}

/// `listActivePrimaryNetworkStakingTransactions`: the staker txs whose staker is current
/// (pending or active) among those the addresses take part in (all of them without
/// addresses), newest first unless asked otherwise.
pub(crate) fn list_staking(
    api: &PChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    if req.query("l1ValidationId").is_some() {
        return Err(ApiError::bad_request(
            "l1ValidationId is not a filter of the staking txs: list the chain's txs with it",
        ));
    }
    tx_listing(
        api,
        req,
        chain_info,
        "p-chain/transactions:listStaking",
        |q, from| api.pages.staking_txs(q, from),
    )
}

/// A P-Chain tx listing `listing` (its page tokens sealed under that name): the tx list
/// parameters parsed once, one page read by `read`, rendered as `ListPChainTransactionsResponse`.
fn tx_listing(
    api: &PChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
    listing: &str,
    read: impl FnOnce(&PTxQuery, Option<&[u8]>) -> Result<PTxPage, PageError>,
) -> Result<Reply, ApiError> {
    let params = TxListParams::parse(req, api.network, Chain::P, &DATA_API_TX_TYPES)?;
    let digest = params.digest(listing, api.network.name);
    let from = page_token(&api.tokens, req, &digest)?;
    let q = PTxQuery {
        addresses: params
            .addresses
            .as_ref()
            .map(|a| a.ids.clone())
            .unwrap_or_default(),
        l1_validation: params.l1_validation,
        types: params.types.clone(),
        range: params.range,
        page_size: params.page_size,
        sort: params.sort,
    };
    let page = read(&q, from.as_deref()).map_err(page_error)?;
    Reply::json(&ListPChainTransactionsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        transactions: page
            .txs
            .iter()
            .map(|t| api.tx_record(t, req.now_secs()))
            .collect(),
        chain_info,
    })
}

/// Amounts by asset.
#[derive(Default)]
struct Sums(BTreeMap<Id, u128>);

impl Sums {
    fn add(&mut self, asset: Id, amount: u128) {
        *self.0.entry(asset).or_default() += amount;
    }

    fn of<'a>(utxos: impl IntoIterator<Item = &'a PUtxo>) -> Self {
        let mut s = Sums::default();
        for u in utxos {
            s.add(u.utxo.asset_id, u128::from(u.row.amount));
        }
        s
    }
}

impl PChainApi {
    fn amounts(&self, sums: &Sums) -> Vec<AssetAmount> {
        sums.0
            .iter()
            .filter(|(_, a)| **a > 0)
            .map(|(asset, amount)| self.asset_amount(asset, *amount))
            .collect()
    }

    /// The `PChainTransaction` of `t`.
    pub(crate) fn tx_record(&self, t: &PTx, now: u64) -> PChainTransaction {
        let tx = &t.tx;
        let emitted = Sums::of(&t.emitted);
        let consumed = Sums::of(&t.consumed);
        let staked = Sums::of(
            t.emitted
                .iter()
                .filter(|u| u.row.origin == Origin::Stake && u.row.created.tx_id == t.id),
        );
        let l1_balance: u64 = match tx {
            UnsignedTx::ConvertSubnetToL1Tx(c) => c.validators.iter().map(|v| v.balance).sum(),
            UnsignedTx::RegisterL1ValidatorTx(r) => r.balance,
            UnsignedTx::IncreaseL1ValidatorBalanceTx(i) => i.balance,
            _ => 0,
        };
        let mut l1 = Sums::default();
        l1.add(self.network.avax_asset_id, u128::from(l1_balance));
        let mut burned = Sums::default();
        for (asset, amount) in &consumed.0 {
            let out =
                emitted.0.get(asset).copied().unwrap_or(0) + l1.0.get(asset).copied().unwrap_or(0);
            burned.add(*asset, amount.saturating_sub(out));
        }
        // The staker a staker tx adds (its own record), or the one a reward tx settles.
        let staker = t.staker.as_ref().map(|(_, s)| s);
        let adds_staker = t.staker.as_ref().is_some_and(|(id, _)| *id == t.id);
        let own = staker.filter(|_| adds_staker);
        let primary = |k: StakerKind| matches!(k, StakerKind::Validator | StakerKind::Delegator);
        let subnet_id = match tx {
            UnsignedTx::CreateSubnetTx(_) => Some(t.id),
            UnsignedTx::CreateChainTx(c) => Some(c.subnet_id),
            UnsignedTx::RemoveSubnetValidatorTx(r) => Some(r.subnet_id),
            UnsignedTx::TransferSubnetOwnershipTx(r) => Some(r.subnet_id),
            UnsignedTx::TransformSubnetTx(r) => Some(r.subnet_id),
            UnsignedTx::ConvertSubnetToL1Tx(c) => Some(c.subnet_id),
            _ => staker.map(|s| s.subnet_id),
        };
        let node_id = match tx {
            UnsignedTx::RemoveSubnetValidatorTx(r) => Some(r.node_id.to_string()),
            _ => staker.map(|s| s.node_id.to_string()),
        };
        let owners = match tx {
            UnsignedTx::CreateSubnetTx(c) => Some(c.owner.owners()),
            UnsignedTx::TransferSubnetOwnershipTx(c) => Some(c.owner.owners()),
            _ => None,
        };
        PChainTransaction {
            tx_hash: t.id.to_string(),
            tx_type: tx.data_api_type().to_owned(),
            block_timestamp: t.row.event.timestamp,
            block_number: t.row.event.height.to_string(),
            block_hash: t.block.id.to_string(),
            consumed_utxos: t
                .consumed
                .iter()
                .map(|u| self.utxo_record(u, now))
                .collect(),
            emitted_utxos: t.emitted.iter().map(|u| self.utxo_record(u, now)).collect(),
            source_chain: match tx {
                UnsignedTx::ImportTx(i) => Some(i.source_chain.to_string()),
                _ => None,
            },
            destination_chain: match tx {
                UnsignedTx::ExportTx(e) => Some(e.destination_chain.to_string()),
                _ => None,
            },
            value: self.amounts(&emitted),
            amount_burned: self.amounts(&burned),
            amount_staked: self.amounts(&staked),
            amount_l1_validator_balance_burned: self.amounts(&l1),
            start_timestamp: own.map(|s| s.start),
            end_timestamp: own.map(|s| s.end),
            delegation_fee_percent: own
                .filter(|s| s.kind.validates() && s.kind != StakerKind::SubnetValidator)
                .map(|s| percent(s.delegation_shares)),
            node_id: node_id.map(|n| n.to_string()),
            subnet_id: subnet_id.map(|s| s.to_string()),
            l1_validator_manager_details: match tx {
                UnsignedTx::ConvertSubnetToL1Tx(c) => Some(L1ValidatorManagerDetails {
                    blockchain_id: c.chain_id.to_string(),
                    contract_address: encode_hex_plain(&c.address),
                }),
                _ => None,
            },
            l1_validator_details: (!t.l1.is_empty()).then(|| {
                t.l1.iter()
                    .map(|l| L1ValidatorDetailsTransaction {
                        validation_id: l.validation_id.to_string(),
                        validation_id_hex: encode_hex_plain(&l.validation_id.0),
                        node_id: super::context::node_id_string(&l.row.node_id),
                        subnet_id: l.row.subnet_id.to_string(),
                        weight: l.weight,
                        remaining_balance: l.remaining_balance,
                        balance_change: l.balance_change,
                    })
                    .collect()
            }),
            estimated_reward: own
                .filter(|s| primary(s.kind))
                .map(|s| s.potential_reward.to_string()),
            reward_tx_hash: own
                .and_then(|s| s.settled)
                .map(|s| s.event.tx_id.to_string()),
            reward_addresses: own
                .filter(|s| !s.reward_owners.is_empty())
                .map(|s| self.addresses(&s.reward_owners)),
            memo: tx
                .base()
                .filter(|b| !b.memo.is_empty())
                .map(|b| encode_hex_plain(&b.memo)),
            staking_tx_hash: match tx {
                UnsignedTx::RewardValidatorTx(r) => Some(r.tx_id.to_string()),
                _ => None,
            },
            subnet_ownership_info: owners.map(|o| SubnetOwnershipInfo {
                locktime: o.locktime,
                threshold: o.threshold,
                addresses: self.addresses(&o.addrs),
            }),
            bls_credentials: match tx {
                UnsignedTx::AddPermissionlessValidatorTx(v) => match &v.signer {
                    Signer::ProofOfPossession(p) => Some(BlsCredentials {
                        public_key: encode_hex_plain(&p.public_key),
                        proof_of_possession: encode_hex_plain(&p.proof_of_possession),
                    }),
                    Signer::Empty(_) => None,
                },
                _ => None,
            },
            blockchain_info: match tx {
                UnsignedTx::CreateChainTx(c) => Some(BlockchainInfo {
                    chain_name: c.chain_name.clone(),
                    vm_id: c.vm_id.to_string(),
                }),
                _ => None,
            },
        }
    }
}

/// A delegation fee in millionths as a percentage (`20000` is `"2"`, `12345` is `"1.2345"`).
fn percent(shares: u32) -> String {
    let whole = shares / 10_000;
    let frac = shares % 10_000;
    if frac == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{frac:04}")
            .trim_end_matches('0')
            .to_owned()
    }
}
