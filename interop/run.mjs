// Drives a running node-rpc with real avalanchego client libraries from npm (issue #3):
// `avalanche` 3.16.0 (XChain + Index) and `@avalabs/avalanchejs` 5.2.0 (avm.AVMApi).
// Every check compares the libraries' parsed results with fixtures/devnet/*.
//
//   node run.mjs URL [--compat spec|avalanchego]
//
// Prints one line per check, then `N passed, M failed`; exits 1 on any failure.
// --compat says which profile the server runs, i.e. which `index.getContainerRange`
// result shape to expect (spec: array, avalanchego: {"containers": [...]}).

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { avm as avmjs } from "@avalabs/avalanchejs";

const require = createRequire(import.meta.url);
const { Avalanche, BinTools, Buffer } = require("avalanche");
const { Tx } = require("avalanche/dist/apis/avm");

const bintools = BinTools.getInstance();
const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "..", "fixtures", "devnet");

// ---------- arguments and fixtures ----------
const args = process.argv.slice(2);
const url = new URL(args[0] ?? "");
const compatAt = args.indexOf("--compat");
const compat = compatAt >= 0 ? args[compatAt + 1] : "spec";
if (!["spec", "avalanchego"].includes(compat)) throw new Error(`unknown --compat ${compat}`);

