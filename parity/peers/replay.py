#!/usr/bin/env python3
"""Regenerate testdata/peers/ from the peers' own test suites.

Usage: python3 parity/peers/replay.py [--src DIR] [--out DIR] [SUITE...]

Each suite is fetched at the version rankmetrics follows (git clone of the
tag, or a fetch of the commit where the release has no tag) into --src
(default: a directory under the system's temporary directory), its test
files are read as data (Python sources are parsed with the ast module, never
imported or run), and the cases are written under --out (default:
testdata/peers). Standard library only; needs git and network access.
No test of `go test` needs this script: it re-derives the committed goldens.

SUITE is any of the keys of SUITES below; none means all of them.
"""
import argparse
import ast
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The versions followed: repository, tag (or None), commit.
REPOS = {
    "trec_eval-10.0": ("usnistgov/trec_eval", "v10.0", "f4253652c8efd0d86ddffd0d163cc0a0f813111a"),
    "trec_eval-9.0.8": ("usnistgov/trec_eval", "v9.0.8", "d95ca64e14a47d763ae349fb65e6d8cde4141dbd"),
    "ir_measures": ("terrierteam/ir_measures", "v0.4.3", "bb9ece5c1ec6a0027c8a9f7a8ee428614f8a2f44"),
    "pytrec_eval": ("cvangysel/pytrec_eval", None, "0d8571efc2dea5a792358410d5affbe0ad383602"),
    "ranx": ("AmenRa/ranx", None, "008271e3e080e778bbd11b156ff8951aef53b73b"),
    "tf_ranking": ("tensorflow/ranking", None, "5b1d1338c1cb76507466d062e2d48bae57b17ac4"),
    "keras_rs": ("keras-team/keras-rs", "v0.4.0", "ef983222f394463fc31db1066851725232d1181d"),
    "torchmetrics": ("Lightning-AI/torchmetrics", "v1.9.0", "700261d3683ba77517e9650043f62a8313027437"),
}


