//! Validity rules, each case from the avalanchego test or source named in its comment.

use snowline_types::avm::{
    BaseTx, Credential, ExportTx, TransferableIn, TransferableInput, TransferableOut,
    TransferableOutput, Tx, TxError, UnsignedTx,
};
use snowline_types::components::{ComponentError, UtxoId};
use snowline_types::fx::FxError;
use snowline_types::fx::secp256k1fx::{
    Credential as SecpCred, Input, OutputOwners, TransferInput, TransferOutput,
};
use snowline_types::{Id, ShortId};

fn owners(threshold: u32, addrs: &[u8]) -> OutputOwners {
    OutputOwners {
        locktime: 0,
        threshold,
        addrs: addrs.iter().map(|&b| ShortId([b; 20])).collect(),
    }
}

#[test]
fn output_owners_rules() {
    // vms/secp256k1fx/output_owners_test.go (TestOutputOwnersVerify)
    assert_eq!(owners(1, &[1]).verify(), Ok(()));
    assert_eq!(owners(0, &[]).verify(), Ok(()));
    assert_eq!(owners(2, &[1]).verify(), Err(FxError::OutputUnspendable));
    assert_eq!(owners(0, &[1]).verify(), Err(FxError::OutputUnoptimized));
    assert_eq!(
        owners(1, &[2, 1]).verify(),
        Err(FxError::AddrsNotSortedUnique)
    );
    assert_eq!(
        owners(1, &[1, 1]).verify(),
        Err(FxError::AddrsNotSortedUnique)
    );
    // vms/secp256k1fx/transfer_output_test.go (TestOutputVerifyNoValue)
    assert_eq!(
        TransferOutput {
            amount: 0,
            owners: owners(1, &[1])
        }
        .verify(),
        Err(FxError::NoValueOutput)
    );
    // vms/secp256k1fx/input_test.go and transfer_input_test.go
    assert_eq!(
        Input {
            sig_indices: vec![1, 0]
        }
        .verify(),
        Err(FxError::InputIndicesNotSortedUnique)
    );
    assert_eq!(
        Input {
            sig_indices: vec![0, 0]
        }
        .verify(),
        Err(FxError::InputIndicesNotSortedUnique)
    );
    assert_eq!(
        TransferInput {
            amount: 0,
            input: Input::default()
        }
        .verify(),
        Err(FxError::NoValueInput)
    );
}

fn out(asset: u8, amount: u64) -> TransferableOutput {
    TransferableOutput {
        asset_id: Id([asset; 32]),
        output: TransferableOut::Secp256k1(TransferOutput {
            amount,
            owners: owners(1, &[1]),
        }),
    }
}

fn inp(tx: u8, index: u32) -> TransferableInput {
    TransferableInput {
        utxo_id: UtxoId::new(Id([tx; 32]), index),
        asset_id: Id([1; 32]),
        input: TransferableIn::Secp256k1(TransferInput {
            amount: 1,
            input: Input {
                sig_indices: vec![0],
            },
        }),
    }
}

fn base_tx(outputs: Vec<TransferableOutput>, inputs: Vec<TransferableInput>) -> Tx {
    let creds = inputs
        .iter()
        .map(|_| Credential::Secp256k1(SecpCred::default()))
        .collect();
    Tx::new(
        UnsignedTx::Base(BaseTx {
            network_id: 5,
            blockchain_id: Id([7; 32]),
            outputs,
            inputs,
            memo: vec![],
        }),
        creds,
    )
}

#[test]
fn tx_rules() {
    let chain = Id([7; 32]);
    // vms/components/avax/transferables.go VerifyTx: sorted outputs, sorted unique inputs.
    assert_eq!(
        base_tx(vec![out(1, 1), out(2, 1)], vec![inp(1, 0), inp(1, 1)]).verify(5, &chain),
        Ok(())
    );
    assert_eq!(
        base_tx(vec![out(2, 1), out(1, 1)], vec![]).verify(5, &chain),
        Err(TxError::Component(ComponentError::OutputsNotSorted))
    );
    // Same asset: ordered by output bytes (amount first).
    assert_eq!(
        base_tx(vec![out(1, 2), out(1, 1)], vec![]).verify(5, &chain),
        Err(TxError::Component(ComponentError::OutputsNotSorted))
    );
    assert_eq!(
        base_tx(vec![], vec![inp(1, 1), inp(1, 0)]).verify(5, &chain),
        Err(TxError::Component(ComponentError::InputsNotSortedUnique))
    );
    assert_eq!(
        base_tx(vec![], vec![inp(1, 0), inp(1, 0)]).verify(5, &chain),
        Err(TxError::Component(ComponentError::InputsNotSortedUnique))
    );
    // vms/components/avax/asset.go: empty asset id.
    assert_eq!(
        base_tx(vec![out(0, 1)], vec![]).verify(5, &chain),
        Err(TxError::Component(ComponentError::EmptyAssetId))
    );
    // vms/components/avax/base_tx.go: network, chain, memo.
    assert_eq!(
        base_tx(vec![], vec![]).verify(1, &chain),
        Err(TxError::WrongNetworkId)
    );
    assert_eq!(
        base_tx(vec![], vec![]).verify(5, &Id([8; 32])),
        Err(TxError::WrongChainId)
    );
    // syntactic_verifier.go: one credential per input.
    let mut t = base_tx(vec![], vec![inp(1, 0)]);
    t.credentials.clear();
    assert_eq!(
        t.verify(5, &chain),
        Err(TxError::WrongNumberOfCredentials {
            creds: 0,
            inputs: 1
        })
    );
    // syntactic_verifier.go ExportTx: no exported outputs.
    let e = Tx::new(
        UnsignedTx::Export(ExportTx {
            base: BaseTx {
                network_id: 5,
                blockchain_id: chain,
                ..BaseTx::default()
            },
            ..ExportTx::default()
        }),
        vec![],
    );
    assert_eq!(e.verify(5, &chain), Err(TxError::NoExportOutputs));
}
