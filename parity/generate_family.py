"""Golden data for the TF-Ranking metric family, from the REAL TF-Ranking.

Run with the parity venv (tensorflow 2.15 + tensorflow-ranking 0.5.5):

  .venv/bin/python generate_family.py discount --out ../testdata/parity/family_discount.json.gz
  .venv/bin/python generate_family.py cases --count 3000 --seed 1 \
      --out ../testdata/parity/family_tfr-0.5.5.jsonl.gz

discount: TF's float32 rank discount, tfr.keras.utils.log2_inverse over the
[K] vector of ranks 1..K, for a set of cutoffs K. Eigen's packet code
computes the ranks that fill whole 8-float packets, the C library the rest,
so the bits depend on K.

ties: tied lists, each replicated in one batch so that TF's random
tie-break samples the metric over tie orders; the Expected policy must
match the samples' mean (TestFamilyTiesMatchTF).

treceval, torchmetrics (another venv: pytrec-eval-terrier, torch, torchmetrics):
random queries with ties (trec_eval) or without (torchmetrics), their
map, map_cut_10, ndcg_cut_10, recip_rank and P_10 from trec_eval, or
RetrievalMAP and RetrievalNormalizedDCG from torchmetrics, as compute cases
of the family with the convention or gain where they meet; the Go test
TestFamilyCrossChecks runs them and prints "N passed, 0 failed".

cases: seeded random batches run through the Keras metric classes
(tfr.keras.metrics.*Metric): one JSON object per line in the `rankmetrics
compute` format (metric, topn, ragged, dtype, updates, plus gain / discount
names), with "expect" holding TF's result and its per-list values and list
weights from the metric's compute(). Only tie-free lists are drawn (TF breaks
ties at random), so every value is reproducible.
"""

import argparse
import gzip
import json
import math
import os
import random
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402

F32 = np.float32
DISCOUNT_CUTOFFS = list(range(1, 41)) + [45, 46, 47, 48, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 1000, 4099]


def opener(path, mode):
    return gzip.open(path, mode + "t") if path.endswith(".gz") else open(path, mode)


def bits(a):
    return [int(x) for x in np.asarray(a, dtype=F32).view(np.uint32)]


def discount(args):
    import tensorflow as tf
    from tensorflow_ranking.python.keras import utils as kutils

    out = {"source": "tensorflow %s, tensorflow-ranking %s: tfr.keras.utils.log2_inverse(tf.range(1, K+1) as float32)"
           % (tf.__version__, __import__("tensorflow_ranking").__version__), "cutoffs": {}}
    for k in DISCOUNT_CUTOFFS:
        ranks = tf.cast(tf.range(1, k + 1), tf.float32)
        out["cutoffs"][str(k)] = bits(kutils.log2_inverse(ranks).numpy())
    with opener(args.out, "w") as f:
        json.dump(out, f)
    print("wrote %d cutoffs to %s" % (len(DISCOUNT_CUTOFFS), args.out))


# ------------------------------------------------------------------ cases

def enc(v):
    """A float32 as JSON: its exact decimal value, or "NaN"/"Infinity"."""
    v = float(F32(v))
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    if v == 0 and math.copysign(1, v) < 0:
        return -0.0
    return v


KINDS = ["map", "mrr", "hits", "arp", "precision", "recall", "ndcg", "dcg", "ordered_pair_accuracy",
         "precision_ia", "alpha_dcg"]
TAKES_TOPN = {"map", "mrr", "hits", "precision", "recall", "ndcg", "dcg", "precision_ia", "alpha_dcg"}
SUBTOPICS = {"precision_ia", "alpha_dcg"}


def keras_metric(kind, topn, ragged, gain, disc, alpha=0.5):
    import tensorflow_ranking as tfr
    m = tfr.keras.metrics
    from tensorflow_ranking.python.keras import utils as kutils
    kw = {"ragged": ragged}
    if kind in TAKES_TOPN and topn is not None:
        kw["topn"] = topn
    if kind in ("ndcg", "dcg"):
        kw["gain_fn"] = {"pow2m1": kutils.pow_minus_1, "identity": kutils.identity}[gain]
        kw["rank_discount_fn"] = {"log2": kutils.log2_inverse, "inverse": kutils.inverse}[disc]
    if kind == "alpha_dcg":
        kw["alpha"] = alpha
    cls = {"map": m.MeanAveragePrecisionMetric, "mrr": m.MRRMetric, "hits": m.HitsMetric, "arp": m.ARPMetric,
           "precision": m.PrecisionMetric, "recall": m.RecallMetric, "ndcg": m.NDCGMetric, "dcg": m.DCGMetric,
           "ordered_pair_accuracy": m.OPAMetric, "precision_ia": m.PrecisionIAMetric,
           "alpha_dcg": m.AlphaDCGMetric}[kind]
    return cls(**kw)


