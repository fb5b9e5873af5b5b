//! The ERC-721 tokens an address owns, by contract then token id, with its native balance.

use std::ops::Bound;

use snowline_query::{decode_position, encode_position, take_page};
use snowline_store::{Direction, ReadView};
use snowline_types::evm::{Address, U256};

use super::balances::balance_at;
use super::{EvmPages, EvmReadError, last_block, nft_details};
use crate::rows::{MetadataRow, TokenRow};
use crate::tables::EvErc721ByOwner;

/// One owned ERC-721 token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedNft {
    /// The contract.
    pub contract: Address,
    /// The token id.
    pub token_id: U256,
    /// `tokenURI(id)` as of the token's last move, when the contract answered.
    pub uri: Option<String>,
    /// The metadata fetched for the token, when it was.
    pub metadata: Option<MetadataRow>,
    /// What the contract told of itself, when it was asked.
    pub token: Option<TokenRow>,
}

/// One page of owned ERC-721 tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Erc721Page {
    /// By contract address, then token id, ascending.
    pub tokens: Vec<OwnedNft>,
    /// The owner's native balance after the last indexed block, wei.
    pub native_balance: U256,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

impl EvmPages {
    /// One page of the ERC-721 tokens `owner` holds on `chain` (of `contract` only, when given),
    /// resuming strictly past `from`, with the owner's native balance, all from one snapshot.
    pub fn erc721_balances(
        &self,
        chain: u64,
        owner: Address,
        contract: Option<Address>,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<Erc721Page, EvmReadError> {
        let (snapshot, cursor) = self.open(chain)?;
        let o = owner.0.0;
        let after = from
            .map(|bytes| {
                decode_position::<([u8; 20], [u8; 32])>(bytes).ok_or(EvmReadError::BadPosition)
            })
            .transpose()?;
        if let (Some((c, _)), Some(only)) = (after, contract) {
            if c != only.0.0 {
                return Err(EvmReadError::BadPosition);
            }
        }
        let (low, high) = match contract {
            Some(c) => ((chain, o, c.0.0, [0u8; 32]), (chain, o, c.0.0, [0xFF; 32])),
            None => (
                (chain, o, [0u8; 20], [0u8; 32]),
                (chain, o, [0xFF; 20], [0xFF; 32]),
            ),
        };
        let low = match after {
            Some((c, id)) => Bound::Excluded((chain, o, c, id)),
            None => Bound::Included(low),
        };
        let entries = snapshot
            .scan::<EvErc721ByOwner, _>((low, Bound::Included(high)), Direction::Forward)?
            .take((page_size as usize).saturating_add(1))
            .map(|e| {
                e.map(|((_, _, c, id), ())| (c, id))
                    .map_err(EvmReadError::from)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let page = take_page(entries, page_size, encode_position);
        let uri_keys: Vec<(u64, [u8; 20], [u8; 32])> =
            page.items.iter().map(|(c, id)| (chain, *c, *id)).collect();
        let details = nft_details(&snapshot, &uri_keys)?;
        let tokens = self.token_rows(
            &snapshot,
            chain,
            page.items.iter().map(|(c, _)| Address::from(*c)),
        )?;
        let owned = page
            .items
            .iter()
            .zip(details)
            .map(|((c, id), (uri, metadata))| {
                let contract = Address::from(*c);
                OwnedNft {
                    contract,
                    token_id: U256::from_be_bytes(*id),
                    uri,
                    metadata,
                    token: tokens.get(&contract).cloned(),
                }
            })
            .collect();
        let native_balance = match last_block(&cursor) {
            Some(last) => balance_at(&snapshot, chain, owner, last)?,
            None => U256::ZERO,
        };
        Ok(Erc721Page {
            tokens: owned,
            native_balance,
            next: page.next,
        })
    }
}
