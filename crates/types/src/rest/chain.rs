//! `ChainInfo` / `GetChainResponse` of the Data API (`GET /v1/chains`, `GET /v1/chains/{chainId}`),
//! with the enumerations of the Glacier OpenAPI (`ChainStatus`, `VmName`, `ApiFeature`).

use serde::{Deserialize, Serialize};

/// Whether a chain's nodes answer (`ChainStatus` in the OpenAPI).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ChainStatus {
    /// Serving.
    #[default]
    #[serde(rename = "OK")]
    Ok,
    /// The chain's nodes cannot be reached; requests needing them may get 503.
    #[serde(rename = "UNAVAILABLE")]
    Unavailable,
}

/// The virtual machine family of a chain (`VmName` in the OpenAPI).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum VmName {
    /// Coreth / subnet-evm.
    #[default]
    #[serde(rename = "EVM")]
    Evm,
    /// Bitcoin.
    #[serde(rename = "BITCOIN")]
    Bitcoin,
    /// Ethereum.
    #[serde(rename = "ETHEREUM")]
    Ethereum,
}

/// An optional capability of a chain, for `GET /v1/chains?feature=` (`ApiFeature`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ApiFeature {
    /// NFT metadata is indexed.
    NftIndexing,
    /// Webhooks can watch the chain.
    Webhooks,
    /// ICM (Teleporter) messages are indexed.
    Teleporter,
}

impl ApiFeature {
    /// Every feature, in the OpenAPI's order.
    pub const ALL: [ApiFeature; 3] = [Self::NftIndexing, Self::Webhooks, Self::Teleporter];

    /// The wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::NftIndexing => "nftIndexing",
            Self::Webhooks => "webhooks",
            Self::Teleporter => "teleporter",
        }
    }

    /// Parses the wire spelling (case-sensitive, as the real service).
    pub fn parse(raw: &str) -> Option<ApiFeature> {
        Self::ALL.into_iter().find(|f| f.as_str() == raw)
    }
}

/// A chain's native token (`NetworkToken`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NetworkToken {
    /// Token name, e.g. `Avalanche`.
    pub name: String,
    /// Token symbol, e.g. `AVAX`.
    pub symbol: String,
    /// Decimals of the token's smallest unit (18 for AVAX on EVM chains).
    pub decimals: u8,
    /// Logo URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo_uri: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Well-known contract addresses of a chain (`UtilityAddresses`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UtilityAddresses {
    /// The Multicall3 contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multicall: Option<String>,
}

/// One EVM chain served by the Data API: `ChainInfo` in listings, `GetChainResponse` alone
/// (the two schemas have the same members).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChainRecord {
    /// EVM chain id as a decimal string (`43114`).
    pub chain_id: String,
    /// Whether the chain's nodes answer.
    #[serde(default)]
    pub status: ChainStatus,
    /// Display name (`Avalanche (C-Chain)`).
    pub chain_name: String,
    /// Free text.
    pub description: String,
    /// The blockchain id on the P-Chain (cb58).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_chain_id: Option<String>,
    /// The subnet validating it (cb58).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subnet_id: Option<String>,
    /// The VM id (cb58).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vm_id: Option<String>,
    /// The VM family.
    #[serde(default)]
    pub vm_name: VmName,
    /// Block explorer URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explorer_url: Option<String>,
    /// JSON-RPC URL.
    pub rpc_url: String,
    /// WebSocket URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ws_url: Option<String>,
    /// Whether this is a test network chain.
    pub is_testnet: bool,
    /// Well-known contracts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub utility_addresses: Option<UtilityAddresses>,
    /// The native token.
    pub network_token: NetworkToken,
    /// Logo URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_logo_uri: Option<String>,
    /// Whether the chain is private (permissioned).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private: Option<bool>,
    /// Optional capabilities.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enabled_features: Vec<ApiFeature>,
}

impl ChainRecord {
    /// The blockchain id `platformChainId` names, when it is set and well formed.
    pub fn blockchain_id(&self) -> Option<crate::Id> {
        self.platform_chain_id.as_deref()?.parse().ok()
    }
}

/// `GET /v1/chains` (`ListChainsResponse`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListChainsResponse {
    /// The chains, in registry order.
    pub chains: Vec<ChainRecord>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minimal() -> ChainRecord {
        ChainRecord {
            chain_id: "43114".into(),
            status: ChainStatus::Ok,
            chain_name: "Avalanche (C-Chain)".into(),
            description: "The Contract Chain".into(),
            platform_chain_id: None,
            subnet_id: None,
            vm_id: None,
            vm_name: VmName::Evm,
            explorer_url: None,
            rpc_url: "https://api.avax.network/ext/bc/C/rpc".into(),
            ws_url: None,
            is_testnet: false,
            utility_addresses: None,
            network_token: NetworkToken {
                name: "Avalanche".into(),
                symbol: "AVAX".into(),
                decimals: 18,
                logo_uri: None,
                description: None,
            },
            chain_logo_uri: None,
            private: None,
            enabled_features: vec![],
        }
    }

    #[test]
    fn blockchain_id_reads_platform_chain_id() {
        // The mainnet C-Chain's blockchain id (avalanchego `genesis/genesis_mainnet.json`).
        let id = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5";
        let mut r = minimal();
        assert_eq!(r.blockchain_id(), None);
        r.platform_chain_id = Some(id.into());
        assert_eq!(
            r.blockchain_id().map(|i| i.to_string()).as_deref(),
            Some(id)
        );
        r.platform_chain_id = Some("not cb58".into());
        assert_eq!(r.blockchain_id(), None);
    }

    #[test]
    fn absent_optionals_are_omitted_not_null() {
        let json = serde_json::to_string(&minimal()).unwrap();
        assert!(!json.contains("null"), "{json}");
        assert_eq!(
            json,
            r#"{"chainId":"43114","status":"OK","chainName":"Avalanche (C-Chain)","description":"The Contract Chain","vmName":"EVM","rpcUrl":"https://api.avax.network/ext/bc/C/rpc","isTestnet":false,"networkToken":{"name":"Avalanche","symbol":"AVAX","decimals":18}}"#
        );
    }

    #[test]
    fn enums_use_the_openapi_spellings() {
        // Enumerations of `glacier-data-api.json`: ChainStatus, VmName, ApiFeature.
        assert_eq!(
            serde_json::to_string(&ChainStatus::Unavailable).unwrap(),
            r#""UNAVAILABLE""#
        );
        assert_eq!(
            serde_json::to_string(&VmName::Bitcoin).unwrap(),
            r#""BITCOIN""#
        );
        for f in ApiFeature::ALL {
            let json = serde_json::to_string(&f).unwrap();
            assert_eq!(json, format!("\"{}\"", f.as_str()));
            assert_eq!(ApiFeature::parse(f.as_str()), Some(f));
        }
        assert_eq!(ApiFeature::parse("NFTINDEXING"), None);
    }

    #[test]
    fn a_record_with_an_unknown_member_is_refused() {
        let mut v = serde_json::to_value(minimal()).unwrap();
        v["rpcURL"] = "x".into();
        assert!(serde_json::from_value::<ChainRecord>(v).is_err());
    }
}
