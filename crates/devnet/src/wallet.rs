//! Builds and signs the devnet's txs from the tracked UTXOs: BaseTx transfers (AVAX and a token,
//! 1-of-1, 2-of-3 multisig and time-locked outputs), CreateAssetTx (fungible and NFT family),
//! OperationTx (secp256k1fx and nftfx mints, nft transfers), ImportTx and ExportTx.
//!
//! Every tx burns exactly the local fee (inputs = outputs + fee for AVAX, inputs = outputs for
//! other assets), sorts inputs by UTXO id and outputs by asset then bytes, and carries one
//! credential per input/operation with the first `threshold` owners signing
//! `sha256(unsigned bytes)`.

use std::collections::VecDeque;

use snowline_types::Id;
use snowline_types::avm::outputs::operation_outputs;
use snowline_types::avm::{
    BaseTx, CreateAssetTx, Credential, ExportTx, FxOperation, ImportTx, InitialState, Operation,
    OperationTx, Output, ParsedTx, TransferableIn, TransferableInput, TransferableOut,
    TransferableOutput, Tx, UnsignedTx,
};
use snowline_types::codec::encode_to_vec;
use snowline_types::components::transferables::sort_outputs;
use snowline_types::fx::secp256k1fx::{self, Input, TransferInput, TransferOutput};
use snowline_types::fx::{nftfx, secp256k1fx::MintOperation as SecpMintOp};
use snowline_types::hashing::sha256;
use snowline_types::network::NetworkInfo;

use crate::atomic::AtomicUtxo;
use crate::error::DevnetError;
use crate::keys::{EWOQ, KeyRing};
use crate::pool::{Coin, MintRight, Nft, NftMintRight, Owners, Pool};
use crate::rng::DetRng;

/// AVAX given to each funded key output by the first tx: 10 000 AVAX.
const FUND_AMOUNT: u64 = 10_000_000_000_000;
/// At most this many keys get funding outputs in the first tx.
const MAX_FUNDED_KEYS: u32 = 300;
/// At most this much AVAX (1 AVAX) goes to a time-locked recipient or leaves the chain in an
/// export; the rest stays as spendable change. Those outputs are never spent again, so sending
/// them a fraction of a coin would drain the spendable AVAX geometrically (down to dust after
/// about 290k txs); a fixed cap bounds the loss to a fraction of an AVAX per tx.
const MAX_UNSPENDABLE_AMOUNT: u64 = 1_000_000_000;

/// What kind of tx to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Fund,
    Base,
    TokenBase,
    Multisig,
    CreateFungible,
    CreateNft,
    MintFungible,
    MintNft,
    NftTransfer,
    ImportP,
    ImportC,
    ExportP,
    ExportC,
}

impl Kind {
    /// Kinds each era must contain at least once.
    pub const DAG_REQUIRED: [Kind; 11] = [
        Kind::CreateFungible,
        Kind::CreateNft,
        Kind::MintFungible,
        Kind::MintNft,
        Kind::NftTransfer,
        Kind::TokenBase,
        Kind::Multisig,
        Kind::ImportP,
        Kind::ImportC,
        Kind::ExportP,
        Kind::ExportC,
    ];
    /// Kinds the linear era must contain at least once.
    pub const BLOCK_REQUIRED: [Kind; 9] = [
        Kind::MintFungible,
        Kind::MintNft,
        Kind::NftTransfer,
        Kind::TokenBase,
        Kind::Multisig,
        Kind::ImportP,
        Kind::ImportC,
        Kind::ExportP,
        Kind::ExportC,
    ];
}

/// One input or operation needing a credential: who signs and with which fx credential.
struct Signer {
    keys: Vec<u32>,
    nft: bool,
}