def draw_case(rng, i):
    kind = KINDS[i % len(KINDS)]
    ragged = rng.random() < 0.3
    bsz = rng.randint(1, 6)
    width = rng.choice([1, 2, 3, 5, 8, 9, 16, 31, 33, 64, 100])
    topn = rng.choice([None, None, 1, 3, 5, 10, width, width + 3]) if kind in TAKES_TOPN else None
    gain, disc = "pow2m1", "log2"
    if kind in ("ndcg", "dcg"):
        gain = rng.choice(["pow2m1", "pow2m1", "identity"])
        disc = rng.choice(["log2", "log2", "inverse"])
    graded = rng.random() < 0.6
    weights_kind = rng.choice(["none", "none", "item", "list"])
    nt = rng.randint(1, 4) if kind in SUBTOPICS else 0
    labels, preds, weights = [], [], []
    for _ in range(bsz):
        n = rng.randint(0, width) if ragged else width
        lab, sc, w = [], [], []
        scores = rng.sample(range(1, 1000000), n)  # distinct: no ties
        for j in range(n):
            r = rng.random()
            if nt:
                # a subtopic label of -1 here and there; all -1 masks the item
                l = [-1.0] * nt if r < 0.1 and not ragged else \
                    [float(rng.choice([-1, 0, 0, 0, 1, 1, 2])) for _ in range(nt)]
            elif r < 0.1 and not ragged:
                l = -1.0
            elif graded:
                l = float(rng.choice([0, 0, 0, 1, 2, 3, 4, 0.5]))
            else:
                l = float(rng.random() < 0.3)
            lab.append(l)
            sc.append(float(F32(scores[j] / 997.0 - 300)))
            w.append(float(F32(rng.choice([1.0, 0.5, 2.0, 0.1, 3.7, 0.0]))))
        labels.append(lab)
        preds.append(sc)
        weights.append(w)
    if weights_kind == "none":
        weights = None
    elif weights_kind == "list":
        weights = [[float(F32(rng.choice([1.0, 0.5, 2.0, 0.3])))] for _ in range(bsz)]
    alpha = rng.choice([0.5, 0.5, 0.3, 0.1]) if kind == "alpha_dcg" else 0.5
    return kind, ragged, topn, gain, disc, labels, preds, weights, nt, alpha


def to_tensors(ragged, labels, preds, weights, nt=0):
    import tensorflow as tf
    if ragged:
        if nt:
            y = tf.RaggedTensor.from_row_lengths(
                tf.constant([x for r in labels for x in r], dtype=tf.float32, shape=[sum(map(len, labels)), nt]),
                [len(r) for r in labels])
        else:
            y = tf.ragged.constant(labels, dtype=tf.float32, ragged_rank=1)
        s = tf.ragged.constant(preds, dtype=tf.float32, ragged_rank=1)
        if weights is None:
            w = None
        elif all(len(r) == 1 for r in weights) and any(len(r) != 1 for r in labels):
            w = tf.constant(weights, dtype=tf.float32)
        else:
            w = tf.ragged.constant(weights, dtype=tf.float32, ragged_rank=1)
        return y, s, w
    y = tf.constant(labels, dtype=tf.float32)
    if nt:
        y = tf.reshape(y, [len(labels), len(preds[0]) if preds else 0, nt])
    s = tf.constant(preds, dtype=tf.float32)
    w = None if weights is None else tf.constant(weights, dtype=tf.float32)
    return y, s, w


