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
import math
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



# ---------------------------------------------------------------- ir_measures

IRM_PROVIDERS = {"pytrec_eval", "gdeval", "judged", "compat", "cwl_eval", "accuracy", "msmarco", "pyndeval",
                 "ranx", "trectools", "runtime"}
IRM_LOWER_MEASURES = {"nDCG", "infAP", "nERR_IA", "nNRBP", "alpha_DCG", "alpha_nDCG"}
IRM_PROVIDER_CLASSES = {"PytrecEvalProvider": "pytrec_eval"}


class Sym:
    """A value of the test the interpreter below follows symbolically."""

    def __init__(self, kind, **kw):
        self.kind = kind
        self.__dict__.update(kw)

    def __repr__(self):
        return "Sym(%s)" % self.kind


# Parameters ir_measures leaves out of a measure's name at their default.
IRM_DEFAULTS = {("rel", 1): {"P", "R", "AP", "RR", "SetP", "SetR", "SetF", "SetAP", "Success", "IPrec", "infAP",
                             "Rprec", "Bpref"},
                ("beta", 1.0): {"SetF"}}


def measure_repr(name, params, cutoff):
    """A measure as ir_measures' repr writes it (parameters in call order,
    those at their default left out)."""
    params = [(k, v) for k, v in params if isinstance(v, dict) or name not in IRM_DEFAULTS.get((k, v), ())]
    def val(v):
        if isinstance(v, dict):
            return "{" + ",".join("%r:%r" % (k, x) for k, x in sorted(v.items()) if k != x) + "}"
        return repr(v)
    r = name
    if params:
        r += "(" + ",".join("%s=%s" % (k, val(v)) for k, v in params) + ")"
    if cutoff is not None:
        r += "@%r" % (cutoff,)
    return r


