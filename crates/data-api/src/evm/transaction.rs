//! `GET /v1/chains/{chainId}/transactions/{txHash}`: one transaction with its token transfers,
//! internal transactions, the native token's prices and the ICM message it sent or delivered;
//! and that answer's shape, which the deployment endpoint shares.

use snowline_chain_evm::pages::TxDetail;
use snowline_chain_icm::tables::side;
use snowline_query::params::{Currency, evm_hash};
use snowline_rest_api::{ApiError, Profile, Reply, Request};
use snowline_types::Id;
use snowline_types::evm::B256;
use snowline_types::rest::evm::{GetTransactionResponse, NetworkTokenDetails};
use snowline_types::rest::icm::{TeleporterMessageInfo, TransactionDirectionType};

use super::context::{EvmApi, EvmChain, page_error};
use super::render::{TransferDetails, internal, native_transaction, transfer};
use crate::params::bad;

pub(crate) fn handle(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let raw = req.required_param("txHash")?;
    let hash = B256::from(evm_hash("txHash", raw).map_err(bad)?);
    let d = api
        .pages
        .transaction(chain.id, hash)
        .map_err(page_error)?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "transaction {hash:#x} is not indexed on chain {}",
                chain.id
            ))
        })?;
    Reply::json(&transaction_response(
        api,
        &chain,
        &d,
        Currency::Usd,
        req.profile(),
    )?)
}

/// `d` with everything `GetTransactionResponse` carries, prices in `currency`.
pub(crate) fn transaction_response(
    api: &EvmApi,
    chain: &EvmChain<'_>,
    d: &TxDetail,
    currency: Currency,
    profile: Profile,
) -> Result<GetTransactionResponse, ApiError> {
    let (mut erc20, mut erc721, mut erc1155) = (Vec::new(), Vec::new(), Vec::new());
    for t in &d.transfers {
        let token = d.tokens.get(&t.token);
        let price = api.price(
            chain.id,
            Some(t.token),
            currency,
            Some(t.row.timestamp),
            profile,
        );
        match transfer(t, token, price) {
            TransferDetails::Erc20(x) => erc20.push(x),
            TransferDetails::Erc721(x) => erc721.push(x),
            TransferDetails::Erc1155(x) => erc1155.push(x),
        }
    }
    Ok(GetTransactionResponse {
        erc20_transfers: Some(erc20),
        erc721_transfers: Some(erc721),
        erc1155_transfers: Some(erc1155),
        internal_transactions: Some(d.internals.iter().map(internal).collect()),
        network_token_details: NetworkTokenDetails {
            network_token: chain.record.network_token.clone(),
            current_price: api.price(chain.id, None, currency, None, profile),
            historical_price: api.price(chain.id, None, currency, Some(d.tx.timestamp), profile),
        },
        native_transaction: native_transaction(chain.id, d),
        teleporter_message_info: teleporter_message_info(api, chain.id, d)?,
    })
}

/// The ICM message the transaction sent or delivered, if any.
fn teleporter_message_info(
    api: &EvmApi,
    chain: u64,
    d: &TxDetail,
) -> Result<Option<TeleporterMessageInfo>, ApiError> {
    // Only a tx that emitted a TeleporterMessenger log sent or delivered a message.
    let Some(icm) = api.icm.as_ref().filter(|_| d.messenger_logs > 0) else {
        return Ok(None);
    };
    let found = icm
        .of_tx(chain, d.hash)
        .map_err(|e| ApiError::internal(format!("reading the ICM index failed: {e}")))?;
    Ok(found.map(|(v, written_by)| TeleporterMessageInfo {
        teleporter_message_id: v.id.to_string(),
        direction: if written_by == side::SOURCE {
            TransactionDirectionType::SourceTransaction
        } else {
            TransactionDirectionType::DestinationTransaction
        },
        source_chain_id: Some(Id::from(v.source.0).to_string()),
        destination_chain_id: Some(Id::from(v.destination.0).to_string()),
    }))
}