def cases(args):
    import tensorflow as tf
    rng = random.Random(args.seed)
    n = 0
    with opener(args.out, "w") as f:
        for i in range(args.count):
            kind, ragged, topn, gain, disc, labels, preds, weights, nt, alpha = draw_case(rng, i)
            if ragged and weights is not None and all(len(r) == 1 for r in weights) and all(len(r) == 1 for r in preds):
                weights = None  # ambiguous: per-list or per-item
            m = keras_metric(kind, topn, ragged, gain, disc, alpha)
            y, s, w = to_tensors(ragged, labels, preds, weights, nt)
            if nt:
                labels = [[x for item in r for x in item] for r in labels]  # [B, L*T] rows
            vals, lws = m._metric.compute(y, s, w)
            m.update_state(y, s, sample_weight=w)
            case = {"id": "family-%d" % i, "metric": kind, "topn": topn, "ragged": ragged, "dtype": "float32",
                    "updates": [{"labels": [[enc(x) for x in r] for r in labels],
                                 "predictions": [[enc(x) for x in r] for r in preds],
                                 "weights": None if weights is None else [[enc(x) for x in r] for r in weights]}],
                    "expect": {"result": enc(m.result().numpy()),
                               "per_list": [[enc(x) for x in np.ravel(vals.numpy())]],
                               "list_weights": [[enc(x) for x in np.ravel(lws.numpy())]]}}
            if kind in ("ndcg", "dcg"):
                case["gain"], case["discount"] = gain, disc
            if nt:
                case["subtopics"] = nt
            if kind == "alpha_dcg":
                case["alpha"] = alpha
            f.write(json.dumps(case) + "\n")
            n += 1
    print("wrote %d cases to %s (tensorflow %s)" % (n, args.out, tf.__version__))


# ------------------------------------------------------------------- ties

def ties(args):
    """Tied lists, each replicated args.reps times in one batch: TF draws an
    independent random tie order for every row, so the rows' values sample
    the metric over tie orders. Records their mean and standard deviation,
    which the Expected policy must match."""
    import tensorflow as tf
    rng = random.Random(args.seed)
    kinds = [k for k in KINDS if k != "alpha_dcg"]
    n = 0
    with opener(args.out, "w") as f:
        for i in range(args.count):
            kind = kinds[i % len(kinds)]
            width = rng.choice([3, 5, 8, 12, 20])
            topn = rng.choice([None, 1, 2, 3, 5]) if kind in TAKES_TOPN else None
            nt = rng.randint(1, 3) if kind in SUBTOPICS else 0
            distinct = rng.randint(1, 4)
            lab, sc = [], []
            for _ in range(width):
                if nt:
                    lab.append([float(rng.choice([0, 0, 1, 2])) for _ in range(nt)])
                else:
                    lab.append(float(rng.choice([0, 0, 0, 1, 2, 3, 0.5])))
                sc.append(float(rng.randint(0, distinct)))
            gain, disc = "pow2m1", "log2"
            if kind in ("ndcg", "dcg"):
                gain, disc = rng.choice(["pow2m1", "identity"]), rng.choice(["log2", "inverse"])
            m = keras_metric(kind, topn, False, gain, disc)
            y = tf.constant([lab] * args.reps, dtype=tf.float32)
            s = tf.constant([sc] * args.reps, dtype=tf.float32)
            vals, _ = m._metric.compute(y, s, None)
            v = np.ravel(vals.numpy()).astype(np.float64)
            flat = [x for item in lab for x in item] if nt else lab
            case = {"id": "ties-%d" % i, "metric": kind, "topn": topn, "ties": "expected", "dtype": "float64",
                    "updates": [{"labels": [flat], "predictions": [sc], "weights": None}],
                    "expect": {"mean": float(v.mean()), "std": float(v.std()), "n": int(len(v))}}
            if kind in ("ndcg", "dcg"):
                case["gain"], case["discount"] = gain, disc
            if nt:
                case["subtopics"] = nt
            f.write(json.dumps(case) + "\n")
            n += 1
    print("wrote %d tied cases of %d rows each to %s" % (n, args.reps, args.out))


# ------------------------------------------------------ trec_eval, torchmetrics

def trec_queries(rng, count, ties):
    """Random queries: a run of 10..60 scored documents, qrels judging some of
    them (relevance 0..3) and, in some queries, relevant documents the run
    missed. Scores take few distinct values when ties is set."""
    out = []
    for q in range(count):
        n = rng.randint(10, 60)
        docs = ["d%03d" % i for i in rng.sample(range(1000), n + 5)]
        run_docs, extra = docs[:n], docs[n:]
        levels = 4 if ties else 100000
        run = {d: float(rng.randint(0, levels)) / 4 for d in run_docs}
        qrels = {}
        for d in run_docs:
            if rng.random() < 0.7:
                qrels[d] = rng.choice([0, 0, 1, 1, 2, 3])
        missed = rng.random() < 0.5
        if missed:
            for d in extra[:rng.randint(1, 5)]:
                qrels[d] = rng.choice([1, 2, 3])
        out.append(("q%d" % q, run, qrels, missed))
    return out


