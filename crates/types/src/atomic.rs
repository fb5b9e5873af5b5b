//! Atomic (shared) memory between the X-, P- and C-Chain: what an `ExportTx` puts in its
//! destination's shared memory and what an `ImportTx` takes out, read from any chain's
//! containers, each export in the reading chain's UTXO shape ([`SharedUtxo`]).
//!
//! The X- and P-Chain give an exported output the index after the tx's own outputs (avalanchego's
//! avm and platformvm `ExportTx` executors: `avax.UTXOID{TxID: txID, OutputIndex: len(tx.Outs) +
//! i}`); the C-Chain's export has no outputs of its own, so its `i`-th exported output has index
//! `i` (coreth `UnsignedExportTx.AtomicOps`). All three codecs give secp256k1fx's
//! `TransferOutput` type id 7, the only output that crosses, so an exported UTXO has the same id
//! and the same bytes on every chain.

use crate::codec::CodecError;
use crate::components::UtxoId;
use crate::container::{ContainerRecord, IndexPath};
use crate::fx::secp256k1fx::TransferOutput;
use crate::platformvm::PChainBlock;
use crate::time::unix_seconds;
use crate::vertex::Vertex;
use crate::{Id, avm, coreth, platformvm, proposervm};

/// A chain's UTXO type as it reads an exported secp256k1fx transfer from shared memory.
pub trait SharedUtxo: Sized {
    /// The UTXO `utxo_id` of `asset_id` holding `output`.
    fn from_transfer(utxo_id: UtxoId, asset_id: Id, output: TransferOutput) -> Self;
}

impl SharedUtxo for avm::Utxo {
    fn from_transfer(utxo_id: UtxoId, asset_id: Id, output: TransferOutput) -> Self {
        avm::Utxo {
            utxo_id,
            asset_id,
            output: avm::Output::Secp256k1Transfer(output),
        }
    }
}

impl SharedUtxo for platformvm::Utxo {
    fn from_transfer(utxo_id: UtxoId, asset_id: Id, output: TransferOutput) -> Self {
        platformvm::Utxo {
            utxo_id,
            asset_id,
            output: platformvm::TransferableOut::Secp256k1(output),
        }
    }
}

impl SharedUtxo for coreth::Utxo {
    fn from_transfer(utxo_id: UtxoId, asset_id: Id, output: TransferOutput) -> Self {
        coreth::Utxo {
            utxo_id,
            asset_id,
            output: coreth::TransferableOut::Secp256k1(output),
        }
    }
}

/// Where the `i`-th exported output of an `ExportTx` with `outputs` outputs of its own lands.
pub fn exported_utxo_id(tx_id: Id, outputs: usize, i: usize) -> UtxoId {
    let index = outputs.saturating_add(i);
    UtxoId::new(tx_id, u32::try_from(index).unwrap_or(u32::MAX))
}

/// The UTXOs an X-Chain `ExportTx` with id `tx_id` puts in its destination's shared memory.
pub fn x_exported(tx: &avm::ExportTx, tx_id: Id) -> Vec<avm::Utxo> {
    let first = tx.base.outputs.len();
    tx.exported_outputs
        .iter()
        .enumerate()
        .map(|(i, o)| avm::Utxo {
            utxo_id: exported_utxo_id(tx_id, first, i),
            asset_id: o.asset_id,
            output: match &o.output {
                avm::TransferableOut::Secp256k1(t) => avm::Output::Secp256k1Transfer(t.clone()),
            },
        })
        .collect()
}

/// The UTXOs a P-Chain `ExportTx` with id `tx_id` puts in its destination's shared memory.
pub fn p_exported(tx: &platformvm::txs::ExportTx, tx_id: Id) -> Vec<platformvm::Utxo> {
    let first = tx.base.outputs.len();
    tx.exported_outputs
        .iter()
        .enumerate()
        .map(|(i, o)| platformvm::Utxo {
            utxo_id: exported_utxo_id(tx_id, first, i),
            asset_id: o.asset_id,
            output: o.output.clone(),
        })
        .collect()
}

