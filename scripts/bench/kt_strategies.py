#!/usr/bin/env python3
"""kt_strategies.py — Kernel Tuner's search strategies on a Kernel Tuner cache,
and the autotuning-methodology score of any evaluation sequence on that cache,
for scripts/bench/vs-kt-strategies.sh.

    kt_strategies.py budget CACHE --work DIR
    kt_strategies.py kt CACHE --work DIR --strategy S... [--repeats R] [--seed N] --trace FILE
    kt_strategies.py score CACHE --work DIR --trace FILE --tool gsearch|kt
                     [--prior P] [--time cache|trace] [--csv REPLAY.csv]

budget: what the methodology derives from the cache alone, as JSON on stdout
(the T4 conversion of the cache it needs is written once to DIR).

kt: runs each Kernel Tuner 1.5 strategy named R times in simulation mode on the
cache, as the methodology's experiment runner does (runner.tune ->
tune_kernel_T1 -> tune_kernel with simulation_mode=True and
strategy_options={"time_limit": budget}), and appends every run's
evaluations to FILE in the trace format of `gsearch replay --trace`:

    strategy,repeat,eval,key,time_ms,cum_s

key is Kernel Tuner's cache key, time_ms the configuration's "time"
(empty when it failed), cum_s the run's cumulative objective time as the
methodology counts it (the sum of the T4 time keys compilation, runtimes,
framework, search_algorithm and validation, in seconds; framework and
search_algorithm are what this run really spent, the rest comes from the
cache).  A run the methodology's runner would reject (fewer evaluations
inside the cutoff window than its minimum, or fewer than two valid ones) is
rerun, as the runner does; after 20 attempts the strategy is left out of
the trace (KTFAIL line, exit status 1), where the runner raises.

score: reads a trace (either tool's), and prints per strategy

    STRAT cache=NAME tool=T strategy=S prior=P f95=N f100=N score=X

f95/f100: the median over repeats of the number of distinct configurations
evaluated until the best so far is within optimum/0.95 (resp. equals the
optimum); a repeat that never gets there counts as infinite, and a median
that is infinite prints "-".  score: the methodology's score, computed with
the package's own classes on the sequence (RandomSearchCalculatedBaseline,
StochasticOptimizationAlgorithm.get_curve_over_time, get_standardised_curves,
the mean over the time range), the bagging seeded so that a rerun prints the
same.  A DETAIL line per strategy adds score_iso (the same curve from one
isotonic fit of all points, no bagging: a deterministic reference for other
implementations), the repeats and the evaluations per repeat.

--time cache (the default, for gsearch) charges each evaluation the cache's
objective time of that configuration less the brute-force run's own overhead
(compilation + runtimes + validation; framework and search_algorithm are
the tool's, and a replay has none to speak of); --time trace takes the
trace's cum_s as it is (Kernel Tuner's runs, whose framework and strategy
time are what the run spent).
"""

import argparse
import csv
import json
import math
import random
import sys
import time
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np

import autotuning_methodology
from autotuning_methodology.baseline import RandomSearchCalculatedBaseline
from autotuning_methodology.curves import StochasticOptimizationAlgorithm, get_indices_in_distribution
from autotuning_methodology.runner import write_results
from autotuning_methodology.searchspace_statistics import SearchspaceStatistics, convert_from_time_unit

PKG = Path(autotuning_methodology.__file__).parent


def die(msg):
	print(f"kt_strategies: error: {msg}", file=sys.stderr)
	sys.exit(1)


def defaults():
	"""The methodology's defaults, read from the package itself."""
	with open(PKG / "experiments_defaults.json") as f:
		d = json.load(f)
	with open(PKG / "schemas" / "experiments.json") as f:
		schema = json.load(f)
	keys = d["statistics_settings"]["objective_time_keys"]
	if "all" in keys:  # as experiments.execute_experiment expands it
		keys = list(schema["properties"]["statistics_settings"]["properties"]["objective_time_keys"]["items"]["enum"])
		keys.remove("all")
	g = d["experimental_groups_defaults"]
	return SimpleNamespace(
		time_keys=keys,
		p_start=d["statistics_settings"]["cutoff_percentile_start"],
		p_end=d["statistics_settings"]["cutoff_percentile"],
		cutoff_type=d["statistics_settings"]["cutoff_type"],
		resolution=int(d["visualization_settings"]["resolution"]),
		confidence=d["visualization_settings"]["confidence_level"],
		repeats=g["repeats"],
		samples=g["samples"],
		min_fraction_valid=g["minimum_fraction_of_budget_valid"],
		min_valid_iterations=g["minimum_number_of_valid_search_iterations"],
		cutoff_margin=0.1,  # calculate_budget: group.get("cutoff_margin", 0.1)
	)


