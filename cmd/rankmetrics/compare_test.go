package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compareRun runs "rankmetrics compare" with args and returns stdout and
// stderr.
func compareRun(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := runCompare(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

// compareJSON is the JSON report, with the keys of issue 13.
type compareJSON struct {
	Measures []string `json:"measures"`
	Runs     []struct {
		Name    string             `json:"name"`
		File    string             `json:"file"`
		Queries int                `json:"queries"`
		Mean    map[string]float64 `json:"mean"`
	} `json:"runs"`
	Comparisons []struct {
		Measure      string   `json:"measure"`
		Baseline     string   `json:"baseline"`
		Run          string   `json:"run"`
		Queries      int      `json:"queries"`
		MeanBaseline float64  `json:"mean_baseline"`
		MeanRun      float64  `json:"mean_run"`
		Diff         float64  `json:"diff"`
		EffectSize   *float64 `json:"effect_size"`
		CILow        *float64 `json:"ci_low"`
		CIHigh       *float64 `json:"ci_high"`
		Wins         int      `json:"wins"`
		Ties         int      `json:"ties"`
		Losses       int      `json:"losses"`
		Tests        map[string]struct {
			Statistic *float64 `json:"statistic"`
			P         float64  `json:"p"`
			PAdjusted float64  `json:"p_adjusted"`
			Exact     bool     `json:"exact"`
		} `json:"tests"`
	} `json:"comparisons"`
}

// The hand-worked fixture: every query has one relevant document d1, so AP
// is 1 / its rank (float32: 1/3 is float32(1/3)).
//
//	      q1  q2   q3   q4   q5 (judged, not in B: 0 as trec_eval -c)
//	A     1   1/2  1/3  1    1
//	B     1   1    1    1/2  0
//	B-A   0   1/2  2/3  -1/2 -1
//
// q6 is only in A's run and is left out.
const (
	handQrels = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\nq3 0 d1 1\nq4 0 d1 1\nq5 0 d1 1\n"
	handRunA  = "q1 Q0 d1 1 3 a\nq1 Q0 d2 2 2 a\n" +
		"q2 Q0 d2 1 3 a\nq2 Q0 d1 2 2 a\n" +
		"q3 Q0 d2 1 3 a\nq3 Q0 d3 2 2 a\nq3 Q0 d1 3 1 a\n" +
		"q4 Q0 d1 1 3 a\n" +
		"q5 Q0 d1 1 3 a\n" +
		"q6 Q0 d1 1 3 a\n"
	handRunB = "q1 Q0 d1 1 3 b\n" +
		"q2 Q0 d1 1 3 b\n" +
		"q3 Q0 d1 1 3 b\n" +
		"q4 Q0 d2 1 3 b\nq4 Q0 d1 2 2 b\n"
)

func TestCompareHandWorked(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "hand.qrels", handQrels)
	a := writeTemp(t, dir, "A.run", handRunA)
	b := writeTemp(t, dir, "B.run", handRunB)
	out, _, err := compareRun(t, "--format", "json", "--test", "t,wilcoxon,randomization", "--correction", "none", qrels, a, b)
	if err != nil {
		t.Fatal(err)
	}
	var r compareJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	third := float64(float32(1.0 / 3))
	d := []float64{0, 0.5, 1 - third, -0.5, -1}
	if len(r.Comparisons) != 1 {
		t.Fatalf("comparisons: %s", out)
	}
	c := r.Comparisons[0]
	// naive statistics of d, computed here
	n := float64(len(d))
	var sum, ss float64
	for _, v := range d {
		sum += v
	}
	mean := sum / n
	for _, v := range d {
		ss += (v - mean) * (v - mean)
	}
	tStat := mean / math.Sqrt(ss/(n-1)/n)
	extreme := 0
	for mask := range 1 << len(d) {
		s := 0.0
		for i, v := range d {
			if mask>>i&1 == 1 {
				v = -v
			}
			s += v
		}
		if math.Abs(s) >= math.Abs(sum)*(1-1e-12) {
			extreme++
		}
	}
	checks := []struct {
		name      string
		got, want float64
	}{
		{"queries", float64(c.Queries), 5},
		// map is float32: the means are the exact means rounded once to
		// float32, printed in the shortest form that reads back to them as
		// float32
		{"mean_baseline", float64(float32(c.MeanBaseline)), ratMean32(1, 0.5, third, 1, 1)},
		{"mean_run", float64(float32(c.MeanRun)), ratMean32(1, 1, 1, 0.5, 0)},
		{"diff", c.Diff, mean},
		{"wins", float64(c.Wins), 2},
		{"ties", float64(c.Ties), 1},
		{"losses", float64(c.Losses), 2},
		{"t statistic", *c.Tests["t"].Statistic, tStat},
		{"t p (scipy ttest_rel)", c.Tests["t"].P, 0.8402541324268862},
		{"wilcoxon W (scipy)", *c.Tests["wilcoxon"].Statistic, 4.5},
		{"wilcoxon p (scipy, ties: approx)", c.Tests["wilcoxon"].P, 0.8539232992870668},
		{"randomization p (exact, 32 patterns)", c.Tests["randomization"].P, float64(extreme) / 32},
		{"p_adjusted = p with --correction none", c.Tests["t"].PAdjusted, c.Tests["t"].P},
	}
	for _, ch := range checks {
		if math.Abs(ch.got-ch.want) > 1e-9*math.Max(1, math.Abs(ch.want)) {
			t.Errorf("%s: got %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	if !c.Tests["randomization"].Exact || c.Baseline != "A.run" || c.Run != "B.run" {
		t.Errorf("comparison %+v", c)
	}
	if r.Runs[0].Queries != 5 || r.Runs[1].Queries != 5 || len(r.Measures) != 1 || r.Measures[0] != "map" {
		t.Errorf("runs %+v measures %v", r.Runs, r.Measures)
	}
}

// ratMean32 returns the exact mean of xs rounded once to float32, with
// math/big.
func ratMean32(xs ...float64) float64 {
	s := new(big.Rat)
	for _, x := range xs {
		s.Add(s, new(big.Rat).SetFloat64(x))
	}
	m, _ := s.Quo(s, big.NewRat(int64(len(xs)), 1)).Float32()
	return float64(m)
}

// randomTREC writes a qrels file and nRuns runs of nq queries; run k is
// better by k*0.2 in its scores of relevant documents.
func randomTREC(t *testing.T, dir string, seed uint64, nq, nRuns int) []string {
	rng := rand.New(rand.NewPCG(seed, 1))
	var qrels strings.Builder
	runs := make([]strings.Builder, nRuns)
	for q := range nq {
		for doc := range 20 {
			rel := 0
			if rng.Float64() < 0.25 {
				rel = 1 + rng.IntN(2)
			}
			fmt.Fprintf(&qrels, "%d 0 d%d %d\n", q+1, doc, rel)
			for k := range runs {
				s := rng.NormFloat64() + float64(rel)*(0.5+0.2*float64(k))
				fmt.Fprintf(&runs[k], "%d Q0 d%d 0 %.3f r%d\n", q+1, doc, s, k)
			}
		}
	}
	paths := []string{writeTemp(t, dir, "r.qrels", qrels.String())}
	for k := range runs {
		paths = append(paths, writeTemp(t, dir, fmt.Sprintf("r%d.run", k), runs[k].String()))
	}
	return paths
}

// TestCompareWorkersSameBytes: one seed gives the same bytes for 1, 2 and 7
// workers, in every format, with Monte Carlo tests.
func TestCompareWorkersSameBytes(t *testing.T) {
	dir := t.TempDir()
	paths := randomTREC(t, dir, 4, 60, 3)
	for _, format := range []string{"table", "json", "tsv"} {
		var first string
		for _, w := range []string{"1", "2", "7"} {
			args := append([]string{"--format", format, "--workers", w, "--seed", "11", "--samples", "3000",
				"--test", "t,wilcoxon,randomization,bootstrap,tukey", "-m", "map,ndcg@10", "--all-pairs"}, paths...)
			out, _, err := compareRun(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			if w == "1" {
				first = out
			} else if out != first {
				t.Errorf("%s: workers %s gives different output", format, w)
			}
		}
	}
}

func TestCompareFormatsAndPlot(t *testing.T) {
	dir := t.TempDir()
	paths := randomTREC(t, dir, 5, 40, 3)
	plot := filepath.Join(dir, "d.png")
	cases := []struct {
		format string
		want   []string
	}{
		{"table", []string{"baseline r0.run", "ᵗ t, ʳ randomization", "W/T/L"}},
		{"markdown", []string{"| run | map |", "<sup>", "|---|"}},
		{"latex", []string{`\begin{tabular}`, `p\_adj`, "$^{"}},
		{"tsv", []string{"measure\tbaseline\trun\tqueries"}},
	}
	for _, c := range cases {
		out, _, err := compareRun(t, append([]string{"--format", c.format, "--plot", plot}, paths...)...)
		if err != nil {
			t.Fatalf("%s: %v", c.format, err)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", c.format, w, out)
			}
		}
	}
	f, err := os.Open(plot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() < 500 {
		t.Fatalf("plot: %v %v", err, img)
	}
}

// TestCompareBaselineAndCorrection: --baseline picks the reference, Holm's
// adjusted p is never below the raw p, and all-pairs has n(n-1)/2 pairs.
func TestCompareBaselineAndCorrection(t *testing.T) {
	dir := t.TempDir()
	paths := randomTREC(t, dir, 6, 30, 4)
	out, _, err := compareRun(t, append([]string{"--format", "json", "--baseline", "r2.run"}, paths...)...)
	if err != nil {
		t.Fatal(err)
	}
	var r compareJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Comparisons) != 3 {
		t.Fatalf("%d comparisons", len(r.Comparisons))
	}
	for _, c := range r.Comparisons {
		if c.Baseline != "r2.run" {
			t.Errorf("baseline %s", c.Baseline)
		}
		for name, tr := range c.Tests {
			if tr.PAdjusted < tr.P || tr.PAdjusted > 1 {
				t.Errorf("%s: p %v, holm %v", name, tr.P, tr.PAdjusted)
			}
		}
	}
	out, _, err = compareRun(t, append([]string{"--format", "json", "--all-pairs"}, paths...)...)
	if err != nil {
		t.Fatal(err)
	}
	r = compareJSON{}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Comparisons) != 6 {
		t.Fatalf("all pairs: %v, %d", err, len(r.Comparisons))
	}
}

func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	paths := randomTREC(t, dir, 7, 5, 2)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"one run", []string{paths[0], paths[1]}, "at least two runs"},
		{"bad test", append([]string{"--test", "anova"}, paths...), `--test "anova"`},
		{"bad correction", append([]string{"--correction", "sidak"}, paths...), "--correction"},
		{"baseline and all pairs", append([]string{"--baseline", "r0.run", "--all-pairs"}, paths...), "exclude each other"},
		{"bad alpha", append([]string{"--alpha", "1.5"}, paths...), "--alpha"},
		{"bad samples", append([]string{"--samples", "0"}, paths...), "--samples"},
		{"bad format", append([]string{"--format", "xml"}, paths...), "--format"},
		{"missing baseline", append([]string{"--baseline", "nope"}, paths...), `--baseline "nope": no such run (runs: r0.run, r1.run)`},
		{"missing file", []string{paths[0], paths[1], filepath.Join(dir, "absent.run")}, "absent.run"},
	}
	for _, c := range cases {
		_, errOut, err := compareRun(t, c.args...)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if msg := err.Error() + errOut; !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q does not say %q", c.name, msg, c.want)
		}
	}
}

