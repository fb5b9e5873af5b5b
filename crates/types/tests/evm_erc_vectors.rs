//! Token transfers from logs, the token `eth_call`s and the interface ids of
//! `snowline_types::evm::{erc, erc_calls, erc_detect}`, on the EIPs' own identifiers, coreth's
//! golden receipt log and logs encoded by hand per the Solidity ABI specification ("Formal
//! Specification of the Encoding").
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

use snowline_types::evm::erc::TokenTransferKind;
use snowline_types::evm::{
    Address, B256, ERC165_INTERFACE_ID, ERC721_INTERFACE_ID, ERC721_METADATA_INTERFACE_ID,
    ERC1155_INTERFACE_ID, ERC1155_METADATA_URI_INTERFACE_ID, INVALID_INTERFACE_ID, RpcReceipt,
    TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC, TokenCall, TransferLog, U256,
    decode_bool, decode_decimals, decode_text, decode_transfer_log, decode_u256, keccak256,
    selector,
};

fn hex(s: &str) -> Vec<u8> {
    alloy_primitives::hex::decode(s.replace([' ', '\n'], "")).unwrap()
}

fn word(n: u64) -> String {
    format!("{n:064x}")
}

fn topic_of(a: Address) -> B256 {
    let mut t = [0u8; 32];
    t[12..].copy_from_slice(a.as_slice());
    B256::from(t)
}

fn xor(sigs: &[&str]) -> [u8; 4] {
    sigs.iter().fold([0u8; 4], |acc, s| {
        let x = selector(s);
        [acc[0] ^ x[0], acc[1] ^ x[1], acc[2] ^ x[2], acc[3] ^ x[3]]
    })
}

#[test]
fn event_topics_are_the_keccak_of_their_signatures() {
    // EIP-20 `event Transfer(address indexed _from, address indexed _to, uint256 _value)`,
    // EIP-721 `Transfer(address,address,uint256)` (same signature, tokenId indexed),
    // EIP-1155 `TransferSingle` / `TransferBatch`. The hex is the topic as OpenZeppelin-compiled
    // contracts emit it (e.g. the `PUSH32 0xddf252ad...` of OpenZeppelin's ERC20 `_transfer`).
    assert_eq!(
        keccak256("Transfer(address,address,uint256)"),
        "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
            .parse::<B256>()
            .unwrap()
    );
    assert_eq!(
        keccak256("Transfer(address,address,uint256)"),
        TRANSFER_TOPIC
    );
    assert_eq!(
        keccak256("TransferSingle(address,address,address,uint256,uint256)"),
        TRANSFER_SINGLE_TOPIC
    );
    assert_eq!(
        keccak256("TransferBatch(address,address,address,uint256[],uint256[])"),
        TRANSFER_BATCH_TOPIC
    );
}

#[test]
fn interface_ids_are_the_xor_of_the_eips_function_lists() {
    // EIP-165: "the ERC-165 identifier for this interface is 0x01ffc9a7" = supportsInterface.
    assert_eq!(selector("supportsInterface(bytes4)"), ERC165_INTERFACE_ID);
    assert_eq!(ERC165_INTERFACE_ID, [0x01, 0xff, 0xc9, 0xa7]);
    // EIP-721: "Note: the ERC-165 identifier for this interface is 0x80ac58cd."
    assert_eq!(ERC721_INTERFACE_ID, [0x80, 0xac, 0x58, 0xcd]);
    assert_eq!(
        xor(&[
            "balanceOf(address)",
            "ownerOf(uint256)",
            "safeTransferFrom(address,address,uint256,bytes)",
            "safeTransferFrom(address,address,uint256)",
            "transferFrom(address,address,uint256)",
            "approve(address,uint256)",
            "setApprovalForAll(address,bool)",
            "getApproved(uint256)",
            "isApprovedForAll(address,address)",
        ]),
        ERC721_INTERFACE_ID
    );
    // EIP-721 metadata extension 0x5b5e139f and enumeration extension 0x780e9d63.
    assert_eq!(
        xor(&["name()", "symbol()", "tokenURI(uint256)"]),
        [0x5b, 0x5e, 0x13, 0x9f]
    );
    assert_eq!(ERC721_METADATA_INTERFACE_ID, [0x5b, 0x5e, 0x13, 0x9f]);
    assert_eq!(
        xor(&[
            "totalSupply()",
            "tokenByIndex(uint256)",
            "tokenOfOwnerByIndex(address,uint256)"
        ]),
        [0x78, 0x0e, 0x9d, 0x63]
    );
    // EIP-1155: "The ERC-165 identifier for this interface is 0xd9b67a26", and the metadata URI
    // extension 0x0e89341c, which is `uri(uint256)` alone.
    assert_eq!(ERC1155_INTERFACE_ID, [0xd9, 0xb6, 0x7a, 0x26]);
    assert_eq!(
        xor(&[
            "safeTransferFrom(address,address,uint256,uint256,bytes)",
            "safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)",
            "balanceOf(address,uint256)",
            "balanceOfBatch(address[],uint256[])",
            "setApprovalForAll(address,bool)",
            "isApprovedForAll(address,address)",
        ]),
        ERC1155_INTERFACE_ID
    );
    assert_eq!(selector("uri(uint256)"), [0x0e, 0x89, 0x34, 0x1c]);
    assert_eq!(ERC1155_METADATA_URI_INTERFACE_ID, [0x0e, 0x89, 0x34, 0x1c]);
    assert_eq!(INVALID_INTERFACE_ID, [0xff; 4]);
}

