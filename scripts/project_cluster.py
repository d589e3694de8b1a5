#!/usr/bin/env python3
"""How long a build plan would take on a cluster: its total work, its
critical path, and its time on N machines of C cores and M GiB, each table
one job on one machine, started once the tables it reads are built.

    ajedrecista solve --all 6 --plan --json --tables EMPTY_DIR > plan.json
    scripts/project_cluster.py plan.json

A table's work is its numbers (both sides to move) times a rate measured
on this project's builds, in CPU seconds a number (docs/tables.md, "On a
cluster"): the builds run on every core of a machine, so a table's time is
its work over the machine's cores. A table whose estimated peak memory is
more than a machine has cannot run there, and is reported.
"""

import heapq
import json
import sys

# CPU seconds a number, both sides to move counted, by (men, with pawns):
# measured builds (docs/tables.md, docs/benchmarks.md).
RATES = {
    # KQRvKR: 17.3 s of CPU for 2 x 113 659 392 numbers (2026-12-06).
    (5, False): 17.3 / (2 * 113_659_392),
    # KRPvKR: 48.4 s for 2 x 402 653 184 (2026-12-05).
    (5, True): 48.4 / (2 * 402_653_184),
    # KBBBvKN and KBBBvKR: 1 422 and 1 413 s for 2 x 7 751 073 792 each
    # (2026-12-05, numbered over 64 squares then).
    (6, False): 1_422 / (2 * 7_751_073_792),
    # KRRvKRP: 9 475 s for 2 x 25 769 803 776 (2026-12-03), the slower of
    # the two six-man tables with pawns built (KBBBvKP: 4 638 s).
    (6, True): 9_475 / (2 * 25_769_803_776),
}

MACHINES = [(2, 16), (16, 64), (64, 256)]
COUNTS = [10, 100, 1000]


def men(material):
    return sum(1 for c in material if c in "KQRBNP")


def rate(material):
    key = (max(5, men(material)), "P" in material)
    return RATES[key]


def main(path):
    plan = json.load(open(path) if path != "-" else sys.stdin)
    nodes = [n for n in plan["nodes"] if not n["cached"]]
    index = {n["material"]: i for i, n in enumerate(nodes)}
    work = [2 * n["numbers_per_side"] * rate(n["material"]) for n in nodes]
    deps = [[index[r["material"]] for r in n["reads"] if r["material"] in index] for n in nodes]
    deps = [sorted(set(d)) for d in deps]
    total = sum(work)
    peak = max(n["peak_bytes"] for n in nodes)
    disk = sum(n["file_bytes"] for n in nodes)
    print(f"{len(nodes)} tables to build ({plan['material'].count(' ') + 1} asked for)")
    print(f"total work {total / 3600:,.0f} CPU hours; largest build's peak memory "
          f"{peak / 2**30:.1f} GiB; files at most {disk / 2**40:.2f} TiB")
    print()
    print("| machines | cores | GiB | critical path | time | tables too large |")
    print("|---:|---:|---:|---:|---:|---:|")
    for cores, gib in MACHINES:
        time = [w / cores for w in work]
        # The longest chain of tables each waiting for the one before.
        finish = [0.0] * len(nodes)
        for i in range(len(nodes)):  # plan order: every table after its reads
            finish[i] = time[i] + max((finish[d] for d in deps[i]), default=0.0)
        critical = max(finish)
        too_large = [n["material"] for n in nodes if n["peak_bytes"] > gib * 2**30]
        for count in COUNTS:
            print(f"| {count} | {cores} | {gib} | {hours(critical)} | "
                  f"{hours(schedule(time, deps, count, too_large, nodes))} | {len(too_large)} |")


def schedule(time, deps, machines, too_large, nodes):
    """The end of a list schedule: each table, when its reads are built,
    goes to the first machine free, in plan order; the tables too large are
    left out (with their dependants)."""
    skipped = set(i for i, n in enumerate(nodes) if n["material"] in too_large)
    done = [None] * len(time)
    free = [0.0] * machines
    heapq.heapify(free)
    for i in range(len(time)):
        if i in skipped or any(d in skipped for d in deps[i]):
            skipped.add(i)
            continue
        ready = max((done[d] for d in deps[i]), default=0.0)
        start = max(ready, heapq.heappop(free))
        done[i] = start + time[i]
        heapq.heappush(free, done[i])
    return max((d for d in done if d is not None), default=0.0)


def hours(seconds):
    if seconds >= 86400 * 2:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / 3600:.1f} h"


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "-")
