package evaluate

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

// TestRunFamilyTREC evaluates family measures on the
// TREC fixture (see evaluate_test.go) in the same pass as MAP. Values by
// hand, with l(r) the label at rank r and log2(3) = 1.5849625:
//
//	q1: ranked labels 1 0 2. q2: ranked labels 0 1, and d9 (label 1)
//	judged but not retrieved.
//	mrr: q1 1/1 = 1, q2 1/2.
//	precision@2: q1 1/2 (d1), q2 1/2 (d5).
//	ndcg@2 (gain 2^l - 1): q1 DCG 1/1 = 1, ideal 2 1 gives
//	  3 + 1/log2(3) = 3.6309298, so 0.27541;
//	  q2 DCG 1/log2(3) = 0.6309298, ideal 1 0 gives 1, so 0.6309298.
//
// The family's NDCG does not put d9 in q2's ideal order (trec_eval's would:
// 0.6309298 / (1 + 0.6309298) = 0.3868528); see the package doc.
func TestRunFamilyTREC(t *testing.T) {
	l3 := math.Log2(3)
	measures := []string{"map", "mrr", "precision@2", "ndcg@2", "map@2"}
	want := map[string][]float64{
		"q1": {5.0 / 6, 1, 0.5, 1 / (3 + 1/l3), 0.5},
		"q2": {0.25, 0.5, 0.5, 1 / l3, 0.25},
	}
	for _, dtype := range []string{"float32", "float64"} {
		for _, ragged := range []bool{true, false} {
			o := options(t, dtype, "random", measures...)
			o.Config.Ragged = ragged
			res, pq := run(t, trecReader(t, fixtureQrels, fixtureRun), o)
			tol := 1e-15
			if dtype == "float32" {
				tol = 1e-6
			}
			for _, q := range []string{"q1", "q2"} {
				got := pq.values[q]
				for m, name := range measures {
					if math.Abs(got[m]-want[q][m]) > tol {
						t.Errorf("%s ragged=%v: %s %s = %v, want %v", dtype, ragged, q, name, got[m], want[q][m])
					}
				}
			}
			for m, name := range measures {
				mean := (want["q1"][m] + want["q2"][m]) / 2
				if math.Abs(res.Values[m]-mean) > tol {
					t.Errorf("%s ragged=%v: %s = %v, want %v", dtype, ragged, name, res.Values[m], mean)
				}
			}
			if res.HistMeasure != 0 {
				t.Errorf("histogram measure %d, want 0 (map)", res.HistMeasure)
			}
		}
	}
}

// TestRunFamilyKeepQrelsOnly: a judged query the run misses (q4, kept)
// scores 0 under every measure, and counts in every mean.
func TestRunFamilyKeepQrelsOnly(t *testing.T) {
	measures := []string{"mrr", "precision@2", "map@2", "ndcg@2"}
	o := options(t, "float64", "stable", measures...)
	o.QrelsOnly = Keep
	res, pq := run(t, trecReader(t, fixtureQrels, fixtureRun), o)
	for m, name := range measures {
		if v := pq.values["q4"][m]; v != 0 {
			t.Errorf("q4 %s = %v, want 0", name, v)
		}
	}
	// mrr: (1 + 1/2 + 0) / 3.
	if math.Abs(res.Values[0]-0.5) > 1e-15 {
		t.Errorf("mrr = %v; want 0.5", res.Values[0])
	}
}

