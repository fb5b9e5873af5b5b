// Prints (JSON) the devnet's P-Chain values schemathesis' second pass feeds the fuzzer
// (prepare_local.py turns them into dictionaries), read from the fixtures by pchain.mjs' replay:
// the proposers' and stakers' node ids, the L1's node ids, validation ids and subnet, every chain
// id, the reward owners' P addresses, and times inside the P-Chain's history.
//
//   node st_values.mjs GENESIS_JSON > values.json

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pAddress, replay } from "./pchain.mjs";

const genesisPath = process.argv[2];
const genesis = JSON.parse(readFileSync(genesisPath, "utf8"));
const containers = readFileSync(join(dirname(genesisPath), "containers.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l))
  .filter((c) => c.path === "P/block");
const r = replay(genesis.pGenesis, containers, { avaxAssetId: genesis.avaxAssetID });
const hrp = genesis.networkName ?? "local";
const uniq = (xs) => [...new Set(xs)];
const settled = [...r.stakers.values()].filter((s) => s.settled);
const running = [...r.stakers.values()].filter((s) => !s.settled);
/** a0, b0, a1, b1, …: the dictionary's first entries (drawn most) hold both kinds. */
const interleave = (a, b) => uniq([...Array(Math.max(a.length, b.length)).keys()].flatMap((i) => [a[i], b[i]]).filter(Boolean));
const owners = (list) => list.flatMap((s) => s.tx.rewardsOwner.addrs.map((a) => pAddress(hrp, a)));
console.log(
  JSON.stringify({
    proposers: uniq(r.blocks.filter((b) => b.proposer).map((b) => b.proposer)),
    // Nodes and reward owners with rewards paid and with stakes running, alternately.
    stakerNodes: interleave(settled.map((s) => s.nodeId), running.map((s) => s.nodeId)),
    rewardOwners: interleave(owners(settled), owners(running)),
    l1Nodes: uniq([...r.l1.values()].map((v) => v.nodeId)),
    validationIds: [...r.l1.keys()],
    subnets: [...r.subnets.keys()],
    chains: [...r.chains.keys()],
    blockTimes: r.blocks.map((b) => Number(b.inner.time)),
  }),
);