class IRMInterp:
    """Follows one test function of ir_measures' suite statement by statement:
    qrels and runs as texts, measures as names, providers by name, and the
    calls to iter_calc / calc_aggregate as computations whose asserted values
    are recorded."""

    def __init__(self, path, fn, datadir):
        self.path, self.fn, self.datadir = path, fn, datadir
        self.env = {}
        self.calcs = []  # Sym("calc") in order of appearance
        self.unhandled = []  # (line, text) of assertions not followed

    # -- expressions
    def ev(self, n):
        e = self.ev
        if isinstance(n, ast.Constant):
            return n.value
        if isinstance(n, ast.Name):
            if n.id in self.env:
                return self.env[n.id]
            if n.id in IRM_PROVIDERS:
                return Sym("provider", name=n.id)
            if n.id[:1].isupper() or n.id in IRM_LOWER_MEASURES:
                return Sym("measure", name=n.id, params=[], cutoff=None)
            raise KeyError(n.id)
        if isinstance(n, ast.Attribute):
            base = n.value
            if isinstance(base, ast.Name) and base.id == "ir_measures" or \
                    isinstance(base, ast.Attribute) and base.attr in ("providers", "measures"):
                if n.attr in IRM_PROVIDERS:
                    return Sym("provider", name=n.attr)
                if n.attr[:1].isupper() or n.attr in IRM_LOWER_MEASURES:
                    return Sym("measure", name=n.attr, params=[], cutoff=None)
            v = e(base)
            if isinstance(v, Sym) and v.kind == "item":
                return Sym("itemattr", item=v, attr=n.attr)
            if isinstance(v, Sym) and v.kind == "metric" and n.attr in ("query_id", "value"):
                return getattr(v, n.attr)
            return Sym("attr", base=v, attr=n.attr)
        if isinstance(n, ast.BinOp):
            a, b = e(n.left), e(n.right)
            if isinstance(n.op, ast.MatMult):
                return Sym("measure", name=a.name, params=a.params, cutoff=b)
            ops = {ast.Add: lambda x, y: x + y, ast.Sub: lambda x, y: x - y, ast.Mult: lambda x, y: x * y,
                   ast.Div: lambda x, y: x / y}
            return ops[type(n.op)](a, b)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -e(n.operand)
        if isinstance(n, (ast.List, ast.Tuple, ast.Set)):
            return [e(x) for x in n.elts]
        if isinstance(n, ast.Dict):
            return {self.key(k): e(v) for k, v in zip(n.keys, n.values)}
        if isinstance(n, ast.Subscript):
            base, idx = e(n.value), e(n.slice)
            if isinstance(idx, Sym) and idx.kind == "measure":
                idx = self.fix(idx).repr
            if isinstance(base, Sym) and base.kind == "calc":
                if base.agg:
                    return Sym("aggval", calc=base, measure=idx)
                return Sym("item", calc=base, index=idx)
            return base[idx]
        if isinstance(n, ast.ListComp):
            # [q for q in qrels if q.query_id == '0']
            src = e(n.generators[0].iter)
            cond = n.generators[0].ifs[0]
            qid = e(cond.comparators[0])
            lines = [l for l in src.text.split("\n") if l.split()[:1] == [qid]]
            return Sym(src.kind, text="\n".join(lines) + "\n", file=None)
        if isinstance(n, ast.Call):
            return self.call(n)
        raise ValueError("expression %s" % ast.dump(n)[:80])

    def key(self, k):
        v = self.ev(k)
        return self.fix(v).repr if isinstance(v, Sym) and v.kind == "measure" else v

    def call(self, n):
        e = self.ev
        f = n.func
        fname = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        if fname in ("list", "set") and not n.args:
            return []
        if fname in ("list", "set", "sorted") and len(n.args) == 1:
            return e(n.args[0])
        if fname == "float":
            return float(e(n.args[0]))
        if fname in ("read_trec_qrels", "read_trec_run"):
            v = e(n.args[0])
            kind = "qrels" if fname == "read_trec_qrels" else "run"
            if isinstance(v, Sym) and v.kind == "path":
                return Sym(kind, text=read(os.path.join(self.datadir, v.name)), file=v.name)
            return Sym(kind, text=v, file=None)
        if fname == "join" and isinstance(f, ast.Attribute):
            return Sym("path", name=e(n.args[-1]))
        if fname == "dirname":
            return None
        if fname in IRM_PROVIDER_CLASSES:
            return Sym("provider", name=IRM_PROVIDER_CLASSES[fname])
        if fname in ("Metric", "CwlMetric"):
            args = [e(a) for a in n.args] + [None] * 3
            kw = {k.arg: e(k.value) for k in n.keywords}
            return Sym("metric", query_id=kw.get("query_id", args[0]), measure=kw.get("measure", args[1]),
                       value=kw.get("value", args[2]))
        if fname in ("iter_calc", "calc_aggregate", "evaluator", "calc"):
            owner = None
            if isinstance(f, ast.Attribute) and not (isinstance(f.value, ast.Name) and f.value.id == "ir_measures"):
                owner = e(f.value)
            args = [e(a) for a in n.args]
            if isinstance(owner, Sym) and owner.kind == "evaluator":
                c = Sym("calc", provider=owner.provider, measures=owner.measures, qrels=owner.qrels, run=args[0],
                        agg=True, line=n.lineno, values=[], qids={})
                self.calcs.append(c)
                return c
            if isinstance(owner, Sym) and owner.kind == "measure":
                prov, ms, (qrels, run) = None, [owner], args
            else:
                prov = owner.name if isinstance(owner, Sym) and owner.kind == "provider" else None
                ms = args[0]
                qrels = args[1]
                run = args[2] if len(args) > 2 else None
            ms = [self.fix(m) for m in ms]
            if fname == "evaluator":
                return Sym("evaluator", provider=prov, measures=ms, qrels=qrels)
            c = Sym("calc", provider=prov, measures=ms, qrels=qrels, run=run, agg=fname != "iter_calc",
                    line=n.lineno, values=[], qids={})
            self.calcs.append(c)
            return c
        if fname == "zip":
            return Sym("zip", parts=[e(a) for a in n.args])
        if fname == "supports":
            return Sym("supports")
        if fname == "len":
            v = e(n.args[0])
            return len(v) if isinstance(v, list) else Sym("len")
        if fname == "sum" and isinstance(n.args[0], ast.GeneratorExp):
            g = n.args[0]
            total = 0
            for x in e(g.generators[0].iter):
                self.assign(g.generators[0].target, x)
                total += e(g.elt)
            return total
        # a measure with parameters
        m = e(f)
        if isinstance(m, Sym) and m.kind == "measure":
            params, cutoff = list(m.params), m.cutoff
            for k in n.keywords:
                if k.arg == "cutoff":
                    cutoff = e(k.value)
                else:
                    params.append((k.arg, e(k.value)))
            return Sym("measure", name=m.name, params=params, cutoff=cutoff)
        raise ValueError("call %s" % ast.dump(n)[:80])

    def fix(self, m):
        m.repr = measure_repr(m.name, m.params, m.cutoff)
        return m

    # -- statements
    def run_body(self, body):
        for st in body:
            self.stmt(st)

    def assign(self, target, value):
        if isinstance(target, ast.Name):
            if isinstance(value, Sym) and value.kind == "measure":
                self.fix(value)
            self.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, Sym) and value.kind == "calc":
                # agg, perq = measure.calc(qrels, run)
                self.env[target.elts[0].id] = Sym("aggval", calc=value, measure=value.measures[0].repr)
                self.env[target.elts[1].id] = Sym("perq", calc=value)
                return
            for t, v in zip(target.elts, value):
                self.assign(t, v)

    def stmt(self, st):
        if isinstance(st, ast.Assign):
            try:
                v = self.ev(st.value)
            except (KeyError, ValueError, AttributeError, TypeError, IndexError):
                v = Sym("unknown")
            for t in st.targets:
                self.assign(t, v)
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            self.assertion(st.value)
        elif isinstance(st, ast.With):
            self.run_body(st.body)
        elif isinstance(st, ast.For):
            try:
                it = self.ev(st.iter)
            except (KeyError, ValueError, AttributeError, TypeError, IndexError):
                it = None
            if not isinstance(it, (list, Sym)) or isinstance(it, Sym) and it.kind != "zip":
                self.unhandled.append((st.lineno, "loop"))
                return
            if isinstance(it, Sym) and it.kind == "zip":
                calc, rows = it.parts
                it = [[Sym("item", calc=calc, index=i), r] for i, r in enumerate(rows)]
            for x in it:
                self.assign(st.target, x)
                self.run_body(st.body)
        elif isinstance(st, (ast.Pass, ast.Import, ast.ImportFrom)):
            pass
        else:
            self.unhandled.append((st.lineno, "statement"))

    def record(self, calc, qid, measure, value, tol):
        calc.values.append({"qid": qid, "measure": measure, "value": value, "tol": tol})

    def assertion(self, call):
        f = call.func
        name = f.attr if isinstance(f, ast.Attribute) else None
        if name not in ("assertEqual", "assertAlmostEqual", "assert_equal", "assertMetrics"):
            if name in ("assertTrue", "assertFalse") or name == "print" or \
                    isinstance(f, ast.Name) and f.id == "print":
                return
            if name == "calc_aggregate":  # a call whose result no assertion reads
                return
            self.unhandled.append((call.lineno, name))
            return
        kw = {k.arg: k.value for k in call.keywords}
        if "places" in kw:
            tol = 0.5 * 10 ** -self.ev(kw["places"])
        elif "delta" in kw:
            tol = self.ev(kw["delta"])
        elif name == "assertMetrics":
            tol = 0.5e-4
        else:
            tol = 0.0
        if name == "assertMetrics" and "not_equal" in kw:
            self.unhandled.append((call.lineno, "not_equal"))
            return
        try:
            a, b = self.ev(call.args[0]), self.ev(call.args[1])
        except (KeyError, ValueError, AttributeError, TypeError, IndexError):
            self.unhandled.append((call.lineno, "operands"))
            return
        if not isinstance(a, Sym) or a.kind not in ("itemattr", "aggval", "calc", "item", "len", "perq"):
            a, b = b, a
        if not isinstance(a, Sym):
            self.unhandled.append((call.lineno, "operands"))
            return
        if a.kind == "len":
            return
        if a.kind == "itemattr":
            c, i = a.item.calc, a.item.index
            if a.attr == "query_id":
                c.qids[i] = b
            else:
                self.record(c, i, None, b, tol)
        elif a.kind == "item":
            self.record(a.calc, b.query_id, None, b.value, tol)
        elif a.kind == "aggval":
            m = a.measure
            self.record(a.calc, "all", m if len(a.calc.measures) > 1 else None, b, tol)
        elif a.kind == "calc" and a.agg and not isinstance(b, dict):
            self.record(a, "all", None, b, tol)
        elif a.kind == "calc" and a.agg:
            for m, v in b.items():
                self.record(a, "all", m if len(a.measures) > 1 else None, v, tol)
        elif a.kind == "calc":
            if not b:
                a.exact = True
            for m in b:
                self.record(a, m.query_id, None, m.value, tol)
            a.exact = True
        else:
            self.unhandled.append((call.lineno, "operands"))


