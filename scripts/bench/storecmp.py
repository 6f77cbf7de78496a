#!/usr/bin/env python3
"""storecmp.py — what the benchmark scripts need from gsearch stores.

    storecmp.py vs      --name NAME --db DB --gsearch-s X --kt KT.json [--label VS]
    storecmp.py repeat  --name NAME DB1 DB2
    storecmp.py strip   SRC.db DST.db
    storecmp.py pin     SPACE DB OUT.space
    storecmp.py ncu     --name NAME --db DB --csv NCU.csv --kernels K1,K2
    storecmp.py same    --name NAME DB1 DB2

vs      compares a gsearch sweep with a Kernel Tuner run (the JSON kt_tune.py
        writes) and prints
          LABEL space=NAME gsearch_s=X kt_s=Y ratio=Y/X spearman=S same_optimum=yes|no
        then an INFO line with the counts behind it.
repeat  compares two sweeps of one space and prints
          REPEAT space=NAME spearman=S opt1=P@Tms opt2=P@Tms same_optimum=yes|no within=X%
        where within is how much slower, at most, one sweep measured the other
        sweep's optimum than its own (0% when the optima agree).
strip   copies a store and deletes its sweeps, configurations and results,
        keeping the compile cache (table variant): a run into the copy compiles
        nothing that the original compiled.
pin     writes a copy of SPACE that holds one configuration, the best of DB:
        it adds a `require` for it, makes it the baseline, and makes the
        space's relative file names absolute so that OUT may live elsewhere.
ncu     reads Nsight Compute's CSV (--csv --print-units base --metrics
        gpu__time_duration.sum) and prints
          NCU space=NAME gsearch_ms=X ncu_ms=Y diff=Z%
        with the median duration of the kernels named, against the time the
        store DB gives its best configuration.

same    compares two sweeps of one space on a modeled device, configuration by
        configuration, and prints
          SAME space=NAME configs=N status_differ=K identical=I max_diff=X% worst=PARAMS
        over the N configurations with an outcome in both, where max_diff is
        the largest |t2 / t1 - 1| of those ok in both, status_differ how many
        have different outcomes and identical how many the same time.

Configurations are matched by their parameter values (config.params, JSON).
Only the Python standard library is used.
"""

import argparse
import csv
import json
import math
import os
import re
import shutil
import sqlite3
import statistics
import sys


def die(msg):
    print(f"storecmp: error: {msg}", file=sys.stderr)
    sys.exit(1)


def key_of(params):
    """A hashable key for a configuration: its values in a fixed name order."""
    return tuple(sorted(params.items()))


def show_params(params):
    return ",".join(f"{k}={v}" for k, v in params.items())


def read_store(path, sweep=None):
    """(params dict in declaration order, status, time_ms) of every configuration of
    one sweep of the store (the only one, or the newest unless sweep names one)."""
    if not os.path.exists(path):
        die(f"no store '{path}'")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    if sweep is None:
        row = db.execute("SELECT max(id) FROM sweep").fetchone()
        if not row or row[0] is None:
            die(f"'{path}' holds no sweep")
        sweep = row[0]
    rows = db.execute(
        "SELECT c.params, r.status, r.time_ms FROM config c "
        "LEFT JOIN result r ON r.sweep_id = c.sweep_id AND r.idx = c.idx "
        "WHERE c.sweep_id = ? ORDER BY c.idx", (sweep,)).fetchall()
    db.close()
    # object_pairs_hook keeps declaration order (dicts keep insertion order)
    return [(json.loads(p, object_pairs_hook=dict), s, t) for p, s, t in rows]


def ok_times(rows):
    """{key: (params, time_ms)} of the configurations measured ok."""
    return {key_of(p): (p, t) for p, s, t in rows if s == "ok" and t is not None}


