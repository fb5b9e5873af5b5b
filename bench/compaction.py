#!/usr/bin/env python3
"""Where a RocksDB store's background writes went, per table (column family), from the event
lines of its LOG files: bytes flushed, bytes written by compactions (and read by them), and how
many compactions were trivial moves (a file moved down a level without being rewritten).

Compaction output over flushed bytes is the table's write amplification beyond the flush: the
figure that says which tables' key layout makes compaction rewrite them level after level.

    bench/compaction.py DATA_DIR/index [TOP=15]
"""
import glob
import json
import os
import sys


def events(index_dir):
    # LOG.old.* are rotated logs: read them first, oldest name first.
    logs = sorted(glob.glob(os.path.join(index_dir, "LOG.old.*"))) + [os.path.join(index_dir, "LOG")]
    for path in logs:
        if not os.path.exists(path):
            continue
        with open(path, errors="replace") as f:
            for line in f:
                at = line.find("EVENT_LOG_v1 ")
                if at < 0:
                    continue
                try:
                    yield json.loads(line[at + len("EVENT_LOG_v1 "):])
                except ValueError:
                    continue


def summary(index_dir):
    """Per table: bytes flushed, bytes a compaction read and wrote, compaction CPU seconds,
    compactions and trivial moves. A compaction's start names its table; its end and a flush's
    events name only the job, and a new file names both."""
    per = {}
    row = lambda cf: per.setdefault(
        cf, dict(flushed=0, written=0, read=0, cpu=0.0, compactions=0, moves=0))
    flush_jobs, compaction_cf = set(), {}
    for e in events(index_dir):
        kind, job = e.get("event"), e.get("job")
        if kind == "flush_started":
            flush_jobs.add(job)
        elif kind == "compaction_started":
            cf = e.get("cf_name", "?")
            compaction_cf[job] = cf
            row(cf)["compactions"] += 1
            row(cf)["read"] += e.get("input_data_size", 0)
        elif kind == "compaction_finished":
            r = row(compaction_cf.get(job, "?"))
            r["written"] += e.get("total_output_size", 0)
            r["cpu"] += e.get("compaction_time_cpu_micros", 0) / 1e6
        elif kind == "trivial_move":
            row(compaction_cf.get(job, "?"))["moves"] += 1
        elif kind == "table_file_creation" and job in flush_jobs:
            row(e.get("cf_name", "?"))["flushed"] += e.get("file_size", 0)
    return per


def main():
    index_dir = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    per = summary(index_dir)
    total_w = sum(r["written"] for r in per.values()) or 1
    total_f = sum(r["flushed"] for r in per.values())
    total_cpu = sum(r["cpu"] for r in per.values())
    mib = lambda b: f"{b / 2**20:,.0f}"
    print("| table | flushed MiB | compactions wrote MiB | share | written / flushed | "
          "compaction CPU | compactions | trivial moves |")
    print("|---|---|---|---|---|---|---|---|")
    rows = sorted(per.items(), key=lambda kv: -kv[1]["written"])
    for cf, r in rows[:top]:
        amp = f"{r['written'] / r['flushed']:.1f}" if r["flushed"] else "-"
        print(f"| {cf} | {mib(r['flushed'])} | {mib(r['written'])} | "
              f"{100 * r['written'] / total_w:.0f}% | {amp} | {r['cpu']:.1f} s | "
              f"{r['compactions']} | {r['moves']} |")
    print(f"all tables: flushed {mib(total_f)} MiB; compactions wrote {mib(total_w)} MiB "
          f"({total_w / max(total_f, 1):.1f}x the flushed bytes) in {total_cpu:.1f} s of CPU")


if __name__ == "__main__":
    main()
