//! Token transfers decoded from logs: ERC-20 and ERC-721 `Transfer` (same event signature, told
//! apart by the number of indexed topics), ERC-1155 `TransferSingle` and `TransferBatch`.
//! Anything that does not have exactly the shape of one of them is "not a transfer": `None`,
//! never a panic.

use alloy_primitives::{Address, B256, U256, b256};
use alloy_sol_types::SolType;
use alloy_sol_types::sol_data::{Array, Uint};

/// `keccak256("Transfer(address,address,uint256)")`, the ERC-20 and ERC-721 event.
pub const TRANSFER_TOPIC: B256 =
    b256!("ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
/// `keccak256("TransferSingle(address,address,address,uint256,uint256)")` (ERC-1155).
pub const TRANSFER_SINGLE_TOPIC: B256 =
    b256!("c3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62");
/// `keccak256("TransferBatch(address,address,address,uint256[],uint256[])")` (ERC-1155).
pub const TRANSFER_BATCH_TOPIC: B256 =
    b256!("4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb");

/// A transfer log, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransferLog {
    /// ERC-20 `Transfer(from indexed, to indexed, value)`: 3 topics, 32 bytes of data.
    Erc20 {
        /// Sender (zero address: a mint).
        from: Address,
        /// Recipient (zero address: a burn).
        to: Address,
        /// Amount in the token's smallest unit.
        value: U256,
    },
    /// ERC-721 `Transfer(from indexed, to indexed, tokenId indexed)`: 4 topics, no data.
    Erc721 {
        /// Sender.
        from: Address,
        /// Recipient.
        to: Address,
        /// The token.
        token_id: U256,
    },
    /// ERC-1155 `TransferSingle` or `TransferBatch` (the batch's ids and values pairwise).
    Erc1155 {
        /// Who moved the tokens.
        operator: Address,
        /// Sender.
        from: Address,
        /// Recipient.
        to: Address,
        /// `(id, value)` pairs; one for `TransferSingle`.
        amounts: Vec<(U256, U256)>,
    },
}

/// One token transfer, as the Data API lists it (a batch gives several, sharing a log index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenTransfer {
    /// The token contract (the log's address).
    pub contract: Address,
    /// The log's index in its block.
    pub log_index: u64,
    /// Sender.
    pub from: Address,
    /// Recipient.
    pub to: Address,
    /// What moved.
    pub kind: TokenTransferKind,
}

/// What a [`TokenTransfer`] moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenTransferKind {
    /// An ERC-20 amount.
    Erc20 {
        /// Amount.
        value: U256,
    },
    /// One ERC-721 token.
    Erc721 {
        /// The token.
        token_id: U256,
    },
    /// An amount of one ERC-1155 id.
    Erc1155 {
        /// The id.
        token_id: U256,
        /// Amount.
        value: U256,
    },
}

/// An indexed `address` topic: 12 zero bytes then the address; anything else is malformed.
fn topic_address(topic: &B256) -> Option<Address> {
    let (pad, addr) = topic.as_slice().split_at(12);
    pad.iter()
        .all(|b| *b == 0)
        .then(|| Address::from_slice(addr))
}

/// Decodes a log as a token transfer; `None` when it is not one or is malformed.
pub fn decode_transfer_log(topics: &[B256], data: &[u8]) -> Option<TransferLog> {
    let (first, rest) = topics.split_first()?;
    if *first == TRANSFER_TOPIC {
        match (rest, data.len()) {
            ([from, to], 32) => Some(TransferLog::Erc20 {
                from: topic_address(from)?,
                to: topic_address(to)?,
                value: U256::from_be_slice(data),
            }),
            ([from, to, id], 0) => Some(TransferLog::Erc721 {
                from: topic_address(from)?,
                to: topic_address(to)?,
                token_id: U256::from_be_bytes(id.0),
            }),
            _ => None,
        }
    } else if *first == TRANSFER_SINGLE_TOPIC {
        let [operator, from, to] = rest else {
            return None;
        };
        if data.len() != 64 {
            return None;
        }
        let (id, value) = data.split_at(32);
        Some(TransferLog::Erc1155 {
            operator: topic_address(operator)?,
            from: topic_address(from)?,
            to: topic_address(to)?,
            amounts: vec![(U256::from_be_slice(id), U256::from_be_slice(value))],
        })
    } else if *first == TRANSFER_BATCH_TOPIC {
        let [operator, from, to] = rest else {
            return None;
        };
        type Batch = (Array<Uint<256>>, Array<Uint<256>>);
        let (ids, values) = Batch::abi_decode_sequence(data).ok()?;
        if ids.len() != values.len() {
            return None;
        }
        Some(TransferLog::Erc1155 {
            operator: topic_address(operator)?,
            from: topic_address(from)?,
            to: topic_address(to)?,
            amounts: ids.into_iter().zip(values).collect(),
        })
    } else {
        None
    }
}

impl TransferLog {
    /// The transfers this log records, each with the log's contract and index.
    pub fn transfers(&self, contract: Address, log_index: u64) -> Vec<TokenTransfer> {
        let one = |from, to, kind| TokenTransfer {
            contract,
            log_index,
            from,
            to,
            kind,
        };
        match self {
            Self::Erc20 { from, to, value } => {
                vec![one(*from, *to, TokenTransferKind::Erc20 { value: *value })]
            }
            Self::Erc721 { from, to, token_id } => vec![one(
                *from,
                *to,
                TokenTransferKind::Erc721 {
                    token_id: *token_id,
                },
            )],
            Self::Erc1155 {
                from, to, amounts, ..
            } => amounts
                .iter()
                .map(|(token_id, value)| {
                    one(
                        *from,
                        *to,
                        TokenTransferKind::Erc1155 {
                            token_id: *token_id,
                            value: *value,
                        },
                    )
                })
                .collect(),
        }
    }
}