#[test]
fn calldata_of_the_token_calls() {
    // EIP-165 "How to Detect": the call to supportsInterface(0x01ffc9a7) has input
    // 0x01ffc9a701ffc9a7 followed by 28 zero bytes.
    assert_eq!(
        TokenCall::SupportsInterface(ERC165_INTERFACE_ID).calldata(),
        hex("01ffc9a701ffc9a700000000000000000000000000000000000000000000000000000000")
    );
    assert_eq!(
        TokenCall::SupportsInterface(INVALID_INTERFACE_ID).calldata(),
        hex("01ffc9a7ffffffff00000000000000000000000000000000000000000000000000000000")
    );
    // No-argument calls are the bare selector.
    for (call, sig) in [
        (TokenCall::Name, "name()"),
        (TokenCall::Symbol, "symbol()"),
        (TokenCall::Decimals, "decimals()"),
        (TokenCall::TotalSupply, "totalSupply()"),
    ] {
        assert_eq!(call.calldata(), selector(sig).to_vec(), "{sig}");
    }
    // A uint256 argument is one big-endian word after the selector.
    let mut want = selector("tokenURI(uint256)").to_vec();
    want.extend(hex(&word(7)));
    assert_eq!(TokenCall::TokenUri(U256::from(7)).calldata(), want);
    let mut want = selector("uri(uint256)").to_vec();
    want.extend(hex(&word(0x1234)));
    assert_eq!(TokenCall::Uri(U256::from(0x1234)).calldata(), want);
}

#[test]
fn decoding_the_answers() {
    // `string` return data per the ABI spec: offset 0x20, length, padded bytes.
    let wavax = hex(&format!(
        "{}{}{}",
        word(0x20),
        word(12),
        "5772617070656420415641580000000000000000000000000000000000000000"
    ));
    assert_eq!(decode_text(&wavax).as_deref(), Some("Wrapped AVAX"));
    // A string padded with NULs inside its length ("USDC" then 4 zero bytes, length 8).
    let padded = hex(&format!(
        "{}{}{}",
        word(0x20),
        word(8),
        "5553444300000000000000000000000000000000000000000000000000000000"
    ));
    assert_eq!(decode_text(&padded).as_deref(), Some("USDC"));
    // MKR's `name()` returns bytes32 "Maker" (0x4d616b6572 then zeros).
    let maker = hex("4d616b6572000000000000000000000000000000000000000000000000000000");
    assert_eq!(decode_text(&maker).as_deref(), Some("Maker"));
    // Reverted calls answer nothing; a short answer is no answer.
    assert_eq!(decode_text(&[]), None);
    assert_eq!(decode_text(&[0x41; 31]), None);
    // A string whose length runs past the data is no answer.
    let bad = hex(&format!("{}{}", word(0x20), word(1000)));
    assert_eq!(decode_text(&bad), None);

    assert_eq!(decode_decimals(&hex(&word(18))), Some(18));
    assert_eq!(decode_decimals(&hex(&word(255))), Some(255));
    assert_eq!(decode_decimals(&hex(&word(256))), None);
    assert_eq!(decode_decimals(&[]), None);
    assert_eq!(decode_bool(&hex(&word(1))), Some(true));
    assert_eq!(decode_bool(&hex(&word(0))), Some(false));
    assert_eq!(decode_bool(&hex(&word(2))), None);
    assert_eq!(decode_bool(&[1]), None);
    assert_eq!(
        decode_u256(&hex(&word(1_000_000))),
        Some(U256::from(1_000_000))
    );
}

