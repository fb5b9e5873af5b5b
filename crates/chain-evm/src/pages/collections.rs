//! What the index knows of one contract (how it was deployed, what its `eth_call`s said) and the
//! tokens of an NFT collection: every id it ever moved, with its URI and, for ERC-721, its owner.

use std::ops::Bound;

use snowline_query::{decode_position, encode_position, take_page};
use snowline_store::{Direction, Linear, ReadView, Snapshot};
use snowline_types::evm::{Address, U256};

use super::{EvmPages, EvmReadError, nft_details};
use crate::error::EvmError;
use crate::rows::{ContractRow, MetadataRow, TokenRow, TransferKind};
use crate::tables::{Addr, EvContracts, EvErc721Owner, EvNftTokens, Word};

/// What the index knows of a contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractFacts {
    /// How it was created, when its creation is in an indexed block.
    pub deployment: Option<ContractRow>,
    /// What it told of itself, when it was asked.
    pub token: Option<TokenRow>,
}

/// One token of an NFT collection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionToken {
    /// ERC-721 or ERC-1155.
    pub kind: TransferKind,
    /// The token id.
    pub token_id: U256,
    /// `tokenURI` / `uri` as of the id's last move, when the contract answered.
    pub uri: Option<String>,
    /// The ERC-721 token's owner (none once burnt, nor for ERC-1155).
    pub owner: Option<Address>,
    /// The metadata fetched for it, when it was.
    pub metadata: Option<MetadataRow>,
}

/// One page of a collection's tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionPage {
    /// By token id, ascending.
    pub tokens: Vec<CollectionToken>,
    /// What the collection's contract told of itself, when it was asked.
    pub token: Option<TokenRow>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

impl EvmPages {
    /// What the index knows of `address` on `chain`: `None` when it neither saw it created nor
    /// asked it anything (not a contract, as far as the index knows).
    pub fn contract_facts(
        &self,
        chain: u64,
        address: Address,
    ) -> Result<Option<ContractFacts>, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let deployment = snapshot
            .get::<EvContracts>(&(chain, address.0.0))?
            .map(|Linear(r)| r);
        let token = self
            .token_rows(&snapshot, chain, [address])?
            .remove(&address);
        Ok(
            (deployment.is_some() || token.is_some())
                .then_some(ContractFacts { deployment, token }),
        )
    }

    /// One page of the tokens collection `contract` on `chain` ever moved, by id, resuming
    /// strictly past `from`.
    pub fn collection_tokens(
        &self,
        chain: u64,
        contract: Address,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<CollectionPage, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let c = contract.0.0;
        let low = match from {
            Some(bytes) => Bound::Excluded((
                chain,
                c,
                decode_position::<Word>(bytes).ok_or(EvmReadError::BadPosition)?,
            )),
            None => Bound::Included((chain, c, [0u8; 32])),
        };
        let entries = snapshot
            .scan::<EvNftTokens, _>(
                (low, Bound::Included((chain, c, [0xFF; 32]))),
                Direction::Forward,
            )?
            .take((page_size as usize).saturating_add(1))
            .map(|e| {
                e.map(|((_, _, id), kind)| (id, kind))
                    .map_err(EvmReadError::from)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let page = take_page(entries, page_size, |(id, _)| encode_position(id));
        let tokens = describe(&snapshot, chain, c, &page.items)?;
        Ok(CollectionPage {
            tokens,
            token: self
                .token_rows(&snapshot, chain, [contract])?
                .remove(&contract),
            next: page.next,
        })
    }

    /// Token `id` of collection `contract` on `chain`, with what its contract told of itself;
    /// `None` when the collection never moved it.
    pub fn collection_token(
        &self,
        chain: u64,
        contract: Address,
        id: U256,
    ) -> Result<Option<(CollectionToken, Option<TokenRow>)>, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let (c, w) = (contract.0.0, id.to_be_bytes::<32>());
        let Some(kind) = snapshot.get::<EvNftTokens>(&(chain, c, w))? else {
            return Ok(None);
        };
        let token = describe(&snapshot, chain, c, &[(w, kind)])?.pop();
        let row = self
            .token_rows(&snapshot, chain, [contract])?
            .remove(&contract);
        Ok(token.map(|t| (t, row)))
    }
}

/// The tokens `(id, kind)` of collection `c` with their URIs, ERC-721 owners and fetched
/// metadata.
fn describe(
    view: &Snapshot<'_>,
    chain: u64,
    c: Addr,
    items: &[(Word, u8)],
) -> Result<Vec<CollectionToken>, EvmReadError> {
    let keys: Vec<(u64, Addr, Word)> = items.iter().map(|(id, _)| (chain, c, *id)).collect();
    let details = nft_details(view, &keys)?;
    let owners = view.multi_get::<EvErc721Owner>(&keys)?;
    items
        .iter()
        .zip(details.into_iter().zip(owners))
        .map(|((id, code), ((uri, fetched), owner))| {
            let kind = TransferKind::from_code(*code)
                .map_err(|e| EvmReadError::Read(EvmError::Corrupt(e.to_string())))?;
            Ok(CollectionToken {
                kind,
                token_id: U256::from_be_bytes(*id),
                uri,
                owner: owner
                    .filter(|_| kind == TransferKind::Erc721)
                    .map(Address::from),
                metadata: fetched,
            })
        })
        .collect()
}
