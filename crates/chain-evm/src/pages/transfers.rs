//! A token's transfers, newest first, within a block range.

use snowline_query::params::BlockRange;
use snowline_query::{encode_position, take_page};
use snowline_store::{Linear, ReadView};
use snowline_types::evm::Address;

use super::scan::newest_first;
use super::{EvmPages, EvmReadError};
use crate::rows::{TokenRow, TransferKind, TransferRow};
use crate::tables::{EvNftUris, EvTransfersByToken};

/// One token transfer (one id of an ERC-1155 batch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer {
    /// The token contract (the log's emitter).
    pub token: Address,
    /// Block height.
    pub block: u64,
    /// The log's index in the block.
    pub log_index: u64,
    /// The transfer.
    pub row: TransferRow,
    /// The NFT's URI as of its last move (ERC-721 / ERC-1155), when the contract answered.
    pub uri: Option<String>,
}

/// One page of a token's transfers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferPage {
    /// Newest first.
    pub transfers: Vec<Transfer>,
    /// What the token's contract told of itself, when it was asked.
    pub token: Option<TokenRow>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

impl EvmPages {
    /// One page of the transfers of `token` on `chain` in blocks `range`, newest first, resuming
    /// strictly past `from` (a [`TransferPage::next`] of the same query).
    pub fn transfers(
        &self,
        chain: u64,
        token: Address,
        range: BlockRange,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<TransferPage, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let entries = newest_first::<EvTransfersByToken, u64, u32>(
            &snapshot,
            chain,
            token.0.0,
            range,
            from,
            (page_size as usize).saturating_add(1),
        )?;
        let page = take_page(entries, page_size, |((_, _, b, l, s), _)| {
            encode_position(&(*b, *l, *s))
        });
        let rows: Vec<(u64, u64, TransferRow)> = page
            .items
            .into_iter()
            .map(|((_, _, block, log, _), Linear(row))| (block, log, row))
            .collect();
        let transfers = with_uris(&snapshot, chain, token, rows)?;
        let token_row = self.token_rows(&snapshot, chain, [token])?.remove(&token);
        Ok(TransferPage {
            transfers,
            token: token_row,
            next: page.next,
        })
    }
}

/// `rows` of `token` as [`Transfer`]s, NFT moves with their URIs (one batched lookup).
pub(crate) fn with_uris(
    view: &impl ReadView,
    chain: u64,
    token: Address,
    rows: Vec<(u64, u64, TransferRow)>,
) -> Result<Vec<Transfer>, EvmReadError> {
    let nft = |r: &TransferRow| r.kind != TransferKind::Erc20;
    let keys: Vec<(u64, [u8; 20], [u8; 32])> = rows
        .iter()
        .filter(|(_, _, r)| nft(r))
        .map(|(_, _, r)| (chain, token.0.0, r.token_id.to_be_bytes::<32>()))
        .collect();
    let mut uris = view.multi_get::<EvNftUris>(&keys)?.into_iter();
    Ok(rows
        .into_iter()
        .map(|(block, log_index, row)| {
            let uri = if nft(&row) {
                uris.next().flatten()
            } else {
                None
            };
            Transfer {
                token,
                block,
                log_index,
                row,
                uri,
            }
        })
        .collect())
}
