"""TF-Ranking's MAP algorithm written op for op in NumPy.

Modes:
  compute  --bin data.bin [--ties stable|random] [--repeat N]
           arrays already in memory; times the metric only (float32, full MAP).
  e2e-tsv  --tsv data.tsv
           np.loadtxt of the TSV, grouping by qid into a padded [Q, L] batch, then
           the same metric; times the whole pipeline.

The ops follow tensorflow_ranking's sort_by_scores and MeanAveragePrecisionMetric:
relevance = label >= 1; invalid (padded) items masked and sorted last; a random
(or, for stable, all-zero) shuffle key, a stable argsort on it, then a stable
descending sort on the scores (top_k keeps the lower index first); cumsum of the
sorted relevance; precision@k = cumsum / k; AP = sum(precision * weight *
relevance) / sum(weight * relevance) over the whole list; MAP = sum(AP * w) / sum(w)
with unit list weights.
"""
import argparse

import numpy as np

from common import emit, log, timed


def read_rkm1(path):
    with open(path, "rb") as f:
        if f.read(4) != b"RKM1":
            raise SystemExit(f"{path}: not an RKM1 file")
        q, l = np.frombuffer(f.read(8), dtype="<u4")
        labels = np.frombuffer(f.read(int(q) * int(l)), dtype=np.int8).reshape(q, l)
        scores = np.frombuffer(f.read(4 * int(q) * int(l)), dtype="<f4").reshape(q, l)
    return labels.astype(np.float32), scores.copy()


def tf_map(labels, scores, valid, ties, rng):
    """MAP of a [B, L] batch, float32, op for op as TF-Ranking computes it."""
    b, l = scores.shape
    labels = np.where(valid, labels, np.float32(0))
    rel = (labels >= 1).astype(np.float32)
    weights = np.ones_like(labels)
    # sort_by_scores: masked scores become the batch minimum; shuffle keys
    # are uniform [0, 1) (random ties) or 0 (stable), +2 on masked items.
    scores = np.where(valid, scores, scores.min())
    if ties == "random":
        u = rng.random((b, l), dtype=np.float32)
    else:
        u = np.zeros((b, l), dtype=np.float32)
    u = u + np.where(valid, np.float32(0), np.float32(2))
    shuffle_ind = np.argsort(u, axis=1, kind="stable")
    shuffled = np.take_along_axis(scores, shuffle_ind, axis=1)
    # top_k(sorted=True): descending, lower index first among equals.
    order = np.argsort(-shuffled, axis=1, kind="stable")
    idx = np.take_along_axis(shuffle_ind, order, axis=1)
    srel = np.take_along_axis(rel, idx, axis=1)
    sw = np.take_along_axis(weights, idx, axis=1)
    cnt = np.cumsum(srel, axis=1, dtype=np.float32)
    prec = cnt / np.arange(1, l + 1, dtype=np.float32)
    tp = np.sum(prec * sw * srel, axis=1, dtype=np.float32)
    tr = np.sum(weights * rel, axis=1, dtype=np.float32)
    ap = np.divide(tp, tr, out=np.zeros_like(tp), where=tr != 0)
    # Unit weights: every list weighs 1 (TF's per-list weight derivation).
    lw = np.ones(b, dtype=np.float32)
    return float(np.sum(ap * lw, dtype=np.float32) / np.sum(lw, dtype=np.float32))


def load_tsv(path):
    data = np.loadtxt(path, delimiter="\t", skiprows=1, dtype=np.float64)
    qid, label, score = data[:, 0], data[:, 1].astype(np.float32), data[:, 2].astype(np.float32)
    starts = np.concatenate(([0], np.flatnonzero(np.diff(qid) != 0) + 1))
    lengths = np.diff(np.concatenate((starts, [len(qid)])))
    b, l = len(starts), int(lengths.max())
    row = np.repeat(np.arange(b), lengths)
    col = np.arange(len(qid)) - np.repeat(starts, lengths)
    lab = np.full((b, l), -1, dtype=np.float32)
    sc = np.full((b, l), -np.inf, dtype=np.float32)
    valid = np.zeros((b, l), dtype=bool)
    lab[row, col], sc[row, col], valid[row, col] = label, score, True
    return lab, sc, valid


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["compute", "e2e-tsv"])
    ap.add_argument("--bin")
    ap.add_argument("--tsv")
    ap.add_argument("--ties", default="stable", choices=["stable", "random"])
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    if a.mode == "compute":
        labels, scores = read_rkm1(a.bin)
        valid = np.ones(labels.shape, dtype=bool)
        med, times, m = timed(lambda: tf_map(labels, scores, valid, a.ties, rng), a.repeat)
        emit(peer="numpy-tf", what=f"compute {a.ties}", seconds=med, runs=times, map=m,
             items=int(labels.size), numpy=np.__version__)
    else:
        def run():
            lab, sc, valid = load_tsv(a.tsv)
            return tf_map(lab, sc, valid, a.ties, rng), lab.size
        med, times, (m, n) = timed(run, a.repeat)
        emit(peer="numpy-tf", what="e2e tsv (loadtxt + compute)", seconds=med, runs=times, map=m, items=int(n))
    log("numpy done")


if __name__ == "__main__":
    main()
