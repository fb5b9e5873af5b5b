//! Method names and the Data API's `Method` of a transaction (`snowline_types::evm::method`).
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

use std::collections::{HashMap, HashSet};

use snowline_types::evm::method::{CONTRACT_CREATION_NAME, NATIVE_TRANSFER_NAME, signatures};
use snowline_types::evm::{Address, method_name, selector, transaction_method};
use snowline_types::rest::{Method, TransactionMethodType};

fn hex(s: &str) -> Vec<u8> {
    alloy_primitives::hex::decode(s).unwrap()
}

#[test]
fn openapi_method_example() {
    // glacier-data-api.json, `Method`: methodHash example "0xa9059cbb", methodName example
    // "transfer(address,uint256)", callType example "CONTRACT_CALL".
    assert_eq!(
        selector("transfer(address,uint256)"),
        [0xa9, 0x05, 0x9c, 0xbb]
    );
    let to: Address = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F"
        .parse()
        .unwrap();
    let input = hex(&format!("a9059cbb{}{}", "00".repeat(32), "00".repeat(32)));
    let m = transaction_method(Some(to), &input);
    assert_eq!(
        serde_json::to_value(&m).unwrap(),
        serde_json::json!({
            "callType": "CONTRACT_CALL",
            "methodHash": "0xa9059cbb",
            "methodName": "transfer(address,uint256)"
        })
    );
}

#[test]
fn native_transfer_and_creation() {
    // glacier-data-api.json, `Method.methodName`: "If the `callType` is `NATIVE_TRANSFER` this is
    // set to 'Native Transfer'. If the `callType` is `CONTRACT_CREATION` this is set to
    // 'Contract Created'"; `methodHash` "is only set if the `callType` is `CONTRACT_CALL`" (it is
    // a required member, so it is empty otherwise).
    let to = Some(Address::repeat_byte(1));
    assert_eq!(
        transaction_method(to, &[]),
        Method {
            call_type: TransactionMethodType::NativeTransfer,
            method_hash: String::new(),
            method_name: Some(NATIVE_TRANSFER_NAME.into()),
        }
    );
    assert_eq!(NATIVE_TRANSFER_NAME, "Native Transfer");
    assert_eq!(CONTRACT_CREATION_NAME, "Contract Created");
    let create = transaction_method(None, &hex("6080604052"));
    assert_eq!(create.call_type, TransactionMethodType::ContractCreation);
    assert_eq!(create.method_name.as_deref(), Some("Contract Created"));
    assert_eq!(create.method_hash, "");
}

#[test]
fn unknown_and_short_selectors() {
    let to = Some(Address::repeat_byte(1));
    let m = transaction_method(to, &hex("deadbeef00"));
    assert_eq!(m.call_type, TransactionMethodType::ContractCall);
    assert_eq!(m.method_hash, "0xdeadbeef");
    assert_eq!(m.method_name, None);
    let m = transaction_method(to, &hex("a905"));
    assert_eq!(m.method_hash, "0xa905");
    assert_eq!(m.method_name, None);
}

#[test]
fn well_known_selectors() {
    // Selectors quoted by their specifications or by evm-devnet.md (Warp precompile interface
    // `IWarpMessenger.sol`): getBlockchainID() 0x4213cf78, sendWarpMessage(bytes) 0xee5b48eb,
    // getVerifiedWarpMessage(uint32) 0x6f825350; EIP-165 supportsInterface 0x01ffc9a7.
    for (hash, sig) in [
        ([0x42, 0x13, 0xcf, 0x78], "getBlockchainID()"),
        ([0xee, 0x5b, 0x48, 0xeb], "sendWarpMessage(bytes)"),
        ([0x6f, 0x82, 0x53, 0x50], "getVerifiedWarpMessage(uint32)"),
        ([0x01, 0xff, 0xc9, 0xa7], "supportsInterface(bytes4)"),
        ([0xa9, 0x05, 0x9c, 0xbb], "transfer(address,uint256)"),
    ] {
        assert_eq!(selector(sig), hash, "{sig}");
        assert_eq!(method_name(hash), Some(sig), "{sig}");
    }
}

#[test]
fn the_table_is_canonical_and_large() {
    // Each line is a canonical text signature: `name(types)`, no spaces, no parameter names,
    // balanced parentheses, no duplicates.
    let sigs: Vec<&str> = signatures().collect();
    assert!(sigs.len() >= 400, "{}", sigs.len());
    let mut seen = HashSet::new();
    for s in &sigs {
        assert!(seen.insert(*s), "duplicate {s}");
        assert!(!s.contains(' '), "{s}");
        let open = s.find('(').unwrap_or_else(|| panic!("{s}"));
        assert!(s.ends_with(')'), "{s}");
        let name = &s[..open];
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "{s}"
        );
        let mut depth = 0i32;
        for c in s[open..].chars() {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            assert!(depth >= 0, "{s}");
        }
        assert_eq!(depth, 0, "{s}");
        // Solidity's canonical forms: `uint256`, not `uint`; `int256`, not `int`.
        for t in s[open + 1..s.len() - 1].split([',', '(', ')', '[', ']']) {
            assert!(t != "uint" && t != "int" && t != "byte", "{s}");
        }
    }
    // Collisions: a selector two lines share goes to the first; every line's selector maps to a
    // line with that selector.
    let mut first: HashMap<[u8; 4], &str> = HashMap::new();
    for s in &sigs {
        first.entry(selector(s)).or_insert(s);
    }
    for s in &sigs {
        assert_eq!(method_name(selector(s)), first.get(&selector(s)).copied());
    }
}

#[test]
fn teleporter_signatures_use_the_message_tuple_of_its_events() {
    // evm-devnet.md §5.3 (verified against ava-labs/icm-contracts v1.0.0): the event topics
    // SendCrossChainMessage 0x2a211ad4...9df8 and ReceiveCrossChainMessage 0x292ee90b...3e34.
    // Their signatures fix the tuples `TeleporterMessage` and `TeleporterFeeInfo` that the
    // bundled Teleporter method signatures spell out.
    const MESSAGE: &str =
        "(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes)";
    const FEE: &str = "(address,uint256)";
    assert_eq!(
        alloy_primitives::keccak256(format!(
            "SendCrossChainMessage(bytes32,bytes32,{MESSAGE},{FEE})"
        )),
        "0x2a211ad4a59ab9d003852404f9c57c690704ee755f3c79d2c2812ad32da99df8"
            .parse::<alloy_primitives::B256>()
            .unwrap()
    );
    assert_eq!(
        alloy_primitives::keccak256(format!(
            "ReceiveCrossChainMessage(bytes32,bytes32,address,address,{MESSAGE})"
        )),
        "0x292ee90bbaf70b5d4936025e09d56ba08f3e421156b6a568cf3c2840d9343e34"
            .parse::<alloy_primitives::B256>()
            .unwrap()
    );
    let sigs: Vec<&str> = signatures().collect();
    for s in [
        format!("retrySendCrossChainMessage({MESSAGE})"),
        format!("retryMessageExecution(bytes32,{MESSAGE})"),
        format!("sendCrossChainMessage((bytes32,address,{FEE},uint256,address[],bytes))"),
    ] {
        assert!(sigs.contains(&s.as_str()), "{s}");
    }
}
