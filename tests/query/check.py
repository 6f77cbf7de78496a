#!/usr/bin/env python3
"""check.py — `gsearch query` against answers computed here, from the SQLite
file alone.

    tests/query/check.py DB...

For each store: the ranks of `top` (also by a metric, and with --where),
the Pareto fronts of several sets of objectives (by brute force: every
pair compared), `compare` (the optimum, the baseline's rank and
percentile, the speed-up), `sensitivity` of every parameter (best, median
and worst per value, and the one-at-a-time line through the optimum),
`summary` and the counts of `export`.  Each check prints one line, "ok
NAME" or "FAIL NAME: why"; the exit status is 1 when any failed.  --where
expressions are evaluated here by Python's own eval.  GSEARCH names the
binary (default: gsearch on PATH).
"""
import json
import os
import sqlite3
import statistics
import subprocess
import sys

GSEARCH = os.environ.get("GSEARCH")
if not GSEARCH or not os.access(GSEARCH, os.X_OK):
    GSEARCH = "gsearch"  # the runner's PATH has the binary under test
COLS = ["time_ms", "min_ms", "iqr_ms", "reps", "blocks_per_sm", "occupancy", "limiter",
        "energy_j", "power_w", "error", "registers", "static_smem", "local_bytes"]
failed = 0


def check(name, cond, why=""):
    global failed
    if cond:
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {why}")


