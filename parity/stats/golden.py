#!/usr/bin/env python3
"""Golden values of the significance package from scipy.

Generates paired per-query values (continuous, on a coarse grid with ties and
zero differences, small n, and per-query average precision of generated TREC
style runs), runs scipy's tests on them and writes one JSON file:

    parity/stats/.venv/bin/python parity/stats/golden.py --seed 1 \
        --out significance/testdata/scipy_golden.json

The Go test TestScipyGolden checks the package against it. check.sh runs the
same with a fresh seed into a temporary file.
"""
import argparse
import json
import math
import sys

import numpy as np
import scipy
from scipy import stats

SAMPLES = 10000
ALPHA = 0.05


def wilcoxon_case(d):
    nz = d[d != 0]
    n = len(nz)
    if n == 0:
        return None
    ties = len(np.unique(np.abs(nz))) != n
    method = "exact" if n <= 50 and not ties else "approx"
    r = stats.wilcoxon(nz, correction=False, method=method)
    return {"statistic": float(r.statistic), "p": float(r.pvalue), "method": method}


def average_precision(rel, scores):
    order = np.argsort(-scores, kind="stable")
    rel = rel[order]
    nrel = rel.sum()
    if nrel == 0:
        return 0.0
    hits = np.cumsum(rel)
    return float(np.sum(rel * hits / np.arange(1, len(rel) + 1)) / nrel)


def map_pair(rng, n):
    """Per-query AP of two systems on n generated queries: the second one's
    scores are the first's plus noise, so the runs are correlated."""
    a, b = [], []
    for _ in range(n):
        items = int(rng.integers(5, 40))
        rel = (rng.random(items) < rng.uniform(0.05, 0.4)).astype(float)
        base = rel * rng.uniform(0.0, 1.5) + rng.normal(size=items)
        sa = base + 0.5 * rng.normal(size=items)
        sb = base + 0.5 * rng.normal(size=items) + 0.1 * rel
        # round scores so some lists tie and some APs coincide
        a.append(average_precision(rel, np.round(sa, 1)))
        b.append(average_precision(rel, np.round(sb, 1)))
    return np.array(a), np.array(b)


def gen_cases(rng):
    cases = []
    sizes = list(range(2, 16)) + [20, 25, 30, 40, 50, 51, 60, 100, 300, 1000]
    for n in sizes:
        for kind in ("continuous", "grid", "shifted"):
            if kind == "continuous":
                a = rng.random(n)
                b = rng.random(n)
            elif kind == "grid":  # ties and zero differences
                a = np.round(rng.random(n), 1)
                b = np.round(np.clip(a + rng.normal(0.05, 0.2, n), 0, 1), 1)
            else:  # a real effect
                a = rng.random(n)
                b = np.clip(a + rng.normal(0.1, 0.15, n), 0, 1)
            cases.append((f"{kind}-n{n}", a, b))
    for n in (5, 10, 13, 30, 50, 200):
        for k in range(2):
            a, b = map_pair(rng, n)
            cases.append((f"map-n{n}-{k}", a, b))
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    out = {
        "versions": {"scipy": scipy.__version__, "numpy": np.__version__,
                     "python": sys.version.split()[0]},
        "seed": args.seed, "samples": SAMPLES, "alpha": ALPHA, "cases": [],
    }
    for name, a, b in gen_cases(rng):
        d = b - a
        c = {"name": name, "baseline": a.tolist(), "run": b.tolist()}
        n = len(d)
        if n >= 2 and np.any(d != d[0]):
            t = stats.ttest_rel(b, a)
            c["t"] = {"statistic": float(t.statistic), "p": float(t.pvalue)}
        w = wilcoxon_case(d)
        if w is not None:
            c["wilcoxon"] = w
        if np.any(d != 0):
            pt = stats.permutation_test(
                (b, a), lambda x, y, axis: np.mean(x - y, axis=axis),
                permutation_type="samples", vectorized=True,
                n_resamples=SAMPLES, alternative="two-sided",
                random_state=rng)
            exact = 2 ** n <= SAMPLES
            c["randomization"] = {"statistic": float(pt.statistic),
                                  "p": float(pt.pvalue), "exact": exact}
        if n >= 5 and np.any(d != d[0]):
            bs = stats.bootstrap((d,), np.mean, confidence_level=1 - ALPHA,
                                 n_resamples=SAMPLES, method="percentile",
                                 vectorized=True, random_state=rng)
            c["bootstrap"] = {"low": float(bs.confidence_interval.low),
                              "high": float(bs.confidence_interval.high),
                              "standard_error": float(bs.standard_error)}
        out["cases"].append(c)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"{len(out['cases'])} cases -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