def as_list(run, qrels):
    """The family's view of one query: the retrieved documents in descending
    document id order (trec_eval's tie order under the Stable policy), then
    the judged documents the run missed with weight 0."""
    retrieved = sorted(run, reverse=True)
    missed = sorted((d for d in qrels if d not in run), reverse=True)
    labels = [float(qrels.get(d, 0)) for d in retrieved] + [float(qrels[d]) for d in missed]
    preds = [run[d] for d in retrieved] + [0.0] * len(missed)
    weights = [1.0] * len(retrieved) + [0.0] * len(missed)
    return labels, preds, weights


def treceval(args):
    import pytrec_eval
    rng = random.Random(args.seed)
    queries = trec_queries(rng, args.count, ties=True)
    measures = {"map": ("map", None, {"convention": "treceval", "ties": "stable"}),
                "map_cut_10": ("map", 10, {"convention": "treceval", "ties": "stable"}),
                "ndcg_cut_10": ("ndcg", 10, {"gain": "identity", "ties": "stable"}),
                "recip_rank": ("mrr", None, {"ties": "stable"}),
                "P_10": ("precision", 10, {"ties": "stable"})}
    evaluator = pytrec_eval.RelevanceEvaluator({q: r for q, _, r, _ in queries},
                                               {"map", "map_cut.10", "ndcg_cut.10", "recip_rank", "P.10"})
    results = evaluator.evaluate({q: run for q, run, _, _ in queries})
    n = 0
    with opener(args.out, "w") as f:
        for q, run, qrels, missed in queries:
            labels, preds, weights = as_list(run, qrels)
            for m, (metric, topn, keys) in measures.items():
                if m == "ndcg_cut_10" and missed:
                    continue  # trec_eval's ideal order counts documents the run missed; TF's does not
                case = {"id": "%s-%s" % (q, m), "metric": metric, "topn": topn, "dtype": "float64",
                        "updates": [{"labels": [labels], "predictions": [preds], "weights": [weights]}],
                        "expect": {"result": results[q][m], "tool": "trec_eval %s via pytrec_eval" % m}}
                case.update(keys)
                f.write(json.dumps(case) + "\n")
                n += 1
    print("wrote %d trec_eval cases to %s" % (n, args.out))


def torchmetrics_cases(args):
    import torch
    import torchmetrics.functional.retrieval as R
    import torchmetrics
    rng = random.Random(args.seed)
    n = 0
    with opener(args.out, "w") as f:
        for q, run, qrels, _ in trec_queries(rng, args.count, ties=False):
            labels, preds, weights = as_list(run, qrels)
            k = len(run)
            preds_t = torch.tensor(preds[:k], dtype=torch.float64)
            target = torch.tensor(labels[:k], dtype=torch.float64)
            for top_k in (None, 5, 10):
                cut = k if top_k is None else top_k
                ap = R.retrieval_average_precision(preds_t, target > 0, top_k=cut).item()
                nd = R.retrieval_normalized_dcg(preds_t, target, top_k=cut).item()
                for metric, val, keys in (("map", ap, {"convention": "retrieved"}), ("ndcg", nd, {"gain": "identity"})):
                    case = {"id": "%s-%s@%s" % (q, metric, top_k), "metric": metric, "topn": top_k, "dtype": "float64",
                            "updates": [{"labels": [labels[:k]], "predictions": [preds[:k]], "weights": None}],
                            "expect": {"result": val, "tool": "torchmetrics %s" % torchmetrics.__version__}}
                    case.update(keys)
                    f.write(json.dumps(case) + "\n")
                    n += 1
    print("wrote %d torchmetrics cases to %s" % (n, args.out))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("discount")
    d.add_argument("--out", required=True)
    for name in ("cases", "ties", "treceval", "torchmetrics"):
        c = sub.add_parser(name)
        c.add_argument("--out", required=True)
        c.add_argument("--count", type=int, default=3000)
        c.add_argument("--seed", type=int, default=1)
        if name == "ties":
            c.add_argument("--reps", type=int, default=4000)
    args = p.parse_args()
    {"discount": discount, "cases": cases, "ties": ties, "treceval": treceval,
     "torchmetrics": torchmetrics_cases}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