/// The generator's wallet: keys, spendable UTXOs and the atomic UTXOs not yet imported.
pub(crate) struct Wallet {
    pub ring: KeyRing,
    pub pool: Pool,
    rng: DetRng,
    net: NetworkInfo,
    avax: Id,
    seeded_keys: u32,
    atomic_p: VecDeque<AtomicUtxo>,
    atomic_c: VecDeque<AtomicUtxo>,
    lock_until: u64,
    min_coin: u64,
    high_water: usize,
    nft_counter: u64,
    memo_counter: u64,
}

impl Wallet {
    /// A wallet holding the genesis UTXOs it has keys for.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ring: KeyRing,
        rng: DetRng,
        net: NetworkInfo,
        avax: Id,
        genesis: &[snowline_types::avm::Utxo],
        atomic: &[AtomicUtxo],
        lock_until: u64,
        high_water: usize,
    ) -> Self {
        let seeded_keys = u32::try_from(ring.len().saturating_sub(1)).unwrap_or(u32::MAX);
        let (atomic_p, atomic_c) = atomic
            .iter()
            .cloned()
            .partition(|a| a.source_chain == net.p_chain_id);
        let mut w = Self {
            ring,
            pool: Pool::default(),
            rng,
            min_coin: 3 * net.x_fees.tx_fee.max(net.x_fees.create_asset_tx_fee),
            net,
            avax,
            seeded_keys,
            atomic_p,
            atomic_c,
            lock_until,
            high_water,
            nft_counter: 0,
            memo_counter: 0,
        };
        for u in genesis {
            if let Output::Secp256k1Transfer(o) = &u.output {
                if let Some(owners) = Owners::from_output_owners(&w.ring, &o.owners) {
                    w.pool.ready.avax.push(Coin {
                        utxo_id: u.utxo_id,
                        asset: u.asset_id,
                        amount: o.amount,
                        owners,
                    });
                }
            }
        }
        w
    }

    /// A random kind for filler txs, weighted towards plain transfers.
    pub fn random_kind(&mut self) -> Kind {
        let atomic_left = self.atomic_p.len() + self.atomic_c.len();
        match self.rng.below(100) {
            0..=57 => Kind::Base,
            58..=65 => Kind::TokenBase,
            66..=69 => Kind::Multisig,
            70..=74 if atomic_left > 2 => {
                if self.rng.chance(50) {
                    Kind::ImportP
                } else {
                    Kind::ImportC
                }
            }
            75..=80 => {
                if self.rng.chance(50) {
                    Kind::ExportP
                } else {
                    Kind::ExportC
                }
            }
            81..=86 => Kind::MintFungible,
            87..=89 => Kind::MintNft,
            90..=95 => Kind::NftTransfer,
            _ => Kind::Base,
        }
    }

    /// Builds and signs one tx of `kind` (`Ok(None)` when its inputs are not available), and
    /// records its outputs as pending UTXOs.
    pub fn build(&mut self, kind: Kind) -> Result<Option<ParsedTx>, DevnetError> {
        let built = match kind {
            Kind::Fund => self.fund()?,
            Kind::Base => self.base(None)?,
            Kind::Multisig => {
                match Pool::take_where(&mut self.pool.ready.avax, |c| c.owners.threshold >= 2) {
                    Some(c) => self.base(Some(c))?,
                    None => None,
                }
            }
            Kind::TokenBase => self.token_base()?,
            Kind::CreateFungible => self.create_fungible()?,
            Kind::CreateNft => self.create_nft()?,
            Kind::MintFungible => self.mint_fungible()?,
            Kind::MintNft => self.mint_nft()?,
            Kind::NftTransfer => self.nft_transfer()?,
            Kind::ImportP => self.import(true)?,
            Kind::ImportC => self.import(false)?,
            Kind::ExportP => self.export(true)?,
            Kind::ExportC => self.export(false)?,
        };
        if let Some(tx) = &built {
            self.absorb(tx);
        }
        Ok(built)
    }

    fn base_tx(
        &mut self,
        outputs: Vec<TransferableOutput>,
        inputs: Vec<TransferableInput>,
    ) -> BaseTx {
        let memo = if self.rng.chance(15) {
            self.memo_counter += 1;
            format!("snowline devnet memo {}", self.memo_counter).into_bytes()
        } else {
            Vec::new()
        };
        BaseTx {
            network_id: self.net.network_id,
            blockchain_id: self.net.x_chain_id,
            outputs,
            inputs,
            memo,
        }
    }

    fn random_key(&mut self) -> u32 {
        1 + u32::try_from(self.rng.below(u64::from(self.seeded_keys))).unwrap_or(0)
    }

    /// A recipient: 1-of-1 mostly, sometimes 2-of-3 multisig, sometimes time-locked.
    fn recipient(&mut self) -> Owners {
        match self.rng.below(100) {
            0..=9 => {
                let mut keys = Vec::with_capacity(3);
                while keys.len() < 3 {
                    let k = self.random_key();
                    if !keys.contains(&k) {
                        keys.push(k);
                    }
                }
                Owners::multi(&self.ring, keys, 2, 0)
            }
            10..=14 => {
                let k = self.random_key();
                Owners::multi(&self.ring, vec![k], 1, self.lock_until)
            }
            _ => Owners::single(self.random_key()),
        }
    }

    fn out(&self, asset: Id, amount: u64, owners: &Owners) -> TransferableOutput {
        TransferableOutput {
            asset_id: asset,
            output: TransferableOut::Secp256k1(TransferOutput {
                amount,
                owners: owners.to_output_owners(&self.ring),
            }),
        }
    }

    fn input(coin: &Coin) -> (TransferableInput, Signer) {
        let (sig_indices, keys) = coin.owners.signers();
        (
            TransferableInput {
                utxo_id: coin.utxo_id,
                asset_id: coin.asset,
                input: TransferableIn::Secp256k1(TransferInput {
                    amount: coin.amount,
                    input: Input { sig_indices },
                }),
            },
            Signer { keys, nft: false },
        )
    }

    /// Sorts inputs (with their signers) by UTXO id.
    fn sorted_inputs(coins: &[Coin]) -> (Vec<TransferableInput>, Vec<Signer>) {
        let mut pairs: Vec<(TransferableInput, Signer)> = coins.iter().map(Self::input).collect();
        pairs.sort_by_key(|(i, _)| i.utxo_id);
        pairs.into_iter().unzip()
    }

    /// Splits `available` into `n` recipient amounts (each ≥ 1) and a change (maybe 0).
    fn split(&mut self, available: u64, n: usize) -> (Vec<u64>, u64) {
        let mut left = available;
        let mut amounts = Vec::with_capacity(n);
        for _ in 0..n {
            let pct = self.rng.range(5, 45);
            let a = ((u128::from(available) * u128::from(pct)) / 100) as u64;
            let a = a.clamp(1, left.saturating_sub(1).max(1));
            if a > left || left == 0 {
                break;
            }
            amounts.push(a);
            left -= a;
        }
        (amounts, left)
    }

    fn take_avax(&mut self) -> Option<Coin> {
        Pool::take(&mut self.rng, &mut self.pool.ready.avax)
    }

    fn fund(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        let Some(coin) = Pool::take_where(&mut self.pool.ready.avax, |c| {
            c.owners.keys == [EWOQ] && c.amount > 1_000 * FUND_AMOUNT
        }) else {
            return Ok(None);
        };
        let funded = self.seeded_keys.min(MAX_FUNDED_KEYS);
        let mut outs = Vec::with_capacity(2 * funded as usize + 1);
        let mut spent = self.net.x_fees.tx_fee;
        for k in 1..=funded {
            for _ in 0..2 {
                let amount = FUND_AMOUNT + self.rng.below(1_000_000_000);
                spent += amount;
                outs.push(self.out(self.avax, amount, &Owners::single(k)));
            }
        }
        let change = coin.amount.saturating_sub(spent);
        outs.push(self.out(self.avax, change, &Owners::single(EWOQ)));
        sort_outputs(&mut outs);
        let (ins, signers) = Self::sorted_inputs(&[coin]);
        let base = self.base_tx(outs, ins);
        self.sign(UnsignedTx::Base(base), signers).map(Some)
    }

    /// An AVAX transfer from 1–3 coins (or from `first`) to 1–2 recipients plus change.
    fn base(&mut self, first: Option<Coin>) -> Result<Option<ParsedTx>, DevnetError> {
        let mut coins: Vec<Coin> = first.into_iter().collect();
        let want = if self.pool.ready.avax.len() > self.high_water {
            self.rng.range(2, 3) as usize
        } else if self.rng.chance(15) {
            2
        } else {
            1
        };
        while coins.len() < want {
            match self.take_avax() {
                Some(c) => coins.push(c),
                None => break,
            }
        }
        let Some(change_key) = coins.first().and_then(|c| c.owners.keys.first().copied()) else {
            return Ok(None);
        };
        let total: u64 = coins.iter().map(|c| c.amount).sum();
        let available = total - self.net.x_fees.tx_fee;
        let n = if self.pool.ready.avax.len() > 4 * self.high_water || self.rng.chance(70) {
            1
        } else {
            2
        };
        let (amounts, mut change) = self.split(available, n);
        let mut outs = Vec::with_capacity(amounts.len() + 1);
        for a in amounts {
            let to = self.recipient();
            let sent = if to.locktime == 0 {
                a
            } else {
                a.min(MAX_UNSPENDABLE_AMOUNT)
            };
            change += a - sent;
            outs.push(self.out(self.avax, sent, &to));
        }
        if change > 0 {
            outs.push(self.out(self.avax, change, &Owners::single(change_key)));
        }
        sort_outputs(&mut outs);
        let (ins, signers) = Self::sorted_inputs(&coins);
        let base = self.base_tx(outs, ins);
        self.sign(UnsignedTx::Base(base), signers).map(Some)
    }

    /// Moves part of a token coin, paying the fee from an AVAX coin.
    fn token_base(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        if self.pool.ready.tokens.is_empty() || self.pool.ready.avax.is_empty() {
            return Ok(None);
        }
        let (Some(token), Some(fee_coin)) = (
            Pool::take(&mut self.rng, &mut self.pool.ready.tokens),
            self.take_avax(),
        ) else {
            return Ok(None);
        };
        let to = self.recipient();
        let (amounts, change) = if token.amount > 1 {
            self.split(token.amount, 1)
        } else {
            (vec![token.amount], 0)
        };
        let mut outs = Vec::new();
        for a in amounts {
            outs.push(self.out(token.asset, a, &to));
        }
        let token_owner = token.owners.keys.first().copied().unwrap_or(EWOQ);
        if change > 0 {
            outs.push(self.out(token.asset, change, &Owners::single(token_owner)));
        }
        let fee_owner = fee_coin.owners.keys.first().copied().unwrap_or(EWOQ);
        let avax_change = fee_coin.amount - self.net.x_fees.tx_fee;
        outs.push(self.out(self.avax, avax_change, &Owners::single(fee_owner)));
        sort_outputs(&mut outs);
        let (ins, signers) = Self::sorted_inputs(&[token, fee_coin]);
        let base = self.base_tx(outs, ins);
        self.sign(UnsignedTx::Base(base), signers).map(Some)
    }

    /// Pays `fee` from one AVAX coin: the inputs, signers and change output.
    fn fee_part(
        &mut self,
        fee: u64,
    ) -> Option<(Vec<TransferableInput>, Vec<Signer>, Vec<TransferableOutput>)> {
        let coin = self.take_avax()?;
        let owner = coin.owners.keys.first().copied().unwrap_or(EWOQ);
        let mut outs = Vec::new();
        let change = coin.amount - fee;
        if change > 0 {
            outs.push(self.out(self.avax, change, &Owners::single(owner)));
        }
        let (ins, signers) = Self::sorted_inputs(&[coin]);
        Some((ins, signers, outs))
    }

    fn create_fungible(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        let Some((ins, signers, outs)) = self.fee_part(self.net.x_fees.create_asset_tx_fee) else {
            return Ok(None);
        };
        let mut initial = Vec::with_capacity(4);
        for _ in 0..3 {
            let k = self.random_key();
            let amount = self.rng.range(1_000_000_000, 1_000_000_000_000);
            initial.push(Output::Secp256k1Transfer(TransferOutput {
                amount,
                owners: Owners::single(k).to_output_owners(&self.ring),
            }));
        }
        let minter = self.random_key();
        initial.push(Output::Secp256k1Mint(secp256k1fx::MintOutput {
            owners: Owners::single(minter).to_output_owners(&self.ring),
        }));
        initial.sort_by_cached_key(encode_to_vec);
        let tx = CreateAssetTx {
            base: self.base_tx(outs, ins),
            name: "Snowline Token".into(),
            symbol: "SNOW".into(),
            denomination: 6,
            states: vec![InitialState {
                fx_index: 0,
                outputs: initial,
            }],
        };
        self.sign(UnsignedTx::CreateAsset(tx), signers).map(Some)
    }

    fn create_nft(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        let Some((ins, signers, outs)) = self.fee_part(self.net.x_fees.create_asset_tx_fee) else {
            return Ok(None);
        };
        let mut initial = Vec::with_capacity(8);
        for group_id in 0..8 {
            let k = self.random_key();
            initial.push(Output::NftMint(nftfx::MintOutput {
                group_id,
                owners: Owners::single(k).to_output_owners(&self.ring),
            }));
        }
        initial.sort_by_cached_key(encode_to_vec);
        let tx = CreateAssetTx {
            base: self.base_tx(outs, ins),
            name: "Snowline Collectibles".into(),
            symbol: "SNFT".into(),
            denomination: 0,
            states: vec![InitialState {
                fx_index: 1,
                outputs: initial,
            }],
        };
        self.sign(UnsignedTx::CreateAsset(tx), signers).map(Some)
    }

    /// An OperationTx with one operation, paying the fee from an AVAX coin.
    fn operation(
        &mut self,
        op: Operation,
        op_signer: Signer,
    ) -> Result<Option<ParsedTx>, DevnetError> {
        let Some((ins, mut signers, outs)) = self.fee_part(self.net.x_fees.tx_fee) else {
            return Ok(None);
        };
        signers.push(op_signer);
        let tx = OperationTx {
            base: self.base_tx(outs, ins),
            operations: vec![op],
        };
        self.sign(UnsignedTx::Operation(tx), signers).map(Some)
    }

    fn mint_fungible(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        if self.pool.ready.avax.is_empty() {
            return Ok(None);
        }
        let Some(right): Option<MintRight> = Pool::take(&mut self.rng, &mut self.pool.ready.mints)
        else {
            return Ok(None);
        };
        let to = self.recipient();
        let amount = self.rng.range(1_000, 1_000_000_000);
        let (sig_indices, keys) = right.owners.signers();
        let op = Operation {
            asset_id: right.asset,
            utxo_ids: vec![right.utxo_id],
            op: FxOperation::Secp256k1Mint(SecpMintOp {
                mint_input: Input { sig_indices },
                mint_output: secp256k1fx::MintOutput {
                    owners: right.owners.to_output_owners(&self.ring),
                },
                transfer_output: TransferOutput {
                    amount,
                    owners: to.to_output_owners(&self.ring),
                },
            }),
        };
        self.operation(op, Signer { keys, nft: false })
    }

    fn mint_nft(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        if self.pool.ready.avax.is_empty() {
            return Ok(None);
        }
        let Some(right): Option<NftMintRight> =
            Pool::take(&mut self.rng, &mut self.pool.ready.nft_mints)
        else {
            return Ok(None);
        };
        let n = self.rng.range(1, 3);
        let outputs = (0..n)
            .map(|_| Owners::single(self.random_key()).to_output_owners(&self.ring))
            .collect();
        self.nft_counter += 1;
        let payload = format!(
            "snowline nft group {} #{}",
            right.group_id, self.nft_counter
        );
        let (sig_indices, keys) = right.owners.signers();
        let op = Operation {
            asset_id: right.asset,
            utxo_ids: vec![right.utxo_id],
            op: FxOperation::NftMint(nftfx::MintOperation {
                mint_input: Input { sig_indices },
                group_id: right.group_id,
                payload: payload.into_bytes(),
                outputs,
            }),
        };
        self.operation(op, Signer { keys, nft: true })
    }

    fn nft_transfer(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        if self.pool.ready.avax.is_empty() {
            return Ok(None);
        }
        let Some(nft): Option<Nft> = Pool::take(&mut self.rng, &mut self.pool.ready.nfts) else {
            return Ok(None);
        };
        let to = Owners::single(self.random_key());
        let (sig_indices, keys) = nft.owners.signers();
        let op = Operation {
            asset_id: nft.asset,
            utxo_ids: vec![nft.utxo_id],
            op: FxOperation::NftTransfer(nftfx::TransferOperation {
                input: Input { sig_indices },
                output: nftfx::TransferOutput {
                    group_id: nft.group_id,
                    payload: nft.payload,
                    owners: to.to_output_owners(&self.ring),
                },
            }),
        };
        self.operation(op, Signer { keys, nft: true })
    }

    /// A C-Chain export to X was accepted: it waits in X's shared memory for an import.
    pub fn c_exported(&mut self, utxo: AtomicUtxo) {
        self.atomic_c.push_back(utxo);
    }

    fn import(&mut self, from_p: bool) -> Result<Option<ParsedTx>, DevnetError> {
        let queue = if from_p {
            &mut self.atomic_p
        } else {
            &mut self.atomic_c
        };
        let Some(a) = queue.pop_front() else {
            return Ok(None);
        };
        let Output::Secp256k1Transfer(o) = &a.utxo.output else {
            return Ok(None);
        };
        let Some(owners) = Owners::from_output_owners(&self.ring, &o.owners) else {
            return Ok(None);
        };
        let coin = Coin {
            utxo_id: a.utxo.utxo_id,
            asset: a.utxo.asset_id,
            amount: o.amount,
            owners,
        };
        let to = Owners::single(coin.owners.keys.first().copied().unwrap_or(EWOQ));
        let outs = vec![self.out(self.avax, coin.amount - self.net.x_fees.tx_fee, &to)];
        let (imported, signers) = Self::sorted_inputs(&[coin]);
        let tx = ImportTx {
            base: self.base_tx(outs, Vec::new()),
            source_chain: a.source_chain,
            imported_inputs: imported,
        };
        self.sign(UnsignedTx::Import(tx), signers).map(Some)
    }

    fn export(&mut self, to_p: bool) -> Result<Option<ParsedTx>, DevnetError> {
        let Some(coin) = self.take_avax() else {
            return Ok(None);
        };
        let owner = coin.owners.keys.first().copied().unwrap_or(EWOQ);
        let available = coin.amount - self.net.x_fees.tx_fee;
        let (amounts, mut change) = self.split(available, 1);
        let mut exported = Vec::new();
        for a in amounts {
            let to = Owners::single(self.random_key());
            let sent = a.min(MAX_UNSPENDABLE_AMOUNT);
            change += a - sent;
            exported.push(self.out(self.avax, sent, &to));
        }
        let mut outs = Vec::new();
        if change > 0 {
            outs.push(self.out(self.avax, change, &Owners::single(owner)));
        }
        let (ins, signers) = Self::sorted_inputs(&[coin]);
        let tx = ExportTx {
            base: self.base_tx(outs, ins),
            destination_chain: if to_p {
                self.net.p_chain_id
            } else {
                self.net.c_chain_id
            },
            exported_outputs: exported,
        };
        self.sign(UnsignedTx::Export(tx), signers).map(Some)
    }

    /// Signs `sha256(unsigned bytes)` once per distinct key and assembles the credentials.
    fn sign(&self, unsigned: UnsignedTx, signers: Vec<Signer>) -> Result<ParsedTx, DevnetError> {
        let hash = sha256(&unsigned.bytes());
        let mut cache: Vec<(u32, secp256k1fx::Signature)> = Vec::new();
        let mut creds = Vec::with_capacity(signers.len());
        for s in signers {
            let mut sigs = Vec::with_capacity(s.keys.len());
            for k in s.keys {
                let sig = match cache.iter().find(|(ck, _)| *ck == k) {
                    Some((_, sig)) => *sig,
                    None => {
                        let key = self
                            .ring
                            .key(k)
                            .ok_or(DevnetError::OutOfUtxos("an unknown signer"))?;
                        let sig = key.sign_hash(&hash)?;
                        cache.push((k, sig));
                        sig
                    }
                };
                sigs.push(sig);
            }
            let cred = secp256k1fx::Credential { sigs };
            creds.push(if s.nft {
                Credential::Nft(cred)
            } else {
                Credential::Secp256k1(cred)
            });
        }
        Ok(ParsedTx::from_tx(Tx::new(unsigned, creds)))
    }

    /// Records the outputs of an accepted tx as pending UTXOs, numbering them as avalanchego's
    /// executor does: base outputs, then initial states or operation outputs in order.
    fn absorb(&mut self, tx: &ParsedTx) {
        let id = tx.id;
        let unsigned = &tx.tx.unsigned;
        let mut index: u32 = 0;
        for o in &unsigned.base().outputs {
            let TransferableOut::Secp256k1(out) = &o.output;
            self.absorb_output(
                id,
                index,
                o.asset_id,
                &Output::Secp256k1Transfer(out.clone()),
            );
            index += 1;
        }
        match unsigned {
            UnsignedTx::CreateAsset(t) => {
                for s in &t.states {
                    for out in &s.outputs {
                        self.absorb_output(id, index, id, out);
                        index += 1;
                    }
                }
            }
            UnsignedTx::Operation(t) => {
                for op in &t.operations {
                    for out in operation_outputs(&op.op) {
                        self.absorb_output(id, index, op.asset_id, &out);
                        index += 1;
                    }
                }
            }
            _ => {}
        }
    }

    fn absorb_output(&mut self, tx_id: Id, index: u32, asset: Id, out: &Output) {
        let utxo_id = snowline_types::components::UtxoId::new(tx_id, index);
        let owners_of = |o: &secp256k1fx::OutputOwners| {
            Owners::from_output_owners(&self.ring, o).filter(|w| w.locktime == 0)
        };
        let pending = &mut self.pool.pending;
        match out {
            Output::Secp256k1Transfer(o) => {
                let Some(owners) = owners_of(&o.owners) else {
                    return;
                };
                let coin = Coin {
                    utxo_id,
                    asset,
                    amount: o.amount,
                    owners,
                };
                if asset == self.avax {
                    if coin.amount >= self.min_coin {
                        pending.avax.push(coin);
                    }
                } else {
                    pending.tokens.push(coin);
                }
            }
            Output::Secp256k1Mint(o) => {
                if let Some(owners) = owners_of(&o.owners) {
                    pending.mints.push(MintRight {
                        utxo_id,
                        asset,
                        owners,
                    });
                }
            }
            Output::NftMint(o) => {
                if let Some(owners) = owners_of(&o.owners) {
                    pending.nft_mints.push(NftMintRight {
                        utxo_id,
                        asset,
                        group_id: o.group_id,
                        owners,
                    });
                }
            }
            Output::NftTransfer(o) => {
                if let Some(owners) = owners_of(&o.owners) {
                    pending.nfts.push(Nft {
                        utxo_id,
                        asset,
                        group_id: o.group_id,
                        payload: o.payload.clone(),
                        owners,
                    });
                }
            }
            Output::PropertyMint(_) | Output::PropertyOwned(_) => {}
        }
    }
}