def ir_measures_suite(src, out):
    s = Suite(out, "ir_measures")
    tree = checkout(src, "ir_measures")
    tdir = os.path.join(tree, "tests")
    for data in ("cwl.qrels", "cwl.run", "compat.qrels", "compat.run"):
        dst = os.path.join(s.dir, data)
        os.makedirs(s.dir, exist_ok=True)
        shutil.copy(os.path.join(tdir, data), dst)
    for fname in sorted(os.listdir(tdir)):
        if not fname.startswith("test_") or not fname.endswith(".py"):
            continue
        rel = "tests/" + fname
        mod = ast.parse(read(os.path.join(tdir, fname)))
        for cls in [c for c in mod.body if isinstance(c, ast.ClassDef)]:
            for fn in [f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name.startswith("test")]:
                it = IRMInterp(rel, fn, tdir)
                it.run_body(fn.body)
                irm_cases(s, rel, cls.name + "." + fn.name, it)
    s.save()


def irm_cases(s, rel, test, it):
    n = 0
    for c in it.calcs:
        if not c.values:
            continue
        n += 1
        inline, files = {}, {}
        names = []
        for kind, v in (("qrels", c.qrels), ("run", c.run)):
            if isinstance(v, list):  # empty = []
                v = Sym(kind, text="", file=None)
            if v.file:
                files[v.file] = "ir_measures/" + v.file
                names.append(v.file)
            else:
                inline[kind] = v.text
                names.append(kind)
        perq = any(v["qid"] != "all" for v in c.values)
        args = ["ir_measures"] + (["-q"] if perq else []) + ["-o", "jsonl"]
        if c.provider:
            args += ["--provider", c.provider]
        # ir_measures' gdeval provider computes its nDCG (gain 2^label - 1) for
        # any nDCG it is handed; the measure it lists is nDCG(dcg='exp-log2').
        alias = {}
        if c.provider == "gdeval":
            for m in c.measures:
                if m.name == "nDCG" and not any(k == "dcg" for k, _ in m.params):
                    alias[m.repr] = measure_repr("nDCG", m.params + [("dcg", "exp-log2")], m.cutoff)
        args += names + [alias.get(m.repr, m.repr) for m in c.measures]
        values, tols = [], set()
        for v in c.values:
            if v["measure"]:
                v["measure"] = alias.get(v["measure"], v["measure"])
            qid = v["qid"]
            if isinstance(qid, int):
                qid = c.qids.get(qid)
                if qid is None:
                    sys.exit("%s %s line %d: no query id for result %d" % (rel, test, c.line, v["qid"]))
            val = v["value"]
            if isinstance(val, float) and val != val:
                val = "NaN"
            values.append({"qid": qid, "measure": v["measure"] or "", "value": val})
            tols.add(v["tol"])
        tol = max(tols)
        expect = {"exit": 0, "output": "irm-jsonl", "values": values, "abs": tol, "rel": 0}
        if getattr(c, "exact", False):
            expect["exact_rows"] = True
        s.case("%s/%s/%d" % (rel[len("tests/"):-3], test.split(".")[-1], n),
               upstream("ir_measures", rel, test, assertions=len(values), line=c.line),
               args, expect, files=files, inline=inline)
    for line, what in it.unhandled:
        s.skip(upstream("ir_measures", rel, test, line=line), irm_reason(rel, test, what))


