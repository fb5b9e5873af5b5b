//! The primary-network records of the Data API's X- and C-Chain endpoints:
//! `PrimaryNetworkChainInfo`, asset amounts, the X-Chain balance split
//! (`ListXChainBalancesResponse`), the C-Chain's atomic balances
//! (`ListCChainAtomicBalancesResponse`), the X- and C-Chain `Utxo` (`ListUtxosResponse`), `XChainVertex` (`ListXChainVerticesResponse`) and `Blockchain`, with the
//! members and enumerations of the Glacier OpenAPI. Absent optional members are omitted, never
//! `null`.

use serde::{Deserialize, Serialize};

/// `PrimaryNetworkChainName`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PrimaryChainName {
    /// The P-Chain.
    #[serde(rename = "p-chain")]
    P,
    /// The X-Chain.
    #[serde(rename = "x-chain")]
    X,
    /// The C-Chain.
    #[serde(rename = "c-chain")]
    C,
}

/// `PrimaryNetworkChainInfo`: which chain and network an answer is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrimaryChainInfo {
    /// The chain.
    pub chain_name: PrimaryChainName,
    /// The network as the request named it (`mainnet`, `fuji`, `testnet`; `local` for a local
    /// network, an extension of this service).
    pub network: String,
}

/// `PrimaryNetworkAssetType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AssetType {
    /// A fungible asset held in secp256k1 outputs.
    #[serde(rename = "secp256k1")]
    Secp256k1,
    /// A non-fungible asset.
    #[serde(rename = "nft")]
    Nft,
}

/// `AssetAmount`: an asset's description and an amount of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssetAmount {
    /// Asset id (cb58).
    pub asset_id: String,
    /// Asset name.
    pub name: String,
    /// Asset symbol.
    pub symbol: String,
    /// Decimal places of one unit.
    pub denomination: u8,
    /// Fungible or not.
    #[serde(rename = "type")]
    pub asset_type: AssetType,
    /// The amount, in the asset's smallest unit, as decimal digits.
    pub amount: String,
}

/// `AggregatedAssetAmount`: a balance of one asset and the UTXOs it sums.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AggregatedAssetAmount {
    /// The asset and the summed amount.
    #[serde(flatten)]
    pub asset: AssetAmount,
    /// How many UTXOs the amount sums.
    pub utxo_count: u64,
}

/// `XChainSharedAssetBalance` and `CChainSharedAssetBalance` (the same members): a balance in
/// atomic memory shared with another chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SharedAssetBalance {
    /// The asset and the summed amount.
    #[serde(flatten)]
    pub asset: AssetAmount,
    /// How many UTXOs the amount sums.
    pub utxo_count: u64,
    /// The other chain of the shared memory (cb58).
    pub shared_with_chain_id: String,
}

/// `XChainBalances`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct XChainBalances {
    /// Balances whose UTXOs are still time-locked.
    pub locked: Vec<AggregatedAssetAmount>,
    /// Spendable balances.
    pub unlocked: Vec<AggregatedAssetAmount>,
    /// Spendable balances in shared memory.
    pub atomic_memory_unlocked: Vec<SharedAssetBalance>,
    /// Time-locked balances in shared memory.
    pub atomic_memory_locked: Vec<SharedAssetBalance>,
}

/// `ListXChainBalancesResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListXChainBalancesResponse {
    /// The balances.
    pub balances: XChainBalances,
    /// Which chain and network.
    pub chain_info: PrimaryChainInfo,
}

/// `CChainAtomicBalances`: the C-Chain's balances in atomic memory (its EVM balances are served
/// elsewhere).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct CChainAtomicBalances {
    /// Spendable balances in shared memory.
    pub atomic_memory_unlocked: Vec<SharedAssetBalance>,
    /// Time-locked balances in shared memory.
    pub atomic_memory_locked: Vec<SharedAssetBalance>,
}

/// `ListCChainAtomicBalancesResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListCChainAtomicBalancesResponse {
    /// The balances.
    pub balances: CChainAtomicBalances,
    /// Which chain and network.
    pub chain_info: PrimaryChainInfo,
}

