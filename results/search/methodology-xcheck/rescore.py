"""rescore.py — the package's own recorded runs (its run/STRATEGY/*.npz) scored by
scripts/bench/kt_strategies.py's code, on (a) the package's T4 file of the cache
and (b) our conversion of the Kernel Tuner cache; five bagging seeds each.

    cd EXPERIMENT_PARENT_FOLDER && HUB=DIR python rescore.py
"""
import os, sys, warnings, numpy as np
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts" / "bench"))
import kt_strategies as K
hub = os.environ.get("HUB", "/work/data/benchmark_hub")
from autotuning_methodology.searchspace_statistics import SearchspaceStatistics
from autotuning_methodology.baseline import RandomSearchCalculatedBaseline
from autotuning_methodology.curves import StochasticOptimizationAlgorithm
warnings.simplefilter("ignore")
theirs = SearchspaceStatistics("convolution_milo", "A100", True, K.D.time_keys, ["time"], Path(hub) / "cachefiles/convolution_milo/A100_T4.json", full_validate=False)
ours = K.stats_of(Path(hub) / "kt/convolution_milo/A100.json", "work")
for nm, st in (("package T4", theirs), ("our T4", ours)):
    b = K.budget_of(st)
    print(nm, "size", st.size, "opt", st.total_performance_absolute_optimum(), "time_limit", round(b["time_limit_s"] if "time_limit_s" in b else b["budget"]["time_limit"], 3), "range", [round(x, 3) for x in b["time_range_s"]], "tpf", round(b["mean_time_per_feval_s"], 4))
    tr = np.linspace(b["time_range_s"][0], b["time_range_s"][1], 1000)
    base = RandomSearchCalculatedBaseline(st)
    for s in ("random_sample", "greedy_ils"):
        rd = K._Results(s, "convolution_milo", "A100")
        a = np.load(f"run/{s}/A100_convolution_milo.npz", allow_pickle=True)
        rd.set_results({k: a[k] for k in a.files if k.endswith("results") or k.endswith("per_key") or k.endswith("stds")})
        c = StochasticOptimizationAlgorithm(rd)
        sc = []
        for seed in range(5):
            np.random.seed(seed)
            p = c.get_curve_over_time(tr, dist=st.objective_performances_total_sorted, confidence_level=0.95)
            cv = np.concatenate([p[2], p[6]])
            sc.append(np.mean(base.get_standardised_curves(tr, [cv], x_type="time")[0]))
        print("  ", s, "bagged(5 seeds)", np.round(sc, 3), "iso", round(K.isotonic_score(c, st, tr, base), 3))
