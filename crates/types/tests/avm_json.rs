#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns
//! avalanchego `encoding: "json"` renderings, checked against two mainnet txs from avalanchego's
//! docs. The docs give only the JSON, so each test rebuilds the tx from it, checks the tx id
//! (sha256 of the bytes: a byte-exact encoding is the only way to hit it), then checks that
//! parsing those bytes and rendering them gives the documented JSON exactly.

use snowline_types::avm::{
    BaseTx, Credential, ExportTx, ImportTx, StandardBlock, TransferableIn, TransferableInput,
    TransferableOut, TransferableOutput, Tx, UnsignedTx,
};
use snowline_types::components::UtxoId;
use snowline_types::components::json::{JsonCtx, to_json_string};
use snowline_types::fx::secp256k1fx::{
    Credential as SecpCred, Input, OutputOwners, TransferInput, TransferOutput,
};
use snowline_types::{Id, ShortId};

fn id(s: &str) -> Id {
    s.parse().unwrap()
}

fn addr(s: &str) -> ShortId {
    let (_, data) = bech32::decode(s.trim_start_matches("X-")).unwrap();
    ShortId::from_slice(&data).unwrap()
}

fn sig(s: &str) -> [u8; 65] {
    hex::decode(s.trim_start_matches("0x"))
        .unwrap()
        .try_into()
        .unwrap()
}

/// Removes the pretty-printing whitespace of a docs sample (its strings contain no spaces).
fn minify(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

const AVAX: &str = "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z";
const X_CHAIN: &str = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM";
const P_CHAIN: &str = "11111111111111111111111111111111LpoYY";

fn input(tx: &str, index: u32, amount: u64) -> TransferableInput {
    TransferableInput {
        utxo_id: UtxoId::new(id(tx), index),
        asset_id: id(AVAX),
        input: TransferableIn::Secp256k1(TransferInput {
            amount,
            input: Input {
                sig_indices: vec![0],
            },
        }),
    }
}

fn output(amount: u64, to: &str) -> TransferableOutput {
    TransferableOutput {
        asset_id: id(AVAX),
        output: TransferableOut::Secp256k1(TransferOutput {
            amount,
            owners: OutputOwners::new(1, vec![addr(to)]),
        }),
    }
}

fn cred(s: &str) -> Credential {
    Credential::Secp256k1(SecpCred { sigs: vec![sig(s)] })
}

/// vector: avalanchego vms/avm/service.md (avm.getTx example, mainnet ExportTx).
const EXPORT_JSON: &str = r#"{
      "unsignedTx": {
        "networkID": 1,
        "blockchainID": "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM",
        "outputs": [],
        "inputs": [
          {
            "txID": "2jbZUvi6nHy3Pgmk8xcMpSg5cW6epkPqdKkHSCweb4eRXtq4k9",
            "outputIndex": 1,
            "assetID": "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
            "fxID": "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ",
            "input": {
              "amount": 2570382395,
              "signatureIndices": [0]
            }
          }
        ],
        "memo": "0x",
        "destinationChain": "11111111111111111111111111111111LpoYY",
        "exportedOutputs": [
          {
            "assetID": "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
            "fxID": "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ",
            "output": {
              "addresses": ["X-avax1tnuesf6cqwnjw7fxjyk7lhch0vhf0v95wj5jvy"],
              "amount": 2569382395,
              "locktime": 0,
              "threshold": 1
            }
          }
        ]
      },
      "credentials": [
        {
          "fxID": "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ",
          "credential": {
            "signatures": [
              "0x46ebcbcfbee3ece1fd15015204045cf3cb77f42c48d0201fc150341f91f086f177cfca8894ca9b4a0c55d6950218e4ea8c01d5c4aefb85cd7264b47bd57d224400"
            ]
          }
        }
      ],
      "id": "2oJCbb8pfdxEHAf9A8CdN4Afj9VSR3xzyzNkf8tDv7aM1sfNFL"
    }"#;

/// vector: avalanchego docs site, X-Chain API `avm.getTx` example (mainnet ImportTx
/// `KMcVWV1…`; the sample predates the trailing `"id"` member, appended here).
const IMPORT_JSON: &str = r#"{
            "unsignedTx": {
                "networkID": 1,
                "blockchainID": "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM",
                "outputs": [
                    {
                        "assetID": "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
                        "fxID": "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ",
                        "output": {
                            "addresses": [
                                "X-avax126rd3w35xwkmj8670zvf7y5r8k36qa9z9803wm"
                            ],
                            "amount": 1530084210,
                            "locktime": 0,
                            "threshold": 1
                        }
                    }
                ],
                "inputs": [],
                "memo": "0x",
                "sourceChain": "11111111111111111111111111111111LpoYY",
                "importedInputs": [
                    {
                        "txID": "28jfD1CViCz7CKawJBzmHCQRWtk6xwzcBjCVErH6dBo11JLvmw",
                        "outputIndex": 0,
                        "assetID": "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
                        "fxID": "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ",
                        "input": {
                            "amount": 1531084210,
                            "signatureIndices": [
                                0
                            ]
                        }
                    }
                ]
            },
            "credentials": [
                {
                    "fxID": "spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ",
                    "credential": {
                        "signatures": [
                            "0x447ea3c6725add24e240b3179f9cc28ab5410c48f822d32d12459861ca816765297dbfe07e1957e3b470d39e6f56f10269dd7f8c4e108857db874b2c4ba1a22401"
                        ]
                    }
                }
            ],
            "id": "KMcVWV1dJAuWQXfrJgNFFr9uPHqXELQNZoFWoosYVqQV5qGj5"
        }"#;

