//! The EVM records of `snowline_types::rest::evm` checked against the Glacier OpenAPI schemas
//! (`fixtures/evm/openapi-evm-schemas.json`: the schemas of `glacier-data-api.json` the EVM
//! responses reference, copied as they are). Each record is built twice, with every optional
//! member set and with none, and its JSON must satisfy the schema (`openapi_check`): every
//! required member present, no member the schema does not name, each value of the schema's type
//! and enumeration, `oneOf` unions matched by their discriminator, and no `null` anywhere.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

mod openapi_check;

use openapi_check::check;
use serde::Serialize;
use serde_json::Value;
use snowline_types::rest::evm::*;
use snowline_types::rest::{Money, MoneyValue, NetworkToken};

fn schemas() -> serde_json::Map<String, Value> {
    openapi_check::load(include_str!("fixtures/evm/openapi-evm-schemas.json"))
}

fn assert_matches<T: Serialize>(schema_name: &str, record: &T) {
    openapi_check::assert_matches_in(&schemas(), schema_name, record);
}

const ADDR: &str = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";
const HASH: &str = "0x17533aeb5193378b9ff441d61728e7a2ebaf10f61fd5310759451627dfca2e7c";

fn usd() -> Money {
    Money {
        currency_code: "usd".into(),
        value: MoneyValue::Number(42.42),
    }
}

fn rich(full: bool) -> RichAddress {
    if full {
        RichAddress {
            name: Some("Wrapped AVAX".into()),
            symbol: Some("WAVAX".into()),
            decimals: Some(18),
            logo_uri: Some("https://example.invalid/wavax.svg".into()),
            address: ADDR.into(),
        }
    } else {
        RichAddress::plain(ADDR)
    }
}

fn opt<T>(full: bool, v: T) -> Option<T> {
    full.then_some(v)
}

fn location(full: bool) -> TxLocation {
    TxLocation {
        block_number: "339".into(),
        block_timestamp: 1648672486,
        block_timestamp_milliseconds: opt(full, 1648672486000),
        block_hash: HASH.into(),
        tx_hash: HASH.into(),
    }
}

fn metadata(full: bool) -> NftMetadata {
    if !full {
        return NftMetadata::unindexed();
    }
    NftMetadata {
        index_status: NftTokenMetadataStatus::Indexed,
        metadata_last_updated_timestamp: Some(1648672486),
        name: Some("n".into()),
        symbol: Some("s".into()),
        image_uri: Some("ipfs://i".into()),
        description: Some("d".into()),
        animation_uri: Some("ipfs://a".into()),
        external_url: Some("https://e.invalid".into()),
        background: Some("ffffff".into()),
    }
}

fn erc20_token(full: bool) -> Erc20Token {
    Erc20Token {
        address: ADDR.into(),
        name: "Wrapped AVAX".into(),
        symbol: "WAVAX".into(),
        decimals: 18,
        logo_uri: opt(full, "https://example.invalid/l.svg".into()),
        erc_type: Erc20Type::Erc20,
        price: opt(full, usd()),
    }
}

fn erc721_token(full: bool) -> Erc721Token {
    Erc721Token {
        address: ADDR.into(),
        name: "Punks".into(),
        symbol: "P".into(),
        erc_type: Erc721Type::Erc721,
        token_id: "7".into(),
        token_uri: "ipfs://x/7".into(),
        metadata: Erc721TokenMetadata {
            common: metadata(full),
            attributes: opt(full, "[]".into()),
        },
        owner_address: opt(full, ADDR.into()),
    }
}

fn erc1155_token(full: bool) -> Erc1155Token {
    Erc1155Token {
        address: ADDR.into(),
        erc_type: Erc1155Type::Erc1155,
        token_id: "7".into(),
        token_uri: "ipfs://x/{id}".into(),
        metadata: Erc1155TokenMetadata {
            common: metadata(full),
            decimals: opt(full, 0),
            properties: opt(full, "{}".into()),
        },
    }
}

