//! Network ids, names and bech32 HRPs (avalanchego `utils/constants/network_ids.go`), the primary
//! network's chain aliases (`genesis/aliases.go`), and the well-known ids and X-Chain fees of
//! mainnet, Fuji and the local network (`genesis/genesis_test.go`, `genesis/genesis_*.go`).

use std::borrow::Cow;

use crate::id::Id;

/// Mainnet.
pub const MAINNET_ID: u32 = 1;
/// Cascade, a retired test network.
pub const CASCADE_ID: u32 = 2;
/// Denali, a retired test network.
pub const DENALI_ID: u32 = 3;
/// Everest, a retired test network.
pub const EVEREST_ID: u32 = 4;
/// Fuji, the public test network.
pub const FUJI_ID: u32 = 5;
/// `testnet` is another name for Fuji.
pub const TESTNET_ID: u32 = FUJI_ID;
/// The network avalanchego's unit tests use (`testing`).
pub const UNIT_TEST_ID: u32 = 10;
/// The default local (single-machine) network.
pub const LOCAL_ID: u32 = 12345;

/// The HRP of every network id without one of its own.
pub const FALLBACK_HRP: &str = "custom";

/// The prefix of a network name that spells out its id (`network-1337`).
pub const NETWORK_NAME_PREFIX: &str = "network-";

/// `(id, name, hrp)` for every named network, in avalanchego's order.
const NAMED: [(u32, &str, &str); 7] = [
    (MAINNET_ID, "mainnet", "avax"),
    (CASCADE_ID, "cascade", "cascade"),
    (DENALI_ID, "denali", "denali"),
    (EVEREST_ID, "everest", "everest"),
    (FUJI_ID, "fuji", "fuji"),
    (UNIT_TEST_ID, "testing", "testing"),
    (LOCAL_ID, "local", "local"),
];

/// Why a network name was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// Neither a known name nor a (`network-`)decimal u32 (avalanchego `ErrParseNetworkName`;
    /// the name is shown lower-cased, as there).
    #[error("failed to parse network name: {0:?}")]
    ParseName(String),
}

/// Why an instance that indexes one network refuses a `{network}` path value: the REST edge
/// answers 400 for [`NetworkRefusal::Invalid`] and 404 for [`NetworkRefusal::NotIndexed`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkRefusal {
    /// Not a network name the instance accepts: what is allowed and what was given.
    #[error("{0}")]
    Invalid(String),
    /// A valid network the instance does not index.
    #[error("network {asked} is not indexed by this instance (it indexes {indexed})")]
    NotIndexed {
        /// The value given.
        asked: String,
        /// The name of the network indexed.
        indexed: &'static str,
    },
}

/// The bech32 HRP of addresses on `network_id`; `custom` for ids without one (avalanchego
/// `constants.GetHRP`).
pub fn hrp(network_id: u32) -> &'static str {
    NAMED
        .iter()
        .find(|(id, _, _)| *id == network_id)
        .map_or(FALLBACK_HRP, |(_, _, hrp)| hrp)
}

/// The name of `network_id`, or `network-<id>` for unnamed ids (avalanchego
/// `constants.NetworkName`).
pub fn network_name(network_id: u32) -> Cow<'static, str> {
    match NAMED.iter().find(|(id, _, _)| *id == network_id) {
        Some((_, name, _)) => Cow::Borrowed(name),
        None => Cow::Owned(format!("{NETWORK_NAME_PREFIX}{network_id}")),
    }
}

/// The id a network name stands for, as avalanchego's `constants.NetworkID`: names are
/// case-insensitive, `testnet` is Fuji, and `network-<id>` or a bare decimal id give that id.
pub fn network_id(name: &str) -> Result<u32, NetworkError> {
    let lower = name.to_lowercase();
    if lower == "testnet" {
        return Ok(TESTNET_ID);
    }
    if let Some((id, _, _)) = NAMED.iter().find(|(_, n, _)| *n == lower) {
        return Ok(*id);
    }
    let digits = lower.strip_prefix(NETWORK_NAME_PREFIX).unwrap_or(&lower);
    parse_decimal_u32(digits).ok_or(NetworkError::ParseName(lower))
}

/// Go `strconv.ParseUint(s, 10, 32)`: ASCII digits only (no sign, no spaces), at most `u32::MAX`.
fn parse_decimal_u32(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// One of the three chains of the primary network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Chain {
    /// The Platform Chain (`P`, `platform`).
    P,
    /// The Exchange Chain (`X`, `avm`).
    X,
    /// The Contract Chain (`C`, `evm`).
    C,
}

impl Chain {
    /// All three, in P, X, C order.
    pub const ALL: [Chain; 3] = [Chain::P, Chain::X, Chain::C];

