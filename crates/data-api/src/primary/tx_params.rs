//! The parameters of the primary network's tx listings (`listLatestPrimaryNetworkTransactions`
//! on every chain): the optional addresses, `txTypes` (values of the OpenAPI's
//! `PrimaryNetworkTxType` the chain has), the time window, the page size and the order.

use std::collections::BTreeSet;

use snowline_query::params::{AddressList, SortOrder, TimeRange, page_size};
use snowline_query::{Digest, FilterDigest};
use snowline_rest_api::{ApiError, Request};
use snowline_types::Chain;
use snowline_types::network::NetworkInfo;

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
        if req.query("l1ValidationId").is_some() {
            return Err(ApiError::bad_request(
                "l1ValidationId is not supported by this instance yet: list the txs of the \
                 validator's addresses instead",
            ));
        }
        let addresses = req
            .query("addresses")
            .map(|raw| AddressList::parse(raw, network.hrp, &[chain]).map_err(bad))
            .transpose()?;
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
        FilterDigest::new(listing)
            .field("network", network)
            .optional(
                "addresses",
                self.addresses
                    .as_ref()
                    .map(|a| a.strings.join(","))
                    .as_deref(),
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
            .field("sortOrder", self.sort.as_str())
            .finish()
    }
}