fn erc20_details(full: bool) -> Erc20TransferDetails {
    Erc20TransferDetails {
        from: rich(full),
        to: rich(false),
        log_index: 3,
        value: "10000000000000000000".into(),
        erc20_token: erc20_token(full),
    }
}

fn erc721_details(full: bool) -> Erc721TransferDetails {
    Erc721TransferDetails {
        from: rich(full),
        to: rich(false),
        log_index: 4,
        erc721_token: erc721_token(full),
    }
}

fn erc1155_details(full: bool) -> Erc1155TransferDetails {
    Erc1155TransferDetails {
        from: rich(full),
        to: rich(false),
        log_index: 5,
        value: "2".into(),
        erc1155_token: erc1155_token(full),
    }
}

fn internal_details(kind: InternalTxType, reverted: bool) -> InternalTransactionDetails {
    InternalTransactionDetails {
        from: rich(false),
        to: rich(false),
        internal_tx_type: kind,
        value: "10000000000000000000".into(),
        is_reverted: reverted,
        gas_used: "21000".into(),
        gas_limit: "30000".into(),
    }
}

fn native_balance(full: bool) -> NativeTokenBalance {
    NativeTokenBalance {
        name: "Avalanche".into(),
        symbol: "AVAX".into(),
        decimals: 18,
        logo_uri: opt(full, "https://example.invalid/avax.svg".into()),
        chain_id: "43114".into(),
        price: opt(full, usd()),
        balance: "2000000000000000000".into(),
        balance_value: opt(full, usd()),
    }
}

fn native_tx(full: bool, call_type: TransactionMethodType) -> NativeTransaction {
    NativeTransaction {
        block_number: "339".into(),
        block_timestamp: 1648672486,
        block_timestamp_milliseconds: opt(full, 1648672486000),
        block_min_delay_excess: opt(full, 7477290),
        block_hash: HASH.into(),
        chain_id: "43114".into(),
        block_index: 0,
        tx_hash: HASH.into(),
        tx_status: "1".into(),
        tx_type: 2,
        gas_limit: "51373".into(),
        gas_used: "51373".into(),
        gas_price: "470000000000".into(),
        nonce: "1".into(),
        from: rich(full),
        to: rich(false),
        method: opt(
            full,
            Method {
                call_type,
                method_hash: "0xa9059cbb".into(),
                method_name: Some("transfer(address,uint256)".into()),
            },
        ),
        value: "0".into(),
    }
}

fn contract_info(full: bool) -> ContractInfo {
    if !full {
        return ContractInfo {
            address: ADDR.into(),
            ..ContractInfo::default()
        };
    }
    ContractInfo {
        name: Some("Wrapped AVAX".into()),
        description: Some("d".into()),
        official_site: Some("https://e.invalid".into()),
        email: Some("a@e.invalid".into()),
        logo_asset: Some(ImageAsset {
            asset_id: Some("a".into()),
            image_uri: Some("https://e.invalid/i.png".into()),
        }),
        banner_asset: Some(ImageAsset::default()),
        color: Some("#fff".into()),
        resource_links: Some(vec![ResourceLink {
            link_type: ResourceLinkType::CoinGecko,
            url: "https://e.invalid".into(),
        }]),
        tags: Some(vec!["defi".into()]),
        address: ADDR.into(),
        deployment_details: Some(ContractDeploymentDetails {
            tx_hash: HASH.into(),
            deployer_address: ADDR.into(),
            deployer_contract_address: Some(ADDR.into()),
        }),
    }
}

#[test]
fn block_matches_get_evm_block_response() {
    for full in [true, false] {
        assert_matches(
            "GetEvmBlockResponse",
            &GetEvmBlockResponse {
                chain_id: "43114".into(),
                block_number: "339".into(),
                block_timestamp: 1648672486,
                block_timestamp_milliseconds: opt(full, 1648672486000),
                block_min_delay_excess: opt(full, 7477290),
                block_hash: HASH.into(),
                tx_count: 2,
                base_fee: "25000000000".into(),
                gas_used: "42000".into(),
                gas_limit: "15000000".into(),
                gas_cost: "0".into(),
                parent_hash: HASH.into(),
                fees_spent: "1050000000000000".into(),
                cumulative_transactions: "1000".into(),
            },
        );
    }
}