D = defaults()
_caches = {}


def read_cache(path):
	"""Kernel Tuner's reading of a cache file (error strings become __error__), once per process."""
	from kernel_tuner import util

	path = str(Path(path).resolve())
	if path not in _caches:
		_caches[path] = util.read_cache(path, open_cache=False)
	return _caches[path]


def cache_name(path):
	p = Path(path)
	return f"{p.parent.name}_{p.stem}".replace(" ", "_")


def t4_of(cache):
	"""The cache as T4 results, with Kernel Tuner's own converter."""
	from kernel_tuner.file_utils import get_t4_results

	results = []
	for v in cache["cache"].values():
		r = dict(v)
		for k in ("compile_time", "benchmark_time", "framework_time", "strategy_time", "verification_time"):
			r.setdefault(k, 0)
		results.append(r)
	t4 = get_t4_results(results, cache["tune_params"], objective="time")
	for r in t4["results"]:  # the error object is no measurement
		r["measurements"] = [m for m in r["measurements"] if m["name"] != "__error__"]
	return t4


def stats_of(path, work):
	work = Path(work)
	work.mkdir(parents=True, exist_ok=True)
	name = cache_name(path)
	t4path = work / f"{name}_T4.json"
	if not t4path.exists() or t4path.stat().st_mtime < Path(path).stat().st_mtime:
		tmp = t4path.with_suffix(".tmp")
		with open(tmp, "w") as f:
			json.dump(t4_of(read_cache(path)), f)
		tmp.rename(t4path)
	with warnings.catch_warnings():
		warnings.simplefilter("ignore")
		st = SearchspaceStatistics(
			application_name=name,
			device_name=read_cache(path)["device_name"],
			minimization=True,
			objective_time_keys=D.time_keys,
			objective_performance_keys=["time"],
			full_search_space_file_path=t4path,
			full_validate=False,
		)
	return st


def budget_of(st):
	"""experiments.calculate_budget and runner.collect_results' minimum, as the package computes them."""
	with warnings.catch_warnings():  # "Scaled down cutoff point ...": the package's own note
		warnings.simplefilter("ignore")
		fs, fe, ts, te = st.cutoff_point_fevals_time_start_end(D.p_start, D.p_end)
	cutoff_start = max(ts, 0.0) if D.p_start > 0.0 else 0.0
	cutoff_time = te * (1 + D.cutoff_margin)
	b = {}
	if D.cutoff_type == "time":
		b["time_limit"] = cutoff_time
		max_fevals = max(round(cutoff_time / st.get_time_per_feval("mean_per_feval")), 2)
	else:
		b["max_fevals"] = max_fevals = min(int(math.ceil(fe * (1 + D.cutoff_margin))), st.size)
	# the evaluations Kernel Tuner's simulation clock affords in the time limit, on
	# average: it charges compile + verification + benchmark time of the cache
	clock = [sum(float(r["times"].get(k, 0) or 0) for k in ("compilation", "validation", "benchmark")) for r in st.results]
	fevals_kt_clock = min(max(round(b.get("time_limit", 0) * 1000 / np.mean(clock)), 2), st.size) if "time_limit" in b else max_fevals
	min_evals = max(round(D.min_fraction_valid * min(max_fevals, st.size)), 2)
	min_evals = max(min(min_evals, D.min_valid_iterations), 2)
	return dict(
		size=st.size,
		fevals_kt_clock=int(fevals_kt_clock),
		optimum_ms=float(st.total_performance_absolute_optimum()),
		median_ms=float(st.total_performance_median()),
		cutoff_fevals_start=int(fs),
		cutoff_fevals=int(fe),
		time_range_s=[float(ts), float(te)],
		cutoff_time_start_s=float(cutoff_start),
		cutoff_time_s=float(cutoff_time),
		budget=b,
		fevals_equivalent=int(max_fevals),
		min_evals=int(min_evals),
		median_time_per_feval_s=float(st.total_time_median()),
		mean_time_per_feval_s=float(st.get_time_per_feval("mean_per_feval")),
	)


