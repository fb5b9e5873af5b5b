//! The ICM records of `snowline_types::rest::icm` checked against the Glacier OpenAPI schemas
//! (`fixtures/icm/openapi-icm-schemas.json`: the schemas of `glacier-data-api.json` the
//! `/v1/icm/messages` answers reference, copied as they are) with `openapi_check`. Each record is
//! built with every optional member set and with none; each of the three `status` shapes must
//! match its own schema through the discriminator, and read back as itself.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

mod openapi_check;

use serde::Serialize;
use serde_json::{Value, json};
use snowline_types::rest::icm::*;
use snowline_types::rest::{Erc20Token, Erc20Type, Money, MoneyValue};

fn schemas() -> serde_json::Map<String, Value> {
    openapi_check::load(include_str!("fixtures/icm/openapi-icm-schemas.json"))
}

fn assert_matches<T: Serialize>(schema_name: &str, record: &T) {
    openapi_check::assert_matches_in(&schemas(), schema_name, record);
}

/// `GET /v1/icm/messages/{messageId}` answers the same `oneOf` as the listing's items.
fn assert_matches_message(record: &IcmMessage) {
    let all = schemas();
    let schema = all["ListIcmMessagesResponse"]["properties"]["messages"]["items"].clone();
    let value = serde_json::to_value(record).unwrap();
    let errors = openapi_check::check(&all, &schema, &value, "IcmMessage");
    assert!(errors.is_empty(), "{errors:#?}\n{value:#}");
}

const ADDR: &str = "0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf";
const HASH: &str = "0x17533aeb5193378b9ff441d61728e7a2ebaf10f61fd5310759451627dfca2e7c";

fn fields(full: bool) -> IcmMessageFields {
    IcmMessageFields {
        message_id: HASH.into(),
        icm_contract_address: ADDR.into(),
        source_blockchain_id: "2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY".into(),
        destination_blockchain_id: "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp".into(),
        source_evm_chain_id: "173750".into(),
        destination_evm_chain_id: "43113".into(),
        message_nonce: "277".into(),
        from: "0x8578AE7723751446B196bD5124e1bF57B40EB7Bc".into(),
        to: "0x9660ed66aEf60dFBA5467AfE865f612EdBfb5C71".into(),
        data: full.then(|| "0x01020304".into()),
        message_executed: full,
        receipts: if full {
            vec![IcmReceipt {
                received_message_nonce: "4512".into(),
                relayer_reward_address: "0x7Ec2afb0a06A73666ADc24983eBdbF2B6F1d7082".into(),
            }]
        } else {
            Vec::new()
        },
        receipt_delivered: full,
        reward_details: IcmRewardDetails {
            token: Erc20Token {
                address: "0x5425890298aed601595a70AB815c96711a31Bc65".into(),
                name: "USD Coin".into(),
                symbol: "USDC".into(),
                decimals: 6,
                logo_uri: full.then(|| "https://example.invalid/usdc.svg".into()),
                erc_type: Erc20Type::Erc20,
                price: full.then(|| Money {
                    currency_code: "usd".into(),
                    value: MoneyValue::Number(1.0),
                }),
            },
            value: "1000000".into(),
        },
    }
}

fn source_tx() -> IcmSourceTransaction {
    IcmSourceTransaction {
        tx_hash: HASH.into(),
        timestamp: 1_716_000_000,
        gas_spent: "171354".into(),
    }
}

fn destination_tx() -> IcmDestinationTransaction {
    IcmDestinationTransaction {
        tx_hash: HASH.into(),
        timestamp: 1_716_000_004,
        gas_spent: "230000".into(),
        reward_redeemer: "0x00000000000000000000000000000000000000E2".into(),
        deliverer_address: "0x00000000000000000000000000000000000000d1".into(),
    }
}

fn all_shapes(full: bool) -> [IcmMessage; 3] {
    [
        IcmMessage::Pending(PendingIcmMessage {
            message: fields(full),
            source_transaction: source_tx(),
        }),
        IcmMessage::Delivered(DeliveredIcmMessage {
            message: fields(full),
            source_transaction: source_tx(),
            destination_transaction: destination_tx(),
        }),
        IcmMessage::DeliveredSourceNotIndexed(DeliveredSourceNotIndexedIcmMessage {
            message: fields(full),
            destination_transaction: destination_tx(),
        }),
    ]
}

