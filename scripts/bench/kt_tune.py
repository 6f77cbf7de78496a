#!/usr/bin/env python3
"""kt_tune.py — tune a gsearch space's kernel with Kernel Tuner, as a
Kernel Tuner user would, for scripts/bench/vs-kernel-tuner.sh.

    kt_tune.py --gsearch BIN --space FILE --kind matmul|convheavy
               [--set NAME=VALUE]... --out RESULT.json

What Kernel Tuner is given, so that it does the work gsearch does:

* the configurations: the ones `gsearch list --csv` prints for the space, as
  tune_params (each parameter's values) and a restriction that admits exactly
  those; the problem values come from `gsearch check` (after --set);
* the same kernel source and entry; Kernel Tuner prepends its parameters as
  #defines, the kernel's #ifndef defaults never apply.  gsearch's `let`
  defines (convheavy's FS) become -D options.  Both tools compile with NVRTC
  for the device's architecture; gsearch gives no -std and NVRTC 13 defaults
  to C++17, so Kernel Tuner gets -std=c++17 (by default it would add
  --std=c++11);
* the same launch geometry (problem_size, grid_div_x/y, block_size_names),
  constant memory (cmem_args) and input distributions (uniform [0, 1), other
  random numbers than gsearch's);
* verification on, as gsearch always validates: the answer is computed
  once, before tuning, by the space's own naive reference kernel through
  CuPy, and each configuration's output is checked with gsearch's rule,
  |out - ref| <= tolerance * max(1, |ref|).  A configuration that fails is
  counted and marked wrong here, never passed to Kernel Tuner as a failure:
  Kernel Tuner stops the whole run at a failed verification;
* the cupy backend, named (lang="CUPY"): with "CUDA" Kernel Tuner 1.5 would
  take cuda-python's backend, which the remote host also has; otherwise the
  defaults: brute_force, 7 iterations, no cache file (cache=None), quiet.

The wall time is that of the tune_kernel call alone: device set-up, search
space, compiles, verification and benchmarks, but not the imports, the
inputs or the reference.  Every run compiles every kernel: CuPy writes
compiled modules to CUPY_CACHE_DIR but reads them back only for modules
compiled without name_expressions, and Kernel Tuner's cupy backend always
gives them (the caller still points CUPY_CACHE_DIR at a fresh directory).

RESULT.json: {"wall_s", "kt_version", "configs", "wrong",
"results": [{"params", "ok", "time_ms", "error"}]}.  Times are Kernel
Tuner's "time": the mean of its iterations, in ms.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy as np


def die(msg):
    print(f"kt_tune: error: {msg}", file=sys.stderr)
    sys.exit(1)


def gsearch_out(o, *args):
    sets = [a for s in o.set for a in ("--set", s)]
    r = subprocess.run([o.gsearch, *args, *sets, o.space], capture_output=True, text=True)
    if r.returncode != 0:
        die(f"gsearch {args[0]} failed:\n{r.stdout}{r.stderr}")
    return r.stdout


def value(text):
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def problems(o):
    """The space's problem values, as `gsearch check` prints them."""
    m = re.search(r"^problem\s+(.*)$", gsearch_out(o, "check"), re.M)
    if not m:
        die("gsearch check printed no problem line")
    # "problem     W=4096 H=4096 K=15 AW=4112", a set value followed by "(--set)"
    return {k: value(v) for k, v in (kv.split("=", 1) for kv in m.group(1).split() if "=" in kv)}


def configurations(o):
    """Parameter names and the valid configurations, in gsearch's order."""
    lines = gsearch_out(o, "list", "--csv").splitlines()
    names = lines[0].split(",")[1:]
    configs = [dict(zip(names, map(value, ln.split(",")[1:]))) for ln in lines[1:] if ln]
    return names, configs


def kernel_file(space):
    with open(space) as f:
        m = re.search(r'^kernel\s+\w+\s+from\s+"([^"]+)"', f.read(), re.M)
    if not m:
        die(f"no `kernel NAME from \"FILE\"` in {space}")
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(space)), m.group(1)))


def uniform(seed, n):
    return np.random.default_rng(seed).random(n, dtype=np.float32)


