package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// restartLayouts are one qrels and run pair laid out in the ways that make
// an optimistic read (runio.Options.Restartable) stream to the end, or stop
// and read again: the sorted pair first, then the same lines in other
// orders, then broken pairs.
var restartLayouts = []struct{ name, qrels, run string }{
	{"sorted", restartQrels, restartSorted},
	{"late line of the first query", restartQrels, strings.Replace(restartSorted, "1 Q0 b 2 2 r\n", "", 1) + "1 Q0 b 2 2 r\n"},
	{"late qrels line", strings.Replace(restartQrels, "1 0 b 1\n", "", 1) + "1 0 b 1\n", restartSorted},
	{"blocks out of order", restartQrels, "3 Q0 d 1 5 r\n3 Q0 e 2 4 r\n1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n2 Q0 c 1 1 r\n2 Q0 x 2 0 r\n"},
	{"two sorted halves", restartQrels, "1 Q0 a 1 3 r\n2 Q0 c 1 1 r\n3 Q0 d 1 5 r\n1 Q0 b 2 2 r\n2 Q0 x 2 0 r\n3 Q0 e 2 4 r\n"},
	{"shuffled", restartQrels, "2 Q0 c 1 1 r\n3 Q0 e 2 4 r\n1 Q0 b 2 2 r\n3 Q0 d 1 5 r\n1 Q0 a 1 3 r\n2 Q0 x 2 0 r\n"},
	{"broken line early", restartQrels, "1 Q0 a 1 x r\n" + restartSorted},
	{"broken line late", restartQrels, restartSorted + "3 Q0 f 3\n"},
	{"broken line after disorder", restartQrels, "3 Q0 d 1 5 r\n1 Q0 a 1 3 r\n1 Q0 b 2 x r\n"},
	{"duplicate docs", restartQrels, "2 Q0 c 1 1 r\n2 Q0 c 2 1 r\n1 Q0 a 1 3 r\n1 Q0 a 2 2 r\n"},
}

const (
	restartQrels  = "1 0 a 1\n1 0 b 1\n2 0 c 1\n3 0 d 2\n3 0 e 1\n"
	restartSorted = "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n2 Q0 c 1 1 r\n2 Q0 x 2 0 r\n3 Q0 d 1 5 r\n3 Q0 e 2 4 r\n"
)

// writePair writes qrels and run as dir/qrels and dir/x.run.
func writePair(t *testing.T, dir, qrels, run string) (string, string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	qp, rp := filepath.Join(dir, "qrels"), filepath.Join(dir, "x.run")
	if os.WriteFile(qp, []byte(qrels), 0o644) != nil || os.WriteFile(rp, []byte(run), 0o644) != nil {
		t.Fatal("cannot write the pair")
	}
	return qp, rp
}

// bigPair is a sorted pair of 5000 queries: with a line of the first
// added at the end, the evaluation has taken (and the bootstrap gathered)
// thousands of queries when the disorder is found.
func bigPair() (qrels, run string) {
	var bq, br strings.Builder
	for q := range 5000 {
		fmt.Fprintf(&bq, "%d 0 a 1\n%d 0 c %d\n", q, q, q%3)
		fmt.Fprintf(&br, "%d Q0 a 1 %d r\n%d Q0 b 2 1 r\n", q, q%7, q)
	}
	return bq.String(), br.String()
}

// TestEvalRestart: eval reads a TREC pair optimistically, with -q too
// (its records held back until the read is known good); the summary
// (bootstrap intervals included: they need every per-query value once, in
// order) and the errors are the same with and without -q whatever the
// layout, the records of -q are those of the same lines sorted by qid
// (stably) and streamed with --unsorted error, and no record of the
// abandoned first read is left in the output.
func TestEvalRestart(t *testing.T) {
	tmp := t.TempDir()
	eval := func(args ...string) string {
		var out, errb bytes.Buffer
		err := runEval(context.Background(), append([]string{"--quiet", "--format", "tsv", "-m", "map", "-m", "P_2", "-m", "ndcg"}, args...), strings.NewReader(""), &out, &errb)
		s := out.String()
		if err != nil {
			s += "error: " + err.Error()
		}
		return s
	}
	bq, br := bigPair()
	layouts := append(slices.Clone(restartLayouts[:6]), struct{ name, qrels, run string }{"5000 queries, a late line", bq, br + "0 Q0 c 3 0.5 r\n"})
	layouts = append(layouts, restartLayouts[6:]...)
	for i, c := range layouts {
		qp, rp := writePair(t, filepath.Join(tmp, c.name), c.qrels, c.run)
		got := eval(qp, rp)
		var want strings.Builder
		for l := range strings.Lines(eval("-q", qp, rp)) {
			if f := strings.Split(l, "\t"); len(f) != 3 || f[1] == "all" || f[1] == "qid" || strings.HasPrefix(l, "error: ") {
				want.WriteString(l)
			}
		}
		if got != want.String() {
			t.Errorf("%s: eval gives\n%s\nwith -q (no restart)\n%s", c.name, got, want.String())
		}
		if i < 3 && strings.Contains(got, "error") {
			t.Errorf("%s: %s", c.name, got)
		}
		if i >= 7 && !strings.Contains(got, "error: ") {
			t.Errorf("%s: no error: %s", c.name, got)
		}
		withQ := eval("-q", qp, rp)
		seen := map[string]bool{}
		for l := range strings.Lines(withQ) {
			if f := strings.Split(l, "\t"); len(f) == 3 && f[1] != "all" {
				if seen[f[0]+"\t"+f[1]] {
					t.Errorf("%s: -q wrote %s twice:\n%s", c.name, f[0]+" "+f[1], withQ)
				}
				seen[f[0]+"\t"+f[1]] = true
			}
		}
		if i < 7 {
			sq, sr := writePair(t, filepath.Join(tmp, c.name, "sorted"), sortByQID(c.qrels), sortByQID(c.run))
			if want := eval("-q", "--unsorted", "error", sq, sr); withQ != want {
				t.Errorf("%s: eval -q gives\n%s\nthe lines sorted, --unsorted error\n%s", c.name, withQ, want)
			}
		}
	}
}