/// `UtxoCredential`: a signature that consumed a UTXO (base64, as the real service).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UtxoCredential {
    /// The 65-byte recoverable signature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The 33-byte compressed public key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_key: Option<String>,
}

/// The X-Chain `Utxo` record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct XUtxo {
    /// Owners (bech32 with the chain prefix, e.g. `X-avax1...`).
    pub addresses: Vec<String>,
    /// The asset and the amount held (`1` for an NFT output).
    pub asset: AssetAmount,
    /// The chain the UTXO is (or will be) consumed on.
    pub consumed_on_chain_id: String,
    /// The consuming tx, once spent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consuming_tx_hash: Option<String>,
    /// The chain whose tx created it.
    pub created_on_chain_id: String,
    /// UTXO id (cb58 of tx id prefixed with the output index).
    pub utxo_id: String,
    /// The UTXO as the node encodes it (codec version 0 + UTXO), API hex with checksum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utxo_bytes: Option<String>,
    /// Unix seconds of the consuming tx's acceptance, once spent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consuming_tx_timestamp: Option<u64>,
    /// The tx that created it.
    pub creation_tx_hash: String,
    /// Signatures that consumed it, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credentials: Option<Vec<UtxoCredential>>,
    /// NFT group id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_id: Option<u32>,
    /// Unix seconds before which it cannot be spent.
    pub locktime: u64,
    /// Index of the output in its tx, as decimal digits.
    pub output_index: String,
    /// NFT payload, hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<String>,
    /// Signatures required to spend it.
    pub threshold: u32,
    /// Unix seconds of the creating tx's acceptance.
    pub timestamp: u64,
    /// `transfer` or `mint` (the output's kind).
    pub utxo_type: String,
}

/// `ListUtxosResponse` (X- and C-Chain shape).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListUtxosResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub utxos: Vec<XUtxo>,
    /// Which chain and network.
    pub chain_info: PrimaryChainInfo,
}

/// `XChainVertex`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct XChainVertex {
    /// Vertex id (cb58).
    pub vertex_hash: String,
    /// Parent vertex ids.
    pub parent_hashes: Vec<String>,
    /// DAG height.
    pub vertex_height: u64,
    /// Position in the `X/vtx` index.
    pub vertex_index: u64,
    /// Unix seconds of acceptance.
    pub vertex_timestamp: u64,
    /// Number of txs.
    pub tx_count: u64,
    /// Tx ids.
    pub transactions: Vec<String>,
    /// Size of the vertex bytes.
    pub vertex_size_bytes: u64,
}

/// `ListXChainVerticesResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListXChainVerticesResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub vertices: Vec<XChainVertex>,
    /// Which chain and network.
    pub chain_info: PrimaryChainInfo,
}