/// The UTXOs a C-Chain `ExportTx` with id `tx_id` puts in its destination's shared memory.
pub fn c_exported(tx: &coreth::ExportTx, tx_id: Id) -> Vec<coreth::Utxo> {
    tx.exported_outputs
        .iter()
        .enumerate()
        .map(|(i, o)| coreth::Utxo {
            utxo_id: exported_utxo_id(tx_id, 0, i),
            asset_id: o.asset_id,
            output: o.output.clone(),
        })
        .collect()
}

/// An X-Chain UTXO in another chain's shape (X-Chain exports are secp256k1fx transfers).
pub fn from_x<U: SharedUtxo>(utxo: &avm::Utxo) -> Option<U> {
    let avm::Output::Secp256k1Transfer(t) = &utxo.output else {
        return None;
    };
    Some(U::from_transfer(utxo.utxo_id, utxo.asset_id, t.clone()))
}

/// A P-Chain UTXO in another chain's shape; `None` for a stakeable lock, which only the
/// P-Chain's codec can hold.
pub fn from_p<U: SharedUtxo>(utxo: &platformvm::Utxo) -> Option<U> {
    let platformvm::TransferableOut::Secp256k1(t) = &utxo.output else {
        return None;
    };
    Some(U::from_transfer(utxo.utxo_id, utxo.asset_id, t.clone()))
}

/// A C-Chain UTXO in another chain's shape.
pub fn from_c<U: SharedUtxo>(utxo: &coreth::Utxo) -> U {
    let coreth::TransferableOut::Secp256k1(t) = &utxo.output;
    U::from_transfer(utxo.utxo_id, utxo.asset_id, t.clone())
}

/// One tx's traffic with shared memory, its exported UTXOs in the reading chain's shape `U`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AtomicTx<U> {
    /// An `ExportTx`: `utxos` wait in `destination`'s shared memory.
    Export {
        /// The exporting tx.
        tx_id: Id,
        /// The chain whose shared memory receives them.
        destination: Id,
        /// The exported UTXOs, in index order.
        utxos: Vec<U>,
    },
    /// An `ImportTx`: takes `utxos` (UTXO ids) out of its chain's shared memory of `source`.
    Import {
        /// The importing tx.
        tx_id: Id,
        /// The chain that exported them.
        source: Id,
        /// The ids of the imported UTXOs.
        utxos: Vec<Id>,
    },
}

/// The atomic txs of one accepted container, in order, with the height and time they were
/// accepted at (Unix seconds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtomicTxs<U> {
    /// The vertex or block height (a C-Chain block's number).
    pub height: u64,
    /// When the container was accepted: a P- or C-Chain block's own time, the acceptance time
    /// of an X-Chain container (as the X-Chain history dates its txs).
    pub timestamp: u64,
    /// Its `ImportTx`s and `ExportTx`s.
    pub txs: Vec<AtomicTx<U>>,
}

/// What one atomic tx of another chain does to `own` chain's shared memory with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SharedMove<'a, U> {
    /// An export to `own`: the UTXO arrives in its shared memory.
    Arrives {
        /// The exporting tx.
        tx_id: Id,
        /// The exported UTXO.
        utxo: &'a U,
    },
    /// An import from `own`: the UTXO `own` exported leaves its shared memory.
    Leaves {
        /// The importing tx.
        tx_id: Id,
        /// The imported UTXO's id.
        utxo_id: Id,
    },
}

