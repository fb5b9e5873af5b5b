//! The Data API's EVM token holdings and NFT collections, with the members of the Glacier
//! OpenAPI: `ListErc20BalancesResponse`, `ListErc1155BalancesResponse`,
//! `ListCollectibleBalancesResponse` (ERC-721 and ERC-1155 together, told apart by `ercType`) and
//! `ListNftTokens`. Amounts are decimal strings; absent optional members are omitted.

use serde::{Deserialize, Serialize};

use super::evm::{Erc20Token, Erc721Token, Erc721TokenBalance, Erc1155Token, NativeTokenBalance};
use super::pchain::Money;

/// `tokenReputation`: what a security analysis says of a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TokenReputation {
    /// `Malicious`.
    Malicious,
    /// `Benign`.
    Benign,
}

/// `Erc20TokenBalance`: an ERC-20 token an address holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc20TokenBalance {
    /// The token.
    #[serde(flatten)]
    pub token: Erc20Token,
    /// EVM chain id, decimal.
    pub chain_id: String,
    /// Balance in the token's smallest unit, decimal.
    pub balance: String,
    /// Value of the balance, when priced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance_value: Option<Money>,
    /// The OpenAPI requires this member and gives `null` as its value for a reputation not
    /// known, so unknown is written as `null` here (the one member that is).
    pub token_reputation: Option<TokenReputation>,
}

/// `ListErc20BalancesResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListErc20BalancesResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// The native balance at the same block.
    pub native_token_balance: NativeTokenBalance,
    /// This page.
    pub erc20_token_balances: Vec<Erc20TokenBalance>,
}

/// `Erc1155TokenBalance`: an ERC-1155 token an address holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc1155TokenBalance {
    /// The token.
    #[serde(flatten)]
    pub token: Erc1155Token,
    /// EVM chain id, decimal.
    pub chain_id: String,
    /// Balance, decimal.
    pub balance: String,
}

/// `ListErc1155BalancesResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListErc1155BalancesResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// The native balance at the same block.
    pub native_token_balance: NativeTokenBalance,
    /// This page.
    pub erc1155_token_balances: Vec<Erc1155TokenBalance>,
}

/// One collectible an address holds: the OpenAPI's `oneOf` of `Erc721TokenBalance` and
/// `Erc1155TokenBalance`, told apart by their `ercType`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CollectibleBalance {
    /// An ERC-721 token.
    Erc721(Erc721TokenBalance),
    /// An ERC-1155 token.
    Erc1155(Erc1155TokenBalance),
}

/// `ListCollectibleBalancesResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListCollectibleBalancesResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub collectible_balances: Vec<CollectibleBalance>,
}

/// One token of an NFT collection: the OpenAPI's `oneOf` of `Erc721Token` and `Erc1155Token`
/// (`getTokenDetails`' answer, `ListNftTokens`' items).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum NftToken {
    /// An ERC-721 token.
    Erc721(Erc721Token),
    /// An ERC-1155 token.
    Erc1155(Erc1155Token),
}

/// `ListNftTokens`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListNftTokens {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub tokens: Vec<NftToken>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;

    use super::*;
    use crate::rest::evm::{Erc1155TokenMetadata, NftMetadata};

    /// `Erc20TokenBalance` in glacier-data-api.json requires `tokenReputation`, typed
    /// `["string", "null"]` with `null` for unknown; every other absent member is omitted.
    #[test]
    fn erc20_balance_writes_the_required_reputation_and_omits_the_rest() {
        let b = Erc20TokenBalance {
            token: Erc20Token {
                address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F".to_owned(),
                name: "T".to_owned(),
                symbol: "T".to_owned(),
                decimals: 18,
                logo_uri: None,
                erc_type: Default::default(),
                price: None,
            },
            chain_id: "43114".to_owned(),
            balance: "5".to_owned(),
            balance_value: None,
            token_reputation: None,
        };
        let v = serde_json::to_value(&b).unwrap();
        assert_eq!(
            v,
            json!({"address": "0x71C7656EC7ab88b098defB751B7401B5f6d8976F", "name": "T",
                "symbol": "T", "decimals": 18, "ercType": "ERC-20", "chainId": "43114",
                "balance": "5", "tokenReputation": null})
        );
    }

    /// A collectible is one of two records, each carrying its own `ercType`.
    #[test]
    fn collectibles_carry_their_erc_type() {
        let c = CollectibleBalance::Erc1155(Erc1155TokenBalance {
            token: Erc1155Token {
                address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F".to_owned(),
                erc_type: Default::default(),
                token_id: "7".to_owned(),
                token_uri: String::new(),
                metadata: Erc1155TokenMetadata {
                    common: NftMetadata::unindexed(),
                    decimals: None,
                    properties: None,
                },
            },
            chain_id: "1".to_owned(),
            balance: "3".to_owned(),
        });
        let v = serde_json::to_value(&c).unwrap();
        assert_eq!(v["ercType"], "ERC-1155");
        assert_eq!(v["metadata"]["indexStatus"], "UNINDEXED");
        assert!(v.get("ownerAddress").is_none());
    }
}