def irm_reason(rel, test, what):
    """Why an assertion of ir_measures' suite has no case."""
    if rel == "tests/test_runtime.py":
        return ("the runtime provider scores with a Python function the test defines (ir_measures.define, "
                "define_byquery); no command of rankmetrics runs user code")
    if rel == "tests/test_util.py":
        return "a test of ir_measures' Python API (measure parsing, qrels and run converters): no measure value"
    if rel == "tests/test_measures.py":
        return "compares the providers with each other on the same measure: no literal expected value"
    if test.endswith("test_judged_only"):
        return ("compares two computations (judged_only=True against the run without its unjudged documents): "
                "no literal expected value")
    sys.exit("%s %s: assertion not followed (%s)" % (rel, test, what))


# ---------------------------------------------------------------- keras-rs

class NotTranslatable(Exception):
    """Raised by a stand-in when a test reaches what no command can answer."""


class Snapshot:
    """A metric's result() call: the metric's settings and its updates so far."""

    def __init__(self, metric):
        self.name, self.kw, self.updates = metric.name, dict(metric.kw), list(metric.updates)

    def numpy(self):
        return self


class RecMetric:
    """Stands in for a library metric: records its settings and updates."""

    def __init__(self, name, kw):
        self.name, self.kw, self.updates = name, kw, []

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.updates.append((y_true, y_pred, sample_weight))

    def result(self):
        return Snapshot(self)

    def reset_states(self):
        self.updates = []

    def get_config(self):
        raise NotTranslatable("restores a metric from its configuration: no value of its own")

    def reset_state(self):
        self.updates = []

    def __call__(self, y_true, y_pred, sample_weight=None):
        self.update_state(y_true, y_pred, sample_weight)
        return self.result()