impl<U> AtomicTxs<U> {
    /// The moves these txs make in `own` chain's shared memory with their chain, in tx order:
    /// exports to `own` arrive, imports from `own` leave; traffic with other chains is skipped.
    pub fn moves_for(&self, own: Id) -> impl Iterator<Item = SharedMove<'_, U>> {
        self.txs.iter().flat_map(move |tx| {
            let (arrives, leaves): (&[U], &[Id]) = match tx {
                AtomicTx::Export {
                    destination, utxos, ..
                } if *destination == own => (utxos, &[]),
                AtomicTx::Import { source, utxos, .. } if *source == own => (&[], utxos),
                _ => (&[], &[]),
            };
            let tx_id = match tx {
                AtomicTx::Export { tx_id, .. } | AtomicTx::Import { tx_id, .. } => *tx_id,
            };
            arrives
                .iter()
                .map(move |utxo| SharedMove::Arrives { tx_id, utxo })
                .chain(leaves.iter().map(move |utxo_id| SharedMove::Leaves {
                    tx_id,
                    utxo_id: *utxo_id,
                }))
        })
    }
}

/// A P-Chain block's time: its Banff timestamp, else (Apricot blocks have none) the time the
/// index accepted it, `acceptance_ns`.
pub fn p_block_time(block: &PChainBlock, acceptance_ns: i64) -> u64 {
    block
        .block
        .block
        .timestamp()
        .unwrap_or_else(|| unix_seconds(acceptance_ns))
}

/// The atomic txs of an accepted P-Chain block, exports in the reading chain's shape (outputs
/// it cannot hold are left out). Atomic txs are decision txs, so option blocks have none.
pub fn p_block_atomic<U: SharedUtxo>(block: &PChainBlock, acceptance_ns: i64) -> AtomicTxs<U> {
    let parsed = &block.block;
    let txs = parsed
        .block
        .txs()
        .into_iter()
        .zip(&parsed.tx_ids)
        .filter_map(|(tx, id)| match &tx.unsigned {
            platformvm::UnsignedTx::ExportTx(e) => Some(AtomicTx::Export {
                tx_id: *id,
                destination: e.destination_chain,
                utxos: p_exported(e, *id).iter().filter_map(from_p).collect(),
            }),
            platformvm::UnsignedTx::ImportTx(i) => Some(AtomicTx::Import {
                tx_id: *id,
                source: i.source_chain,
                utxos: i.imported_inputs.iter().map(|x| x.utxo_id.id()).collect(),
            }),
            _ => None,
        })
        .collect();
    AtomicTxs {
        height: parsed.block.height(),
        timestamp: p_block_time(block, acceptance_ns),
        txs,
    }
}

/// The atomic tx of an X-Chain tx, if it is one, exports in the reading chain's shape.
fn x_tx_atomic<U: SharedUtxo>(tx: &avm::Tx, tx_id: Id) -> Option<AtomicTx<U>> {
    match &tx.unsigned {
        avm::UnsignedTx::Export(e) => Some(AtomicTx::Export {
            tx_id,
            destination: e.destination_chain,
            utxos: x_exported(e, tx_id).iter().filter_map(from_x).collect(),
        }),
        avm::UnsignedTx::Import(i) => Some(AtomicTx::Import {
            tx_id,
            source: i.source_chain,
            utxos: i.imported_inputs.iter().map(|x| x.utxo_id.id()).collect(),
        }),
        _ => None,
    }
}

/// Whether signed X-Chain tx bytes hold an `ImportTx` or an `ExportTx` (the unsigned tx's type
/// id follows the codec version), so a vertex's other txs need not be decoded.
fn is_x_atomic(tx: &[u8]) -> bool {
    let import = avm::type_id::IMPORT_TX.to_be_bytes();
    let export = avm::type_id::EXPORT_TX.to_be_bytes();
    tx.get(2..6)
        .is_some_and(|t| t == import.as_slice() || t == export.as_slice())
}

