#!/usr/bin/env python3
"""How long a build plan would take on a cluster: its total work, its
critical path, and its time on N machines of C cores and M GiB, each table
one job on one machine, started once the tables it reads are built.

    ajedrecista solve --all 6 --plan --json --tables EMPTY_DIR > plan.json
    scripts/project_cluster.py plan.json

A table's work is its numbers (both sides to move) times a rate measured
on this project's builds, in CPU seconds a number (docs/guide/src/reference/build-plan.md, "On a
cluster"): the builds run on every core of a machine, so a table's time is
its work over the machine's cores. A table whose estimated peak memory is
more than a machine has cannot run there, and is reported.

A six-man table with pawns runs as `cluster submit` runs it: a job a group
of its slices (its work shared out by slices), each after the tables it
reads and the groups of the level before, then a job that writes its file
from the slices kept, whose time (reading the parts back, compressing the
file) is not counted. `--whole` projects each table as one job instead.
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


# Numbers a side from which a table with pawns is built in steps (the
# default of `cluster submit --slices-from`).
SPLIT_FROM = 2**32


def steps(nodes, whole):
    """The jobs of the plan: (name, work, peak bytes, indices of the jobs
    it waits for), each after those it waits for."""
    jobs = []
    table_job = {}
    for n in nodes:
        work = 2 * n["numbers_per_side"] * rate(n["material"])
        reads = sorted(set(table_job[r["material"]] for r in n["reads"]
                           if r["material"] in table_job))
        slices = n.get("slices")
        if whole or not slices or n["numbers_per_side"] < SPLIT_FROM:
            table_job[n["material"]] = len(jobs)
            jobs.append((n["material"], work, n["peak_bytes"], reads))
            continue
        before = []
        for level, groups in enumerate(slices["steps"]):
            this_level = []
            for group, members in enumerate(groups):
                this_level.append(len(jobs))
                jobs.append((f"{n['material']}-L{level}G{group}",
                             work * len(members) / slices["count"], n["peak_bytes"],
                             reads + before))
            before = this_level
        table_job[n["material"]] = len(jobs)
        jobs.append((n["material"], 0.0, n["peak_bytes"], before))
    return jobs


def main(path, whole):
    plan = json.load(open(path) if path != "-" else sys.stdin)
    nodes = [n for n in plan["nodes"] if not n["cached"]]
    jobs = steps(nodes, whole)
    work = [job[1] for job in jobs]
    deps = [job[3] for job in jobs]
    total = sum(work)
    peak = max(n["peak_bytes"] for n in nodes)
    disk = sum(n["file_bytes"] for n in nodes)
    print(f"{len(nodes)} tables to build ({plan['material'].count(' ') + 1} asked for), "
          f"{len(jobs)} jobs")
    print(f"total work {total / 3600:,.0f} CPU hours; largest build's peak memory "
          f"{peak / 2**30:.1f} GiB; files at most {disk / 2**40:.2f} TiB")
    print()
    print("| machines | cores | GiB | critical path | time | tables too large |")
    print("|---:|---:|---:|---:|---:|---:|")
    for cores, gib in MACHINES:
        time = [w / cores for w in work]
        # The longest chain of tables each waiting for the one before.
        finish = [0.0] * len(jobs)
        for i in range(len(jobs)):  # plan order: every job after its reads
            finish[i] = time[i] + max((finish[d] for d in deps[i]), default=0.0)
        critical = max(finish)
        too_large = {i for i, job in enumerate(jobs) if job[2] > gib * 2**30}
        tables_too_large = len({jobs[i][0].split("-")[0] for i in too_large})
        for count in COUNTS:
            print(f"| {count} | {cores} | {gib} | {hours(critical)} | "
                  f"{hours(schedule(time, deps, count, too_large))} | {tables_too_large} |")


def schedule(time, deps, machines, too_large):
    """The end of a list schedule: whenever a machine is free, it takes
    the first job in plan order whose reads are built, as a batch
    scheduler does; the jobs too large are left out (with their
    dependants)."""
    skipped = set(too_large)
    for i in range(len(time)):
        if any(d in skipped for d in deps[i]):
            skipped.add(i)
    left = [len(set(d)) for d in deps]
    dependants = [[] for _ in time]
    for i, d in enumerate(deps):
        for j in set(d):
            dependants[j].append(i)
    ready = [i for i in range(len(time)) if left[i] == 0 and i not in skipped]
    heapq.heapify(ready)
    running = []  # (end, job)
    now = 0.0
    free = machines
    while ready or running:
        while free and ready:
            i = heapq.heappop(ready)
            heapq.heappush(running, (now + time[i], i))
            free -= 1
        now, i = heapq.heappop(running)
        free += 1
        for j in dependants[i]:
            left[j] -= 1
            if left[j] == 0 and j not in skipped:
                heapq.heappush(ready, j)
    return now


def hours(seconds):
    if seconds >= 86400 * 2:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / 3600:.1f} h"


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--whole"]
    main(args[0] if args else "-", "--whole" in sys.argv[1:])
