// Drives a running data-api with the official Data API SDK, npm `@avalanche-sdk/chainkit` 0.3.13
// (issues #4/#5), and checks what the SDK parsed against independent sources: the devnet fixtures
// (fixtures/devnet/), the node the data-api follows (node-rpc's avm.* JSON-RPC), and the real
// OpenAPI (execution weights).
//
//   node run.mjs API_URL NODE_URL API_KEY [OPENAPI]
//
// Prints one line per check, then `N passed, M failed`; exits 1 on any failure (or if nothing
// passed).
//
// The devnet is the `local` network, which the SDK cannot name: its `network` parameter is a
// closed enum (mainnet|fuji|testnet) checked before sending, and `chainInfo.network` is checked
// on receipt. So the SDK is given a fetcher (its documented `HTTPClient({ fetcher })` hook) that
// maps the SDK's `fuji` to `local` in the request path and `local` back to `fuji` in
// `chainInfo.network` of the answer, and nothing else; it counts each rewrite, and a check asserts
// the server really answered `local` (docs/interop.md, "network local").

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Avalanche, HTTPClient } from "@avalanche-sdk/chainkit";

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
/** The SDK's fetcher: `fuji` -> `local` in the path, `local` -> `fuji` in `chainInfo.network`. */
async function fetcher(input, init) {
  const req = input instanceof Request ? input : new Request(input, init);
  const url = new URL(req.url);
  if (url.pathname.startsWith("/v1/networks/fuji/")) {
    url.pathname = url.pathname.replace("/v1/networks/fuji/", "/v1/networks/local/");
    rewrites.requests += 1;
  }
  const res = await fetch(new Request(url, req));
  seen.push({ path: url.pathname, status: res.status });
  const text = await res.text();
  let out = text;
  if (res.ok && (res.headers.get("content-type") ?? "").startsWith("application/json")) {
    const body = JSON.parse(text);
    if (body?.chainInfo?.network === "local") {
      body.chainInfo.network = "fuji";
      rewrites.answers += 1;
      out = JSON.stringify(body);
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

await check("primaryNetwork.balances.listByAddresses: several addresses at once; P/C not indexed (404)", async () => {
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
  await expectError(
    () => sdk.data.primaryNetwork.balances.listByAddresses({ network: net, blockchainId: "p-chain", addresses: addresses[0].replace("X-", "P-") }, at),
    "NotFoundError",
    404,
  );
  const e = await expectError(
    () => sdk.data.primaryNetwork.balances.listByAddresses({ network: net, blockchainId: "x-chain", addresses: "X-avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg" }, at),
    "BadRequestError",
    400,
  );
  assert(e.message.includes("avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg"), `message names the address: ${e.message}`);
  return `${sum.size} assets`;
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

// ---------- the network shim did only what it says ----------
await check("network shim: every X-Chain answer said `local`, every request was mapped", async () => {
  const xPaths = seen.filter((s) => s.path.startsWith("/v1/networks/"));
  assert(xPaths.length > 0, "no X-Chain request was sent");
  assert(xPaths.every((s) => s.path.startsWith("/v1/networks/local/") || s.path.startsWith("/v1/networks/mainnet/")), "unexpected network");
  eq(rewrites.requests, xPaths.filter((s) => s.path.startsWith("/v1/networks/local/")).length, "requests mapped fuji -> local");
  const ok = xPaths.filter((s) => s.status === 200 && !/\/blockchains\/[^/]+$/.test(s.path)).length;
  eq(rewrites.answers, ok, "answers with chainInfo.network = local");
  return `${rewrites.requests} requests, ${rewrites.answers} answers`;
});

// ---------- usage metrics ----------
/** `x-execution-weight` of each implemented operation, by route template, from the OpenAPI. */
const WEIGHTS = { free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200 };
function weightOf(template) {
  const w = openapi.paths[template]?.get?.["x-execution-weight"];
  assert(w in WEIGHTS, `no weight for ${template}`);
  return WEIGHTS[w];
}
function templateOf(path) {
  if (path === "/v1/chains" || path === "/v1/apiUsageMetrics") return path;
  if (/^\/v1\/chains\/[^/]+$/.test(path)) return "/v1/chains/{chainId}";
  const m = path.match(/^\/v1\/networks\/[^/]+\/blockchains\/[^/]+(\/.*)?$/);
  return m ? `/v1/networks/{network}/blockchains/{blockchainId}${m[1] ?? ""}` : path;
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

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
