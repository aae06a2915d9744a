package evaluate

import (
	"context"
	"errors"
	"github.com/rankmetrics/rankmetrics/measure"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// tieQrels and tieRun are worked by hand in TestRunTrecEvalTieOrder.
const (
	tieQrels = "q1 0 dA 1\nq1 0 dB 0\nq1 0 dC 1\nq1 0 dD 2\nq1 0 dE -2\n" +
		"q2 0 dP 1\nq2 0 dQ 0\n"
	tieRun = "q1 Q0 dA 1 1.0 r\nq1 Q0 dB 2 1.0 r\nq1 Q0 dC 3 1.0 r\nq1 Q0 dX 4 1.0 r\nq1 Q0 dE 5 0.5 r\n" +
		"q2 Q0 dP 1 3.017000001 r\nq2 Q0 dQ 2 3.017 r\n"
)

// TestRunTrecEvalTieOrder: trec_eval's measures rank equal scores by
// docno, greatest first, whatever the order of the lines. By hand:
//
//	q1: dA dB dC dX tie at 1.0: trec_eval ranks dX (unjudged) dC (1)
//	  dB (0) dA (1), then dE (-2: in the pool, unjudged); dD (2) is judged
//	  and missed, so R = 3 (dA, dC, dD).
//	  P_2 = 1/2; recip_rank = 1/2; P_5 = 2/5;
//	  map_cut_4 = (1/2 + 2/4) / 3 = 1/3;
//	  ndcg_cut_3 = (1/log2 3) / (2 + 1/log2 3 + 1/2) = 0.2015132 (the ideal
//	  ranking has dD);
//	  bpref: one judged nonrelevant (dB; dE is not judged): dC has none
//	  above it (1), dA has dB (1 - 1/1 = 0): (1 + 0) / 3.
//	q2: 3.017000001 and 3.017 differ in 10.0 (dP, relevant, first:
//	  recip_rank 1, P_1 1) and tie as C floats in 9.0.8 (dQ first by
//	  docno: recip_rank 1/2, P_1 0).
func TestRunTrecEvalTieOrder(t *testing.T) {
	l3 := math.Log2(3)
	names := []string{"P_2", "recip_rank", "P_5", "map_cut_4", "ndcg_cut_3", "bpref", "P_1"}
	q1 := []float64{0.5, 0.5, 0.4, 1.0 / 3, (1 / l3) / (2.5 + 1/l3), 1.0 / 3, 0}
	want := map[treceval.Version]map[string][]float64{
		treceval.V10:  {"q1": q1, "q2": {0.5, 1, 0.2, 1, 1, 1, 1}},
		treceval.V908: {"q1": q1, "q2": {0.5, 0.5, 0.2, 0.5, 1 / l3, 0, 0}},
	}
	lines := strings.SplitAfter(tieRun, "\n")
	lines = lines[:len(lines)-1]
	r := rand.New(rand.NewPCG(5, 5))
	for v, wq := range want {
		for shuffle := range 6 {
			perm := append([]string(nil), lines...)
			if shuffle > 0 {
				r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			}
			run := strings.Join(perm, "")
			o := options(t, "float32", "random", names...)
			o.TrecEvalVersion = v
			rd, err := runio.NewTRECReader(context.Background(), strings.NewReader(tieQrels), strings.NewReader(run), "qrels", "run",
				runio.Options{KeepDocs: true, Unsorted: runio.UnsortedGroup})
			if err != nil {
				t.Fatal(err)
			}
			res, pq := run2(t, rd, o)
			for q, w := range wq {
				for m, name := range names {
					if got := pq.values[q][m]; math.Abs(got-w[m]) > 1e-15 {
						t.Errorf("trec_eval %s, lines %q: %s %s = %v, want %v", v, perm, q, name, got, w[m])
					}
				}
			}
			for m, name := range names {
				if mean := (wq["q1"][m] + wq["q2"][m]) / 2; math.Abs(res.Values[m]-mean) > 1e-15 {
					t.Errorf("trec_eval %s: %s = %v, want %v", v, name, res.Values[m], mean)
				}
			}
		}
	}
}

// run2 is run with a reader closed at the end of the test.
func run2(t *testing.T, r runio.Reader, o Options) (*Result, *perQuery) {
	t.Helper()
	t.Cleanup(func() { r.Close() })
	return run(t, r, o)
}

// TestRunTrecEvalErrors: inputs trec_eval's measures cannot be computed
// on are errors that say why and what to do.
func TestRunTrecEvalErrors(t *testing.T) {
	bg := context.Background()
	tests := []struct {
		name  string
		read  func() (runio.Reader, error)
		edit  func(*Options)
		want  string
		isErr error
	}{
		{"no doc ids", func() (runio.Reader, error) {
			return runio.NewDelimitedReader(bg, strings.NewReader("qid\tlabel\tscore\nq\t1\t0.5\n"), "in.tsv", '\t', runio.Options{KeepDocs: true})
		}, nil, "add a document id column (named doc, or --doc-col NAME; headerless TSV/CSV: --columns qid,doc,label,score)", ErrNoDocIDs},
		{"fractional label", func() (runio.Reader, error) {
			return runio.NewDelimitedReader(bg, strings.NewReader("qid\tdoc\tlabel\tscore\nq\td\t0.5\t0.5\n"), "in.tsv", '\t', runio.Options{KeepDocs: true})
		}, nil, `document "d": label 0.5: measure P_10 is trec_eval's, whose judgments are integers`, nil},
		{"only negative judgments", func() (runio.Reader, error) {
			return runio.NewDelimitedReader(bg, strings.NewReader("qid\tdoc\tlabel\tscore\nq\td\t-1\t0.5\n"), "in.tsv", '\t', runio.Options{KeepDocs: true})
		}, nil, "every judgment of the query is negative", nil},
		{"run-only keep", func() (runio.Reader, error) {
			return runio.NewTRECReader(bg, strings.NewReader(tieQrels), strings.NewReader(tieRun), "q", "r", runio.Options{KeepDocs: true})
		}, func(o *Options) { o.RunOnly = Keep }, "run-only queries cannot be kept", nil},
		{"rbp in 9.0.8", func() (runio.Reader, error) {
			return runio.NewTRECReader(bg, strings.NewReader(tieQrels), strings.NewReader(tieRun), "q", "r", runio.Options{KeepDocs: true})
		}, func(o *Options) {
			m, _ := measure.Parse("rbp")
			o.Measures = append(o.Measures, m)
			o.TrecEvalVersion = treceval.V908
		}, `illegal measure "rbp" (trec_eval 9.0.8)`, treceval.ErrIllegalMeasure},
	}
	for _, tc := range tests {
		r, err := tc.read()
		if err != nil {
			t.Fatal(err)
		}
		o := options(t, "float64", "stable", "P_10")
		if tc.edit != nil {
			tc.edit(&o)
		}
		_, err = Run(bg, r, o)
		r.Close()
		if err == nil || !strings.Contains(err.Error(), tc.want) || tc.isErr != nil && !errors.Is(err, tc.isErr) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestRunTrecEvalWorkers: trec_eval's measures give the same values for
// any worker count and batch size, with judged topics the run lacks
// kept.
func TestRunTrecEvalWorkers(t *testing.T) {
	qrels, runText, _ := randomTREC(23, 300, -1)
	o := options(t, "float64", "random", "P_5", "ndcg", "bpref", "map_cut_10", "map")
	o.QrelsOnly = Keep
	for _, b := range []int{1, 7, 64} {
		o.Batch = b
		checkWorkers(t, "trec_eval", func() runio.Reader {
			r, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(runText), "q", "r", runio.Options{KeepDocs: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			return r
		}, o, 1, 3)
	}
}