def checkout(src, key):
    """Returns a work tree of REPOS[key], cloned into src if missing."""
    repo, tag, commit = REPOS[key]
    d = os.path.join(src, key)
    if not os.path.isdir(d):
        url = "https://github.com/%s.git" % repo
        if tag:
            subprocess.run(["git", "clone", "-q", "--depth", "1", "--branch", tag, url, d], check=True)
        else:
            os.makedirs(d)
            subprocess.run(["git", "-C", d, "init", "-q"], check=True)
            subprocess.run(["git", "-C", d, "fetch", "-q", "--depth", "1", url, commit], check=True)
            subprocess.run(["git", "-C", d, "checkout", "-q", "FETCH_HEAD"], check=True)
    got = subprocess.run(["git", "-C", d, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    if got != commit:
        sys.exit("%s: %s is at %s, want %s" % (key, d, got, commit))
    return d


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write_gz(path, data):
    """Writes data (bytes) gzipped with a fixed header, so reruns give the same bytes."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
            f.write(data)


class Suite:
    """Collects a suite's cases and its assertions that cannot be translated."""

    def __init__(self, out, name):
        self.out, self.name = out, name
        self.dir = os.path.join(out, name)
        self.cases, self.untranslated = [], []

    def case(self, cid, upstream, args, expect, files=None, inline=None, stdin=None):
        c = {"id": "%s/%s" % (self.name, cid), "upstream": upstream, "args": args}
        if files:
            c["files"] = files
        if inline:
            c["inline"] = inline
        if stdin is not None:
            c["stdin"] = stdin
        c["expect"] = expect
        if any(x["id"] == c["id"] for x in self.cases):
            sys.exit("duplicate case id " + c["id"])
        self.cases.append(c)

    def skip(self, upstream, reason):
        """Records an assertion (or upstream["assertions"] of them) not translated."""
        self.untranslated.append({"upstream": upstream, "reason": reason})

    def save(self):
        os.makedirs(self.dir, exist_ok=True)
        with open(os.path.join(self.dir, "cases.jsonl"), "w") as f:
            for c in self.cases:
                f.write(json.dumps(c, sort_keys=False) + "\n")
        with open(os.path.join(self.dir, "untranslated.jsonl"), "w") as f:
            for u in self.untranslated:
                f.write(json.dumps(u) + "\n")
        n = sum(c["upstream"].get("assertions", 1) for c in self.cases)
        m = sum(u["upstream"].get("assertions", 1) for u in self.untranslated)
        print("%s: %d cases (%d assertions), %d assertions not translated" % (self.name, len(self.cases), n, m))


def upstream(key, path, test, assertions=1, line=None):
    repo, tag, commit = REPOS[key]
    u = {"repo": repo, "version": tag or commit[:12], "file": path, "test": test, "assertions": assertions}
    if line is not None:
        u["line"] = line
    return u


# ---------------------------------------------------------------- trec_eval

def trec_eval(src, out):
    """The quicktest commands of both versions' Makefiles, each compared byte
    for byte with its out.* file, exit status 0 (trec_eval's on success)."""
    s = Suite(out, "trec_eval")
    trees = {v: checkout(src, "trec_eval-" + v) for v in ("10.0", "9.0.8")}
    stored = {}  # test file name -> the stored path shared by both versions where equal

    def store(v, name):
        data = open(os.path.join(trees[v], "test", name), "rb").read()
        other = "9.0.8" if v == "10.0" else "10.0"
        op = os.path.join(trees[other], "test", name)
        same = os.path.exists(op) and open(op, "rb").read() == data
        rel = "trec_eval/%s/%s.gz" % ("test" if same else "test-" + v, name)
        if rel not in stored:
            write_gz(os.path.join(out, rel), data)
            stored[rel] = True
        return rel

    for v in ("10.0", "9.0.8"):
        mk = read(os.path.join(trees[v], "Makefile")).split("\n")
        start = mk.index("quicktest: trec_eval")
        n = 0
        for i in range(start + 1, len(mk)):
            line = mk[i]
            if not line.startswith("\t"):
                break
            cmd = line.strip()
            if not cmd.startswith("./trec_eval "):
                continue
            left, right = cmd.split(" | ")
            assert right.startswith("diff - "), right
            words = left.split()[1:]
            outfile = right[len("diff - "):].strip()
            n += 1
            files = {w: store(v, w[len("test/"):]) for w in words if w.startswith("test/")}
            args = ["trec_eval"] + (["--compat", "9.0.8"] if v == "9.0.8" else []) + words
            expect = {"exit": 0, "stdout_file": store(v, outfile[len("test/"):])}
            s.case("%s/quicktest-%02d" % (v, n), upstream("trec_eval-" + v, "Makefile", "quicktest: " + left, line=i + 1),
                   args, expect, files=files)
    lic = os.path.join(ROOT, "testdata", "peers", "trec_eval", "TREC_EVAL_LICENSE.md")
    if os.path.abspath(out) != os.path.abspath(os.path.join(ROOT, "testdata", "peers")) and os.path.exists(lic):
        shutil.copy(lic, os.path.join(out, "trec_eval", "TREC_EVAL_LICENSE.md"))
    s.save()


SUITES = {
    "trec_eval": trec_eval,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", default=os.path.join(tempfile.gettempdir(), "rankmetrics-peers-src"))
    ap.add_argument("--out", default=os.path.join(ROOT, "testdata", "peers"))
    ap.add_argument("suites", nargs="*")
    a = ap.parse_args()
    names = a.suites or list(SUITES)
    os.makedirs(a.src, exist_ok=True)
    for n in names:
        if n not in SUITES:
            sys.exit("unknown suite %s: want one of %s" % (n, " ".join(SUITES)))
        SUITES[n](a.src, a.out)


if __name__ == "__main__":
    main()