#[test]
fn each_status_matches_its_schema_and_reads_back() {
    for full in [true, false] {
        for (m, (status, schema)) in all_shapes(full).iter().zip([
            ("pending", "PendingIcmMessage"),
            ("delivered", "DeliveredIcmMessage"),
            (
                "delivered_source_not_indexed",
                "DeliveredSourceNotIndexedIcmMessage",
            ),
        ]) {
            assert_eq!(m.status(), status);
            assert_matches(schema, m);
            assert_matches_message(m);
            let v = serde_json::to_value(m).unwrap();
            assert_eq!(v["status"], status);
            assert_eq!(v.get("data").is_some(), full);
            assert_eq!(m.fields().message_nonce, "277");
            assert_eq!(&serde_json::from_value::<IcmMessage>(v).unwrap(), m);
        }
    }
}

#[test]
fn shapes_carry_exactly_their_transactions() {
    // pending: source only; delivered: both; delivered_source_not_indexed: destination only.
    let [p, d, n] = all_shapes(false).map(|m| serde_json::to_value(m).unwrap());
    let has = |v: &Value, k: &str| v.get(k).is_some();
    assert!(has(&p, "sourceTransaction") && !has(&p, "destinationTransaction"));
    assert!(has(&d, "sourceTransaction") && has(&d, "destinationTransaction"));
    assert!(!has(&n, "sourceTransaction") && has(&n, "destinationTransaction"));
    // The reward is an ERC-20 token with its amount.
    assert_eq!(d["rewardDetails"]["ercType"], "ERC-20");
    assert_eq!(d["rewardDetails"]["value"], "1000000");
    assert_eq!(
        d["destinationTransaction"]["delivererAddress"],
        "0x00000000000000000000000000000000000000d1"
    );
    // A delivered shape without its source transaction is not a delivered message.
    let mut broken = d.clone();
    broken.as_object_mut().unwrap().remove("sourceTransaction");
    assert!(serde_json::from_value::<IcmMessage>(broken.clone()).is_err());
    let all = schemas();
    let schema = json!({ "$ref": "#/components/schemas/DeliveredIcmMessage" });
    assert!(!openapi_check::check(&all, &schema, &broken, "d").is_empty());
}

#[test]
fn listing_matches_list_icm_messages_response() {
    for full in [true, false] {
        let r = ListIcmMessagesResponse {
            next_page_token: full.then(|| "t".into()),
            messages: all_shapes(full).to_vec(),
        };
        assert_matches("ListIcmMessagesResponse", &r);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v.get("nextPageToken").is_some(), full);
        assert_eq!(
            serde_json::from_value::<ListIcmMessagesResponse>(v).unwrap(),
            r
        );
    }
    let empty = ListIcmMessagesResponse {
        next_page_token: None,
        messages: Vec::new(),
    };
    assert_eq!(
        serde_json::to_value(&empty).unwrap(),
        json!({"messages": []})
    );
}

#[test]
fn teleporter_message_info_matches_its_schema() {
    for (direction, source, dest) in [
        (
            TransactionDirectionType::SourceTransaction,
            None,
            Some("43113"),
        ),
        (
            TransactionDirectionType::DestinationTransaction,
            Some("43114"),
            None,
        ),
    ] {
        let info = TeleporterMessageInfo {
            teleporter_message_id: HASH.into(),
            direction,
            source_chain_id: source.map(Into::into),
            destination_chain_id: dest.map(Into::into),
        };
        assert_matches("TeleporterMessageInfo", &info);
    }
    let v = serde_json::to_value(TeleporterMessageInfo {
        teleporter_message_id: HASH.into(),
        direction: TransactionDirectionType::SourceTransaction,
        source_chain_id: None,
        destination_chain_id: None,
    })
    .unwrap();
    assert_eq!(
        v,
        json!({"teleporterMessageId": HASH, "direction": "SOURCE_TRANSACTION"})
    );
}