def key_of(r, names):
	return ",".join(str(r[n]) for n in names)


OWN_OVERHEAD = ("framework", "search_algorithm")


def t4_time_s(t4r, skip=()):
	"""An evaluation's objective time (s): the methodology's time keys summed (lists summed first)."""
	total = 0.0
	for k in D.time_keys:
		if k in skip:
			continue
		v = t4r["times"].get(k)
		if isinstance(v, list):
			v = sum(v)
		if v is None or (isinstance(v, float) and math.isnan(v)) or v < 0:
			continue
		total += convert_from_time_unit(v, "milliseconds")
	return total


def run_kt(args):
	from constraint import FunctionConstraint
	from kernel_tuner import util

	cache = read_cache(args.cache)
	util.read_cache = lambda path, open_cache=True: read_cache(path)  # parse the file once, not every run
	names = cache["tune_params_keys"]
	tune_params = cache["tune_params"]
	# the space: every configuration the cache holds, failed ones included -- what the
	# T1 file's restrictions admit for a complete brute-force cache (tune_cache would
	# drop the failed ones)
	keys = set(cache["cache"].keys())
	restriction = FunctionConstraint(lambda *vals: ",".join(str(v) for v in vals) in keys)
	ps = cache["problem_size"]
	ps = (ps,) if isinstance(ps, int) else tuple(ps)
	st = stats_of(args.cache, args.work)
	bud = budget_of(st)

	new = not Path(args.trace).exists() or Path(args.trace).stat().st_size == 0
	out = open(args.trace, "a", newline="")
	w = csv.writer(out)
	if new:
		w.writerow(["strategy", "repeat", "eval", "key", "time_ms", "cum_s"])
	failed = 0
	for strategy in args.strategy:
		failed += not run_strategy(args, strategy, cache, names, tune_params, restriction, ps, bud, w)
		out.flush()
	out.close()
	if failed:
		sys.exit(1)


def run_strategy(args, strategy, cache, names, tune_params, restriction, ps, bud, w):
	from kernel_tuner import tune_kernel
	from kernel_tuner.file_utils import get_t4_results

	options = dict(bud["budget"])
	if args.max_fevals == "size" and "max_fevals" not in options and strategy not in (args.default_fevals or []):
		# without it greedy_ils, greedy_mls, mls and bayes_opt stop at their default of
		# 100 evaluations whatever the time limit; the space's size leaves the time to bind
		options["max_fevals"] = len(cache["cache"])
	walls, kept = [], []
	for rep in range(args.repeats):
		attempt = 0
		while True:
			if attempt >= 20:
				# the methodology's runner raises here and the experiment has no result
				print(f"KTFAIL cache={cache_name(args.cache)} strategy={strategy} repeat={rep}: no run in 20 "
					f"attempts with {bud['min_evals']} evaluations inside the cutoff window (the methodology's "
					f"runner gives up too); strategy left out", flush=True)
				return False
			seed = args.seed + 1000 * rep + attempt
			random.seed(seed)
			np.random.seed(seed % 2**32)
			t0 = time.perf_counter()
			with warnings.catch_warnings():
				warnings.simplefilter("ignore")
				results, _ = tune_kernel(
					cache["kernel_name"], "", ps, [], tune_params,
					restrictions=[restriction], cache=args.cache, simulation_mode=True,
					strategy=strategy, strategy_options=options,
					objective="time", objective_higher_is_better=False,
					iterations=D.samples, quiet=True, verbose=False,
				)
			wall = time.perf_counter() - t0
			attempt += 1
			t4 = get_t4_results(results, tune_params, objective="time")["results"]
			cum, rows = 0.0, []
			inwin = valid = 0
			for i, (r, tr) in enumerate(zip(results, t4)):
				cum += t4_time_s(tr)
				perf = r.get("time")
				ok = tr["invalidity"] == "correct" and isinstance(perf, (int, float))
				rows.append([strategy, rep, i + 1, key_of(r, names), f"{perf:.9g}" if ok else "", f"{cum:.9g}"])
				if bud["cutoff_time_start_s"] <= cum <= bud["cutoff_time_s"]:
					inwin += 1
					valid += ok
			if inwin >= bud["min_evals"] and valid >= 2:
				break
		walls.append(wall)
		kept += rows
	w.writerows(kept)
	print(
		f"KTRUN cache={cache_name(args.cache)} strategy={strategy} repeats={args.repeats} "
		f"run_s_median={np.median(walls):.2f} run_s_max={max(walls):.2f} total_s={sum(walls):.1f}",
		flush=True,
	)
	return True