class Recorder:
    """Stands in for the test case: records assertions of values."""

    def __init__(self):
        self.checks, self.skips = [], []

    def assertAllClose(self, actual, desired, atol=1e-6, rtol=1e-6, **_):
        self.checks.append((actual, desired, atol, rtol))

    def assertRaisesRegex(self, *a, **k):
        raise NotTranslatable("checks that an invalid argument raises an error: no value")

    def assertDictEqual(self, *a, **k):
        raise NotTranslatable("checks a configuration round trip (get_config, serialize): no value")

    def __getattr__(self, name):
        raise NotTranslatable("uses %s of the test case" % name)


class Refuse:
    """Stands in for a module no command can stand for (keras models, random)."""

    def __init__(self, why):
        self.why = why

    def __getattr__(self, name):
        raise NotTranslatable(self.why)

    def __call__(self, *a, **k):
        raise NotTranslatable(self.why)


class Ops:
    """keras.ops, for the arithmetic of the tests' inputs and functions."""

    @staticmethod
    def array(x, dtype=None):
        return x

    convert_to_tensor = array

    @staticmethod
    def cast(x, dtype=None):
        return x

    @staticmethod
    def divide(a, b):
        return a / b


def literal_tree(x):
    if isinstance(x, bool):
        return x
    if isinstance(x, (int, float)):
        return float(x)
    return [literal_tree(v) for v in x]


def depth(x):
    return 1 + depth(x[0]) if isinstance(x, list) and x else (1 if isinstance(x, list) else 0)


def keras_update(y_true, y_pred, w):
    """One keras-rs update_state as a compute update: rows of labels (a
    masked item gets label -1, which keras-rs' valid mask, labels >= 0,
    also drops), predictions, and weights per item or per list."""
    mask = None
    if isinstance(y_true, dict):
        y_true, mask = y_true["labels"], y_true.get("mask")
    labels, preds = literal_tree(y_true), literal_tree(y_pred)
    unbatched = depth(labels) == 1
    if unbatched:
        labels, preds = [labels], [preds]
        if mask is not None:
            mask = [mask]
    if mask is not None:
        labels = [[l if m else -1.0 for l, m in zip(lr, mr)] for lr, mr in zip(labels, mask)]
    weights = None
    if w is not None:
        w = literal_tree(w)
        d = depth(w)
        if d == 0:
            weights = [[w] for _ in labels]
        elif d == 1 and unbatched:
            weights = [w]
        elif d == 1:
            weights = [[x] for x in w]
        else:
            weights = w
    return {"labels": labels, "predictions": preds, "weights": weights}


def compute_cases(s, key, rel, test, line, checks, base, to_case, numbered):
    """Writes one compute case per asserted result: the result() snapshot
    made a case by to_case, the value and tolerance the test asserts."""
    for n, (snap, want, atol, rtol) in enumerate(checks, 1):
        cid = base + ("/%d" % n if numbered else "")
        try:
            c = to_case(snap)
        except NotTranslatable as e:
            s.skip(upstream(key, rel, test, line=line), str(e))
            continue
        c["id"] = cid
        s.case(cid, upstream(key, rel, test, line=line), ["compute"],
               {"exit": 0, "output": "compute", "values": [{"qid": cid, "measure": "result", "value": float(want)}],
                "abs": atol, "rel": rtol},
               stdin=json.dumps(c) + "\n")


KERAS_METRICS = {"MeanAveragePrecision": "map", "NDCG": "ndcg", "DCG": "dcg", "MeanReciprocalRank": "mrr",
                 "PrecisionAtK": "precision", "RecallAtK": "recall"}


def probe_fn(f, table):
    """Names a gain or discount function of a test by its values."""
    for name, g in table.items():
        if all(abs(f(float(x)) - g(float(x))) < 1e-12 for x in (1, 2, 3, 5)):
            return name
    raise NotTranslatable("a gain or discount function rankmetrics does not name")


def keras_case(snap, profile):
    c = {"metric": KERAS_METRICS[snap.name], "profile": profile, "dtype": "float32", "ties": "stable"}
    kw = dict(snap.kw)
    if "k" in kw:
        c["topn"] = kw.pop("k")
    if "gain_fn" in kw:
        c["gain"] = probe_fn(kw.pop("gain_fn"), {"identity": lambda x: x, "pow2m1": lambda x: 2 ** x - 1})
    if "rank_discount_fn" in kw:
        c["discount"] = probe_fn(kw.pop("rank_discount_fn"),
                                 {"inverse": lambda r: 1 / r, "log2": lambda r: 1 / math.log2(r + 1)})
    if kw:
        raise NotTranslatable("metric arguments %s" % sorted(kw))
    c["updates"] = [keras_update(*u) for u in snap.updates]
    return c


