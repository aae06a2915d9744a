package evaluate

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/measure"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/irm"
	"github.com/rankmetrics/rankmetrics/runio"
)

// TestIRMProvidersMixed: provider measures beside pytrec_eval's and a
// TF-Ranking one in one plan, each with its provider's tie order, worked
// by hand. Query 1 ranks b (2.0), then a and z tied at 1.0; query 2 ties
// y and x.
func TestIRMProvidersMixed(t *testing.T) {
	qrels := "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 x 1\n3 0 w 1\n"
	runText := "1 Q0 b 1 2.0 t\n1 Q0 a 2 1.0 t\n1 Q0 z 3 1.0 t\n2 Q0 y 1 1 t\n2 Q0 x 2 1 t\n"
	o := options(t, "float64", "stable", "Judged@2", "RR@1", "RR", "Accuracy", "P@1", "mrr")
	o.QrelsOnly = Keep
	rd, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(runText), "qrels", "run",
		runio.Options{KeepDocs: true, Unsorted: runio.UnsortedGroup})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var weights []float64
	pq := &perQuery{}
	o.PerQuery = func(b *Batch) error {
		for i := range b.Len() {
			weights = append(weights, b.Weight(3, i))
		}
		return pq.add(b)
	}
	res, err := Run(context.Background(), rd, o)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]float64{
		// Judged@2: b a (ties by docno ascending), both judged; x y, y
		// unjudged. RR@1: b is not relevant; x is. RR (trec_eval, ties by
		// docno descending): b z a, 1/3; y x, 1/2.
		// Accuracy (ties in file order): b a z: 1 - 1/(2*1); y x: 1 -
		// 1/(1*1). Query 3, judged only, scores 0 and has no Accuracy.
		"1": {1, 0, 1.0 / 3, 0.5, 0},
		"2": {0.5, 1, 0.5, 0, 0},
		"3": {0, 0, 0, 0, 0},
	}
	for qid, w := range want {
		got := pq.values[qid]
		for m := range w {
			if got[m] != w[m] {
				t.Errorf("query %s %s = %v, want %v", qid, o.Measures[m].Name, got[m], w[m])
			}
		}
	}
	if len(weights) != 3 || weights[2] != 0 || weights[0] != 1 {
		t.Errorf("Accuracy weights %v, want query 3 without a value", weights)
	}
	for m, w := range []float64{0.5, 1.0 / 3, (1.0/3 + 0.5) / 3, 0.25, 0} {
		if res.Values[m] != w {
			t.Errorf("%s = %v, want %v", o.Measures[m].Name, res.Values[m], w)
		}
	}
}

// runLen is a provider measure for tests: the number of run lines of a
// query, no value for a query the run lacks.
type runLen struct{}

func (runLen) Value(q *irm.Query) (float64, bool, error) {
	return float64(len(q.Run)), len(q.Run) > 0, nil
}

// TestIRMInterface: a provider measure given to the Plan through the
// interface alone (no registry record): per-query values, the queries
// without a value left out (weight 0), a summary that is the mean or,
// with Sum, the sum, and NaN for the mean of no value.
func TestIRMInterface(t *testing.T) {
	qrels := "1 0 a 1\n2 0 x 1\n3 0 w 1\n"
	runText := "1 Q0 b 1 2.0 t\n1 Q0 a 2 1.0 t\n1 Q0 z 3 1.0 t\n2 Q0 y 1 1 t\n2 Q0 x 2 1 t\n"
	mean := Measure{Name: "RunLen", TopN: metric.NoTopN, IR: &measure.IRSpec{Key: "RunLen", Provider: "test", Calc: runLen{}}}
	sum := Measure{Name: "RunLenSum", TopN: metric.NoTopN, IR: &measure.IRSpec{Key: "RunLenSum", Provider: "test", Calc: runLen{}, Sum: true}}
	for _, tc := range []struct {
		qrels string
		want  [2]float64
	}{
		{qrels, [2]float64{2.5, 5}},              // queries 1 and 2: (3 + 2) / 2; query 3 has no value
		{"3 0 w 1\n", [2]float64{math.NaN(), 0}}, // no query with a value
	} {
		o := options(t, "float64", "stable")
		o.Measures = []Measure{mean, sum}
		o.QrelsOnly = Keep
		rd, err := runio.NewTRECReader(context.Background(), strings.NewReader(tc.qrels), strings.NewReader(runText), "qrels", "run",
			runio.Options{KeepDocs: true, Unsorted: runio.UnsortedGroup})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), rd, o)
		rd.Close()
		if err != nil {
			t.Fatal(err)
		}
		for m, w := range tc.want {
			if got := res.Values[m]; got != w && !(math.IsNaN(got) && math.IsNaN(w)) {
				t.Errorf("qrels %q: %s = %v, want %v", tc.qrels, o.Measures[m].Name, got, w)
			}
		}
	}
}
