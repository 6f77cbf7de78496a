#!/usr/bin/env python3
"""score-check.py -- the autotuning-methodology package's own score of the
evaluation sequences `gsearch replay --trace` wrote, beside gsearch's.

    score-check.py SOURCE TRACE.csv REPLAY.csv [TOLERANCE]

SOURCE is what was replayed (a Kernel Tuner cache, plain or .gz, or a gsearch
store), read here independently of gsearch: each configuration's time
(a failure: none) and evaluation cost (a cache entry's compile_time +
verification_time + benchmark_time + framework_time; a store result's
compile_s + timed work).  TRACE.csv is replay's --trace, REPLAY.csv its --csv.
For each strategy the package (autotuning_methodology 1.1, installed by
scripts/pyenv.sh) builds its random baseline and the strategy's curve from
the trace, as get_strategy_scores does for one search space, and the mean of
the standardised curve is compared with gsearch's score.  Each repeat is cut
where the package's budget ends it (an evaluation that starts before the
budget runs out counts whole), as a run under the methodology's time limit
ends: replay without --budget runs on past it to the optimum, and scores
that part alone.  (A trace replayed with a --budget larger than the
methodology's is therefore not comparable.)  The package fits
the curve by bagging isotonic regressions on random subsamples, so it is run
BAGS times; gsearch's single fit is their expectation, and must lie within
TOLERANCE (default 0.02) of their mean.  Prints one line per strategy and
exits 1 on a disagreement.
"""
import csv
import gzip
import json
import math
import sqlite3
import sys

import numpy as np

from autotuning_methodology.baseline import RandomSearchCalculatedBaseline
from autotuning_methodology.curves import StochasticOptimizationAlgorithm
from autotuning_methodology.searchspace_statistics import SearchspaceStatistics

BAGS = 5
RESOLUTION = 1000  # the package's default visualization_settings.resolution


