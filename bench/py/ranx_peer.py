"""ranx: load a TREC qrels and run and evaluate MAP (ranx's whole pipeline).

ranx compiles its numba kernels on first use; a tiny warm-up evaluation runs
first so the timing covers loading and evaluating, not compiling.
"""
import argparse
import time

from common import emit, log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("qrels")
    ap.add_argument("run")
    a = ap.parse_args()
    from ranx import Qrels, Run, evaluate

    evaluate(Qrels({"q": {"d": 1}}), Run({"q": {"d": 1.0, "e": 0.5}}), "map")  # JIT warm-up
    t0 = time.perf_counter()
    qrels = Qrels.from_file(a.qrels, kind="trec")
    run = Run.from_file(a.run, kind="trec")
    t1 = time.perf_counter()
    m = evaluate(qrels, run, "map")
    t2 = time.perf_counter()
    emit(peer="ranx", what="e2e trec (load + evaluate)", seconds=t2 - t0, load_seconds=t1 - t0,
         eval_seconds=t2 - t1, map=float(m))
    log("ranx done")


if __name__ == "__main__":
    main()
