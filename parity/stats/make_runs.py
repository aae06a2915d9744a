#!/usr/bin/env python3
"""Writes a TREC qrels file and three runs for the README's examples.

testdata/examples holds what --seed 3 writes; the README's examples read it.

    python3 parity/stats/make_runs.py --seed 3 --out DIR

DIR/qrels.txt judges 30 documents of each of 50 queries (about 20% relevant);
DIR/A.run, B.run and C.run rank 25 of them by a noisy score: B boosts relevant
documents, C barely. Standard library only.
"""
import argparse
import os
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    random.seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    names = (("A.run", 0.0), ("B.run", 0.6), ("C.run", 0.05))
    files = {n: open(os.path.join(args.out, n), "w") for n, _ in names}
    with open(os.path.join(args.out, "qrels.txt"), "w") as q:
        for qi in range(1, args.queries + 1):
            docs = [f"d{j}" for j in range(30)]
            rel = {d: (1 if random.random() < 0.2 else 0) for d in docs}
            for d in docs:
                q.write(f"{qi} 0 {d} {rel[d]}\n")
            for n, boost in names:
                sc = [(random.gauss(0, 1) + (boost + 0.5) * rel[d], d) for d in docs[:25]]
                sc.sort(reverse=True)
                for r, (s, d) in enumerate(sc):
                    files[n].write(f"{qi} Q0 {d} {r + 1} {s:.4f} {n[0]}\n")
    for f in files.values():
        f.close()


if __name__ == "__main__":
    main()