class _Results:
	"""What runner.write_results fills and Curve reads: the package's ResultsDescription, in memory."""

	def __init__(self, name, app, dev):
		self.group_name = name
		self.group_display_name = name
		self.application_name = app
		self.device_name = dev
		self.stochastic = True
		self.minimization = True
		self.objective_time_keys = D.time_keys
		self.objective_performance_keys = ["time"]
		self._arrays = None

	def set_results(self, arrays):
		self._arrays = arrays

	def get_results(self):
		return SimpleNamespace(**self._arrays)


def read_trace(path):
	runs = {}
	with open(path, newline="") as f:
		for row in csv.DictReader(f):
			s = row["strategy"]
			runs.setdefault(s, {}).setdefault(int(row["repeat"]), []).append(row)
	for s in runs:
		for rep in runs[s]:
			runs[s][rep].sort(key=lambda r: int(r["eval"]))
	return runs


def reach(perfs, target):
	"""Distinct configurations evaluated until the best so far is <= target (inf: never)."""
	seen = set()
	best = math.inf
	for key, p in perfs:
		seen.add(key)
		if p == p and p < best:
			best = p
		if best <= target:
			return len(seen)
	return math.inf


def fmt_median(xs):
	m = float(np.median(np.array(xs, float))) if xs else math.inf
	if math.isinf(m):
		return "-"
	return str(int(m)) if m == int(m) else f"{m:.1f}"


def isotonic_score(curve, st, time_range, baseline):
	"""The same standardised curve from one isotonic fit over all points (no bagging)."""
	dist = st.objective_performances_total_sorted
	t1, v1, stop_t, _, _ = curve._get_curve_over_time_values_in_range(time_range, return_1d=True)
	idx = get_indices_in_distribution(v1, dist)
	ic = curve.get_isotonic_curve(t1, idx, time_range, ymin=np.min(idx), ymax=np.max(idx))
	ic = np.clip(np.array(np.round(ic), dtype=int), 0, dist.shape[0] - 1)
	c = dist[ic]
	if stop_t < time_range[-1]:
		i = int(np.nonzero(time_range > stop_t)[0][0])
		c[i:] = c[i]
	return float(np.mean(baseline.get_standardised_curves(time_range, [c], x_type="time")[0]))


