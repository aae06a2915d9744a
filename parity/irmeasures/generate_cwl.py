"""Record what ir_measures 0.4.3 computes with its cwl_eval provider.

Draws seeded TREC qrels/run pairs (generate.py's draw: ties in scores, the
run's lines in random order, unjudged documents, labels -1 to 3, topics
without relevant documents, topics only in the qrels or only in the run),
some with a topic ranking more than 1000 documents (cwl_eval's depth), and
records, for every measure of MEASURES, the per-query values and the
summary that `python -m ir_measures QRELS RUN MEASURE -q` gives (the same
calls: ir_measures.iter_calc, then the measure's aggregator), with the
measure's effective parameters (defaults filled in) so that a reader needs
no parser of ir_measures' notation. A measure the provider refuses is
recorded with its error.

Usage: generate_cwl.py --seed S --cases N --out FILE.jsonl.gz
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
from generate import draw_case, evaluate  # noqa: E402

MEASURES = [
    "RBP(rel=1)", "RBP(rel=2,p=0.5)", "RBP(rel=1,p=0.95)", "RBP(rel=3,p=0.9)",
    "SDCG(max_rel=3)@10", "SDCG(max_rel=2)@5", "SDCG(min_rel=1,max_rel=3)@20", "SDCG(max_rel=3)@1000",
    "BPM(max_rel=3)@10", "BPM(T=2.0,max_rel=3)@5", "BPM(T=0.5,max_rel=2)@20",
    "INST(max_rel=3)", "INST(T=2.0,max_rel=3)", "INST(T=0.5,min_rel=1,max_rel=2)",
    "INSQ(max_rel=3)", "INSQ(T=3.0,max_rel=3)", "INSQ(T=0.5,max_rel=1)",
    "NERR8(max_rel=3)@10", "NERR8(max_rel=1)@5", "NERR8(min_rel=1,max_rel=3)@1",
    "NERR9(max_rel=3)@10", "NERR9(max_rel=2)@3",
    "NERR10(max_rel=3)", "NERR10(p=0.5,max_rel=3)", "NERR10(p=0.95,max_rel=1)",
    "NERR11(max_rel=3)", "NERR11(T=2.0,max_rel=3)", "NERR11(T=0.5,max_rel=2)",
    # refused by every provider: no rel, a cutoff
    "RBP", "RBP(rel=1)@10",
]

LABELS = [-1, 0, 0, 0, 1, 1, 2, 3]


def long_topic(rng, qrels, run):
    """Adds a topic ranking 1001 to 1200 documents, some relevant past 1000."""
    qid = "long%d" % rng.randint(0, 99)
    n = rng.randint(1001, 1200)
    docs = ["L%d" % i for i in range(n)]
    for i, d in enumerate(docs):
        if i < 40 or i >= 995 or rng.random() < 0.05:
            qrels.append(f"{qid} 0 {d} {rng.choice(LABELS)}")
    for r, d in enumerate(docs):
        # Scores fall with the position, a few ties kept in file order.
        run.append(f"{qid} Q0 {d} {r + 1} {(n - r) // 3} tag")


def params(m):
    out = {}
    for k in m.SUPPORTED_PARAMS:
        v = m[k]
        out[k] = None if v is NOT_PROVIDED else v
    return out


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
            if c % 2 == 1:
                long_topic(rng, qrels, run)
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
                                    "perq": perq, "all": summary})
                except Exception as e:  # recorded: a measure the provider refuses
                    results.append({"measure": ms, "error": f"{type(e).__name__}: {e}"[:300]})
            rec = {"case": c, "seed": args.seed, "qrels": qrels, "run": run, "results": results}
            out.write(json.dumps(rec, sort_keys=True) + "\n")
    out.close()


if __name__ == "__main__":
    sys.exit(main())
