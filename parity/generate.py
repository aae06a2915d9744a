"""Draws seeded random MAP cases and runs them through the REAL TF-Ranking.

Writes one JSON object per line (gzip if the name ends in .gz): the `compute`
input format of issue 2 plus "tags" and "expect" (TF's outputs). See README.md
for the format and the NaN/Inf encoding.

  .venv/bin/python generate.py --exact 10000 --ties 300 --seed 1 \
      --out ../testdata/parity/map_tfr-0.5.5.jsonl.gz

Every exact case is also run through ref_map.py (a numpy float32 restatement
with Eigen's summation order); the closing summary counts how many agree with
TF bit for bit.
"""

import argparse
import gzip
import io
import itertools
import json
import math
import os
import sys
import time
from fractions import Fraction

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eigen_sum as es  # noqa: E402
import ref_map  # noqa: E402

F32 = np.float32
TOPN_CHOICES = [None, 0, 1, 5, 10, "L", "L+3"]
TOPN_P = [0.24, 0.05, 0.12, 0.15, 0.14, 0.15, 0.15]


# ---------------------------------------------------------------- encoding

def enc(v):
    """A float32 value as a JSON value: a number whose decimal text is the exact
    value (Python's repr of the float64 holding it), or one of the strings
    "NaN", "Infinity", "-Infinity"."""
    v = float(F32(v))
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    if v == int(v) and abs(v) < 2 ** 24 and not (v == 0 and math.copysign(1, v) < 0):
        return int(v)
    return v


def dec(v):
    if isinstance(v, str):
        return {"NaN": F32(np.nan), "Infinity": F32(np.inf), "-Infinity": F32(-np.inf)}[v]
    return F32(v)


def short_decimal(x, digits=3):
    """x rounded to `digits` significant decimal digits, as a Python float whose
    repr is that short decimal. Such a decimal rounds to the same float32
    whether it is parsed straight to float32 or to float64 first."""
    return float("%.*g" % (digits, x))


def f32_round_direct(s):
    """Correctly rounded float32 of the decimal string s (ties to even)."""
    q = Fraction(s)
    f = F32(float(q))  # a candidate; check it and its neighbours exactly
    best = None
    for c in (np.nextafter(f, F32(-np.inf)), f, np.nextafter(f, F32(np.inf))):
        if not np.isfinite(c):
            continue
        d = abs(Fraction(float(c)) - q)
        key = (d, int(np.array(c, F32).view(np.uint32)) & 1)
        if best is None or key < best[0]:
            best = (key, c)
    return best[1]


# ---------------------------------------------------------------- drawing

def draw_size(rng):
    r = rng.random()
    if r < 0.58:
        return int(rng.integers(1, 5)), int(rng.integers(1, 9)), "tiny"
    if r < 0.90:
        return int(rng.integers(1, 9)), int(rng.integers(2, 25)), "small"
    if r < 0.975:
        return int(rng.integers(2, 11)), int(rng.integers(20, 61)), "medium"
    if r < 0.988:
        return int(rng.integers(1, 4)), int(rng.integers(150, 301)), "long"
    if r < 0.9995:
        return int(rng.integers(64, 129)), int(rng.integers(1, 11)), "wide"
    return 128, int(rng.integers(250, 301)), "huge"


def draw_labels(rng, n, style, ragged):
    if style == "binary":
        p = rng.uniform(0.05, 0.6)
        lab = (rng.random(n) < p).astype(float)
    elif style == "graded":
        lab = rng.choice([0.0, 1.0, 2.0, 3.0, 4.0], size=n, p=[0.5, 0.2, 0.15, 0.1, 0.05])
    else:  # special: graded plus -1, 0.5 and NaN
        lab = rng.choice([0.0, 1.0, 2.0, 3.0, 4.0, -1.0, 0.5, np.nan], size=n,
                         p=[0.36, 0.18, 0.1, 0.06, 0.05, 0.1, 0.08, 0.07])
    r = rng.random()
    if r < 0.08:  # a list with no relevant item
        lab = rng.choice([0.0, 0.5, -1.0], size=n, p=[0.7, 0.2, 0.1])
    elif r < 0.12 and not ragged:  # a fully invalid dense list
        lab = rng.choice([-1.0, np.nan, -2.0], size=n, p=[0.6, 0.3, 0.1])
    return [float(v) for v in lab]


