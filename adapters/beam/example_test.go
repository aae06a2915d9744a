package beam_test

import (
	"fmt"

	rmbeam "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/metric"
)

// The CombineFn's accumulator merges exactly: any split of the queries
// gives the same bits.
func ExampleOverallFn() {
	fn, err := rmbeam.NewOverallFn([]metric.Config{{Name: "map", TopN: metric.NoTopN, DType: metric.Float64, Ties: metric.Stable}})
	if err != nil {
		fmt.Println(err)
		return
	}
	values := []rmbeam.QueryValue{
		{QID: "q1", Value: []float64{1}, Weight: []float64{3}},
		{QID: "q2", Value: []float64{0.1}, Weight: []float64{1e-9}},
		{QID: "q3", Value: []float64{0.5}, Weight: []float64{1}},
	}
	a := fn.CreateAccumulator()
	a, _ = fn.AddInput(a, values[0])
	b := fn.CreateAccumulator()
	b, _ = fn.AddInput(b, values[2])
	b, _ = fn.AddInput(b, values[1])
	ab, _ := fn.MergeAccumulators(a, b)
	r, _ := fn.ExtractOutput(ab)
	// (1·3 + 0.1·1e-9 + 0.5·1) / (3 + 1e-9 + 1) = 3.5000000001 / 4.000000001
	fmt.Printf("%s = %.12f over %d measures\n", r.Measures[0].Name, r.Measures[0].Value, len(r.Measures))
	// Output: map = 0.874999999806 over 1 measures
}

// An Evaluator computes one query as one update of the metric: the
// weighted list's AP and its list weight, the mean weight of its relevant
// items.
func ExampleEvaluator() {
	ev, err := rmbeam.NewEvaluator([]metric.Config{{Name: "map", TopN: metric.NoTopN, DType: metric.Float64, Ties: metric.Stable, Ragged: true}})
	if err != nil {
		fmt.Println(err)
		return
	}
	l := rmbeam.List{Query: rmbeam.Query{QID: "q1", Labels: []float64{1, 0, 1}, Scores: []float64{3, 2, 1}, Weights: []float64{2, 1, 4}}}
	v, err := ev.Eval(&l)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("AP %.4f, list weight %v\n", v.Value[0], v.Weight[0])
	// Output: AP 0.7778, list weight 3
}
