"""ranx's compare statistics on the values comparebench wrote.

    bench/.venv/bin/python bench/py/ranx_compare_peer.py VALUES RUNS QUERIES [--compare N] [--samples S]

Reads the runs x queries float64 values of `go run ./bench/comparebench
-values VALUES`, and times ranx.statistical_tests.compute_statistical_significance
(the step of ranx.compare after evaluation: Fisher's randomization test of every
ordered pair, with n_permutations=S), on the first N runs, after a JIT warm-up.
Prints one JSON line with the wall and CPU seconds (CPU: all threads of the
process).
"""
import argparse
import time

import numpy as np

from common import emit, log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("values")
    ap.add_argument("runs", type=int)
    ap.add_argument("queries", type=int)
    ap.add_argument("--compare", type=int, default=0)
    ap.add_argument("--samples", type=int, default=10000)
    a = ap.parse_args()
    from ranx.statistical_tests import compute_statistical_significance

    vals = np.fromfile(a.values, dtype="<f8").reshape(a.runs, a.queries)
    n = a.compare if 0 < a.compare <= a.runs else a.runs
    names = [f"run_{i}" for i in range(n)]
    scores = {names[i]: {"map": vals[i].copy()} for i in range(n)}
    # JIT warm-up on two tiny runs
    compute_statistical_significance(["a", "b"], {"a": {"map": np.zeros(3)}, "b": {"map": np.ones(3)}},
                                     "fisher", n_permutations=10, max_p=0.05)
    t0, c0 = time.perf_counter(), time.process_time()
    res = compute_statistical_significance(names, scores, "fisher", n_permutations=a.samples, max_p=0.05, random_seed=42)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    sig = sum(1 for v in res.values() if v["map"]["p_value"] <= 0.05)
    emit(peer="ranx", what="compute_statistical_significance fisher (ranx.compare's test step)",
         runs=n, queries=a.queries, samples=a.samples, pairs=n * (n - 1) // 2, seconds=wall,
         cpu_seconds=cpu, significant_raw=sig)
    log("ranx compare done")


if __name__ == "__main__":
    main()
