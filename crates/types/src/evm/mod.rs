//! EVM chains (C-Chain, subnet-evm L1s): the JSON-RPC answers an indexer reads, token transfers
//! decoded from logs, the `eth_call`s that describe a token contract and what their answers say
//! of its standard (EIP-165 detection), method names from a bundled signature table, internal
//! transactions flattened from `callTracer` frames and the ICM (TeleporterMessenger) events.
//!
//! Pure: every function here is a function of its arguments; fetching is the indexer's business.

pub mod erc;
pub mod erc_calls;
pub mod erc_detect;
pub mod hex_str;
pub mod internal;
pub mod method;
pub mod nft_metadata;
pub mod quantity;
pub mod rpc;
pub mod teleporter;
pub mod trace;

pub use alloy_primitives::{Address, B256, Bytes, U256, keccak256};
pub use erc::{
    TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC, TokenTransfer, TokenTransferKind,
    TransferLog, decode_transfer_log,
};
pub use erc_calls::{TokenCall, decode_bool, decode_decimals, decode_text, decode_u256};
pub use erc_detect::{
    ContractProbes, ERC165_INTERFACE_ID, ERC721_INTERFACE_ID, ERC721_METADATA_INTERFACE_ID,
    ERC1155_INTERFACE_ID, ERC1155_METADATA_URI_INTERFACE_ID, Erc20Answers, INVALID_INTERFACE_ID,
    InterfaceClaims, PROBED_INTERFACES,
};
pub use hex_str::HexStr;
pub use internal::{InternalCall, internal_transactions, is_listed};
pub use method::{
    CONTRACT_CREATION_NAME, NATIVE_TRANSFER_NAME, SIGNATURES, method_name, selector, signatures,
    transaction_method,
};
pub use rpc::{RpcBlock, RpcLog, RpcReceipt, RpcTransaction};
pub use teleporter::{
    TELEPORTER_MESSENGER_V1, TeleporterEvent, TeleporterFeeInfo, TeleporterLogError,
    TeleporterMessage, TeleporterMessageReceipt, TeleporterPayloadError, decode_teleporter_log,
    decode_teleporter_message, message_id,
};
pub use trace::{
    CallFrame, CallKind, MAX_TRACE_NESTING, TraceEntry, TraceParseError, json_nesting,
    parse_block_trace, parse_call_frame,
};