#[test]
fn transfers_match_list_transfers_response() {
    for full in [true, false] {
        assert_matches(
            "ListTransfersResponse",
            &ListTransfersResponse {
                next_page_token: opt(full, "t".into()),
                transfers: vec![
                    TransferRecord::Erc20(Erc20Transfer {
                        location: location(full),
                        transfer: erc20_details(full),
                    }),
                    TransferRecord::Erc721(Erc721Transfer {
                        location: location(full),
                        transfer: erc721_details(full),
                    }),
                    TransferRecord::Erc1155(Erc1155Transfer {
                        location: location(full),
                        transfer: erc1155_details(full),
                    }),
                ],
            },
        );
    }
}

#[test]
fn internal_transactions_match_their_listing() {
    let kinds = [
        InternalTxType::Unknown,
        InternalTxType::Call,
        InternalTxType::Create,
        InternalTxType::Create2,
        InternalTxType::Create3,
        InternalTxType::CallCode,
        InternalTxType::DelegateCall,
        InternalTxType::StaticCall,
    ];
    for full in [true, false] {
        assert_matches(
            "ListInternalTransactionsResponse",
            &ListInternalTransactionsResponse {
                next_page_token: opt(full, "t".into()),
                transactions: kinds
                    .iter()
                    .map(|k| InternalTransaction {
                        location: location(full),
                        details: internal_details(*k, full),
                    })
                    .collect(),
            },
        );
    }
}

#[test]
fn balances_match_their_responses() {
    for full in [true, false] {
        assert_matches(
            "GetNativeBalanceResponse",
            &GetNativeBalanceResponse {
                native_token_balance: native_balance(full),
            },
        );
        assert_matches(
            "ListErc721BalancesResponse",
            &ListErc721BalancesResponse {
                next_page_token: opt(full, "t".into()),
                native_token_balance: native_balance(full),
                erc721_token_balances: vec![Erc721TokenBalance {
                    token: erc721_token(full),
                    chain_id: "43114".into(),
                }],
            },
        );
    }
}

