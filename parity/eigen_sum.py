"""Bit-exact emulation of TensorFlow 2.15 CPU float32 `tf.reduce_sum`.

The TF 2.15.1 x86-64 wheel is compiled with AVX (not AVX2/AVX-512), so Eigen's
float packet is Packet8f: P = 8 lanes. See SUMMATION.md for the derivation and
the verification counts. Everything here works on numpy float32 values; every
`+` is one IEEE float32 round-to-nearest-even addition.

Public functions:
  inner_sum(x, first_index=0)  one row of a reduction, Eigen InnerMostDimReducer
  full_sum(x)                  tf.reduce_sum over all elements (FullReducer)
  row_sums(m)                  tf.reduce_sum(m, axis=1) for a 2-D [B, K] array
  axis0_sums_col(m)            tf.reduce_sum(m, axis=0) for a [B, 1] array
"""

import numpy as np

F32 = np.float32
P = 8  # float lanes of an AVX packet (Packet8f)
LEAF = 1024  # Eigen LeafSize<float>()


TINY = F32(2.0 ** -126)  # smallest normal float32


def flush(x):
    """TF runs CPU kernels with FTZ and DAZ set: a subnormal float32 input is
    read as a zero of the same sign, and a subnormal result is written as a
    zero of the same sign. Works on scalars and arrays; NaN and Inf pass."""
    x = np.asarray(x, dtype=F32)
    # NaN and Inf fail the test and pass through unchanged
    x = np.where(np.abs(x) < TINY, np.copysign(F32(0), x), x).astype(F32)
    return x[()] if x.ndim == 0 else x


def _flush1(v):
    v = F32(v)
    if v != 0 and -TINY < v < TINY:
        return F32(0.0) if v > 0 else F32(-0.0)
    return v


def _add(a, b):
    """One float32 addition as TF's CPU kernels do it (DAZ + FTZ)."""
    return _flush1(_flush1(a) + _flush1(b))


def _vadd(a, b):
    """Element-wise float32 addition of flushed arrays, result flushed."""
    return flush(a + b)


def _predux(lanes):
    """Eigen predux<Packet8f> on an array (..., 8) of lanes: fold the high
    128-bit half onto the low half, then lanes 2,3 onto 0,1, then lane 1 onto 0:
        m[i] = l[i] + l[i+4]        (i = 0..3)
        t0 = m[0] + m[2];  t1 = m[1] + m[3]
        return t0 + t1
    """
    m = _vadd(lanes[..., 0:4], lanes[..., 4:8])
    t0 = _vadd(m[..., 0], m[..., 2])
    t1 = _vadd(m[..., 1], m[..., 3])
    return _vadd(t0, t1)