def setup_matmul(pb, source, cp):
    n = pb["N"]
    a, b = uniform(1, n * n), uniform(2, n * n)
    c = np.zeros(n * n, dtype=np.float32)
    ref = cp.RawModule(code=source, options=("-std=c++17",)).get_function("matmul_naive")
    dc = cp.zeros(n * n, dtype=cp.float32)
    ref(((n + 15) // 16, (n + 15) // 16), (16, 16), (cp.asarray(a), cp.asarray(b), dc, np.int32(n)))
    return dict(
        kernel_name="matmul",
        problem_size=(n, n),
        arguments=[a, b, c, np.int32(n)],
        answer=[None, None, cp.asnumpy(dc), None],
        grid_div_x=["TILE", "RECT"],
        grid_div_y=["TILE"],
        block_size_names=["TILE", "TILE"],
        compiler_options=["-std=c++17"],
        cmem_args=None,
        tolerance=1e-3,
    )


def setup_convheavy(pb, source, cp):
    w, h, k, aw = pb["W"], pb["H"], pb["K"], pb["AW"]
    a, f = uniform(1, (h + k - 1) * aw), uniform(2, k * k)
    c = np.zeros(w * h, dtype=np.float32)
    opts = ("-std=c++17", f"-DFS={k}")  # FS is the space's `let FS = K`
    ref = cp.RawModule(code=source, options=opts).get_function("convheavy_naive")
    dc = cp.zeros(w * h, dtype=cp.float32)
    ref(((w + 31) // 32, (h + 7) // 8), (32, 8),
        (cp.asarray(a), cp.asarray(f), dc, np.int32(w), np.int32(h), np.int32(aw)))
    return dict(
        kernel_name="convheavy",
        problem_size=(w, h),
        arguments=[a, c, np.int32(w), np.int32(aw)],
        answer=[None, cp.asnumpy(dc), None, None],
        grid_div_x=["BX", "TX"],
        grid_div_y=["BY", "TY"],
        block_size_names=["BX", "BY"],
        compiler_options=list(opts),
        cmem_args={"cF": f},
        tolerance=1e-4,
    )


KINDS = {"matmul": setup_matmul, "convheavy": setup_convheavy}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gsearch", required=True)
    ap.add_argument("--space", required=True)
    ap.add_argument("--kind", required=True, choices=sorted(KINDS))
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--out", required=True)
    o = ap.parse_args()

    import cupy as cp
    import kernel_tuner
    from importlib.metadata import version

    pb = problems(o)
    names, configs = configurations(o)
    with open(kernel_file(o.space)) as f:
        source = f.read()
    s = KINDS[o.kind](pb, source, cp)
    cp.cuda.Device(0).synchronize()

    tune_params = {n: list(dict.fromkeys(c[n] for c in configs)) for n in names}
    valid = {tuple(c[n] for n in names) for c in configs}

    # gsearch's validation rule; the verdict reaches the result through a
    # metric, which Kernel Tuner computes right after the same configuration
    tol = s["tolerance"]
    verdict = {"last": None}

    def verify(answer, result, atol=None):
        good = True
        for ref, out in zip(answer, result):
            if ref is None:
                continue
            out = np.asarray(out).reshape(ref.shape)
            bad = np.abs(out - ref) > tol * np.maximum(1.0, np.abs(ref))
            bad &= ~(np.isnan(out) & np.isnan(ref))
            bad |= np.isnan(out) != np.isnan(ref)
            good = good and not bad.any()
        verdict["last"] = good
        return True

    def wrong_metric(p):
        w = verdict["last"] is False
        verdict["last"] = None
        return 1 if w else 0

    # a plain function, not a lambda: Kernel Tuner 1.5 rewrites lambdas
    # from their source text into expressions, which this one is not
    def restrict(p):
        return tuple(p[n] for n in names) in valid

    t0 = time.perf_counter()
    results, _env = kernel_tuner.tune_kernel(
        s["kernel_name"], source, s["problem_size"], s["arguments"], tune_params,
        grid_div_x=s["grid_div_x"], grid_div_y=s["grid_div_y"],
        block_size_names=s["block_size_names"],
        restrictions=restrict,
        answer=s["answer"], verify=verify, cmem_args=s["cmem_args"],
        lang="CUPY", compiler_options=s["compiler_options"], iterations=7,
        strategy="brute_force", cache=None, metrics={"wrong": wrong_metric}, quiet=True)
    wall = time.perf_counter() - t0

    out, wrong = [], 0
    for r in results:
        params = {n: r[n].item() if hasattr(r[n], "item") else r[n] for n in names}
        t = r.get("time")
        err = r.get("__error__")
        ok = err is None and isinstance(t, (int, float)) and not r.get("wrong")
        wrong += bool(r.get("wrong"))
        out.append({"params": params, "ok": ok, "time_ms": float(t) if ok else None,
                    "error": None if ok else ("wrong" if r.get("wrong") else str(err or t))})
    with open(o.out, "w") as f:
        json.dump({"wall_s": wall, "kt_version": version("kernel_tuner"), "configs": len(configs),
                   "wrong": wrong, "results": out}, f, indent=1)
    print(f"kt_tune: {o.kind} {' '.join(o.set)}: {len(out)} configurations "
          f"({len(configs)} in gsearch's list), {sum(r['ok'] for r in out)} ok, {wrong} wrong, "
          f"tune_kernel {wall:.2f} s, Kernel Tuner {version('kernel_tuner')}")


if __name__ == "__main__":
    main()
