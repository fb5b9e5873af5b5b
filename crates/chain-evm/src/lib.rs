//! The EVM chains' room (the C-Chain's EVM side and any EVM L1): reads accepted blocks with
//! their receipts and call traces from a node's JSON-RPC ([`source`]), for the deriver that
//! turns them into the Data API's EVM rows.

pub mod source;
