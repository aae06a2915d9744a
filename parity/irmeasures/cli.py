"""Record what `python -m ir_measures` prints, for the byte test of
`rankmetrics ir_measures` (cmd/rankmetrics, TestIRMeasuresCLIGolden).

Draws seeded qrels/run pairs as generate.py does (numeric query ids, which
gdeval takes), shuffles the run's lines (ir_measures yields queries in run
order), and runs the command on each with several measure sets and flag
combinations, recording stdout and the exit status. The measure sets hold
one measure per provider invocation or measures whose order does not
depend on Python's string hashing (ir_measures keeps the measures of one
provider in a set, whose order does); PYTHONHASHSEED=0 all the same.

Usage: cli.py --seed S --cases N --out FILE.jsonl.gz
"""
import argparse
import gzip
import io
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import draw_case  # noqa: E402

MEASURE_SETS = [
    ["P@5 AP nDCG@10 RR Rprec() NumQ NumRet R@10 Bpref"],
    ["AP(rel=2)", "P(rel=2)@5", "Success(rel=2)@3"],
    ["Judged@10", "RR@10", "ERR@10", "nDCG(dcg='exp-log2')@10", "Compat"],
    ["P@10", "Judged@5", "Accuracy@5"],
    ["Compat(p=0.8,normalize=False)", "RR(rel=2)@5", "ERR@20 nDCG(dcg='exp-log2')@20"],
]

FLAGS = [[], ["-q"], ["-q", "-n"], ["-p", "6"], ["-q", "-p", "-1"], ["-o", "jsonl"], ["-q", "-o", "jsonl"], ["-q", "-p", "2"]]

EXTRA = [
    (["RR"], ["-q", "--provider", "msmarco"]),
    (["RR@3"], ["-q", "--provider", "msmarco", "-p", "5"]),
    (["P@5", "Foo@3"], []),
    (["P@5"], ["-n"]),
    (["ERR", "P@5"], ["-q"]),
    # ir_measures' aliases, printed under the names they stand for.
    (["MAP MRR@10 NDCG@10 Precision@5 Recall@10 RPrec BPref SetRelP(rel=2) NumRelRet NumRet(rel=2)"], ["-q"]),
    (["MAP(rel=2)@5", "NDCG@5", "AP(rel=2)@5"], ["-o", "jsonl"]),
    # An int where a float parameter is taken: ir_measures' AssertionError.
    (["P@5", "BPM(T=2,max_rel=3)@5"], ["-q"]),
    (["RBP(p=1,rel=1)"], []),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--cases", type=int, default=2)
    ap.add_argument("--out", required=True)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    env = dict(os.environ, PYTHONHASHSEED="0")
    if args.out.endswith(".gz"):
        out = io.TextIOWrapper(gzip.GzipFile(args.out, "wb", mtime=0), encoding="utf-8")
    else:
        out = open(args.out, "w")
    with tempfile.TemporaryDirectory() as tmp:
        qp, rp = os.path.join(tmp, "qrels"), os.path.join(tmp, "run")
        for c in range(args.cases):
            qrels, run = draw_case(rng, numeric=True)
            rng.shuffle(run)
            with open(qp, "w") as f:
                f.write("\n".join(qrels) + "\n")
            with open(rp, "w") as f:
                f.write("\n".join(run) + "\n")
            calls = [(ms, fl) for ms in MEASURE_SETS for fl in FLAGS] + EXTRA
            for ms, fl in calls:
                argv = [qp, rp] + ms + fl
                p = subprocess.run([args.python, "-m", "ir_measures"] + argv, capture_output=True, env=env)
                rec = {"seed": args.seed, "case": c, "qrels": qrels, "run": run, "args": ms + fl,
                       "stdout": p.stdout.decode(), "status": p.returncode,
                       "stderr_last": (p.stderr.decode().strip().splitlines() or [""])[-1]}
                out.write(json.dumps(rec, sort_keys=True) + "\n")
    out.close()


if __name__ == "__main__":
    sys.exit(main())
