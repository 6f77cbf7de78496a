#!/usr/bin/env python3
"""gen_store.py — make a store for the query tests and benchmark.

    tests/query/gen_store.py [--size small|N] DB

gsearch itself creates the sweep and its configurations (`gsearch run
--dry-run`, on the emulated device's default, so the sweep's device is
"emu:sm_90" and its times count as modeled); this script then writes a
variant and an outcome for each configuration straight into the SQLite
file, deterministically (a fixed seed), as a sweep would have.

--size small (the default): 48 configurations of four parameters, one of
them a string, with every outcome, ties in time, a few missing energies,
metrics (gflops, efficiency, utilization) and nested emulator counters.
--size N: about N configurations of six parameters (10 values each for
N = 1,000,000), mostly ok, for the benchmark.
--second: the same space with another problem size (N = 2048), a second
sweep whose optimum differs, for `compare --sweeps`.
--measured: the sweep is made as if on a GPU (its device is not emulated,
times are not modeled) and each ok result has what the stopping rule
reports: a 95% interval of its median (wide enough that the two fastest
overlap), its runs, warm-ups and timed work; the sweep has its compile
threads, a replaced worker and its timed work.
Times, hosts and paths are fixed, so that reports on the store are the
same on every machine.

GSEARCH names the binary (default: gsearch on PATH).
"""
import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile

KERNEL = """extern "C" __global__ void k(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}
"""

SMALL = """# the query tests' small space
kernel k from "k.cu"
problem N = 4096
param A in [1, 2, 4, 8]
param B in [16, 32, 64]
param C in [0, 1]
param S in ["x", "y"] nodefine
block B
grid N // B
inout x float[N] random(seed=1) tolerance 1e-6
launch k(x, N)
baseline A=2, B=32, C=0, S="x"
metric gflops = 2 * N / (time_ms * 1e6)
"""


def big_space(n):
    # six parameters of v values each, v**6 >= n
    v = 2
    while v ** 6 < n:
        v += 1
    ps = "".join(f"param P{i} in range({v})\n" for i in range(6))
    base = ", ".join(f"P{i}={v // 2}" for i in range(6))
    return f"""# the query benchmark's space: {v}**6 configurations
kernel k from "k.cu"
problem N = 4096
{ps}block 64
grid N // 64
inout x float[N] random(seed=1) tolerance 1e-6
launch k(x, N)
baseline {base}
metric gflops = 2 * N / (time_ms * 1e6)
"""


T0, T1 = "2026-01-02T03:04:05Z", "2026-01-02T03:04:18Z"

OUTCOMES_SMALL = {
    # index: outcome that is not ok (the rest are ok; 47 has no outcome yet)
    3: "compile_error", 7: "invalid", 11: "wrong", 19: "crash", 23: "timeout",
    29: "launch_error", 31: "skipped",
}