// TestCompareScoreColumns compares two score columns of one TSV file.
func TestCompareScoreColumns(t *testing.T) {
	dir := t.TempDir()
	// q1: relevant item ranked 1st by a, 2nd by b; q2: 1st by both.
	tsv := writeTemp(t, dir, "p.tsv", "qid\tlabel\ta\tb\nq1\t1\t0.9\t0.1\nq1\t0\t0.1\t0.9\nq2\t1\t0.9\t0.9\nq2\t0\t0.1\t0.1\n")
	out, _, err := compareRun(t, "--format", "json", "--score-col", "a", "--score-col", "b", tsv)
	if err != nil {
		t.Fatal(err)
	}
	var r compareJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	c := r.Comparisons[0]
	if c.Baseline != "a" || c.Run != "b" || c.Diff != -0.25 || c.Losses != 1 || c.Ties != 1 {
		t.Errorf("%s", out)
	}
}

// TestComparePairing: with --qrels-only skip, B has no value for q5, so the
// runs are compared on the 4 queries both have, and stderr says what was
// left out of A.
func TestComparePairing(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "hand.qrels", handQrels)
	a := writeTemp(t, dir, "A.run", handRunA)
	b := writeTemp(t, dir, "B.run", handRunB)
	out, errOut, err := compareRun(t, "--format", "json", "--qrels-only", "skip", qrels, a, b)
	if err != nil {
		t.Fatal(err)
	}
	var r compareJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	third := float64(float32(1.0 / 3))
	if c := r.Comparisons[0]; c.Queries != 4 || math.Abs(c.Diff-(0+0.5+(1-third)-0.5)/4) > 1e-15 {
		t.Errorf("comparison %+v", c)
	}
	if !strings.Contains(errOut, "run A.run: 1 of its 5 queries are not in every run") {
		t.Errorf("stderr %q", errOut)
	}
}