#[test]
fn contracts_match_the_discriminated_union() {
    for full in [true, false] {
        let contracts = vec![
            DeployedContract::Erc20(Erc20Contract {
                info: contract_info(full),
                symbol: opt(full, "WAVAX".into()),
                decimals: 18,
                pricing_providers: opt(
                    full,
                    PricingProviders {
                        coingecko_coin_id: Some("wrapped-avax".into()),
                    },
                ),
            }),
            DeployedContract::Erc721(Erc721Contract {
                info: contract_info(full),
                symbol: opt(full, "P".into()),
            }),
            DeployedContract::Erc1155(Erc1155Contract {
                info: contract_info(full),
                symbol: opt(full, "S".into()),
                pricing_providers: opt(full, PricingProviders::default()),
            }),
            DeployedContract::Unknown(contract_info(full)),
        ];
        let listing = ListContractsResponse {
            next_page_token: opt(full, "t".into()),
            contracts,
        };
        assert_matches("ListContractsResponse", &listing);
        // The discriminator comes out under its OpenAPI spelling, and reads back.
        let json = serde_json::to_value(&listing).unwrap();
        let tags: Vec<_> = json["contracts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["ercType"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(tags, ["ERC-20", "ERC-721", "ERC-1155", "UNKNOWN"]);
        let back: ListContractsResponse = serde_json::from_value(json).unwrap();
        assert_eq!(back, listing);
    }
}

#[test]
fn transaction_matches_get_transaction_response() {
    for full in [true, false] {
        for call_type in [
            TransactionMethodType::NativeTransfer,
            TransactionMethodType::ContractCall,
            TransactionMethodType::ContractCreation,
        ] {
            let r = GetTransactionResponse {
                erc20_transfers: opt(full, vec![erc20_details(full)]),
                erc721_transfers: opt(full, vec![erc721_details(full)]),
                erc1155_transfers: opt(full, vec![erc1155_details(full)]),
                internal_transactions: opt(
                    full,
                    vec![internal_details(InternalTxType::Create2, false)],
                ),
                network_token_details: NetworkTokenDetails {
                    network_token: NetworkToken {
                        name: "Avalanche".into(),
                        symbol: "AVAX".into(),
                        decimals: 18,
                        logo_uri: opt(full, "https://e.invalid/a.svg".into()),
                        description: opt(full, "d".into()),
                    },
                    current_price: opt(full, usd()),
                    historical_price: opt(full, usd()),
                },
                native_transaction: FullNativeTransactionDetails {
                    tx: native_tx(full, call_type),
                    input: "0x".into(),
                    base_fee_per_gas: "25000000000".into(),
                    max_fee_per_gas: opt(full, "30000000000".into()),
                    max_priority_fee_per_gas: opt(full, "1".into()),
                },
                teleporter_message_info: opt(
                    full,
                    TeleporterMessageInfo {
                        teleporter_message_id: HASH.into(),
                        direction: TransactionDirectionType::SourceTransaction,
                        source_chain_id: Some("43114".into()),
                        destination_chain_id: Some("43113".into()),
                    },
                ),
            };
            assert_matches("GetTransactionResponse", &r);
        }
    }
}

#[test]
fn native_transaction_matches_its_schema() {
    for full in [true, false] {
        assert_matches(
            "NativeTransaction",
            &native_tx(full, TransactionMethodType::ContractCall),
        );
    }
}

#[test]
fn the_checker_rejects_what_the_schema_forbids() {
    // The checker itself: an extra member, a missing required one, a wrong enumeration value
    // and a null are each reported.
    let all = schemas();
    let schema = serde_json::json!({ "$ref": "#/components/schemas/RichAddress" });
    assert!(check(&all, &schema, &serde_json::json!({"address": ADDR}), "r").is_empty());
    assert!(
        !check(
            &all,
            &schema,
            &serde_json::json!({"address": ADDR, "x": 1}),
            "r"
        )
        .is_empty()
    );
    assert!(!check(&all, &schema, &serde_json::json!({"name": "n"}), "r").is_empty());
    assert!(
        !check(
            &all,
            &schema,
            &serde_json::json!({"address": ADDR, "name": null}),
            "r"
        )
        .is_empty()
    );
    let op = serde_json::json!({ "$ref": "#/components/schemas/InternalTransactionOpCall" });
    assert!(!check(&all, &op, &serde_json::json!("SELFDESTRUCT"), "o").is_empty());
}

/// `Money.value`: the OpenAPI schema `Money` (and the official SDK) want a JSON number, the
/// `glacier` profile's; the spec's `Price.value` is a decimal string, the `spec` profile's.
#[test]
fn money_is_a_number_for_glacier_and_a_decimal_string_for_the_spec() {
    let glacier = usd();
    assert_matches("Money", &glacier);
    assert_eq!(
        serde_json::to_value(&glacier).unwrap(),
        serde_json::json!({"currencyCode": "usd", "value": 42.42})
    );
    let spec = Money {
        currency_code: "usd".into(),
        value: MoneyValue::decimal(42.42),
    };
    let v = serde_json::to_value(&spec).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"currencyCode": "usd", "value": "42.42"})
    );
    // Both read back as what they are.
    assert_eq!(serde_json::from_value::<Money>(v).unwrap(), spec);
    assert_eq!(spec.value.as_f64(), 42.42);
    assert_eq!(
        MoneyValue::decimal(1e-7),
        MoneyValue::Decimal("0.0000001".into())
    );
}
