"""Golden cases of the keras-rs and torchmetrics profiles, made by the real libraries.

Draws seeded batches of lists (graded and binary labels, ties, padding, weights,
scores of every sign) and records, for each metric and cutoff, what
keras-rs 0.4.0 (JAX backend, CPU) and torchmetrics 1.9.0 (CPU torch) compute:
the per-list values, the list weights (keras-rs) and the overall value.

Both libraries order tied items in a way of their own: keras-rs shuffles
them with JAX's generator (whatever shuffle_ties says: it always passes a
mask, and a mask turns the shuffle on), torch's topk and argsort are not
stable. The order each call really used is recorded, by asking the library
for it in the same call, and every list is written with its items in that
order: `rankmetrics` with stable ties then ranks them as the library did.
keras-rs cases also keep the lists as given and the metric's seed: the
Random tie policy with that seed must draw keras-rs' own shuffle.

Usage: python generate.py --seed S --batches N --out FILE.jsonl.gz
Each output line is one case:
  {"profile", "metric", "topn", "options", "labels", "scores", "weights",
   "per_list", "list_weights", "result", "total", "count"}
Numbers are written as float64 (exact): float32 values, or float64 ones
for the keras-rs cases of options.dtype "float64" (JAX's x64 mode).
torchmetrics has no float64 arithmetic (it casts preds and targets to
float32), so its cases are float32 only.
"""

import argparse
import gzip
import json
import os
import random

os.environ.setdefault("KERAS_BACKEND", "jax")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402

CUTOFFS = [None, 1, 3, 5, 10, "past"]