// sortByQID sorts the lines of a TREC file by qid, numerically, keeping
// the order of the lines of a qid.
func sortByQID(text string) string {
	lines := slices.Collect(strings.Lines(text))
	qid := func(l string) int {
		n, _ := strconv.Atoi(strings.Fields(l)[0])
		return n
	}
	slices.SortStableFunc(lines, func(a, b string) int { return qid(a) - qid(b) })
	return strings.Join(lines, "")
}

// TestCompareIRMeasuresRestart: compare and ir_measures give for a pair
// that must be read again what they give for the same lines sorted.
func TestCompareIRMeasuresRestart(t *testing.T) {
	tmp := t.TempDir()
	sortedQ, sortedR := writePair(t, filepath.Join(tmp, "sorted", "a"), restartQrels, restartSorted)
	writePair(t, filepath.Join(tmp, "sorted", "b"), restartQrels, restartSorted)
	// Compare: many queries taken before the late line is met.
	bq, br := bigPair()
	late := br + "0 Q0 c 3 0.5 r\n"
	bigQ, bigR := writePair(t, filepath.Join(tmp, "big", "a"), bq, late)
	_, bigB := writePair(t, filepath.Join(tmp, "big", "b"), bq, late)
	sq, sr := writePair(t, filepath.Join(tmp, "bigsorted", "a"), bq, strings.Replace(br, "0 Q0 b 2 1 r\n", "0 Q0 b 2 1 r\n0 Q0 c 3 0.5 r\n", 1))
	_, sb := writePair(t, filepath.Join(tmp, "bigsorted", "b"), bq, strings.Replace(br, "0 Q0 b 2 1 r\n", "0 Q0 b 2 1 r\n0 Q0 c 3 0.5 r\n", 1))
	for _, format := range []string{"tsv", "json"} {
		got, _, err := compareRun(t, "-m", "map,P_2,ndcg", "--format", format, bigQ, bigR, bigB)
		want, _, err2 := compareRun(t, "-m", "map,P_2,ndcg", "--format", format, sq, sr, sb)
		if want = strings.ReplaceAll(want, "bigsorted", "big"); err != nil || err2 != nil || got != want {
			t.Errorf("5000 queries, a late line: compare gives (%v)\n%s\nsorted (%v)\n%s", err, got, err2, want)
		}
	}
	for _, c := range restartLayouts[1:3] {
		qp, rp := writePair(t, filepath.Join(tmp, c.name, "a"), c.qrels, c.run)
		_, rb := writePair(t, filepath.Join(tmp, c.name, "b"), c.qrels, restartSorted)
		got, _, err := compareRun(t, "-m", "map,P_2,ndcg", "--format", "tsv", qp, rp, rb)
		if err != nil {
			t.Fatalf("%s: compare: %v", c.name, err)
		}
		want, _, err := compareRun(t, "-m", "map,P_2,ndcg", "--format", "tsv", sortedQ, sortedR, filepath.Join(tmp, "sorted", "b", "x.run"))
		if err != nil {
			t.Fatalf("sorted: compare: %v", err)
		}
		if got != want {
			t.Errorf("%s: compare gives\n%s\nsorted\n%s", c.name, got, want)
		}
		irm := func(q, r string) string {
			var out, errb bytes.Buffer
			if err := run(context.Background(), []string{"ir_measures", q, r, "AP", "P@2", "nDCG"}, nil, &out, &errb); err != nil {
				t.Fatalf("%s: ir_measures: %v: %s", c.name, err, errb.String())
			}
			return out.String()
		}
		if got, want := irm(qp, rp), irm(sortedQ, sortedR); got != want || got == "" {
			t.Errorf("%s: ir_measures gives\n%s\nsorted\n%s", c.name, got, want)
		}
	}
	// A broken pair: the error of today's read, named once.
	qp, rp := writePair(t, filepath.Join(tmp, "broken"), restartQrels, "3 Q0 d 1 5 r\n1 Q0 a 1 3 r\n1 Q0 b 2 x r\n")
	_, _, err := compareRun(t, "-m", "map", qp, rp, sortedR)
	if want := "x.run:3: field score: value \"x\": not a number"; err == nil || !strings.HasSuffix(err.Error(), want) || strings.Contains(err.Error(), "read it again") {
		t.Errorf("broken: compare error %v, want one ending %s", err, want)
	}
}