def key_part(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    return str(v)


def read_cache(path):
    op = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with op(path, "rt") as f:
        d = json.load(f)
    keys = d["tune_params_keys"]
    space = {}
    for e in d["cache"].values():
        t = e.get("time")
        if t == "InvalidConfig":
            continue
        k = ",".join(key_part(e[p]) for p in keys)
        cost = sum(e.get(x, 0) or 0 for x in ("compile_time", "verification_time",
                                              "benchmark_time", "framework_time")) / 1000
        ok = isinstance(t, (int, float)) and not isinstance(t, bool) and "__error__" not in e
        space[k] = (float(t) if ok else math.nan, cost)
    return space


def read_store(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    sweep = db.execute("SELECT id, params_json FROM sweep ORDER BY id DESC LIMIT 1").fetchone()
    names = [p["name"] for p in json.loads(sweep[1])]
    cols = [r[1] for r in db.execute("PRAGMA table_info(result)")]
    work = "coalesce(r.timed_ms, r.time_ms * max(coalesce(r.reps, 1), 1))" if "timed_ms" in cols \
        else "r.time_ms * max(coalesce(r.reps, 1), 1)"
    space = {}
    q = ("SELECT c.params, r.status, r.time_ms, coalesce(v.compile_s, 0), %s FROM config c "
         "JOIN result r ON r.sweep_id = c.sweep_id AND r.idx = c.idx "
         "LEFT JOIN variant v ON v.hash = coalesce(r.variant_hash, c.variant_hash) "
         "WHERE c.sweep_id = ?" % work)
    for params, status, t, compile_s, work_ms in db.execute(q, (sweep[0],)):
        p = json.loads(params)
        k = ",".join(key_part(p[n]) for n in names)
        space[k] = (float(t) if status == "ok" else math.nan, compile_s + (work_ms or 0) / 1000)
    return space


def stats_of(space):
    """A SearchspaceStatistics holding these configurations, as _load
    would have made it from a T4 file with one time key."""
    s = SearchspaceStatistics.__new__(SearchspaceStatistics)
    s.minimization = True
    s.objective_time_keys = ["all"]
    s.objective_performance_keys = ["time"]
    perf = np.array([v[0] for v in space.values()])
    times = np.array([v[1] for v in space.values()])
    s.size = len(perf)
    s.objective_times_total = times
    s.objective_times_array = times.reshape(1, -1)
    s.objective_performances_total = perf
    s.objective_times_total_sorted = np.sort(times[~np.isnan(times)])
    s.objective_performances_total_sorted = np.sort(perf[~np.isnan(perf)])
    nnan = int(np.count_nonzero(np.isnan(perf)))
    s.objective_performances_total_sorted_nan = np.concatenate(
        (s.objective_performances_total_sorted, [np.nan] * nnan))
    s.objective_times = {"all": times}
    return s


class Results:
    def __init__(self, runs, space):
        rows = max(len(r) for r in runs)
        shape = (rows, len(runs))
        self.fevals_results = np.full(shape, np.nan)
        self.objective_time_results = np.full(shape, np.nan)
        self.objective_performance_best_results = np.full(shape, np.nan)
        self.objective_time_results_per_key = np.full((1,) + shape, np.nan)
        self.objective_performance_results_per_key = np.full((1,) + shape, np.nan)
        for j, run in enumerate(runs):
            best = np.nan
            for i, (key, cum) in enumerate(run):
                self.fevals_results[i, j] = i + 1
                self.objective_time_results[i, j] = cum
                t = space[key][0]
                if not math.isnan(t):
                    best = t if math.isnan(best) else min(best, t)
                if not math.isnan(best):
                    self.objective_performance_best_results[i, j] = best


class Description:
    def __init__(self, name, runs, space):
        self.group_name = name
        self.group_display_name = name
        self.device_name = "replay"
        self.application_name = "replay"
        self.stochastic = True
        self.minimization = True
        self._results = Results(runs, space)

    def get_results(self):
        return self._results


def package_budget(stats):
    """The methodology's time budget of the space: 1.1 times the end of
    the time range (its default margin)."""
    te = stats.cutoff_point_fevals_time_start_end(0.01, 0.95)[3]
    return te * 1.1


def within(run, budget):
    """The part of a repeat's (key, cumulative cost) evaluations the budget
    admits: each one that starts before the budget runs out."""
    n = 0
    while n < len(run) and (n == 0 or run[n - 1][1] < budget):
        n += 1
    return run[:n]


def package_score(stats, runs, space, name):
    """get_strategy_scores for one search space and one strategy."""
    fs, fe, ts, te = stats.cutoff_point_fevals_time_start_end(0.01, 0.95)
    time_range = np.linspace(ts, te, RESOLUTION)
    baseline = RandomSearchCalculatedBaseline(stats)
    curve = StochasticOptimizationAlgorithm(Description(name, runs, space))
    dist = stats.objective_performances_total_sorted
    out = curve.get_curve_over_time(time_range, dist=dist, confidence_level=0.95)
    full = np.concatenate([out[2], out[6]]) if out[5].ndim > 0 else out[2]
    std = baseline.get_standardised_curve(time_range, full, x_type="time")
    return float(np.mean(std)), te * 1.1


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    src, trace, replay = sys.argv[1:4]
    tol = float(sys.argv[4]) if len(sys.argv) == 5 else 0.02
    try:
        space = read_cache(src)
    except (UnicodeDecodeError, json.JSONDecodeError, OSError):
        space = read_store(src)
    stats = stats_of(space)
    runs = {}
    with open(trace) as f:
        for r in csv.DictReader(f):
            runs.setdefault(r["strategy"], {}).setdefault(int(r["repeat"]), []).append(
                (r["key"], float(r["cum_s"])))
    ours = {}
    with open(replay) as f:
        for r in csv.DictReader(f):
            ours[r["strategy"]] = float(r["score"]) if r["score"] else None
    bad = 0
    np.random.seed(1)
    for name, reps in runs.items():
        limit = package_budget(stats)
        rs = [within(reps[i], limit) for i in sorted(reps)]
        scores = []
        budget = None
        for _ in range(BAGS):
            sc, budget = package_score(stats, rs, space, name)
            scores.append(sc)
        mean = float(np.mean(scores))
        g = ours.get(name)
        ok = g is not None and abs(g - mean) <= tol
        bad += not ok
        print("%s: package %.3f (%.3f..%.3f over %d bags), gsearch %s, budget %.1f s: %s" % (
            name, mean, min(scores), max(scores), BAGS, "%.3f" % g if g is not None else "none",
            budget, "agree" if ok else "DISAGREE"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
