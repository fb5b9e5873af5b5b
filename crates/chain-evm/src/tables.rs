//! The Data API's EVM tables, one set for every EVM chain: each key starts with the chain id
//! (`u64`, big-endian), then follows the order an endpoint reads it, so a page is one range scan.
//! Addresses are their 20 bytes, hashes and token ids 32 bytes big-endian. See
//! `docs/evm-indexing.md`.

use snowline_store::{Linear, table};

use crate::rows::{
    AddressTransfer, AddressTxRow, BlockRow, ContractRow, CursorRow, HoldingSnapshot, HoldingTally,
    MetadataRow, TokenRow, TransferRow, TxKey, TxParts, TxRow,
};

/// A 20-byte address in a key or value.
pub type Addr = [u8; 20];
/// A 32-byte hash, token id or amount in a key or value.
pub type Word = [u8; 32];

table! {
    /// Every EVM table, for composing a binary's [`Schema`](snowline_store::Schema).
    pub fn tables();

    /// `(chain, number) -> BlockRow`.
    pub EvBlocks: "ev_blocks", (u64, u64) => Linear<BlockRow>;

    /// `(chain, block hash) -> number`.
    pub EvBlockHashes: "ev_block_hashes" (PointLookup), (u64, Word) => u64;

    /// `(chain, block, tx index) -> TxRow`: every tx in chain order. Its keys grow with the
    /// chain, so compaction moves its files down instead of rewriting them level after level,
    /// as it must for rows keyed by hash (`docs/evm-indexing.md`, "Keys in chain order").
    pub EvTxs: "ev_txs" (Append), (u64, u64, u32) => Linear<TxRow>;

    /// `(chain, tx hash) -> (block, tx index)`: where a tx's row is, by hash.
    pub EvTxHashes: "ev_tx_hashes" (PointLookup), (u64, Word) => Linear<TxKey>;

    /// `(chain, address, block, tx index) -> roles`: every tx an address took part in (sender,
    /// recipient, created contract, party to one of its token transfers or listed internal
    /// txs), with the parts it played; an address's history is one range scan, newest first in
    /// reverse, and its key is the tx's key in `ev_txs`.
    pub EvTxsByAddress: "ev_txs_by_address", (u64, Addr, u64, u32) => Linear<AddressTxRow>;

    /// `(chain, token, block, log index, sub) -> TransferRow`: a token's transfers (`sub`
    /// numbers the ids of an ERC-1155 batch log).
    pub EvTransfersByToken: "ev_transfers_by_token", (u64, Addr, u64, u64, u32) => Linear<TransferRow>;

    /// `(chain, block, tx index) -> TxParts`: a tx's token transfers, listed internal txs and
    /// count of TeleporterMessenger logs, in one row (absent: none of them), so a tx's detail
    /// and a page of an address's history read them with one lookup per tx; in chain order,
    /// like `ev_txs`.
    pub EvTxParts: "ev_tx_parts" (Append), (u64, u64, u32) => Linear<TxParts>;

    /// `(chain, address, block, log index, sub) -> (token, standard)`: the transfers from or to
    /// an address.
    pub EvTransfersByAddress: "ev_transfers_by_address", (u64, Addr, u64, u64, u32) => Linear<AddressTransfer>;

    /// `(chain, address, block, tx index, frame) -> ()`: internal txs from or to an address
    /// (root frames included); each is the frame's row in its tx's `ev_tx_parts`, which the key
    /// names, so the index holds keys only.
    pub EvInternalByAddress: "ev_internal_by_address", (u64, Addr, u64, u32, u32) => ();

    /// `(chain, contract) -> ContractRow`: how each contract was created.
    pub EvContracts: "ev_contracts" (PointLookup), (u64, Addr) => Linear<ContractRow>;

    /// `(chain, deployer, block, tx index, frame) -> contract`: contracts by the EOA that sent
    /// the creating tx and by the factory contract that ran the `CREATE`.
    pub EvContractsByDeployer: "ev_contracts_by_deployer", (u64, Addr, u64, u32, u32) => Addr;

    /// `(chain, contract) -> TokenRow`: ERC type and metadata, read by `eth_call` at first sight.
    pub EvTokens: "ev_tokens" (PointLookup), (u64, Addr) => Linear<TokenRow>;

    /// `(chain, contract, token id) -> owner`: each ERC-721 token's current owner.
    pub EvErc721Owner: "ev_erc721_owner", (u64, Addr, Word) => Addr;

    /// `(chain, owner, contract, token id) -> ()`: the ERC-721 tokens an address owns.
    pub EvErc721ByOwner: "ev_erc721_by_owner", (u64, Addr, Addr, Word) => ();

    /// `(chain, contract, token id) -> URI`: `tokenURI` / `uri` as of the id's last move.
    pub EvNftUris: "ev_nft_uris", (u64, Addr, Word) => String;

    /// `(chain, address, block) -> balance`: the native balance after each block that touched
    /// the address (`eth_getBalance`); the balance at block N is the last row at or before N.
    pub EvNative: "ev_native", (u64, Addr, u64) => Word;

    /// `(chain, owner, kind, token, token id) -> balance`: every token an address ever held
    /// (`kind` is the standard's [`TransferKind::code`](crate::rows::TransferKind::code): 20,
    /// 21 for ERC-721, 55 for ERC-1155; the id is zero for ERC-20), with its balance after the
    /// last indexed block, summed from the transfer logs (zero rows stay: a past block's listing
    /// walks them).
    pub EvHoldings: "ev_holdings", (u64, Addr, u8, Addr, Word) => Word;

    /// `(chain, owner, kind, token, token id, block) -> balance`: the balance after each block
    /// that changed it; the balance at block N is the last row at or before N.
    pub EvHoldingHistory: "ev_holding_history", (u64, Addr, u8, Addr, Word, u64) => Word;

    /// `(chain, owner, kind, block, token, token id) -> balance`: [`EvHoldingHistory`] by
    /// owner, kind and block, so every balance of one kind an owner had at block N is its last
    /// snapshot at or before N ([`EvHoldingSnapshots`]) replayed with this log's rows after it
    /// up to N.
    pub EvHoldingLog: "ev_holding_log", (u64, Addr, u8, u64, Addr, Word) => Word;

    /// `(chain, owner, kind, block) -> HoldingSnapshot`: every non-zero holding of that kind of
    /// the owner after the block, written once its change log ran as many rows past the last
    /// snapshot as that snapshot held (at least
    /// [`SNAPSHOT_EVERY`](crate::holdings::SNAPSHOT_EVERY)).
    pub EvHoldingSnapshots: "ev_holding_snapshots", (u64, Addr, u8, u64) => Linear<HoldingSnapshot>;

    /// `(chain, owner, kind) -> HoldingTally`: how far the owner's change log of that kind runs
    /// past its last snapshot.
    pub EvHoldingTally: "ev_holding_tally" (PointLookup), (u64, Addr, u8) => Linear<HoldingTally>;

    /// `(chain, token, kind, owner, token id) -> balance`: [`EvHoldings`] by token: every holder
    /// a token ever had, with its balance after the last indexed block (zero rows stay).
    pub EvHolders: "ev_holders", (u64, Addr, u8, Addr, Word) => Word;

    /// `(chain, contract, token id) -> kind`: every NFT id a collection ever moved (kind 21
    /// ERC-721, 55 ERC-1155).
    pub EvNftTokens: "ev_nft_tokens", (u64, Addr, Word) => u8;

    /// `(chain, order, contract, token id) -> ()`: NFT tokens whose metadata is to be fetched
    /// (`order` is the block that gave the token a new URI, or 0 for a reindex, which comes
    /// first); the fetcher deletes an entry with the result it writes.
    pub EvNftQueue: "ev_nft_queue", (u64, u64, Addr, Word) => ();

    /// `(chain, contract, token id) -> MetadataRow`: the metadata last fetched for the token,
    /// with its status and the URI it was fetched from.
    pub EvNftMetadata: "ev_nft_metadata", (u64, Addr, Word) => Linear<MetadataRow>;

    /// `chain -> origin`: the chain's genesis allocation is known, and from where
    /// ([`GenesisOrigin::code`](crate::genesis::GenesisOrigin::code)); without this row a
    /// balance before the index saw an address is unknown.
    pub EvGenesis: "ev_genesis" (PointLookup), u64 => u8;

    /// `chain -> CursorRow`: the next block and the hash it must name as parent.
    pub EvCursor: "ev_cursor", u64 => Linear<CursorRow>;

    /// `export id -> job (JSON)`: the transaction exports and where each stands
    /// ([`export`](crate::export)).
    pub EvExports: "ev_exports" (PointLookup), String => Vec<u8>;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct names are the store's rule (`Schema` refuses a name listed twice, and every
    /// test store opens this room's tables); the prefix is this room's.
    #[test]
    fn names_carry_the_room_prefix() {
        assert!(tables().iter().all(|t| t.name.starts_with("ev_")));
    }
}
