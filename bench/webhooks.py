"""What bench/webhooks.sh computes and drives (standard library only; the script runs it).

  webhooks.py sets WORK SETS ADDRS                  the address sets and their creation bodies
  webhooks.py create API KEYS_FILE WORK FROM TO URL  webhooks FROM..TO-1 through the API
  webhooks.py drive ANVIL N INTERVAL OUT [TO]       N txs to the probe (or TO), one per INTERVAL s
  webhooks.py wait RECV EXPECTED SECS               until the receiver has EXPECTED deliveries
  webhooks.py latency RECV FROM LOG MINED NAME      p50/p99 of the deliveries after FROM

Sets: set k (k < SETS) is the probe address and ADDRS - 1 addresses drawn from SHA-256 of
"snowline-bench-webhooks/k/j" (20 bytes each), so the sets share the probe and nothing else;
webhook i watches set i mod SETS. Every tx the driver sends goes from anvil's first account to
the probe, so it touches every webhook (a fan-out to all of them).
"""

import calendar
import hashlib
import json
import os
import re
import statistics
import sys
import threading
import time
import urllib.request

PROBE = "0x" + hashlib.sha256(b"snowline-bench-webhooks/probe").hexdigest()[:40]
# anvil's first dev account (its default mnemonic), unlocked and funded.
SENDER = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
CHAIN = "43112"


def rpc(url, method, params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    req = urllib.request.Request(url, body, {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        answer = json.load(r)
    if "error" in answer:
        sys.exit(f"{method}: {answer['error']}")
    return answer["result"]


def set_addresses(k, n):
    out = [PROBE]
    for j in range(n - 1):
        out.append("0x" + hashlib.sha256(f"snowline-bench-webhooks/{k}/{j}".encode()).hexdigest()[:40])
    return out


def sets(work, count, addrs):
    os.makedirs(f"{work}/sets", exist_ok=True)
    for k in range(count):
        with open(f"{work}/sets/{k}.json", "w") as f:
            json.dump(set_addresses(k, addrs), f)
    print(f"{count} sets of {addrs} addresses (the probe {PROBE} in each)")


def create(api, keys_file, work, lo, hi, url):
    keys = [line.strip() for line in open(keys_file) if line.strip()]
    nsets = len(os.listdir(f"{work}/sets"))
    lists = [json.load(open(f"{work}/sets/{k}.json")) for k in range(min(nsets, hi))]
    errors, lock = [], threading.Lock()

    def one(i):
        body = json.dumps({
            "eventType": "address_activity", "url": url, "chainId": CHAIN,
            "name": f"bench {i}", "metadata": {"addresses": lists[i % nsets]},
        }).encode()
        # 1,000 webhooks per organisation: webhook i belongs to organisation i // 1000.
        req = urllib.request.Request(f"{api}/v1/webhooks", body, {
            "content-type": "application/json", "x-data-api-key": keys[i // 1000]})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                r.read()
                if r.status != 201:
                    raise RuntimeError(f"status {r.status}")
        except Exception as e:  # noqa: BLE001 -- every failure is reported
            with lock:
                errors.append(f"webhook {i}: {e}")

    todo = list(range(lo, hi))
    start = time.time()

    def worker(part):
        for i in part:
            one(i)

    threads = [threading.Thread(target=worker, args=(todo[t::2],)) for t in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    secs = time.time() - start
    if errors:
        sys.exit("; ".join(errors[:5]))
    print(f"created webhooks {lo}..{hi - 1} through the API (2 connections): {hi - lo} in "
          f"{secs:.1f} s, {(hi - lo) / secs:,.1f}/s")


def drive(anvil, n, interval, out, to=PROBE):
    rows = []
    for _ in range(n):
        t0 = time.time()
        rpc(anvil, "eth_sendTransaction", [{"from": SENDER, "to": to, "value": "0x1"}])
        rpc(anvil, "evm_mine", [])  # anvil runs with --no-mining: the block exists on return
        mined = time.time_ns()
        block = int(rpc(anvil, "eth_blockNumber", []), 16)
        rows.append((block, mined))
        time.sleep(max(0.0, interval - (time.time() - t0)))
    with open(out, "a") as f:
        f.writelines(f"{b}\t{t}\n" for b, t in rows)
    print(f"sent {n} txs to {to}, each mined in a block of its own, blocks {rows[0][0]}..{rows[-1][0]}")


def count(recv):
    with urllib.request.urlopen(f"{recv}/count", timeout=10) as r:
        return int(r.read())


def wait(recv, expected, secs):
    deadline = time.time() + secs
    while time.time() < deadline:
        if count(recv) >= expected:
            return
        time.sleep(0.2)
    sys.exit(f"the receiver has {count(recv)} deliveries, {expected} expected within {secs} s")


ANSI = re.compile(r"\x1b\[[0-9;]*m")
DERIVED = re.compile(r"^(\S+)Z\s+DEBUG .*EVM blocks derived.*next=(\d+)")


def accepted(log):
    """Each batch's write, as the follower logs it: (Unix ns, first block not in it)."""
    out = []
    for line in open(log, errors="replace"):
        m = DERIVED.match(ANSI.sub("", line))
        if m:
            stamp, frac = m.group(1).split(".") if "." in m.group(1) else (m.group(1), "0")
            secs = calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%S"))
            out.append((int(secs) * 10**9 + int(frac.ljust(9, "0")[:9]), int(m.group(2))))
    return out


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def latency(recv, start, log, mined_file, name):
    with urllib.request.urlopen(f"{recv}/events?from={start}", timeout=60) as r:
        rows = [line.split("\t") for line in r.read().decode().splitlines()]
    batches = accepted(log)
    mined = dict(tuple(map(int, line.split())) for line in open(mined_file))
    from_accept, from_mined, per_block = [], [], {}
    missing = 0
    for recv_ns, block, _webhook, _message in rows:
        recv_ns, block = int(recv_ns), int(block)
        at = next((t for t, nxt in batches if nxt > block), None)
        if at is None:
            missing += 1
            continue
        from_accept.append((recv_ns - at) / 1e6)
        if block in mined:
            from_mined.append((recv_ns - mined[block]) / 1e6)
        first, last = per_block.get(block, (recv_ns, recv_ns))
        per_block[block] = (min(first, recv_ns), max(last, recv_ns))
    if missing:
        sys.exit(f"{missing} deliveries of blocks whose write the log does not show")
    drain = [(last - first) / 1e6 for first, last in per_block.values()]
    print(f"{name}: {len(rows)} deliveries of {len(per_block)} blocks; from the block's write "
          f"by ingest: p50 {quantile(from_accept, 0.5):,.1f} ms, p99 {quantile(from_accept, 0.99):,.1f} ms, "
          f"max {max(from_accept):,.1f} ms; from anvil's mining: p50 {quantile(from_mined, 0.5):,.1f} ms, "
          f"p99 {quantile(from_mined, 0.99):,.1f} ms; first to last delivery of a block: "
          f"median {statistics.median(drain):,.1f} ms")


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "sets":
        sets(args[0], int(args[1]), int(args[2]))
    elif cmd == "create":
        create(args[0], args[1], args[2], int(args[3]), int(args[4]), args[5])
    elif cmd == "drive":
        drive(args[0], int(args[1]), float(args[2]), args[3], *args[4:5])
    elif cmd == "wait":
        wait(args[0], int(args[1]), float(args[2]))
    elif cmd == "count":
        print(count(args[0]))
    elif cmd == "latency":
        latency(args[0], int(args[1]), args[2], args[3], args[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
