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
import statsmodels
from scipy import optimize, special, stats
from statsmodels.stats.power import TTestPower

SAMPLES = 10000
ALPHA = 0.05
POWER = 0.8
# BCa: scipy is run BCA_RUNS times with SAMPLES resamples each; the mean of
# the bounds is the reference and their standard deviation the Monte Carlo
# error of one run (ours draws SAMPLES resamples too).
BCA_RUNS = 10
RISK_ALPHA = 1.0


def t_interval(x):
    n = len(x)
    sem = np.std(x, ddof=1) / math.sqrt(n)
    lo, hi = stats.t.interval(1 - ALPHA, n - 1, loc=np.mean(x), scale=sem)
    return {"low": float(lo), "high": float(hi)}


def bca_case(rng, x):
    lows, highs = [], []
    for _ in range(BCA_RUNS):
        r = stats.bootstrap((x,), np.mean, confidence_level=1 - ALPHA,
                            n_resamples=SAMPLES, method="BCa",
                            vectorized=True, random_state=rng, batch=2000)
        lows.append(r.confidence_interval.low)
        highs.append(r.confidence_interval.high)
    return {"low": float(np.mean(lows)), "high": float(np.mean(highs)),
            "sd_low": float(np.std(lows, ddof=1)),
            "sd_high": float(np.std(highs, ddof=1)),
            "standard_error": float(np.std(x, ddof=1) / math.sqrt(len(x))),
            "runs": BCA_RUNS}


def ncp_for(t, df, p):
    """The noncentrality whose nct puts t at its p-quantile (brentq)."""
    f = lambda l: stats.nct.cdf(t, df, l) - p
    step = 1 + abs(t) / 4
    lo, hi = t - step, t + step
    while f(lo) < 0:
        lo -= step
    while f(hi) > 0:
        hi += step
    return optimize.brentq(f, lo, hi, xtol=1e-14, rtol=1e-15, maxiter=500)


def effect_case(d):
    n = len(d)
    dz = float(np.mean(d) / np.std(d, ddof=1))
    t = dz * math.sqrt(n)
    df = n - 1
    lo = ncp_for(t, df, 1 - ALPHA / 2) / math.sqrt(n)
    hi = ncp_for(t, df, ALPHA / 2) / math.sqrt(n)
    j = math.exp(special.gammaln(df / 2) - special.gammaln((df - 1) / 2)
                 - 0.5 * math.log(df / 2))
    return {"dz": dz, "dz_low": lo, "dz_high": hi,
            "gz": j * dz, "gz_low": j * lo, "gz_high": j * hi}


def power_ref(effect, nobs):
    """statsmodels' TTestPower().power, two-sided. Where it is NaN (Boost's
    nctdtr in scipy >= 1.15 gives NaN for a cdf that underflows, far in
    the tail of a large noncentrality), the same formula on scipy.stats.nct
    with that term 0."""
    p = float(TTestPower().power(effect_size=effect, nobs=nobs, alpha=ALPHA))
    if math.isfinite(p):
        return p, "statsmodels"
    df = nobs - 1
    tc = stats.t.isf(ALPHA / 2, df)
    nc = effect * math.sqrt(nobs)
    up, low = stats.nct.sf(tc, df, nc), stats.nct.cdf(-tc, df, nc)
    up = 1.0 if not math.isfinite(up) and nc > 0 else (0.0 if not math.isfinite(up) else up)
    low = 0.0 if not math.isfinite(low) else low
    return float(up + low), "scipy.stats.nct"


