#!/usr/bin/env python3
"""check.py — gsearch's exports read by the auto-tuning community's own tools.

    check.py simulate CACHE STORE     Kernel Tuner's simulation mode, brute force,
                                      replays CACHE; its optimum must be gsearch's
    check.py t4 T4FILE                the T4 file validates against the schemas
                                      Kernel Tuner ships and loads in the
                                      autotuning-methodology package's reader

Runs in the environment scripts/pyenv.sh makes.  Prints what it compared;
exits non-zero when the tools disagree with gsearch.
"""
import json
import os
import sqlite3
import subprocess
import sys
import warnings
from pathlib import Path


def gsearch_optimum(store):
    """gsearch's own answer: `query top -n 1 --json` of the newest sweep."""
    out = subprocess.run([os.environ.get("GSEARCH", "gsearch"), "query", store, "top", "-n", "1",
                          "--json"], check=True, capture_output=True, text=True).stdout
    top = json.loads(out)
    rows = top["rows"] if isinstance(top, dict) and "rows" in top else top
    best = rows[0] if isinstance(rows, list) else rows
    return best["params"], best["time_ms"]


def simulate(cache, store):
    import kernel_tuner
    with open(cache) as f:
        c = json.load(f)
    keys = c["tune_params_keys"]
    tune_params = {k: c["tune_params"][k] for k in keys}

    # A cache holds the configurations that pass the space's constraints, as
    # one of Kernel Tuner's own does; a replay names them as restrictions.
    def restrict(p):
        return ",".join(str(p[k]) for k in keys) in c["cache"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results, env = kernel_tuner.tune_kernel(
            c["kernel_name"], "/* replayed from the cache */", c["problem_size"], [], tune_params,
            restrictions=restrict, cache=cache, simulation_mode=True, strategy="brute_force", quiet=True)
    ok = [r for r in results if "__error__" not in r and isinstance(r["time"], float)]
    best = min(ok, key=lambda r: r["time"])
    failed = len(results) - len(ok)
    params, time_ms = gsearch_optimum(store)
    kt_params = {k: best[k] for k in c["tune_params_keys"]}
    print(f"kernel_tuner {kernel_tuner.__version__} simulation, brute force: "
          f"{len(results)} configurations, {len(ok)} ok, {failed} failed")
    print(f"kernel tuner optimum: {kt_params} {best['time']!r} ms")
    print(f"gsearch optimum:      {params} {time_ms!r} ms")
    same = kt_params == params and best["time"] == time_ms
    print("agree" if same else "DISAGREE")
    return 0 if same else 1


def t4(path):
    import jsonschema
    import kernel_tuner
    from autotuning_methodology.formats_interface import load_T4_format
    from autotuning_methodology.searchspace_statistics import SearchspaceStatistics

    schemas = Path(kernel_tuner.__file__).parent / "schema" / "T4" / "1.0.0"
    with open(path) as f:
        data = json.load(f)
    for name in ("results-schema.json", "metadata-schema.json"):
        with open(schemas / name) as f:
            jsonschema.validate(instance=data, schema=json.load(f))
    print("valid against kernel_tuner's T4 results and metadata schemas")
    load_T4_format(path, validate=True)
    md = data["metadata"]
    # the reader averages the runtimes of a failed configuration, which
    # has none, and warns about it
    warnings.simplefilter("ignore", RuntimeWarning)
    stats = SearchspaceStatistics(
        application_name=md["space"]["name"], device_name=md["device"], minimization=True,
        objective_time_keys=["compilation"], objective_performance_keys=["time"],
        full_search_space_file_path=Path(path), full_validate=True)
    best = float(stats.total_performance_absolute_optimum())
    print(f"autotuning_methodology: {stats.size} results, timeunit {md['timeunit']}, "
          f"optimum {best!r} s, tool {md['tool']['name']}")
    ok = [r for r in data["results"] if r["invalidity"] == "correct"]
    times = [m["value"] for r in ok for m in r["measurements"] if m["name"] == "time"]
    agree = times and min(times) == best and all("runtimes" in r["times"] for r in data["results"])
    print("agree" if agree else "DISAGREE")
    return 0 if agree else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "simulate":
        sys.exit(simulate(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 3 and sys.argv[1] == "t4":
        sys.exit(t4(sys.argv[2]))
    sys.exit(__doc__)
