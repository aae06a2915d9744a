"""Compares `rankmetrics compute` answers with the TF outputs recorded in a
case file. Needs only the Python standard library and numpy.

  python3 compare.py CASES.jsonl[.gz] ANSWERS.jsonl

Rules, per case (by id):
  exact case    result, every per-list value and every list weight float32
                bit-equal to TF (NaN equals NaN; -0 differs from +0);
  TF error      the answer must be an error too;
  tie case      (sent to compute with ties "expected") |result - TF mean|
                <= 4 * TF standard error (at least 1e-6);
  NaN/Inf weights  an error (deliberate), or else TF's bits;
  NaN scores    the answer must be an error (a deliberate difference: TF's
                value is undefined, see README.md), or, when the NaN sits on
                a masked item, one of the values TF gave.
The last line printed is exactly "N passed, M failed".
"""

import gzip
import json
import math
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np

F32 = np.float32
SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "+Infinity": math.inf, "inf": math.inf,
           "-Infinity": -math.inf, "-inf": -math.inf}


def parse_exact(s):
    """Correctly rounded float32 of decimal text s (ties to even)."""
    q = Fraction(s)
    if q == 0:
        return F32(-0.0) if s.strip().startswith("-") else F32(0.0)
    f = F32(float(q))
    best = None
    for c in (np.nextafter(f, F32(-np.inf)), f, np.nextafter(f, F32(np.inf))):
        if not np.isfinite(c):
            continue
        key = (abs(Fraction(float(c)) - q), int(np.array(c, F32).view(np.uint32)) & 1)
        if best is None or key < best[0]:
            best = (key, c)
    return F32(best[1])


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    out = {}
    with opener(path, "rt") as f:
        for line in f:
            line = line.strip()
            if line:
                obj = json.loads(line, parse_float=Decimal)
                out[obj["id"]] = obj
    return out


def val(v):
    """float32 of a JSON value: decimal text is rounded straight to float32
    (no double rounding through float64)."""
    if isinstance(v, str):
        return F32(SPECIAL[v])
    if isinstance(v, Decimal):
        return parse_exact(str(v))
    return F32(v)


def same(a, b):
    a, b = val(a), val(b)
    if np.isnan(a) and np.isnan(b):
        return True
    return np.array(a, F32).view(np.uint32) == np.array(b, F32).view(np.uint32)


def compare(case, ans):
    ex = case["expect"]
    tags = ex.get("tags", []) or case.get("tags", [])
    if ans is None:
        return "no answer"
    if "nan_score" in tags:
        # an error (deliberate difference), or, when the NaN score sits on a
        # masked item and so changes nothing, one of the values TF gave
        if "error" in ans or any(same(ans["result"], v) for v in ex.get("values", [])):
            return None
        return "NaN scores: expected an error or one of TF's values %s, got %s" % (ex.get("values"), ans.get("result"))
    if "nan_weight" in tags or "inf_weight" in tags:
        if "error" in ans:
            return None  # a deliberate difference: NaN/Inf weights are an error
    if "error" in ex:
        return None if "error" in ans else "TF raised (%s) but compute answered %s" % (ex["error"][:80], ans.get("result"))
    if "error" in ans:
        return "compute error: %s" % ans["error"][:200]
    if ex.get("tie"):
        mean, se = float(ex["mean"]), float(ex["stderr"])
        got = float(val(ans["result"]))
        tol = max(4 * se, 1e-6)
        if not abs(got - mean) <= tol:
            return "tie: Expected %.9g, TF mean %.9g +- %.3g (4 stderr = %.3g)" % (got, mean, se, 4 * se)
        return None
    if not same(ans["result"], ex["result"]):
        return "result %r, TF %r" % (float(val(ans["result"])), float(val(ex["result"])))
    for key in ("per_list", "list_weights"):
        got, want = ans.get(key, []), ex[key]
        if len(got) != len(want):
            return "%s: %d updates, TF %d" % (key, len(got), len(want))
        for u, (g, w) in enumerate(zip(got, want)):
            if len(g) != len(w):
                return "%s[%d]: %d lists, TF %d" % (key, u, len(g), len(w))
            for b, (x, y) in enumerate(zip(g, w)):
                if not same(x, y):
                    return "%s[%d][%d] = %r, TF %r" % (key, u, b, float(val(x)), float(val(y)))
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    cases = load(sys.argv[1])
    answers = load(sys.argv[2])
    passed = failed = 0
    shown = 0
    for cid, case in cases.items():
        why = compare(case, answers.get(cid))
        if why is None:
            passed += 1
        else:
            failed += 1
            if shown < 25:
                print("FAIL %s: %s" % (cid, why))
                shown += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