/// The atomic txs of an accepted `X/vtx` or `X/block` container, exports in the reading chain's
/// shape; `None` for other paths. `X/tx` is left out on purpose: every accepted X-Chain tx is
/// also in a vertex or block, which gives it a height.
pub fn x_container_atomic<U: SharedUtxo>(
    record: &ContainerRecord,
) -> Result<Option<AtomicTxs<U>>, CodecError> {
    let timestamp = unix_seconds(record.timestamp_ns);
    match record.path {
        IndexPath::XVtx => {
            let vertex = Vertex::parse(&record.bytes)?.vertex;
            let mut txs = Vec::new();
            for bytes in vertex.txs.iter().filter(|b| is_x_atomic(b)) {
                let parsed = avm::Tx::parse(bytes)?;
                txs.extend(x_tx_atomic(&parsed.tx, parsed.id));
            }
            Ok(Some(AtomicTxs {
                height: vertex.height,
                timestamp,
                txs,
            }))
        }
        IndexPath::XBlock => {
            let inner = proposervm::Block::decode(&record.bytes)?.into_inner();
            let block = avm::StandardBlock::parse_vec(inner)?;
            let txs = block
                .block
                .txs
                .iter()
                .zip(&block.tx_ids)
                .filter_map(|(tx, id)| x_tx_atomic(tx, *id))
                .collect();
            Ok(Some(AtomicTxs {
                height: block.block.height,
                timestamp,
                txs,
            }))
        }
        IndexPath::XTx | IndexPath::PBlock | IndexPath::CBlock => Ok(None),
    }
}

/// The atomic txs of a decoded C-Chain block, exports in the reading chain's shape, at the
/// block's number and own time.
pub fn c_block_atomic<U: SharedUtxo>(block: &coreth::AtomicBlock) -> AtomicTxs<U> {
    let txs = block
        .txs
        .iter()
        .map(|tx| match &tx.tx.unsigned {
            coreth::UnsignedTx::Export(e) => AtomicTx::Export {
                tx_id: tx.id,
                destination: e.destination_chain,
                utxos: c_exported(e, tx.id).iter().map(from_c).collect(),
            },
            coreth::UnsignedTx::Import(i) => AtomicTx::Import {
                tx_id: tx.id,
                source: i.source_chain,
                utxos: i.imported_utxo_ids().collect(),
            },
        })
        .collect();
    AtomicTxs {
        height: block.block.number(),
        timestamp: block.block.timestamp(),
        txs,
    }
}