def score(args):
	cache = read_cache(args.cache)
	names = cache["tune_params_keys"]
	st = stats_of(args.cache, args.work)
	bud = budget_of(st)
	name = cache_name(args.cache)
	opt = st.total_performance_absolute_optimum()
	# per configuration: performance (NaN when failed), objective time (s), validity
	t4 = t4_of(cache)["results"]
	info = {}
	for tr in t4:
		m = [x["value"] for x in tr["measurements"] if x["name"] == "time"]
		p = m[0] if m and isinstance(m[0], (int, float)) else math.nan
		# a replay's own overhead is not the brute-force run's: framework and strategy time excluded
		info[key_of(tr["configuration"], names)] = (p, t4_time_s(tr, OWN_OVERHEAD), tr["invalidity"])
	time_range = np.linspace(bud["time_range_s"][0], bud["time_range_s"][1], D.resolution)
	baseline = RandomSearchCalculatedBaseline(st)
	dist = st.objective_performances_total_sorted
	priors = {}
	if args.csv:
		with open(args.csv, newline="") as f:
			for row in csv.DictReader(f):
				priors[row["strategy"]] = row.get("prior") or "-"
	runs = read_trace(args.trace)
	for s, reps in runs.items():
		repeated, f95, f100, lens = [], [], [], []
		mismatch = 0
		for rep in sorted(reps):
			evs, perfs = [], []
			prev = 0.0
			for row in reps[rep]:
				k = row["key"]
				if k not in info:
					die(f"{args.trace}: strategy {s} repeat {rep} evaluates {k}, which {args.cache} lacks")
				p, t_s, inval = info[k]
				if row["time_ms"] and p == p and abs(float(row["time_ms"]) - p) > 1e-6 * max(1.0, abs(p)):
					mismatch += 1
				if args.time == "trace":
					cum = float(row["cum_s"])
					t_s, prev = cum - prev, cum
				evs.append(dict(
					invalidity=inval,
					times={k2: (t_s if k2 == D.time_keys[0] else 0.0) for k2 in D.time_keys},
					measurements=[dict(name="time", value=p if p == p else "InvalidConfig")],
				))
				perfs.append((k, p))
			repeated.append(evs)
			lens.append(len(evs))
			f95.append(reach(perfs, opt / 0.95))
			f100.append(reach(perfs, opt))
		rd = _Results(s, name, cache["device_name"])
		with warnings.catch_warnings():
			warnings.simplefilter("ignore")
			write_results(repeated, rd, compressed=False)
			curve = StochasticOptimizationAlgorithm(rd)
			try:
				np.random.seed(args.seed)  # BaggingRegressor draws from numpy's global state
				parts = curve.get_curve_over_time(time_range, dist=dist, confidence_level=D.confidence)
				c = np.concatenate([parts[2], parts[6]]) if parts[5].ndim > 0 else parts[2]
				sc = float(np.mean(baseline.get_standardised_curves(time_range, [c], x_type="time")[0]))
				sc_iso = isotonic_score(curve, st, time_range, baseline)
				sc_s, iso_s = f"{sc:.3f}", f"{sc_iso:.3f}"
			except ValueError as e:
				sc_s = iso_s = "-"
				print(f"# {name} {s}: no score: {str(e.args[0])[:160]}", file=sys.stderr)
		prior = args.prior or priors.get(s, "-") or "-"
		print(f"STRAT cache={name} tool={args.tool} strategy={s} prior={prior} "
			f"f95={fmt_median(f95)} f100={fmt_median(f100)} score={sc_s}")
		print(f"DETAIL cache={name} tool={args.tool} strategy={s} score_iso={iso_s} repeats={len(lens)} "
			f"evals_median={fmt_median(lens)} evals_max={max(lens)} "
			f"reached95={sum(not math.isinf(x) for x in f95)} reached100={sum(not math.isinf(x) for x in f100)}"
			+ (f" time_ms_mismatches={mismatch}" if mismatch else ""), flush=True)


def main():
	ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
	sub = ap.add_subparsers(dest="cmd", required=True)
	b = sub.add_parser("budget")
	b.add_argument("cache")
	b.add_argument("--work", required=True)
	k = sub.add_parser("kt")
	k.add_argument("cache")
	k.add_argument("--work", required=True)
	k.add_argument("--strategy", required=True, action="append", help="repeatable")
	k.add_argument("--repeats", type=int, default=D.repeats)
	k.add_argument("--seed", type=int, default=1)
	k.add_argument("--trace", required=True)
	k.add_argument("--max-fevals", choices=["size", "none"], default="size",
		help="size: max_fevals = the space's size beside the time limit (default); none: the time limit alone")
	k.add_argument("--default-fevals", action="append", metavar="S",
		help="strategy S keeps its own default max_fevals (repeatable)")
	s = sub.add_parser("score")
	s.add_argument("cache")
	s.add_argument("--work", required=True)
	s.add_argument("--trace", required=True)
	s.add_argument("--tool", required=True)
	s.add_argument("--prior")
	s.add_argument("--csv")
	s.add_argument("--time", choices=["cache", "trace"], default="cache")
	s.add_argument("--seed", type=int, default=0)
	a = ap.parse_args()
	if not Path(a.cache).is_file():
		die(f"{a.cache}: no such cache file")
	if a.cmd == "budget":
		out = budget_of(stats_of(a.cache, a.work))
		out["cache"] = cache_name(a.cache)
		print(json.dumps(out))
	elif a.cmd == "kt":
		run_kt(a)
	else:
		score(a)


if __name__ == "__main__":
	main()
