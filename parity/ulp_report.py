"""ULP distance of ref_map.py (Eigen order, and plain sequential order) from
TF's recorded outputs in a golden file. Needs numpy only, no TensorFlow.

  python3 ulp_report.py ../testdata/parity/map_tfr-0.5.5.jsonl.gz

The "sequential" column is the "before" histogram of issue 3: what a port
that sums left to right would get against TF.
"""

import gzip
import json
import os
import sys
from collections import Counter

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref_map  # noqa: E402

F32 = np.float32
BUCKETS = ["0", "1", "2", "3-4", "5-16", "17-256", ">256", "nan-mismatch"]


def dec(v):
    if isinstance(v, str):
        return {"NaN": F32(np.nan), "Infinity": F32(np.inf), "-Infinity": F32(-np.inf)}[v]
    return F32(v)


def ordered(x):
    i = int(np.array(x, F32).view(np.int32))
    return i if i >= 0 else -(i & 0x7FFFFFFF)


def ulps(a, b):
    a, b = F32(a), F32(b)
    if np.isnan(a) or np.isnan(b):
        return 0 if (np.isnan(a) and np.isnan(b)) else None
    return abs(ordered(a) - ordered(b))


def bucket(d):
    if d is None:
        return "nan-mismatch"
    for name, hi in (("0", 0), ("1", 1), ("2", 2), ("3-4", 4), ("5-16", 16), ("17-256", 256)):
        if d <= hi:
            return name
    return ">256"


def main():
    np.seterr(invalid="ignore", over="ignore", divide="ignore")
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "testdata", "parity", "map_tfr-0.5.5.jsonl.gz")
    opener = gzip.open if path.endswith(".gz") else open
    hist = {o: {k: Counter() for k in ("result", "per_list", "list_weights")} for o in ("eigen", "sequential")}
    n = 0
    with opener(path, "rt") as f:
        for line in f:
            c = json.loads(line)
            ex = c["expect"]
            if "error" in ex or ex.get("tie"):
                continue
            n += 1
            for order in ("eigen", "sequential"):
                r, per, lws = ref_map.run(c, order=order)
                h = hist[order]
                h["result"][bucket(ulps(r, dec(ex["result"])))] += 1
                for got, want in zip(per, ex["per_list"]):
                    for a, b in zip(got, want):
                        h["per_list"][bucket(ulps(a, dec(b)))] += 1
                for got, want in zip(lws, ex["list_weights"]):
                    for a, b in zip(got, want):
                        h["list_weights"][bucket(ulps(a, dec(b)))] += 1
    print("%d exact cases from %s" % (n, path))
    for order in ("eigen", "sequential"):
        print("order=%s" % order)
        for k, h in hist[order].items():
            print("  %-13s " % k + "  ".join("%s:%d" % (b, h[b]) for b in BUCKETS if h[b]))


if __name__ == "__main__":
    main()
