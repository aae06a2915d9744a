package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rankmetrics/rankmetrics/runio"
)

// evalRun runs "rankmetrics eval" with args and returns stdout.
func evalRun(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := runEval(context.Background(), append([]string{"--quiet"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), err
}

func mustEval(t *testing.T, args ...string) string {
	t.Helper()
	out, err := evalRun(t, args...)
	if err != nil {
		t.Fatalf("eval %v: %v", args, err)
	}
	return out
}

// evalJSON is the JSON report.
type evalJSON struct {
	PerQuery []map[string]any   `json:"per_query"`
	Counts   map[string]int64   `json:"counts"`
	Measures map[string]float64 `json:"measures"`
	Params   map[string]any     `json:"settings"`
}

func evalJSONOf(t *testing.T, args ...string) evalJSON {
	t.Helper()
	out := mustEval(t, append([]string{"--format", "json"}, args...)...)
	var r evalJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("eval %v: output is not JSON: %v\n%s", args, err, out)
	}
	return r
}

func writeTemp(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The TREC fixture: every value below is worked out by hand.
//
//	q1: run d1 (rel 1), d2 (rel 0), d3 (rel 2); qrels judge all three.
//	    AP = (1/1 + 2/3) / 2 = 5/6; AP@1 = (1/1) / 2 = 1/2.
//	q2: run d4 (unjudged), d5 (rel 1); the qrels also judge d9 relevant,
//	    which the run misses: AP = (1/2) / 2 = 1/4; AP@1 = 0.
//	q3: run only (no judgment): skipped, or AP 0 with --run-only keep.
//	q4: qrels only: AP 0 (--qrels-only keep, the default, as trec_eval -c),
//	    or skipped with --qrels-only skip.
const (
	fixtureQrels = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d5 1\nq2 0 d9 1\nq4 0 d1 1\n"
	fixtureRun   = "q1 Q0 d1 1 3.0 t\nq1 Q0 d2 2 2.0 t\nq1 Q0 d3 3 1.0 t\n" +
		"q2 Q0 d4 1 0.9 t\nq2 Q0 d5 2 0.8 t\n" +
		"q3 Q0 d7 1 1 t\n"
)

func TestEvalTRECHandWorked(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "qrels", fixtureQrels)
	run := writeTemp(t, dir, "run", fixtureRun)
	tests := []struct {
		name  string
		args  []string
		want  map[string]float64
		evald int64
	}{
		// The default keeps q4 (trec_eval -c) and skips q3.
		{"default keeps qrels-only queries", nil, map[string]float64{"map": (5.0/6 + 1.0/4 + 0) / 3}, 3},
		{"skip qrels-only", []string{"--qrels-only", "skip"}, map[string]float64{"map": (5.0/6 + 1.0/4) / 2}, 2},
		{"map@1", []string{"-m", "map@1"}, map[string]float64{"map@1": (0.5 + 0 + 0) / 3}, 3},
		{"topn flag", []string{"--topn", "1", "-m", "map"}, map[string]float64{"map": (5.0/6 + 1.0/4) / 3, "map@1": 0.5 / 3}, 3},
		{"keep run-only", []string{"--run-only", "keep"}, map[string]float64{"map": (5.0/6 + 1.0/4 + 0 + 0) / 4}, 4},
		{"keep run-only, skip qrels-only", []string{"--run-only", "keep", "--qrels-only", "skip"}, map[string]float64{"map": (5.0/6 + 1.0/4 + 0) / 3}, 3},
		{"keep both", []string{"--run-only", "keep", "--qrels-only", "keep"}, map[string]float64{"map": (5.0/6 + 1.0/4) / 4}, 4},
		// One query per update: the qrels-only query is an update alone.
		{"keep both, batch 1", []string{"--run-only", "keep", "--qrels-only", "keep", "--batch", "1"}, map[string]float64{"map": (5.0/6 + 1.0/4) / 4}, 4},
		{"keep both, dense", []string{"--run-only", "keep", "--qrels-only", "keep", "--batch", "1", "--ragged=false"}, map[string]float64{"map": (5.0/6 + 1.0/4) / 4}, 4},
		{"grouped", []string{"--unsorted", "group"}, map[string]float64{"map": (5.0/6 + 1.0/4) / 3}, 3},
		{"streamed", []string{"--unsorted", "error"}, map[string]float64{"map": (5.0/6 + 1.0/4) / 3}, 3},
		{"dense", []string{"--ragged=false"}, map[string]float64{"map": (5.0/6 + 1.0/4) / 3}, 3},
	}
	for _, tc := range tests {
		for _, dtype := range []string{"float32", "float64"} {
			t.Run(tc.name+" "+dtype, func(t *testing.T) {
				r := evalJSONOf(t, append([]string{"--dtype", dtype, qrels, run}, tc.args...)...)
				if len(r.Measures) != len(tc.want) {
					t.Errorf("measures %v, want %v", r.Measures, tc.want)
				}
				for name, want := range tc.want {
					got, ok := r.Measures[name]
					tol := 1e-15
					if dtype == "float32" {
						tol = 1e-7
					}
					if !ok || math.Abs(got-want) > tol {
						t.Errorf("%s = %v, want %v", name, got, want)
					}
				}
				if r.Counts["queries_evaluated"] != tc.evald || r.Counts["queries_read"] != 4 {
					t.Errorf("counts %v, want %d evaluated of 4 read", r.Counts, tc.evald)
				}
				wantItems := int64(5)
				if slices.Contains(tc.args, "--run-only") {
					wantItems = 6
				}
				if r.Counts["items"] != wantItems {
					t.Errorf("items %d, want %d", r.Counts["items"], wantItems)
				}
				wantCounts := map[string]int64{"items": 0, "rows": 6, "qrels_rows": 6, "run_only_queries": 1, "qrels_only_queries": 1,
					"unjudged_items": 2, "unranked_judged": 2, "unranked_relevant": 2}
				for k, v := range wantCounts {
					if k == "items" {
						continue
					}
					if r.Counts[k] != v {
						t.Errorf("count %s = %d, want %d", k, r.Counts[k], v)
					}
				}
			})
		}
	}
}

// writeData writes random queries in a runio format and returns the path.
func writeData(t *testing.T, dir, name string, qs []runio.Query) string {
	t.Helper()
	var b bytes.Buffer
	var w runio.Writer
	switch {
	case strings.HasSuffix(name, ".tsv"):
		w = runio.NewDelimitedWriter(&b, '\t', runio.Columns{}, qs[0].Weights != nil, false)
	case strings.HasSuffix(name, ".csv"):
		w = runio.NewDelimitedWriter(&b, ',', runio.Columns{}, qs[0].Weights != nil, false)
	case strings.HasSuffix(name, ".jsonl"):
		w = runio.NewJSONLWriter(&b, runio.Columns{}, strings.Contains(name, "lists"))
	case strings.HasSuffix(name, ".parquet"):
		w = runio.NewParquetWriter(&b, runio.Columns{}, qs[0].Weights != nil, false)
	default:
		t.Fatalf("no writer for %s", name)
	}
	for i := range qs {
		if err := w.WriteQuery(&qs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return writeTemp(t, dir, name, b.String())
}

func randomQueries(seed uint64, nq int, weights bool) []runio.Query {
	r := rand.New(rand.NewPCG(seed, 9))
	qs := make([]runio.Query, nq)
	for i := range qs {
		q := &qs[i]
		q.QID = strconv.Itoa(i + 1)
		n := 1 + r.IntN(40)
		for range n {
			l := 0.0
			if r.IntN(5) == 0 {
				l = float64(1 + r.IntN(4))
			}
			q.Labels = append(q.Labels, l)
			q.Scores = append(q.Scores, float64(r.IntN(20))/8)
			if weights {
				q.Weights = append(q.Weights, float64(r.IntN(5))/2)
			}
		}
	}
	return qs
}

// TestEvalWorkersFlag: --workers reaches the engine, and the whole
// output, per-query rows included, is the same for any worker count (the
// engine's own tests check this over every tie policy and dtype).
func TestEvalWorkersFlag(t *testing.T) {
	dir := t.TempDir()
	p := writeData(t, dir, "w.tsv", randomQueries(1, 700, true))
	args := []string{"-q", "--format", "tsv", "--batch", "64", "-m", "map,map@3", p}
	base := mustEval(t, append([]string{"--workers", "1"}, args...)...)
	for _, w := range []string{"2", "8"} {
		if got := mustEval(t, append([]string{"--workers", w}, args...)...); got != base {
			t.Errorf("--workers %s output differs from --workers 1", w)
		}
	}
	if !strings.Contains(base, "map\tall\t") || strings.Count(base, "\n") < 1400 {
		t.Errorf("unexpected output:\n%.300s", base)
	}
}

// TestEvalFormatsAgree: the same data in every format gives the same report.
func TestEvalFormatsAgree(t *testing.T) {
	dir := t.TempDir()
	qs := randomQueries(2, 150, true)
	var want map[string]float64
	for _, name := range []string{"a.tsv", "a.csv", "a.jsonl", "lists.jsonl", "a.parquet"} {
		p := writeData(t, dir, name, qs)
		r := evalJSONOf(t, "--ties", "stable", "-m", "map,map@5", p)
		if r.Counts["queries_evaluated"] != 150 {
			t.Errorf("%s: %d queries", name, r.Counts["queries_evaluated"])
		}
		if want == nil {
			want = r.Measures
			continue
		}
		for k, v := range want {
			if r.Measures[k] != v {
				t.Errorf("%s: %s = %v, tsv gave %v", name, k, r.Measures[k], v)
			}
		}
	}
}

func TestEvalErrors(t *testing.T) {
	dir := t.TempDir()
	unsorted := writeTemp(t, dir, "u.tsv", "qid\tlabel\tscore\n2\t1\t1\n1\t0\t1\n")
	badScore := writeTemp(t, dir, "b.tsv", "qid\tlabel\tscore\n1\t1\t1\n1\t0\tx\n")
	infWeight := writeTemp(t, dir, "w.tsv", "qid\tlabel\tscore\tweight\n1\t1\t1\t1\n2\t0\t1\tinf\n")
	dup := writeTemp(t, dir, "d.tsv", "qid\tdoc\tlabel\tscore\n1\ta\t0\t1\n1\ta\t1\t2\n1\tb\t0\t1.5\n")
	qrels := writeTemp(t, dir, "q.qrels", "1 0 a 1\n1 0 a 0\n")
	run := writeTemp(t, dir, "r.run", "1 Q0 a 1 1 t\n")
	noExt := writeTemp(t, dir, "predictions.txt", "qid\tlabel\tscore\n1\t1\t1\n")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--unsorted", "error", unsorted}, unsorted + `:3: field qid: value "1": input is not sorted by qid: it comes after "2" (sorted input streams in constant memory; --unsorted auto, the default, reads any order)`},
		{[]string{badScore}, badScore + `:3: field score: value "x": not a number`},
		{[]string{infWeight}, `query "2" (line 3): item 1: weight +Inf is not finite`},
		{[]string{dup}, dup + `:3: field doc: value "a": duplicate document for qid "1" (first at line 2; --dedupe first or --dedupe max keeps one)`},
		{[]string{filepath.Join(dir, "none.tsv")}, "no such file"},
		// Errors a flag fixes name the flag.
		{[]string{qrels, run}, qrels + `:2: field docno: value "a": duplicate judgment for qid "1" (first at line 1; --dedupe first or --dedupe max keeps one)`},
		{[]string{noExt}, `cannot tell the format of "` + noExt + `" from its extension; name it with --input-format (trec, tsv, csv, jsonl, parquet, rkm1)`},
		{[]string{"-"}, "standard input needs --input-format (tsv, csv, jsonl, parquet or rkm1)"},
		{[]string{"--input-format", "csv", qrels, run}, "are a TREC qrels and run pair, but --input-format is csv"},
	}
	for _, tc := range tests {
		_, err := evalRun(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("eval %v: error %v, want it to contain %s", tc.args, err, tc.want)
		}
	}
	// The dedupe policy and grouping turn those into results.
	// max keeps a with label 1 and score 2, ranked first: AP 1; first keeps
	// a with label 0: no relevant item, AP 0.
	if r := evalJSONOf(t, "--dedupe", "max", "--dtype", "float64", dup); r.Measures["map"] != 1 || r.Counts["duplicates_dropped"] != 1 {
		t.Errorf("dedupe max: %v %v", r.Measures, r.Counts)
	}
	if r := evalJSONOf(t, "--dedupe", "first", "--dtype", "float64", dup); r.Measures["map"] != 0 || r.Counts["duplicates_dropped"] != 1 {
		t.Errorf("dedupe first: %v %v", r.Measures, r.Counts)
	}
	if r := evalJSONOf(t, "--unsorted", "group", "--dtype", "float64", unsorted); r.Measures["map"] != 0.5 {
		t.Errorf("grouped: map %v, want (1 + 0)/2", r.Measures["map"])
	}
	// max keeps the judgment with label 1: AP 1.
	if r := evalJSONOf(t, "--dedupe", "max", "--dtype", "float64", qrels, run); r.Measures["map"] != 1 {
		t.Errorf("qrels dedupe max: map %v, want 1", r.Measures["map"])
	}
	if r := evalJSONOf(t, "--input-format", "tsv", noExt); r.Measures["map"] != 1 {
		t.Errorf("--input-format tsv: map %v, want 1", r.Measures["map"])
	}
}

func TestEvalUsage(t *testing.T) {
	dir := t.TempDir()
	p := writeTemp(t, dir, "a.tsv", "qid\tlabel\tscore\n1\t1\t1\n")
	tests := []struct {
		args []string
		msg  string
	}{
		{nil, "want FILE, or QRELS RUN; got 0 paths"},
		{[]string{p, p, p}, "got 3 paths"},
		{[]string{"-m", "ndgc", p}, `unknown measure "ndgc"`},
		{[]string{"-m", "map@-1", p}, `unknown measure "map@-1"`},
		{[]string{"--dtype", "float16", p}, "--dtype"},
		{[]string{"--ties", "first", p}, "--ties"},
		{[]string{"--format", "xml", p}, `--format "xml"`},
		{[]string{"--batch", "0", p}, "--batch 0"},
		{[]string{"--workers", "0", p}, "--workers 0"},
		{[]string{"--unsorted", "sort", p}, "--unsorted"},
		{[]string{"--dedupe", "last", p}, "--dedupe"},
		{[]string{"--run-only", "drop", p}, "--run-only"},
		{[]string{"--input-format", "xls", p}, "--input-format"},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		err := runEval(context.Background(), tc.args, nil, &out, &errb)
		if !errors.Is(err, errUsage) || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("eval %v: error %v, stderr %q; want usage error mentioning %q", tc.args, err, errb.String(), tc.msg)
		}
	}
	var out, errb bytes.Buffer
	if err := runEval(context.Background(), []string{"-h"}, nil, &out, &errb); err != nil || !strings.Contains(out.String(), "75 bytes per item") {
		t.Errorf("-h: %v, help lacks the memory cost of grouping:\n%s", err, out.String())
	}
	// Flags may follow the files.
	o, _, err := parseEvalArgs([]string{p, "-m", "map@3", "--ties", "stable"}, &bytes.Buffer{}, &errb)
	if err != nil || len(o.paths) != 1 || o.measures[0].TopN != 3 {
		t.Errorf("flags after files: %+v %v", o, err)
	}
}

func TestEvalOutputFormats(t *testing.T) {
	dir := t.TempDir()
	p := writeTemp(t, dir, "a.tsv", "qid\tlabel\tscore\nx\t1\t2\nx\t0\t1\ny\t0\t2\ny\t1\t1\n")
	// x: AP 1, y: AP 1/2; MAP 3/4 (exact in float32).
	table := mustEval(t, "--ties", "stable", "-q", p)
	for _, want := range []string{"map       \tx\t1\n", "map       \ty\t0.5\n", "queries evaluated", "items ranked", "map      0.75   [-2.4266, 3.9266]\n"} {
		if !strings.Contains(table, want) {
			t.Errorf("table output lacks %q:\n%s", want, table)
		}
	}
	// AP {1, 1/2}: mean 0.75, sd sqrt(1/8), standard error 1/4; the t
	// quantile t(0.975, 1) = 12.706204736174698 (scipy.stats.t.ppf)
	// makes the interval 0.75 ± 3.1766. The exact TSV is checked without
	// the interval rows (TestEvalIntervals checks those).
	tsv := mustEval(t, "--ties", "stable", "-q", "--format", "tsv", "--ci", "none", p)
	wantTSV := "measure\tqid\tvalue\nmap\tx\t1\nmap\ty\t0.5\nmap\tall\t0.75\nqueries_evaluated\tall\t2\nqueries_read\tall\t2\nitems\tall\t4\nrows\tall\t4\nduplicates_dropped\tall\t0\nblank_lines\tall\t0\n"
	if tsv != wantTSV {
		t.Errorf("tsv output\n%s\nwant\n%s", tsv, wantTSV)
	}
	r := evalJSONOf(t, "--ties", "stable", "-q", p)
	if len(r.PerQuery) != 2 || r.PerQuery[0]["qid"] != "x" || r.PerQuery[1]["map"] != 0.5 || r.Measures["map"] != 0.75 {
		t.Errorf("json output %+v", r)
	}
}

func TestProgressLine(t *testing.T) {
	var b atomic.Int64
	b.Store(250)
	p := &progress{bytes: &b, total: 1000}
	p.counts.Queries.Store(100)
	p.counts.Items.Store(2_000_000)
	got := p.line(2 * time.Second)
	want := "[======                  ]  25% 100 queries (50/s), 2000000 items (1.00 M/s), ETA 6s\033[K"
	if got != want {
		t.Errorf("progress line\n%q\nwant\n%q", got, want)
	}
}

// TestEvalFamilyMeasures: family metrics and trec_eval's measures in one
// pass with MAP, on the TREC fixture and on a TSV file, per query under -q
// in json and tsv. Values by hand (log2(3) = 1.5849625):
//
//	TREC q1: ranked labels 1 0 2. q2: ranked labels 0 1; d9 (label 1)
//	  judged, not retrieved.
//	  mrr, recip_rank: q1 1, q2 1/2 -> 0.75.
//	  P_2: q1 1/2, q2 1/2 -> 0.5.
//	  ndcg@2 (gain 2^l - 1): q1 1 / (3 + 1/log2(3)) = 0.2754100,
//	    q2 (1/log2(3)) / 1 = 0.6309298.
//	  ndcg_cut_2 (trec_eval, gain l): q1 1 / (2 + 1/log2(3)) = 0.3800937,
//	    q2 (1/log2(3)) / (1 + 1/log2(3)) = 0.3868528 (d9 is in the ideal).
//	  map_cut_2: q1 (1/1)/2 = 1/2, q2 (1/2)/2 (d9 counts) = 1/4 -> 0.375.
//	TSV a: ranked labels 0 2 1; b: 0 1; c: 1 1.
//	  mrr: 1/2, 1/2, 1 -> 2/3. precision@2: 1/2, 1/2, 1 -> 2/3.
//	  P_1: 0, 0, 1 -> 1/3.
//	  ndcg@3: a (3/log2(3) + 1/2) / (3 + 1/log2(3)) = 0.6590195,
//	    b 1/log2(3) = 0.6309298, c 1.
func TestEvalFamilyMeasures(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "qrels", fixtureQrels)
	run := writeTemp(t, dir, "run", fixtureRun)
	tsv := writeTemp(t, dir, "in.tsv", "qid\tdoc\tlabel\tscore\na\ta1\t0\t0.9\na\ta2\t2\t0.5\na\ta3\t1\t0.1\nb\tb1\t1\t0.3\nb\tb2\t0\t0.7\nc\tc1\t1\t2\nc\tc2\t1\t1\n")
	l3 := math.Log2(3)
	tests := []struct {
		name     string
		files    []string
		measures []string
		perQuery map[string][]float64
	}{
		{"trec", []string{qrels, run}, []string{"map", "mrr", "recip_rank", "P_2", "ndcg@2", "ndcg_cut_2", "map_cut_2"}, map[string][]float64{
			"q1": {5.0 / 6, 1, 1, 0.5, 1 / (3 + 1/l3), 1 / (2 + 1/l3), 0.5},
			"q2": {0.25, 0.5, 0.5, 0.5, 1 / l3, 1 / (l3 + 1), 0.25},
			"q4": {0, 0, 0, 0, 0, 0, 0}, // judged, not in the run: 0 (trec_eval -c)
		}},
		{"tsv", []string{tsv}, []string{"mrr", "precision@2", "P_1", "ndcg@3"}, map[string][]float64{
			"a": {0.5, 0.5, 0, (3/l3 + 0.5) / (3 + 1/l3)},
			"b": {0.5, 0.5, 0, 1 / l3},
			"c": {1, 1, 1, 1},
		}},
	}
	for _, tc := range tests {
		for _, workers := range []string{"1", "3"} {
			args := []string{"--dtype", "float64", "--workers", workers, "--batch", "1", "-q"}
			for _, m := range tc.measures {
				args = append(args, "-m", m)
			}
			args = append(args, tc.files...)
			r := evalJSONOf(t, args...)
			if len(r.Measures) != len(tc.measures) || len(r.PerQuery) != len(tc.perQuery) {
				t.Fatalf("%s: measures %v, %d queries", tc.name, r.Measures, len(r.PerQuery))
			}
			for m, name := range tc.measures {
				mean := 0.0
				for _, v := range tc.perQuery {
					mean += v[m]
				}
				mean /= float64(len(tc.perQuery))
				if got := r.Measures[name]; math.Abs(got-mean) > 1e-15 {
					t.Errorf("%s workers %s: %s = %v, want %v", tc.name, workers, name, got, mean)
				}
			}
			for _, pq := range r.PerQuery {
				qid, _ := pq["qid"].(string)
				want, ok := tc.perQuery[qid]
				if !ok {
					t.Errorf("%s: unexpected query %v", tc.name, pq)
					continue
				}
				for m, name := range tc.measures {
					got, _ := pq[name].(float64)
					if math.Abs(got-want[m]) > 1e-15 {
						t.Errorf("%s: query %s %s = %v, want %v", tc.name, qid, name, got, want[m])
					}
				}
			}
			// The tsv format lists the same per-query values.
			out := mustEval(t, append([]string{"--format", "tsv"}, args...)...)
			for qid, want := range tc.perQuery {
				for m, name := range tc.measures {
					line := name + "\t" + qid + "\t"
					i := strings.Index(out, "\n"+line)
					if i < 0 {
						t.Errorf("%s tsv: no line %q in\n%s", tc.name, line, out)
						continue
					}
					rest := out[i+1+len(line):]
					v, err := strconv.ParseFloat(rest[:strings.IndexByte(rest, '\n')], 64)
					if err != nil || math.Abs(v-want[m]) > 1e-15 {
						t.Errorf("%s tsv: %s %s = %v (%v), want %v", tc.name, name, qid, v, err, want[m])
					}
				}
			}
		}
	}
}

