// The EVM devnet recordings (fixtures/evm/devnet/<chain id>.jsonl) read by hand: what the recorded
// JSON-RPC answers of anvil say happened, for run.mjs' EVM checks and schemathesis' dictionaries.
// Nothing here comes from Snowline's Rust code: blocks and receipts as recorded, token transfers
// decoded from the logs' topics (EIP-20, EIP-721, EIP-1155 event signatures), internal
// transactions walked from the callTracer traces, contract creations, and the recorded
// eth_getBalance answers. Addresses are EIP-55 checksummed with a keccak-256 written here.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { replay } from "./pchain.mjs";

/** A chain's recording: in fixtures/evm/devnet, or the directory SNOWLINE_EVM_RECORDINGS names. */
export const recordingPath = (chainId) =>
  join(
    process.env.SNOWLINE_EVM_RECORDINGS ?? join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "evm", "devnet"),
    `${chainId}.jsonl`,
  );

// ---------- keccak-256 (Keccak-f[1600], rate 1088 bits, padding 0x01 ... 0x80) ----------
const M64 = (1n << 64n) - 1n;
const RC = [];
{
  // Round constants from the LFSR of FIPS 202, section 3.2.5.
  let r = 1;
  for (let i = 0; i < 24; i++) {
    let c = 0n;
    for (let j = 0; j < 7; j++) {
      if (r & 1) c |= 1n << BigInt((1 << j) - 1);
      r = r & 0x80 ? ((r << 1) ^ 0x71) & 0xff : (r << 1) & 0xff;
    }
    RC.push(c);
  }
}
const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
const rotl = (x, n) => (n === 0 ? x : ((x << BigInt(n)) | (x >> BigInt(64 - n))) & M64);
function keccakF(s) {
  for (let round = 0; round < 24; round++) {
    const c = [0, 1, 2, 3, 4].map((x) => s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20]);
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
      for (let y = 0; y < 25; y += 5) s[x + y] ^= d;
    }
    const b = new Array(25);
    for (let x = 0; x < 5; x++) for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(s[x + 5 * y], ROT[x + 5 * y]);
    for (let x = 0; x < 5; x++) for (let y = 0; y < 5; y++) s[x + 5 * y] = b[x + 5 * y] ^ (~b[((x + 1) % 5) + 5 * y] & M64 & b[((x + 2) % 5) + 5 * y]);
    s[0] ^= RC[round];
  }
}
/** keccak-256 of `data` (Buffer or string), as a Buffer. */
export function keccak256(data) {
  const msg = Buffer.from(data);
  const rate = 136;
  const padded = Buffer.alloc(Math.floor(msg.length / rate) * rate + rate);
  msg.copy(padded);
  padded[msg.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;
  const s = new Array(25).fill(0n);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) s[i] ^= padded.readBigUInt64LE(off + 8 * i);
    keccakF(s);
  }
  const out = Buffer.alloc(32);
  for (let i = 0; i < 4; i++) out.writeBigUInt64LE(s[i], 8 * i);
  return out;
}
if (keccak256("").toString("hex") !== "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470") {
  throw new Error("keccak-256 self-test failed");
}

/** EIP-55: an address with the case of each hex letter set by the keccak of its lowercase hex. */
export function checksum(address) {
  const hex = address.toLowerCase().replace(/^0x/, "");
  if (!/^[0-9a-f]{40}$/.test(hex)) throw new Error(`not an address: ${address}`);
  const h = keccak256(hex).toString("hex");
  return `0x${[...hex].map((c, i) => (parseInt(h[i], 16) >= 8 ? c.toUpperCase() : c)).join("")}`;
}

// ---------- the recording ----------
const big = (v) => BigInt(v);
const num = (v) => Number(BigInt(v));
const hexQ = (n) => `0x${n.toString(16)}`;
const word = (data, i) => BigInt(`0x${data.slice(2 + 64 * i, 2 + 64 * (i + 1))}`);
const topicAddr = (t) => `0x${t.slice(26)}`;
const sig = (s) => `0x${keccak256(s).toString("hex")}`;
const TRANSFER = sig("Transfer(address,address,uint256)");
const SINGLE = sig("TransferSingle(address,address,address,uint256,uint256)");
const BATCH = sig("TransferBatch(address,address,address,uint256[],uint256[])");