def ranks(xs):
    """Ranks from 1, ties sharing their average rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(xs, ys):
    """Spearman's rank correlation (Pearson's on the ranks); None below 3 points."""
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def fmt(x, spec=".4f"):
    return "nan" if x is None else format(x, spec)


def best(times):
    """The key of the fastest configuration of {key: (params, time)}; of equals,
    the first in enumeration order."""
    return min(times, key=lambda k: times[k][1]) if times else None


def show_best(times, k):
    return f"{show_params(times[k][0])}@{times[k][1]:.5g}ms" if k is not None else "-"


def correlate(a, b):
    """Spearman over the configurations ok in both, and how many those are."""
    common = sorted(set(a) & set(b))
    return spearman([a[k][1] for k in common], [b[k][1] for k in common]), len(common)


def cmd_vs(o):
    gs = ok_times(read_store(o.db))
    with open(o.kt) as f:
        kt_run = json.load(f)
    kt = {}
    for r in kt_run["results"]:
        if r["ok"]:
            kt[key_of(r["params"])] = (r["params"], r["time_ms"])
    rho, n = correlate(gs, kt)
    g_best, k_best = best(gs), best(kt)
    same = "yes" if g_best is not None and g_best == k_best else "no"
    kt_s = kt_run["wall_s"]
    ratio = kt_s / o.gsearch_s if o.gsearch_s > 0 else None
    print(f"{o.label} space={o.name} gsearch_s={o.gsearch_s:.2f} kt_s={kt_s:.2f} "
          f"ratio={fmt(ratio, '.2f')} spearman={fmt(rho)} same_optimum={same}")
    print(f"INFO {o.label} space={o.name} common_ok={n} gsearch_ok={len(gs)} kt_ok={len(kt)} "
          f"kt_configs={len(kt_run['results'])} kt_wrong={kt_run.get('wrong', 0)} "
          f"gsearch_best={show_best(gs, g_best)} kt_best={show_best(kt, k_best)}")


def cmd_repeat(o):
    a, b = ok_times(read_store(o.db1)), ok_times(read_store(o.db2))
    if not a or not b:
        die("a sweep has no ok configuration")
    rho, _ = correlate(a, b)
    o1, o2 = best(a), best(b)
    within = 0.0
    if o1 != o2:
        slow = []
        if o2 in a:
            slow.append(a[o2][1] / a[o1][1])
        if o1 in b:
            slow.append(b[o1][1] / b[o2][1])
        within = 100 * (max(slow) - 1) if slow else None
    print(f"REPEAT space={o.name} spearman={fmt(rho)} "
          f"opt1={show_best(a, o1)} opt2={show_best(b, o2)} "
          f"same_optimum={'yes' if o1 == o2 else 'no'} within={fmt(within, '.2f')}%")


def cmd_same(o):
    a = {key_of(p): (p, s, t) for p, s, t in read_store(o.db1)}
    b = {key_of(p): (p, s, t) for p, s, t in read_store(o.db2)}
    # configurations with an outcome in both (a budgeted sweep leaves some out)
    common = sorted(k for k in set(a) & set(b) if a[k][1] and b[k][1])
    differ = sum(1 for k in common if a[k][1] != b[k][1])
    worst, worst_k, same = 0.0, None, 0
    for k in common:
        ta, tb = a[k][2], b[k][2]
        if a[k][1] != "ok" or b[k][1] != "ok" or ta is None or tb is None:
            continue
        same += ta == tb
        d = abs(tb / ta - 1) if ta else (0.0 if tb == ta else math.inf)
        if worst_k is None or d > worst:
            worst, worst_k = d, k
    print(f"SAME space={o.name} configs={len(common)} status_differ={differ} "
          f"identical={same} max_diff={100 * worst:.4f}% "
          f"worst={show_params(a[worst_k][0]) if worst_k else '-'}")


def cmd_strip(o):
    if os.path.exists(o.dst):
        die(f"'{o.dst}' exists")
    src = sqlite3.connect(f"file:{o.src}?mode=ro", uri=True)
    dst = sqlite3.connect(o.dst)
    src.backup(dst)  # a consistent copy, WAL included
    src.close()
    tables = {r[0] for r in dst.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    # children first; the foreign keys would cascade, but only where they are on
    for t in ("result_conflict", "sweep_part", "result", "config", "sweep"):
        if t in tables:
            dst.execute(f"DELETE FROM {t}")
    dst.commit()
    n = dst.execute("SELECT count(*) FROM variant").fetchone()[0]
    dst.close()
    print(f"strip: {o.dst} keeps {n} compiled variants and no sweep")


def absolutize(line, base):
    """Make the relative file names of a space line absolute (from "F", file("F"))."""
    def fix(m):
        path = m.group(2)
        if not os.path.isabs(path):
            path = os.path.normpath(os.path.join(base, path))
        return m.group(1) + json.dumps(path)
    return re.sub(r'(\bfrom\s+|\bfile\(\s*)"([^"]*)"', fix, line)


def literal(v):
    return json.dumps(v) if isinstance(v, str) else repr(v)


def cmd_pin(o):
    times = ok_times(read_store(o.db))
    if not times:
        die(f"'{o.db}' has no ok configuration")
    params = times[best(times)][0]
    base = os.path.dirname(os.path.abspath(o.space))
    out, skipping = [], False
    with open(o.space) as f:
        for line in f:
            stripped = line.split("#", 1)[0].rstrip()
            if skipping or re.match(r"\s*baseline\b", line):
                # the old baseline and its continuation lines go
                skipping = stripped.endswith("\\")
                continue
            out.append(absolutize(line, base))
    cond = " and ".join(f"{k} == {literal(v)}" for k, v in params.items())
    out.append("\n# pinned to the best configuration of " + o.db + "\n")
    out.append(f"require {cond} else \"pinned\"\n")
    out.append("baseline " + ", ".join(f"{k}={literal(v)}" for k, v in params.items()) + "\n")
    with open(o.out, "w") as f:
        f.writelines(out)
    print(f"pin: {o.out} holds {show_params(params)}")


def number(text):
    return float(text.replace(",", ""))


def cmd_ncu(o):
    times = ok_times(read_store(o.db))
    if not times:
        die(f"'{o.db}' has no ok configuration")
    params, gs_ms = times[best(times)]
    names = set(o.kernels.split(","))
    with open(o.csv, newline="") as f:
        # ncu writes ==PROF== lines around the table
        lines = [ln for ln in f if ln.startswith('"')]
    durations = []
    for row in csv.DictReader(lines):
        kernel = row.get("Kernel Name", "").split("(", 1)[0].strip()
        if row.get("Metric Name") != "gpu__time_duration.sum" or kernel not in names:
            continue
        unit = row.get("Metric Unit", "nsecond")
        scale = {"nsecond": 1e-6, "ns": 1e-6, "usecond": 1e-3, "us": 1e-3, "msecond": 1.0,
                 "ms": 1.0, "second": 1e3, "s": 1e3}.get(unit)
        if scale is None:
            die(f"unknown unit '{unit}' in {o.csv}")
        durations.append(number(row["Metric Value"]) * scale)
    if not durations:
        die(f"no gpu__time_duration.sum of {','.join(sorted(names))} in {o.csv}")
    ncu_ms = statistics.median(durations)
    print(f"NCU space={o.name} gsearch_ms={gs_ms:.5f} ncu_ms={ncu_ms:.5f} "
          f"diff={100 * (ncu_ms - gs_ms) / gs_ms:+.2f}%")
    print(f"INFO NCU space={o.name} config={show_params(params)} kernel_launches={len(durations)} "
          f"ncu_min_ms={min(durations):.5f} ncu_max_ms={max(durations):.5f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("vs")
    p.add_argument("--name", required=True)
    p.add_argument("--db", required=True)
    p.add_argument("--gsearch-s", type=float, required=True)
    p.add_argument("--kt", required=True)
    p.add_argument("--label", default="VS")
    p = sub.add_parser("repeat")
    p.add_argument("--name", required=True)
    p.add_argument("db1")
    p.add_argument("db2")
    p = sub.add_parser("same")
    p.add_argument("--name", required=True)
    p.add_argument("db1")
    p.add_argument("db2")
    p = sub.add_parser("strip")
    p.add_argument("src")
    p.add_argument("dst")
    p = sub.add_parser("pin")
    p.add_argument("space")
    p.add_argument("db")
    p.add_argument("out")
    p = sub.add_parser("ncu")
    p.add_argument("--name", required=True)
    p.add_argument("--db", required=True)
    p.add_argument("--csv", required=True)
    p.add_argument("--kernels", required=True)
    o = ap.parse_args()
    {"vs": cmd_vs, "repeat": cmd_repeat, "same": cmd_same, "strip": cmd_strip, "pin": cmd_pin,
     "ncu": cmd_ncu}[o.cmd](o)


if __name__ == "__main__":
    main()
