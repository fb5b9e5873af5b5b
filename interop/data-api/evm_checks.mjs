// The EVM checks of run.mjs (issue #16): every EVM operation data-api serves, called through the
// official SDK with its strict response validation, on both recorded chains (the C-Chain 43112
// and the devnet's L1 99999, served by evm-replay and indexed by data-api), and what the SDK
// parsed compared with evm.mjs' reading of the recorded JSON-RPC answers: blocks and receipts,
// transfer logs, call traces, eth_call and eth_getBalance answers. Besides the comparison, every
// answer must survive the SDK's parse whole (`kept`): the zod schemas drop members they do not
// know, so an answer with a member the schema lacks, or a union record read as the wrong
// variant, would otherwise pass unseen.

import { Recording, checksum, devnetEvmChain } from "./evm.mjs";
import { evmHistoryChecks } from "./evm_history_checks.mjs";

/** JSON with object keys sorted, for comparing a parsed answer with the body sent. */
function canon(v) {
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/**
 * Runs the EVM checks. `h`: the driver's helpers: sdk, at, check, eq, assert, expectError,
 * seen (the fetcher's log of { path, status, body }), tamperNext (makes the fetcher rewrite the
 * next JSON answer with a function before the SDK reads it), profile (spec|glacier), genesisPath.
 */
export async function evmChecks(h) {
  const { sdk, at, check, eq, assert, expectError, seen, tamperNext, profile } = h;
  const evm = sdk.data.evm;
  const l1 = devnetEvmChain(h.genesisPath, 99999);
  const chains = [
    { chainId: "43112", blockchainId: h.cChainId, rec: new Recording(43112) },
    { chainId: "99999", blockchainId: l1.blockchainId, rec: new Recording(99999) },
  ];
  const lc = (a) => a.toLowerCase();
  const cs = (a) => checksum(a);

  /** The SDK's result of `fn` and the bodies the server sent meanwhile; asserts the parse kept all. */
  async function kept(what, fn) {
    const from = seen.length;
    const result = await fn();
    const bodies = seen.slice(from).filter((s) => s.body !== undefined).map((s) => s.body);
    eq(bodies.length, 1, `${what}: answers`);
    assert(canon(result) === canon(bodies[0]), `${what}: the SDK's parse differs from the body sent:\n  parsed ${canon(result).slice(0, 400)}\n  sent   ${canon(bodies[0]).slice(0, 400)}`);
    return result;
  }
  /** Every page of an SDK listing (its async iterator), each page kept whole; the records under `key`. */
  async function pages(what, key, promise) {
    const from = seen.length;
    const out = [];
    for await (const page of await promise) out.push(page.result);
    const bodies = seen.slice(from).filter((s) => s.body !== undefined).map((s) => s.body);
    eq(bodies.length, out.length, `${what}: pages`);
    out.forEach((p, i) => assert(canon(p) === canon(bodies[i]), `${what}: page ${i} parsed differs from the body sent:\n  parsed ${canon(p).slice(0, 400)}\n  sent   ${canon(bodies[i]).slice(0, 400)}`));
    for (const p of out.slice(0, -1)) assert(p.nextPageToken, `${what}: a page before the last without nextPageToken`);
    assert(out.length > 0 && !out[out.length - 1].nextPageToken, `${what}: the last page has a nextPageToken`);
    return { pages: out, records: out.flatMap((p) => p[key]) };
  }
  const fullPagesBeforeLast = (what, ps, key, size) => ps.slice(0, -1).forEach((p, i) => eq(p[key].length, size, `${what}: page ${i} size`));

  // ---------- chains ----------
  await check("EVM chains: listed, and found by EVM id and by blockchain id (43112 and the devnet's L1 99999)", async () => {
    const all = (await kept("list", () => evm.chains.list({}, at))).chains;
    const main = (await evm.chains.list({ network: "mainnet" }, at)).chains;
    for (const c of chains) {
      const listed = all.find((x) => x.chainId === c.chainId);
      assert(listed, `chain ${c.chainId} not listed`);
      assert(!main.some((x) => x.chainId === c.chainId), `${c.chainId} listed on mainnet`);
      eq([listed.platformChainId, listed.vmName, listed.isTestnet, listed.status], [c.blockchainId, "EVM", true, "OK"], `${c.chainId} record`);
      eq(await kept(`get ${c.chainId}`, () => evm.chains.get({ chainId: c.chainId }, at)), listed, `get ${c.chainId}`);
      eq(await kept(`get ${c.blockchainId}`, () => evm.chains.get({ chainId: c.blockchainId }, at)), listed, `get ${c.blockchainId}`);
    }
    const l1Record = all.find((x) => x.chainId === "99999");
    eq([l1Record.chainName, l1Record.networkToken], [l1.chainName, { name: "Snow", symbol: "SNOW", decimals: 18 }], "the L1's name (its CreateChainTx's) and token");
    return `2 chains, each by 2 ids`;
  });

  // ---------- blocks ----------
  await check("evm.blocks.get: every block of both chains by number and by hash equals the recorded block and receipts", async () => {
    let n = 0;
    for (const c of chains) {
      let cumulative = 0;
      for (const b of c.rec.blocks) {
        const blk = b.block;
        cumulative += blk.transactions.length;
        const fees = b.receipts.reduce((s, r) => s + BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice), 0n);
        const want = {
          chainId: c.chainId,
          blockNumber: String(b.number),
          blockTimestamp: Number(BigInt(blk.timestamp)),
          blockHash: blk.hash,
          txCount: blk.transactions.length,
          baseFee: String(BigInt(blk.baseFeePerGas ?? 0)),
          gasUsed: String(BigInt(blk.gasUsed)),
          gasLimit: String(BigInt(blk.gasLimit)),
          gasCost: String(BigInt(blk.blockGasCost ?? 0)),
          parentHash: blk.parentHash,
          feesSpent: String(fees),
          cumulativeTransactions: String(cumulative),
        };
        const byNumber = await kept(`block ${b.number}`, () => evm.blocks.get({ chainId: c.chainId, blockId: String(b.number) }, at));
        eq(canon(byNumber), canon(want), `chain ${c.chainId} block ${b.number}`);
        const byHash = await kept(`block ${blk.hash}`, () => evm.blocks.get({ chainId: c.blockchainId, blockId: blk.hash }, at));
        eq(canon(byHash), canon(want), `chain ${c.chainId} block ${blk.hash} (by hash, chain by blockchain id)`);
        n += 2;
      }
      const e = await expectError(() => evm.blocks.get({ chainId: c.chainId, blockId: String(c.rec.tip + 1) }, at), "NotFoundError", 404);
      assert(typeof e.message === "string", "404 message");
    }
    return `${n} blocks (${chains.map((c) => `${c.chainId}: 0..${c.rec.tip}`).join(", ")}), past the tip 404`;
  });

  // ---------- token transfers ----------
  await check("evm.contracts.listTransfers: each token's transfers (ERC-20, ERC-721, ERC-1155), every page, and block windows", async () => {
    const counts = { 20: 0, 721: 0, 1155: 0 };
    let windows = 0;
    let listings = 0;
    for (const c of chains) {
      const all = c.rec.transfers();
      const tokens = [...new Set(all.map((t) => t.token))];
      assert(new Set(all.map((t) => t.standard)).size === 3, `chain ${c.chainId}: not every standard moved`);
      for (const token of tokens) {
        // Newest first: block, log index, position in an ERC-1155 batch, each descending.
        const want = all.filter((t) => t.token === token).reverse();
        const what = `chain ${c.chainId} token ${cs(token)}`;
        const { pages: ps, records: got } = await pages(what, "transfers", evm.contracts.listTransfers({ chainId: c.chainId, address: cs(token), pageSize: 3 }, at));
        eq(got.length, want.length, `${what}: transfers`);
        fullPagesBeforeLast(what, ps, "transfers", 3);
        listings += 1;
        const name = c.rec.callString(token, "0x06fdde03");
        const symbol = c.rec.callString(token, "0x95d89b41");
        got.forEach((g, i) => {
          const w = want[i];
          const blk = c.rec.blocks[w.block].block;
          eq(
            [g.blockNumber, g.blockHash, g.blockTimestamp, g.txHash, g.logIndex, g.from.address, g.to.address],
            [String(w.block), blk.hash, Number(BigInt(blk.timestamp)), w.txHash, w.logIndex, cs(w.from), cs(w.to)],
            `${what} #${i}`,
          );
          counts[w.standard] += 1;
          if (w.standard === 20) {
            assert(g.erc20Token && !g.erc721Token && !g.erc1155Token, `${what} #${i}: not an Erc20Transfer`);
            const decimals = Number(c.rec.callUint(token, "0x313ce567") ?? 0n);
            eq([g.value, g.erc20Token.address, g.erc20Token.ercType, g.erc20Token.name, g.erc20Token.symbol, g.erc20Token.decimals], [String(w.value), cs(token), "ERC-20", name ?? "", symbol ?? "", decimals], `${what} #${i} ERC-20`);
          } else if (w.standard === 721) {
            assert(g.erc721Token && g.value === undefined, `${what} #${i}: not an Erc721Transfer`);
            const t = g.erc721Token;
            eq([t.address, t.ercType, t.tokenId, t.name, t.symbol, t.tokenUri, t.metadata.indexStatus], [cs(token), "ERC-721", String(w.id), name ?? "", symbol ?? "", c.rec.uriAt(token, "0xc87b56dd", w.id, w.block) ?? "", "UNINDEXED"], `${what} #${i} ERC-721`);
          } else {
            assert(g.erc1155Token && !g.erc20Token, `${what} #${i}: not an Erc1155Transfer`);
            const t = g.erc1155Token;
            eq([g.value, t.address, t.ercType, t.tokenId, t.tokenUri, t.metadata.indexStatus], [String(w.value), cs(token), "ERC-1155", String(w.id), c.rec.uriAt(token, "0x0e89341c", w.id, w.block) ?? "", "UNINDEXED"], `${what} #${i} ERC-1155`);
          }
        });
        // [startBlock, endBlock): inclusive, exclusive.
        const [lo, hi] = [want[want.length - 1].block, want[0].block];
        if (hi - lo >= 2) {
          const q = { chainId: c.chainId, address: cs(token), startBlock: lo + 1, endBlock: hi, pageSize: 2 };
          const { records } = await pages(`${what} [${lo + 1}, ${hi})`, "transfers", evm.contracts.listTransfers(q, at));
          const inside = want.filter((t) => t.block >= lo + 1 && t.block < hi);
          eq(records.map((r) => [r.txHash, r.logIndex]), inside.map((t) => [t.txHash, t.logIndex]), `${what} [${lo + 1}, ${hi})`);
          const { records: open } = await pages(`${what} from ${hi}`, "transfers", evm.contracts.listTransfers({ chainId: c.chainId, address: cs(token), startBlock: hi, pageSize: 100 }, at));
          eq(open.length, want.filter((t) => t.block >= hi).length, `${what} startBlock only`);
          const { records: upTo } = await pages(`${what} before ${lo + 1}`, "transfers", evm.contracts.listTransfers({ chainId: c.chainId, address: cs(token), endBlock: lo + 1, pageSize: 100 }, at));
          eq(upTo.length, want.filter((t) => t.block < lo + 1).length, `${what} endBlock only`);
          // The OpenAPI and the spec type both ends as `number`: [lo + 0.5, hi - 0.5) holds the
          // same heights as [lo + 1, hi).
          const { records: frac } = await pages(`${what} [${lo + 0.5}, ${hi - 0.5})`, "transfers", evm.contracts.listTransfers({ ...q, startBlock: lo + 0.5, endBlock: hi - 0.5 }, at));
          eq(frac.map((r) => [r.txHash, r.logIndex]), inside.map((t) => [t.txHash, t.logIndex]), `${what} [${lo + 0.5}, ${hi - 0.5})`);
          windows += 4;
        }
      }
    }
    assert(counts[20] > 0 && counts[721] > 0 && counts[1155] > 0, JSON.stringify(counts));
    // A bound of 0 is sent, not dropped as falsy: `endBlock: 0` is the empty range before genesis.
    const busiest = chains[0].rec.transfers()[0].token;
    const from = seen.length;
    const { records: none } = await pages("endBlock 0", "transfers", evm.contracts.listTransfers({ chainId: "43112", address: cs(busiest), endBlock: 0 }, at));
    eq(none, [], "endBlock 0");
    assert(seen.slice(from).every((x) => /[?&]endBlock=0(&|$)/.test(x.query)), `endBlock=0 not sent: ${seen.slice(from).map((x) => x.query)}`);
    return `${listings} tokens, ERC-20 ${counts[20]}, ERC-721 ${counts[721]}, ERC-1155 ${counts[1155]} transfers, ${windows} windows`;
  });

  // ---------- internal transactions ----------
  await check("evm.address.transactions.listInternal: each address's internal transactions equal the call traces", async () => {
    let total = 0;
    let addresses = 0;
    let windows = 0;
    for (const c of chains) {
      const frames = c.rec.frames();
      assert(frames.some((f) => f.depth > 0 && f.value > 0n) && frames.some((f) => f.reverted), `chain ${c.chainId}: no nested value call or revert`);
      const addrs = [...new Set(frames.flatMap((f) => [f.from, f.to]).filter(Boolean))];
      for (const a of addrs) {
        const want = frames.filter((f) => f.from === a || f.to === a).reverse();
        const what = `chain ${c.chainId} ${cs(a)}`;
        const { pages: ps, records: got } = await pages(what, "transactions", evm.address.transactions.listInternal({ chainId: c.chainId, address: cs(a), pageSize: 4 }, at));
        fullPagesBeforeLast(what, ps, "transactions", 4);
        eq(
          got.map(canon),
          want.map((f) =>
            canon({
              blockNumber: String(f.block),
              blockTimestamp: Number(BigInt(c.rec.blocks[f.block].block.timestamp)),
              blockHash: c.rec.blocks[f.block].block.hash,
              txHash: f.txHash,
              from: { address: cs(f.from) },
              to: { address: cs(f.to ?? "0x0000000000000000000000000000000000000000") },
              internalTxType: f.kind,
              value: String(f.value),
              isReverted: f.reverted,
              gasUsed: String(f.gasUsed),
              gasLimit: String(f.gas),
            }),
          ),
          what,
        );
        total += got.length;
        addresses += 1;
        const blocks = [...new Set(want.map((f) => f.block))];
        if (blocks.length >= 3) {
          const [lo, hi] = [Math.min(...blocks) + 1, Math.max(...blocks)];
          const { records } = await pages(`${what} [${lo}, ${hi})`, "transactions", evm.address.transactions.listInternal({ chainId: c.chainId, address: cs(a), startBlock: lo, endBlock: hi, pageSize: 100 }, at));
          const inside = want.filter((f) => f.block >= lo && f.block < hi).map((f) => [f.txHash, String(f.gas)]);
          eq(records.map((r) => [r.txHash, r.gasLimit]), inside, `${what} [${lo}, ${hi})`);
          const { records: frac } = await pages(`${what} [${lo - 0.25}, ${hi - 0.75})`, "transactions", evm.address.transactions.listInternal({ chainId: c.chainId, address: cs(a), startBlock: lo - 0.25, endBlock: hi - 0.75, pageSize: 100 }, at));
          eq(frac.map((r) => [r.txHash, r.gasLimit]), inside, `${what} [${lo - 0.25}, ${hi - 0.75})`);
          windows += 2;
        }
      }
    }
    return `${addresses} addresses, ${total} internal transactions, ${windows} windows`;
  });

  // ---------- ERC-721 balances ----------
  await check("evm.address.balances.listErc721: each holder's tokens (ownership replayed from the logs), contract filter, native balance", async () => {
    let holders = 0;
    let tokensHeld = 0;
    let filtered = 0;
    for (const c of chains) {
      const owners = new Map(); // `${token} ${id}` -> { token, id, owner, block }
      for (const t of c.rec.transfers().filter((t) => t.standard === 721)) {
        const k = `${t.token} ${t.id}`;
        if (t.to === "0x0000000000000000000000000000000000000000") owners.delete(k);
        else owners.set(k, { token: t.token, id: t.id, owner: t.to, block: t.block });
      }
      const byOwner = [...new Set([...owners.values()].map((o) => o.owner))];
      assert(byOwner.length > 1, `chain ${c.chainId}: fewer than 2 holders`);
      for (const h of byOwner) {
        // By contract, then token id.
        const want = [...owners.values()]
          .filter((o) => o.owner === h)
          .sort((a, b) => (cs(a.token) < cs(b.token) ? -1 : cs(a.token) > cs(b.token) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        const what = `chain ${c.chainId} ${cs(h)}`;
        const { pages: ps, records: got } = await pages(what, "erc721TokenBalances", evm.address.balances.listErc721({ chainId: c.chainId, address: cs(h), pageSize: 2 }, at));
        fullPagesBeforeLast(what, ps, "erc721TokenBalances", 2);
        eq(
          got.map((g) => [g.address, g.tokenId, g.ownerAddress, g.chainId, g.ercType, g.name, g.symbol, g.tokenUri, g.metadata.indexStatus]),
          want.map((o) => [cs(o.token), String(o.id), cs(h), c.chainId, "ERC-721", c.rec.callString(o.token, "0x06fdde03") ?? "", c.rec.callString(o.token, "0x95d89b41") ?? "", c.rec.uriAt(o.token, "0xc87b56dd", o.id, o.block) ?? "", "UNINDEXED"]),
          what,
        );
        const balance = c.rec.balanceAt(h, c.rec.tip) ?? 0n;
        for (const p of ps) {
          const nb = p.nativeTokenBalance;
          eq([nb.balance, nb.chainId, nb.price, nb.balanceValue], [String(balance), c.chainId, undefined, undefined], `${what} nativeTokenBalance`);
        }
        const contract = want[0].token;
        const { records: only } = await pages(`${what} of ${cs(contract)}`, "erc721TokenBalances", evm.address.balances.listErc721({ chainId: c.chainId, address: cs(h), contractAddress: cs(contract), pageSize: 1 }, at));
        eq(only.map((g) => g.tokenId), want.filter((o) => o.token === contract).map((o) => String(o.id)), `${what} contractAddress filter`);
        holders += 1;
        tokensHeld += got.length;
        filtered += 1;
      }
      // An address holding none: an empty list, still its native balance.
      const none = await pages("no NFTs", "erc721TokenBalances", evm.address.balances.listErc721({ chainId: c.chainId, address: cs(c.rec.creations()[0].address) }, at));
      eq(none.records, [], `chain ${c.chainId}: a contract holds no NFT`);
    }
    return `${holders} holders, ${tokensHeld} tokens, ${filtered} filtered listings`;
  });

  // ---------- native balances ----------
  await check("evm.address.balances.getNative: every recorded address at every block, and now, equal eth_getBalance", async () => {
    let n = 0;
    for (const c of chains) {
      const token = c.chainId === "99999" ? ["Snow", "SNOW", 18] : ["Avalanche", "AVAX", 18];
      for (const a of c.rec.balanceAddresses()) {
        for (let b = 0; b <= c.rec.tip; b++) {
          const r = await kept(`native ${a} at ${b}`, () => evm.address.balances.getNative({ chainId: c.chainId, address: cs(a), blockNumber: String(b) }, at));
          const nb = r.nativeTokenBalance;
          eq([nb.balance, nb.chainId, nb.name, nb.symbol, nb.decimals], [String(c.rec.balanceAt(a, b) ?? 0n), c.chainId, ...token], `chain ${c.chainId} ${cs(a)} at ${b}`);
          n += 1;
        }
        const now = await kept(`native ${a}`, () => evm.address.balances.getNative({ chainId: c.blockchainId, address: lc(a) }, at));
        eq(now.nativeTokenBalance.balance, String(c.rec.balanceAt(a, c.rec.tip) ?? 0n), `chain ${c.chainId} ${cs(a)} now (lowercase address, chain by blockchain id)`);
        n += 1;
      }
      await expectError(() => evm.address.balances.getNative({ chainId: c.chainId, address: cs(c.rec.balanceAddresses()[0]), blockNumber: String(c.rec.tip + 1) }, at), "BadRequestError", 400);
    }
    return `${n} balances`;
  });

  // ---------- deployments ----------
  await check("evm.address.contracts.listDeployments: each deployer's contracts (by the EOA and by the factory), typed by the recorded probes", async () => {
    let total = 0;
    const types = {};
    for (const c of chains) {
      const creations = c.rec.creations();
      assert(creations.some((x) => x.factory), `chain ${c.chainId}: no factory creation`);
      const deployers = [...new Set(creations.flatMap((x) => [x.deployer, x.factory]).filter(Boolean))];
      for (const d of deployers) {
        const want = creations.filter((x) => x.deployer === d || x.factory === d).reverse();
        const what = `chain ${c.chainId} deployer ${cs(d)}`;
        const { pages: ps, records: got } = await pages(what, "contracts", evm.address.contracts.listDeployments({ chainId: c.chainId, address: cs(d), pageSize: 2 }, at));
        fullPagesBeforeLast(what, ps, "contracts", 2);
        eq(got.length, want.length, `${what}: contracts`);
        got.forEach((g, i) => {
          const w = want[i];
          const type = c.rec.ercType(w.address);
          types[type] = (types[type] ?? 0) + 1;
          const details = { txHash: w.txHash, deployerAddress: cs(w.deployer), ...(w.factory ? { deployerContractAddress: cs(w.factory) } : {}) };
          eq([g.address, g.ercType, canon(g.deploymentDetails)], [cs(w.address), type, canon(details)], `${what} #${i}`);
          if (type !== "UNKNOWN") eq([g.name, g.symbol], [c.rec.callString(w.address, "0x06fdde03"), c.rec.callString(w.address, "0x95d89b41")], `${what} #${i} name, symbol`);
          if (type === "ERC-20") eq(g.decimals, Number(c.rec.callUint(w.address, "0x313ce567")), `${what} #${i} decimals`);
        });
        total += got.length;
      }
    }
    assert(types["ERC-20"] && types["ERC-721"] && types["ERC-1155"] && types.UNKNOWN, JSON.stringify(types));
    return `${total} contracts (${Object.entries(types).map(([k, v]) => `${k} ${v}`).join(", ")})`;
  });

  await check("evm.contracts.getDeploymentTransaction: each contract's creating transaction, its transfers and internal transactions", async () => {
    let n = 0;
    for (const c of chains) {
      const frames = c.rec.frames();
      const transfers = c.rec.transfers();
      for (const x of c.rec.creations()) {
        const what = `chain ${c.chainId} contract ${cs(x.address)}`;
        const r = await kept(what, () => evm.contracts.getDeploymentTransaction({ chainId: c.chainId, address: cs(x.address) }, at));
        const b = c.rec.blocks[x.block];
        const i = b.block.transactions.findIndex((t) => t.hash === x.txHash);
        const tx = b.block.transactions[i];
        const receipt = b.receipts[i];
        const t = r.nativeTransaction;
        eq(
          [t.chainId, t.blockNumber, t.blockHash, t.blockTimestamp, t.blockIndex, t.txHash, t.txStatus, t.txType, t.gasLimit, t.gasUsed, t.gasPrice, t.nonce, t.from.address, t.to.address, t.value, t.input, t.baseFeePerGas, t.maxFeePerGas, t.maxPriorityFeePerGas],
          [
            c.chainId, String(x.block), b.block.hash, Number(BigInt(b.block.timestamp)), i, x.txHash, receipt.status === "0x1" ? "1" : "0", Number(BigInt(tx.type)),
            String(BigInt(tx.gas)), String(BigInt(receipt.gasUsed)), String(BigInt(receipt.effectiveGasPrice)), String(BigInt(tx.nonce)),
            cs(tx.from), cs(tx.to ?? receipt.contractAddress), String(BigInt(tx.value)), tx.input, String(BigInt(b.block.baseFeePerGas ?? 0)),
            tx.maxFeePerGas === undefined ? undefined : String(BigInt(tx.maxFeePerGas)),
            tx.maxPriorityFeePerGas === undefined ? undefined : String(BigInt(tx.maxPriorityFeePerGas)),
          ],
          `${what}: nativeTransaction`,
        );
        const internals = frames.filter((f) => f.txHash === x.txHash);
        eq(
          (r.internalTransactions ?? []).map((g) => [g.internalTxType, g.from.address, g.to.address, g.value, g.isReverted, g.gasUsed, g.gasLimit]),
          internals.map((f) => [f.kind, cs(f.from), cs(f.to ?? "0x0000000000000000000000000000000000000000"), String(f.value), f.reverted, String(f.gasUsed), String(f.gas)]),
          `${what}: internal transactions`,
        );
        const mine = transfers.filter((t) => t.txHash === x.txHash);
        for (const [key, std] of [["erc20Transfers", 20], ["erc721Transfers", 721], ["erc1155Transfers", 1155]]) {
          eq((r[key] ?? []).map((g) => [g.logIndex, g.from.address, g.to.address]), mine.filter((t) => t.standard === std).map((t) => [t.logIndex, cs(t.from), cs(t.to)]), `${what}: ${key}`);
        }
        eq([r.networkTokenDetails.networkToken.decimals, r.networkTokenDetails.currentPrice, r.networkTokenDetails.historicalPrice], [18, undefined, undefined], `${what}: networkTokenDetails`);
        n += 1;
      }
    }
    return `${n} contracts`;
  });

  // ---------- address history, transactions, latest blocks ----------
  await evmHistoryChecks({ ...h, kept, pages, cs, chains });

  // ---------- bad requests ----------
  await check(`EVM endpoints: bad input is a BadRequestError (400) naming the parameter, in the ${profile} profile's shape; data not held is a NotFoundError (404)`, async () => {
    const c = chains[0];
    const token = cs(c.rec.transfers()[0].token);
    const eoa = cs(c.rec.genesisAccounts()[0]);
    const bad = async (what, param, fn) => {
      const e = await expectError(fn, "BadRequestError", 400);
      const m = e.data$?.message;
      // spec: `message` a string; glacier: an array of strings (spec-vs-real-services.md).
      if (profile === "glacier") assert(Array.isArray(m) && m.length === 1 && typeof m[0] === "string", `${what}: glacier message ${JSON.stringify(m)}`);
      else assert(typeof m === "string", `${what}: spec message ${JSON.stringify(m)}`);
      assert(String(m).includes(param), `${what}: message does not name ${param}: ${JSON.stringify(m)}`);
    };
    await bad("blockId latest", "blockId", () => evm.blocks.get({ chainId: c.chainId, blockId: "latest" }, at));
    await bad("token 0x12", "address", () => evm.contracts.listTransfers({ chainId: c.chainId, address: "0x12" }, at));
    await bad("startBlock = endBlock", "startBlock", () => evm.contracts.listTransfers({ chainId: c.chainId, address: token, startBlock: 5, endBlock: 5 }, at));
    await bad("transfers pageSize 101", "pageSize", () => evm.contracts.listTransfers({ chainId: c.chainId, address: token, pageSize: 101 }, at));
    await bad("internals pageToken", "pageToken", () => evm.address.transactions.listInternal({ chainId: c.chainId, address: eoa, pageToken: "garbage" }, at));
    await bad("ERC-721 pageSize 501", "pageSize", () => evm.address.balances.listErc721({ chainId: c.chainId, address: eoa, pageSize: 501 }, at));
    await bad("ERC-721 contractAddress", "contractAddress", () => evm.address.balances.listErc721({ chainId: c.chainId, address: eoa, contractAddress: "0x1" }, at));
    await bad("native blockNumber -1", "blockNumber", () => evm.address.balances.getNative({ chainId: c.chainId, address: eoa, blockNumber: "-1" }, at));
    await bad("deployments pageSize 0", "pageSize", () => evm.address.contracts.listDeployments({ chainId: c.chainId, address: eoa, pageSize: 0 }, at));
    await expectError(() => evm.contracts.getDeploymentTransaction({ chainId: c.chainId, address: eoa }, at), "NotFoundError", 404);
    await expectError(() => evm.blocks.get({ chainId: "777", blockId: "1" }, at), "NotFoundError", 404);
    return "9 bad requests, 2 not found";
  });

  await check("data.nfts.reindex: a token its collection moved is queued, again within the hour a TooManyRequestsError (429); a token never moved, a NotFoundError (404)", async () => {
    const c = chains[0];
    const nft = c.rec.transfers().find((t) => t.standard === 721);
    const token = { chainId: c.chainId, address: cs(nft.token), tokenId: String(nft.id) };
    const from = seen.length;
    if (profile === "glacier") {
      // Glacier answers 201 with no body, the one success the SDK (and the OpenAPI) knows.
      const result = await sdk.data.nfts.reindex(token, at);
      assert(result === undefined, `reindex result: ${JSON.stringify(result)}`);
    } else {
      // The spec profile answers its POSTs 200, which the SDK, knowing only 201, refuses whole.
      let refused;
      try {
        await sdk.data.nfts.reindex(token, at);
      } catch (e) {
        refused = e;
      }
      assert(refused && refused.statusCode === 200, `spec: wanted the SDK to refuse a 200, got ${refused?.name}: ${refused?.message}`);
    }
    eq(seen.slice(from).map((x) => x.status).join(","), profile === "glacier" ? "201" : "200", "statuses answered");
    await expectError(() => sdk.data.nfts.reindex(token, at), "TooManyRequestsError", 429);
    // An id the collection never moved, and a token of the other chain's collection asked here.
    const moved = new Set(c.rec.transfers().filter((t) => t.token === nft.token).map((t) => String(t.id)));
    let unknown = 1000000n;
    while (moved.has(String(unknown))) unknown += 1n;
    await expectError(() => sdk.data.nfts.reindex({ ...token, tokenId: String(unknown) }, at), "NotFoundError", 404);
    await expectError(() => sdk.data.nfts.reindex({ ...token, tokenId: "abc" }, at), "BadRequestError", 400);
    return `token ${nft.id} of ${token.address}: queued, 429, 404, 400`;
  });

  // ---------- the SDK really validates ----------
  await check("SDK strict validation is on: a malformed answer of each EVM operation is a ResponseValidationError", async () => {
    const c = chains[0];
    const creation = c.rec.creations()[0];
    const token = c.rec.transfers()[0].token;
    const holder = c.rec.transfers().find((t) => t.standard === 721).to;
    const frame = c.rec.frames()[0];
    const cases = [
      ["getBlock: baseFee null", (b) => ({ ...b, baseFee: null }), () => evm.blocks.get({ chainId: c.chainId, blockId: "1" }, at)],
      ["getBlock: txCount a string", (b) => ({ ...b, txCount: String(b.txCount) }), () => evm.blocks.get({ chainId: c.chainId, blockId: "1" }, at)],
      ["getChainInfo: vmName unknown", (b) => ({ ...b, vmName: "WASM" }), () => evm.chains.get({ chainId: c.chainId }, at)],
      ["listTransfers: ercType ERC-777", (b) => ({ ...b, transfers: b.transfers.map((t) => ({ ...t, erc20Token: t.erc20Token && { ...t.erc20Token, ercType: "ERC-777" } })) }), () => evm.contracts.listTransfers({ chainId: c.chainId, address: cs(token) }, at)],
      ["listInternalTransactions: internalTxType JUMP", (b) => ({ ...b, transactions: b.transactions.map((t) => ({ ...t, internalTxType: "JUMP" })) }), () => evm.address.transactions.listInternal({ chainId: c.chainId, address: cs(frame.from) }, at)],
      ["listErc721Balances: nativeTokenBalance.price null", (b) => ({ ...b, nativeTokenBalance: { ...b.nativeTokenBalance, price: null } }), () => evm.address.balances.listErc721({ chainId: c.chainId, address: cs(holder) }, at)],
      ["getNativeBalance: balance missing", (b) => ({ nativeTokenBalance: { ...b.nativeTokenBalance, balance: undefined } }), () => evm.address.balances.getNative({ chainId: c.chainId, address: cs(holder) }, at)],
      ["listContractDeployments: ercType ERC-777", (b) => ({ ...b, contracts: b.contracts.map((x) => ({ ...x, ercType: "ERC-777" })) }), () => evm.address.contracts.listDeployments({ chainId: c.chainId, address: cs(creation.deployer) }, at)],
      ["getDeploymentTransaction: nativeTransaction.to null", (b) => ({ ...b, nativeTransaction: { ...b.nativeTransaction, to: null } }), () => evm.contracts.getDeploymentTransaction({ chainId: c.chainId, address: cs(creation.address) }, at)],
    ];
    for (const [what, mutate, call] of cases) {
      // Untouched, the same call passes; rewritten, the SDK refuses it.
      await call();
      tamperNext(mutate);
      try {
        const r = await call();
        if (r && typeof r[Symbol.asyncIterator] === "function") {
          for await (const _ of r) break;
        }
      } catch (e) {
        assert(e?.name === "ResponseValidationError", `${what}: ${e?.name}: ${e?.message}`);
        continue;
      }
      throw new Error(`${what}: the SDK accepted the malformed answer`);
    }
    return `${cases.length} malformed answers refused`;
  });
}
