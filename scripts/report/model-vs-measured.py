#!/usr/bin/env python3
"""model-vs-measured.py — how well one sweep's times rank another's.

    scripts/report/model-vs-measured.py MODEL.db MEASURED.db [--top K]

Both stores hold one sweep of the same space (typically the emulated device's
modeled times and a GPU's measured ones).  Configurations are matched by
their parameters; only those `ok` in both count.  Prints the number matched,
Spearman's rho and Kendall's tau-b between the two times, and the regret of
trusting the model: the measured time of the best of the model's top K
picks against the measured optimum.  Pure Python, no third-party modules.
"""
import json
import sqlite3
import sys


def times(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT c.params, r.time_ms FROM result r JOIN config c USING (sweep_id, idx) "
        "WHERE r.status = 'ok' AND r.time_ms IS NOT NULL AND r.sweep_id = "
        "(SELECT max(id) FROM sweep)").fetchall()
    device = db.execute("SELECT device FROM sweep ORDER BY id DESC LIMIT 1").fetchone()[0]
    db.close()
    return {json.dumps(json.loads(p), sort_keys=True): t for p, t in rows}, device


def ranks(xs):
    """Average ranks (1-based), ties sharing the mean of their positions."""
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


def pearson(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    va = sum((x - ma) ** 2 for x in a)
    vb = sum((y - mb) ** 2 for y in b)
    return cov / (va * vb) ** 0.5 if va > 0 and vb > 0 else float("nan")


def kendall_tau_b(a, b):
    """O(n^2): the spaces have hundreds of configurations, not millions."""
    n = len(a)
    conc = disc = ta = tb = 0
    for i in range(n):
        for j in range(i + 1, n):
            da, db = a[i] - a[j], b[i] - b[j]
            if da == 0 and db == 0:
                continue
            if da == 0:
                ta += 1
            elif db == 0:
                tb += 1
            elif (da > 0) == (db > 0):
                conc += 1
            else:
                disc += 1
    den = ((conc + disc + ta) * (conc + disc + tb)) ** 0.5
    return (conc - disc) / den if den else float("nan")


def main():
    args = sys.argv[1:]
    k = 5
    if "--top" in args:
        i = args.index("--top")
        k = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    model, mdev = times(args[0])
    meas, gdev = times(args[1])
    keys = sorted(set(model) & set(meas))
    if len(keys) < 2:
        sys.exit(f"only {len(keys)} configurations ok in both stores")
    a = [model[x] for x in keys]
    b = [meas[x] for x in keys]
    rho = pearson(ranks(a), ranks(b))
    tau = kendall_tau_b(a, b)
    best = min(b)
    picks = sorted(keys, key=lambda x: model[x])[:k]
    got = min(meas[x] for x in picks)
    top1 = meas[picks[0]]
    rank1 = 1 + sum(1 for t in b if t < top1)
    print(f"model    {mdev}: {args[0]}")
    print(f"measured {gdev}: {args[1]}")
    print(f"matched {len(keys)} configurations ok in both "
          f"({len(model)} and {len(meas)} ok)")
    print(f"spearman rho {rho:.3f}, kendall tau-b {tau:.3f}")
    print(f"model's best ranks {rank1} of {len(keys)} measured, "
          f"{100 * (top1 / best - 1):.1f}% slower than the measured optimum")
    print(f"regret of the model's top {k}: {100 * (got / best - 1):.1f}% "
          f"(best of them {got:.4g} ms, optimum {best:.4g} ms)")


if __name__ == "__main__":
    main()
