"""Record what ir_measures 0.4.3 computes with its pyndeval provider.

Draws seeded subtopic qrels (ndeval's `qid subtopic docno rel`, which
ir_measures reads as TREC qrels with the subtopic in the iteration column)
and TREC runs: labels -1 to 2, a document judged for one to three
subtopics (some pairs of document and subtopic judged twice), subtopic ids shared between topics and first seen in random
order, topics without relevant documents, topics only in the qrels or only
in the run, unjudged documents and tied scores. For every measure of
MEASURES it records the per-query values and the summary that `python -m
ir_measures QRELS RUN MEASURE -q` gives (ir_measures.iter_calc, then the
measure's aggregator), with the measure's effective parameters. A measure
the provider refuses or fails on is recorded with its error.

Usage: generate_ndeval.py --seed S --cases N --out FILE.jsonl.gz
"""
import argparse
import gzip
import io
import json
import os
import random
import sys
import tempfile

import ir_measures
from ir_measures.providers.base import NOT_PROVIDED

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import evaluate  # noqa: E402

MEASURES = [
    "alpha_nDCG@20", "alpha_nDCG@5", "alpha_nDCG(alpha=0.3)@10", "alpha_nDCG(rel=2)@10", "alpha_nDCG@1",
    "alpha_DCG@20", "alpha_DCG(alpha=0.8)@5", "alpha_DCG(rel=2)@10",
    "ERR_IA@20", "ERR_IA@1", "ERR_IA(rel=2)@10",
    "nERR_IA@20", "nERR_IA@5", "nERR_IA(rel=2)@10",
    "NRBP", "NRBP(alpha=0.3,beta=0.8)", "NRBP(rel=2)",
    "nNRBP", "nNRBP(alpha=0.8,beta=0.3)", "nNRBP(rel=2)",
    "AP_IA", "AP_IA(rel=2)",
    "P_IA@5", "P_IA@20", "P_IA(rel=2)@10",
    "StRecall@5", "StRecall@20", "StRecall(rel=2)@10",
    # ir_measures' aliases of alpha_nDCG, alpha_DCG and AP_IA.
    "α_nDCG@10", "α_DCG(alpha=0.3)@5", "MAP_IA(rel=2)",
    # refused or failing in ir_measures 0.4.3
    "alpha_nDCG", "alpha_nDCG@30", "alpha_nDCG(judged_only=True)@10", "AP_IA(judged_only=True)",
]

LABELS = [-1, 0, 0, 1, 1, 2]


def draw_case(rng):
    qrels, run = [], []
    nq = rng.randint(5, 9)
    qids = sorted({f"{rng.randint(1, 300)}" for _ in range(nq)}, key=lambda x: rng.random())
    subs = [str(s) for s in rng.sample(range(1, 9), 8)]
    for i, qid in enumerate(qids):
        pool = sorted({rng.choice(["d", "D", "x"]) + str(rng.randint(0, 50)) for _ in range(35)}, key=lambda x: rng.random())
        kind = i % 6
        judged = pool[: rng.randint(3, min(25, len(pool)))]
        mysubs = rng.sample(subs, rng.randint(1, 5))
        if kind != 5:  # kind 5: run only
            again = []
            for d in judged:
                for s in rng.sample(mysubs, rng.randint(1, min(3, len(mysubs)))):
                    label = 0 if kind == 3 else rng.choice(LABELS)  # kind 3: nothing relevant
                    qrels.append(f"{qid} {s} {d} {label}")
                    if kind != 3 and rng.random() < 0.08:
                        # the same document and subtopic judged again, later
                        again.append(f"{qid} {s} {d} {rng.choice(LABELS)}")
            qrels.extend(again)
        if kind != 4:  # kind 4: qrels only
            ranked = rng.sample(pool, rng.randint(1, len(pool)))
            scale = rng.choice([1, 2, 10])
            for r, d in enumerate(ranked):
                score = rng.randint(0, 8) / scale
                run.append(f"{qid} Q0 {d} {r + 1} {score} tag")
    return qrels, run


def num(v):
    """JSON has no NaN: ndeval's 0/0 (nNRBP of a topic without relevant documents) is written "NaN"."""
    return "NaN" if v != v else v


def params(m):
    return {k: (None if m[k] is NOT_PROVIDED else m[k]) for k in m.SUPPORTED_PARAMS}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--cases", type=int, default=4)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.out.endswith(".gz"):
        out = io.TextIOWrapper(gzip.GzipFile(args.out, "wb", mtime=0), encoding="utf-8")
    else:
        out = open(args.out, "w")
    with tempfile.TemporaryDirectory() as tmp:
        qp, rp = os.path.join(tmp, "qrels"), os.path.join(tmp, "run")
        for c in range(args.cases):
            qrels, run = draw_case(rng)
            with open(qp, "w") as f:
                f.write("\n".join(qrels) + "\n")
            with open(rp, "w") as f:
                f.write("\n".join(run) + "\n")
            results = []
            for ms in MEASURES:
                try:
                    m = ir_measures.parse_measure(ms)
                    name, perq, summary = evaluate(ms, qp, rp)
                    results.append({"measure": ms, "name": m.NAME, "params": params(m), "repr": name,
                                    "perq": [[q, num(v)] for q, v in perq], "all": num(summary)})
                except Exception as e:  # recorded: a measure the provider refuses or fails on
                    results.append({"measure": ms, "error": f"{type(e).__name__}: {e}"[:300]})
            rec = {"case": c, "seed": args.seed, "qrels": qrels, "run": run, "results": results}
            out.write(json.dumps(rec, sort_keys=True, allow_nan=False) + "\n")
    out.close()


if __name__ == "__main__":
    sys.exit(main())
