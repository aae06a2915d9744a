"""Print the ratio table of bench/run.sh from its JSON result lines.

Every ratio compares two figures measured in the same run. "x faster" is
peer time / rankmetrics time; "x" alone is rankmetrics time / baseline time.
A figure is the fastest of its repetitions when they were recorded (the
machine is shared: the fastest run is the least disturbed one), else the
single time reported (the floor programs print their own median of 5).
"""
import json
import sys


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def find(rows, peer, what):
    for r in rows:
        if r["peer"] == peer and r["what"] == what:
            r = dict(r)
            if r.get("runs"):
                r["median"] = r["seconds"]
                r["seconds"] = min(r["runs"])
            return r
    return None


def find_min(rows, peer, what):
    """The row with the smallest time among those of peer and what (a
    floor measured twice in the run)."""
    best = None
    for r in rows:
        if r["peer"] == peer and r["what"] == what:
            r = dict(r)
            if r.get("runs"):
                r["median"] = r["seconds"]
                r["seconds"] = min(r["runs"])
            if best is None or r["seconds"] < best["seconds"]:
                best = r
    return best


def fmt_s(r):
    return "n/a" if r is None else f"{r['seconds']:.3f} s"


def main():
    rows = load(sys.argv[1])
    out = []

    def line(what, value, target, ok):
        mark = "" if ok is None else ("yes" if ok else "NO")
        out.append(f"| {what} | {value} | {target} | {mark} |")

    def ratio(a, b):
        return None if a is None or b is None else a["seconds"] / b["seconds"]

    out.append("| measurement | figure | target | met |")
    out.append("|---|---|---|---|")
    ours = {p: find(rows, "rankmetrics", f"compute float32 map {p}, 1 worker(s)")
            for p in ["stable", "random", "pessimistic", "optimistic", "expected"]}
    floor_c = find(rows, "floor-c", "floor rank counting, no sort (full MAP)")
    floor_go = find(rows, "floor-go", "floor full MAP, rank counting (no sort), 1 goroutine")
    floor_gosort = find(rows, "floor-go", "floor full MAP, slices.Sort keys, 1 goroutine")
    np_stable = find(rows, "numpy-tf", "compute stable")
    np_random = find(rows, "numpy-tf", "compute random")
    tfr = find(rows, "tf-ranking", "compute random (batch 1024, 1 thread)")
    tfr_one = find(rows, "tf-ranking", "compute random (batch 100000, 1 thread)")
    s = ours["stable"]
    line("compute, float32 full MAP, 1 core, stable ties", fmt_s(s), "", None)
    r = ratio(s, floor_c)
    line("  / vectorised C rank-counting floor", "n/a" if r is None else f"{r:.2f}x", "<= 1.3x", None if r is None else r <= 1.3)
    r = ratio(s, floor_go)
    line("  / Go rank-counting floor", "n/a" if r is None else f"{r:.2f}x", "", None)
    r = ratio(s, floor_gosort)
    line("  / Go slices.Sort floor", "n/a" if r is None else f"{r:.2f}x", "", None)
    r = ratio(np_stable, s)
    line("  NumPy TF algorithm (stable) / rankmetrics", "n/a" if r is None else f"{r:.1f}x faster", ">= 8x", None if r is None else r >= 8)
    r = ratio(np_random, ours["random"])
    line("  NumPy TF algorithm (random) / rankmetrics (random)", "n/a" if r is None else f"{r:.1f}x faster", ">= 8x", None if r is None else r >= 8)
    r = ratio(tfr, ours["random"])
    line("  TF-Ranking metric, updates of 1024 lists / rankmetrics (random)", "n/a" if r is None else f"{r:.1f}x faster", ">= 20x", None if r is None else r >= 20)
    r = ratio(tfr_one, ours["random"])
    line("  TF-Ranking metric, one update of every list / rankmetrics (random)", "n/a" if r is None else f"{r:.1f}x faster", "", None)
    for p in ["random", "pessimistic", "optimistic", "expected"]:
        r = ratio(ours[p], s)
        line(f"  ties {p} / stable", "n/a" if r is None else f"{r:.2f}x", "<= 1.5x", None if r is None else r <= 1.5)
    for p in ["stable", "random"]:
        at10 = find(rows, "rankmetrics", f"compute float32 map@10 {p}, 1 worker(s)")
        r = ratio(at10, ours[p])
        line(f"  MAP@10 / full MAP ({p})", "n/a" if r is None else f"{r:.2f}x", "<= 1x", None if r is None else r <= 1.0)
    for p in ["stable", "random"]:
        one = find(rows, "rankmetrics", f"compute float32 map {p}, 1 worker(s)#scaling")
        two = find(rows, "rankmetrics", f"compute float32 map {p}, 2 worker(s)#scaling")
        if one and two:
            sp = one["seconds"] / two["seconds"]
            lo, hi = one["min"] / two["max"], one["max"] / two["min"]
            line(f"  2 workers / 1 worker throughput ({p})", f"{sp:.2f}x (spread {lo:.2f}-{hi:.2f})", ">= 1.8x", sp >= 1.8)
    c1 = find(rows, "control", "spin loop, 1 worker(s)#scaling")
    c2 = find(rows, "control", "spin loop, 2 worker(s)#scaling")
    if c1 and c2:
        line("  control: pure arithmetic, 2 goroutines / 1 (what the machine allowed then)",
             f"{c1['seconds'] / c2['seconds']:.2f}x", "2x on an idle 2-core machine", None)
    # End to end.
    trec = find(rows, "rankmetrics", "e2e trec")
    trec_r = find(rows, "rankmetrics", "e2e trec, random ties")
    te = find(rows, "trec_eval (pytrec-eval-terrier)", "e2e trec (load + evaluate)")
    rx = find(rows, "ranx", "e2e trec (load + evaluate)")
    line("end to end, 10M-line TREC run + qrels, stable ties", fmt_s(trec) + ("" if trec is None else f", {trec['peak_rss_mib']:.0f} MiB"), "", None)
    line("  with random ties", fmt_s(trec_r) + ("" if trec_r is None else f", {trec_r['peak_rss_mib']:.0f} MiB"), "", None)
    r = ratio(te, trec)
    line("  trec_eval (pytrec-eval-terrier) / rankmetrics", "n/a" if r is None else f"{r:.1f}x faster", ">= 10x", None if r is None else r >= 10)
    r = ratio(rx, trec)
    line("  ranx load + evaluate / rankmetrics", "n/a" if r is None else f"{r:.1f}x faster", "> 1x", None if r is None else r > 1)
    if te and trec:
        q = trec["peak_rss_mib"] / te["peak_rss_mib"]
        line("  peak RSS rankmetrics / trec_eval", f"{q:.3f} ({trec['peak_rss_mib']:.0f} / {te['peak_rss_mib']:.0f} MiB)", "<= 0.5", q <= 0.5)
    tsv = find(rows, "rankmetrics", "e2e sorted tsv")
    tsv_small = find(rows, "rankmetrics", "e2e sorted tsv, 1/10 size")
    np_e2e = find(rows, "numpy-tf", "e2e tsv (loadtxt + compute)")
    line("end to end, sorted TSV (10M lines)", fmt_s(tsv), "", None)
    r = ratio(np_e2e, tsv)
    line("  NumPy loadtxt + compute / rankmetrics", "n/a" if r is None else f"{r:.1f}x faster", ">= 5x", None if r is None else r >= 5)
    if tsv:
        line("  peak RSS", f"{tsv['peak_rss_mib']:.0f} MiB", "< 64 MiB", tsv["peak_rss_mib"] < 64)
    if tsv and tsv_small:
        line("  peak RSS at 1/10 of the size", f"{tsv_small['peak_rss_mib']:.0f} MiB", "same as full size", None)
    for what in ["e2e parquet", "e2e rkm1"]:
        r = find(rows, "rankmetrics", what)
        if r:
            line(what.replace("e2e", "end to end,"), f"{fmt_s(r)}, {r['peak_rss_mib']:.0f} MiB", "", None)
    # The I/O floor (issue 23): every end-to-end figure over the time one
    # core takes to read its files and find every line end.
    out.append("")
    out.append("| end to end / I/O floor (read the files, find every line end, 1 core) | figure | target | met |")
    out.append("|---|---|---|---|")
    ftrec = find_min(rows, "floor-io", "floor trec pair")
    wc = find_min(rows, "wc -l", "floor trec pair")
    line("floor, TREC pair: min / median", "n/a" if ftrec is None else f"{ftrec['seconds']:.3f} / {ftrec['median']:.3f} s", "", None)
    line("  GNU wc -l over the same files, 1 core", fmt_s(wc), "", None)
    m1 = find(rows, "rankmetrics", "e2e trec -m map, 1 worker")
    m2 = find(rows, "rankmetrics", "e2e trec -m map, 2 workers")
    me = find(rows, "rankmetrics", "e2e trec -m map, 1 worker, --unsorted error")

    def over(r, f):
        if r is None or f is None:
            return "n/a", None
        q = r["seconds"] / f["seconds"]
        qm = r["median"] / f["median"] if r.get("median") and f.get("median") else q
        return f"{fmt_s(r)}: {q:.1f}x (median {qm:.1f}x)", q

    v, q = over(m1, ftrec)
    line("eval -m map --workers 1, TREC pair", v, "<= 6x", None if q is None else q <= 6)
    v, q = over(me, ftrec)
    line("  the same with --unsorted error (no order scan)", v, "", None)
    v, q = over(m2, ftrec)
    line("eval -m map --workers 2, TREC pair", v, "", None)
    if m1 and m2:
        t = m1["seconds"] / m2["seconds"]
        tm = m1["median"] / m2["median"]
        line("  throughput, 2 workers / 1 worker", f"{t:.2f}x (medians {tm:.2f}x)", ">= 1.7x", t >= 1.7)
    for what, floor in [("e2e trec", "floor trec pair"), ("e2e trec, random ties", "floor trec pair"),
                        ("e2e sorted tsv", "floor tsv"), ("e2e sorted tsv, 1/10 size", "floor tsv, 1/10 size"),
                        ("e2e parquet", "floor parquet"), ("e2e rkm1", "floor rkm1")]:
        r, f = find(rows, "rankmetrics", what), find_min(rows, "floor-io", floor)
        if r and f:
            line(f"{what} (all measures) / {floor}", over(r, f)[0], "", None)
    # MAP values, to show every peer computed the same thing.
    out.append("")
    out.append("| peer | what | MAP |")
    out.append("|---|---|---|")
    for r in rows:
        if "map" in r:
            out.append(f"| {r['peer']} | {r['what'].split('#')[0]} | {r['map']:.10f} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