/// The atomic txs of an accepted `C/block` container of network `network_id` (which decides
/// the extra data's framing, [`coreth::is_batch`]; `None` when the reader does not know it,
/// [`coreth::AtomicBlock::from_container_any_network`]); `None` for other paths.
pub fn c_container_atomic<U: SharedUtxo>(
    record: &ContainerRecord,
    network_id: Option<u32>,
) -> Result<Option<AtomicTxs<U>>, coreth::CorethError> {
    if record.path != IndexPath::CBlock {
        return Ok(None);
    }
    let block = match network_id {
        Some(n) => coreth::AtomicBlock::from_container(&record.bytes, n)?,
        None => coreth::AtomicBlock::from_container_any_network(&record.bytes)?,
    };
    Ok(Some(c_block_atomic(&block)))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::fx::secp256k1fx::{OutputOwners, TransferOutput};
    use crate::{ShortId, components::TransferableOutput};

    #[test]
    fn moves_for_keeps_the_traffic_with_one_chain_in_tx_order() {
        let (own, other) = (Id([1; 32]), Id([2; 32]));
        let txs = AtomicTxs {
            height: 3,
            timestamp: 4,
            txs: vec![
                AtomicTx::Export {
                    tx_id: Id([10; 32]),
                    destination: own,
                    utxos: vec![5u8, 6],
                },
                AtomicTx::Import {
                    tx_id: Id([11; 32]),
                    source: other,
                    utxos: vec![Id([20; 32])],
                },
                AtomicTx::Import {
                    tx_id: Id([12; 32]),
                    source: own,
                    utxos: vec![Id([21; 32]), Id([22; 32])],
                },
                AtomicTx::Export {
                    tx_id: Id([13; 32]),
                    destination: other,
                    utxos: vec![7],
                },
                AtomicTx::Export {
                    tx_id: Id([14; 32]),
                    destination: own,
                    utxos: vec![8],
                },
            ],
        };
        let moves: Vec<_> = txs.moves_for(own).collect();
        assert_eq!(
            moves,
            [
                SharedMove::Arrives {
                    tx_id: Id([10; 32]),
                    utxo: &5
                },
                SharedMove::Arrives {
                    tx_id: Id([10; 32]),
                    utxo: &6
                },
                SharedMove::Leaves {
                    tx_id: Id([12; 32]),
                    utxo_id: Id([21; 32])
                },
                SharedMove::Leaves {
                    tx_id: Id([12; 32]),
                    utxo_id: Id([22; 32])
                },
                SharedMove::Arrives {
                    tx_id: Id([14; 32]),
                    utxo: &8
                },
            ]
        );
        assert_eq!(txs.moves_for(Id([3; 32])).count(), 0);
    }

    fn transfer(amount: u64) -> TransferOutput {
        TransferOutput {
            amount,
            owners: OutputOwners::new(1, vec![ShortId([7; 20])]),
        }
    }

    #[test]
    fn exported_utxos_follow_the_outputs_and_read_the_same_on_both_chains() {
        let asset = Id([9; 32]);
        let tx_id = Id([3; 32]);
        let out = |a| TransferableOutput {
            asset_id: asset,
            output: avm::TransferableOut::Secp256k1(transfer(a)),
        };
        let x = avm::ExportTx {
            base: avm::BaseTx {
                outputs: vec![out(1), out(2)],
                ..Default::default()
            },
            destination_chain: Id::EMPTY,
            exported_outputs: vec![out(5), out(6)],
        };
        let utxos = x_exported(&x, tx_id);
        let indexes: Vec<u32> = utxos.iter().map(|u| u.utxo_id.output_index).collect();
        assert_eq!(indexes, [2, 3]);
        for u in &utxos {
            let p: platformvm::Utxo = from_x(u).unwrap();
            let c: coreth::Utxo = from_x(u).unwrap();
            assert_eq!(p.to_bytes(), u.to_bytes(), "same bytes in every codec");
            assert_eq!(c.to_bytes(), u.to_bytes(), "same bytes in every codec");
            assert_eq!(p.id(), u.id());
            assert_eq!(from_p::<avm::Utxo>(&p).as_ref(), Some(u));
            assert_eq!(&from_c::<avm::Utxo>(&c), u);
        }
        let lock = platformvm::Utxo {
            utxo_id: UtxoId::new(tx_id, 0),
            asset_id: asset,
            output: platformvm::TransferableOut::StakeableLock(platformvm::LockOut {
                locktime: 1,
                output: transfer(1),
            }),
        };
        assert_eq!(from_p::<avm::Utxo>(&lock), None);
        assert_eq!(from_p::<coreth::Utxo>(&lock), None);
    }

    #[test]
    fn a_c_chain_export_numbers_its_outputs_from_zero() {
        // coreth atomic/export_tx.go AtomicOps: UTXOID{TxID: txID, OutputIndex: uint32(i)}.
        let out = |a| coreth::TransferableOutput {
            asset_id: Id([9; 32]),
            output: coreth::TransferableOut::Secp256k1(transfer(a)),
        };
        let e = coreth::ExportTx {
            network_id: 12345,
            blockchain_id: Id([1; 32]),
            destination_chain: Id([2; 32]),
            ins: vec![],
            exported_outputs: vec![out(5), out(6)],
        };
        let utxos = c_exported(&e, Id([3; 32]));
        let indexes: Vec<u32> = utxos.iter().map(|u| u.utxo_id.output_index).collect();
        assert_eq!(indexes, [0, 1]);
        let x: avm::Utxo = from_c(&utxos[1]);
        assert_eq!(x.to_bytes(), utxos[1].to_bytes());
    }
}