#[test]
fn erc20_transfer_from_corets_receipt() {
    // graft/coreth/internal/ethapi/testdata/eth_getTransactionReceipt-with-logs.json: Transfer
    // from 0x703c...46c7 to 0x...03 of 0x0d.
    let r: RpcReceipt<'_> = serde_json::from_str(include_str!(
        "fixtures/evm/coreth-eth_getTransactionReceipt-with-logs.json"
    ))
    .unwrap();
    let log = &r.logs[0];
    let data = log.data.decode().unwrap();
    let decoded = decode_transfer_log(&log.topics, &data).unwrap();
    let from: Address = "0x703c4b2bd70c169f5717101caee543299fc946c7"
        .parse()
        .unwrap();
    let to: Address = "0x0000000000000000000000000000000000000003"
        .parse()
        .unwrap();
    assert_eq!(
        decoded,
        TransferLog::Erc20 {
            from,
            to,
            value: U256::from(13)
        }
    );
    let t = decoded.transfers(log.address, log.log_index);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].contract, log.address);
    assert_eq!(t[0].log_index, 0);
    assert_eq!(
        t[0].kind,
        TokenTransferKind::Erc20 {
            value: U256::from(13)
        }
    );
}

fn a(n: u8) -> Address {
    Address::repeat_byte(n)
}

#[test]
fn erc721_transfer_has_the_id_as_fourth_topic() {
    let topics = [
        TRANSFER_TOPIC,
        topic_of(Address::ZERO),
        topic_of(a(2)),
        B256::from(U256::from(42)),
    ];
    assert_eq!(
        decode_transfer_log(&topics, &[]),
        Some(TransferLog::Erc721 {
            from: Address::ZERO,
            to: a(2),
            token_id: U256::from(42)
        })
    );
    // Same topic, but data present: neither ERC-20 nor ERC-721.
    assert_eq!(decode_transfer_log(&topics, &[0; 32]), None);
}

#[test]
fn erc1155_single_and_batch() {
    let topics = [
        TRANSFER_SINGLE_TOPIC,
        topic_of(a(9)),
        topic_of(a(1)),
        topic_of(a(2)),
    ];
    let data = hex(&format!("{}{}", word(7), word(100)));
    assert_eq!(
        decode_transfer_log(&topics, &data),
        Some(TransferLog::Erc1155 {
            operator: a(9),
            from: a(1),
            to: a(2),
            amounts: vec![(U256::from(7), U256::from(100))]
        })
    );
    // TransferBatch(ids [1, 2], values [10, 20]): two dynamic arrays, encoded as the ABI spec
    // lays out a (uint256[], uint256[]) tuple: head offsets 0x40 and 0xa0, then each array's
    // length and elements.
    let topics = [
        TRANSFER_BATCH_TOPIC,
        topic_of(a(9)),
        topic_of(a(1)),
        topic_of(a(2)),
    ];
    let data = hex(&[
        word(0x40),
        word(0xa0),
        word(2),
        word(1),
        word(2),
        word(2),
        word(10),
        word(20),
    ]
    .concat());
    let decoded = decode_transfer_log(&topics, &data).unwrap();
    let transfers = decoded.transfers(a(5), 17);
    let got: Vec<_> = transfers.iter().map(|t| (t.log_index, t.kind)).collect();
    assert_eq!(
        got,
        [
            (
                17,
                TokenTransferKind::Erc1155 {
                    token_id: U256::from(1),
                    value: U256::from(10)
                }
            ),
            (
                17,
                TokenTransferKind::Erc1155 {
                    token_id: U256::from(2),
                    value: U256::from(20)
                }
            ),
        ]
    );
    // Arrays of different lengths are malformed.
    let uneven = hex(&[word(0x40), word(0x80), word(1), word(1), word(0)].concat());
    assert_eq!(decode_transfer_log(&topics, &uneven), None);
    // An offset past the data is malformed.
    let past = hex(&[word(0x40), word(0x1000)].concat());
    assert_eq!(decode_transfer_log(&topics, &past), None);
}