def figures(rng, vals, i, small, second):
    """Deterministic figures of configuration i with parameter values vals."""
    if small:
        a, b, c, s = vals
        t = 1.0 + 4.0 / a + b / 64.0 + (0.3 if c else 0.0) + (0.05 if s == "y" else 0.0)
        if second:  # another device: large A and small B no longer pay
            t = 0.5 + a / 4.0 + 16.0 / b + (0.0 if c else 0.2)
        t = round(t, 2)  # equal times: ties that ranks must handle
        regs = 16 + 4 * a + (8 if c else 0)
        smem = 4 * b * (1 + c)
    else:
        t = 1.0 + sum((v + 1) * (k + 1) for k, v in enumerate(vals)) / 50.0 + rng.random()
        regs = 16 + 2 * vals[0] + vals[1]
        smem = 256 * (1 + vals[2])
    blocks = max(1, 32 - regs // 8)
    occ = min(1.0, blocks * 2 / 64.0)
    return t, regs, smem, blocks, occ


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="small")
    ap.add_argument("--second", action="store_true")
    ap.add_argument("--measured", action="store_true")
    ap.add_argument("db")
    args = ap.parse_args()
    small = args.size == "small"
    gsearch = os.environ.get("GSEARCH")
    if not gsearch or not os.access(gsearch, os.X_OK):
        gsearch = "gsearch"
    rng = random.Random(6)
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "k.cu"), "w") as f:
            f.write(KERNEL)
        space = os.path.join(d, "q.space")
        with open(space, "w") as f:
            f.write(SMALL if small else big_space(int(args.size)))
        cmd = [gsearch, "run", "--dry-run", "--db", args.db, space]
        if args.second:
            cmd[2:2] = ["--set", "N=2048"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode:
            sys.stderr.write(run.stderr)
            return 1
    db = sqlite3.connect(args.db)
    db.execute("PRAGMA synchronous = OFF")
    cols = {r[1] for r in db.execute("PRAGMA table_info(result)")}
    device = "cuda:0" if args.measured else "emu:sm_90"
    (sweep,) = db.execute("SELECT max(id) FROM sweep").fetchone()
    configs = db.execute("SELECT idx, params FROM config WHERE sweep_id = ? ORDER BY idx",
                         (sweep,)).fetchall()
    variants, results = [], []
    for idx, params in configs:
        pd = json.loads(params)
        vals = list(pd.values())
        t, regs, smem, blocks, occ = figures(rng, vals, idx, small, args.second)
        h = f"{sweep:04x}{idx:028x}"
        status = OUTCOMES_SMALL.get(idx, "ok") if small else (
            "ok" if idx % 97 else "compile_error")
        if small and (idx == 47 or (args.second and idx == 3)):
            status = None  # never run
        vstatus = "compile_error" if status == "compile_error" else "ok"
        log = "k.cu(3): error: expected a ';'" if vstatus == "compile_error" else ""
        ptx = None if vstatus != "ok" else "\n".join(
            [".version 8.0", ".target sm_90", ".address_size 64", "",
             ".visible .entry k(", "\t.param .u64 k_param_0,", "\t.param .u32 k_param_1", ")",
             "{"] + [f"\tmov.u32 \t%r{k}, {k};" for k in range(30)] + ["\tret;", "}"]) \
            if small else None
        variants.append((h, vstatus, log, ptx, "sm_90", "13.0",
                         " ".join(["-arch=sm_90"] + [f"-D{k}={v}" for k, v in pd.items()]),
                         regs, smem, 0, 0, 0, 1024, 0.02 + 0.001 * (idx % 7)))
        if status is None:
            continue
        ok = status == "ok"
        energy = None if (small and idx % 5 == 0) or not ok else round(t * 0.37, 4)
        metrics = json.dumps({"gflops": 2 * 4096 / (t * 1e6), "efficiency": round(0.9 / t, 6),
                              "utilization": round(occ * 0.8, 6)}) if ok else None
        counters = json.dumps({"warp_inst": {"int": 100 * regs, "fp32": 50 * smem // 64},
                               "gld_trans": 4 * idx + 7, "bank_conflicts": idx % 3}) \
            if ok else None
        row = {
            "sweep_id": sweep, "idx": idx, "variant_hash": None if status == "invalid" else h,
            "status": status, "time_ms": t if ok else None, "min_ms": t * 0.99 if ok else None,
            "iqr_ms": t * 0.01 if ok else None, "reps": 1 if ok else None,
            "blocks_per_sm": blocks if ok else None, "occupancy": occ if ok else None,
            "limiter": ("registers" if regs > 40 else "blocks") if ok else None,
            "energy_j": energy, "power_w": None if energy is None else round(energy / t * 1e3, 3),
            "error": None if ok else f"{status} in configuration {idx}",
            "metrics": metrics, "counters": counters, "device": device,
        }
        if "modeled" in cols:
            row["modeled"] = 1 if ok and not args.measured else 0
        if args.measured and "ci_lo_ms" in cols:
            # half-widths of 1.5% to 3%, a little lopsided as an order
            # statistic's interval is; 2 warm-ups, 6 to 20 runs
            w = 0.015 * (1 + (idx % 3) / 2)
            runs = 6 + 2 * (idx % 8)
            row.update({
                "ci_lo_ms": round(t * (1 - w), 6) if ok else None,
                "ci_hi_ms": round(t * (1 + 0.8 * w), 6) if ok else None,
                "ci_pct": (96.1 if runs >= 8 else 96.9) if ok else None,
                "runs": runs if ok else None, "warmups": 2 if ok else None,
                "timed_ms": round(t * (runs + 2), 6) if ok else None,
                "reps": runs if ok else None,
            })
        results.append(row)
    db.executemany("INSERT OR IGNORE INTO variant (hash, status, log, ptx, arch, nvrtc_version,"
                   " options, registers, static_smem, local_bytes, spill_stores, spill_loads,"
                   " max_threads, compile_s) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", variants)
    db.executemany("UPDATE config SET variant_hash = ? WHERE sweep_id = ? AND idx = ?",
                   [(v[0], sweep, i) for (i, _), v in zip(configs, variants)])
    names = list(results[0].keys())
    db.executemany(f"INSERT INTO result ({', '.join(names)}) VALUES"
                   f" ({', '.join('?' * len(names))})",
                   [tuple(r[n] for n in names) for r in results])
    db.execute("UPDATE sweep SET status = 'done', wall_s = ?, compile_busy_s = ?,"
               " device_busy_s = ?, space_path = 'q.space', host = 'testhost',"
               " created_at = ?, started_at = ?, finished_at = ?, gsearch_version = 'test'"
               " WHERE id = ?", (12.5, 3.25, 11.75, T0, T0, T1, sweep))
    db.execute("UPDATE result SET measured_at = ? WHERE sweep_id = ?", (T1, sweep))
    if args.measured:
        db.execute("UPDATE sweep SET device = 'cuda NVIDIA H100 80GB HBM3 sm_90' WHERE id = ?",
                   (sweep,))
        if "ci_lo_ms" in cols:
            db.execute("UPDATE sweep SET compile_threads = 4, worker_restarts = 1,"
                       " restart_s = 0.75, timed_s = (SELECT total(timed_ms) / 1e3 FROM result"
                       " WHERE sweep_id = ?1) WHERE id = ?1", (sweep,))
    db.execute("UPDATE variant SET created_at = ?", (T0,))
    db.commit()
    db.close()


if __name__ == "__main__":
    sys.exit(main())