def draw_batch(rng, graded, padded, ties, big=False):
    b = rng.randint(1, 6)
    n = rng.randint(1, 12)
    r = rng.random()
    if big:
        # 4096 values or more: XLA's vectorised reduction (--big).
        n = rng.randint(8, 60)
        b = rng.randint(-(-4096 // n), -(-4096 // n) + 200)
    elif r < 0.15:
        # Longer lists and batches: the libraries' vectorised sums.
        b, n = rng.randint(1, 24), rng.randint(13, 40)
    elif r < 0.20:
        # Rows of several of XLA's 32-value windows (b * n below 4096).
        b, n = rng.randint(1, 16), rng.randint(41, 120)
    elif r < 0.25:
        # Batches of more than 32 lists: XLA's windows over the batch.
        b, n = rng.randint(33, 80), rng.randint(1, 10)
    labels, scores = [], []
    top = 3 if graded else 1
    for _ in range(b):
        lab = [float(rng.randint(0, top)) for _ in range(n)]
        if ties:
            sc = [rng.choice([-0.5, 0.0, 0.25, 0.5, 0.5, 1.0, 2.0]) for _ in range(n)]
        else:
            sc = [float(np.float32(rng.uniform(-1, 3))) for _ in range(n)]
        if padded and n > 1:
            for i in rng.sample(range(n), rng.randint(0, n - 1)):
                lab[i] = -1.0
        labels.append(lab)
        scores.append(sc)
    return labels, scores


def cutoff(k, n):
    if k == "past":
        return n + 2
    return k


# ---------------------------------------------------------------- torchmetrics

def torch_cases(rng, nbatch):
    import torch
    from torchmetrics import retrieval as R

    classes = {
        "map": R.RetrievalMAP, "ndcg": R.RetrievalNormalizedDCG, "mrr": R.RetrievalMRR,
        "precision": R.RetrievalPrecision, "recall": R.RetrievalRecall, "hits": R.RetrievalHitRate,
        "rprecision": R.RetrievalRPrecision, "fallout": R.RetrievalFallOut,
    }
    # Which order the functional metric ranks by: topk (k-limited) or argsort.
    by_topk = {"map", "mrr", "precision"}
    out = []
    for _ in range(nbatch):
        graded = rng.random() < 0.5
        labels, scores = draw_batch(rng, graded, rng.random() < 0.4, rng.random() < 0.6)
        for name, cls in classes.items():
            if graded and name != "ndcg":
                continue
            for kk in CUTOFFS:
                if name == "rprecision" and kk is not None:
                    continue
                n = len(labels[0])
                k = cutoff(kk, n)
                opts = {"empty": rng.choice(["neg", "pos", "skip"])}
                kw = {"empty_target_action": opts["empty"], "ignore_index": -1}
                if name != "rprecision":
                    kw["top_k"] = k
                if name == "precision":
                    opts["adaptive_k"] = rng.random() < 0.5
                    kw["adaptive_k"] = opts["adaptive_k"]
                seen, agg = [], []

                class Rec(cls):
                    def _metric(self, preds, target):
                        v = super()._metric(preds, target)
                        if name in by_topk:
                            kk2 = min(k or preds.shape[-1], preds.shape[-1])
                            top = preds.topk(kk2, sorted=True, dim=-1)[1].tolist()
                            order = top + [i for i in range(preds.shape[-1]) if i not in top]
                        elif name == "ndcg":
                            order = list(range(preds.shape[-1]))
                        else:
                            order = torch.argsort(preds, dim=-1, descending=True).tolist()
                        seen.append((preds[order].tolist(), target[order].tolist()))
                        return v

                def aggregation(values, dim=None):
                    agg.append(values.tolist())
                    return values.mean() if dim is None else values.mean(dim=dim)

                m = Rec(aggregation=aggregation, **kw)
                idx = torch.arange(len(labels)).repeat_interleave(n)
                tgt = torch.tensor(labels).flatten()
                if name != "ndcg":
                    tgt = tgt.long()
                try:
                    m.update(torch.tensor(scores, dtype=torch.float32).flatten(), tgt, indexes=idx)
                    res = float(m.compute())
                except ValueError as e:
                    out.append({"profile": "torchmetrics", "metric": name, "topn": k, "options": opts,
                                "labels": labels, "scores": scores, "error": str(e)})
                    continue
                # Lists in the order torch ranked them: queries that reached
                # _metric come in query order.
                lab2, sc2 = [], []
                it = iter(seen)
                for b in range(len(labels)):
                    valid = [i for i in range(n) if labels[b][i] != -1]
                    t = [labels[b][i] for i in valid]
                    empty = (sum(t) == 0) if name != "fallout" else (sum(1 - x for x in t) == 0)
                    if empty:
                        lab2.append(labels[b])
                        sc2.append(scores[b])
                        continue
                    p, t = next(it)
                    pad = n - len(p)
                    lab2.append([float(x) for x in t] + [-1.0] * pad)
                    sc2.append([float(x) for x in p] + [0.0] * pad)
                per = agg[0] if agg else []
                out.append({"profile": "torchmetrics", "metric": name, "topn": k, "options": opts,
                            "labels": lab2, "scores": sc2, "weights": None, "per_list": per, "result": res})
    return out


# ---------------------------------------------------------------- keras-rs

def keras_cases(rng, nbatch, nbig=0):
    import keras
    import keras_rs
    from keras import ops
    import importlib

    classes = {
        "map": ("mean_average_precision", keras_rs.metrics.MeanAveragePrecision),
        "ndcg": ("ndcg", keras_rs.metrics.NDCG),
        "dcg": ("dcg", keras_rs.metrics.DCG),
        "mrr": ("mean_reciprocal_rank", keras_rs.metrics.MeanReciprocalRank),
        "precision": ("precision_at_k", keras_rs.metrics.PrecisionAtK),
        "recall": ("recall_at_k", keras_rs.metrics.RecallAtK),
    }
    import jax

    out = []
    for bi in range(nbatch + nbig):
        graded = rng.random() < 0.6
        labels, scores = draw_batch(rng, graded, rng.random() < 0.4, rng.random() < 0.6, big=bi >= nbatch)
        n = len(labels[0])
        # A batch in four in float64 (JAX's x64 mode, the metric's dtype
        # float64): every value is then a float64.
        dtype = "float64" if rng.random() < 0.25 else "float32"
        jax.config.update("jax_enable_x64", dtype == "float64")
        wkind = rng.choice(["none", "list", "item"])
        if wkind == "list":
            weights = [float(rng.choice([0.0, 0.5, 1.0, 2.0, 3.0])) for _ in labels]
        elif wkind == "item":
            weights = [[float(rng.choice([0.0, 0.5, 1.0, 1.0, 2.0])) for _ in range(n)] for _ in labels]
        else:
            weights = None
        for name, (modname, cls) in classes.items():
            mod = importlib.import_module("keras_rs.src.metrics." + modname)
            for kk in CUTOFFS:
                k = cutoff(kk, n)
                orders, vals = [], []
                orig = mod.sort_by_scores

                def spy(tensors_to_sort, scores, **kw):
                    ix = ops.broadcast_to(ops.arange(ops.shape(scores)[1], dtype="float32")[None, :], ops.shape(scores))
                    res = orig(tensors_to_sort=list(tensors_to_sort) + [ix], scores=scores, **kw)
                    if not orders:
                        orders.append(np.asarray(res[-1]).astype(int).tolist())
                    return res[:-1]

                class Rec(cls):
                    def compute_metric(self, **kw):
                        v, w = super().compute_metric(**kw)
                        vals.append((np.asarray(v).reshape(-1).tolist(), np.asarray(w).reshape(-1).tolist()))
                        return v, w

                mod.sort_by_scores = spy
                seed = rng.randint(0, (1 << 32) - 1)
                try:
                    m = Rec(k=k, shuffle_ties=False, seed=seed, dtype=dtype)
                    y = np.array(labels, dtype=dtype)
                    s = np.array(scores, dtype=dtype)
                    w = None if weights is None else np.array(weights, dtype=dtype)
                    m.update_state(y, s, sample_weight=w)
                    res = float(m.result())
                    total, count = float(m.variables[0].numpy()), float(m.variables[1].numpy())
                finally:
                    mod.sort_by_scores = orig
                order = orders[0]
                lab2, sc2, w2 = [], [], None if wkind != "item" else []
                for b in range(len(labels)):
                    o = order[b] + [i for i in range(n) if i not in order[b]]
                    lab2.append([labels[b][i] for i in o])
                    sc2.append([scores[b][i] for i in o])
                    if wkind == "item":
                        w2.append([weights[b][i] for i in o])
                if wkind == "list":
                    w2 = [[x] for x in weights]
                per, lw = vals[0]
                out.append({"profile": "keras-rs", "metric": name, "topn": k, "options": {"weights": wkind, "dtype": dtype},
                            "labels": lab2, "scores": sc2, "weights": w2, "per_list": per, "list_weights": lw,
                            "result": res, "total": total, "count": count,
                            # The lists as given, and the seed of keras-rs' shuffle.
                            "seed": seed, "raw_labels": labels, "raw_scores": scores,
                            "raw_weights": None if weights is None else (
                                [[x] for x in weights] if wkind == "list" else weights)})
    jax.config.update("jax_enable_x64", False)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--batches", type=int, default=20)
    ap.add_argument("--profile", choices=["both", "torchmetrics", "keras-rs"], default="both")
    ap.add_argument("--big", type=int, default=0,
                    help="keras-rs batches of 4096 values or more after the others (not in the live check)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cases = []
    if a.profile in ("both", "torchmetrics"):
        cases += torch_cases(rng, a.batches)
    if a.profile in ("both", "keras-rs"):
        cases += keras_cases(rng, a.batches, a.big)
    with open(a.out, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
            for c in cases:
                f.write((json.dumps(c, separators=(",", ":")) + "\n").encode())
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