const genesis = JSON.parse(readFileSync(join(fixtures, "genesis.json"), "utf8"));
const containers = readFileSync(join(fixtures, "containers.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l));
const byPath = {};
for (const c of containers) (byPath[c.path] ??= []).push(c);
for (const list of Object.values(byPath)) list.sort((a, b) => Number(a.index) - Number(b.index));
const txs = byPath["X/tx"] ?? [];
// Txs accepted after the linearisation live inside X/block containers, not in X/tx: a UTXO's
// tx is "known" when getTx returns bytes found inside some fixture container (blocks embed txs
// without their own 2-byte codec version, so that prefix is left out of the search).
const containerHex = containers.map((c) => c.bytes.slice(2)).concat(genesis.avmGenesis.slice(2));
const inFixtures = (hexNoChecksum) => containerHex.some((h) => h.includes(hexNoChecksum));
const addresses = genesis.keys.slice(0, 5).map((k) => k.address);
const UNKNOWN_ID = "2mcwQKiD8VEspmMJpL1dc7okQQ5dDVAWeCBZ7FWBFAbxpv3t7w";

// ---------- reporting ----------
let passed = 0;
let failed = 0;
let current = { logs: [] }; // errors the library swallowed during the running check
/** Runs one named check; it passes when `fn` returns without throwing. */
async function check(name, fn) {
  const swallowed = captureSwallowed();
  current = swallowed;
  try {
    const detail = await fn();
    passed += 1;
    console.log(`ok   ${name}${detail ? ` (${detail})` : ""}`);
  } catch (e) {
    failed += 1;
    const extra = swallowed.logs.length ? ` [library logged: ${swallowed.logs.join(" | ")}]` : "";
    console.log(`FAIL ${name}: ${e?.message ?? e}${extra}`);
  } finally {
    swallowed.restore();
  }
}
/** `avalanche` 3's index methods console.log errors and return undefined: capture them. */
function captureSwallowed() {
  const orig = console.log;
  const logs = [];
  console.log = (...a) => {
    if (a.length === 1 && a[0] instanceof Error) logs.push(a[0].message);
    else orig(...a);
  };
  return { logs, restore: () => (console.log = orig) };
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}
const show = (v) => {
  const s = typeof v === "bigint" ? `${v}n` : JSON.stringify(v) ?? String(v);
  return s.length > 120 ? `${s.slice(0, 60)}…${s.slice(-40)} (${s.length} chars)` : s;
};
function eq(actual, expected, what) {
  assert(actual === expected, `${what}: got ${show(actual)}, want ${show(expected)}`);
}
function defined(v, what) {
  assert(v !== undefined && v !== null, `${what}: undefined result (error swallowed by the library?)`);
  return v;
}
const sha256 = (buf) => createHash("sha256").update(buf).digest();
const idOf = (bytes) => bintools.cb58Encode(Buffer.from(sha256(Buffer.from(bytes))));
const hexBytes = (h) => Buffer.from(h.startsWith("0x") ? h.slice(2) : h, "hex");
// API hex carries a 4-byte checksum (last 4 bytes of sha256) after the payload.
const stripChecksum = (h) => hexBytes(h).subarray(0, -4);
const now = BigInt(Math.floor(Date.now() / 1000));
// avalanchego's getBalance/getAllBalances with includePartial=false count only UTXOs held solely
// (one owner address) and not time-locked.
const solelyOwned = (nAddrs, locktime) => nAddrs === 1 && locktime <= now;
// Atomic UTXOs waiting on the P- and C-Chain, keyed "sourceChain txIDhex:outputIndex".
const atomicKeys = new Set(
  genesis.atomicUTXOs.map((a) => {
    const b = stripChecksum(a.utxo);
    return `${a.sourceChain} ${b.subarray(2, 34).toString("hex")}:${b.readUInt32BE(34)}`;
  }),
);
const sourceChains = [genesis.pChainID, genesis.cChainID];
const avaxAliases = new Set(["AVAX", genesis.avaxAssetID]);

// ---------- avalanche 3.16.0 ----------
const avalanche = new Avalanche(url.hostname, Number(url.port), url.protocol.replace(":", ""), genesis.networkID);
const xchain = avalanche.XChain();
const index = avalanche.Index();

async function avalancheV3() {
  await check("avalanche3 getAssetDescription(AVAX)", async () => {
    const d = defined(await xchain.getAssetDescription("AVAX"), "description");
    eq(d.name, "Avalanche", "name");
    eq(d.symbol, "AVAX", "symbol");
    eq(d.denomination, 9, "denomination");
    eq(bintools.cb58Encode(d.assetID), genesis.avaxAssetID, "assetID");
  });

  for (const addr of addresses) {
    // All pages, 5 per page, parsed by the library's UTXOSet.
    const utxos = new Map();
    await check(`avalanche3 getUTXOs ${addr} (all pages)`, async () => {
      let startIndex;
      let pages = 0;
      for (;;) {
        const r = defined(await xchain.getUTXOs(addr, undefined, 5, startIndex), "getUTXOs");
        pages += 1;
        const page = r.utxos.getAllUTXOs();
        eq(page.length, Number(r.numFetched), "utxos vs numFetched");
        for (const u of page) utxos.set(u.getUTXOID(), u);
        if (Number(r.numFetched) < 5) break;
        startIndex = defined(r.endIndex, "endIndex");
        assert(pages < 1000, "pagination does not end");
      }
      const single = defined(await xchain.getUTXOs(addr), "getUTXOs unpaged").utxos.getAllUTXOs();
      eq(single.length, utxos.size, "paged count vs one-call count");
      // Each UTXO's tx: fetched with getTx, parsed with Tx, id and output checked, bytes in fixtures.
      for (const u of utxos.values()) {
        const txid = bintools.cb58Encode(u.getTxID());
        const raw = stripChecksum(defined(await xchain.getTx(txid), `getTx ${txid}`));
        assert(txid === genesis.avaxAssetID || inFixtures(raw.subarray(2).toString("hex")), `tx ${txid} not in the fixtures`);
        const tx = new Tx();
        tx.fromBuffer(raw);
        eq(idOf(tx.toBuffer()), txid, "id of the UTXO's parsed tx");
      }
      return `${utxos.size} utxos, ${pages} pages`;
    });

    const sums = new Map();
    for (const u of utxos.values()) {
      const asset = bintools.cb58Encode(u.getAssetID());
      const out = u.getOutput();
      if (typeof out.getAmount !== "function") continue;
      if (!solelyOwned(out.getAddresses().length, BigInt(out.getLocktime().toString()))) continue;
      sums.set(asset, (sums.get(asset) ?? 0n) + BigInt(out.getAmount().toString()));
    }
    await check(`avalanche3 getBalance ${addr} AVAX = sum of parsed UTXOs`, async () => {
      const b = defined(await xchain.getBalance(addr, "AVAX"), "balance");
      const want = sums.get(genesis.avaxAssetID) ?? 0n;
      eq(BigInt(b.balance), want, "balance");
      return `${want}`;
    });
    await check(`avalanche3 getAllBalances ${addr} = sums of parsed UTXOs`, async () => {
      const bals = defined(await xchain.getAllBalances(addr), "balances");
      assert(Array.isArray(bals), "balances is not an array");
      const got = new Map(bals.map((b) => [avaxAliases.has(b.asset) ? genesis.avaxAssetID : b.asset, BigInt(b.balance)]));
      for (const [asset, sum] of sums) eq(got.get(asset), sum, `asset ${asset}`);
      for (const asset of got.keys()) assert(sums.has(asset), `extra asset ${asset}`);
      return `${got.size} assets`;
    });
  }

  await check("avalanche3 getUTXOs with sourceChain P and C: only devnet atomic UTXOs", async () => {
    let n = 0;
    for (const src of sourceChains)
      for (const { address } of genesis.keys) {
        const r = defined(await xchain.getUTXOs(address, src), "getUTXOs");
        for (const u of r.utxos.getAllUTXOs()) {
          const key = `${src} ${u.getTxID().toString("hex")}:${u.getOutputIdx().readUInt32BE(0)}`;
          assert(atomicKeys.has(key), `unexpected atomic UTXO ${key}`);
          n += 1;
        }
      }
    assert(n > 0 && n <= atomicKeys.size, `${n} atomic UTXOs of ${atomicKeys.size}`);
    return `${n} of ${atomicKeys.size} not yet imported`;
  });
  await check(`avalanche3 getTx hex: all ${txs.length} fixture txs parse with Tx, id matches`, async () => {
    for (const t of txs) {
      const hex = defined(await xchain.getTx(t.id), `getTx ${t.id}`);
      const bytes = stripChecksum(hex);
      eq(hex, t.bytes, `bytes of ${t.id}`);
      const tx = new Tx();
      tx.fromBuffer(bytes);
      eq(idOf(tx.toBuffer()), t.id, "id of the parsed Tx");
    }
  });
  await check("avalanche3 getTx json", async () => {
    for (const t of txs.slice(0, 10)) {
      const j = defined(await xchain.getTx(t.id, "json"), `getTx json ${t.id}`);
      assert(typeof j === "object", "json tx is not an object");
      defined(j.unsignedTx, "unsignedTx");
      assert(Array.isArray(j.credentials), "credentials is not an array");
      eq(j.id, t.id, "id");
    }
  });
  await check("avalanche3 getTxStatus", async () => {
    for (const t of txs) eq(await xchain.getTxStatus(t.id), "Accepted", `status of ${t.id}`);
    eq(await xchain.getTxStatus(UNKNOWN_ID), "Unknown", "status of an unknown tx");
  });

  for (const path of ["X/tx", "X/vtx", "X/block"]) {
    const list = byPath[path] ?? [];
    const base = `/ext/index/${path}`;
    const last = list[list.length - 1];
    if (!last) throw new Error(`fixtures hold no ${path} containers`);
    const matches = (r, c, what) => {
      defined(r, what);
      eq(r.id, c.id, `${what} id`);
      eq(r.index, String(c.index), `${what} index`);
      eq(r.bytes, c.bytes, `${what} bytes`);
    };
    await check(`avalanche3 Index ${path} getLastAccepted`, async () => {
      matches(await index.getLastAccepted("hex", base), last, "last accepted");
    });
    await check(`avalanche3 Index ${path} getContainerByIndex`, async () => {
      for (const c of [list[0], list[list.length >> 1], last])
        matches(await index.getContainerByIndex(String(c.index), "hex", base), c, `container ${c.index}`);
    });
    await check(`avalanche3 Index ${path} getContainerByID`, async () => {
      for (const c of list) matches(await index.getContainerByID(c.id, "hex", base), c, `container ${c.id}`);
    });
    await check(`avalanche3 Index ${path} getContainerRange (${compat} shape, all pages)`, async () => {
      const got = [];
      for (let start = 0; start < list.length; start += 7) {
        const r = defined(await index.getContainerRange(start, 7, "hex", base), `range from ${start}`);
        let page;
        if (compat === "spec") {
          assert(Array.isArray(r), `spec profile: want an array, got ${JSON.stringify(r).slice(0, 80)}`);
          page = r;
        } else {
          assert(Array.isArray(r?.containers), `avalanchego profile: want {containers: [...]}`);
          page = r.containers;
        }
        got.push(...page);
      }
      eq(got.length, list.length, "count");
      got.forEach((r, i) => matches(r, list[i], `range item ${i}`));
      return `${got.length} containers`;
    });
    await check(`avalanche3 Index ${path} getIndex`, async () => {
      for (const c of list) eq(await index.getIndex(c.id, "hex", base), String(c.index), `index of ${c.id}`);
    });
    await check(`avalanche3 Index ${path} isAccepted`, async () => {
      for (const c of list) eq(defined(await index.isAccepted(c.id, "hex", base), "isAccepted").isAccepted, true, c.id);
      eq(defined(await index.isAccepted(UNKNOWN_ID, "hex", base), "isAccepted").isAccepted, false, "unknown id");
    });
  }
  await check("avalanche3 Index swallowed error is detected (getIndex of an unknown id)", async () => {
    const r = await index.getIndex(UNKNOWN_ID, "hex", "/ext/index/X/tx");
    eq(r, undefined, "getIndex of an unknown id");
    // The library logged the server's JSON-RPC error (not a transport failure).
    eq(current.logs.length, 1, "errors logged by the library");
    assert(/not found/i.test(current.logs[0]), `logged error: ${current.logs[0]}`);
    current.logs.length = 0;
  });
}

// ---------- @avalabs/avalanchejs 5.2.0 ----------
async function avalancheJs() {
  const api = new avmjs.AVMApi(url.origin);
  await check("avalanchejs getTxFee (first request, id 0)", async () => {
    const f = await api.getTxFee();
    eq(f.txFee, 1000000n, "txFee");
    eq(f.createAssetTxFee, 1000000n, "createAssetTxFee");
  });
  await check("avalanchejs getAssetDescription(AVAX)", async () => {
    const d = await api.getAssetDescription("AVAX");
    eq(d.assetID, genesis.avaxAssetID, "assetID");
    eq(d.name, "Avalanche", "name");
    eq(d.symbol, "AVAX", "symbol");
    eq(Number(d.denomination), 9, "denomination");
  });
  for (const addr of addresses) {
    const sums = new Map();
    await check(`avalanchejs getUTXOs ${addr} (all pages)`, async () => {
      const seen = new Set();
      let startIndex;
      for (let pages = 0; ; pages += 1) {
        assert(pages < 1000, "pagination does not end");
        const r = await api.getUTXOs({ addresses: [addr], limit: 4, startIndex });
        eq(r.utxos.length, Number(r.numFetched), "utxos vs numFetched");
        for (const u of r.utxos) {
          if (seen.has(u.ID())) continue;
          seen.add(u.ID());
          const o = u.output;
          if (typeof o.amount === "function" && solelyOwned(o.getOwners().length, o.getLocktime()))
            sums.set(u.getAssetId(), (sums.get(u.getAssetId()) ?? 0n) + u.output.amount());
        }
        if (Number(r.numFetched) < 4) break;
        startIndex = r.endIndex;
      }
      return `${seen.size} utxos`;
    });
    await check(`avalanchejs getBalance ${addr} = sum of parsed UTXOs`, async () => {
      const b = await api.getBalance({ address: addr, assetID: "AVAX" });
      eq(BigInt(b.balance), sums.get(genesis.avaxAssetID) ?? 0n, "balance");
    });
    await check(`avalanchejs getAllBalances ${addr} = sums of parsed UTXOs`, async () => {
      const { balances } = await api.getAllBalances({ address: addr });
      const got = new Map(balances.map((b) => [avaxAliases.has(b.asset) ? genesis.avaxAssetID : b.asset, BigInt(b.balance)]));
      eq(got.size, sums.size, "asset count");
      for (const [asset, sum] of sums) eq(got.get(asset), sum, `asset ${asset}`);
    });
  }
  await check("avalanchejs getUTXOs with sourceChain P and C: only devnet atomic UTXOs", async () => {
    let n = 0;
    for (const src of sourceChains)
      for (const { address } of genesis.keys) {
        const r = await api.getUTXOs({ addresses: [address], sourceChain: src });
        for (const u of r.utxos) {
          const txid = bintools.cb58Decode(u.utxoId.txID.toString()).toString("hex");
          const key = `${src} ${txid}:${u.utxoId.outputIdx.value()}`;
          assert(atomicKeys.has(key), `unexpected atomic UTXO ${key}`);
          n += 1;
        }
      }
    assert(n > 0, "no atomic UTXOs");
    return `${n}`;
  });
  await check(`avalanchejs getTx: all ${txs.length} fixture txs parse as SignedTx, id matches`, async () => {
    let cannotReserialise = 0;
    for (const t of txs) {
      const signed = await api.getTx({ txID: t.id });
      assert(signed.credentials.length > 0, `no credentials parsed for ${t.id}`);
      let bytes;
      try {
        bytes = Buffer.from(signed.toBytes());
      } catch (e) {
        // avalanchejs 5.2.0 bug: avm CreateAssetTx/OperationTx lack `vm`, so toBytes() throws
        // "unknown VM" although they parse. Only that exact case is tolerated.
        const type = signed.unsignedTx._type;
        assert(e.message === "unknown VM" && ["avm.CreateAssetTx", "avm.OperationTx"].includes(type), `${t.id}: ${e.message}`);
        cannotReserialise += 1;
        continue;
      }
      eq("0x" + bytes.toString("hex"), t.bytes.slice(0, -8), `re-serialised bytes of ${t.id}`);
      eq(idOf(bytes), t.id, "id");
    }
    return cannotReserialise ? `${cannotReserialise} CreateAssetTx/OperationTx parsed but not re-serialisable by the library` : "";
  });
  await check("avalanchejs getTxJson", async () => {
    const r = await api.getTxJson({ txID: txs[0].id });
    eq(r.tx?.id, txs[0].id, "id");
  });
  await check("avalanchejs getTxStatus", async () => {
    for (const t of txs.slice(0, 20)) eq((await api.getTxStatus({ txID: t.id })).status, "Accepted", t.id);
    eq((await api.getTxStatus({ txID: UNKNOWN_ID })).status, "Unknown", "unknown tx");
  });
}

await avalancheV3();
await avalancheJs();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
