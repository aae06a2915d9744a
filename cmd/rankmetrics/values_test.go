package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tenthsTREC returns a qrels file and two runs of 50 queries of 10 ranked
// documents each. Query i judges d0..d9, relevant when j < 7i mod 11, and
// r0..r9, all relevant. Run A ranks d0..d9: k = 7i mod 11 relevant (Σ k =
// 248), so P_10 = 248/500 = 0.496, where a running float64 sum of the
// tenths over 50 gives 0.49599999999999994, and num_rel_ret = 248. Run B
// ranks r0..r(k-1), k = 3i mod 11 (Σ k = 243), then unjudged documents:
// P_10 = 243/500 = 0.486.
func tenthsTREC(t *testing.T, dir string) (qrels, a, b string) {
	var q, ra, rb strings.Builder
	for i := range 50 {
		ka, kb := 7*i%11, 3*i%11
		for j := range 10 {
			rel := 0
			if j < ka {
				rel = 1
			}
			fmt.Fprintf(&q, "q%02d 0 d%d %d\n", i, j, rel)
			fmt.Fprintf(&q, "q%02d 0 r%d 1\n", i, j)
			fmt.Fprintf(&ra, "q%02d Q0 d%d %d %d a\n", i, j, j+1, 10-j)
			doc := fmt.Sprintf("u%d", j)
			if j < kb {
				doc = fmt.Sprintf("r%d", j)
			}
			fmt.Fprintf(&rb, "q%02d Q0 %s %d %d b\n", i, doc, j+1, 10-j)
		}
	}
	return writeTemp(t, dir, "tenths.qrels", q.String()), writeTemp(t, dir, "A.run", ra.String()), writeTemp(t, dir, "B.run", rb.String())
}

// summaryLine returns the value of measure name in eval's table.
func summaryLine(t *testing.T, out, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` +(\S+)(?: .*)?$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %s line in\n%s", name, out)
	}
	return m[1]
}

// TestEvalSummaryPrinting: eval prints a summary value in the shortest
// form that reads back to the correctly rounded mean (0.496, where the
// running sum gave 0.49599999999999994), and with --digits N as trec_eval
// prints it: N decimals, counts as integers, per-query lines too.
func TestEvalSummaryPrinting(t *testing.T) {
	dir := t.TempDir()
	qrels, a, _ := tenthsTREC(t, dir)
	for _, tc := range []struct {
		args       []string
		p10, count string
	}{
		{nil, "0.496", "248"},
		{[]string{"--digits", "4"}, "0.4960", "248"},
		{[]string{"--digits", "2"}, "0.50", "248"},
		{[]string{"--digits", "0"}, "0", "248"},
		{[]string{"--digits", "-1"}, "0.496", "248"},
	} {
		args := append(append([]string{}, tc.args...), "-m", "P_10", "-m", "num_rel_ret", qrels, a)
		out := mustEval(t, args...)
		if got := summaryLine(t, out, "P_10"); got != tc.p10 {
			t.Errorf("%v: P_10 %s, want %s", tc.args, got, tc.p10)
		}
		if got := summaryLine(t, out, "num_rel_ret"); got != tc.count {
			t.Errorf("%v: num_rel_ret %s, want %s", tc.args, got, tc.count)
		}
	}
	// -q lines: query q01 has 7 relevant documents in its top 10.
	out := mustEval(t, "-q", "--digits", "4", "-m", "P_10", "-m", "num_rel_ret", qrels, a)
	for _, want := range []string{"P_10      \tq01\t0.7000\n", "num_rel_ret\tq01\t7\n", "P_10      \tq00\t0.0000\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("-q --digits 4: no line %q in\n%s", want, out)
		}
	}
	// JSON and TSV print the shortest form, whatever --digits says.
	if r := evalJSONOf(t, "--digits", "2", "-m", "P_10", qrels, a); r.Measures["P_10"] != 0.496 {
		t.Errorf("JSON: P_10 %v, want 0.496", r.Measures["P_10"])
	}
	if out := mustEval(t, "--format", "tsv", "--digits", "2", "-m", "P_10", qrels, a); !strings.Contains(out, "P_10\tall\t0.496\n") {
		t.Errorf("TSV: no P_10 0.496 line in\n%s", out)
	}
	// float32 TF-Ranking values print in float32's shortest form.
	if out := mustEval(t, "-m", "precision@10", qrels, a); summaryLine(t, out, "precision@10") != "0.496" {
		t.Errorf("precision@10 (float32, Keras's running mean):\n%s", out)
	}
	for _, bad := range []string{"-2", "18"} {
		if _, err := evalRun(t, "--digits", bad, qrels, a); err == nil {
			t.Errorf("--digits %s: no error", bad)
		}
	}
}

// TestPlotTitleValue: the title of eval's plot gives the summary value in
// its shortest form: P_10 = 0.496, 248/500 rounded once.
func TestPlotTitleValue(t *testing.T) {
	dir := t.TempDir()
	qrels, a, _ := tenthsTREC(t, dir)
	d := plotOf(t, "-m", "P_10", "--plot", filepath.Join(dir, "p.png"), qrels, a)
	if want := "A.run: P_10 = 0.496 over 50 queries"; d.Title != want {
		t.Errorf("title %q, want %q", d.Title, want)
	}
}

// TestCompareDigitsAndMeans: compare's tables print the means over the
// paired queries correctly rounded, with --digits decimals (4 by
// default), and JSON the shortest form.
func TestCompareDigitsAndMeans(t *testing.T) {
	dir := t.TempDir()
	qrels, a, b := tenthsTREC(t, dir)
	for _, tc := range []struct {
		args   []string
		format string
		row    string
	}{
		{nil, "markdown", "| A.run | 0.4960 |"},
		{[]string{"--digits", "-1"}, "markdown", "| A.run | 0.496 |"},
		{[]string{"--digits", "2"}, "markdown", "| B.run | 0.49 |"},
		{[]string{"--digits", "-1"}, "latex", "A.run & 0.496 \\\\"},
		{[]string{"--digits", "3"}, "table", "B.run  0.486"},
	} {
		args := append(append([]string{}, tc.args...), "--format", tc.format, "-m", "P_10", "--test", "t", qrels, a, b)
		out, _, err := compareRun(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, tc.row) {
			t.Errorf("%v %s: no %q in\n%s", tc.args, tc.format, tc.row, out)
		}
	}
	out, _, err := compareRun(t, "--format", "json", "-m", "P_10", "--test", "t", qrels, a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"mean_baseline": 0.496,`, `"mean_run": 0.486,`, `"P_10": 0.496`} {
		if !strings.Contains(out, want) {
			t.Errorf("JSON: no %s in\n%s", want, out)
		}
	}
	if _, _, err := compareRun(t, "--digits", "18", qrels, a, b); err == nil {
		t.Error("--digits 18: no error")
	}
}
