// The P-Chain of the devnet, read from its own bytes, for run.mjs's checks of the Data API's
// P-Chain endpoints: a parser of the proposervm-wrapped Banff blocks and the platformvm txs the
// devnet makes (avalanchego's codec layouts: vms/proposervm/block, vms/platformvm/block and
// txs, vms/platformvm/warp), and a replay of the history that keeps what the checks compare:
// every tx with its id, the stakers and their settlement, the chains and subnets created, the
// L1 validators (weights, deactivations), and the UTXOs (created, spent, staked). Written from the
// formats, not from Snowline's Rust parsers, so it is a second reading of the same bytes.

import { createHash } from "node:crypto";

const sha256 = (b) => createHash("sha256").update(b).digest();
const ripemd160 = (b) => createHash("ripemd160").update(b).digest();
const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
function base58(bytes) {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let s = "";
  while (n > 0n) {
    s = B58[Number(n % 58n)] + s;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    s = "1" + s;
  }
  return s;
}
export const cb58 = (bytes) => base58(Buffer.concat([bytes, sha256(bytes).subarray(28)]));
export const nodeIdOf = (bytes) => `NodeID-${cb58(bytes)}`;
/** `NodeID-…` of a staking certificate (DER): hash160. */
export const nodeIdOfCert = (cert) => nodeIdOf(ripemd160(sha256(cert)));

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
function polymod(values) {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i];
  }
  return chk;
}
/** Bech32 `P-hrp1…` of a 20-byte short id. */
export function pAddress(hrp, short) {
  const data = [];
  let acc = 0;
  let bits = 0;
  for (const b of short) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      data.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) data.push((acc << (5 - bits)) & 31);
  const expand = [...hrp].map((c) => c.charCodeAt(0) >> 5).concat([0], [...hrp].map((c) => c.charCodeAt(0) & 31));
  const mod = polymod([...expand, ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return `P-${hrp}1${[...data, ...checksum].map((d) => BECH32[d]).join("")}`;
}

class Reader {
  constructor(bytes, at = 0) {
    this.b = bytes;
    this.at = at;
  }
  take(n) {
    if (this.at + n > this.b.length) throw new Error(`read past the end (${this.at}+${n} > ${this.b.length})`);
    const s = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return s;
  }
  u16() {
    return this.take(2).readUInt16BE(0);
  }
  u32() {
    return this.take(4).readUInt32BE(0);
  }
  u64() {
    return this.take(8).readBigUInt64BE(0);
  }
  id() {
    return cb58(this.take(32));
  }
  bytes() {
    return this.take(this.u32());
  }
  list(f) {
    const n = this.u32();
    const out = [];
    for (let i = 0; i < n; i++) out.push(f(this));
    return out;
  }
  done(what) {
    if (this.at !== this.b.length) throw new Error(`${what}: ${this.b.length - this.at} bytes left over`);
  }
}

// ---------- outputs, inputs, owners ----------
function owners(r) {
  const locktime = r.u64();
  const threshold = r.u32();
  const addrs = r.list((r) => Buffer.from(r.take(20)));
  return { locktime, threshold, addrs };
}
/** An output (type id + body): secp256k1 transfer (7), or stakeable.LockOut (22) around one. */
function output(r) {
  const start = r.at;
  const typeId = r.u32();
  let o;
  if (typeId === 7) {
    const amount = r.u64();
    o = { typeId, amount, ...owners(r), stakeableLocktime: 0n };
  } else if (typeId === 22) {
    const stakeableLocktime = r.u64();
    const inner = output(r);
    o = { ...inner, typeId, stakeableLocktime };
  } else {
    throw new Error(`output type ${typeId}`);
  }
  o.bytes = r.b.subarray(start, r.at);
  return o;
}
function transferableOutput(r) {
  const start = r.at;
  const assetId = r.id();
  const out = output(r);
  return { assetId, ...out, full: r.b.subarray(start, r.at) };
}
/** An input (type id + body): secp256k1 transfer (5), or stakeable.LockIn (21) around one. */
function input(r) {
  const typeId = r.u32();
  if (typeId === 5) {
    const amount = r.u64();
    r.list((r) => r.u32());
    return { amount };
  }
  if (typeId === 21) {
    r.u64();
    return input(r);
  }
  throw new Error(`input type ${typeId}`);
}
function transferableInput(r) {
  const txId = r.id();
  const outputIndex = r.u32();
  const assetId = r.id();
  return { txId, outputIndex, assetId, ...input(r) };
}
function subnetAuth(r) {
  const typeId = r.u32();
  if (typeId !== 10) throw new Error(`subnet auth type ${typeId}`);
  r.list((r) => r.u32());
}
function ownersObject(r) {
  const typeId = r.u32();
  if (typeId !== 11) throw new Error(`owner type ${typeId}`);
  return owners(r);
}
function pChainOwner(r) {
  const threshold = r.u32();
  const addrs = r.list((r) => Buffer.from(r.take(20)));
  return { threshold, addrs };
}
function baseTx(r) {
  const networkId = r.u32();
  const blockchainId = r.id();
  const outs = r.list(transferableOutput);
  const ins = r.list(transferableInput);
  const memo = r.bytes();
  return { networkId, blockchainId, outs, ins, memo };
}
function signer(r) {
  const typeId = r.u32();
  if (typeId === 27) return null;
  if (typeId !== 28) throw new Error(`signer type ${typeId}`);
  return { publicKey: Buffer.from(r.take(48)), pop: Buffer.from(r.take(96)) };
}
function validator(r) {
  return { nodeId: nodeIdOf(r.take(20)), start: r.u64(), end: r.u64(), weight: r.u64() };
}

/** A Warp `AddressedCall` payload of a signed message: the P-Chain message inside. */
function warpMessage(bytes) {
  const r = new Reader(bytes);
  if (r.u16() !== 0) throw new Error("warp codec");
  r.u32(); // network id
  r.id(); // source chain
  const payload = r.bytes();
  const sigType = r.u32();
  if (sigType !== 0) throw new Error(`warp signature type ${sigType}`);
  r.bytes(); // signers
  r.take(96);
  r.done("warp message");
  const p = new Reader(payload);
  if (p.u16() !== 0 || p.u32() !== 1) throw new Error("not an AddressedCall");
  p.bytes(); // source address
  const inner = p.bytes();
  p.done("AddressedCall");
  const m = new Reader(inner);
  if (m.u16() !== 0) throw new Error("message codec");
  const type = m.u32();
  if (type === 1) {
    const msg = {
      type: "register",
      validationId: cb58(sha256(inner)),
      subnetId: m.id(),
      nodeId: nodeIdOf(m.bytes()),
      publicKey: Buffer.from(m.take(48)),
      expiry: m.u64(),
      remainingBalanceOwner: pChainOwner(m),
      deactivationOwner: pChainOwner(m),
      weight: m.u64(),
    };
    m.done("RegisterL1Validator");
    return msg;
  }
  if (type === 3) {
    const msg = { type: "weight", validationId: m.id(), nonce: m.u64(), weight: m.u64() };
    m.done("L1ValidatorWeight");
    return msg;
  }
  throw new Error(`warp message type ${type}`);
}

const TX_KINDS = {
  15: "CreateChainTx",
  16: "CreateSubnetTx",
  17: "ImportTx",
  18: "ExportTx",
  20: "RewardValidatorTx",
  25: "AddPermissionlessValidatorTx",
  26: "AddPermissionlessDelegatorTx",
  34: "BaseTx",
  35: "ConvertSubnetToL1Tx",
  36: "RegisterL1ValidatorTx",
  37: "SetL1ValidatorWeightTx",
  38: "IncreaseL1ValidatorBalanceTx",
  39: "DisableL1ValidatorTx",
};

/**
 * One signed tx read from `r` (type id, body, credentials; no codec version: inside a block, or
 * after the codec version of a standalone tx). Its id is sha256(u16 0 ‖ those bytes).
 */
function tx(r) {
  const start = r.at;
  const typeId = r.u32();
  const kind = TX_KINDS[typeId];
  if (!kind) throw new Error(`tx type ${typeId}`);
  const t = { kind };
  if (typeId !== 20) Object.assign(t, baseTx(r));
  else Object.assign(t, { outs: [], ins: [] });
  switch (typeId) {
    case 15:
      t.subnetId = r.id();
      t.chainName = r.take(r.u16()).toString("utf8");
      t.vmId = r.id();
      t.fxIds = r.list((r) => r.id());
      t.genesis = Buffer.from(r.bytes());
      subnetAuth(r);
      break;
    case 16:
      t.owner = ownersObject(r);
      break;
    case 17:
      t.sourceChain = r.id();
      t.importedIns = r.list(transferableInput);
      break;
    case 18:
      t.destinationChain = r.id();
      t.exportedOuts = r.list(transferableOutput);
      break;
    case 20:
      t.stakerTxId = r.id();
      break;
    case 25:
      t.validator = validator(r);
      t.subnetId = r.id();
      t.signer = signer(r);
      t.stakeOuts = r.list(transferableOutput);
      t.rewardsOwner = ownersObject(r);
      t.delegatorRewardsOwner = ownersObject(r);
      t.delegationShares = r.u32();
      break;
    case 26:
      t.validator = validator(r);
      t.subnetId = r.id();
      t.stakeOuts = r.list(transferableOutput);
      t.rewardsOwner = ownersObject(r);
      break;
    case 34:
      break;
    case 35:
      t.subnetId = r.id();
      t.chainId = r.id();
      t.managerAddress = Buffer.from(r.bytes());
      t.validators = r.list((r) => ({
        nodeId: nodeIdOf(r.bytes()),
        weight: r.u64(),
        balance: r.u64(),
        publicKey: Buffer.from(r.take(48)),
        pop: Buffer.from(r.take(96)),
        remainingBalanceOwner: pChainOwner(r),
        deactivationOwner: pChainOwner(r),
      }));
      subnetAuth(r);
      break;
    case 36:
      t.balance = r.u64();
      t.pop = Buffer.from(r.take(96));
      t.message = warpMessage(r.bytes());
      break;
    case 37:
      t.message = warpMessage(r.bytes());
      break;
    case 38:
      t.validationId = r.id();
      t.balance = r.u64();
      break;
    case 39:
      t.validationId = r.id();
      subnetAuth(r);
      break;
  }
  r.list((r) => {
    const typeId = r.u32();
    if (typeId !== 9) throw new Error(`credential type ${typeId}`);
    r.list((r) => r.take(65));
  });
  t.id = cb58(sha256(Buffer.concat([Buffer.alloc(2), r.b.subarray(start, r.at)])));
  return t;
}

/** Bytes of the API hex encoding (`0x` + hex + 4-byte sha256 checksum), checksum verified. */
export function fromApiHex(hex) {
  const all = Buffer.from(hex.slice(2), "hex");
  const body = all.subarray(0, all.length - 4);
  if (!sha256(body).subarray(28).equals(all.subarray(all.length - 4))) throw new Error(`bad checksum in ${hex.slice(0, 20)}…`);
  return body;
}

/** A standalone signed tx (with its codec version), e.g. a genesis validator's. */
export function parseTx(bytes) {
  const r = new Reader(bytes);
  if (r.u16() !== 0) throw new Error("tx codec");
  const t = tx(r);
  r.done(`tx ${t.kind}`);
  return t;
}

const BLOCK_KINDS = { 29: "BanffProposalBlock", 30: "BanffAbortBlock", 31: "BanffCommitBlock", 32: "BanffStandardBlock" };

/** A Banff P-Chain block (the devnet makes no Apricot ones). */
function innerBlock(bytes) {
  const r = new Reader(bytes);
  if (r.u16() !== 0) throw new Error("block codec");
  const typeId = r.u32();
  const type = BLOCK_KINDS[typeId];
  if (!type) throw new Error(`block type ${typeId}`);
  const b = { type, id: cb58(sha256(bytes)), time: r.u64() };
  let txs = [];
  if (typeId === 29) txs = r.list(tx);
  b.parentId = r.id();
  b.height = r.u64();
  if (typeId === 29) txs.push(tx(r));
  if (typeId === 32) txs = r.list(tx);
  r.done(type);
  b.txs = txs;
  return b;
}

/**
 * A `P/block` container: the proposervm block (signed, type 0, or option, type 1) and the block
 * it wraps. `id` is the proposervm id, the one the index and the Data API use: sha256 of an
 * option's bytes, of a signed block's bytes without the signature.
 */
export function parseContainer(bytes) {
  const r = new Reader(bytes);
  if (r.u16() !== 0) throw new Error("proposervm codec");
  const typeId = r.u32();
  const c = { id: cb58(sha256(bytes)), size: bytes.length };
  c.parentId = r.id();
  if (typeId === 0) {
    c.timestamp = r.u64();
    c.pChainHeight = r.u64();
    const cert = r.bytes();
    c.proposer = cert.length > 0 ? nodeIdOfCert(cert) : undefined;
    c.inner = innerBlock(r.bytes());
    // The id of a signed block hashes its unsigned part: all before the signature's length
    // (vms/proposervm/block/build.go).
    c.id = cb58(sha256(bytes.subarray(0, r.at)));
    r.bytes(); // signature
  } else if (typeId === 1) {
    c.inner = innerBlock(r.bytes());
  } else {
    throw new Error(`proposervm block type ${typeId}`);
  }
  r.done("proposervm block");
  return c;
}

/** The id of UTXO (tx, index), avalanchego's `UTXOID.InputID()`: sha256(u64 index ‖ tx id). */
export function utxoId(txIdBytes, index) {
  const i = Buffer.alloc(8);
  i.writeUInt32BE(index, 4);
  return cb58(sha256(Buffer.concat([i, txIdBytes])));
}
/** cb58 id -> 32 bytes (checksum verified). */
export function idBytes(id) {
  let n = 0n;
  for (const c of id) {
    const v = B58.indexOf(c);
    if (v < 0) throw new Error(`not cb58: ${id}`);
    n = n * 58n + BigInt(v);
  }
  const out = Buffer.alloc(36);
  for (let i = 35; i >= 0; i--) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  const body = out.subarray(0, 32);
  if (!sha256(body).subarray(28).equals(out.subarray(32))) throw new Error(`bad cb58 checksum: ${id}`);
  return body;
}

/** UTXO bytes as the APIs show them (codec 0, tx id, index, asset, output). */
function utxoBytes(txId, index, out) {
  const i = Buffer.alloc(4);
  i.writeUInt32BE(index);
  return Buffer.concat([Buffer.alloc(2), idBytes(txId), i, idBytes(out.assetId), out.bytes]);
}

/** A secp256k1 TransferOutput (type 7, no locktime) of AVAX to a P-Chain owner, as a refund. */
function refundOutput(assetId, amount, owner) {
  const head = Buffer.alloc(24);
  head.writeUInt32BE(7, 0);
  head.writeBigUInt64BE(amount, 4);
  head.writeBigUInt64BE(0n, 12);
  head.writeUInt32BE(owner.threshold, 20);
  const n = Buffer.alloc(4);
  n.writeUInt32BE(owner.addrs.length);
  const bytes = Buffer.concat([head, n, ...owner.addrs]);
  return { assetId, typeId: 7, amount, locktime: 0n, threshold: owner.threshold, addrs: owner.addrs, stakeableLocktime: 0n, bytes };
}

/**
 * Replays the devnet's P-Chain: `genesis` is genesis.json's `pGenesis`, `containers` the
 * `P/block` containers in index order ({ id, bytes: "0x…" with checksum, index }).
 */
export function replay(pGenesis, containers, { avaxAssetId }) {
  const blocks = [];
  const txs = new Map(); // id -> { tx, block (index into blocks), time }
  const utxos = new Map(); // utxo id -> { txId, index, out, bytes, createdTime, staked, spentBy, reward }
  const stakers = new Map(); // staker tx id -> { tx, start, end, nodeId, weight, kind, genesis, settled: undefined|"commit"|"abort", rewardTxId }
  const chains = new Map(); // chain id -> { tx, time, height }
  const subnets = new Map(); // subnet id -> { tx, time }
  const l1 = new Map(); // validation id -> { nodeId, subnetId, weight, created, active, balanceIn, publicKey, pop, remainingBalanceOwner, deactivationOwner }
  const atomicToX = []; // outputs P exported to X
  const addUtxo = (txId, index, out, time, extra = {}) => {
    const id = utxoId(idBytes(txId), index);
    utxos.set(id, { id, txId, index, out, bytes: utxoBytes(txId, index, out), createdTime: time, ...extra });
  };
  const spend = (ins, by, time) => {
    for (const i of ins) {
      const id = utxoId(idBytes(i.txId), i.outputIndex);
      const u = utxos.get(id);
      if (u) {
        u.spentBy = by;
        u.spentTime = time;
      }
    }
  };
  const addStaker = (t, time, genesis) => {
    const outs = t.outs.length;
    t.stakeOuts.forEach((o, k) => addUtxo(t.id, outs + k, o, time, { staked: true, stakerTxId: t.id }));
    stakers.set(t.id, {
      tx: t,
      kind: t.kind === "AddPermissionlessValidatorTx" ? "validator" : "delegator",
      nodeId: t.validator.nodeId,
      weight: t.validator.weight,
      // From Durango (always on local networks) a staker starts when accepted; genesis ones at
      // the genesis time.
      start: time,
      end: t.validator.end,
      genesis,
    });
  };
  const gTime = BigInt(pGenesis.timestamp);
  // Genesis UTXOs, as genesis.json lists them (API hex with checksum).
  for (const hex of pGenesis.utxos) {
    const bytes = fromApiHex(hex);
    const r = new Reader(bytes);
    r.u16();
    const txId = r.id();
    const index = r.u32();
    const out = transferableOutput(r);
    r.done("genesis UTXO");
    const id = utxoId(idBytes(txId), index);
    utxos.set(id, { id, txId, index, out, bytes, createdTime: gTime });
  }
  for (const v of pGenesis.validators) {
    const t = parseTx(fromApiHex(v.tx));
    if (t.id !== v.id) throw new Error(`genesis validator ${v.id}: id is ${t.id}`);
    txs.set(t.id, { tx: t, block: undefined, time: gTime });
    addStaker(t, gTime, true);
  }
  for (const c of pGenesis.chains) {
    const t = parseTx(fromApiHex(c.tx));
    if (t.id !== c.id) throw new Error(`genesis chain ${c.id}: id is ${t.id}`);
    chains.set(t.id, { tx: t, time: gTime, height: 0n });
  }
  let pendingReward; // { rewardTx } waiting for its option
  // ACP-77 fee state: the accrued fee per active L1 validator since the P-Chain's genesis
  // (`advanceValidatorFeeState` adds `CostOf(seconds)` on every time advance, with or without
  // validators; far below the target the price is the minimum, 1 nAVAX/s on local networks), and
  // each validator's `EndAccumulatedFee` (its balance runs out when `accrued` reaches it).
  let accrued = 0n;
  let chainTime = gTime;
  const l1Add = (id, v, balance) => {
    l1.set(id, { ...v, active: balance > 0n, endAccumulatedFee: accrued + balance });
  };
  for (const c of containers) {
    const bytes = fromApiHex(c.bytes);
    const b = parseContainer(bytes);
    if (b.id !== c.id) throw new Error(`container ${c.id}: id is ${b.id}`);
    b.index = Number(c.index);
    const time = b.inner.time;
    const at = blocks.length;
    blocks.push(b);
    if (time > chainTime) {
      accrued += time - chainTime;
      chainTime = time;
      for (const v of l1.values()) {
        if (v.active && v.endAccumulatedFee <= accrued) throw new Error("an L1 validator ran out of balance: not modelled here");
      }
    }
    const l1State = () => {
      b.l1Accrued = accrued;
      b.l1Active = [...l1.values()].filter((v) => v.active).length;
    };
    if (b.inner.type === "BanffCommitBlock" || b.inner.type === "BanffAbortBlock") {
      if (!pendingReward) throw new Error(`option ${b.id} without a proposal`);
      const s = stakers.get(pendingReward.stakerTxId);
      s.settled = b.inner.type === "BanffCommitBlock" ? "commit" : "abort";
      s.rewardTxId = pendingReward.id;
      s.settledTime = time;
      // The stake comes back unspent, under the same ids, no longer staked.
      for (const u of utxos.values()) if (u.stakerTxId === s.tx.id) u.staked = false;
      pendingReward = undefined;
      l1State();
      continue;
    }
    for (const t of b.inner.txs) {
      txs.set(t.id, { tx: t, block: at, time });
      spend(t.ins, t.id, time);
      t.outs.forEach((o, i) => addUtxo(t.id, i, o, time));
      switch (t.kind) {
        case "ImportTx":
          break;
        case "ExportTx":
          t.exportedOuts.forEach((o, k) => atomicToX.push({ txId: t.id, index: t.outs.length + k, out: o, destination: t.destinationChain }));
          break;
        case "RewardValidatorTx":
          pendingReward = t;
          break;
        case "AddPermissionlessValidatorTx":
        case "AddPermissionlessDelegatorTx":
          addStaker(t, time, false);
          break;
        case "CreateSubnetTx":
          subnets.set(t.id, { tx: t, time });
          break;
        case "CreateChainTx":
          chains.set(t.id, { tx: t, time, height: b.inner.height });
          break;
        case "ConvertSubnetToL1Tx":
          t.validators.forEach((v, i) => {
            const idx = Buffer.alloc(4);
            idx.writeUInt32BE(i);
            const id = cb58(sha256(Buffer.concat([idBytes(t.subnetId), idx])));
            l1Add(id, { ...v, subnetId: t.subnetId, created: time }, v.balance);
          });
          break;
        case "RegisterL1ValidatorTx": {
          const m = t.message;
          l1Add(
            m.validationId,
            {
              nodeId: m.nodeId,
              subnetId: m.subnetId,
              weight: m.weight,
              publicKey: m.publicKey,
              pop: t.pop,
              remainingBalanceOwner: m.remainingBalanceOwner,
              deactivationOwner: m.deactivationOwner,
              created: time,
            },
            t.balance,
          );
          break;
        }
        case "SetL1ValidatorWeightTx": {
          const v = l1.get(t.message.validationId);
          if (!v) throw new Error(`weight change of unknown validator ${t.message.validationId}`);
          v.weight = t.message.weight;
          if (v.weight === 0n) {
            // Removed; the balance left is refunded to the remaining-balance owner, at the index
            // after the tx's outputs (SetL1ValidatorWeightTx executor).
            if (v.active) addUtxo(t.id, t.outs.length, refundOutput(avaxAssetId, v.endAccumulatedFee - accrued, v.remainingBalanceOwner), time, { refund: true });
            v.removed = true;
            v.active = false;
          }
          break;
        }
        case "IncreaseL1ValidatorBalanceTx": {
          // Adds to the balance; an inactive validator becomes active with this balance.
          const v = l1.get(t.validationId);
          v.endAccumulatedFee = (v.active ? v.endAccumulatedFee : accrued) + t.balance;
          v.active = true;
          break;
        }
        case "DisableL1ValidatorTx": {
          // Deactivated; the balance left is refunded.
          const v = l1.get(t.validationId);
          if (v.active) addUtxo(t.id, t.outs.length, refundOutput(avaxAssetId, v.endAccumulatedFee - accrued, v.remainingBalanceOwner), time, { refund: true });
          v.active = false;
          v.endAccumulatedFee = accrued;
          break;
        }
      }
    }
    l1State();
  }
  // Each L1 validator's balance now: what is left of its EndAccumulatedFee (0 when inactive).
  for (const v of l1.values()) v.balance = v.active ? v.endAccumulatedFee - accrued : 0n;
  if (pendingReward) throw new Error("the last reward proposal has no option");
  return { blocks, txs, utxos, stakers, chains, subnets, l1, atomicToX, chainTime };
}
