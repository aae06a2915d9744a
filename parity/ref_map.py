"""A float32 re-statement of TF-Ranking 0.5.5 Keras MAP, op by op, in numpy.

It exists to check that our written account of TF's arithmetic (SUMMATION.md,
../shared semantics notes) is complete: generate.py runs it on every exact case
next to the real TF and counts bit-equal results. The Go port is meant to
follow the same steps. No TensorFlow import here.

Every float32 op applies TF's CPU FTZ+DAZ (eigen_sum.flush). Sums use
eigen_sum (Eigen's AVX packet order). Ties among valid items are broken by
`tie_rank` (lower first), then by index: with no tie_rank this is TF's
shuffle_ties=False order.
"""

import numpy as np

import eigen_sum as es

F32 = np.float32
flush = es.flush
PAD_LABEL = F32(-1.0)
PAD_PRED = F32(-1e6)


def _f32(v):
    if isinstance(v, str):
        return {"NaN": F32(np.nan), "Infinity": F32(np.inf), "-Infinity": F32(-np.inf)}[v]
    return F32(v)


def _rows(rows):
    return [np.array([_f32(v) for v in r], dtype=F32) for r in rows]


def densify(update, ragged):
    """Returns (labels, preds, example_weights, mask) as dense [B, L] float32,
    exactly as metrics_impl._prepare_and_validate_params sees them (after
    utils.ragged_to_dense for ragged inputs)."""
    lab_rows = _rows(update["labels"])
    pred_rows = _rows(update["predictions"])
    w = update.get("weights")
    b = len(lab_rows)
    lens = [len(r) for r in lab_rows]
    width = max(lens) if lens else 0
    per_list = False
    w_rows = None
    if w is not None:
        w_rows = _rows(w)
        if not all(len(wr) == n for wr, n in zip(w_rows, lens)):
            per_list = True  # all rows of length 1: TF's dense [B, 1]
    if not ragged:
        lab = np.array(lab_rows, dtype=F32).reshape(b, width)
        pred = np.array(pred_rows, dtype=F32).reshape(b, width)
        inside = np.ones((b, width), bool)
    else:
        lab = np.full((b, width), PAD_LABEL, F32)
        pred = np.full((b, width), PAD_PRED, F32)
        inside = np.zeros((b, width), bool)
        for i in range(b):
            lab[i, :lens[i]] = lab_rows[i]
            pred[i, :lens[i]] = pred_rows[i]
            inside[i, :lens[i]] = True
    if w is None:
        weights = np.ones((b, width), F32)  # 1.0, on every slot incl. padding
    elif per_list:
        weights = np.repeat(np.array([wr[0] for wr in w_rows], F32).reshape(b, 1), width, axis=1)
    elif ragged:
        weights = np.zeros((b, width), F32)  # ragged weights pad with 0
        for i in range(b):
            weights[i, :lens[i]] = w_rows[i]
    else:
        weights = np.array(w_rows, dtype=F32).reshape(b, width)
    ew = flush(np.ones((b, width), F32) * flush(weights))  # ones_like(labels) * weights
    if ragged:
        mask = inside.copy()  # is_label_valid is NOT applied to ragged input
    else:
        with np.errstate(invalid="ignore"):
            mask = flush(lab) >= 0  # NaN -> False
    with np.errstate(invalid="ignore"):
        mask &= ew > 0
    lab = np.where(mask, lab, F32(0)).astype(F32)
    return lab, pred, ew, mask


def sort_order(pred, mask, tie_rank=None):
    """Per row: valid items by descending float32 score (DAZ: subnormals are
    0; +0 == -0), ties by tie_rank then index; then the invalid items by index."""
    b, width = pred.shape
    p = flush(pred)
    orders = []
    for i in range(b):
        valid = [j for j in range(width) if mask[i, j]]
        inval = [j for j in range(width) if not mask[i, j]]
        tr = tie_rank[i] if tie_rank is not None else None
        valid.sort(key=lambda j: (-float(p[i, j]) if p[i, j] != 0 else 0.0, tr[j] if tr is not None else 0, j))
        orders.append(valid + inval)
    return orders