def stand_in_module(tree, names):
    """Runs the module-level helpers of a test file (pure functions of
    numbers, such as keras-rs' _compute_dcg) in a namespace of stand-ins."""
    ns = dict(names)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            exec(compile(ast.Module(body=[node], type_ignores=[]), "<helper>", "exec"), ns)
    return ns


def param_sets(fn, ns):
    """The parameter sets of a test: its named_parameters (name, args...) or
    one set without arguments."""
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "named_parameters":
            out = []
            for a in d.args:
                v = eval(compile(ast.Expression(a), "<param>", "eval"), ns)
                if isinstance(v, dict):
                    v = dict(v)
                    out.append((v.pop("testcase_name"), [], v))
                else:
                    out.append((v[0], list(v[1:]), {}))
            return out
    return [(None, [], {})]


def run_test_fn(fn, ns, setup, args, kwargs):
    """Runs a test method body with the stand-ins; returns the recorder."""
    rec = Recorder()
    f = ast.FunctionDef(name="_t", args=fn.args, body=fn.body, decorator_list=[], returns=None, type_comment=None)
    ast.fix_missing_locations(f)
    local = dict(ns)
    exec(compile(ast.Module(body=[f], type_ignores=[]), "<test>", "exec"), local)
    for k, v in setup.items():
        object.__setattr__(rec, k, v)
    local["_t"](rec, *args, **kwargs)
    return rec


def keras_rs_suite(src, out):
    s = Suite(out, "keras_rs")
    tree = checkout(src, "keras_rs")
    mdir = os.path.join(tree, "keras_rs", "src", "metrics")
    for fname in sorted(os.listdir(mdir)):
        if not fname.endswith("_test.py"):
            continue
        rel = "keras_rs/src/metrics/" + fname
        mod = ast.parse(read(os.path.join(mdir, fname)))
        names = {"math": math, "ops": Ops, "keras": Refuse("trains a Keras model on random data: no literal value"),
                 "deserialize": Refuse("a configuration round trip: no value"),
                 "serialize": Refuse("a configuration round trip: no value")}
        for m in KERAS_METRICS:
            names[m] = (lambda name: lambda **kw: RecMetric(name, kw))(m)
        ns = stand_in_module(mod, names)
        for cls in [c for c in mod.body if isinstance(c, ast.ClassDef)]:
            fns = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
            setup = {}
            if "setUp" in fns:
                body = [st for st in fns["setUp"].body if not (isinstance(st, ast.Expr) and "super" in ast.unparse(st))]
                holder = Recorder()
                f = ast.FunctionDef(name="_s", args=fns["setUp"].args, body=body, decorator_list=[], returns=None,
                                    type_comment=None)
                ast.fix_missing_locations(f)
                local = dict(ns)
                exec(compile(ast.Module(body=[f], type_ignores=[]), "<setup>", "exec"), local)
                local["_s"](holder)
                setup = {k: v for k, v in holder.__dict__.items() if k not in ("checks", "skips")}
            for name, fn in fns.items():
                if not name.startswith("test"):
                    continue
                test = "%s.%s" % (cls.name, name)
                for pname, args, kwargs in param_sets(fn, ns):
                    tname = test + ("_" + pname if pname else "")
                    try:
                        rec = run_test_fn(fn, ns, setup, args, kwargs)
                    except NotTranslatable as e:
                        s.skip(upstream("keras_rs", rel, tname, line=fn.lineno), str(e))
                        continue
                    base = "%s/%s" % (fname[:-len("_test.py")], tname.split(".", 1)[1])
                    compute_cases(s, "keras_rs", rel, tname, fn.lineno, rec.checks, base,
                                  lambda snap: keras_case(snap, "keras-rs"), len(rec.checks) > 1)
    s.save()


# ---------------------------------------------------------------- TF-Ranking

TFR_METRICS = {"MRRMetric": "mrr", "HitsMetric": "hits", "MeanAveragePrecisionMetric": "map", "DCGMetric": "dcg",
               "NDCGMetric": "ndcg", "OPAMetric": "opa", "AlphaDCGMetric": "alpha_dcg",
               "PrecisionIAMetric": "precision_ia", "ARPMetric": "arp", "PrecisionMetric": "precision",
               "RecallMetric": "recall"}