def topics_case(effect, power):
    """statsmodels' solve_power (brentq_expanding, xtol 1e-5) rounded up,
    and the real n solved to 1e-12 on statsmodels' own power function."""
    tp = TTestPower()
    sm = float(tp.solve_power(effect_size=effect, nobs=None, alpha=ALPHA,
                              power=power))
    if not math.isfinite(sm):
        # statsmodels found no n (an effect so large that the power is
        # reached below n = 2): nothing to compare with
        return None
    f = lambda n: power_ref(effect, n)[0] - power
    hi = 2.0
    while f(hi) < 0:
        hi *= 2
    exact = optimize.brentq(f, max(1 + 1e-9, hi / 2 if hi > 2 else 1 + 1e-9),
                            hi, xtol=1e-13, rtol=1e-15, maxiter=500)
    return {"effect": effect, "power": power, "alpha": ALPHA,
            "nobs": exact, "statsmodels": sm, "topics": math.ceil(sm)}


def risk_case(d):
    """URisk and TRisk written out in numpy (Dincer et al. 2014)."""
    r = np.where(d < 0, (1 + RISK_ALPHA) * d, d)
    u = float(np.mean(r))
    sd = float(np.std(r, ddof=1))
    return {"urisk": u, "trisk": u / (sd / math.sqrt(len(r)))}


def nct_grid(rng):
    out = []
    for df in (1, 2, 3.5, 5, 10, 29, 49, 99, 299, 999, 2000, 5000):
        for ncp in (-40, -25, -12, -3, -1, -0.2, 0.3, 1, 2.5, 5, 10, 25, 33, 40, 45):
            # t around the bulk: the spread of T is about
            # sqrt(1 + ncp^2 / (2 df)) for large df
            sd = math.sqrt(1 + ncp * ncp / (2 * df))
            for _ in range(3):
                t = float(ncp + rng.normal(0, 2.5) * sd)
                cdf = float(stats.nct.cdf(t, df, ncp))
                sf = float(stats.nct.sf(t, df, ncp))
                # both tails above 1e-6: Boost computes some tails as 1
                # minus the other (t < 0 < ncp), good to about 1e-16
                # absolute only, 4e-9 relative at 5e-8 (nct_mpmath.py
                # checks the small tails against 60 digits)
                if min(cdf, sf) >= 1e-6:
                    out.append({"t": t, "df": df, "ncp": ncp, "cdf": cdf, "sf": sf})
    return out


def power_grid(rng):
    tp = TTestPower()
    pw, tn = [], []
    for _ in range(60):
        e = float(rng.choice([-1, 1]) * 10 ** rng.uniform(-1.7, 0.6))
        n = float(rng.integers(2, 3000)) if rng.random() < 0.8 else float(rng.uniform(1.5, 60))
        p, src = power_ref(e, n)
        pw.append({"effect": e, "nobs": n, "alpha": ALPHA, "power": p, "source": src})
    for _ in range(40):
        e = float(rng.choice([-1, 1]) * 10 ** rng.uniform(-1.7, 0.6))
        p = float(rng.uniform(0.5, 0.95))
        tc = topics_case(e, p)
        if tc is not None:
            tn.append(tc)
    return pw, tn


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
                     "statsmodels": statsmodels.__version__,
                     "python": sys.version.split()[0]},
        "seed": args.seed, "samples": SAMPLES, "alpha": ALPHA,
        "power": POWER, "risk_alpha": RISK_ALPHA, "cases": [],
    }
    out["nct"] = nct_grid(rng)
    out["power_grid"], out["topics_grid"] = power_grid(rng)
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
        if n >= 2 and np.any(b != b[0]):
            c["t_interval"] = t_interval(b)
        if n >= 5 and np.any(b != b[0]):
            c["bca"] = bca_case(rng, b)
        if n >= 3 and np.any(d != d[0]):
            c["effect"] = effect_case(d)
            c["power"] = power_ref(c["effect"]["dz"], n)[0]
            if c["effect"]["dz"] != 0 and abs(c["effect"]["dz"]) > 0.02:
                tc = topics_case(c["effect"]["dz"], POWER)
                if tc is not None:
                    c["topics"] = tc
        if n >= 2 and np.any(d != d[0]):
            c["risk"] = risk_case(d)
        out["cases"].append(c)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"{len(out['cases'])} cases -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
