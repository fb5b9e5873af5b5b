// Drives a running data-api with the official Data API SDK, npm `@avalanche-sdk/chainkit` 0.3.13
// (issues #4/#5), and checks what the SDK parsed against independent sources: the devnet fixtures
// (fixtures/devnet/), the node the data-api follows (node-rpc's avm.* and index.* JSON-RPC), the
// P-Chain as pchain.mjs reads and replays its blocks, and the real OpenAPI (execution weights).
//
//   node run.mjs API_URL NODE_URL API_KEY [OPENAPI]
//
// The server must also index the two recorded EVM chains (servers.sh: evm-replay of
// fixtures/evm/devnet/43112.jsonl and 99999.jsonl); evm_checks.mjs checks them. SNOWLINE_COMPAT
// names the server's --compat profile (spec, the default, or glacier) where answers differ.
//
// Prints one line per check, then `N passed, M failed`; exits 1 on any failure (or if nothing
// passed).
//
// The devnet is the `local` network, which the SDK cannot name: its `network` parameter is a
// closed enum (mainnet|fuji|testnet) checked before sending, and `chainInfo.network` is checked
// on receipt. So the SDK is given a fetcher (its documented `HTTPClient({ fetcher })` hook) that
// maps the SDK's `fuji` to `local` in the request path and `local` back to `fuji` in
// `chainInfo.network` of the answer, and nothing else; it counts each rewrite, and a check asserts
// the server really answered `local` (docs/interop.md, "network local"). One EVM check has it
// spoil nine answers on purpose (`tamper`), to see the SDK's validation refuse them.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Avalanche, HTTPClient } from "@avalanche-sdk/chainkit";
import { evmChecks } from "./evm_checks.mjs";
import { idBytes, pAddress, replay, utxoId } from "./pchain.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "..", "..", "fixtures", "devnet");