def query(db, *args):
    out = subprocess.run([GSEARCH, "query", db, *args, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def flatten(prefix, obj, out):
    for k, v in obj.items():
        name = f"{prefix}_{k}" if prefix else k
        if isinstance(v, dict):
            flatten(name, v, out)
        elif isinstance(v, (int, float)):
            out[name] = v


def load(db):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    sweep, params_json = con.execute(
        "SELECT id, params_json FROM sweep ORDER BY id DESC LIMIT 1").fetchone()
    params = [p["name"] for p in json.loads(params_json)]
    domains = {p["name"]: p["values"] for p in json.loads(params_json)}
    rows = []
    q = ("SELECT c.idx, c.params, c.baseline, r.status, r.metrics, r.counters, "
         + ", ".join(("v." if c in ("registers", "static_smem", "local_bytes") else "r.") + c
                     for c in COLS)
         + " FROM config c LEFT JOIN result r ON r.sweep_id = c.sweep_id AND r.idx = c.idx"
           " LEFT JOIN variant v ON v.hash = coalesce(r.variant_hash, c.variant_hash)"
           " WHERE c.sweep_id = ? ORDER BY c.idx")
    for rec in con.execute(q, (sweep,)):
        idx, pj, base, status, metrics, counters = rec[:6]
        row = {"idx": idx, "baseline": base, "status": status, "params": json.loads(pj)}
        row.update(row["params"])
        row.update(dict(zip(COLS, rec[6:])))
        row["metrics"] = json.loads(metrics) if metrics else {}
        row.update(row["metrics"])
        if counters:
            flatten("", json.loads(counters), row)
        rows.append(row)
    con.close()
    return sweep, params, domains, rows


def ok_rows(rows, field="time_ms", where=None):
    out = []
    for r in rows:
        if r["status"] != "ok" or r.get(field) is None:
            continue
        if where and not eval(where, {}, dict(r)):
            continue
        out.append(r)
    return out


def check_top(db, rows):
    ok = ok_rows(rows)
    want = sorted(ok, key=lambda r: (r["time_ms"], r["idx"]))
    got = query(db, "top", "-n", str(len(ok) + 5))["rows"]
    check("top: every ok configuration, in order of time",
          [r["idx"] for r in got] == [r["idx"] for r in want],
          f"{[r['idx'] for r in got][:8]} vs {[r['idx'] for r in want][:8]}")
    check("top: ranks are 1..n and the times match",
          [r["rank"] for r in got] == list(range(1, len(want) + 1))
          and [r["time_ms"] for r in got] == [r["time_ms"] for r in want])
    if any("gflops" in r for r in ok):
        want = sorted(ok_rows(rows, "gflops"), key=lambda r: (-r["gflops"], r["idx"]))[:7]
        got = query(db, "top", "-n", "7", "--by", "gflops")["rows"]
        check("top --by gflops: highest first", [r["idx"] for r in got] == [r["idx"] for r in want])
    want = sorted(ok_rows(rows, "registers"), key=lambda r: (r["registers"], r["idx"]))[:9]
    got = query(db, "top", "-n", "9", "--by", "registers")["rows"]
    check("top --by registers: lowest first", [r["idx"] for r in got] == [r["idx"] for r in want])


def check_where(db, rows, params, where):
    want = sorted(ok_rows(rows, where=where), key=lambda r: (r["time_ms"], r["idx"]))
    got = query(db, "top", "-n", "100000", "--where", where)["rows"]
    check(f"top --where {where!r}: {len(want)} rows",
          [r["idx"] for r in got] == [r["idx"] for r in want])


def dominated(a, b, objs):
    """Is a dominated by b?"""
    better = False
    for f, mx in objs:
        x, y = (-a[f], -b[f]) if mx else (a[f], b[f])
        if y > x:
            return False
        better |= y < x
    return better


def check_pareto(db, rows, objs, where=None):
    cands = [r for r in rows if r["status"] == "ok" and all(r.get(f) is not None for f, _ in objs)]
    if where:
        cands = [r for r in cands if eval(where, {}, dict(r))]
    front = [a for a in cands if not any(dominated(a, b, objs) for b in cands)]
    front.sort(key=lambda r: tuple(-r[f] if mx else r[f] for f, mx in objs) + (r["idx"],))
    args = []
    for f, mx in objs:
        args += ["--max" if mx else "--min", f]
    if where:
        args += ["--where", where]
    got = query(db, "pareto", *args)
    name = "pareto " + " ".join(args)
    check(f"{name}: {len(front)} of {len(cands)}",
          got["candidates"] == len(cands) and [r["idx"] for r in got["front"]] ==
          [r["idx"] for r in front],
          f"got {got['candidates']} {[r['idx'] for r in got['front']]},"
          f" want {len(cands)} {[r['idx'] for r in front]}")


def check_compare(db, rows):
    ok = ok_rows(rows)
    opt = min(ok, key=lambda r: (r["time_ms"], r["idx"]))
    base = [r for r in rows if r["baseline"]]
    if not base:
        return
    base = base[0]
    got = query(db, "compare")
    check("compare: the optimum", got["optimum"]["idx"] == opt["idx"])
    check("compare: the baseline", got["baseline"]["idx"] == base["idx"])
    if base["status"] == "ok":
        faster = sum(r["time_ms"] < base["time_ms"] for r in ok)
        check("compare: the baseline's rank", got["baseline_rank"] == faster + 1
              and got["ranked"] == len(ok), f"{got['baseline_rank']} vs {faster + 1}")
        check("compare: the percentile of faster configurations",
              abs(got["faster_pct"] - 100 * faster / len(ok)) < 1e-9)
        check("compare: speed-up and less time",
              abs(got["speedup_pct"] - 100 * (base["time_ms"] / opt["time_ms"] - 1)) < 1e-9
              and abs(got["less_time_pct"] - 100 * (1 - opt["time_ms"] / base["time_ms"])) < 1e-9)
        diff = [p for p in base["params"] if base["params"][p] != opt["params"][p]]
        check("compare: the parameters that differ", got["differs"] == diff)


def check_sensitivity(db, rows, params, domains):
    ok = ok_rows(rows)
    opt = min(ok, key=lambda r: (r["time_ms"], r["idx"]))
    for p in params:
        got = query(db, "sensitivity", p)
        good = got["optimum"]["idx"] == opt["idx"]
        for v, g in zip(domains[p], got["values"]):
            ts = sorted(r["time_ms"] for r in ok if r[p] == v)
            good &= g["value"] == v and g["configs"] == len(ts)
            if ts:
                good &= (g["best"], g["worst"]) == (ts[0], ts[-1])
                good &= abs(g["median"] - statistics.median(ts)) < 1e-12
            line = [r for r in rows if r[p] == v and
                    all(r[q] == opt[q] for q in params if q != p)]
            if line:
                a = g["at_optimum"]
                good &= a is not None and a["idx"] == line[0]["idx"]
                good &= a["value"] == (line[0]["time_ms"] if line[0]["status"] == "ok" else None)
            else:
                good &= g["at_optimum"] is None
        check(f"sensitivity {p}: {len(domains[p])} values", good and
              len(got["values"]) == len(domains[p]))


def check_summary(db, rows):
    got = query(db, "summary")["sweeps"][-1]
    counts = {}
    for r in rows:
        k = r["status"] or "not_run"
        counts[k] = counts.get(k, 0) + 1
    check("summary: counts by outcome",
          {k: v for k, v in got["outcomes"].items() if v} == counts, f"{got['outcomes']}")
    ok = ok_rows(rows)
    opt = min(ok, key=lambda r: (r["time_ms"], r["idx"]))
    check("summary: the best", got["best"]["idx"] == opt["idx"]
          and got["best"]["time_ms"] == opt["time_ms"])


def check_export(db, rows):
    out = subprocess.run([GSEARCH, "query", db, "export", "--json"], check=True,
                         capture_output=True, text=True).stdout
    got = json.loads(out)["configurations"]
    check("export --json: every configuration with its outcome",
          [(r["idx"], r["status"]) for r in got] == [(r["idx"], r["status"]) for r in rows])
    out = subprocess.run([GSEARCH, "query", db, "export", "--t4"], check=True,
                         capture_output=True, text=True).stdout
    t4 = json.loads(out)
    measured = [r for r in rows if r["status"] not in (None, "skipped")]
    check("export --t4: schema 1.0.0, every measured configuration",
          t4["schema_version"] == "1.0.0" and len(t4["results"]) == len(measured)
          and all(set(("configuration", "times", "invalidity", "correctness")) <= set(r)
                  for r in t4["results"])
          and sum(r["invalidity"] == "correct" for r in t4["results"]) ==
          sum(r["status"] == "ok" for r in rows))
    out = subprocess.run([GSEARCH, "query", db, "export", "--csv"], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    check("export --csv: a header and a line per configuration", len(out) == len(rows) + 1)


def main():
    for db in sys.argv[1:]:
        sweep, params, domains, rows = load(db)
        print(f"{os.path.basename(db)}: sweep {sweep}, {len(rows)} configurations")
        check_top(db, rows)
        p0, p1 = params[0], params[-1]
        check_where(db, rows, params, f"{p0} >= {domains[p0][1]!r} and registers <= 40")
        mid = statistics.median(r["time_ms"] for r in ok_rows(rows))
        check_where(db, rows, params, f"{p1} == {domains[p1][0]!r} or time_ms < {mid!r}")
        objs = [[("time_ms", 0), ("registers", 0)],
                [("time_ms", 0), ("registers", 0), ("static_smem", 0)],
                [("occupancy", 1), ("time_ms", 0)],
                [("registers", 0), ("static_smem", 0)],
                [("time_ms", 0)]]
        if any("efficiency" in r for r in rows):
            objs.append([("time_ms", 0), ("efficiency", 1), ("registers", 0)])
            objs.append([("utilization", 1), ("gld_trans", 0)])
        for o in objs:
            check_pareto(db, rows, o)
        check_pareto(db, rows, objs[0], where=f"{p0} != {domains[p0][0]!r}")
        check_compare(db, rows)
        check_sensitivity(db, rows, params, domains)
        check_summary(db, rows)
        check_export(db, rows)
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