/// `Blockchain` (`GET /v1/networks/{network}/blockchains/{blockchainId}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockchainDetails {
    /// Unix seconds of the block that created the chain (the network's genesis for P, X, C).
    pub create_block_timestamp: u64,
    /// Height of that P-Chain block, as decimal digits.
    pub create_block_number: String,
    /// Blockchain id (cb58).
    pub blockchain_id: String,
    /// VM id (cb58).
    pub vm_id: String,
    /// Subnet id (cb58).
    pub subnet_id: String,
    /// Name.
    pub blockchain_name: String,
    /// EVM chain id of EVM chains.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evm_chain_id: Option<u64>,
    /// Genesis data, when known: an object for EVM chains, a string otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub genesis_data: Option<serde_json::Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn avax(amount: &str) -> AssetAmount {
        AssetAmount {
            asset_id: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z".into(),
            name: "Avalanche".into(),
            symbol: "AVAX".into(),
            denomination: 9,
            asset_type: AssetType::Secp256k1,
            amount: amount.into(),
        }
    }

    #[test]
    fn balances_have_the_openapi_member_names() {
        // `ListXChainBalancesResponse` / `AggregatedAssetAmount` / `XChainSharedAssetBalance` of
        // glacier-data-api.json.
        let r = ListXChainBalancesResponse {
            balances: XChainBalances {
                locked: vec![],
                unlocked: vec![AggregatedAssetAmount {
                    asset: avax("5001000"),
                    utxo_count: 1,
                }],
                atomic_memory_unlocked: vec![SharedAssetBalance {
                    asset: avax("7"),
                    utxo_count: 2,
                    shared_with_chain_id: "11111111111111111111111111111111LpoYY".into(),
                }],
                atomic_memory_locked: vec![],
            },
            chain_info: PrimaryChainInfo {
                chain_name: PrimaryChainName::X,
                network: "mainnet".into(),
            },
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            concat!(
                r#"{"balances":{"locked":[],"unlocked":[{"assetId":"FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z","#,
                r#""name":"Avalanche","symbol":"AVAX","denomination":9,"type":"secp256k1","amount":"5001000","utxoCount":1}],"#,
                r#""atomicMemoryUnlocked":[{"assetId":"FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z","name":"Avalanche","#,
                r#""symbol":"AVAX","denomination":9,"type":"secp256k1","amount":"7","utxoCount":2,"#,
                r#""sharedWithChainId":"11111111111111111111111111111111LpoYY"}],"atomicMemoryLocked":[]},"#,
                r#""chainInfo":{"chainName":"x-chain","network":"mainnet"}}"#
            )
        );
    }

    #[test]
    fn c_chain_balances_have_the_openapi_member_names() {
        // `ListCChainAtomicBalancesResponse` / `CChainAtomicBalances` / `CChainSharedAssetBalance`
        // of glacier-data-api.json: the atomic memory only.
        let r = ListCChainAtomicBalancesResponse {
            balances: CChainAtomicBalances {
                atomic_memory_unlocked: vec![SharedAssetBalance {
                    asset: avax("7"),
                    utxo_count: 2,
                    shared_with_chain_id: "11111111111111111111111111111111LpoYY".into(),
                }],
                atomic_memory_locked: vec![],
            },
            chain_info: PrimaryChainInfo {
                chain_name: PrimaryChainName::C,
                network: "fuji".into(),
            },
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            concat!(
                r#"{"balances":{"atomicMemoryUnlocked":[{"assetId":"FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z","#,
                r#""name":"Avalanche","symbol":"AVAX","denomination":9,"type":"secp256k1","amount":"7","utxoCount":2,"#,
                r#""sharedWithChainId":"11111111111111111111111111111111LpoYY"}],"atomicMemoryLocked":[]},"#,
                r#""chainInfo":{"chainName":"c-chain","network":"fuji"}}"#
            )
        );
    }

    #[test]
    fn an_unspent_utxo_omits_its_consumption_instead_of_null() {
        let u = XUtxo {
            addresses: vec!["X-avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw".into()],
            asset: avax("1"),
            consumed_on_chain_id: "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM".into(),
            consuming_tx_hash: None,
            created_on_chain_id: "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM".into(),
            utxo_id: "68vLva9kfKUsX88ZPM8jdbf8qHUZRoZSFH6NdpAVTspkfrXDC".into(),
            utxo_bytes: None,
            consuming_tx_timestamp: None,
            creation_tx_hash: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z".into(),
            credentials: None,
            group_id: None,
            locktime: 0,
            output_index: "38".into(),
            payload: None,
            threshold: 1,
            timestamp: 1599696000,
            utxo_type: "transfer".into(),
        };
        let json = serde_json::to_value(&u).unwrap();
        let members: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
        // The required members of the OpenAPI `Utxo`, and nothing absent.
        for required in [
            "addresses",
            "asset",
            "consumedOnChainId",
            "createdOnChainId",
            "utxoId",
            "creationTxHash",
            "locktime",
            "outputIndex",
            "threshold",
            "timestamp",
            "utxoType",
        ] {
            assert!(members.iter().any(|m| m == required), "{required} missing");
        }
        assert_eq!(members.len(), 11, "{members:?}");
        assert!(!json.to_string().contains("null"));
    }
}