class Ragged(list):
    """A tf.ragged.constant."""


class TF:
    """The parts of TensorFlow the tests' inputs use."""

    class ragged:
        @staticmethod
        def constant(x):
            return Ragged(x)

    class random:
        @staticmethod
        def set_seed(_):
            pass

    @staticmethod
    def constant(x, dtype=None):
        return x

    @staticmethod
    def stack(xs, axis=0):
        if axis != 2:
            raise NotTranslatable("tf.stack on axis %d" % axis)
        a = xs[0]
        out = [[[x[i][j] for x in xs] for j in range(len(a[i]))] for i in range(len(a))]
        return Ragged(out) if isinstance(a, Ragged) else out

    float32 = "float32"


class TFRRecorder(Recorder):
    def assertAlmostEqual(self, a, b, places=7, delta=None, msg=None):
        if isinstance(a, Snapshot) or isinstance(b, Snapshot):
            if isinstance(b, Snapshot):
                a, b = b, a
            self.checks.append((a, b, delta if delta is not None else 0.5 * 10 ** -places, 0))

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        if isinstance(a, Snapshot) or isinstance(b, Snapshot):
            if isinstance(b, Snapshot):
                a, b = b, a
            self.checks.append((a, b, atol, rtol))
        else:
            raise NotTranslatable("compares two computations of the library (a restored metric with the "
                                  "original): no literal expected value")

    def assertIsInstance(self, *a, **k):
        raise NotTranslatable("checks a Python type: no value")

    def assertRaisesRegexp(self, *a, **k):
        raise NotTranslatable("checks that an invalid argument raises an error: no value")

    assertRaises = assertRaisesRegexp


def tfr_update(labels, preds, w, subtopics):
    ragged = isinstance(labels, Ragged) or isinstance(preds, Ragged)
    labels, preds = literal_tree(labels), literal_tree(preds)
    if subtopics:
        labels = [[v for item in row for v in item] for row in labels]
    weights = None
    if w is not None:
        w = literal_tree(w)
        d = depth(w)
        if d == 0:
            weights = [[w] for _ in labels]
        elif d == 1:  # TF broadcasts a [L] weight over the positions of every list
            weights = [list(w) for _ in labels]
        elif d == 3:  # [B, L, 1]
            weights = [[x[0] for x in row] for row in w]
        else:
            weights = w
    return {"labels": labels, "predictions": preds, "weights": weights}, ragged


def tfr_case(snap):
    name = TFR_METRICS.get(snap.name, snap.name)
    c = {"metric": name, "dtype": "float32", "ties": "stable"}
    kw = dict(snap.kw)
    kw.pop("name", None)
    kw.pop("dtype", None)
    if "topn" in kw:
        c["topn"] = kw.pop("topn")
    if kw.pop("ragged", False):
        c["ragged"] = True
    if "gain_fn" in kw:
        c["gain"] = probe_fn(kw.pop("gain_fn"), {"identity": lambda x: x, "pow2m1": lambda x: 2 ** x - 1})
    if "rank_discount_fn" in kw:
        c["discount"] = probe_fn(kw.pop("rank_discount_fn"),
                                 {"inverse": lambda r: 1 / r, "log2": lambda r: 1 / math.log2(r + 1)})
    if "alpha" in kw:
        c["alpha"] = kw.pop("alpha")
    if "seed" in kw:
        c["seed"] = kw.pop("seed")
    c.update(kw)  # arguments compute has no key for (BPREF's use_trec_version) make the case an error
    subtopics = 0
    if name in ("alpha_dcg", "precision_ia"):
        first = snap.updates[0][0]
        subtopics = len(first[0][0])
        c["subtopics"] = subtopics
    ups = []
    for u in snap.updates:
        up, ragged = tfr_update(u[0], u[1], u[2], subtopics)
        if ragged:
            c["ragged"] = True
        ups.append(up)
    c["updates"] = ups
    return c


class Utils:
    identity = staticmethod(lambda x: x)
    inverse = staticmethod(lambda r: 1.0 / r)
    serialize_keras_object = Refuse("a configuration round trip: no value")
    deserialize_keras_object = Refuse("a configuration round trip: no value")


def metric_class(name):
    """A stand-in class for the library metric called name."""
    def new(cls, **kw):
        return RecMetric(name, kw)

    def from_config(cls, *a, **k):
        raise NotTranslatable("restores a metric from its configuration: no value of its own")
    return type(name, (), {"__new__": new, "from_config": classmethod(from_config)})


