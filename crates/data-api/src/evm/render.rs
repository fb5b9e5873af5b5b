//! The EVM records of the answers, from the index's rows: addresses checksummed, amounts and
//! heights decimal strings, hashes `0x` hex, unknown metadata omitted (or empty where the
//! OpenAPI requires the member).

use snowline_chain_evm::pages::{Transfer, TxDetail};
use snowline_chain_evm::rows::{BlockRow, InternalRow, MetadataRow, TokenRow, TransferKind, TxRow};
use snowline_types::evm::nft_metadata::{InlineMetadata, inline_metadata};
use snowline_types::evm::{Address, B256, U256, transaction_method};
use snowline_types::rest::Money;
use snowline_types::rest::evm::{
    Erc20Token, Erc20TransferDetails, Erc721Token, Erc721TokenMetadata, Erc721TransferDetails,
    Erc1155Token, Erc1155TokenMetadata, Erc1155TransferDetails, FullNativeTransactionDetails,
    GetEvmBlockResponse, InternalTransactionDetails, InternalTxType, NativeTransaction,
    NftMetadata, RichAddress, TxLocation, checksummed,
};

/// `0x` and the hex of a hash, written straight into one string: listings render several per
/// row, and the formatting machinery of `{:#x}` cost more than the hex itself.
pub(crate) fn hash(h: &B256) -> String {
    let mut digits = [0u8; 64];
    match hex::encode_to_slice(h.0, &mut digits)
        .ok()
        .and_then(|()| std::str::from_utf8(&digits).ok())
    {
        Some(text) => {
            let mut s = String::with_capacity(66);
            s.push_str("0x");
            s.push_str(text);
            s
        }
        None => format!("{h:#x}"),
    }
}

/// A transfer within a tx, in the shape of its token standard.
pub(crate) enum TransferDetails {
    Erc20(Erc20TransferDetails),
    Erc721(Erc721TransferDetails),
    Erc1155(Erc1155TransferDetails),
}

/// Where a transfer happened.
pub(crate) fn transfer_location(t: &Transfer) -> TxLocation {
    TxLocation {
        block_number: t.block.to_string(),
        block_timestamp: t.row.timestamp,
        block_timestamp_milliseconds: None,
        block_hash: hash(&t.row.block_hash),
        tx_hash: hash(&t.row.tx_hash),
    }
}

/// `t` as its standard's record; `token` is what the contract told of itself, `price` the
/// ERC-20's price when known.
pub(crate) fn transfer(
    t: &Transfer,
    token: Option<&TokenRow>,
    price: Option<Money>,
) -> TransferDetails {
    let (from, to) = (RichAddress::of(&t.row.from), RichAddress::of(&t.row.to));
    let log_index = t.log_index;
    match t.row.kind {
        TransferKind::Erc20 => TransferDetails::Erc20(Erc20TransferDetails {
            from,
            to,
            log_index,
            value: t.row.value.to_string(),
            erc20_token: erc20_token(&t.token, token, price),
        }),
        TransferKind::Erc721 => TransferDetails::Erc721(Erc721TransferDetails {
            from,
            to,
            log_index,
            erc721_token: erc721_token(
                &t.token,
                &t.row.token_id,
                t.uri.as_deref(),
                token,
                None,
                None,
            ),
        }),
        TransferKind::Erc1155 => TransferDetails::Erc1155(Erc1155TransferDetails {
            from,
            to,
            log_index,
            value: t.row.value.to_string(),
            erc1155_token: erc1155_token(&t.token, &t.row.token_id, t.uri.as_deref(), None),
        }),
    }
}

/// `Erc20Token` of `contract`.
pub(crate) fn erc20_token(
    contract: &Address,
    token: Option<&TokenRow>,
    price: Option<Money>,
) -> Erc20Token {
    Erc20Token {
        address: checksummed(contract),
        name: token.and_then(|t| t.name.clone()).unwrap_or_default(),
        symbol: token.and_then(|t| t.symbol.clone()).unwrap_or_default(),
        decimals: token.and_then(|t| t.probes.decimals()).unwrap_or(0),
        logo_uri: None,
        erc_type: Default::default(),
        price,
    }
}

/// What is known of a token's metadata: what the fetcher wrote, else what a `data:` URI says.
fn metadata_of(uri: Option<&str>, fetched: Option<&MetadataRow>) -> Option<InlineMetadata> {
    fetched
        .map(|r| r.metadata.clone())
        .or_else(|| uri.and_then(inline_metadata))
}

/// `Erc721Token` of token `id` of `contract`, with its `fetched` metadata when there is some.
pub(crate) fn erc721_token(
    contract: &Address,
    id: &U256,
    uri: Option<&str>,
    token: Option<&TokenRow>,
    owner: Option<&Address>,
    fetched: Option<&MetadataRow>,
) -> Erc721Token {
    Erc721Token {
        address: checksummed(contract),
        name: token.and_then(|t| t.name.clone()).unwrap_or_default(),
        symbol: token.and_then(|t| t.symbol.clone()).unwrap_or_default(),
        erc_type: Default::default(),
        token_id: id.to_string(),
        token_uri: uri.unwrap_or_default().to_owned(),
        metadata: match metadata_of(uri, fetched) {
            Some(m) => Erc721TokenMetadata {
                common: m.common,
                attributes: m.attributes,
            },
            None => Erc721TokenMetadata {
                common: NftMetadata::unindexed(),
                attributes: None,
            },
        },
        owner_address: owner.map(checksummed),
    }
}

