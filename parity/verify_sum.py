"""Checks parity/eigen_sum.py against the real tf.reduce_sum, bit for bit.

Usage: .venv/bin/python verify_sum.py [--quick] [--graph]

Inputs are order-sensitive float32 values (random sign, magnitudes spread over
2^-14 .. 2^14), so a wrong addition order almost always changes the bits; the
script also counts how often plain sequential summation would have been wrong,
which shows the test can tell the orders apart.
"""

import argparse
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eigen_sum as es  # noqa: E402

F32 = np.float32


def draw(rng, shape):
    mag = np.exp2(rng.uniform(-14, 14, size=shape))
    sign = rng.choice([-1.0, 1.0], size=shape)
    return (sign * mag).astype(F32)


def draw_map_like(rng, shape):
    """Non-negative values like MAP's TP terms: precisions k/j times weights."""
    k = rng.integers(1, 300, size=shape)
    j = k + rng.integers(0, 300, size=shape)
    w = rng.uniform(0.01, 10.0, size=shape).astype(F32)
    p = (k.astype(F32) / j.astype(F32)).astype(F32)
    v = (p * w).astype(F32)
    v[rng.random(shape) < 0.5] = 0
    return v


def bits(a):
    return np.asarray(a, dtype=F32).view(np.uint32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--graph", action="store_true", help="run the sums inside tf.function")
    ap.add_argument("--seed", type=int, default=20240601)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)

    if args.graph:
        full = tf.function(lambda t: tf.reduce_sum(t))
        rows = tf.function(lambda t: tf.reduce_sum(t, axis=1, keepdims=True))
        col0 = tf.function(lambda t: tf.reduce_sum(t, axis=0, keepdims=True))
    else:
        full = lambda t: tf.reduce_sum(t)  # noqa: E731
        rows = lambda t: tf.reduce_sum(t, axis=1, keepdims=True)  # noqa: E731
        col0 = lambda t: tf.reduce_sum(t, axis=0, keepdims=True)  # noqa: E731

    counts = {}

    def record(kind, ok, seq_ok):
        c = counts.setdefault(kind, [0, 0, 0])
        c[0] += 1
        c[1] += int(ok)
        c[2] += int(seq_ok)

    t0 = time.time()
    # 1. full reductions of 1-D tensors, n = 1..5000 (every n up to 600).
    ns = list(range(1, 601)) + list(range(601, 5001, 7)) + [1023, 1024, 1025, 2047, 2048, 4096, 4999, 5000]
    if not args.quick:
        ns += [8191, 8192, 8193, 8200, 9000, 12345, 16384, 16385, 20000, 33333, 65536, 100001]
    for n in ns:
        for gen in (draw, draw_map_like):
            x = gen(rng, (n,))
            got = full(tf.constant(x)).numpy()
            ok = bits(es.full_sum(x)) == bits(got)
            seq_ok = bits(es.sequential(x)) == bits(got)
            record("full 1-D", bool(ok), bool(seq_ok))
            if not ok:
                print("MISMATCH full n=%d" % n, got, es.full_sum(x))

    # 2. axis=1 of [B, K] (TP / TR / SW sums), B = 1..512.
    bs = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 64, 100, 127, 128, 129, 255, 256, 511, 512]
    ks = [1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 200, 255, 256, 300, 303]
    if args.quick:
        bs = [1, 2, 9, 128]
        ks = [1, 8, 33, 64, 300]
    for b in bs:
        for k in ks:
            gen = draw if (b + k) % 2 else draw_map_like
            m = gen(rng, (b, k))
            got = rows(tf.constant(m)).numpy()[:, 0]
            want = es.row_sums(m)
            seq = es.sequential(m)
            for i in range(b):
                record("axis1 [B,K]", bool(bits(want[i]) == bits(got[i])), bool(bits(seq[i]) == bits(got[i])))
            if (bits(want) != bits(got)).any():
                print("MISMATCH rows B=%d K=%d" % (b, k))
    # a few long rows on the tree path (K > 8192), several rows so the split
    # alignment depends on first_index = b*K.
    if not args.quick:
        for b, k in [(3, 8193), (2, 10001), (5, 9000)]:
            m = draw(rng, (b, k))
            got = rows(tf.constant(m)).numpy()[:, 0]
            want = es.row_sums(m)
            for i in range(b):
                record("axis1 [B,K] tree", bool(bits(want[i]) == bits(got[i])), bool(bits(es.sequential(m[i])) == bits(got[i])))

    # 3. axis=0 of [B, 1] (list-weight sums over the batch) and full reduce of
    #    [B, 1] (Keras Mean: reduce_sum(values*weights), reduce_sum(weights)).
    for b in range(1, 513 if not args.quick else 140):
        m = draw_map_like(rng, (b, 1)) if b % 2 else draw(rng, (b, 1))
        got0 = col0(tf.constant(m)).numpy()[0, 0]
        gotf = full(tf.constant(m)).numpy()
        want = es.full_sum(m)
        seq_ok = bits(es.sequential(m[:, 0])) == bits(got0)
        record("axis0 [B,1]", bool(bits(want) == bits(got0)), bool(seq_ok))
        record("full [B,1]", bool(bits(want) == bits(gotf)), bool(bits(es.sequential(m[:, 0])) == bits(gotf)))

    # 4. subnormal inputs and sums whose partial results underflow: TF runs its
    #    CPU kernels with FTZ+DAZ, the emulator flushes the same way.
    for n in list(range(1, 80)) + [100, 300, 1000]:
        x = (rng.choice([-1.0, 1.0], size=n) * rng.uniform(0.05, 3.0, size=n) * 2.0 ** -126).astype(F32)
        got = full(tf.constant(x)).numpy()
        record("subnormal 1-D", bool(bits(es.full_sum(x)) == bits(got)), bool(bits(es.sequential(x)) == bits(got)))
        m = x.reshape(1, n) if n % 3 else x.reshape(3, n // 3)
        got = rows(tf.constant(m)).numpy()[:, 0]
        want = es.row_sums(m)
        for i in range(m.shape[0]):
            record("subnormal [B,K]", bool(bits(want[i]) == bits(got[i])), bool(bits(es.sequential(m[i])) == bits(got[i])))

    dt = time.time() - t0
    mode = "tf.function" if args.graph else "eager"
    print("mode=%s onednn=%s threads(intra)=%d  %.1fs" % (
        mode, os.environ.get("TF_ENABLE_ONEDNN_OPTS", "default"),
        tf.config.threading.get_intra_op_parallelism_threads(), dt))
    bad = 0
    for kind, (n, ok, seq_ok) in counts.items():
        print("%-18s %6d sums: emulator bit-equal %6d, sequential would be bit-equal %6d" % (kind, n, ok, seq_ok))
        bad += n - ok
    print("ALL BIT-EQUAL" if bad == 0 else "%d MISMATCHES" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
