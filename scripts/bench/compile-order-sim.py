#!/usr/bin/env python3
"""compile-order-sim.py STORE... -- how well orders of compiling pack a cold sweep's compiles.

Replays each store's recorded compile times (variant.compile_s of its first sweep, one entry per
variant, with the parameters of its first configuration) on THREADS threads (default 16), each
thread taking the next variant the moment it is free, and prints, per store and order, the compile
bound (total compile time / threads) over the simulated end of the last compile: 1.0 is perfect
packing.  Orders:
  lpt        the longest first, the times known in advance (what no scheduler can do)
  magnitude  larger numeric parameter values first (order.c's prior; what a sweep whose whole
             space fits the compile window at its start does today: a variant's predicted cost is
             fixed when it enters the window)
  recost     the same until THREADS compiles have finished, then order.c's learned model
             (per-parameter-value effects on log time), refitted at THREADS, 2*THREADS, 4*THREADS...
Spaces of fewer than 20 variants are skipped; of more than 600, every fifth variant is kept.
A simulation from measured times: no contention, no startup, no measurement.
"""
import json
import math
import os
import sqlite3
import statistics
import sys

THREADS = int(os.environ.get("THREADS", "16"))


def load(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT c.params, v.hash, v.compile_s FROM config c JOIN result r USING (sweep_id, idx) "
        "JOIN variant v ON v.hash = r.variant_hash WHERE v.compile_s > 0 AND "
        "c.sweep_id = (SELECT min(id) FROM sweep) ORDER BY c.idx").fetchall()
    db.close()
    jobs, seen = [], set()
    for params, h, secs in rows:
        if h in seen:
            continue
        seen.add(h)
        vals = [v if isinstance(v, (int, float)) and not isinstance(v, bool) else
                (1 if v is True else 0 if v is False else sum(map(ord, str(v))) % 97)
                for v in json.loads(params).values()]
        jobs.append((vals, secs))
    return jobs


def magnitude(vals):
    return sum(math.log1p(abs(x)) for x in vals)


def fit(jobs, done):
    logs = {j: math.log(jobs[j][1]) for j in done}
    mean = sum(logs.values()) / len(logs)
    eff = [dict() for _ in jobs[0][0]]
    for j, lg in logs.items():
        for p, v in enumerate(jobs[j][0]):
            s, n = eff[p].get(v, (0.0, 0))
            eff[p][v] = (s + lg - mean, n + 1)
    return eff


def simulate(jobs, order):
    free = [0.0] * THREADS
    left = list(range(len(jobs)))
    ends = []           # (job, end time)
    model, fitted_at = None, 0
    while left:
        t = min(range(THREADS), key=lambda k: free[k])
        now = free[t]
        done = [j for j, e in ends if e <= now]
        if order == "lpt":
            pick = max(left, key=lambda j: jobs[j][1])
        else:
            if order == "recost":
                level, m = 0, THREADS
                while len(done) >= m:
                    level, m = m, 2 * m
                if level and level != fitted_at:
                    model, fitted_at = fit(jobs, done), level

            def cost(j):
                learned = 0.0
                if model:
                    for p, v in enumerate(jobs[j][0]):
                        e = model[p].get(v)
                        if e:
                            learned += e[0] / e[1]
                return learned + 1e-6 * magnitude(jobs[j][0])
            pick = max(left, key=cost)
        left.remove(pick)
        free[t] = now + jobs[pick][1]
        ends.append((pick, free[t]))
    return max(free)


def main():
    orders = ("lpt", "magnitude", "recost")
    packing = {o: [] for o in orders}
    for path in sys.argv[1:]:
        jobs = load(path)
        if len(jobs) < 20:
            continue
        if len(jobs) > 600:
            jobs = jobs[::5]
        bound = sum(s for _, s in jobs) / THREADS
        line = [f"SIM store={os.path.basename(path)} variants={len(jobs)}"]
        for o in orders:
            p = bound / simulate(jobs, o)
            packing[o].append(p)
            line.append(f"{o}={p:.3f}")
        print(" ".join(line))
    for o in orders:
        v = packing[o]
        if v:
            print(f"SUMMARY order={o} stores={len(v)} median={statistics.median(v):.3f} "
                  f"mean={statistics.mean(v):.3f} min={min(v):.3f}")


if __name__ == "__main__":
    main()