class _Eigen:
    """TF's order (Eigen AVX packets)."""
    row_sums = staticmethod(es.row_sums)
    full_sum = staticmethod(es.full_sum)


class _Sequential:
    """Plain left-to-right float32 sums: what a naive port does."""
    row_sums = staticmethod(lambda m: es.sequential(m) if np.asarray(m).shape[1] > 1 else np.asarray(m, F32)[:, 0].copy())
    full_sum = staticmethod(lambda x: es.sequential(np.asarray(x, F32).ravel()))


ORDERS = {"eigen": _Eigen, "sequential": _Sequential}
_sum = _Eigen


def reduce_full(x):
    """tf.reduce_sum over a [B, 1] tensor (all axes, or axis 0): a copy when
    B == 1, else a 1-D full reduction."""
    x = np.asarray(x, F32).ravel()
    if x.size == 1:
        return x[0]
    return _sum.full_sum(x)


def div_no_nan(x, y):
    x = flush(np.asarray(x, F32))
    y = flush(np.asarray(y, F32))
    with np.errstate(invalid="ignore", divide="ignore"):
        q = flush(x / np.where(y == 0, F32(1), y))
    return np.where(y == 0, F32(0), q).astype(F32)


def compute(update, topn, ragged, tie_rank=None):
    """metrics_impl.MeanAveragePrecisionMetric.compute: per-list AP and list
    weights, each shape [B]."""
    lab, pred, ew, mask = densify(update, ragged)
    b, width = lab.shape
    rel = (lab >= 1).astype(F32)  # NaN >= 1 is False
    k = width if topn is None else max(0, min(int(topn), width))
    orders = sort_order(pred, mask, tie_rank)
    idx = np.array([o[:k] for o in orders], dtype=np.int64).reshape(b, k)
    srel = np.take_along_axis(rel, idx, axis=1)
    sw = np.take_along_axis(ew, idx, axis=1)
    cnt = np.cumsum(srel, axis=1, dtype=F32)
    cut = np.cumsum(np.ones_like(srel), axis=1, dtype=F32)
    prec = div_no_nan(cnt, cut)
    with np.errstate(invalid="ignore"):
        terms = flush(flush(prec * sw) * srel)
    tp = _sum.row_sums(terms) if k > 0 else np.zeros(b, F32)
    with np.errstate(invalid="ignore"):
        wrel = flush(ew * rel)
    tr = _sum.row_sums(wrel) if width > 0 else np.zeros(b, F32)
    ap = div_no_nan(tp, tr)

    # _per_example_weights_to_per_list_weights(ew, rel)
    sw_sum = _sum.row_sums(ew) if width > 0 else np.zeros(b, F32)
    nzw = sw_sum > 0
    r = _sum.row_sums(rel) if width > 0 else np.zeros(b, F32)
    nzr = np.where(nzw, (r > 0).astype(F32), F32(0)).astype(F32)
    c = reduce_full(nzr)
    pw = div_no_nan(tr, r)
    s = reduce_full(pw)
    avg = div_no_nan(s, c) if c > 0 else F32(1)
    lw = np.where(nzw, np.where(r > 0, pw, avg), F32(0)).astype(F32)
    return ap.astype(F32), lw


def run(case, tie_ranks=None, order="eigen"):
    """Keras MeanAveragePrecisionMetric over case["updates"]: returns
    (result, [per_list...], [list_weights...]) as float32. order "sequential"
    replaces every reduce_sum by a left-to-right sum (for ULP comparisons)."""
    global _sum
    _sum = ORDERS[order]
    try:
        return _run(case, tie_ranks)
    finally:
        _sum = _Eigen


def _run(case, tie_ranks):
    total = F32(0)
    count = F32(0)
    per, lws = [], []
    for u, upd in enumerate(case["updates"]):
        tr = tie_ranks[u] if tie_ranks is not None else None
        ap, lw = compute(upd, case.get("topn"), case.get("ragged", False), tr)
        per.append(ap)
        lws.append(lw)
        if len(ap) == 0:
            continue
        with np.errstate(invalid="ignore"):
            vals = flush(ap * lw)
        total = es._add(total, reduce_full(vals))  # assign_add
        count = es._add(count, reduce_full(lw))
    return div_no_nan(total, count)[()], per, lws
