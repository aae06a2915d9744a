"""Draw seeded TREC qrels/run pairs and record what ir_measures 0.4.3 gives.

For each case this writes the qrels and the run, and, for every measure of
MEASURES, what `python -m ir_measures QRELS RUN MEASURE -q -p -1` prints:
the per-query values and the summary (qid "all"), through the same calls
the command makes (ir_measures.iter_calc with the default provider
pipeline, then each measure's aggregator over the values in the order they
came). Each measure is computed alone, so that one measure's provider
settings do not depend on the others.

Usage: generate.py --seed S --cases N --out FILE.jsonl.gz [--set providers] [--qids numeric]
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
from ir_measures.util import Metric

# Every measure of the golden file, grouped by default provider.
MEASURES = [
    # pytrec_eval
    "AP", "AP@5", "AP@10", "AP(rel=2)", "AP(rel=2)@10", "AP(judged_only=True)", "AP(judged_only=True)@10",
    "P@1", "P@5", "P@10", "P@100", "P(rel=2)@5", "P(rel=3)@10", "P(judged_only=True)@10",
    "R@5", "R@10", "R@1000", "R(rel=2)@10", "R(judged_only=True)@5",
    "nDCG", "nDCG@5", "nDCG@10", "nDCG@1000", "nDCG(judged_only=True)@10", "nDCG(judged_only=True)",
    "RR", "RR(rel=2)", "RR(judged_only=True)",
    "Rprec", "Rprec(rel=2)", "Rprec(judged_only=True)",
    "Bpref", "Bpref(rel=2)", "infAP", "infAP(rel=2)",
    "IPrec@0.0", "IPrec@0.5", "IPrec@1.0", "IPrec(rel=2)@0.2", "IPrec(judged_only=True)@0.3",
    "Success@1", "Success@5", "Success(rel=2)@10", "Success(judged_only=True)@3",
    "SetP", "SetP(rel=2)", "SetP(relative=True)", "SetP(judged_only=True)", "SetR", "SetR(rel=2)",
    "SetF", "SetF(beta=0.5)", "SetF(rel=2)", "SetAP", "SetAP(rel=2)",
    "NumQ", "NumRel", "NumRet", "NumRet(rel=1)", "NumRet(rel=2)", "NumRelRet",
    # judged, msmarco, gdeval, compat
    "Judged@5", "Judged@10", "Judged", "RR@5", "RR@10", "RR(rel=2)@10",
    "ERR@10", "ERR@20", "nDCG(dcg='exp-log2')@10", "nDCG(dcg='exp-log2')@20",
    "Compat", "Compat(p=0.8)",
    # cwl_eval
    "RBP", "RBP(rel=1)", "RBP(p=0.5)", "RBP(rel=2)@10",
    "SDCG(max_rel=3)@10", "SDCG(max_rel=3)@5",
    "BPM(max_rel=3)@10", "BPM(T=2.0,max_rel=3)@5",
    "INST(max_rel=3)", "INST(T=2.0,max_rel=3)", "INSQ(max_rel=3)",
    "NERR8(max_rel=3)@10", "NERR9(max_rel=3)@10", "NERR10(max_rel=3)", "NERR11(max_rel=3)",
    # ir_measures' aliases (register(AP, ['MAP']) and the like).
    "MAP(rel=2)@10", "MRR", "NDCG@10", "Precision@5", "Recall@10", "RPrec", "BPref", "SetRelP", "NumRelRet",
    # An int where a float is taken: ir_measures' AssertionError.
    "BPM(T=2,max_rel=3)@5", "SetF(beta=1)",
]

# The measures of the providers other than pytrec_eval and cwl_eval, and
# nDCG's gains (--set providers), two or three parameter settings each.
PROVIDERS = [
    # judged
    "Judged", "Judged@5", "Judged@10",
    # msmarco
    "RR@3", "RR@10", "RR(rel=2)@10", "RR(rel=0)@5",
    # gdeval (numeric topic ids: --qids numeric)
    "ERR@5", "ERR@10", "ERR@20",
    "nDCG(dcg='exp-log2')@5", "nDCG(dcg='exp-log2')@10", "nDCG(dcg='exp-log2')@20",
    # compat
    "Compat", "Compat(p=0.8)", "Compat(normalize=False)", "Compat(p=0.5,normalize=False)",
    # pytrec_eval, with the labels mapped by ir_measures
    "nDCG(gains={0:0,1:1,2:3})@10", "nDCG(gains={1:2,2:5,3:10})", "nDCG(gains={3:1},judged_only=True)@5",
    # accuracy
    "Accuracy", "Accuracy@3", "Accuracy@5", "Accuracy(rel=2)@10", "Accuracy(rel=0)",
]

LABELS = [-1, 0, 0, 0, 1, 1, 2, 3]


def draw_case(rng, numeric=False):
    """Returns (qrels lines, run lines) of one random case. With numeric,
    the query ids are integers (gdeval refuses others)."""
    qrels, run = [], []
    nq = rng.randint(6, 12)
    qids = [(f"{rng.randint(1, 999)}" if numeric else f"q{rng.randint(1, 999)}") for _ in range(nq)]
    qids = sorted(set(qids), key=qids.index)
    for i, qid in enumerate(qids):
        pool = [rng.choice(["d", "D", "doc", "x"]) + str(rng.randint(0, 60)) for _ in range(40)]
        pool = sorted(set(pool), key=pool.index)
        kind = i % 6
        judged = pool[: rng.randint(3, min(20, len(pool)))]
        in_qrels = kind != 5  # kind 5: run only
        in_run = kind != 4  # kind 4: qrels only
        if in_qrels:
            for d in judged:
                if kind == 3:
                    label = 0  # a topic without relevant documents
                else:
                    label = rng.choice(LABELS)
                qrels.append(f"{qid} 0 {d} {label}")
            if kind != 3 and not any(int(l.split()[3]) > 0 for l in qrels if l.split()[0] == qid):
                qrels.append(f"{qid} 0 {judged[0]}x 1")
        if in_run:
            ranked = rng.sample(pool, rng.randint(1, len(pool)))
            scale = rng.choice([1, 2, 10])
            for r, d in enumerate(ranked):
                # Few distinct scores: many ties, broken by the docno.
                score = rng.randint(0, 8) / scale
                if rng.random() < 0.2:
                    score = -score
                run.append(f"{qid} Q0 {d} {r + 1} {score} tag")
    if not any(l.split()[0] in {r.split()[0] for r in run} for l in qrels):
        return draw_case(rng, numeric)
    return qrels, run


def json_num(v):
    """JSON has no NaN or infinity: a per-query value that is one (IPrec with
    judged_only=True on a query without a judged document ranked gives NaN)
    is written as the string "NaN", "Infinity" or "-Infinity"; finite
    values stay numbers, so files written before read the same."""
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def evaluate(measure, qrels_path, run_path):
    """What ir_measures -q prints for one measure: ([(qid, value)], summary)."""
    m = ir_measures.parse_measure(measure)
    qrels = ir_measures.read_trec_qrels(qrels_path)
    run = ir_measures.read_trec_run(run_path)
    agg = m.aggregator()
    perq = []
    for res in ir_measures.iter_calc([m], qrels, run):
        perq.append([res.query_id, json_num(res.value)])
        agg.add(res.value)
    return str(m), perq, agg.result()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--cases", type=int, default=4)
    ap.add_argument("--out", required=True)
    ap.add_argument("--measures", default="", help="space-separated measures instead of MEASURES")
    ap.add_argument("--set", choices=["all", "providers"], default="all",
                    help="the measures: MEASURES (all), or PROVIDERS (judged, msmarco, gdeval, compat, accuracy)")
    ap.add_argument("--qids", choices=["prefixed", "numeric"], default="prefixed",
                    help="query ids q123 (prefixed), or 123 (numeric), which gdeval's format check takes")
    args = ap.parse_args()
    measures = args.measures.split() or (PROVIDERS if args.set == "providers" else MEASURES)
    rng = random.Random(args.seed)
    if args.out.endswith(".gz"):
        # mtime 0: the same seed gives the same bytes.
        out = io.TextIOWrapper(gzip.GzipFile(args.out, "wb", mtime=0), encoding="utf-8")
    else:
        out = open(args.out, "w")
    with tempfile.TemporaryDirectory() as tmp:
        qp, rp = os.path.join(tmp, "qrels"), os.path.join(tmp, "run")
        for c in range(args.cases):
            qrels, run = draw_case(rng, args.qids == "numeric")
            with open(qp, "w") as f:
                f.write("\n".join(qrels) + "\n")
            with open(rp, "w") as f:
                f.write("\n".join(run) + "\n")
            results = []
            for ms in measures:
                try:
                    name, perq, summary = evaluate(ms, qp, rp)
                    rec = {"measure": ms, "repr": name, "perq": perq, "all": summary}
                    if summary != summary:  # NaN: ir_measures' mean of no value
                        rec["all"], rec["all_nan"] = None, True
                    results.append(rec)
                except Exception as e:  # recorded: a measure the providers refuse on this input
                    results.append({"measure": ms, "error": f"{type(e).__name__}: {e}"[:300]})
            rec = {"case": c, "seed": args.seed, "qrels": qrels, "run": run, "results": results}
            # allow_nan=False: a bare NaN, which Go's JSON reader refuses,
            # stops here instead of in the test.
            out.write(json.dumps(rec, sort_keys=True, allow_nan=False) + "\n")
    out.close()


if __name__ == "__main__":
    sys.exit(main())