TFR_KEYS = {"MRR": "MRRMetric", "ARP": "ARPMetric", "NDCG": "NDCGMetric", "DCG": "DCGMetric",
            "PRECISION": "PrecisionMetric", "RECALL": "RecallMetric", "MAP": "MeanAveragePrecisionMetric",
            "ORDERED_PAIR_ACCURACY": "OPAMetric", "HITS": "HitsMetric", "PRECISION_IA": "PrecisionIAMetric",
            "ALPHA_DCG": "AlphaDCGMetric", "BPREF": "bpref", "PWA": "pwa"}


class EstimatorLib:
    """tensorflow_ranking.python.metrics, as the estimator tests use it."""

    class RankingMetricKey:
        pass

    @staticmethod
    def make_ranking_metric_fn(key, weights_feature_name=None, **kw):
        def fn(labels, predictions, features):
            m = RecMetric(key, kw)
            w = None
            if weights_feature_name:
                w = literal_tree(features[weights_feature_name])
                if depth(w) == 1:  # utils.reshape_to_2d: [B] is one weight per list
                    w = [[x] for x in w]
            m.update_state(labels, predictions, w)
            return m.result()
        return fn

    def __getattr__(self, attr):
        raise NotTranslatable("calls metrics_lib.%s directly to compare two computations: no literal value" % attr)


for _k, _v in TFR_KEYS.items():
    setattr(EstimatorLib.RankingMetricKey, _k, _v)


class Graph:
    def as_default(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


TF.Graph = Graph


class EstimatorRecorder(TFRRecorder):
    def _check_metrics(self, pairs):
        for snap, value in pairs:
            self.checks.append((snap, value, 0.5e-5, 0))

    def assertGreater(self, *a, **k):
        raise NotTranslatable("checks that a value is positive: no literal value")


def tf_ranking_suite(src, out):
    s = Suite(out, "tf_ranking")
    tree = checkout(src, "tf_ranking")
    tfr_file(s, tree, "tensorflow_ranking/python/keras/metrics_test.py", "keras", TFRRecorder, None)
    tfr_file(s, tree, "tensorflow_ranking/python/metrics_test.py", "estimator", EstimatorRecorder, EstimatorLib())
    s.save()


def tfr_file(s, tree, rel, prefix, recorder, estimator):
    mod = ast.parse(read(os.path.join(tree, rel)))
    class Meta(type):
        def __getattr__(cls, attr):
            raise NotTranslatable("uses metrics_lib.%s, which is no metric: no value" % attr)
    lib = Meta("metrics_lib", (), {})
    for m in TFR_METRICS:
        setattr(lib, m, metric_class(m))
    names = {"math": math, "tf": TF, "metrics_lib": estimator or lib, "utils": Utils}
    ns = stand_in_module(mod, names)
    for cls in [c for c in mod.body if isinstance(c, ast.ClassDef)]:
        fns = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
        for name, fn in fns.items():
            if not name.startswith("test"):
                continue
            test = "%s.%s" % (cls.name, name)
            try:
                sets = param_sets(fn, ns)
            except NotTranslatable as e:
                s.skip(upstream("tf_ranking", rel, test, line=fn.lineno), str(e))
                continue
            if any(isinstance(d, ast.Call) and getattr(d.func, "attr", "") == "parameters" for d in fn.decorator_list):
                n = len(fn.decorator_list[0].args)
                s.skip(upstream("tf_ranking", rel, test, assertions=n, line=fn.lineno),
                       "compares a restored metric with the original: no literal expected value")
                continue
            for pname, args, kwargs in sets:
                rec = recorder()
                f = ast.FunctionDef(name="_t", args=fn.args, body=fn.body, decorator_list=[], returns=None,
                                    type_comment=None)
                ast.fix_missing_locations(f)
                local = dict(ns)
                local["_check_config"] = None
                exec(compile(ast.Module(body=[f], type_ignores=[]), "<test>", "exec"), local)
                object.__setattr__(rec, "_check_config", Refuse("checks a configuration round trip: no value"))
                try:
                    local["_t"](rec, *args, **kwargs)
                except NotTranslatable as e:
                    # the checks before this point stand
                    s.skip(upstream("tf_ranking", rel, test, line=fn.lineno), str(e))
                compute_cases(s, "tf_ranking", rel, test, fn.lineno, rec.checks, "%s/%s" % (prefix, test), tfr_case,
                              True)

SUITES = {
    "trec_eval": trec_eval,
    "ir_measures": ir_measures_suite,
    "keras_rs": keras_rs_suite,
    "tf_ranking": tf_ranking_suite,
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
