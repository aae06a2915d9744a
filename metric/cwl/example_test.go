package cwl_test

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/metric/cwl"
)

// RBP(rel=1,p=0.5) of a ranking whose documents have the labels 2, 0
// (unjudged), 1: gains 1, 0, 1 weighted by 0.5^(i-1) over 1 + 0.5 + ...
// + 0.5^999, which rounds to 2: (1 + 0.25) / 2.
func ExampleScorer_Score() {
	m := cwl.Measure{Kind: cwl.RBP, Rel: 1, P: 0.5}
	s, err := cwl.New(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	gains := []float64{m.Gain(2), 0, m.Gain(1)}
	fmt.Println(s.Score(gains))
	// Output: 0.625
}

// The order ir_measures gives cwl_eval: by score, ties in file order.
func ExampleOrder() {
	fmt.Println(cwl.Order([]float64{0.5, 2, 0.5, 1}))
	// Output: [1 3 0 2]
}
