//! Writing a devnet out: the containers as JSON lines (the `node-rpc import` format) and a JSON
//! summary of the genesis, keys and atomic UTXOs.

use std::io::{self, Write};

use snowline_types::address::format_address;
use snowline_types::container::IndexCounter;
use snowline_types::formatting::encode_hex_checksum;

use crate::error::DevnetError;
use crate::generator::{Devnet, DevnetStats};

/// Why writing failed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Generation failed.
    #[error(transparent)]
    Devnet(#[from] DevnetError),
    /// The writer failed.
    #[error("write failed: {0}")]
    Io(#[from] io::Error),
}

/// Writes every container of `devnet` as one JSON line with its `index` in its path.
pub fn write_jsonl<W: Write>(devnet: &mut Devnet, out: &mut W) -> Result<DevnetStats, WriteError> {
    let mut counter = IndexCounter::new();
    for rec in devnet.by_ref() {
        let rec = rec?;
        let index = counter.len(rec.path);
        let line = snowline_types::container::ContainerLine {
            record: rec,
            index: Some(index),
        };
        // Cannot fail: the stated index is the counter's own.
        let _ = counter.assign(&line);
        out.write_all(line.record.to_json_line(line.index).as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(devnet.stats())
}

fn push_str_array(out: &mut String, items: impl IntoIterator<Item = String>) {
    out.push('[');
    for (i, s) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("\n    \"");
        out.push_str(&s);
        out.push('"');
    }
    out.push_str("\n  ]");
}

/// A JSON document describing the devnet: network facts, the AVAX genesis tx and UTXOs, the avm
/// genesis bytes, the linear genesis block (once generated), keys and atomic UTXOs. Strings are
/// cb58, bech32 or API hex, so no escaping is needed.
pub fn genesis_json(devnet: &Devnet) -> String {
    let g = devnet.genesis();
    let net = &g.network;
    let mut s = String::with_capacity(8192);
    s.push_str("{\n");
    s.push_str(&format!("  \"networkID\": {},\n", net.network_id));
    s.push_str(&format!("  \"networkName\": \"{}\",\n", net.name));
    s.push_str(&format!("  \"xChainID\": \"{}\",\n", net.x_chain_id));
    s.push_str(&format!("  \"pChainID\": \"{}\",\n", net.p_chain_id));
    s.push_str(&format!("  \"cChainID\": \"{}\",\n", net.c_chain_id));
    s.push_str(&format!("  \"avaxAssetID\": \"{}\",\n", g.avax_asset_id));
    s.push_str(&format!(
        "  \"avaxCreateAssetTx\": \"{}\",\n",
        encode_hex_checksum(&g.avax_tx.bytes)
    ));
    s.push_str(&format!(
        "  \"avmGenesis\": \"{}\",\n",
        encode_hex_checksum(&g.avm_genesis_bytes())
    ));
    s.push_str("  \"genesisUTXOs\": ");
    push_str_array(
        &mut s,
        g.utxos.iter().map(|u| encode_hex_checksum(&u.to_bytes())),
    );
    s.push_str(",\n");
    if let Some(b) = devnet.linear_genesis() {
        s.push_str(&format!(
            "  \"linearGenesisBlock\": {{\"id\": \"{}\", \"bytes\": \"{}\"}},\n",
            b.id(),
            encode_hex_checksum(&b.bytes())
        ));
    }
    s.push_str(&format!("  \"cortinaTime\": {},\n", devnet.cortina_time()));
    s.push_str("  \"atomicUTXOs\": [");
    for (i, a) in devnet.atomic_utxos().iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            "\n    {{\"sourceChain\": \"{}\", \"utxo\": \"{}\"}}",
            a.source_chain,
            encode_hex_checksum(&a.utxo.to_bytes())
        ));
    }
    s.push_str("\n  ],\n");
    push_p_genesis(&mut s, devnet);
    s.push_str("  \"keys\": [");
    let ring = devnet.keys();
    for i in 0..ring.len() {
        let idx = u32::try_from(i).unwrap_or(u32::MAX);
        let (Some(key), Ok(addr)) = (ring.key(idx), format_address("X", net.hrp, &ring.addr(idx)))
        else {
            continue;
        };
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            "\n    {{\"privateKey\": \"{key}\", \"address\": \"{addr}\"}}"
        ));
    }
    s.push_str("\n  ]\n}\n");
    s
}

/// The `pGenesis` member: time, supply, genesis bytes and block, UTXOs, validators, chains, and
/// the genesis validators' nodes (staking certificate and key, BLS key and proof of possession).
fn push_p_genesis(s: &mut String, devnet: &Devnet) {
    let g = devnet.p_genesis();
    let hex = |b: &[u8]| encode_hex_checksum(b);
    s.push_str("  \"pGenesis\": {\n");
    s.push_str(&format!("    \"timestamp\": {},\n", g.timestamp));
    s.push_str(&format!("    \"initialSupply\": {},\n", g.initial_supply));
    s.push_str(&format!(
        "    \"genesisBytes\": \"{}\",\n",
        hex(devnet.p_genesis_bytes())
    ));
    let b = devnet.p_genesis_block();
    s.push_str(&format!(
        "    \"genesisBlock\": {{\"id\": \"{}\", \"bytes\": \"{}\"}},\n",
        b.id(),
        hex(&b.bytes())
    ));
    let list = |s: &mut String, name: &str, items: Vec<String>| {
        s.push_str(&format!("    \"{name}\": ["));
        for (i, it) in items.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("\n      ");
            s.push_str(it);
        }
        s.push_str("\n    ]");
    };
    list(
        s,
        "utxos",
        g.utxos
            .iter()
            .map(|u| format!("\"{}\"", hex(&u.to_bytes())))
            .collect(),
    );
    s.push_str(",\n");
    list(
        s,
        "validators",
        g.validators
            .iter()
            .map(|t| format!("{{\"id\": \"{}\", \"tx\": \"{}\"}}", t.id, hex(&t.bytes)))
            .collect(),
    );
    s.push_str(",\n");
    list(
        s,
        "chains",
        g.chains
            .iter()
            .map(|t| format!("{{\"id\": \"{}\", \"tx\": \"{}\"}}", t.id, hex(&t.bytes)))
            .collect(),
    );
    s.push_str(",\n");
    list(
        s,
        "nodes",
        devnet
            .p_nodes()
            .iter()
            .map(|n| {
                format!(
                    "{{\"nodeID\": \"{}\", \"stakingCert\": \"{}\", \"stakingKey\": \"{}\", \"blsSecretKey\": \"{}\", \"blsPublicKey\": \"{}\", \"blsProofOfPossession\": \"{}\"}}",
                    n.node_id,
                    hex(&n.cert_der),
                    hex(&n.staking_secret_bytes()),
                    hex(&n.bls_secret_bytes()),
                    hex(&n.bls_public_key),
                    hex(&n.bls_pop)
                )
            })
            .collect(),
    );
    s.push_str("\n  },\n");
}