def draw_weight(rng, allow_bad=True):
    r = rng.random()
    if allow_bad and r < 0.05:
        return 0.0
    if allow_bad and r < 0.08:
        return -short_decimal(rng.uniform(0.1, 3))
    if r < 0.2:
        return float(rng.integers(1, 5))
    return short_decimal(float(np.exp(rng.uniform(np.log(0.01), np.log(20)))), int(rng.integers(1, 5)))


def draw_scores(rng, n, style):
    if style == "f32":
        while True:
            s = (rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3)).astype(F32)
            s = es.flush(s)
            if len(np.unique(np.where(s == 0, F32(0), s))) == n:
                return [float(v) for v in s]
    r = max(2 * n, 10)
    s = (rng.choice(2 * r + 1, size=n, replace=False) - r).astype(float)
    if style == "inf" and n >= 1:
        j = rng.permutation(n)
        if rng.random() < 0.7:
            s[j[0]] = np.inf
        if n >= 2 and rng.random() < 0.7:
            s[j[1]] = -np.inf
    return [float(v) for v in s]


def jsonify(x):
    return [[enc(v) if not isinstance(v, str) else v for v in row] for row in x]


def draw_update(rng, b, width, ragged, wmode, lstyle, sstyle, special):
    if ragged:
        lens = []
        for _ in range(b):
            if rng.random() < 0.08:
                lens.append(0)  # fully padded row
            else:
                lens.append(int(rng.integers(max(1, width // 3), width + 1)))
    else:
        lens = [width] * b
    labels, preds, weights = [], [], []
    for n in lens:
        labels.append(draw_labels(rng, n, lstyle, ragged))
        preds.append(draw_scores(rng, n, sstyle))
    if wmode == "item":
        for n in lens:
            weights.append([draw_weight(rng) for _ in range(n)])
    elif wmode == "list":
        weights = [[draw_weight(rng)] for _ in lens]
    if special and wmode != "none":
        flat = [(i, j) for i, row in enumerate(weights) for j in range(len(row))]
        if flat:
            for _ in range(int(rng.integers(1, 3))):
                i, j = flat[int(rng.integers(len(flat)))]
                if special == "subnormal":
                    weights[i][j] = float(F32(rng.uniform(0.01, 1.0) * 2.0 ** -126))
                elif special == "nan_weight":
                    weights[i][j] = float("nan")
                elif special == "inf_weight":
                    weights[i][j] = float(rng.choice([np.inf, -np.inf]))
    up = {"labels": jsonify(labels), "predictions": jsonify(preds),
          "weights": jsonify(weights) if wmode != "none" else None}
    return up


def resolve_topn(choice, width):
    if choice == "L":
        return width
    if choice == "L+3":
        return width + 3
    return choice


def draw_exact_case(rng, cid, seed, special=None):
    """A tie-free case. special "nan_weight" or "inf_weight" plants non-finite
    weights (then top-n is None, so every slot counts whatever the order of the
    invalid items); otherwise about 0.4% of the cases with weights get
    subnormal ones."""
    b, width, size = draw_size(rng)
    ragged = bool(rng.random() < 0.35)
    n_up = 1 if rng.random() < 0.78 else int(rng.integers(2, 5))
    wmode = str(rng.choice(["none", "item", "list"], p=[0.32, 0.43, 0.25]))
    lstyle = str(rng.choice(["binary", "graded", "special"], p=[0.3, 0.35, 0.35]))
    sstyle = str(rng.choice(["int", "f32", "inf"], p=[0.8, 0.08, 0.12]))
    if size in ("huge", "long", "wide", "medium") and sstyle == "f32":
        sstyle = "int"  # keep the file small
    if size == "huge" and wmode == "item":
        wmode = "list"
    if special is None and wmode != "none" and rng.random() < 0.004:
        special = "subnormal"
    if special in ("nan_weight", "inf_weight") and wmode == "none":
        wmode = "item"
    topn_choice = TOPN_CHOICES[int(rng.choice(len(TOPN_CHOICES), p=TOPN_P))]
    if special in ("nan_weight", "inf_weight"):
        topn_choice = None  # every slot inside top-n: no dependence on the order of invalid items
    updates = []
    for u in range(n_up):
        if u == 0:
            bu, wu = b, width
        else:
            bu = max(1, int(rng.integers(max(1, b // 2), b + 1)))
            wu = max(1, int(rng.integers(max(1, width // 2), width + 1)))
        updates.append(draw_update(rng, bu, wu, ragged, wmode, lstyle, sstyle, special))
    first_width = max([len(r) for r in updates[0]["labels"]] + [0])
    topn = resolve_topn(topn_choice, first_width)
    tags = [size, "ragged" if ragged else "dense", "w_" + wmode, "labels_" + lstyle, "scores_" + sstyle]
    if n_up > 1:
        tags.append("multi_update")
    if special:
        tags.append(special)
    if isinstance(topn_choice, str):
        tags.append("topn_" + topn_choice)
    return {"id": cid, "metric": "map", "topn": topn, "ragged": ragged, "dtype": "float32",
            "ties": "stable", "seed": seed, "updates": updates, "tags": tags}


def draw_edge_cases(rng, seed0):
    """Hand-shaped cases: zero-width lists, all-empty ragged rows, top-n 0,
    negative top-n and shape errors."""
    out = []

    def add(name, topn, ragged, updates, tags):
        out.append({"id": "edge-%s" % name, "metric": "map", "topn": topn, "ragged": ragged,
                    "dtype": "float32", "ties": "stable", "seed": seed0 + len(out),
                    "updates": updates, "tags": ["edge"] + tags})

    add("dense-zero-width", None, False, [{"labels": [[], []], "predictions": [[], []], "weights": None}], ["zero_width"])
    add("ragged-all-empty", None, True, [{"labels": [[], [], []], "predictions": [[], [], []], "weights": None}], ["empty_rows"])
    add("ragged-all-empty-listw", 5, True, [{"labels": [[], []], "predictions": [[], []], "weights": [[2.0], [0.5]]}], ["empty_rows"])
    add("ragged-some-empty", None, True, [{"labels": [[1, 0], [], [0, 2, 1]], "predictions": [[1, 2], [], [3, 1, 2]], "weights": None}], ["empty_rows"])
    add("ragged-some-empty-itemw", 2, True, [{"labels": [[1, 0], [], [0, 2, 1]], "predictions": [[1, 2], [], [3, 1, 2]], "weights": [[0.5, 2.0], [], [1.5, 0.25, 3.0]]}], ["empty_rows"])
    add("ragged-neg-label", None, True, [{"labels": [[-1, 1, 0], [1, -1]], "predictions": [[3, 2, 1], [1, 2]], "weights": None}], ["ragged_negative_label"])
    add("ragged-nan-label", None, True, [{"labels": [["NaN", 1, 0], [1, "NaN"]], "predictions": [[3, 2, 1], [1, 2]], "weights": None}], ["ragged_nan_label"])
    add("topn0", 0, False, [{"labels": [[1, 0, 1], [0, 1, 0]], "predictions": [[1, 2, 3], [3, 2, 1]], "weights": None}], ["topn0"])
    add("topn0-ragged", 0, True, [{"labels": [[1, 0, 1], [0, 1]], "predictions": [[1, 2, 3], [3, 2]], "weights": [[1.5], [0.5]]}], ["topn0"])
    add("all-invalid-dense", None, False, [{"labels": [[-1, "NaN", -1], [-1, -1, -1]], "predictions": [[1, 2, 3], [3, 2, 1]], "weights": None}], ["all_invalid"])
    add("all-zero-weights", None, False, [{"labels": [[1, 0, 1], [0, 1, 0]], "predictions": [[1, 2, 3], [3, 2, 1]], "weights": [[0, 0, 0], [0, 0, 0]]}], ["all_invalid"])
    add("all-negative-listw", None, False, [{"labels": [[1, 0, 1], [0, 1, 0]], "predictions": [[1, 2, 3], [3, 2, 1]], "weights": [[-1], [-0.5]]}], ["all_invalid"])
    add("no-relevant-anywhere", 2, False, [{"labels": [[0, 0.5, 0], [0, 0, 0]], "predictions": [[1, 2, 3], [3, 2, 1]], "weights": [[2, 1, 3], [0.5, 0.5, 1]]}], ["no_relevant"])
    add("inf-scores", None, False, [{"labels": [[1, 0, 1, 0], [0, 1, 0, 1]], "predictions": [["Infinity", 2, "-Infinity", 1], ["-Infinity", 0, "Infinity", 5]], "weights": None}], ["inf_score"])
    add("inf-scores-invalid", 2, False, [{"labels": [[-1, 0, 1, 0], [0, 1, -1, 1]], "predictions": [["Infinity", 2, "-Infinity", 1], ["-Infinity", 0, "Infinity", 5]], "weights": None}], ["inf_score"])
    add("neg-topn", -1, False, [{"labels": [[1, 0]], "predictions": [[1, 2]], "weights": None}], ["error", "negative_topn"])
    add("shape-mismatch", None, False, [{"labels": [[1, 0, 1]], "predictions": [[1, 2]], "weights": None}], ["error", "shape"])
    add("weight-shape-mismatch", None, False, [{"labels": [[1, 0, 1], [0, 1, 1]], "predictions": [[1, 2, 3], [3, 2, 1]], "weights": [[1, 2], [1, 2]]}], ["error", "shape"])
    add("batch-mismatch", None, False, [{"labels": [[1, 0, 1], [0, 1, 1]], "predictions": [[1, 2, 3]], "weights": None}], ["error", "shape"])
    return out


# ---------------------------------------------------------------- ties

def tie_groups(update, ragged):
    """Per list: groups (index lists) of VALID items with equal float32 scores."""
    lab, pred, ew, mask = ref_map.densify(update, ragged)
    p = es.flush(pred)
    groups = []
    for i in range(lab.shape[0]):
        by = {}
        for j in range(lab.shape[1]):
            if mask[i, j]:
                key = 0.0 if p[i, j] == 0 else float(p[i, j])
                by.setdefault(key, []).append(j)
        groups.append([g for g in by.values() if len(g) > 1])
    return groups, lab.shape


def enumerate_support(case, limit=720):
    """Exact distribution of the float32 result over every tie order, from
    ref_map. Returns {bits: (value, prob)} or None when there are too many orders."""
    per_update = []
    n_orders = 1
    for upd in case["updates"]:
        groups, shape = tie_groups(upd, case["ragged"])
        per_update.append((groups, shape))
        for gl in groups:
            for g in gl:
                n_orders *= math.factorial(len(g))
    if n_orders > limit:
        return None
    # all (update, list, group) slots and their permutations
    slots = []
    for u, (groups, shape) in enumerate(per_update):
        for i, gl in enumerate(groups):
            for g in gl:
                slots.append((u, i, g))
    dist = {}
    for perms in itertools.product(*[list(itertools.permutations(g)) for (_, _, g) in slots]):
        ranks = [np.zeros(shape, np.int64) for (_, shape) in per_update]
        for (u, i, g), perm in zip(slots, perms):
            for pos, j in enumerate(perm):
                ranks[u][i, j] = pos
        res, _, _ = ref_map.run(case, ranks)
        key = int(np.array(res, F32).view(np.uint32))
        v, pr = dist.get(key, (res, 0))
        dist[key] = (v, pr + 1.0 / n_orders)
    return dist


def draw_tie_case(rng, cid, seed):
    b = int(rng.integers(1, 5))
    width = int(rng.integers(2, 11))
    ragged = bool(rng.random() < 0.3)
    wmode = str(rng.choice(["none", "item", "list"], p=[0.4, 0.4, 0.2]))
    n_up = 1 if rng.random() < 0.85 else 2
    updates = []
    for u in range(n_up):
        up = draw_update(rng, b, width, ragged, wmode, "binary" if rng.random() < 0.5 else "graded", "int", None)
        # make 1-2 tie groups per list by copying scores
        for row in up["predictions"]:
            n = len(row)
            if n < 2:
                continue
            for _ in range(int(rng.integers(1, 3))):
                size = int(rng.integers(2, min(4, n) + 1))
                idx = rng.choice(n, size=size, replace=False)
                for j in idx[1:]:
                    row[int(j)] = row[int(idx[0])]
        updates.append(up)
    first_width = max([len(r) for r in updates[0]["labels"]] + [0])
    topn_choice = [None, 1, 2, 3, 5, "L"][int(rng.integers(6))]
    topn = resolve_topn(topn_choice, first_width)
    return {"id": cid, "metric": "map", "topn": topn, "ragged": ragged, "dtype": "float32",
            "ties": "random", "seed": seed, "updates": updates,
            "tags": ["tie", "ragged" if ragged else "dense", "w_" + wmode] + (["multi_update"] if n_up > 1 else [])}


def draw_nan_score_case(rng, cid, seed):
    c = draw_exact_case(rng, cid, seed)
    c["ties"] = "random"
    for up in c["updates"]:
        rows = [r for r in up["predictions"] if r]
        if not rows:
            rows = None
        if rows:
            r = rows[int(rng.integers(len(rows)))]
            r[int(rng.integers(len(r)))] = "NaN"
    c["tags"] = ["nan_score"] + c["tags"]
    return c


# ---------------------------------------------------------------- TF

class TF:
    def __init__(self):
        import tensorflow as tf
        import tensorflow_ranking as tfr
        self.tf = tf
        self.tfr = tfr
        self.pool = {}

    def metric(self, topn, ragged, slot=0):
        key = (topn, ragged, slot)
        m = self.pool.get(key)
        if m is None:
            m = self.tfr.keras.metrics.MeanAveragePrecisionMetric(topn=topn, ragged=ragged)
            self.pool[key] = m
        m.reset_state()
        return m

    def tensors(self, upd, ragged):
        tf = self.tf
        lab = [[dec(v) for v in r] for r in upd["labels"]]
        pred = [[dec(v) for v in r] for r in upd["predictions"]]
        w = upd.get("weights")
        if w is not None:
            w = [[dec(v) for v in r] for r in w]
        if not ragged:
            def dense(rows):
                width = {len(r) for r in rows}
                if len(width) != 1:
                    raise ValueError("rows of unequal length in a dense update")
                return np.array(rows, dtype=F32).reshape(len(rows), width.pop())
            y, p = dense(lab), dense(pred)
            if w is not None:
                w = dense(w)
            return y, p, w
        lens = [len(r) for r in lab]

        def rag(rows):
            flat = np.array([v for r in rows for v in r], dtype=F32)
            return tf.RaggedTensor.from_row_lengths(flat, [len(r) for r in rows])
        y, p = rag(lab), rag(pred)
        if w is not None:
            if all(len(wr) == n for wr, n in zip(w, lens)):
                w = rag(w)
            else:
                w = np.array(w, dtype=F32).reshape(len(w), 1)
        return y, p, w

    def run_exact(self, case, merge=True):
        topn, ragged = case["topn"], case["ragged"]
        try:
            m = self.metric(topn, ragged)
            per, lws = [], []
            inputs = [self.tensors(u, ragged) for u in case["updates"]]
            for y, p, w in inputs:
                v, lw = m._metric.compute(y, p, w)
                per.append([enc(x) for x in v.numpy().reshape(-1)])
                lws.append([enc(x) for x in lw.numpy().reshape(-1)])
                m.update_state(y, p, sample_weight=w)
            res = F32(m.result().numpy())
            out = {"result": enc(res), "per_list": per, "list_weights": lws}
            if merge and len(inputs) > 1:
                ms = []
                for s, (y, p, w) in enumerate(inputs):
                    ms.append(self.metric(topn, ragged, slot=s + 1))
                    ms[-1].update_state(y, p, sample_weight=w)
                ms[0].merge_state(ms[1:])
                out["merged_result"] = enc(F32(ms[0].result().numpy()))
            return out, res
        except Exception as e:  # noqa: BLE001 - TF raises many types
            msg = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip() else "")
            return {"error": msg[:300]}, None

    def run_seeds(self, case, n_seeds):
        topn, ragged = case["topn"], case["ragged"]
        m = self.metric(topn, ragged)
        inputs = [self.tensors(u, ragged) for u in case["updates"]]
        vals = []
        for s in range(n_seeds):
            self.tf.random.set_seed(s)
            m.reset_state()
            for y, p, w in inputs:
                m.update_state(y, p, sample_weight=w)
            vals.append(F32(m.result().numpy()))
        return vals


def summarize_seeds(vals):
    arr = np.array(vals, dtype=np.float64)
    finite = arr[np.isfinite(arr)] if np.isnan(arr).any() else arr
    distinct = sorted({int(np.array(v, F32).view(np.uint32)): v for v in vals}.values(),
                      key=lambda v: (math.isnan(float(v)), float(v) if not math.isnan(float(v)) else 0))
    n = len(arr)
    mean = float(finite.mean()) if finite.size else float("nan")
    stderr = float(finite.std(ddof=1) / math.sqrt(finite.size)) if finite.size > 1 else 0.0
    return {"tie": True, "n_seeds": n, "mean": mean if not math.isnan(mean) else "NaN",
            "stderr": stderr, "values": [enc(v) for v in distinct],
            "n_nan": int(np.isnan(arr).sum())}


# ---------------------------------------------------------------- main

def bits_eq(a, b):
    a = np.asarray(a, F32)
    b = np.asarray(b, F32)
    return a.shape == b.shape and bool((a.view(np.uint32) == b.view(np.uint32)).all() or
                                       (np.isnan(a) & np.isnan(b) | (a.view(np.uint32) == b.view(np.uint32))).all())


def check_inputs(case):
    """Every non-integer input decimal must round to float32 identically
    whether parsed to float32 directly or via float64."""
    for u in case["updates"]:
        for key in ("labels", "predictions", "weights"):
            rows = u.get(key) or []
            for r in rows:
                for v in r:
                    if isinstance(v, float) and math.isfinite(v) and v != int(v):
                        s = repr(v)
                        a = F32(float(s))
                        b = f32_round_direct(s)
                        if a.view(np.uint32) != np.array(b, F32).view(np.uint32):
                            raise AssertionError("double rounding for %s" % s)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exact", type=int, default=10000, help="random tie-free cases")
    ap.add_argument("--ties", type=int, default=300, help="random tie cases (run under many seeds)")
    ap.add_argument("--nan-scores", type=int, default=None, help="cases with NaN scores (default: ties/15)")
    ap.add_argument("--nonfinite-weights", type=int, default=None,
                    help="extra cases with NaN or +-Inf weights (default: exact/250)")
    ap.add_argument("--seeds-per-tie", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-edge", action="store_true", help="leave out the hand-shaped edge cases")
    ap.add_argument("--no-ref", action="store_true", help="skip the ref_map.py cross-check")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    np.seterr(invalid="ignore", over="ignore", divide="ignore")  # Inf - Inf etc. are meant
    n_nan = args.nan_scores if args.nan_scores is not None else max(0, args.ties // 15)
    n_nonfinite = args.nonfinite_weights if args.nonfinite_weights is not None else args.exact // 250

    t0 = time.time()
    # one random stream per kind of case, so that the count of one kind does
    # not change the cases of another
    rng_edge, rng_exact, rng_nonfinite, rng_nan, rng_tie = (np.random.default_rng([args.seed, k]) for k in range(5))
    tfx = TF()
    lines = []
    stats = {"exact": 0, "nonfinite": 0, "exact_error": 0, "ref_equal": 0, "ref_checked": 0, "tie": 0,
             "tie_all_seen": 0, "tie_outside_support": 0, "nan_score": 0, "edge": 0}
    ref_bad = []
    cases = []
    if not args.no_edge:
        cases += [("edge", c) for c in draw_edge_cases(rng_edge, args.seed * 1000003)]
    for i in range(args.exact):
        cases.append(("exact", draw_exact_case(rng_exact, "x%d-%05d" % (args.seed, i), int(rng_exact.integers(2 ** 31)))))
    for i in range(n_nonfinite):
        special = "nan_weight" if i % 2 == 0 else "inf_weight"
        cases.append(("nonfinite", draw_exact_case(rng_nonfinite, "w%d-%03d" % (args.seed, i), int(rng_nonfinite.integers(2 ** 31)), special)))
    for i in range(n_nan):
        cases.append(("nan", draw_nan_score_case(rng_nan, "n%d-%03d" % (args.seed, i), int(rng_nan.integers(2 ** 31)))))
    t_draw = time.time()

    n_tie = 0
    attempts = 0
    while n_tie < args.ties:
        attempts += 1
        c = draw_tie_case(rng_tie, "t%d-%04d" % (args.seed, n_tie), int(rng_tie.integers(2 ** 31)))
        dist = enumerate_support(c)
        if dist is None or len(dist) < 2 or min(p for _, p in dist.values()) < 1.0 / 12:
            continue
        if any(not np.isfinite(v) for v, _ in dist.values()):
            continue
        cases.append(("tie", (c, dist)))
        n_tie += 1

    for done, (kind, c) in enumerate(cases):
        if done % 1000 == 0 or (kind == "tie" and done % 50 == 0):
            print("  %d/%d cases, %.0f s" % (done, len(cases), time.time() - t0), file=sys.stderr, flush=True)
        if kind == "tie":
            c, dist = c
            vals = tfx.run_seeds(c, args.seeds_per_tie)
            ex = summarize_seeds(vals)
            seen = {int(np.array(v, F32).view(np.uint32)) for v in vals}
            outside = seen - set(dist)
            ex["all_support_seen"] = seen == set(dist)
            ex["ref_support"] = [[enc(v), round(p, 12)] for _, (v, p) in sorted(dist.items(), key=lambda kv: float(kv[1][0]))]
            stats["tie"] += 1
            stats["tie_all_seen"] += int(ex["all_support_seen"])
            stats["tie_outside_support"] += int(bool(outside))
            c["expect"] = ex
        elif kind == "nan":
            try:
                c["expect"] = summarize_seeds(tfx.run_seeds(c, args.seeds_per_tie))
            except Exception as e:  # noqa: BLE001
                c["expect"] = {"error": ("%s: %s" % (type(e).__name__, e))[:300]}
            stats["nan_score"] += 1
        else:
            check_inputs(c)
            ex, res = tfx.run_exact(c)
            c["expect"] = ex
            stats[kind] += 1
            if "error" in ex:
                stats["exact_error"] += 1
            elif not args.no_ref:
                stats["ref_checked"] += 1
                r, per, lws = ref_map.run(c)
                ok = bits_eq(r, res) and all(bits_eq(a, [dec(v) for v in b]) for a, b in zip(per, ex["per_list"])) \
                    and all(bits_eq(a, [dec(v) for v in b]) for a, b in zip(lws, ex["list_weights"]))
                stats["ref_equal"] += int(ok)
                if not ok:
                    ref_bad.append(c["id"])
        c["expect"]["tags"] = c.pop("tags")  # compute ignores "expect" only
        lines.append(json.dumps(c, separators=(",", ":"), allow_nan=False))
    t_tf = time.time()

    data = ("\n".join(lines) + "\n").encode()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)) or ".", exist_ok=True)
    if args.out.endswith(".gz"):
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
            gz.write(data)
        data = buf.getvalue()
    with open(args.out, "wb") as f:
        f.write(data)

    print("cases: %d exact, %d edge (TF errors in %d), %d NaN/Inf-weight, %d tie (%d draws), %d NaN-score" % (
        stats["exact"], stats["edge"], stats["exact_error"], stats["nonfinite"], stats["tie"], attempts, stats["nan_score"]), file=sys.stderr)
    if not args.no_ref:
        print("ref_map.py vs TF: %d/%d non-error cases bit-equal (result, per-list values, list weights)" % (
            stats["ref_equal"], stats["ref_checked"]), file=sys.stderr)
        if ref_bad:
            print("ref_map.py disagrees on: %s" % " ".join(ref_bad[:20]), file=sys.stderr)
    print("ties: %d/%d cases saw every outcome of the exact enumeration; %d saw a value outside it" % (
        stats["tie_all_seen"], stats["tie"], stats["tie_outside_support"]), file=sys.stderr)
    print("wrote %s: %d bytes; wall time %.0f s (draw %.0f s, TF+ref %.0f s)" % (
        args.out, len(data), time.time() - t0, t_draw - t0, t_tf - t_draw), file=sys.stderr)
    return 0 if not ref_bad and not stats["tie_outside_support"] else 3


if __name__ == "__main__":
    sys.exit(main())