/** A recording read as JSON lines; every derived list in chain order. */
export class Recording {
  constructor(chainId) {
    this.chainId = chainId;
    this.lines = readFileSync(recordingPath(chainId), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l));
    this.index = new Map(this.lines.map((l) => [`${l.method} ${JSON.stringify(l.params)}`, l]));
    const recordedChain = num(this.answer("eth_chainId", []));
    if (recordedChain !== chainId) throw new Error(`${chainId}.jsonl records chain ${recordedChain}`);
    this.tip = num(this.answer("eth_blockNumber", []));
    this.blocks = [];
    for (let n = 0; n <= this.tip; n++) {
      const tag = hexQ(n);
      this.blocks.push({
        number: n,
        block: this.answer("eth_getBlockByNumber", [tag, true]),
        receipts: this.answer("eth_getBlockReceipts", [tag]),
        traces: this.answer("debug_traceBlockByNumber", [tag, { tracer: "callTracer" }]),
      });
    }
  }

  /** The recorded result of `method(params)` (undefined when not recorded or an error). */
  answer(method, params) {
    return this.index.get(`${method} ${JSON.stringify(params)}`)?.result;
  }

  /** Every token transfer the logs record, one per id of an ERC-1155 batch. */
  transfers() {
    const out = [];
    for (const b of this.blocks) {
      for (const r of b.receipts) {
        for (const log of r.logs) {
          const [t0, ...t] = log.topics;
          const base = { token: log.address, block: b.number, logIndex: num(log.logIndex), txHash: log.transactionHash };
          if (t0 === TRANSFER && t.length === 2) {
            out.push({ ...base, standard: 20, from: topicAddr(t[0]), to: topicAddr(t[1]), value: word(log.data, 0), id: 0n });
          } else if (t0 === TRANSFER && t.length === 3) {
            out.push({ ...base, standard: 721, from: topicAddr(t[0]), to: topicAddr(t[1]), value: 1n, id: BigInt(t[2]) });
          } else if (t0 === SINGLE) {
            out.push({ ...base, standard: 1155, from: topicAddr(t[1]), to: topicAddr(t[2]), id: word(log.data, 0), value: word(log.data, 1) });
          } else if (t0 === BATCH) {
            const ids = Number(word(log.data, 0) / 32n);
            const values = Number(word(log.data, 1) / 32n);
            const n = Number(word(log.data, ids));
            for (let i = 0; i < n; i++) {
              out.push({ ...base, standard: 1155, batchIndex: i, from: topicAddr(t[1]), to: topicAddr(t[2]), id: word(log.data, ids + 1 + i), value: word(log.data, values + 1 + i) });
            }
          }
        }
      }
    }
    return out;
  }

  /** The call frames listed as internal transactions: value-carrying CALL/CALLCODE, every CREATE/CREATE2. */
  frames() {
    const out = [];
    const walk = (f, depth, revertedAbove, at) => {
      const value = f.value === undefined ? 0n : big(f.value);
      const reverted = revertedAbove || f.error !== undefined;
      const listed = ["CALL", "CALLCODE"].includes(f.type) ? value !== 0n : ["CREATE", "CREATE2"].includes(f.type);
      if (listed) {
        out.push({ ...at, depth, kind: f.type, from: f.from, to: f.to, value, gas: big(f.gas), gasUsed: big(f.gasUsed), reverted });
      }
      for (const c of f.calls ?? []) walk(c, depth + 1, reverted, at);
    };
    for (const b of this.blocks) {
      b.traces.forEach((t, i) => walk(t.result, 0, false, { block: b.number, txIndex: i, txHash: b.block.transactions[i].hash }));
    }
    return out;
  }

  /** Contracts created and kept: by a tx (its receipt's contractAddress) or by a factory inside one. */
  creations() {
    const frames = this.frames();
    const out = [];
    for (const b of this.blocks) {
      b.block.transactions.forEach((tx, i) => {
        const receipt = b.receipts[i];
        if (receipt.status !== "0x0" && receipt.contractAddress) {
          out.push({ address: receipt.contractAddress, deployer: tx.from, factory: undefined, txHash: tx.hash, block: b.number });
        }
        for (const f of frames.filter((f) => f.txHash === tx.hash)) {
          if (["CREATE", "CREATE2"].includes(f.kind) && !f.reverted && f.depth > 0) {
            out.push({ address: f.to, deployer: tx.from, factory: f.from, txHash: tx.hash, block: b.number });
          }
        }
      });
    }
    return out;
  }

  /** Every address with a recorded eth_getBalance, lowercase. */
  balanceAddresses() {
    return [...new Set(this.lines.filter((l) => l.method === "eth_getBalance").map((l) => l.params[0].toLowerCase()))];
  }

  /** The accounts the recording reads at block 0: the genesis alloc. */
  genesisAccounts() {
    return this.lines.filter((l) => l.method === "eth_getBalance" && l.params[1] === "0x0").map((l) => l.params[0]);
  }

  /** The balance after the last block at or before `n` with a recorded answer for `address`. */
  balanceAt(address, n) {
    for (let k = n; k >= 0; k--) {
      const r = this.answer("eth_getBalance", [address.toLowerCase(), hexQ(k)]);
      if (r !== undefined) return big(r);
    }
    return undefined;
  }

  /** The text of an ABI `string` the token answered to `selector` (first time asked). */
  callString(token, selector) {
    const l = this.lines.find((l) => l.method === "eth_call" && l.params[0].to === token.toLowerCase() && l.params[0].data === selector);
    if (!l?.result) return undefined;
    const at = Number(word(l.result, 0)) / 32;
    const len = Number(word(l.result, at));
    return Buffer.from(l.result.slice(2 + 64 * (at + 1), 2 + 64 * (at + 1) + 2 * len), "hex").toString("utf8");
  }

  /** The uint the token answered to `selector` (first time asked). */
  callUint(token, selector) {
    const l = this.lines.find((l) => l.method === "eth_call" && l.params[0].to === token.toLowerCase() && l.params[0].data === selector);
    return l?.result ? word(l.result, 0) : undefined;
  }
}