#[test]
fn malformed_logs_are_not_transfers() {
    let t = topic_of(a(1));
    // No topics; an unrelated topic; the ERC-20 shape with data of the wrong length; a topic
    // that is not a zero-padded address; TransferSingle with three topics.
    assert_eq!(decode_transfer_log(&[], &[]), None);
    assert_eq!(decode_transfer_log(&[B256::ZERO, t, t], &[0; 32]), None);
    assert_eq!(decode_transfer_log(&[TRANSFER_TOPIC, t, t], &[0; 31]), None);
    assert_eq!(decode_transfer_log(&[TRANSFER_TOPIC, t, t], &[0; 64]), None);
    assert_eq!(
        decode_transfer_log(&[TRANSFER_TOPIC, B256::repeat_byte(0xff), t], &[0; 32]),
        None
    );
    assert_eq!(
        decode_transfer_log(&[TRANSFER_SINGLE_TOPIC, t, t], &[0; 64]),
        None
    );
    assert_eq!(decode_transfer_log(&[TRANSFER_TOPIC], &[]), None);
    // call_tracer_withLog/multilogs.json: none of its logs is a transfer.
    let f: serde_json::Value = serde_json::from_str(include_str!(
        "fixtures/evm/calltracer-withlog-multilogs.json"
    ))
    .unwrap();
    let logs = f["logs"].as_array().unwrap();
    assert!(!logs.is_empty());
    for l in logs {
        let topics: Vec<B256> = serde_json::from_value(l["topics"].clone()).unwrap();
        let data = hex(l["data"].as_str().unwrap().trim_start_matches("0x"));
        assert_eq!(decode_transfer_log(&topics, &data), None);
    }
}

#[test]
fn real_nft_logs_decode_as_alchemy_decoded_them() {
    // docs.alchemy.com/reference/nft-activity-webhook, "Example Response": real logs with
    // Alchemy's own decoding beside them.
    // ERC-721 (BAYC, Ethereum mainnet tx 0xe6385e88...4ea4, logIndex 0x9c): fromAddress
    // 0x715a...8896, toAddress 0x2946...a20b, erc721TokenId 0x1eeb.
    let topics: Vec<B256> = [
        "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
        "0x000000000000000000000000715af6b6c6e3aefb97f1f6811ce52db563b38896",
        "0x00000000000000000000000029469395eaf6f95920e59f858042f0e28d98a20b",
        "0x0000000000000000000000000000000000000000000000000000000000001eeb",
    ]
    .iter()
    .map(|t| t.parse().unwrap())
    .collect();
    assert_eq!(
        decode_transfer_log(&topics, &[]),
        Some(TransferLog::Erc721 {
            from: "0x715af6b6c6e3aefb97f1f6811ce52db563b38896"
                .parse()
                .unwrap(),
            to: "0x29469395eaf6f95920e59f858042f0e28d98a20b"
                .parse()
                .unwrap(),
            token_id: U256::from(0x1eeb),
        })
    );
    // ERC-1155 TransferSingle (contract 0x88b4...a656, tx 0xc8d14d66...68a1): fromAddress
    // 0x15dd...7185, toAddress 0xfae4...693d, erc1155Metadata tokenId
    // 0x15dd13f3...7185000000000000020000000001, value 0x1.
    let topics: Vec<B256> = [
        "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62",
        "0x00000000000000000000000015dd13f3c4c5279222b5f09ed1b9e9340ed17185",
        "0x00000000000000000000000015dd13f3c4c5279222b5f09ed1b9e9340ed17185",
        "0x000000000000000000000000fae46f94ee7b2acb497cecaff6cff17f621c693d",
    ]
    .iter()
    .map(|t| t.parse().unwrap())
    .collect();
    let data = hex(
        "15dd13f3c4c5279222b5f09ed1b9e9340ed17185000000000000020000000001\
         0000000000000000000000000000000000000000000000000000000000000001",
    );
    let holder: Address = "0x15dd13f3c4c5279222b5f09ed1b9e9340ed17185"
        .parse()
        .unwrap();
    assert_eq!(
        decode_transfer_log(&topics, &data),
        Some(TransferLog::Erc1155 {
            operator: holder,
            from: holder,
            to: "0xfae46f94ee7b2acb497cecaff6cff17f621c693d"
                .parse()
                .unwrap(),
            amounts: vec![(
                "0x15dd13f3c4c5279222b5f09ed1b9e9340ed17185000000000000020000000001"
                    .parse()
                    .unwrap(),
                U256::from(1)
            )],
        })
    );
}