// ---------- arguments and fixtures ----------
const [apiUrl, nodeUrl, apiKey, openapiPath] = process.argv.slice(2);
if (!apiUrl || !nodeUrl || !apiKey) {
  console.error("usage: node run.mjs API_URL NODE_URL API_KEY [OPENAPI]");
  process.exit(2);
}
const openapi = JSON.parse(
  readFileSync(
    openapiPath ?? join(here, "..", "..", "..", "shared", "reference", "openapi", "glacier-data-api.json"),
    "utf8",
  ),
);
const genesis = JSON.parse(readFileSync(join(fixtures, "genesis.json"), "utf8"));
const containers = readFileSync(join(fixtures, "containers.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l));
// The first key (ewoq) has spent everything by the end of the devnet; keys 2..6 hold UTXOs.
const addresses = genesis.keys.slice(1, 6).map((k) => k.address);
const PRIMARY_SUBNET = "11111111111111111111111111111111LpoYY";

// ---------- encodings (cb58, the API hex with checksum, UTXO and vertex bytes) ----------
const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const sha256 = (b) => createHash("sha256").update(b).digest();
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
const cb58 = (bytes) => base58(Buffer.concat([bytes, sha256(bytes).subarray(28)]));
/** Bytes of the API hex encoding (`0x` + hex + 4-byte sha256 checksum), checksum verified. */
function fromApiHex(hex) {
  const all = Buffer.from(hex.slice(2), "hex");
  const body = all.subarray(0, all.length - 4);
  assert(sha256(body).subarray(28).equals(all.subarray(all.length - 4)), `bad checksum in ${hex.slice(0, 20)}…`);
  return body;
}
const MINT_TYPES = new Set([6, 10, 13]); // secp256k1 mint, nft mint, property mint
/** What a UTXO's bytes say: tx id, output index, asset, output type, and a secp transfer's fields. */
function parseUtxo(bytes) {
  const txId = bytes.subarray(2, 34);
  const outputIndex = bytes.readUInt32BE(34);
  const u = {
    txId: cb58(txId),
    outputIndex,
    // avalanchego's UTXOID.InputID(): sha256(uint64 output index ‖ tx id).
    utxoId: cb58(sha256(Buffer.concat([Buffer.alloc(4), bytes.subarray(34, 38), txId]))),
    assetId: cb58(bytes.subarray(38, 70)),
    typeId: bytes.readUInt32BE(70),
  };
  if (u.typeId === 7) {
    u.amount = bytes.readBigUInt64BE(74);
    u.locktime = Number(bytes.readBigUInt64BE(82));
    u.threshold = bytes.readUInt32BE(90);
    u.owners = bytes.readUInt32BE(94);
  }
  return u;
}
/** The output of UTXO bytes: secp256k1 transfer (7) or, on the P-Chain, stakeable.LockOut (22). */
function parseOutput(bytes) {
  let at = 70;
  let stakeableLocktime = 0n;
  let typeId = bytes.readUInt32BE(at);
  if (typeId === 22) {
    stakeableLocktime = bytes.readBigUInt64BE(at + 4);
    at += 12;
    typeId = bytes.readUInt32BE(at);
  }
  assert(typeId === 7, `output type ${typeId}`);
  return { amount: bytes.readBigUInt64BE(at + 4), locktime: bytes.readBigUInt64BE(at + 12), stakeableLocktime };
}
/**
 * A DAG vertex: height, parents, txs. Codec 0: chain, height, epoch, parents, txs; codec 1 (the
 * stop vertex that ends the DAG at the linearisation): chain, height, parents, and no txs.
 */
function parseVertex(bytes) {
  const version = bytes.readUInt16BE(0);
  assert(version === 0 || version === 1, `vertex codec version ${version}`);
  const height = Number(bytes.readBigUInt64BE(34));
  let at = version === 0 ? 46 : 42;
  const parents = [];
  const nParents = bytes.readUInt32BE(at);
  assert(at + 4 + 32 * nParents <= bytes.length, "vertex parents overrun");
  for (let i = 0; i < nParents; i++) parents.push(cb58(bytes.subarray(at + 4 + 32 * i, at + 36 + 32 * i)));
  at += 4 + 32 * nParents;
  const txs = [];
  if (version === 0) {
    const nTxs = bytes.readUInt32BE(at);
    at += 4;
    for (let i = 0; i < nTxs; i++) {
      const len = bytes.readUInt32BE(at);
      assert(len > 0 && at + 4 + len <= bytes.length, "vertex tx overrun");
      txs.push(cb58(sha256(bytes.subarray(at + 4, at + 4 + len))));
      at += 4 + len;
    }
  }
  eq(at, bytes.length, "vertex length");
  return { height, parents, txs };
}
const unixSeconds = (rfc3339) => Math.floor(Date.parse(rfc3339.replace(/\.(\d{3})\d*Z$/, ".$1Z")) / 1000);

// ---------- reporting ----------
let passed = 0;
let failed = 0;
async function check(name, fn) {
  try {
    const detail = await fn();
    passed += 1;
    console.log(`ok   ${name}${detail ? ` (${detail})` : ""}`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${name}: ${e?.message ?? e}`);
  }
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}
function eq(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  assert(a === e, `${what}: got ${a.slice(0, 300)}, want ${e.slice(0, 300)}`);
}
/** Runs `fn`, which must throw an SDK error of class `cls` with HTTP `status`. */
async function expectError(fn, cls, status) {
  try {
    await fn();
  } catch (e) {
    assert(e?.name === cls, `wanted ${cls}, got ${e?.name}: ${e?.message}`);
    assert(e.statusCode === status, `wanted HTTP ${status}, got ${e.statusCode}`);
    return e;
  }
  throw new Error(`wanted ${cls} (HTTP ${status}), the call succeeded`);
}

// ---------- the SDK, with the network shim and a request log ----------
const rewrites = { requests: 0, answers: 0 };
const seen = []; // { path, status } of every request the SDK sent
let tamper = null; // a function rewriting the next JSON answer before the SDK reads it (checks of its validation)
/** The SDK's fetcher: `fuji` -> `local` in the path, `local` -> `fuji` in `chainInfo.network`. */
async function fetcher(input, init) {
  const req = input instanceof Request ? input : new Request(input, init);
  const url = new URL(req.url);
  if (url.pathname.startsWith("/v1/networks/fuji/")) {
    url.pathname = url.pathname.replace("/v1/networks/fuji/", "/v1/networks/local/");
    rewrites.requests += 1;
  }
  const res = await fetch(new Request(url, req));
  const entry = { path: url.pathname, query: url.search, status: res.status, chainInfo: false };
  seen.push(entry);
  const text = await res.text();
  let out = text;
  if (res.ok && (res.headers.get("content-type") ?? "").startsWith("application/json")) {
    const body = JSON.parse(text);
    entry.chainInfo = body?.chainInfo !== undefined;
    entry.body = JSON.parse(text); // as the server sent it, for fields the SDK's schema drops
    if (body?.chainInfo?.network === "local") {
      body.chainInfo.network = "fuji";
      rewrites.answers += 1;
      out = JSON.stringify(body);
    }
    if (tamper) {
      out = JSON.stringify(tamper(body));
      entry.tampered = true;
      delete entry.body;
      tamper = null;
    }
  }
  const headers = new Headers(res.headers);
  headers.delete("content-length"); // the body may have changed length
  return new Response(out, { status: res.status, statusText: res.statusText, headers });
}
const sdkOptions = { enableTelemetry: false, retryConfig: { strategy: "none" } };
const sdk = new Avalanche({ ...sdkOptions, apiKey, httpClient: new HTTPClient({ fetcher }) });
const anonymous = new Avalanche({ ...sdkOptions, httpClient: new HTTPClient({ fetcher }) });
const at = { serverURL: apiUrl }; // the client-level serverURL is ignored: pass it on every call
const net = "fuji"; // what the SDK sends for the devnet's `local` (see the shim above)

/** Every page of an SDK list call, through its async iterator. */
async function allPages(promise) {
  const pages = [];
  for await (const page of await promise) pages.push(page.result);
  return pages;
}

// ---------- the node's own answers (avm.* JSON-RPC of node-rpc) ----------
async function avm(method, params) {
  const res = await fetch(`${nodeUrl}/ext/bc/X`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}
/** UTXO hex of `addr` the node reports: X's own and those P and C exported to it. */
async function nodeUtxos(addr) {
  const out = new Map(); // hex -> source chain id
  for (const [source, chainId] of [[undefined, genesis.xChainID], ["P", genesis.pChainID], ["C", genesis.cChainID]]) {
    let startIndex;
    for (;;) {
      const r = await avm("avm.getUTXOs", {
        addresses: [addr],
        limit: 1024,
        encoding: "hex",
        ...(source ? { sourceChain: source } : {}),
        ...(startIndex ? { startIndex } : {}),
      });
      for (const u of r.utxos) out.set(u, chainId);
      if (r.utxos.length < 1024) break;
      startIndex = r.endIndex;
    }
  }
  return out;
}

// What the server had metered before this run (it may have served others): the usage check
// compares the difference with this run's own requests.
const usageBefore = await usageByPath().catch((e) => {
  console.log(`FAIL usage snapshot before the run: ${e?.message ?? e}`);
  process.exit(1);
});

// ---------- chains ----------
await check("evm.chains.list: every chain, filters by network and feature", async () => {
  const all = (await sdk.data.evm.chains.list({}, at)).chains;
  const ids = all.map((c) => c.chainId);
  assert(new Set(ids).size === ids.length, `a chain listed twice: ${ids}`);
  const local = all.find((c) => c.platformChainId === genesis.cChainID);
  assert(local, `no chain with the devnet's C-Chain id ${genesis.cChainID}: ${ids}`);
  assert(local.isTestnet === true && local.vmName === "EVM" && local.status === "OK", JSON.stringify(local));
  assert(local.subnetId === PRIMARY_SUBNET, `local C-Chain subnet ${local.subnetId}`);
  const main = (await sdk.data.evm.chains.list({ network: "mainnet" }, at)).chains;
  const fuji = (await sdk.data.evm.chains.list({ network: "fuji" }, at)).chains;
  const testnet = (await sdk.data.evm.chains.list({ network: "testnet" }, at)).chains;
  assert(main.length > 0 && main.every((c) => !c.isTestnet), `mainnet: ${JSON.stringify(main.map((c) => [c.chainId, c.isTestnet]))}`);
  assert(fuji.length > 0 && fuji.every((c) => c.isTestnet), `fuji: ${JSON.stringify(fuji.map((c) => [c.chainId, c.isTestnet]))}`);
  eq(testnet, fuji, "testnet and fuji name the same network");
  for (const c of [...main, ...fuji]) eq(all.find((x) => x.chainId === c.chainId), c, `chain ${c.chainId} filtered vs all`);
  const featured = (await sdk.data.evm.chains.list({ feature: "nftIndexing" }, at)).chains;
  assert(featured.every((c) => (c.enabledFeatures ?? []).includes("nftIndexing")), "feature filter");
  return `${all.length} chains, mainnet ${main.length}, fuji ${fuji.length}, nftIndexing ${featured.length}`;
});

await check("evm.chains.get: each listed chain by EVM id and by blockchain id; unknown is 404", async () => {
  const all = (await sdk.data.evm.chains.list({}, at)).chains;
  for (const c of all) {
    eq(await sdk.data.evm.chains.get({ chainId: c.chainId }, at), c, `get ${c.chainId}`);
    if (c.platformChainId) eq(await sdk.data.evm.chains.get({ chainId: c.platformChainId }, at), c, `get ${c.platformChainId}`);
  }
  const e = await expectError(() => sdk.data.evm.chains.get({ chainId: "999999" }, at), "NotFoundError", 404);
  assert(e.message.includes("999999"), `message names the chain: ${e.message}`);
  await expectError(() => sdk.data.evm.chains.get({ chainId: "not-a-chain" }, at), "BadRequestError", 400);
  return `${all.length} chains, each twice`;
});

// ---------- blockchain details ----------
await check("primaryNetwork.getBlockchainById: X, P and C of the devnet, by id and alias", async () => {
  const want = [
    [genesis.xChainID, "X-Chain", "jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq", "x-chain"],
    [genesis.pChainID, "P-Chain", PRIMARY_SUBNET, "p-chain"],
    [genesis.cChainID, "C-Chain", "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6", "c-chain"],
  ];
  for (const [id, name, vmId, alias] of want) {
    const b = await sdk.data.primaryNetwork.getBlockchainById({ network: net, blockchainId: id }, at);
    eq([b.blockchainId, b.blockchainName, b.vmId, b.subnetId], [id, name, vmId, PRIMARY_SUBNET], `blockchain ${id}`);
    assert(b.createBlockNumber === "0" && Number.isInteger(b.createBlockTimestamp), JSON.stringify(b));
    eq(await sdk.data.primaryNetwork.getBlockchainById({ network: net, blockchainId: alias }, at), b, `alias ${alias}`);
  }
  await expectError(
    () => sdk.data.primaryNetwork.getBlockchainById({ network: net, blockchainId: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5" }, at),
    "NotFoundError",
    404,
  );
  await expectError(
    () => sdk.data.primaryNetwork.getBlockchainById({ network: "mainnet", blockchainId: genesis.xChainID }, at),
    "NotFoundError",
    404,
  );
  return "3 chains";
});

// ---------- X-Chain balances ----------
await check("primaryNetwork.balances.listByAddresses: X-Chain balances equal avm.getAllBalances", async () => {
  let assets = 0;
  for (const addr of addresses) {
    const r = await sdk.data.primaryNetwork.balances.listByAddresses({ network: net, blockchainId: "x-chain", addresses: addr }, at);
    eq(r.chainInfo, { chainName: "x-chain", network: "fuji" }, "chainInfo (local, seen through the shim)");
    const b = r.balances;
    for (const k of ["locked", "unlocked", "atomicMemoryUnlocked", "atomicMemoryLocked"]) assert(Array.isArray(b[k]), `balances.${k} missing: ${JSON.stringify(b)}`);
    const ours = new Map();
    for (const e of [...b.unlocked, ...b.locked]) {
      assert(e.utxoCount >= 1, `utxoCount ${e.utxoCount}`);
      if (e.type === "secp256k1") ours.set(e.assetId, (ours.get(e.assetId) ?? 0n) + BigInt(e.amount));
    }
    for (const e of [...b.atomicMemoryUnlocked, ...b.atomicMemoryLocked]) {
      assert([genesis.pChainID, genesis.cChainID].includes(e.sharedWithChainId), `sharedWithChainId ${e.sharedWithChainId}`);
    }
    const node = await avm("avm.getAllBalances", { address: addr, includePartial: true });
    const theirs = new Map();
    for (const e of node.balances) {
      if (BigInt(e.balance) > 0n) theirs.set(e.asset === "AVAX" ? genesis.avaxAssetID : e.asset, BigInt(e.balance));
    }
    eq([...ours].sort().map(([k, v]) => [k, String(v)]), [...theirs].sort().map(([k, v]) => [k, String(v)]), `${addr} balances`);
    const avax = b.unlocked.find((e) => e.assetId === genesis.avaxAssetID);
    if (avax) eq([avax.name, avax.symbol, avax.denomination], ["Avalanche", "AVAX", 9], "AVAX description");
    assets += ours.size;
  }
  assert(assets > 0, "no address holds anything");
  return `${addresses.length} addresses, ${assets} asset balances`;
});

await check("primaryNetwork.balances.listByAddresses: several addresses at once", async () => {
  const one = await Promise.all(
    addresses.map((a) => sdk.data.primaryNetwork.balances.listByAddresses({ network: net, blockchainId: "x-chain", addresses: a }, at)),
  );
  const sum = new Map();
  for (const r of one) for (const e of r.balances.unlocked) sum.set(e.assetId, (sum.get(e.assetId) ?? 0n) + BigInt(e.amount));
  const all = await sdk.data.primaryNetwork.balances.listByAddresses({ network: net, blockchainId: "x-chain", addresses: addresses.join(",") }, at);
  for (const e of all.balances.unlocked) {
    // A UTXO owned by two of the addresses counts once in the joint answer.
    assert(BigInt(e.amount) <= sum.get(e.assetId), `${e.assetId}: joint ${e.amount} > sum ${sum.get(e.assetId)}`);
  }
  eq(all.balances.unlocked.map((e) => e.assetId).sort(), [...sum.keys()].sort(), "assets of the joint answer");
  const e = await expectError(
    () => sdk.data.primaryNetwork.balances.listByAddresses({ network: net, blockchainId: "x-chain", addresses: "X-avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg" }, at),
    "BadRequestError",
    400,
  );
  assert(e.message.includes("avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg"), `message names the address: ${e.message}`);
  return `${sum.size} assets`;
});

// ---------- C-Chain atomic memory ----------
await check("primaryNetwork balances and UTXOs (C-Chain): its atomic memory, in the C-Chain's shapes", async () => {
  let listed = 0;
  let fromC = 0;
  for (const addr of addresses) {
    const c = addr.replace("X-", "C-");
    const r = await sdk.data.primaryNetwork.balances.listByAddresses({ network: net, blockchainId: "c-chain", addresses: c }, at);
    eq(r.chainInfo, { chainName: "c-chain", network: "fuji" }, "chainInfo");
    for (const k of ["atomicMemoryUnlocked", "atomicMemoryLocked"]) assert(Array.isArray(r.balances[k]), `balances.${k} missing: ${JSON.stringify(r.balances)}`);
    const pages = await allPages(
      sdk.data.primaryNetwork.utxos.listByAddresses({ network: net, blockchainId: "c-chain", addresses: c, pageSize: 2 }, at),
    );
    const utxos = pages.flatMap((p) => p.utxos);
    // The balances sum the listed UTXOs, by the chain the C-Chain shares each with.
    const sums = new Map();
    for (const u of utxos) {
      eq(pages[0].chainInfo, { chainName: "c-chain", network: "fuji" }, "chainInfo of the UTXO listing");
      assert(u.addresses.includes(c), `${c} not among the owners ${u.addresses}`);
      assert([u.createdOnChainId, u.consumedOnChainId].includes(genesis.cChainID), `${u.utxoId} does not cross the C-Chain`);
      const p = parseUtxo(fromApiHex(u.utxoBytes));
      eq([u.creationTxHash, u.outputIndex, u.utxoId, u.asset.amount], [p.txId, String(p.outputIndex), p.utxoId, String(p.amount)], "UTXO fields vs its bytes");
      const other = u.createdOnChainId === genesis.cChainID ? u.consumedOnChainId : u.createdOnChainId;
      sums.set(other, (sums.get(other) ?? 0n) + BigInt(u.asset.amount));
    }
    const served = new Map();
    for (const e of [...r.balances.atomicMemoryUnlocked, ...r.balances.atomicMemoryLocked]) {
      assert([genesis.xChainID, genesis.pChainID].includes(e.sharedWithChainId), `sharedWithChainId ${e.sharedWithChainId}`);
      served.set(e.sharedWithChainId, (served.get(e.sharedWithChainId) ?? 0n) + BigInt(e.amount));
    }
    const sorted = (m) => [...m].sort().map(([k, v]) => [k, String(v)]);
    eq(sorted(served), sorted(sums), `${c}: balances vs listed UTXOs`);
    // What the C-Chain exported to X and X has not imported: the node lists it from source C.
    const byHex = new Map(utxos.map((u) => [u.utxoBytes, u]));
    for (const [hex, source] of await nodeUtxos(addr)) {
      if (source !== genesis.cChainID) continue;
      const u = byHex.get(hex);
      assert(u, `${c}: the node's C->X UTXO ${hex.slice(0, 20)}... is not listed`);
      eq([u.createdOnChainId, u.consumedOnChainId], [genesis.cChainID, genesis.xChainID], "a C->X UTXO's chains");
      fromC += 1;
    }
    listed += utxos.length;
  }
  assert(listed > 0, "no address holds atomic memory with the C-Chain");
  return `${listed} atomic UTXOs of ${addresses.length} addresses (${fromC} exported by C, waiting on X)`;
});

// ---------- X-Chain UTXOs ----------
await check("primaryNetwork.utxos.listByAddresses: every page equals avm.getUTXOs (X, P->X, C->X)", async () => {
  let total = 0;
  let multiPage = 0;
  for (const addr of addresses) {
    const pages = await allPages(
      sdk.data.primaryNetwork.utxos.listByAddresses({ network: net, blockchainId: "x-chain", addresses: addr, pageSize: 3 }, at),
    );
    const utxos = pages.flatMap((p) => p.utxos);
    for (const p of pages.slice(0, -1)) eq(p.utxos.length, 3, "a full page before the last");
    if (pages.length > 1) multiPage += 1;
    const byHex = new Map(utxos.map((u) => [u.utxoBytes, u]));
    assert(byHex.size === utxos.length, `${addr}: a UTXO listed twice`);
    const node = await nodeUtxos(addr);
    eq([...byHex.keys()].sort(), [...node.keys()].sort(), `${addr} UTXO bytes`);
    for (const u of utxos) {
      const p = parseUtxo(fromApiHex(u.utxoBytes));
      eq(
        [u.creationTxHash, u.outputIndex, u.utxoId, u.asset.assetId],
        [p.txId, String(p.outputIndex), p.utxoId, p.assetId],
        `${addr} UTXO fields vs its bytes`,
      );
      eq(u.utxoType, MINT_TYPES.has(p.typeId) ? "mint" : "transfer", `utxoType of output type ${p.typeId}`);
      if (p.typeId === 7) {
        eq([u.asset.amount, u.locktime, u.threshold, u.addresses.length], [String(p.amount), p.locktime, p.threshold, p.owners], "secp256k1 output");
      }
      assert(u.addresses.includes(addr), `${addr} not among the owners ${u.addresses}`);
      eq(u.createdOnChainId, node.get(u.utxoBytes), "createdOnChainId = the chain the node reports it from");
      eq(u.consumedOnChainId, genesis.xChainID, "consumedOnChainId");
      assert(u.consumingTxHash === undefined, "an unspent UTXO names a consumer");
    }
    total += utxos.length;
  }
  assert(multiPage > 0, "no address needed more than one page: the iterator was not exercised");
  return `${total} UTXOs of ${addresses.length} addresses, ${multiPage} listings over several pages`;
});

await check("primaryNetwork.utxos.listByAddresses: includeSpent names consumers; sort orders; filters", async () => {
  const addr = addresses[0];
  const q = { network: net, blockchainId: "x-chain", addresses: addr, pageSize: 4 };
  const unspent = (await allPages(sdk.data.primaryNetwork.utxos.listByAddresses(q, at))).flatMap((p) => p.utxos);
  const all = (await allPages(sdk.data.primaryNetwork.utxos.listByAddresses({ ...q, includeSpent: true }, at))).flatMap((p) => p.utxos);
  const spent = all.filter((u) => u.consumingTxHash !== undefined);
  assert(spent.length > 0, `${addr}: no spent UTXO`);
  eq(all.length, unspent.length + spent.length, "includeSpent = unspent + spent");
  for (const u of spent) {
    const tx = await avm("avm.getTx", { txID: u.consumingTxHash, encoding: "json" });
    const t = tx.tx.unsignedTx;
    const ins = [...(t.inputs ?? []), ...(t.importedInputs ?? []), ...(t.operations ?? []).flatMap((o) => o.inputIDs ?? [])];
    assert(
      ins.some((i) => i.txID === u.creationTxHash && String(i.outputIndex) === u.outputIndex),
      `${u.utxoId} is not an input of its consumer ${u.consumingTxHash}`,
    );
    assert(u.consumingTxTimestamp >= u.timestamp, "consumed before created");
  }
  for (const [sortBy, key] of [["timestamp", (u) => BigInt(u.timestamp)], ["amount", (u) => BigInt(u.asset.amount)]]) {
    for (const sortOrder of ["asc", "desc"]) {
      const got = (await allPages(sdk.data.primaryNetwork.utxos.listByAddresses({ ...q, sortBy, sortOrder }, at))).flatMap((p) => p.utxos);
      eq(got.map((u) => u.utxoBytes).sort(), unspent.map((u) => u.utxoBytes).sort(), `${sortBy} ${sortOrder}: the same set`);
      for (let i = 1; i < got.length; i++) {
        const [a, b] = [key(got[i - 1]), key(got[i])];
        assert(sortOrder === "asc" ? a <= b : a >= b, `${sortBy} ${sortOrder}: out of order at ${i}`);
      }
    }
  }
  const avaxOnly = (await allPages(sdk.data.primaryNetwork.utxos.listByAddresses({ ...q, assetId: genesis.avaxAssetID }, at))).flatMap((p) => p.utxos);
  eq(avaxOnly.map((u) => u.utxoBytes).sort(), unspent.filter((u) => u.asset.assetId === genesis.avaxAssetID).map((u) => u.utxoBytes).sort(), "assetId filter");
  const floor = unspent.map((u) => BigInt(u.asset.amount)).sort((a, b) => (a < b ? -1 : 1))[Math.floor(unspent.length / 2)];
  const big = (await allPages(sdk.data.primaryNetwork.utxos.listByAddresses({ ...q, minUtxoAmount: Number(floor) }, at))).flatMap((p) => p.utxos);
  eq(big.map((u) => u.utxoBytes).sort(), unspent.filter((u) => BigInt(u.asset.amount) >= floor).map((u) => u.utxoBytes).sort(), "minUtxoAmount filter");
  // The parameter is a number: a fraction is a floor too (amounts are whole nano-units).
  const frac = (await allPages(sdk.data.primaryNetwork.utxos.listByAddresses({ ...q, minUtxoAmount: Number(floor) - 0.5 }, at))).flatMap((p) => p.utxos);
  eq(frac.map((u) => u.utxoBytes).sort(), big.map((u) => u.utxoBytes).sort(), "minUtxoAmount floor - 0.5");
  await expectError(
    () => sdk.data.primaryNetwork.utxos.listByAddresses({ ...q, pageToken: "bm90LWEtdG9rZW4" }, at),
    "BadRequestError",
    400,
  );
  return `${unspent.length} unspent, ${spent.length} spent, 4 orders, 3 filters`;
});

// ---------- vertices ----------
await check("primaryNetwork.vertices.listByHeight: every height equals the X/vtx containers", async () => {
  const vtx = containers.filter((c) => c.path === "X/vtx");
  const byHeight = new Map();
  for (const c of vtx) {
    const bytes = fromApiHex(c.bytes);
    const v = parseVertex(bytes);
    assert(cb58(sha256(bytes)) === c.id, `fixture vertex ${c.id}: id is not its hash`);
    const rec = {
      vertexHash: c.id,
      parentHashes: v.parents,
      vertexHeight: v.height,
      vertexIndex: Number(c.index),
      vertexTimestamp: unixSeconds(c.timestamp),
      txCount: v.txs.length,
      transactions: v.txs,
      vertexSizeBytes: bytes.length,
    };
    (byHeight.get(v.height) ?? byHeight.set(v.height, []).get(v.height)).push(rec);
  }
  const maxHeight = Math.max(...byHeight.keys());
  let pagesSeen = 0;
  for (let h = 0; h <= maxHeight + 1; h++) {
    const pages = await allPages(
      sdk.data.primaryNetwork.vertices.listByHeight({ network: net, blockchainId: "x-chain", vertexHeight: h, pageSize: 1 }, at),
    );
    pagesSeen += pages.length;
    for (const p of pages) eq(p.chainInfo, { chainName: "x-chain", network: "fuji" }, "chainInfo");
    const got = pages.flatMap((p) => p.vertices).sort((a, b) => a.vertexIndex - b.vertexIndex);
    const want = (byHeight.get(h) ?? []).sort((a, b) => a.vertexIndex - b.vertexIndex);
    eq(got, want, `vertices at height ${h}`);
  }
  const desc = (await sdk.data.primaryNetwork.vertices.listByHeight({ network: net, blockchainId: "x-chain", vertexHeight: 0, sortOrder: "desc" }, at)).result;
  eq(desc.vertices.map((v) => v.vertexHash), byHeight.get(0).map((v) => v.vertexHash).reverse(), "height 0, descending");
  await expectError(
    // The SDK only lets the X-Chain be named (x-chain, or mainnet's or fuji's id): fuji's is
    // not this network's.
    () => sdk.data.primaryNetwork.vertices.listByHeight({ network: net, blockchainId: "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm", vertexHeight: 0 }, at),
    "BadRequestError",
    400,
  );
  return `${vtx.length} vertices at heights 0..${maxHeight}, ${pagesSeen} pages`;
});

// ---------- the P-Chain (pchain.mjs replays the devnet's P/block containers) ----------
/** node-rpc's `index.*` on `/ext/index/P/block`. */
async function pIndex(method, params) {
  const res = await fetch(`${nodeUrl}/ext/index/P/block`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}
/** Every `P/block` container node-rpc serves, in index order. */
async function pContainers() {
  const last = await pIndex("index.getLastAccepted", { encoding: "hex" });
  const n = Number(last.index) + 1;
  const out = [];
  while (out.length < n) {
    const r = await pIndex("index.getContainerRange", { startIndex: out.length, numToFetch: 1024, encoding: "hex" });
    const page = Array.isArray(r) ? r : r.containers;
    assert(page.length > 0, `index.getContainerRange from ${out.length}: empty`);
    out.push(...page);
  }
  eq(out[n - 1].id, last.id, "last accepted P block");
  return out;
}
const P = { replay: undefined, containers: undefined };
const pAddr = (short) => pAddress(genesis.networkName ?? "local", short);
const digits = (s) => typeof s === "string" && /^(0|[1-9][0-9]*)$/.test(s);
const toP = (x) => x.replace(/^X-/, "P-");
/** The SDK parsed a P-shaped answer: its union keeps the first variant that parses, so the
 * P-only fields being there shows the P variant (not the X one) accepted the answer. */
function assertPShape(result, what) {
  const b = result.balances;
  if (b) {
    for (const k of ["unlockedUnstaked", "unlockedStaked", "lockedPlatform", "lockedStakeable", "lockedStaked", "pendingStaked", "atomicMemoryUnlocked", "atomicMemoryLocked"]) {
      assert(Array.isArray(b[k]), `${what}: balances.${k} missing (parsed as another variant?): ${Object.keys(b)}`);
    }
  }
  for (const u of result.utxos ?? []) {
    assert(typeof u.blockNumber === "string" && typeof u.txHash === "string", `${what}: a UTXO without the P fields: ${Object.keys(u)}`);
  }
  eq(result.chainInfo, { chainName: "p-chain", network: "fuji" }, `${what}: chainInfo (local, seen through the shim)`);
}
/** Which balance bucket an unspent P UTXO falls in at `now` (seconds): avalanchego's split. */
function bucketOf(out, staked, now) {
  const stakeLocked = out.stakeableLocktime > BigInt(now);
  if (staked) return stakeLocked ? "lockedStaked" : "unlockedStaked";
  if (stakeLocked) return "lockedStakeable";
  if (out.locktime > BigInt(now)) return "lockedPlatform";
  return "unlockedUnstaked";
}
const samePAddr = (owners) => owners.addrs.map(pAddr);

/** UTXO ids the X-Chain imported from P: the imported inputs of every X tx, as node-rpc's
 * avm.getTx (the DAG's txs, from the X/vtx containers) and avm.getBlockByHeight show them. */
async function xImportedFromP() {
  const txs = [];
  for (const c of containers.filter((c) => c.path === "X/vtx")) {
    for (const id of parseVertex(fromApiHex(c.bytes)).txs) txs.push((await avm("avm.getTx", { txID: id, encoding: "json" })).tx);
  }
  const height = Number((await avm("avm.getHeight", {})).height);
  for (let h = 1; h <= height; h++) txs.push(...((await avm("avm.getBlockByHeight", { height: String(h), encoding: "json" })).block.txs ?? []));
  const out = new Set();
  for (const t of txs) {
    const u = t.unsignedTx;
    if (u.sourceChain !== genesis.pChainID) continue;
    for (const i of u.importedInputs ?? []) out.add(utxoId(idBytes(i.txID), i.outputIndex));
  }
  assert(out.size > 0, "the X-Chain imported nothing from P");
  return out;
}

await check("P-Chain fixtures: node-rpc's P/block index equals the fixtures; every block and tx parses", async () => {
  const fromNode = await pContainers();
  const fromFile = containers.filter((c) => c.path === "P/block");
  eq(fromNode.map((c) => [c.id, c.bytes, String(c.index)]), fromFile.map((c) => [c.id, c.bytes, String(c.index)]), "P/block containers");
  P.containers = fromNode;
  P.replay = replay(genesis.pGenesis, fromNode, { avaxAssetId: genesis.avaxAssetID });
  const r = P.replay;
  return `${r.blocks.length} blocks, ${r.txs.size} txs, ${r.stakers.size} stakers, ${r.chains.size} chains, ${r.l1.size} L1 validators`;
});
if (!P.replay) {
  console.log("FAIL P-Chain checks skipped: the P-Chain history could not be read");
  failed += 1;
}

/** The devnet keys' P addresses (keys 0..6) and every reward owner of a staker. */
function pAddressesToCheck() {
  const set = new Set(genesis.keys.slice(0, 7).map((k) => toP(k.address)));
  for (const s of P.replay.stakers.values()) for (const a of samePAddr(s.tx.rewardsOwner)) set.add(a);
  return [...set];
}
/** What the replay expects unspent for `addr` (P's own UTXOs; rewards are added from the answer). */
function expectedPUtxos(addr) {
  const out = new Map();
  for (const u of P.replay.utxos.values()) {
    if (u.spentBy) continue;
    if (!samePAddr(u.out).includes(addr)) continue;
    out.set(u.id, u);
  }
  return out;
}
/** Reward UTXOs the replay knows of (id -> staker), amounts unknown (no reward calculator here). */
function rewardUtxoIds() {
  const out = new Map();
  for (const [id, s] of P.replay.stakers) {
    if (!s.settled) continue;
    const base = s.tx.outs.length + s.tx.stakeOuts.length;
    for (let k = 0; k < 2; k++) out.set(utxoId(idBytes(id), base + k), { staker: s, stakerTxId: id, index: base + k });
  }
  return out;
}

if (P.replay) {
  await check("primaryNetwork.utxos.listByAddresses (P-Chain): every page agrees with the replayed P-Chain", async () => {
    const rewards = rewardUtxoIds();
    let total = 0;
    let multiPage = 0;
    let rewardCount = 0;
    let stakedCount = 0;
    let atomic = 0;
    P.utxosByAddr = new Map();
    for (const addr of pAddressesToCheck()) {
      const pages = await allPages(
        sdk.data.primaryNetwork.utxos.listByAddresses({ network: net, blockchainId: "p-chain", addresses: addr, pageSize: 3 }, at),
      );
      for (const p of pages) assertPShape(p, `${addr} UTXO page`);
      for (const p of pages.slice(0, -1)) eq(p.utxos.length, 3, "a full page before the last");
      if (pages.length > 1) multiPage += 1;
      const utxos = pages.flatMap((p) => p.utxos);
      const ids = new Set(utxos.map((u) => u.utxoId));
      assert(ids.size === utxos.length, `${addr}: a UTXO listed twice`);
      const want = expectedPUtxos(addr);
      for (const u of utxos) {
        const bytes = fromApiHex(u.utxoBytes);
        const p = parseUtxo(bytes);
        eq([u.txHash, u.outputIndex, u.utxoId, u.asset.assetId, u.assetId, u.amount], [p.txId, p.outputIndex, p.utxoId, genesis.avaxAssetID, genesis.avaxAssetID, u.asset.amount], `${addr} UTXO fields vs its bytes`);
        assert(digits(u.asset.amount), `amount ${u.asset.amount}`);
        assert(u.addresses.includes(addr), `${addr} not among the owners ${u.addresses}`);
        assert(u.consumingTxHash === undefined, `${u.utxoId}: an unspent UTXO names a consumer`);
        if (u.createdOnChainId === genesis.xChainID) {
          // Exported by the X-Chain to P, not imported yet: an output of an X ExportTx.
          const tx = await avm("avm.getTx", { txID: u.txHash, encoding: "json" });
          const ex = tx.tx.unsignedTx;
          eq(ex.destinationChain, genesis.pChainID, `${u.utxoId}: X tx ${u.txHash} exports to P`);
          atomic += 1;
          continue;
        }
        if (u.createdOnChainId === genesis.cChainID) {
          // Exported by the C-Chain to P, not imported yet: the C-Chain's atomic memory lists it
          // too, with the same bytes.
          eq(u.consumedOnChainId, genesis.pChainID, `${u.utxoId}: consumed on P`);
          const c = await allPages(
            sdk.data.primaryNetwork.utxos.listByAddresses({ network: net, blockchainId: "c-chain", addresses: addr.replace("P-", "C-"), pageSize: 100 }, at),
          );
          const same = c.flatMap((p) => p.utxos).find((x) => x.utxoId === u.utxoId);
          assert(same?.utxoBytes === u.utxoBytes, `${u.utxoId}: not in the C-Chain's atomic memory`);
          atomic += 1;
          continue;
        }
        eq([u.createdOnChainId, u.consumedOnChainId], [genesis.pChainID, genesis.pChainID], `${u.utxoId} chains`);
        const created = P.replay.txs.get(u.txHash);
        const reward = rewards.get(u.utxoId);
        if (reward) {
          // A reward: output index len(outputs) + len(stake) (+1: the validator's fees), UTXO
          // tx id the staker's, owner the rewards owner, paid when the RewardValidatorTx was.
          rewardCount += 1;
          eq(u.txHash, reward.stakerTxId, `${u.utxoId}: reward UTXO tx`);
          assert(reward.staker.settled === "commit" || reward.index > reward.staker.tx.outs.length + reward.staker.tx.stakeOuts.length, `${u.utxoId}: a reward of an aborted staker`);
          eq(u.blockTimestamp, Number(reward.staker.settledTime), `${u.utxoId}: blockTimestamp = settlement time`);
          assert(["VALIDATOR", "DELEGATOR", "VALIDATOR_FEE"].includes(u.rewardType), `${u.utxoId}: rewardType ${u.rewardType}`);
          P.rewardUtxos ??= new Map();
          P.rewardUtxos.set(u.utxoId, u);
          continue;
        }
        const mine = want.get(u.utxoId);
        assert(mine, `${addr}: ${u.utxoId} (tx ${u.txHash}:${u.outputIndex}) is not unspent in the replayed P-Chain`);
        eq(u.utxoBytes.slice(0, -8), `0x${mine.bytes.toString("hex")}`, `${u.utxoId} bytes`);
        eq(Boolean(u.staked), Boolean(mine.staked), `${u.utxoId} staked`);
        // `utxoType` tells a stake output from the others (also once its staker is settled and
        // the stake returned); `staked` tells whether it is staked now.
        eq(u.utxoType, mine.stakerTxId ? "STAKE" : "TRANSFER", `${u.utxoId} utxoType`);
        if (mine.staked) {
          stakedCount += 1;
          const s = P.replay.stakers.get(mine.stakerTxId);
          eq([u.utxoStartTimestamp, u.utxoEndTimestamp], [Number(s.start), Number(s.end)], `${u.utxoId} staking period`);
        }
        eq(u.blockTimestamp, Number(mine.createdTime), `${u.utxoId} blockTimestamp`);
        if (created) eq(u.blockNumber, String(P.replay.blocks[created.block]?.inner.height ?? 0n), `${u.utxoId} blockNumber`);
        if (mine.out.stakeableLocktime > 0n) eq(u.stakeableLocktime, Number(mine.out.stakeableLocktime), `${u.utxoId} stakeableLocktime`);
        eq(u.threshold, mine.out.threshold, `${u.utxoId} threshold`);
      }
      const listed = new Set(utxos.map((u) => u.utxoId));
      const missing = [...want.keys()].filter((id) => !listed.has(id));
      assert(missing.length === 0, `${addr}: unspent in the replay but not listed: ${missing.slice(0, 3)} (${missing.length})`);
      P.utxosByAddr.set(addr, utxos);
      total += utxos.length;
    }
    assert(multiPage > 0 && rewardCount > 0 && stakedCount > 0, `not exercised: ${multiPage} multi-page, ${rewardCount} rewards, ${stakedCount} staked`);
    return `${total} UTXOs of ${P.utxosByAddr.size} addresses (${stakedCount} staked, ${rewardCount} rewards, ${atomic} exported to P by X or C), ${multiPage} listings over several pages`;
  });

  await check("primaryNetwork.balances.listByAddresses (P-Chain): each bucket sums the address's UTXOs", async () => {
    assert(P.utxosByAddr, "needs the UTXO check");
    const now = Math.floor(Date.now() / 1000);
    const imported = await xImportedFromP();
    const cListings = new Map();
    /** The C-Chain's atomic UTXOs of P address `addr`, imported ones included. */
    const cListing = async (addr) => {
      if (!cListings.has(addr)) {
        const c = addr.replace("P-", "C-");
        const pages = await allPages(
          sdk.data.primaryNetwork.utxos.listByAddresses({ network: net, blockchainId: "c-chain", addresses: c, includeSpent: true, pageSize: 100 }, at),
        );
        cListings.set(addr, pages.flatMap((p) => p.utxos));
      }
      return cListings.get(addr);
    };
    let nonEmpty = 0;
    const wrong = [];
    for (const [addr, utxos] of P.utxosByAddr) {
      const r = await sdk.data.primaryNetwork.balances.listByAddresses({ network: net, blockchainId: "p-chain", addresses: addr }, at);
      assertPShape(r, `${addr} balances`);
      const want = {};
      const add = (k, v) => (want[k] = (want[k] ?? 0n) + v);
      // Atomic memory, by the chain shared with: what X or C exported to P (listed among the P
      // UTXOs, `importable`) and what P exported to X or C (the replay's ExportTxs) that no
      // ImportTx took (`exported`): X's imports from node-rpc, C's from the C-Chain's listing
      // (node-rpc serves no C-Chain), which must list each such export.
      const lockedAt = (out) => (out.locktime > BigInt(now) ? "atomicMemoryLocked" : "atomicMemoryUnlocked");
      for (const a of P.replay.atomicToX) {
        if (!samePAddr(a.out).includes(addr)) continue;
        const id = utxoId(idBytes(a.txId), a.index);
        if (a.destination === genesis.xChainID) {
          if (imported.has(id)) continue;
        } else {
          eq(a.destination, genesis.cChainID, `${id}: P exports to X or C`);
          const onC = (await cListing(addr)).find((u) => u.utxoId === id);
          assert(onC, `${addr}: P's export ${id} to C is not in the C-Chain's atomic memory`);
          if (onC.consumingTxHash !== undefined) continue;
        }
        add(`${lockedAt(a.out)} exported ${a.destination}`, a.out.amount);
      }
      for (const u of utxos) {
        const bytes = fromApiHex(u.utxoBytes);
        if (u.createdOnChainId !== genesis.pChainID) {
          const out = parseOutput(bytes);
          add(`${lockedAt(out)} importable ${u.createdOnChainId}`, out.amount);
          continue;
        }
        const out = parseOutput(bytes);
        const replayed = P.replay.utxos.get(u.utxoId);
        const k = bucketOf(out, Boolean(replayed?.staked), now);
        want[k] = (want[k] ?? 0n) + out.amount;
      }
      const got = {};
      for (const [k, list] of Object.entries(r.balances)) {
        for (const e of list) {
          assert(digits(e.amount) && e.utxoCount >= 1, `${addr} ${k}: ${JSON.stringify(e)}`);
          eq([e.assetId, e.name, e.symbol, e.denomination, e.type], [genesis.avaxAssetID, "Avalanche", "AVAX", 9, "secp256k1"], `${addr} ${k} asset`);
          let key = k;
          if (k.startsWith("atomic")) {
            assert([genesis.xChainID, genesis.cChainID].includes(e.sharedWithChainId), `${addr} ${k} shared with ${e.sharedWithChainId}`);
            key = `${k} ${e.status} ${e.sharedWithChainId}`;
          }
          got[key] = (got[key] ?? 0n) + BigInt(e.amount);
        }
      }
      for (const k of new Set([...Object.keys(got), ...Object.keys(want)])) {
        if ((got[k] ?? 0n) !== (want[k] ?? 0n)) wrong.push(`${addr} ${k}: served ${got[k] ?? 0n}, want ${want[k] ?? 0n}`);
      }
      if (Object.keys(got).length > 0) nonEmpty += 1;
    }
    assert(nonEmpty > 0, "every balance empty");
    assert(wrong.length === 0, `${wrong.length} bucket sums differ: ${wrong.join("; ")}`);
    // Several addresses at once: no more than the sum of the single answers.
    const some = [...P.utxosByAddr.keys()].slice(0, 4);
    const joint = await sdk.data.primaryNetwork.balances.listByAddresses({ network: net, blockchainId: "p-chain", addresses: some.join(",") }, at);
    assertPShape(joint, "joint balances");
    return `${P.utxosByAddr.size} addresses, ${nonEmpty} holding AVAX`;
  });

  /** The rewards the replay expects paid: per settled staker, its reward (commit only) and for a
   * validator its delegators' deferred fees (paid on commit and abort alike). */
  function expectedRewards() {
    const out = [];
    for (const [id, s] of P.replay.stakers) {
      if (!s.settled) continue;
      const base = s.tx.outs.length + s.tx.stakeOuts.length;
      const common = { txHash: id, nodeId: s.nodeId, amountStaked: String(s.weight), startTimestamp: Number(s.start), endTimestamp: Number(s.end), rewardTxHash: s.rewardTxId };
      let next = base;
      if (s.settled === "commit") {
        out.push({ ...common, rewardType: s.kind === "validator" ? "VALIDATOR" : "DELEGATOR", addresses: samePAddr(s.tx.rewardsOwner), outputIndex: next });
        next += 1;
      }
      if (s.kind === "validator") {
        const paidDelegators = [...P.replay.stakers.values()].filter(
          (d) => d.kind === "delegator" && d.nodeId === s.nodeId && d.settled === "commit" && d.start >= s.start && d.end <= s.end,
        );
        if (paidDelegators.length > 0) {
          out.push({ ...common, rewardType: "VALIDATOR_FEE", addresses: samePAddr(s.tx.delegatorRewardsOwner), outputIndex: next });
        }
      }
    }
    return out;
  }
  const rewardKey = (r) => `${r.txHash}/${r.rewardType}`;
  function checkRewardRecords(got, want, what) {
    const w = new Map(want.map((r) => [rewardKey(r), r]));
    eq(got.map(rewardKey).sort(), [...w.keys()].sort(), `${what}: rewards paid (staker tx / type)`);
    for (const g of got) {
      const e = w.get(rewardKey(g));
      eq(
        [g.nodeId, g.amountStaked, g.startTimestamp, g.endTimestamp, g.rewardTxHash, [...g.addresses].sort(), g.outputIndex],
        [e.nodeId, e.amountStaked, e.startTimestamp, e.endTimestamp, e.rewardTxHash, [...e.addresses].sort(), e.outputIndex],
        `${what}: reward ${rewardKey(g)}`,
      );
      eq(g.utxoId, utxoId(idBytes(g.txHash), g.outputIndex), `${what}: ${rewardKey(g)} utxoId = sha256(index ‖ staker tx)`);
      assert(digits(g.reward.amount) && BigInt(g.reward.amount) > 0n, `${what}: reward amount ${g.reward.amount}`);
      eq([g.reward.assetId, g.reward.symbol, g.reward.denomination], [genesis.avaxAssetID, "AVAX", 9], `${what}: reward asset`);
      const listed = P.rewardUtxos?.get(g.utxoId);
      if (listed) eq([listed.asset.amount, listed.rewardType], [g.reward.amount, g.rewardType], `${what}: ${g.utxoId} as the UTXO listing shows it`);
    }
  }

  await check("primaryNetwork.rewards.listHistoricalRewards: by nodeIds and by addresses, as the replay pays them", async () => {
    const want = expectedRewards();
    assert(want.length > 0, "the replay paid no reward");
    const nodes = [...new Set([...P.replay.stakers.values()].map((s) => s.nodeId))];
    const byNodes = (await allPages(sdk.data.primaryNetwork.rewards.listHistoricalRewards({ network: net, nodeIds: nodes.join(","), pageSize: 2 }, at))).flatMap((p) => p.historicalRewards);
    checkRewardRecords(byNodes, want, "all stakers' nodes");
    for (let i = 1; i < byNodes.length; i++) assert(byNodes[i - 1].endTimestamp >= byNodes[i].endTimestamp, "newest first (default desc)");
    const asc = (await allPages(sdk.data.primaryNetwork.rewards.listHistoricalRewards({ network: net, nodeIds: nodes.join(","), sortOrder: "asc" }, at))).flatMap((p) => p.historicalRewards);
    eq(asc.map(rewardKey), [...byNodes].reverse().map(rewardKey), "sortOrder asc = desc reversed");
    let addrs = 0;
    for (const a of new Set(want.flatMap((r) => r.addresses))) {
      const got = (await allPages(sdk.data.primaryNetwork.rewards.listHistoricalRewards({ network: net, addresses: a }, at))).flatMap((p) => p.historicalRewards);
      checkRewardRecords(got, want.filter((r) => r.addresses.includes(a)), a);
      addrs += 1;
    }
    for (const n of nodes) {
      const got = (await allPages(sdk.data.primaryNetwork.rewards.listHistoricalRewards({ network: net, nodeIds: n }, at))).flatMap((p) => p.historicalRewards);
      checkRewardRecords(got, want.filter((r) => r.nodeId === n), n);
    }
    return `${want.length} rewards (${want.map((r) => r.rewardType).join(", ")}), ${nodes.length} nodes and ${addrs} addresses each alone`;
  });

  await check("primaryNetwork.rewards.listPendingRewards: every running staker of each genesis node, progress at the chain time", async () => {
    const now = P.replay.chainTime;
    let count = 0;
    for (const node of genesis.pGenesis.nodes.map((n) => n.nodeID)) {
      const want = [...P.replay.stakers.entries()].filter(([, s]) => s.nodeId === node && !s.settled);
      const got = (await allPages(sdk.data.primaryNetwork.rewards.listPendingRewards({ network: net, nodeIds: node, pageSize: 2 }, at))).flatMap((p) => p.pendingRewards);
      eq(got.map((g) => g.txHash).sort(), want.map(([id]) => id).sort(), `${node}: running stakers`);
      assert(want.some(([, s]) => s.genesis), `${node}: no genesis validator`);
      for (const g of got) {
        const s = P.replay.stakers.get(g.txHash);
        eq(
          [g.nodeId, g.amountStaked, g.startTimestamp, g.endTimestamp, g.rewardType, [...g.addresses].sort()],
          [node, String(s.weight), Number(s.start), Number(s.end), s.kind === "validator" ? "VALIDATOR" : "DELEGATOR", samePAddr(s.tx.rewardsOwner).sort()],
          `${node}: pending ${g.txHash}`,
        );
        const progress = (Number(now - s.start) / Number(s.end - s.start)) * 100;
        assert(g.progress >= 0 && g.progress <= 100 && Math.abs(g.progress - progress) < 1e-9, `${g.txHash}: progress ${g.progress}, want ${progress}`);
        assert(digits(g.estimatedReward.amount) && BigInt(g.estimatedReward.amount) > 0n, `estimatedReward ${g.estimatedReward.amount}`);
        eq([g.estimatedReward.assetId, g.estimatedReward.symbol], [genesis.avaxAssetID, "AVAX"], "estimatedReward asset");
      }
      count += got.length;
    }
    // By the reward address of genesis validator 0.
    const v0 = [...P.replay.stakers.entries()].find(([, s]) => s.genesis);
    const a = samePAddr(v0[1].tx.rewardsOwner)[0];
    const byAddr = (await allPages(sdk.data.primaryNetwork.rewards.listPendingRewards({ network: net, addresses: a }, at))).flatMap((p) => p.pendingRewards);
    const wantAddr = [...P.replay.stakers.entries()].filter(([, s]) => !s.settled && samePAddr(s.tx.rewardsOwner).includes(a)).map(([id]) => id);
    eq(byAddr.map((g) => g.txHash).sort(), wantAddr.sort(), `pending rewards of ${a}`);
    return `${count} running stakers on ${genesis.pGenesis.nodes.length} genesis nodes; ${byAddr.length} for ${a}`;
  });

  await check("primaryNetwork.blocks.listByNodeId: each genesis node's blocks are the containers it signed; together, every signed block", async () => {
    const byId = new Map(P.replay.blocks.map((b) => [b.id, b]));
    P.blocksServed = [];
    const seenIds = new Set();
    let pages = 0;
    for (const node of genesis.pGenesis.nodes.map((n) => n.nodeID)) {
      const ps = await allPages(sdk.data.primaryNetwork.blocks.listByNodeId({ network: net, blockchainId: "p-chain", nodeId: node, pageSize: 4 }, at));
      pages += ps.length;
      const got = ps.flatMap((p) => p.blocks);
      for (const p of ps) eq(p.chainInfo, { chainName: "p-chain", network: "fuji" }, "chainInfo");
      for (let i = 1; i < got.length; i++) assert(got[i - 1].blockTimestamp >= got[i].blockTimestamp, `${node}: newest first`);
      const want = P.replay.blocks.filter((b) => b.proposer === node);
      eq(got.map((g) => g.blockHash).sort(), want.map((b) => b.id).sort(), `${node}: blocks proposed`);
      for (const g of got) {
        const b = byId.get(g.blockHash);
        seenIds.add(g.blockHash);
        eq(
          [g.blockNumber, g.parentHash, g.blockTimestamp, g.blockType, g.txCount, g.transactions, g.blockSizeBytes],
          [String(b.inner.height), b.parentId, Number(b.inner.time), b.inner.type, b.inner.txs.length, b.inner.txs.map((t) => t.id), b.size],
          `block ${g.blockHash}`,
        );
        eq(g.proposerDetails, {
          proposerId: b.id,
          proposerParentId: b.parentId,
          proposerNodeId: node,
          proposerPChainHeight: Number(b.pChainHeight),
          proposerTimestamp: Number(b.timestamp),
        }, `block ${g.blockHash} proposer`);
        P.blocksServed.push(g);
        assert(digits(g.currentSupply) && BigInt(g.currentSupply) >= BigInt(genesis.pGenesis.initialSupply), `currentSupply ${g.currentSupply}`);
      }
    }
    const signed = P.replay.blocks.filter((b) => b.proposer);
    eq(seenIds.size, signed.length, "every signed block, once");
    // A time window: the first node's blocks within [start, end].
    const node = genesis.pGenesis.nodes[0].nodeID;
    const mine = P.replay.blocks.filter((b) => b.proposer === node);
    const [lo, hi] = [Number(mine[1].inner.time), Number(mine[mine.length - 2].inner.time)];
    // startTimestamp inclusive, endTimestamp exclusive ("after" / "before" in the spec).
    const window = (await allPages(sdk.data.primaryNetwork.blocks.listByNodeId({ network: net, blockchainId: "p-chain", nodeId: node, startTimestamp: lo, endTimestamp: hi }, at))).flatMap((p) => p.blocks);
    eq(window.map((g) => g.blockHash).sort(), mine.filter((b) => b.inner.time >= BigInt(lo) && b.inner.time < BigInt(hi)).map((b) => b.id).sort(), `${node} in [${lo}, ${hi})`);
    // A node that never proposed (an L1 validator's) has no blocks.
    const l1Node = [...P.replay.l1.values()][0].nodeId;
    const none = (await sdk.data.primaryNetwork.blocks.listByNodeId({ network: net, blockchainId: "p-chain", nodeId: l1Node }, at)).result;
    eq(none.blocks, [], `${l1Node} proposed nothing`);
    return `${signed.length} signed blocks of ${P.replay.blocks.length} (the rest are options), ${pages} pages`;
  });

  await check("primaryNetwork.blocks.listByNodeId: each block's L1 fee state (activeL1Validators, l1ValidatorsAccruedFees)", async () => {
    // After each block: the active L1 validators, and the fee accrued per active validator, which
    // avalanchego's advanceValidatorFeeState grows by CostOf(seconds) on every time advance, with
    // or without L1 validators (price 1 nAVAX/s: the local minimum, far below the target).
    assert(P.blocksServed?.length > 0, "needs the blocks check");
    const byId = new Map(P.replay.blocks.map((b) => [b.id, b]));
    const served = [...P.blocksServed].sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber));
    const wrong = { active: [], accrued: [] };
    for (const g of served) {
      const b = byId.get(g.blockHash);
      if (g.activeL1Validators !== b.l1Active) wrong.active.push(`height ${g.blockNumber}: ${g.activeL1Validators}, want ${b.l1Active}`);
      if (g.l1ValidatorsAccruedFees !== Number(b.l1Accrued)) wrong.accrued.push(`height ${g.blockNumber}: ${g.l1ValidatorsAccruedFees}, want ${b.l1Accrued}`);
    }
    const show = (l) => `${l.slice(0, 3).join("; ")}${l.length > 3 ? "; …" : ""}`;
    assert(
      wrong.active.length === 0 && wrong.accrued.length === 0,
      `activeL1Validators wrong in ${wrong.active.length} of ${served.length} blocks${wrong.active.length ? ` (${show(wrong.active)})` : ""}; ` +
        `l1ValidatorsAccruedFees wrong in ${wrong.accrued.length}${wrong.accrued.length ? ` (${show(wrong.accrued)})` : ""}`,
    );
    return `${served.length} blocks`;
  });

  await check("primaryNetwork.listL1Validators: active and all, by subnet, validation id and node; balances at 1 nAVAX/s", async () => {
    const r = P.replay;
    const height = String(r.blocks[r.blocks.length - 1].inner.height);
    const record = ([id, v]) => ({
      validationId: id,
      validationIdHex: `0x${idBytes(id).toString("hex")}`,
      nodeId: v.nodeId,
      subnetId: v.subnetId,
      weight: Number(v.weight),
      remainingBalance: Number(v.balance),
      creationTimestamp: Number(v.created),
      blsCredentials: { publicKey: `0x${v.publicKey.toString("hex")}`, proofOfPossession: `0x${v.pop.toString("hex")}` },
      remainingBalanceOwner: { addresses: v.remainingBalanceOwner.addrs.map(pAddr), threshold: v.remainingBalanceOwner.threshold },
      deactivationOwner: { addresses: v.deactivationOwner.addrs.map(pAddr), threshold: v.deactivationOwner.threshold },
    });
    const byId = (list) => [...list].sort((a, b) => (a.validationId < b.validationId ? -1 : 1));
    const all = [...r.l1].filter(([, v]) => !v.removed).map(record);
    const active = [...r.l1].filter(([, v]) => !v.removed && v.active).map(record);
    assert(active.length > 0 && active.length < all.length, `the devnet has active and inactive L1 validators: ${active.length}/${all.length}`);
    // The SDK's schema of blsCredentials is an empty object: it keeps none of its fields, so
    // they are compared as the server sent them (the shim keeps each answer's body).
    const list = async (q) => {
      const from = seen.length;
      const pages = await allPages(sdk.data.primaryNetwork.listL1Validators({ network: net, pageSize: 1, ...q }, at));
      for (const p of pages) eq(p.blockHeight, height, "blockHeight");
      const raw = seen.slice(from).filter((s) => s.body).flatMap((s) => s.body.validators);
      const got = pages.flatMap((p) => p.validators);
      eq(got.length, raw.length, "validators parsed vs sent");
      got.forEach((v, i) => {
        eq(v.blsCredentials, {}, "blsCredentials as the SDK keeps it");
        v.blsCredentials = raw[i].blsCredentials;
      });
      return got;
    };
    eq(byId(await list({})), byId(active), "active L1 validators");
    eq(byId(await list({ includeInactiveL1Validators: false })), byId(active), "includeInactiveL1Validators=false");
    eq(byId(await list({ includeInactiveL1Validators: true })), byId(all), "includeInactiveL1Validators=true");
    const subnet = [...r.subnets.keys()][0];
    eq(byId(await list({ subnetId: subnet, includeInactiveL1Validators: true })), byId(all), `subnet ${subnet}`);
    eq(await list({ subnetId: PRIMARY_SUBNET, includeInactiveL1Validators: true }), [], "the primary network has no L1 validators");
    for (const v of all) {
      eq(await list({ l1ValidationId: v.validationId, includeInactiveL1Validators: true }), [v], `validation id ${v.validationId}`);
      eq(await list({ nodeId: v.nodeId, includeInactiveL1Validators: true }), [v], `node ${v.nodeId}`);
    }
    return `${active.length} active of ${all.length}, at height ${height}`;
  });

  await check("primaryNetwork.listValidators, getValidatorDetails: every validation parses; active ones carry the node's uptime and connection (platform.getCurrentValidators)", async () => {
    const res = await fetch(`${nodeUrl}/ext/bc/P`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "platform.getCurrentValidators", params: {} }),
    });
    const node = new Map(((await res.json()).result?.validators ?? []).map((v) => [v.txID, v]));
    assert(node.size > 0, "the node serves platform.getCurrentValidators");
    const vs = (await allPages(sdk.data.primaryNetwork.listValidators({ network: net, pageSize: 100 }, at))).flatMap((p) => p.validators);
    const active = vs.filter((v) => v.validationStatus === "active");
    assert(active.length > 0, "active validators");
    for (const v of active) {
      const n = node.get(v.txHash);
      assert(n, `${v.txHash} is current on the node`);
      eq(v.uptimePerformance, Number(n.uptime), `${v.txHash} uptimePerformance`);
      eq(v.validatorHealth.reachabilityPercent, n.connected ? 100 : 0, `${v.txHash} reachabilityPercent`);
    }
    const byUptime = (await allPages(sdk.data.primaryNetwork.listValidators({ network: net, pageSize: 3, validationStatus: "active", sortBy: "uptimePerformance", sortOrder: "asc" }, at))).flatMap((p) => p.validators);
    eq(byUptime.map((v) => v.uptimePerformance), active.map((v) => v.uptimePerformance).sort((a, b) => a - b), "active by uptime");
    const nodes = [...new Set(vs.map((v) => v.nodeId))];
    let details = 0;
    for (const nodeId of nodes) {
      const got = (await allPages(sdk.data.primaryNetwork.getValidatorDetails({ network: net, nodeId, pageSize: 10 }, at))).flatMap((p) => p.validators);
      assert(got.length > 0 && got.every((v) => v.nodeId === nodeId), `${nodeId}: its validations`);
      details += got.length;
    }
    return `${vs.length} validators (${active.length} active with the node's uptime), ${details} validations of ${nodes.length} nodes`;
  });

  await check("primaryNetwork.transactions.listActiveStakingTransactions and avaxSupply.get parse", async () => {
    const txs = (await allPages(sdk.data.primaryNetwork.transactions.listActiveStakingTransactions({ network: net, blockchainId: "p-chain", pageSize: 100 }, at))).flatMap((p) => p.transactions);
    assert(txs.length > 0, "active staking txs");
    const s = await sdk.avaxSupply.get(at);
    assert(Number(s.totalSupply) > 0 && Number(s.totalStaked) > 0, JSON.stringify(s));
    return `${txs.length} staking txs; total supply ${s.totalSupply} AVAX`;
  });

  await check("primaryNetwork.getBlockchainById: every chain the P-Chain created (the L1's EVM genesis as an object)", async () => {
    let l1 = 0;
    for (const [id, c] of P.replay.chains) {
      const b = await sdk.data.primaryNetwork.getBlockchainById({ network: net, blockchainId: id }, at);
      eq(
        [b.blockchainId, b.blockchainName, b.vmId, b.subnetId, b.createBlockNumber, b.createBlockTimestamp],
        [id, c.tx.chainName, c.tx.vmId, c.tx.subnetId, String(c.height), Number(c.time)],
        `blockchain ${id}`,
      );
      if (c.tx.subnetId === PRIMARY_SUBNET) continue;
      l1 += 1;
      const g = JSON.parse(c.tx.genesis.toString("utf8"));
      eq(b.evmChainId, g.config.chainId, "evmChainId = the genesis' config.chainId");
      eq(b.evmChainId, 99999, "the devnet L1's chain id");
      assert(b.genesisData && typeof b.genesisData === "object", `genesisData is not an object: ${typeof b.genesisData}`);
      eq(
        [b.genesisData.config?.chainId, b.genesisData.gasLimit, b.genesisData.alloc, b.genesisData.config?.feeConfig?.gasLimit],
        [g.config.chainId, g.gasLimit, g.alloc, g.config.feeConfig.gasLimit],
        "genesisData as the SDK parsed it (EvmGenesisDto) vs the CreateChainTx's genesis",
      );
    }
    assert(l1 > 0, "no chain outside the primary network");
    return `${P.replay.chains.size} chains, ${l1} on an L1 subnet`;
  });
}

await check("P-Chain endpoints: bad input is a 400 in the spec's error shape (BadRequestError)", async () => {
  const bad = async (what, fn) => {
    const e = await expectError(fn, "BadRequestError", 400);
    eq([e.data$?.statusCode, e.data$?.error], [400, "Bad Request"], `${what}: error body`);
    // `message` is a string or an array of strings (the spec's BadRequest).
    const m = e.data$?.message;
    assert((typeof m === "string" && m.length > 0) || (Array.isArray(m) && m.length > 0 && m.every((x) => typeof x === "string")), `${what}: message ${JSON.stringify(m)}`);
    return JSON.stringify(m);
  };
  const node0 = genesis.pGenesis.nodes[0].nodeID;
  await bad("historical rewards, neither addresses nor nodeIds", () => sdk.data.primaryNetwork.rewards.listHistoricalRewards({ network: net }, at));
  await bad("pending rewards, neither addresses nor nodeIds", () => sdk.data.primaryNetwork.rewards.listPendingRewards({ network: net }, at));
  const e = await bad("historical rewards, nodeIds=node1", () => sdk.data.primaryNetwork.rewards.listHistoricalRewards({ network: net, nodeIds: "node1" }, at));
  assert(e.includes("node1"), `message names the value: ${e}`);
  await bad("pending rewards, nodeIds=node1", () => sdk.data.primaryNetwork.rewards.listPendingRewards({ network: net, nodeIds: `${node0},node1` }, at));
  await bad("blocks of node node1", () => sdk.data.primaryNetwork.blocks.listByNodeId({ network: net, blockchainId: "p-chain", nodeId: "node1" }, at));
  await bad("L1 validators, l1ValidationId=zz", () => sdk.data.primaryNetwork.listL1Validators({ network: net, l1ValidationId: "zz" }, at));
  await bad("L1 validators, nodeId=node1", () => sdk.data.primaryNetwork.listL1Validators({ network: net, nodeId: "node1" }, at));
  await bad("L1 validators, subnetId=zz", () => sdk.data.primaryNetwork.listL1Validators({ network: net, subnetId: "zz" }, at));
  await bad("P balances of an X address", () => sdk.data.primaryNetwork.balances.listByAddresses({ network: net, blockchainId: "p-chain", addresses: "X-local1xnfv73rsfgmgf6vlayf77h5wgpjr7rlvj9wllk" }, at));
  await bad("historical rewards, a forged pageToken", () => sdk.data.primaryNetwork.rewards.listHistoricalRewards({ network: net, nodeIds: node0, pageToken: "bm90LWEtdG9rZW4" }, at));
  return "10 requests";
});

// ---------- EVM chains (issue #16) ----------
await evmChecks({
  sdk,
  at,
  check,
  eq,
  assert,
  expectError,
  seen,
  tamperNext: (f) => {
    tamper = f;
  },
  profile: process.env.SNOWLINE_COMPAT ?? "spec",
  genesisPath: join(fixtures, "genesis.json"),
  cChainId: genesis.cChainID,
});

// ---------- the network shim did only what it says ----------
await check("network shim: every answer's chainInfo said `local`, every request was mapped", async () => {
  const xPaths = seen.filter((s) => s.path.startsWith("/v1/networks/"));
  assert(xPaths.length > 0, "no primary-network request was sent");
  assert(xPaths.every((s) => s.path.startsWith("/v1/networks/local/") || s.path.startsWith("/v1/networks/mainnet/")), "unexpected network");
  eq(rewrites.requests, xPaths.filter((s) => s.path.startsWith("/v1/networks/local/")).length, "requests mapped fuji -> local");
  // Answers with a chainInfo: balances, UTXOs, vertices and blocks (not rewards, L1 validators,
  // blockchain details), each of which must carry one.
  const withInfo = xPaths.filter((s) => s.status === 200 && /\/(balances|utxos|vertices:listByHeight|blocks)$/.test(s.path));
  assert(withInfo.every((s) => s.chainInfo), "a 200 of balances/UTXOs/vertices/blocks without chainInfo");
  eq(rewrites.answers, xPaths.filter((s) => s.chainInfo).length, "answers with chainInfo.network = local");
  return `${rewrites.requests} requests, ${rewrites.answers} answers`;
});

// ---------- usage metrics ----------
/** `x-execution-weight` of each implemented operation, by route template, from the OpenAPI. */
const WEIGHTS = { free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200 };
function weightOf(template) {
  const op = openapi.paths[template]?.get ?? openapi.paths[template]?.post;
  // An operation the OpenAPI gives no weight (the address's chains, the all-chains listings)
  // costs what the server charges it: medium.
  const w = op && !("x-execution-weight" in op) ? "medium" : op?.["x-execution-weight"];
  assert(w in WEIGHTS, `no weight for ${template}`);
  return WEIGHTS[w];
}
const EVM_ROUTES = [
  [/^\/v1\/chains\/[^/]+\/blocks\/[^/]+$/, "/v1/chains/{chainId}/blocks/{blockId}"],
  [/^\/v1\/chains\/[^/]+\/tokens\/[^/]+\/transfers$/, "/v1/chains/{chainId}/tokens/{address}/transfers"],
  [/^\/v1\/chains\/[^/]+\/addresses\/[^/]+\/transactions:listInternals$/, "/v1/chains/{chainId}/addresses/{address}/transactions:listInternals"],
  [/^\/v1\/chains\/[^/]+\/addresses\/[^/]+\/balances:listErc721$/, "/v1/chains/{chainId}/addresses/{address}/balances:listErc721"],
  [/^\/v1\/chains\/[^/]+\/addresses\/[^/]+\/balances:getNative$/, "/v1/chains/{chainId}/addresses/{address}/balances:getNative"],
  [/^\/v1\/chains\/[^/]+\/contracts\/[^/]+\/deployments$/, "/v1/chains/{chainId}/contracts/{address}/deployments"],
  [/^\/v1\/chains\/[^/]+\/contracts\/[^/]+\/transactions:getDeployment$/, "/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment"],
  [/^\/v1\/chains\/[^/]+\/addresses\/[^/]+\/transactions$/, "/v1/chains/{chainId}/addresses/{address}/transactions"],
  [/^\/v2\/chains\/[^/]+\/addresses\/[^/]+\/transactions$/, "/v2/chains/{chainId}/addresses/{address}/transactions"],
  ...["listNative", "listErc20", "listErc721", "listErc1155"].map((op) => [
    new RegExp(`^/v1/chains/[^/]+/addresses/[^/]+/transactions:${op}$`),
    `/v1/chains/{chainId}/addresses/{address}/transactions:${op}`,
  ]),
  [/^\/v1\/chains\/[^/]+\/transactions\/[^/]+$/, "/v1/chains/{chainId}/transactions/{txHash}"],
  [/^\/v1\/chains\/[^/]+\/blocks\/[^/]+\/transactions$/, "/v1/chains/{chainId}/blocks/{blockId}/transactions"],
  [/^\/v1\/chains\/[^/]+\/transactions$/, "/v1/chains/{chainId}/transactions"],
  [/^\/v1\/chains\/[^/]+\/blocks$/, "/v1/chains/{chainId}/blocks"],
  [/^\/v1\/address\/[^/]+\/chains$/, "/v1/address/{address}/chains"],
  [/^\/v1\/chains\/[^/]+\/nfts\/collections\/[^/]+\/tokens\/[^/]+:reindex$/, "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex"],
];
function templateOf(path) {
  if (path === "/v1/chains" || path === "/v1/apiUsageMetrics") return path;
  if (/^\/v1\/chains\/[^/]+$/.test(path)) return "/v1/chains/{chainId}";
  for (const [re, template] of EVM_ROUTES) if (re.test(path)) return template;
  if (/^\/v1\/networks\/[^/]+\/validators\/[^/]+$/.test(path)) return "/v1/networks/{network}/validators/{nodeId}";
  const node = path.match(/^\/v1\/networks\/[^/]+\/blockchains\/[^/]+\/nodes\/[^/]+\/blocks$/);
  if (node) return "/v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks";
  const m = path.match(/^\/v1\/networks\/[^/]+\/blockchains\/[^/]+(\/.*)?$/);
  if (m) return `/v1/networks/{network}/blockchains/{blockchainId}${m[1] ?? ""}`;
  const n = path.match(/^\/v1\/networks\/[^/]+(\/.*)$/);
  return n ? `/v1/networks/{network}${n[1]}` : path;
}

/** Requests, 4xx answers and credits (used + wasted) per path, summed over the last two days. */
async function usageByPath() {
  const now = Math.floor(Date.now() / 1000);
  const r = await sdk.data.usageMetrics.getUsage({ groupBy: "requestPath", startTimestamp: now - 86400, endTimestamp: now }, at);
  assert(r.aggregateDuration === "daily", `aggregateDuration ${r.aggregateDuration}`);
  const got = new Map();
  for (const m of r.metrics) {
    for (const v of m.values) {
      eq(v.groupedBy, "requestPath", "groupedBy");
      const g = got.get(v.groupValue) ?? { total: 0, invalid: 0, credits: 0 };
      g.total += v.totalRequests;
      g.invalid += v.invalidRequests;
      g.credits += v.apiCreditsUsed + v.apiCreditsWasted;
      got.set(v.groupValue, g);
    }
  }
  return got;
}

await check("usageMetrics.getUsage: needs a key (401 without)", async () => {
  const e = await expectError(() => anonymous.data.usageMetrics.getUsage({}, at), "UnauthorizedError", 401);
  assert(e.message.includes("API key"), e.message);
});

await check("usageMetrics.getUsage: requests, errors and credits of this run, by path", async () => {
  const want = new Map();
  for (const s of seen) {
    const t = templateOf(s.path);
    if (t === "/v1/apiUsageMetrics") continue; // its own calls are still being counted
    const w = want.get(t) ?? { total: 0, invalid: 0, credits: 0 };
    w.total += 1;
    if (s.status >= 400 && s.status < 500) w.invalid += 1;
    w.credits += weightOf(t);
    want.set(t, w);
  }
  let got;
  // Metering is written asynchronously: poll until every request is in (at most ~20 s).
  for (let i = 0; i < 100; i++) {
    const after = await usageByPath();
    got = new Map(
      [...want.keys()].map((t) => {
        const [a, b] = [after.get(t), usageBefore.get(t)];
        const d = (k) => (a?.[k] ?? 0) - (b?.[k] ?? 0);
        return [t, { total: d("total"), invalid: d("invalid"), credits: d("credits") }];
      }),
    );
    if ([...want].every(([t, w]) => got.get(t).total >= w.total)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const [t, w] of want) eq(got.get(t), w, `usage of ${t}`);
  return `${want.size} paths, ${[...want.values()].reduce((n, w) => n + w.total, 0)} requests`;
});

// ---------- RPC usage metrics ----------
// node-rpc (metering on, keys not required) answers 404 for a chain it does not serve: such
// calls are a subnet's in getSubnetRpcUsage, which data-api reads from node-rpc's record.
const SUBNET_CHAIN = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5";
async function subnetCalls() {
  const r = await sdk.data.usageMetrics.getSubnetRpcUsage(
    { timeInterval: "hourly", groupBy: "responseCode", chainId: SUBNET_CHAIN },
    at,
  );
  eq(r.chainId, SUBNET_CHAIN, "chainId");
  eq(r.aggregateDuration, "hourly", "aggregateDuration");
  let n = 0;
  for (const m of r.metrics) {
    for (const v of m.values) {
      eq([v.groupedBy, v.groupValue], ["responseCode", "404"], "group");
      eq(v.invalidRequests, v.totalRequests, "invalidRequests");
      n += v.totalRequests;
    }
  }
  return n;
}

await check("usageMetrics.getSubnetRpcUsage: needs a key (401 without)", async () => {
  await expectError(() => anonymous.data.usageMetrics.getSubnetRpcUsage({}, at), "UnauthorizedError", 401);
});

await check("usageMetrics.getSubnetRpcUsage: the calls node-rpc answered for another chain", async () => {
  const before = await subnetCalls();
  const calls = 3;
  for (let i = 0; i < calls; i++) {
    const r = await fetch(`${nodeUrl}/ext/bc/${SUBNET_CHAIN}/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    });
    eq(r.status, 404, "node-rpc's answer");
  }
  // node-rpc writes its record every 200 ms; poll until the calls are in (at most ~20 s).
  let n = before;
  for (let i = 0; i < 100 && n < before + calls; i++) {
    await new Promise((r) => setTimeout(r, 200));
    n = await subnetCalls();
  }
  eq(n - before, calls, "calls counted");
  return `${calls} calls`;
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
