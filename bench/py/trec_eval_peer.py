"""trec_eval through pytrec-eval-terrier: parse the TREC files with
pytrec_eval's own parsers, then evaluate map for every query and average."""
import argparse
import time

from common import emit, log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("qrels")
    ap.add_argument("run")
    a = ap.parse_args()
    import pytrec_eval

    t0 = time.perf_counter()
    with open(a.qrels) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(a.run) as f:
        run = pytrec_eval.parse_run(f)
    t1 = time.perf_counter()
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"map"})
    res = ev.evaluate(run)
    t2 = time.perf_counter()
    vals = [r["map"] for r in res.values()]
    emit(peer="trec_eval (pytrec-eval-terrier)", what="e2e trec (load + evaluate)", seconds=t2 - t0,
         load_seconds=t1 - t0, eval_seconds=t2 - t1, map=sum(vals) / len(vals), queries=len(vals))
    log("trec_eval done")


if __name__ == "__main__":
    main()
