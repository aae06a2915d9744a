package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/runio"
)

func genAll(t *testing.T, cfg Config) (qrels, run, tsv, pq, bin *bytes.Buffer, sum Summary) {
	t.Helper()
	qrels, run, tsv, pq, bin = new(bytes.Buffer), new(bytes.Buffer), new(bytes.Buffer), new(bytes.Buffer), new(bytes.Buffer)
	sum, err := Generate(context.Background(), cfg, Files{Qrels: qrels, Run: run, TSV: tsv, Parquet: pq, RKM1: bin})
	if err != nil {
		t.Fatal(err)
	}
	return
}

// readQueries returns a function that reads every query of an opened
// Reader, so that it can take a constructor's two results directly.
func readQueries(t *testing.T) func(runio.Reader, error) []runio.Query {
	return func(r runio.Reader, err error) []runio.Query { return readAllQueries(t, r, err) }
}

func readAllQueries(t *testing.T, r runio.Reader, err error) []runio.Query {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []runio.Query
	for {
		var q runio.Query
		err := r.Next(&q)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, q)
	}
}

func TestDeterministic(t *testing.T) {
	cfg := Config{Queries: 50, Items: 20, Seed: 3}
	q1, r1, t1, p1, b1, _ := genAll(t, cfg)
	q2, r2, t2, p2, b2, _ := genAll(t, cfg)
	for i, pair := range [][2]*bytes.Buffer{{q1, q2}, {r1, r2}, {t1, t2}, {p1, p2}, {b1, b2}} {
		if !bytes.Equal(pair[0].Bytes(), pair[1].Bytes()) {
			t.Errorf("output %d differs between two runs with the same seed", i)
		}
	}
	cfg.Seed = 4
	_, _, t3, _, _, _ := genAll(t, cfg)
	if bytes.Equal(t1.Bytes(), t3.Bytes()) {
		t.Error("a different seed gave the same data")
	}
}

// TestFormatsAgree reads every file back with runio and checks that they
// hold the same lists, and that the run's order is (score desc, item asc).
func TestFormatsAgree(t *testing.T) {
	cfg := Config{Queries: 300, Items: 37, Seed: 11}
	qrels, run, tsv, pq, bin, sum := genAll(t, cfg)
	ctx := context.Background()
	fromTSV := readQueries(t)(runio.NewDelimitedReader(ctx, tsv, "data.tsv", '\t', runio.Options{}))
	fromPQ := readQueries(t)(runio.NewParquetReader(ctx, bytes.NewReader(pq.Bytes()), int64(pq.Len()), "data.parquet", runio.Options{}))
	fromBin := readQueries(t)(runio.NewRKM1Reader(ctx, bytes.NewReader(bin.Bytes()), int64(bin.Len()), "data.bin"))
	fromTREC := readQueries(t)(runio.NewTRECReader(ctx, qrels, run, "qrels.txt", "run.txt", runio.Options{KeepDocs: true}))
	for _, got := range [][]runio.Query{fromTSV, fromPQ, fromBin, fromTREC} {
		if len(got) != cfg.Queries {
			t.Fatalf("got %d queries, want %d", len(got), cfg.Queries)
		}
	}
	var items, relevant int64
	for q := range cfg.Queries {
		a, p, b, tr := fromTSV[q], fromPQ[q], fromBin[q], fromTREC[q]
		if a.QID != strconv.Itoa(q+1) || p.QID != a.QID || b.QID != a.QID || tr.QID != a.QID {
			t.Fatalf("query %d ids %q %q %q %q", q, a.QID, p.QID, b.QID, tr.QID)
		}
		if !slices.Equal(a.Labels, p.Labels) || !slices.Equal(a.Scores, p.Scores) || !slices.Equal(a.Labels, b.Labels) {
			t.Fatalf("query %s: TSV, Parquet and RKM1 differ", a.QID)
		}
		for i, s := range a.Scores {
			if float64(float32(s)) != b.Scores[i] {
				t.Fatalf("query %s item %d: RKM1 score %v is not float32(%v)", a.QID, i, b.Scores[i], s)
			}
			if m := math.Round(s * 1000); math.Abs(s*1000-m) > 1e-6 {
				t.Fatalf("query %s item %d: score %v has more than 3 decimals", a.QID, i, s)
			}
			items++
			if a.Labels[i] >= 1 {
				relevant++
			}
			if a.Labels[i] != math.Trunc(a.Labels[i]) || a.Labels[i] < 0 || a.Labels[i] > 4 {
				t.Fatalf("label %v out of 0..4", a.Labels[i])
			}
		}
		// The run is the TSV list sorted by score desc, then item index.
		idx := make([]int, len(a.Scores))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(x, y int) int {
			switch {
			case a.Scores[x] > a.Scores[y]:
				return -1
			case a.Scores[x] < a.Scores[y]:
				return 1
			}
			return 0
		})
		if len(tr.UnrankedLabels) != 0 || len(tr.Scores) != len(idx) {
			t.Fatalf("query %s: run has %d items and %d unranked judgments", a.QID, len(tr.Scores), len(tr.UnrankedLabels))
		}
		for k, i := range idx {
			if tr.Scores[k] != a.Scores[i] || tr.Labels[k] != a.Labels[i] {
				t.Fatalf("query %s rank %d: run has (%v, %v), want item %d (%v, %v)", a.QID, k+1, tr.Scores[k], tr.Labels[k], i, a.Scores[i], a.Labels[i])
			}
			// trec_eval orders ties by document id, descending.
			if k > 0 && tr.Scores[k] == tr.Scores[k-1] && strings.Compare(tr.Docs[k-1], tr.Docs[k]) <= 0 {
				t.Fatalf("query %s: tied documents %s, %s are not in descending id order", a.QID, tr.Docs[k-1], tr.Docs[k])
			}
		}
	}
	if sum.Items != items || sum.Relevant != relevant {
		t.Errorf("summary %+v, counted %d items, %d relevant", sum, items, relevant)
	}
}