// TestRunFamilyTSV evaluates a TSV file. Values by hand:
//
//	a: scores 0.9 0.5 0.1, labels 0 2 1 -> ranked labels 0 2 1.
//	  mrr 1/2; precision@2 1/2; precision@1 0;
//	  ndcg@3 (2^l - 1): DCG 3/log2(3) + 1/2 = 2.3928450,
//	  ideal 2 1 0: 3 + 1/log2(3) = 3.6309298, so 0.6590195.
//	b: scores 0.3 0.7, labels 1 0 -> ranked labels 0 1.
//	  mrr 1/2; precision@2 1/2; precision@1 0; ndcg@3 0.6309298 / 1.
//	c: scores 2 1, labels 1 1 -> mrr 1; precision@2 1; precision@1 1; ndcg@3 1.
func TestRunFamilyTSV(t *testing.T) {
	const tsv = "qid\tlabel\tscore\na\t0\t0.9\na\t2\t0.5\na\t1\t0.1\nb\t1\t0.3\nb\t0\t0.7\nc\t1\t2\nc\t1\t1\n"
	l3 := math.Log2(3)
	measures := []string{"mrr", "precision@2", "precision@1", "ndcg@3"}
	want := map[string][]float64{
		"a": {0.5, 0.5, 0, (3/l3 + 0.5) / (3 + 1/l3)},
		"b": {0.5, 0.5, 0, 1 / l3},
		"c": {1, 1, 1, 1},
	}
	r, err := runio.NewDelimitedReader(context.Background(), strings.NewReader(tsv), "in.tsv", '\t', runio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	o := options(t, "float64", "stable", measures...)
	res, pq := run(t, r, o)
	for q, w := range want {
		for m, name := range measures {
			if math.Abs(pq.values[q][m]-w[m]) > 1e-15 {
				t.Errorf("%s %s = %v, want %v", q, name, pq.values[q][m], w[m])
			}
		}
	}
	for m, name := range measures {
		mean := (want["a"][m] + want["b"][m] + want["c"][m]) / 3
		if math.Abs(res.Values[m]-mean) > 1e-15 {
			t.Errorf("%s = %v, want %v", name, res.Values[m], mean)
		}
	}
}

// TestRunFamilyWorkersBitIdentical: family measures, per query and
// overall, are bit-identical for any worker count, also under random ties.
func TestRunFamilyWorkersBitIdentical(t *testing.T) {
	qs := randomQueries(7, 500, false)
	qrels, runText, _ := randomTREC(23, 300, -1)
	for _, ties := range []string{"random", "stable"} {
		for _, dtype := range []string{"float32", "float64"} {
			o := options(t, dtype, ties, "ndcg@5", "map", "mrr", "precision@3", "recall@4", "ndcg@10")
			o.Batch = 32
			checkWorkers(t, ties+" "+dtype, func() runio.Reader { return &sliceReader{qs: qs} }, o, 2, 5)
			o = options(t, dtype, ties, "mrr@10", "precision@3", "map", "ndcg@10")
			o.Batch, o.RunOnly, o.QrelsOnly = 16, Keep, Keep
			checkWorkers(t, "trec "+ties+" "+dtype, func() runio.Reader { return trecReader(t, qrels, runText) }, o, 2, 5)
		}
	}
}

// TestRunFamilyMAPCutMatchesNaive: MAP@k under the family's TrecEval
// convention, with missed judged documents as weight-0 items, gives the
// naive AP@k whose denominator counts every relevant judged document
// (ties in run order, which the stable policy keeps).
func TestRunFamilyMAPCutMatchesNaive(t *testing.T) {
	qrels, runText, want := randomTREC(31, 200, 5)
	o := options(t, "float64", "stable")
	set := metric.DefaultConfig(metric.KindMAP)
	set.Convention, set.TopN = metric.TrecEval, 5
	o.Measures = []Measure{{Name: "map@5 (treceval convention)", TopN: 5, Family: &set}}
	o.Batch, o.RunOnly = 7, Keep
	_, pq := run(t, trecReader(t, qrels, runText), o)
	for q, w := range want {
		if math.Abs(pq.values[q][0]-w) > 1e-12 {
			t.Errorf("query %s: map_cut_5 = %v, want %v", q, pq.values[q][0], w)
		}
	}
}

// TestRunFamilyGroupedSameAsAlone: measures sharing one suite give, per
// query and overall, the bits each gives alone (deterministic ties).
func TestRunFamilyGroupedSameAsAlone(t *testing.T) {
	qs := randomQueries(11, 300, false)
	names := []string{"ndcg@5", "mrr", "precision@3", "recall@4", "ndcg@10", "precision@2"}
	for _, ties := range []string{"stable", "expected"} {
		o := options(t, "float32", ties, names...)
		o.Batch = 32
		all, allPQ := run(t, &sliceReader{qs: qs}, o)
		for m, name := range names {
			o1 := options(t, "float32", ties, name)
			o1.Batch = 32
			one, onePQ := run(t, &sliceReader{qs: qs}, o1)
			if !sameBits(one.Values, all.Values[m:m+1]) {
				t.Errorf("%s %s: alone %v, grouped %v", ties, name, one.Values[0], all.Values[m])
			}
			for _, q := range allPQ.order {
				if !sameBits(onePQ.values[q], allPQ.values[q][m:m+1]) {
					t.Errorf("%s %s query %s: alone %v, grouped %v", ties, name, q, onePQ.values[q], allPQ.values[q][m])
					break
				}
			}
		}
	}
}
