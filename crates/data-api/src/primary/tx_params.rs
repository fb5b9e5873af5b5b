//! The parameters of the primary network's tx listings (`listLatestPrimaryNetworkTransactions`
//! on every chain): the optional addresses, the P-Chain's `l1ValidationId`, `txTypes` (values of the OpenAPI's
//! `PrimaryNetworkTxType` the chain has), the time window, the page size and the order.

use std::collections::BTreeSet;

use snowline_query::params::{
    AddressList, DEFAULT_MAX_ADDRESSES, SortOrder, TimeRange, cb58_id, evm_address, page_size,
};
use snowline_query::{Digest, FilterDigest};
use snowline_rest_api::{ApiError, Request};
use snowline_types::network::NetworkInfo;
use snowline_types::{Chain, Id, ShortId};

use crate::params::{bad, param_error};

/// The OpenAPI's `PrimaryNetworkTxType` enumeration (`glacier-data-api.json`
/// `components.schemas.PrimaryNetworkTxType`): every value a `txTypes` entry may take on some
/// chain.
pub(crate) const PRIMARY_NETWORK_TX_TYPES: [&str; 23] = [
    "AddValidatorTx",
    "AddSubnetValidatorTx",
    "AddDelegatorTx",
    "CreateChainTx",
    "CreateSubnetTx",
    "ImportTx",
    "ExportTx",
    "AdvanceTimeTx",
    "RewardValidatorTx",
    "RemoveSubnetValidatorTx",
    "TransformSubnetTx",
    "AddPermissionlessValidatorTx",
    "AddPermissionlessDelegatorTx",
    "BaseTx",
    "TransferSubnetOwnershipTx",
    "ConvertSubnetToL1Tx",
    "RegisterL1ValidatorTx",
    "SetL1ValidatorWeightTx",
    "DisableL1ValidatorTx",
    "IncreaseL1ValidatorBalanceTx",
    "UNKNOWN",
    "CreateAssetTx",
    "OperationTx",
];

/// What a tx listing takes.
pub(crate) struct TxListParams {
    /// The addresses, when the listing is an address history.
    pub(crate) addresses: Option<AddressList>,
    /// `l1ValidationId` (the P-Chain's listing only): the txs of that L1 validation.
    pub(crate) l1_validation: Option<Id>,
    /// The C-Chain's listing: the EVM addresses (`0x…`) among `addresses`, sorted, each once.
    pub(crate) evm: Vec<ShortId>,
    /// `txTypes` (empty: any).
    pub(crate) types: BTreeSet<String>,
    /// `startTimestamp` (inclusive) and `endTimestamp` (exclusive).
    pub(crate) range: TimeRange,
    /// Txs per page.
    pub(crate) page_size: usize,
    /// `sortOrder`: newest first unless told otherwise.
    pub(crate) sort: SortOrder,
}

impl TxListParams {
    /// Parses the request for `chain` on `network`, whose txs are of the types `chain_types`.
    pub(crate) fn parse(
        req: &Request,
        network: &NetworkInfo,
        chain: Chain,
        chain_types: &[&str],
    ) -> Result<Self, ApiError> {
        let l1_validation = match req.query("l1ValidationId") {
            None => None,
            Some(_) if chain != Chain::P => {
                return Err(ApiError::bad_request(format!(
                    "l1ValidationId filters the P-Chain's txs; the {} has no L1 validations",
                    snowline_query::params::chain_name(chain)
                )));
            }
            Some(raw) => Some(cb58_id("l1ValidationId", raw).map_err(bad)?),
        };
        let (addresses, evm) = match req.query("addresses") {
            Some(raw) => parse_addresses(raw, network, chain)?,
            None => (None, Vec::new()),
        };
        let mut types = BTreeSet::new();
        for raw in req.query_all("txTypes") {
            for entry in raw.split(',').map(str::trim) {
                if !PRIMARY_NETWORK_TX_TYPES.contains(&entry) {
                    return Err(param_error(
                        "txTypes",
                        "values of PrimaryNetworkTxType",
                        entry,
                    ));
                }
                if !chain_types.contains(&entry) {
                    return Err(param_error(
                        "txTypes",
                        &format!(
                            "a tx type of the {}",
                            snowline_query::params::chain_name(chain)
                        ),
                        entry,
                    ));
                }
                types.insert(entry.to_owned());
            }
        }
        Ok(Self {
            addresses,
            l1_validation,
            evm,
            types,
            range: TimeRange::parse(req.query("startTimestamp"), req.query("endTimestamp"))
                .map_err(bad)?,
            page_size: page_size(req.query("pageSize"), 100).map_err(bad)? as usize,
            sort: SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?,
        })
    }

    /// The digest of the listing `listing` on `network` with these filters, which its page
    /// tokens are bound to.
    pub(crate) fn digest(&self, listing: &str, network: &str) -> Digest {
        let types: Vec<&str> = self.types.iter().map(String::as_str).collect();
        let digest = FilterDigest::new(listing)
            .field("network", network)
            .optional(
                "addresses",
                self.addresses
                    .as_ref()
                    .map(|a| a.strings.join(","))
                    .as_deref(),
            )
            .optional(
                "l1ValidationId",
                self.l1_validation.map(|v| v.to_string()).as_deref(),
            )
            .field("txTypes", &types.join(","))
            .optional(
                "startTimestamp",
                self.range.start.map(|t| t.to_string()).as_deref(),
            )
            .optional(
                "endTimestamp",
                self.range.end.map(|t| t.to_string()).as_deref(),
            )
            .field("sortOrder", self.sort.as_str());
        if self.evm.is_empty() {
            return digest.finish();
        }
        let evm: Vec<String> = self.evm.iter().map(|a| hex::encode(a.0)).collect();
        digest.field("evmAddresses", &evm.join(",")).finish()
    }
}

/// `addresses` of a listing on `chain`: bech32 addresses (with the chain's prefix or none), and
/// on the C-Chain also EVM addresses (`0x…`, for its atomic txs, as the OpenAPI says), at most
/// [`DEFAULT_MAX_ADDRESSES`] in all.
fn parse_addresses(
    raw: &str,
    network: &NetworkInfo,
    chain: Chain,
) -> Result<(Option<AddressList>, Vec<ShortId>), ApiError> {
    if chain != Chain::C {
        let list = AddressList::parse(raw, network.hrp, &[chain]).map_err(bad)?;
        return Ok((Some(list), Vec::new()));
    }
    let entries: Vec<&str> = raw.split(',').map(|e| e.trim_matches(' ')).collect();
    if entries.len() > DEFAULT_MAX_ADDRESSES {
        // The bech32 parser's own message for a list too long.
        AddressList::parse(raw, network.hrp, &[chain]).map_err(bad)?;
    }
    let (evm, bech32): (Vec<&str>, Vec<&str>) = entries
        .into_iter()
        .partition(|e| e.starts_with("0x") || e.starts_with("0X"));
    let evm: BTreeSet<ShortId> = evm
        .into_iter()
        .map(|e| evm_address(AddressList::PARAM, e).map(ShortId))
        .collect::<Result<_, _>>()
        .map_err(bad)?;
    let list = if bech32.is_empty() {
        None
    } else {
        Some(AddressList::parse(&bech32.join(","), network.hrp, &[chain]).map_err(bad)?)
    };
    if list.is_none() && evm.is_empty() {
        return Err(param_error(AddressList::PARAM, "a list of addresses", raw));
    }
    Ok((list, evm.into_iter().collect()))
}