fn mainnet_base() -> BaseTx {
    BaseTx {
        network_id: 1,
        blockchain_id: id(X_CHAIN),
        ..BaseTx::default()
    }
}

fn check(tx: Tx, want_id: &str, want_json: &str) {
    let ctx = JsonCtx::new("X", "avax").unwrap();
    assert_eq!(tx.id().to_string(), want_id);
    let parsed = Tx::parse(&tx.bytes()).unwrap();
    assert_eq!(parsed.tx, tx);
    assert_eq!(to_json_string(&parsed, &ctx), minify(want_json));
    assert_eq!(to_json_string(&tx, &ctx), minify(want_json));
    tx.verify(1, &id(X_CHAIN)).unwrap();
}

#[test]
fn mainnet_export_tx_bytes_id_and_json() {
    let tx = Tx::new(
        UnsignedTx::Export(ExportTx {
            base: BaseTx {
                inputs: vec![input(
                    "2jbZUvi6nHy3Pgmk8xcMpSg5cW6epkPqdKkHSCweb4eRXtq4k9",
                    1,
                    2_570_382_395,
                )],
                ..mainnet_base()
            },
            destination_chain: id(P_CHAIN),
            exported_outputs: vec![output(
                2_569_382_395,
                "X-avax1tnuesf6cqwnjw7fxjyk7lhch0vhf0v95wj5jvy",
            )],
        }),
        vec![cred(
            "0x46ebcbcfbee3ece1fd15015204045cf3cb77f42c48d0201fc150341f91f086f177cfca8894ca9b4a0c55d6950218e4ea8c01d5c4aefb85cd7264b47bd57d224400",
        )],
    );
    check(
        tx,
        "2oJCbb8pfdxEHAf9A8CdN4Afj9VSR3xzyzNkf8tDv7aM1sfNFL",
        EXPORT_JSON,
    );
}

#[test]
fn mainnet_import_tx_bytes_id_and_json() {
    let tx = Tx::new(
        UnsignedTx::Import(ImportTx {
            base: BaseTx {
                outputs: vec![output(
                    1_530_084_210,
                    "X-avax126rd3w35xwkmj8670zvf7y5r8k36qa9z9803wm",
                )],
                ..mainnet_base()
            },
            source_chain: id(P_CHAIN),
            imported_inputs: vec![input(
                "28jfD1CViCz7CKawJBzmHCQRWtk6xwzcBjCVErH6dBo11JLvmw",
                0,
                1_531_084_210,
            )],
        }),
        vec![cred(
            "0x447ea3c6725add24e240b3179f9cc28ab5410c48f822d32d12459861ca816765297dbfe07e1957e3b470d39e6f56f10269dd7f8c4e108857db874b2c4ba1a22401",
        )],
    );
    check(
        tx,
        "KMcVWV1dJAuWQXfrJgNFFr9uPHqXELQNZoFWoosYVqQV5qGj5",
        IMPORT_JSON,
    );
}

#[test]
fn block_json_and_tx_ids_inside_blocks() {
    // vms/avm/block/standard_block.go: a block's txs carry no version; each id is
    // sha256(0x0000 ‖ tx bytes), i.e. the id the same tx has on its own.
    let export = Tx::new(
        UnsignedTx::Export(ExportTx {
            base: BaseTx {
                inputs: vec![input(
                    "2jbZUvi6nHy3Pgmk8xcMpSg5cW6epkPqdKkHSCweb4eRXtq4k9",
                    1,
                    2_570_382_395,
                )],
                ..mainnet_base()
            },
            destination_chain: id(P_CHAIN),
            exported_outputs: vec![output(
                2_569_382_395,
                "X-avax1tnuesf6cqwnjw7fxjyk7lhch0vhf0v95wj5jvy",
            )],
        }),
        vec![cred(
            "0x46ebcbcfbee3ece1fd15015204045cf3cb77f42c48d0201fc150341f91f086f177cfca8894ca9b4a0c55d6950218e4ea8c01d5c4aefb85cd7264b47bd57d224400",
        )],
    );
    let block = StandardBlock {
        parent_id: id(X_CHAIN),
        height: 7,
        time: 1_700_000_000,
        merkle_root: Id::EMPTY,
        txs: vec![export.clone()],
    };
    let bytes = block.bytes();
    assert_eq!(&bytes[..6], &[0, 0, 0, 0, 0, 20]);
    let parsed = StandardBlock::parse(&bytes).unwrap();
    assert_eq!(parsed.block, block);
    assert_eq!(parsed.id, block.id());
    assert_eq!(
        parsed.tx_ids[0].to_string(),
        "2oJCbb8pfdxEHAf9A8CdN4Afj9VSR3xzyzNkf8tDv7aM1sfNFL"
    );
    assert_eq!(parsed.tx_signed_bytes(0).unwrap(), export.bytes());
    let ctx = JsonCtx::new("X", "avax").unwrap();
    let want = format!(
        r#"{{"parentID":"{X_CHAIN}","height":7,"time":1700000000,"merkleRoot":"{P_CHAIN}","txs":[{}],"id":"{}"}}"#,
        minify(EXPORT_JSON),
        parsed.id
    );
    assert_eq!(to_json_string(&parsed, &ctx), want);
}