/**
 * The devnet's L1 chain, as its P-Chain created it (pchain.mjs' replay of fixtures/devnet/): the
 * chain whose CreateChainTx genesis says `config.chainId` `evmChainId`. `{ blockchainId, chainName,
 * subnetId }`.
 */
export function devnetEvmChain(genesisPath, evmChainId) {
  const genesis = JSON.parse(readFileSync(genesisPath, "utf8"));
  const containers = readFileSync(join(dirname(genesisPath), "containers.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l))
    .filter((c) => c.path === "P/block");
  const r = replay(genesis.pGenesis, containers, { avaxAssetId: genesis.avaxAssetID });
  const found = [...r.chains].filter(([, c]) => {
    try {
      return JSON.parse(c.tx.genesis.toString("utf8"))?.config?.chainId === evmChainId;
    } catch {
      return false;
    }
  });
  if (found.length !== 1) throw new Error(`the devnet has ${found.length} chains with EVM chain id ${evmChainId}`);
  const [[blockchainId, c]] = found;
  return { blockchainId, chainName: c.tx.chainName, subnetId: c.tx.subnetId };
}

const boolWord = (r) => r !== undefined && BigInt(r) === 1n;
/** The first recorded answer of `eth_call` of `data` on `to` (any block): `{ result }` or `{ error }`. */
Recording.prototype.call = function call(to, data) {
  const l = this.lines.find((l) => l.method === "eth_call" && l.params[0].to === to.toLowerCase() && l.params[0].data === data);
  return l ? { result: l.result, error: l.error } : undefined;
};
/**
 * The contract's ERC type by the recorded probes: EIP-165's detection (supportsInterface of
 * 0x01ffc9a7 true and of 0xffffffff false; a revert is no) then the ERC-721 / ERC-1155 interface
 * ids; else ERC-20 if it emitted an ERC-20 `Transfer` and answered decimals() and totalSupply().
 */
Recording.prototype.ercType = function ercType(address) {
  const supports = (id) => boolWord(this.call(address, `0x01ffc9a7${id}${"0".repeat(56)}`)?.result);
  if (supports("01ffc9a7") && !supports("ffffffff")) {
    if (supports("80ac58cd")) return "ERC-721";
    if (supports("d9b67a26")) return "ERC-1155";
  }
  const emitted = this.transfers().some((t) => t.standard === 20 && t.token === address.toLowerCase());
  const answers = (sel) => this.call(address, sel)?.result !== undefined;
  if (emitted && answers("0x313ce567") && answers("0x18160ddd")) return "ERC-20";
  return "UNKNOWN";
};
/** The string `tokenURI(id)` (ERC-721) or `uri(id)` (ERC-1155) answered at `block`. */
Recording.prototype.uriAt = function uriAt(token, selector, id, block) {
  const data = `${selector}${id.toString(16).padStart(64, "0")}`;
  const l = this.lines.find(
    (l) => l.method === "eth_call" && l.params[0].to === token.toLowerCase() && l.params[0].data === data && l.params[1] === hexQ(block),
  );
  if (!l?.result) return undefined;
  const at = Number(word(l.result, 0)) / 32;
  const len = Number(word(l.result, at));
  return Buffer.from(l.result.slice(2 + 64 * (at + 1), 2 + 64 * (at + 1) + 2 * len), "hex").toString("utf8");
};