// TestEvalFamilyWorkersIdentical: the output with family measures under
// random ties is byte-identical for any worker count.
func TestEvalFamilyWorkersIdentical(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(4, 4))
	var b strings.Builder
	b.WriteString("qid\tlabel\tscore\n")
	for q := range 300 {
		for range 1 + r.IntN(20) {
			fmt.Fprintf(&b, "%05d\t%d\t%d\n", q, r.IntN(3), r.IntN(5))
		}
	}
	in := writeTemp(t, dir, "r.tsv", b.String())
	var base string
	for _, w := range []string{"1", "2", "5"} {
		out := mustEval(t, "--format", "tsv", "-q", "--batch", "16", "--workers", w, "--ties", "random", "--ties-seed", "9",
			"-m", "map,ndcg@5,mrr,precision@3,mrr@3,ndcg@10,recall@4", in)
		if base == "" {
			base = out
		} else if out != base {
			t.Errorf("%s workers: output differs from 1 worker", w)
		}
	}
}

// TestEvalBadMeasure: an unknown measure is a usage error naming the flag
// and its value.
func TestEvalBadMeasure(t *testing.T) {
	dir := t.TempDir()
	in := writeTemp(t, dir, "in.tsv", "qid\tlabel\tscore\n1\t1\t1\n")
	for _, bad := range []string{"ndgc@10", "P_x", "map@-2", "ndcg_cut_", "alpha_dcg@3"} {
		var out, errb bytes.Buffer
		err := runEval(context.Background(), []string{"-m", "mrr," + bad, in}, nil, &out, &errb)
		want := "invalid value " + strconv.Quote("mrr,"+bad) + " for flag -m: unknown measure " + strconv.Quote(bad)
		if !errors.Is(err, errUsage) || !strings.Contains(errb.String(), want) {
			t.Errorf("-m %s: error %v, stderr %q; want %q", bad, err, errb.String(), want)
		}
	}
}