// TestCompareRunNames: runs of the same file name are named by the
// shortest ending of their paths that tells them apart, and --baseline
// finds a run by that name, by its path written another way, or through a
// link to its file.
func TestCompareRunNames(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, d := range []string{"a", "b", "c/b", "d", "e/b"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeTemp(t, dir, "q", handQrels)
	for _, p := range []string{"a/x.run", "b/x.run", "c/b/x.run", "e/b/x.run", "d/x.run", "x.run", "B.run"} {
		writeTemp(t, dir, p, handRunA)
	}
	if err := os.Symlink(filepath.Join(dir, "B.run"), filepath.Join(dir, "link.run")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args     []string
		names    []string
		baseline string
	}{
		{[]string{"q", "a/x.run", "b/x.run"}, []string{"a/x.run", "b/x.run"}, "a/x.run"},
		{[]string{"q", "c/b/x.run", "e/b/x.run", "d/x.run"}, []string{"c/b/x.run", "e/b/x.run", "d/x.run"}, "c/b/x.run"},
		{[]string{"q", "x.run", "a/x.run"}, []string{"x.run", "a/x.run"}, "x.run"},
		{[]string{"q", "x.run", "./x.run"}, []string{"x.run", "x.run#2"}, "x.run"},
		{[]string{"q", "B.run", "a/x.run"}, []string{"B.run", "x.run"}, "B.run"},
		{[]string{"--baseline", "b/x.run", "q", "a/x.run", "b/x.run"}, []string{"a/x.run", "b/x.run"}, "b/x.run"},
		{[]string{"--baseline", "./B.run", "q", "a/x.run", "B.run"}, []string{"x.run", "B.run"}, "B.run"},
		{[]string{"--baseline", filepath.Join(dir, "B.run"), "q", "a/x.run", "B.run"}, []string{"x.run", "B.run"}, "B.run"},
		{[]string{"--baseline", "a/../B.run", "q", "a/x.run", "B.run"}, []string{"x.run", "B.run"}, "B.run"},
		{[]string{"--baseline", "link.run", "q", "a/x.run", "B.run"}, []string{"x.run", "B.run"}, "B.run"},
		{[]string{"--baseline", "B.run", "q", "a/x.run", "link.run"}, []string{"x.run", "link.run"}, "link.run"},
	}
	for _, c := range cases {
		out, _, err := compareRun(t, append([]string{"--format", "json", "--test", "t"}, c.args...)...)
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		var r compareJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, run := range r.Runs {
			names = append(names, run.Name)
		}
		if fmt.Sprint(names) != fmt.Sprint(c.names) || r.Comparisons[0].Baseline != c.baseline {
			t.Errorf("%v: runs %q, baseline %q; want %q, %q", c.args, names, r.Comparisons[0].Baseline, c.names, c.baseline)
		}
	}
}

// TestCompareKeepsFiniteMeasures: a measure whose per-query values are not
// finite (float32 NDCG of a label of 200, whose gain 2^200-1 overflows, as
// TF-Ranking's) is left out with a warning, and the others are compared:
// map is worked by hand. Query 1: A ranks the relevant d1 first (AP 1), B
// second (AP 1/2); query 2: both rank d3 (label 1) first (AP 1).
func TestCompareKeepsFiniteMeasures(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "qrels", "1 0 d1 1\n1 0 d2 0\n2 0 d3 1\n2 0 d4 200\n")
	a := writeTemp(t, dir, "A.run", "1 Q0 d1 1 2 A\n1 Q0 d2 2 1 A\n2 Q0 d3 1 2 A\n2 Q0 d4 2 1 A\n")
	b := writeTemp(t, dir, "B.run", "1 Q0 d2 1 2 B\n1 Q0 d1 2 1 B\n2 Q0 d3 1 2 B\n2 Q0 d4 2 1 B\n")
	var out, errb bytes.Buffer
	err := runCompare(context.Background(), []string{"-m", "map,ndcg@3", "--ties", "stable", "--format", "json", qrels, a, b}, nil, &out, &errb)
	if err != nil {
		t.Fatalf("compare: %v (%s)", err, errb.String())
	}
	if !strings.Contains(errb.String(), "ndcg@3 is NaN") || !strings.Contains(errb.String(), "ndcg@3 is left out") {
		t.Errorf("stderr %q lacks the warning", errb.String())
	}
	var rep struct {
		Runs []struct {
			Mean map[string]float64 `json:"mean"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	// Query 2 ranks d3 (1) then d4 (200): both relevant, AP 1 for both runs.
	if len(rep.Runs) != 2 || rep.Runs[0].Mean["map"] != 1 || rep.Runs[1].Mean["map"] != 0.75 {
		t.Errorf("runs %+v, want map 1 and 0.75", rep.Runs)
	}
	if _, ok := rep.Runs[0].Mean["ndcg@3"]; ok {
		t.Errorf("ndcg@3 is reported: %s", out.String())
	}
}