// TestDistribution checks the shape issue 5 asks for on 4,000 queries.
func TestDistribution(t *testing.T) {
	cfg := Config{Queries: 4000, Items: 100, Seed: 1}
	g := NewGenerator(cfg)
	var l List
	var rel, total, none int
	var rates []float64
	var sumDiff, sumDiff2 float64
	var nNoise int
	for range cfg.Queries {
		g.Next(&l)
		r := 0
		for i, lab := range l.Labels {
			if lab >= 1 {
				r++
			}
			// The noise of items that were not overwritten by a copy is
			// score - 0.6*label; copies are rare enough to leave the
			// moments visible.
			d := float64(l.Milli[i])/1000 - 0.6*float64(lab)
			sumDiff += d
			sumDiff2 += d * d
			nNoise++
		}
		if r == 0 {
			none++
		}
		rel += r
		total += len(l.Labels)
		rates = append(rates, float64(r)/float64(len(l.Labels)))
	}
	frac := float64(rel) / float64(total)
	if frac < 0.095 || frac > 0.105 {
		t.Errorf("relevant fraction %.4f, want about 0.10", frac)
	}
	if none < 40 {
		t.Errorf("only %d of %d queries have no relevant item; a rate drawn in [0, 0.2] gives many", none, cfg.Queries)
	}
	if m := slices.Max(rates); m > 0.4 {
		t.Errorf("a query has relevance rate %.2f; rates are drawn in [0, 0.2]", m)
	}
	mean := sumDiff / float64(nNoise)
	sd := math.Sqrt(sumDiff2/float64(nNoise) - mean*mean)
	if math.Abs(mean) > 0.02 || math.Abs(sd-1) > 0.05 {
		t.Errorf("noise mean %.3f sd %.3f, want about 0 and 1", mean, sd)
	}
}

// TestCopies measures the share of items whose score was copied: the
// generator with copies switched off must differ from it in about 2% of
// items.
func TestCopies(t *testing.T) {
	cfg := Config{Queries: 3000, Items: 100, Seed: 5}
	g := NewGenerator(cfg)
	var l List
	changed, total := 0, 0
	for range cfg.Queries {
		g.Next(&l)
		for i := range l.Milli {
			if l.Milli[i] != g.orig[i] {
				changed++
			}
			total++
		}
	}
	// A copy can pick an equal score and go unseen, so the rate seen is a
	// little under 2%.
	if r := float64(changed) / float64(total); r < 0.017 || r > 0.022 {
		t.Errorf("copied share %.4f, want about 0.02", r)
	}
}

func TestAppendMilli(t *testing.T) {
	tests := map[int64]string{0: "0.000", 1: "0.001", -1: "-0.001", 1500: "1.500", -23456: "-23.456", 999: "0.999"}
	for m, want := range tests {
		if got := string(appendMilli(nil, m)); got != want {
			t.Errorf("appendMilli(%d) = %q, want %q", m, got, want)
		}
		if f, _ := strconv.ParseFloat(want, 64); f != Score(m) {
			t.Errorf("Score(%d) = %v, parsing %q gives %v", m, Score(m), want, f)
		}
	}
}

func TestDocID(t *testing.T) {
	if got := string(DocID(nil, 0, 100)); got != "D99" {
		t.Errorf("DocID(0, 100) = %q", got)
	}
	if got := string(DocID(nil, 95, 100)); got != "D04" {
		t.Errorf("DocID(95, 100) = %q", got)
	}
	if got := string(DocID(nil, 0, 1)); got != "D0" {
		t.Errorf("DocID(0, 1) = %q", got)
	}
}

func TestRunFlags(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-out", dir, "-queries", "10", "-items", "5", "-formats", "tsv,bin"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "wrote 10 queries x 5 items to ") {
		t.Errorf("output %q", out.String())
	}
	for _, bad := range [][]string{{"-queries", "0"}, {"-formats", "xml"}, {"extra"}} {
		if err := run(context.Background(), append([]string{"-out", dir}, bad...), io.Discard); err == nil {
			t.Errorf("run %v: no error", bad)
		}
	}
}