/// `Erc1155Token` of token `id` of `contract`, with its `fetched` metadata when there is some.
pub(crate) fn erc1155_token(
    contract: &Address,
    id: &U256,
    uri: Option<&str>,
    fetched: Option<&MetadataRow>,
) -> Erc1155Token {
    Erc1155Token {
        address: checksummed(contract),
        erc_type: Default::default(),
        token_id: id.to_string(),
        token_uri: uri.unwrap_or_default().to_owned(),
        metadata: match metadata_of(uri, fetched) {
            Some(m) => Erc1155TokenMetadata {
                common: m.common,
                decimals: m.decimals,
                properties: m.properties,
            },
            None => Erc1155TokenMetadata {
                common: NftMetadata::unindexed(),
                decimals: None,
                properties: None,
            },
        },
    }
}

/// An internal transaction within its tx. A creation that failed has no address: `to` is then
/// the zero address.
pub(crate) fn internal(r: &InternalRow) -> InternalTransactionDetails {
    InternalTransactionDetails {
        from: RichAddress::of(&r.from),
        to: RichAddress::of(&r.to.unwrap_or(Address::ZERO)),
        internal_tx_type: InternalTxType::from(r.kind),
        value: r.value.to_string(),
        is_reverted: r.reverted,
        gas_used: r.gas_used.to_string(),
        gas_limit: r.gas_limit.to_string(),
    }
}

/// Where an internal transaction happened.
pub(crate) fn internal_location(r: &InternalRow, block_hash: &B256) -> TxLocation {
    TxLocation {
        block_number: r.block.to_string(),
        block_timestamp: r.timestamp,
        block_timestamp_milliseconds: None,
        block_hash: hash(block_hash),
        tx_hash: hash(&r.tx_hash),
    }
}

/// Tx `hash` of `chain` as listings show it. A creation's recipient is the contract it made.
pub(crate) fn native_tx(chain: u64, tx: &TxRow) -> NativeTransaction {
    let recipient = tx.to.or(tx.created).unwrap_or(Address::ZERO);
    NativeTransaction {
        block_number: tx.block.to_string(),
        block_timestamp: tx.timestamp,
        block_timestamp_milliseconds: None,
        block_min_delay_excess: None,
        block_hash: hash(&tx.block_hash),
        chain_id: chain.to_string(),
        block_index: u64::from(tx.index),
        tx_hash: hash(&tx.hash),
        tx_status: if tx.status == Some(false) { "0" } else { "1" }.to_owned(),
        tx_type: tx.tx_type,
        gas_limit: tx.gas_limit.to_string(),
        gas_used: tx.gas_used.to_string(),
        gas_price: tx.effective_gas_price.to_string(),
        nonce: tx.nonce.to_string(),
        from: RichAddress::of(&tx.from),
        to: RichAddress::of(&recipient),
        method: Some(transaction_method(tx.to, &tx.input)),
        value: tx.value.to_string(),
    }
}

/// The transaction of `d` with its input and fee caps.
pub(crate) fn native_transaction(chain: u64, d: &TxDetail) -> FullNativeTransactionDetails {
    let tx = &d.tx;
    FullNativeTransactionDetails {
        tx: native_tx(chain, tx),
        input: format!("0x{}", hex::encode(&tx.input)),
        base_fee_per_gas: base_fee(&d.block),
        max_fee_per_gas: tx.max_fee.map(|v| v.to_string()),
        max_priority_fee_per_gas: tx.max_priority_fee.map(|v| v.to_string()),
    }
}

/// Block `number` of chain `chain_id` (as the registry spells it).
pub(crate) fn evm_block(chain_id: &str, number: u64, b: &BlockRow) -> GetEvmBlockResponse {
    GetEvmBlockResponse {
        chain_id: chain_id.to_owned(),
        block_number: number.to_string(),
        block_timestamp: b.timestamp,
        block_timestamp_milliseconds: None,
        block_min_delay_excess: None,
        block_hash: hash(&b.hash),
        tx_count: u64::from(b.tx_count),
        base_fee: base_fee(b),
        gas_used: b.gas_used.to_string(),
        gas_limit: b.gas_limit.to_string(),
        gas_cost: b.block_gas_cost.unwrap_or(U256::ZERO).to_string(),
        parent_hash: hash(&b.parent),
        fees_spent: b.fees_spent.to_string(),
        cumulative_transactions: b.cumulative_txs.to_string(),
    }
}

/// A block's base fee, decimal (`0` before EIP-1559).
pub(crate) fn base_fee(b: &BlockRow) -> String {
    b.base_fee.unwrap_or(U256::ZERO).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_0x_and_its_lowercase_hex() {
        let mut bytes = [0u8; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37).wrapping_add(0xa5);
        }
        for h in [B256::ZERO, B256::from(bytes), B256::repeat_byte(0xff)] {
            assert_eq!(hash(&h), format!("{h:#x}"));
            assert_eq!(hash(&h).len(), 66);
        }
    }
}
