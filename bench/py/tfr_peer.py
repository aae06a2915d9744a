"""The real TF-Ranking 0.5.5 MeanAveragePrecisionMetric on the RKM1 arrays
(compute only), run from the parity venv. One update_state per batch of
--batch lists, like a Keras evaluation loop."""
import argparse
import os
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from common import emit, log  # noqa: E402
from numpy_tf import read_rkm1  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--batch", type=int, default=100000)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    import tensorflow as tf
    import tensorflow_ranking as tfr

    tf.config.threading.set_intra_op_parallelism_threads(a.threads)
    tf.config.threading.set_inter_op_parallelism_threads(a.threads)
    labels, scores = read_rkm1(a.bin)
    m = tfr.keras.metrics.MeanAveragePrecisionMetric()
    m.update_state(labels[:2], scores[:2])  # build the graph
    m.reset_state()
    lt = [tf.constant(labels[i:i + a.batch]) for i in range(0, len(labels), a.batch)]
    st = [tf.constant(scores[i:i + a.batch]) for i in range(0, len(scores), a.batch)]
    t = time.perf_counter()
    for x, y in zip(lt, st):
        m.update_state(x, y)
    v = float(m.result())
    sec = time.perf_counter() - t
    emit(peer="tf-ranking", what=f"compute random (batch {a.batch}, {a.threads} thread)", seconds=sec, map=v,
         items=int(labels.size), tf=tf.__version__)
    log("tf-ranking done")


if __name__ == "__main__":
    main()
