//! The token holding and NFT collection records of `snowline_types::rest::evm_balances` checked
//! against the Glacier OpenAPI schemas (`fixtures/evm/openapi-evm-schemas.json`: the schemas of
//! `glacier-data-api.json`, copied as they are), each built with every optional member set and
//! with none: every required member present, no member the schema does not name, each value of
//! the schema's type and enumeration, `oneOf` unions matched, and `null` only where the schema's
//! type names it (`Erc20TokenBalance.tokenReputation`, required and `["string", "null"]`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod openapi_check;

use serde::Serialize;
use serde_json::Value;
use snowline_types::rest::evm::*;
use snowline_types::rest::evm_balances::*;
use snowline_types::rest::{Money, MoneyValue};

const ADDR: &str = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";

fn schemas() -> serde_json::Map<String, Value> {
    openapi_check::load(include_str!("fixtures/evm/openapi-evm-schemas.json"))
}

fn assert_matches<T: Serialize>(schema_name: &str, record: &T) {
    openapi_check::assert_matches_in(&schemas(), schema_name, record);
}

fn refused<T: Serialize>(schema_name: &str, record: &T) -> Vec<String> {
    let value = serde_json::to_value(record).unwrap();
    let schema = serde_json::json!({ "$ref": format!("#/components/schemas/{schema_name}") });
    openapi_check::check(&schemas(), &schema, &value, schema_name)
}

fn usd(full: bool) -> Option<Money> {
    full.then(|| Money {
        currency_code: "usd".into(),
        value: MoneyValue::Number(1.5),
    })
}

fn native(full: bool) -> NativeTokenBalance {
    NativeTokenBalance {
        name: "Avalanche".into(),
        symbol: "AVAX".into(),
        decimals: 18,
        logo_uri: full.then(|| "https://example.invalid/avax.svg".into()),
        chain_id: "43114".into(),
        price: usd(full),
        balance: "1".into(),
        balance_value: usd(full),
    }
}

fn erc20(full: bool) -> Erc20TokenBalance {
    Erc20TokenBalance {
        token: Erc20Token {
            address: ADDR.into(),
            name: "Wrapped AVAX".into(),
            symbol: "WAVAX".into(),
            decimals: 18,
            logo_uri: full.then(|| "https://example.invalid/wavax.svg".into()),
            erc_type: Default::default(),
            price: usd(full),
        },
        chain_id: "43114".into(),
        balance: "2000000000000000000".into(),
        balance_value: usd(full),
        token_reputation: full.then_some(TokenReputation::Malicious),
    }
}

fn metadata(full: bool) -> NftMetadata {
    NftMetadata {
        index_status: if full {
            NftTokenMetadataStatus::Indexed
        } else {
            NftTokenMetadataStatus::Unindexed
        },
        metadata_last_updated_timestamp: full.then_some(1_648_672_486),
        name: full.then(|| "n".into()),
        symbol: full.then(|| "s".into()),
        image_uri: full.then(|| "ipfs://i".into()),
        description: full.then(|| "d".into()),
        animation_uri: full.then(|| "ipfs://a".into()),
        external_url: full.then(|| "https://e.invalid".into()),
        background: full.then(|| "ffffff".into()),
    }
}

fn erc721(full: bool) -> Erc721Token {
    Erc721Token {
        address: ADDR.into(),
        name: "Collection".into(),
        symbol: "COL".into(),
        erc_type: Default::default(),
        token_id: "7".into(),
        token_uri: "https://example.invalid/7".into(),
        metadata: Erc721TokenMetadata {
            common: metadata(full),
            attributes: full.then(|| "[]".into()),
        },
        owner_address: full.then(|| ADDR.into()),
    }
}

fn erc1155(full: bool) -> Erc1155Token {
    Erc1155Token {
        address: ADDR.into(),
        erc_type: Default::default(),
        token_id: "7".into(),
        token_uri: String::new(),
        metadata: Erc1155TokenMetadata {
            common: metadata(full),
            decimals: full.then_some(0),
            properties: full.then(|| "{}".into()),
        },
    }
}

fn erc1155_balance(full: bool) -> Erc1155TokenBalance {
    Erc1155TokenBalance {
        token: erc1155(full),
        chain_id: "43114".into(),
        balance: "3".into(),
    }
}

#[test]
fn holdings_and_collections_match_the_openapi_schemas() {
    for full in [true, false] {
        let next = full.then(|| "token".to_owned());
        assert_matches("Erc20TokenBalance", &erc20(full));
        assert_matches(
            "ListErc20BalancesResponse",
            &ListErc20BalancesResponse {
                next_page_token: next.clone(),
                native_token_balance: native(full),
                erc20_token_balances: vec![erc20(full), erc20(!full)],
            },
        );
        assert_matches("Erc1155TokenBalance", &erc1155_balance(full));
        assert_matches(
            "ListErc1155BalancesResponse",
            &ListErc1155BalancesResponse {
                next_page_token: next.clone(),
                native_token_balance: native(full),
                erc1155_token_balances: vec![erc1155_balance(full)],
            },
        );
        assert_matches(
            "ListCollectibleBalancesResponse",
            &ListCollectibleBalancesResponse {
                next_page_token: next.clone(),
                collectible_balances: vec![
                    CollectibleBalance::Erc721(Erc721TokenBalance {
                        token: erc721(full),
                        chain_id: "43114".into(),
                    }),
                    CollectibleBalance::Erc1155(erc1155_balance(full)),
                ],
            },
        );
        assert_matches(
            "ListNftTokens",
            &ListNftTokens {
                next_page_token: next,
                tokens: vec![
                    NftToken::Erc721(erc721(full)),
                    NftToken::Erc1155(erc1155(full)),
                ],
            },
        );
    }
}

#[test]
fn the_checker_refuses_what_the_schemas_refuse() {
    // Without its required `tokenReputation` (even as `null`) an ERC-20 balance is refused; a
    // `null` where the type does not name it is refused; an unknown member is refused.
    let mut v = serde_json::to_value(erc20(false)).unwrap();
    v.as_object_mut().unwrap().remove("tokenReputation");
    assert!(!refused("Erc20TokenBalance", &v).is_empty());
    let mut v = serde_json::to_value(erc20(false)).unwrap();
    v["balance"] = Value::Null;
    assert!(!refused("Erc20TokenBalance", &v).is_empty());
    let mut v = serde_json::to_value(erc1155_balance(false)).unwrap();
    v["ownerAddress"] = ADDR.into();
    assert!(!refused("Erc1155TokenBalance", &v).is_empty());
    let mut v = serde_json::to_value(erc20(true)).unwrap();
    v["tokenReputation"] = "Unknown".into();
    assert!(!refused("Erc20TokenBalance", &v).is_empty());
}