    /// The chain's aliases, primary first (avalanchego `genesis/aliases.go`).
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            Chain::P => &["P", "platform"],
            Chain::X => &["X", "avm"],
            Chain::C => &["C", "evm"],
        }
    }

    /// The primary alias (`P`, `X` or `C`), used in address strings and JSON output.
    pub const fn primary_alias(self) -> &'static str {
        match self {
            Chain::P => "P",
            Chain::X => "X",
            Chain::C => "C",
        }
    }

    /// The chain an alias names (exact, case-sensitive match, as avalanchego's aliaser).
    pub fn from_alias(alias: &str) -> Option<Chain> {
        Chain::ALL
            .into_iter()
            .find(|c| c.aliases().contains(&alias))
    }
}

/// The X-Chain's static fees in nAVAX (avalanchego `genesis.TxFeeConfig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct XChainFees {
    /// Fee of every transaction except asset creation.
    pub tx_fee: u64,
    /// Fee of a `CreateAssetTx`.
    pub create_asset_tx_fee: u64,
}

/// One milli-AVAX in nAVAX (avalanchego `units.MilliAvax`).
pub const MILLI_AVAX: u64 = 1_000_000;

impl XChainFees {
    /// The X-Chain fees of `network_id`: mainnet and Fuji charge 10 mAVAX to create an asset,
    /// every other network uses the local parameters (avalanchego `genesis.GetTxFeeConfig`).
    pub const fn for_network(network_id: u32) -> XChainFees {
        match network_id {
            MAINNET_ID | FUJI_ID => XChainFees {
                tx_fee: MILLI_AVAX,
                create_asset_tx_fee: 10 * MILLI_AVAX,
            },
            _ => XChainFees {
                tx_fee: MILLI_AVAX,
                create_asset_tx_fee: MILLI_AVAX,
            },
        }
    }
}

/// What is known in advance about a network whose genesis is public: its names, HRP, the ids of
/// its three primary chains and of AVAX, and its X-Chain fees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkInfo {
    /// The network id.
    pub network_id: u32,
    /// Its canonical name (`mainnet`, `fuji`, `local`).
    pub name: &'static str,
    /// Its bech32 HRP.
    pub hrp: &'static str,
    /// P-Chain id (all zeros on every network).
    pub p_chain_id: Id,
    /// X-Chain id.
    pub x_chain_id: Id,
    /// C-Chain id.
    pub c_chain_id: Id,
    /// The AVAX asset id: the id of the X-Chain genesis `CreateAssetTx`.
    pub avax_asset_id: Id,
    /// X-Chain fees.
    pub x_fees: XChainFees,
}

impl NetworkInfo {
    /// Mainnet (id 1, HRP `avax`).
    pub const MAINNET: NetworkInfo = NetworkInfo {
        network_id: MAINNET_ID,
        name: "mainnet",
        hrp: "avax",
        p_chain_id: Id::EMPTY,
        // 2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM
        x_chain_id: Id([
            0xed, 0x5f, 0x38, 0x34, 0x1e, 0x43, 0x6e, 0x5d, 0x46, 0xe2, 0xbb, 0x00, 0xb4, 0x5d,
            0x62, 0xae, 0x97, 0xd1, 0xb0, 0x50, 0xc6, 0x4b, 0xc6, 0x34, 0xae, 0x10, 0x62, 0x67,
            0x39, 0xe3, 0x5c, 0x4b,
        ]),
        // 2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5
        c_chain_id: Id([
            0x04, 0x27, 0xd4, 0xb2, 0x2a, 0x2a, 0x78, 0xbc, 0xdd, 0xd4, 0x56, 0x74, 0x2c, 0xaf,
            0x91, 0xb5, 0x6b, 0xad, 0xbf, 0xf9, 0x85, 0xee, 0x19, 0xae, 0xf1, 0x45, 0x73, 0xe7,
            0x34, 0x3f, 0xd6, 0x52,
        ]),
        // FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z
        avax_asset_id: Id([
            0x21, 0xe6, 0x73, 0x17, 0xcb, 0xc4, 0xbe, 0x2a, 0xeb, 0x00, 0x67, 0x7a, 0xd6, 0x46,
            0x27, 0x78, 0xa8, 0xf5, 0x22, 0x74, 0xb9, 0xd6, 0x05, 0xdf, 0x25, 0x91, 0xb2, 0x30,
            0x27, 0xa8, 0x7d, 0xff,
        ]),
        x_fees: XChainFees::for_network(MAINNET_ID),
    };