def leaf_rows(x):
    """InnerMostDimReducer<vectorized, no tree>::reduce applied to every row of
    a flushed float32 array x of shape (R, n); returns shape (R,).

    Order for one row of n values (P = 8):
      acc0 = 8 zero lanes
      if n >= 32:
        acc1 = acc2 = acc3 = 8 zero lanes
        for j in 0, 32, 64, ... while j < (n // 32) * 32:
          acc0 += x[j:j+8]; acc1 += x[j+8:j+16]; acc2 += x[j+16:j+24]; acc3 += x[j+24:j+32]
        acc0 += acc1; acc0 += acc2; acc0 += acc3        (lane-wise, in this order)
        start = (n // 32) * 32
      else: start = 0
      for j in start, start+8, ... while j + 8 <= n:  acc0 += x[j:j+8]
      s = 0; for j in (n // 8) * 8 .. n-1: s = s + x[j]
      return s + predux(acc0)
    """
    r, n = x.shape
    start = 0
    acc0 = np.zeros((r, P), F32)
    if n >= 4 * P:
        v4 = (n // (4 * P)) * (4 * P)
        acc1 = np.zeros((r, P), F32)
        acc2 = np.zeros((r, P), F32)
        acc3 = np.zeros((r, P), F32)
        for j in range(0, v4, 4 * P):
            acc0 = _vadd(acc0, x[:, j:j + P])
            acc1 = _vadd(acc1, x[:, j + P:j + 2 * P])
            acc2 = _vadd(acc2, x[:, j + 2 * P:j + 3 * P])
            acc3 = _vadd(acc3, x[:, j + 3 * P:j + 4 * P])
        acc0 = _vadd(acc0, acc1)
        acc0 = _vadd(acc0, acc2)
        acc0 = _vadd(acc0, acc3)
        start = v4
    v = (n // P) * P
    for j in range(start, v, P):
        acc0 = _vadd(acc0, x[:, j:j + P])
    s = np.zeros(r, F32)
    for j in range(v, n):
        s = _vadd(s, x[:, j])
    return _vadd(s, _predux(acc0))


def _leaf(x, first, n):
    return leaf_rows(x[first:first + n][None, :])[0]


def inner_sum(x, first_index=0, n=None):
    """One Eigen InnerMostDimReducer<vectorized, tree>::reduce call.

    x is the flat float32 buffer, first_index the flat index of the first value
    of this reduction and n the count. The tree split (only for n > 8*1024)
    is aligned to a multiple of 8 in the FLAT buffer, so it depends on
    first_index.
    """
    x = flush(np.asarray(x, dtype=F32))
    if n is None:
        n = len(x) - first_index
    return _tree(x, first_index, n)


def _tree(x, first, n):
    if n > P * LEAF:
        half = -(-n // 2)
        split = P * (-(-(first + half) // P))
        num_left = min(split - first, n)
        acc = _add(F32(0), _tree(x, first, num_left))
        if num_left < n:
            acc = _add(acc, _tree(x, split, n - num_left))
        return acc
    return _leaf(x, first, n)


def full_sum(x):
    """tf.reduce_sum(x) over every element (single-threaded FullReducer).

    Multithreaded sharding starts only when Eigen's cost model asks for more
    than one thread: 0.8125*n cycles >= 210000, i.e. n >= 258462 floats (and
    only if the intra-op pool has > 1 thread). Not emulated here.
    """
    x = np.asarray(x, dtype=F32).ravel()
    if x.size == 0:
        return F32(0)
    if x.size == 1:
        return x[0]  # TF copies a one-element input: no addition, no flush
    return inner_sum(x, 0, x.size)


def row_sums(m):
    """tf.reduce_sum(m, axis=1) for a row-major [B, K] float32 array.

    TF's ReductionHelper first drops size-1 dimensions:
      K == 1: no reduction, values copied (out[b] = m[b,0]);
      B == 1: a 1-D full reduction (same as inner_sum with first_index 0);
      else:   row b is inner_sum(flat, first_index=b*K, n=K).
    All three agree except for the tree split alignment when K > 8192.
    """
    m = np.asarray(m, dtype=F32)
    b, k = m.shape
    if k == 0:
        return np.zeros(b, F32)
    if k == 1:
        return m[:, 0].copy()  # a copy: no arithmetic, so no flush either
    m = flush(m)
    if k <= P * LEAF:  # no tree split: every row is one leaf
        return leaf_rows(m)
    flat = m.ravel()
    if b == 1:
        return np.array([inner_sum(flat, 0, k)], F32)
    return np.array([inner_sum(flat, i * k, k) for i in range(b)], F32)


def axis0_sums_col(m):
    """tf.reduce_sum(m, axis=0) for a [B, 1] array = full_sum of the column."""
    m = np.asarray(m, dtype=F32)
    return np.array([full_sum(m[:, 0])], F32)


def sequential(x):
    """Plain left-to-right float32 sum (of the last axis), for comparison."""
    x = flush(np.asarray(x, dtype=F32))
    s = np.zeros(x.shape[:-1], F32)
    for j in range(x.shape[-1]):
        s = _vadd(s, x[..., j])
    return s
