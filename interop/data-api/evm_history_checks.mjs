// The EVM history checks of evm_checks.mjs: an address's transactions (every party: sender,
// recipient, created contract, token transfer, internal transaction) and its native and
// per-standard transfer listings, transactions by hash and by block, the latest transactions and
// blocks of each chain and of all, and the chains of an address, called through the official SDK
// with its strict response validation (each answer kept whole) and compared with evm.mjs' reading
// of the recorded JSON-RPC answers.

const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * Runs the checks. `h`: evm_checks.mjs' helpers (check, eq, assert, at, sdk, kept, pages, cs)
 * and its `chains` ({ chainId, rec }).
 */
export async function evmHistoryChecks(h) {
  const { sdk, at, check, eq, assert, kept, pages, cs, chains } = h;
  const evm = sdk.data.evm;

  /** Each recorded tx with who it touched, in chain order. */
  const model = (rec) => {
    const transfers = rec.transfers();
    const frames = rec.frames();
    const txs = [];
    for (const b of rec.blocks) {
      b.block.transactions.forEach((tx, i) => {
        const r = b.receipts[i];
        const created = r.status !== "0x0" && r.contractAddress ? r.contractAddress.toLowerCase() : undefined;
        const native = new Set([tx.from, tx.to, created].filter(Boolean).map((a) => a.toLowerCase()));
        const all = new Set(native);
        for (const t of transfers.filter((t) => t.txHash === tx.hash)) [t.from, t.to].forEach((a) => all.add(a.toLowerCase()));
        for (const f of frames.filter((f) => f.txHash === tx.hash)) [f.from, f.to].filter(Boolean).forEach((a) => all.add(a.toLowerCase()));
        txs.push({ block: b.number, index: i, hash: tx.hash, timestamp: Number(BigInt(b.block.timestamp)), failed: r.status === "0x0", native, all });
      });
    }
    return { txs, transfers };
  };
  const busiest = (m) => {
    const count = new Map();
    for (const t of m.txs) for (const a of t.all) count.set(a, (count.get(a) ?? 0) + 1);
    return [...count.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([a]) => a);
  };

  await check("evm.address.transactions.list / listNative / listErc20 / listErc721 / listErc1155: each address's history equals the recording", async () => {
    let listed = 0;
    for (const c of chains) {
      const m = model(c.rec);
      for (const [rank, a] of busiest(m).entries()) {
        const want = m.txs.filter((t) => t.all.has(a)).reverse();
        const size = rank < 3 ? 2 : 100;
        const what = `chain ${c.chainId} ${cs(a)}`;
        const { records } = await pages(what, "transactions", evm.address.transactions.list({ chainId: c.chainId, address: cs(a), pageSize: size }, at));
        eq(records.map((t) => t.nativeTransaction.txHash), want.map((t) => t.hash), `${what} newest first`);
        for (const r of records) {
          for (const x of [...(r.erc20Transfers ?? []), ...(r.erc721Transfers ?? []), ...(r.erc1155Transfers ?? []), ...(r.internalTransactions ?? [])]) {
            assert([x.from.address.toLowerCase(), x.to.address.toLowerCase()].includes(a), `${what}: a part the address was not party to`);
          }
        }
        listed += records.length;
        if (rank < 3) {
          const { records: asc } = await pages(`${what} asc`, "transactions", evm.address.transactions.list({ chainId: c.chainId, address: cs(a), pageSize: 3, sortOrder: "asc" }, at));
          eq(asc.map((t) => t.nativeTransaction.txHash), [...want].reverse().map((t) => t.hash), `${what} oldest first`);
        }
        const { records: native } = await pages(`${what} native`, "transactions", evm.address.transactions.listNative({ chainId: c.chainId, address: cs(a), pageSize: 100 }, at));
        eq(native.map((t) => t.txHash), want.filter((t) => t.native.has(a)).map((t) => t.hash), `${what} native`);
        for (const [standard, op] of [[20, "listErc20"], [721, "listErc721"], [1155, "listErc1155"]]) {
          const wantT = m.transfers.filter((t) => t.standard === standard && (t.from.toLowerCase() === a || t.to.toLowerCase() === a)).reverse();
          const { records: got } = await pages(`${what} ${op}`, "transactions", evm.address.transactions[op]({ chainId: c.chainId, address: cs(a), pageSize: 100 }, at));
          eq(got.map((t) => [t.txHash, t.logIndex]), wantT.map((t) => [t.txHash, t.logIndex]), `${what} ${op}`);
        }
      }
    }
    return `${listed} history records`;
  });

  await check("evm.transactions.get and evm.blocks.listTransactions: every tx by hash, every block's txs", async () => {
    let n = 0;
    for (const c of chains) {
      const m = model(c.rec);
      for (const t of m.txs) {
        const r = await kept(`tx ${t.hash}`, () => evm.transactions.get({ chainId: c.chainId, txHash: t.hash }, at));
        eq([r.nativeTransaction.txHash, r.nativeTransaction.blockNumber, r.nativeTransaction.blockIndex], [t.hash, String(t.block), t.index], `tx ${t.hash}`);
        const count = (s) => m.transfers.filter((x) => x.txHash === t.hash && x.standard === s).length;
        eq([r.erc20Transfers.length, r.erc721Transfers.length, r.erc1155Transfers.length], [count(20), count(721), count(1155)], `tx ${t.hash} transfers`);
        n += 1;
      }
      for (const b of c.rec.blocks) {
        const r = await kept(`block ${b.number} txs`, () => evm.blocks.listTransactions({ chainId: c.chainId, blockId: String(b.number) }, at));
        eq(r.transactions.map((t) => t.txHash), b.block.transactions.map((t) => t.hash), `block ${b.number} txs`);
      }
    }
    return `${n} txs`;
  });

  await check("evm.transactions.listLatest / evm.blocks.listLatest and across chains: newest first", async () => {
    const all = [];
    const blocks = [];
    for (const c of chains) {
      const m = model(c.rec);
      all.push(...m.txs.map((t) => ({ ...t, chain: Number(c.chainId) })));
      blocks.push(...c.rec.blocks.map((b) => ({ chain: Number(c.chainId), number: b.number, timestamp: Number(BigInt(b.block.timestamp)) })));
      const newest = [...m.txs].reverse();
      const { records } = await pages(`latest ${c.chainId}`, "transactions", evm.transactions.listLatest({ chainId: c.chainId, pageSize: 25 }, at));
      eq(records.map((t) => t.txHash), newest.map((t) => t.hash), `latest txs of ${c.chainId}`);
      const { records: failed } = await pages(`latest failed ${c.chainId}`, "transactions", evm.transactions.listLatest({ chainId: c.chainId, pageSize: 25, status: "failed" }, at));
      eq(failed.map((t) => t.txHash), newest.filter((t) => t.failed).map((t) => t.hash), `latest failed txs of ${c.chainId}`);
      const { records: bs } = await pages(`latest blocks ${c.chainId}`, "blocks", evm.blocks.listLatest({ chainId: c.chainId, pageSize: 25 }, at));
      eq(bs.map((b) => b.blockNumber), [...c.rec.blocks].reverse().map((b) => String(b.number)), `latest blocks of ${c.chainId}`);
    }
    const desc = (x, y) => y.timestamp - x.timestamp || y.chain - x.chain || y.block - x.block || y.index - x.index;
    all.sort(desc);
    const { records: txs } = await pages("latest txs of all chains", "transactions", evm.transactions.listLatestAllChains({ pageSize: 25 }, at));
    eq(txs.map((t) => t.txHash), all.map((t) => t.hash), "latest txs of all chains");
    blocks.sort((x, y) => y.timestamp - x.timestamp || y.chain - x.chain || y.number - x.number);
    const { records: bs } = await pages("latest blocks of all chains", "blocks", evm.blocks.listLatestAllChains({ pageSize: 25 }, at));
    eq(bs.map((b) => [b.chainId, b.blockNumber]), blocks.map((b) => [String(b.chain), String(b.number)]), "latest blocks of all chains");
    return `${txs.length} txs, ${bs.length} blocks`;
  });

  await check("evm.address.chains.list: the indexed chains where each address has activity", async () => {
    const active = new Map();
    for (const c of chains) {
      for (const t of model(c.rec).txs) for (const a of t.all) active.set(a, new Set([...(active.get(a) ?? []), c.chainId]));
    }
    active.set("0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a", new Set());
    for (const [a, want] of active) {
      if (a === ZERO) continue;
      const r = await kept(`chains of ${a}`, () => evm.address.chains.list({ address: cs(a) }, at));
      eq(r.indexedChains.map((x) => x.chainId).sort(), [...want].sort(), `chains of ${cs(a)}`);
    }
    return `${active.size} addresses`;
  });
}