    /// Fuji (id 5, HRP `fuji`).
    pub const FUJI: NetworkInfo = NetworkInfo {
        network_id: FUJI_ID,
        name: "fuji",
        hrp: "fuji",
        p_chain_id: Id::EMPTY,
        // 2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm
        x_chain_id: Id([
            0xab, 0x68, 0xeb, 0x1e, 0xe1, 0x42, 0xa0, 0x5c, 0xfe, 0x76, 0x8c, 0x36, 0xe1, 0x1f,
            0x0b, 0x59, 0x6d, 0xb5, 0xa3, 0xc6, 0xc7, 0x7a, 0xab, 0xe6, 0x65, 0xda, 0xd9, 0xe6,
            0x38, 0xca, 0x94, 0xf7,
        ]),
        // yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp
        c_chain_id: Id([
            0x7f, 0xc9, 0x3d, 0x85, 0xc6, 0xd6, 0x2c, 0x5b, 0x2a, 0xc0, 0xb5, 0x19, 0xc8, 0x70,
            0x10, 0xea, 0x52, 0x94, 0x01, 0x2d, 0x1e, 0x40, 0x70, 0x30, 0xd6, 0xac, 0xd0, 0x02,
            0x1c, 0xac, 0x10, 0xd5,
        ]),
        // U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK
        avax_asset_id: Id([
            0x3d, 0x9b, 0xda, 0xc0, 0xed, 0x1d, 0x76, 0x13, 0x30, 0xcf, 0x68, 0x0e, 0xfd, 0xeb,
            0x1a, 0x42, 0x15, 0x9e, 0xb3, 0x87, 0xd6, 0xd2, 0x95, 0x0c, 0x96, 0xf7, 0xd2, 0x8f,
            0x61, 0xbb, 0xe2, 0xaa,
        ]),
        x_fees: XChainFees::for_network(FUJI_ID),
    };

    /// The default local network (id 12345, HRP `local`) from avalanchego's current
    /// `genesis_local.json`.
    pub const LOCAL: NetworkInfo = NetworkInfo {
        network_id: LOCAL_ID,
        name: "local",
        hrp: "local",
        p_chain_id: Id::EMPTY,
        // 2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed
        x_chain_id: Id([
            0xd8, 0x91, 0xad, 0x56, 0x05, 0x6d, 0x9c, 0x01, 0xf1, 0x8f, 0x43, 0xf5, 0x8b, 0x5c,
            0x78, 0x4a, 0xd0, 0x7a, 0x4a, 0x49, 0xcf, 0x3d, 0x1f, 0x11, 0x62, 0x38, 0x04, 0xb5,
            0xcb, 0xa2, 0xc6, 0xbf,
        ]),
        // 2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC
        c_chain_id: Id([
            0xee, 0x48, 0x82, 0x04, 0x08, 0x8e, 0xab, 0xa3, 0xd3, 0xc0, 0xc5, 0xe2, 0x6d, 0x7a,
            0x28, 0x92, 0x67, 0x7f, 0x8d, 0x61, 0x81, 0xef, 0x31, 0x84, 0x87, 0x08, 0xb4, 0xe5,
            0x5e, 0xad, 0x76, 0x67,
        ]),
        // 2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe
        avax_asset_id: Id([
            0xdb, 0xcf, 0x89, 0x0f, 0x77, 0xf4, 0x9b, 0x96, 0x85, 0x76, 0x48, 0xb7, 0x2b, 0x77,
            0xf9, 0xf8, 0x29, 0x37, 0xf2, 0x8a, 0x68, 0x70, 0x4a, 0xf0, 0x5d, 0xa0, 0xdc, 0x12,
            0xba, 0x53, 0xf2, 0xdb,
        ]),
        x_fees: XChainFees::for_network(LOCAL_ID),
    };

    /// The well-known networks, for lookups.
    pub const KNOWN: [&'static NetworkInfo; 3] = [
        &NetworkInfo::MAINNET,
        &NetworkInfo::FUJI,
        &NetworkInfo::LOCAL,
    ];

    /// The info of mainnet, Fuji or local; `None` for networks whose genesis is not built in.
    pub fn lookup(network_id: u32) -> Option<&'static NetworkInfo> {
        Self::KNOWN
            .into_iter()
            .find(|info| info.network_id == network_id)
    }

    /// The info of a network named as `constants.NetworkID` accepts (`mainnet`, `testnet`,
    /// `network-12345`, …); `Ok(None)` when the name is valid but the network is not built in.
    pub fn lookup_name(name: &str) -> Result<Option<&'static NetworkInfo>, NetworkError> {
        network_id(name).map(Self::lookup)
    }

    /// The id of one of the primary chains.
    pub const fn chain_id(&self, chain: Chain) -> Id {
        match chain {
            Chain::P => self.p_chain_id,
            Chain::X => self.x_chain_id,
            Chain::C => self.c_chain_id,
        }
    }

    /// Which primary chain `id` is, if any.
    pub fn chain_of(&self, id: &Id) -> Option<Chain> {
        Chain::ALL.into_iter().find(|c| self.chain_id(*c) == *id)
    }

    /// Resolves a chain alias as a node of this network would: `X`/`avm`, `P`/`platform`,
    /// `C`/`evm`, or a primary chain's cb58 id.
    pub fn resolve_alias(&self, alias: &str) -> Option<Chain> {
        Chain::from_alias(alias).or_else(|| {
            let id: Id = alias.parse().ok()?;
            self.chain_of(&id)
        })
    }
}
