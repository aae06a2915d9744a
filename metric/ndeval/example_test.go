package ndeval_test

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/metric/ndeval"
)

// A topic with subtopics 0 and 1: document a is relevant to both, b to 0,
// c to 1. The run ranks b, an unjudged x, then a.
func ExampleTopic_Eval() {
	p := ndeval.Params{Rel: 1, Alpha: 0.5, Beta: 0.5}
	top := ndeval.NewTopic([]ndeval.Judgment{
		{Subtopic: 0, Doc: "a", Label: 1}, {Subtopic: 1, Doc: "a", Label: 1},
		{Subtopic: 0, Doc: "b", Label: 1}, {Subtopic: 1, Doc: "c", Label: 2},
	}, p)
	v := top.Eval([]string{"b", "x", "a"})
	for _, m := range []ndeval.Measure{
		{Kind: ndeval.AlphaNDCG, Cutoff: 1}, // gain 1 at rank 1 over the ideal's 2
		{Kind: ndeval.PIA, Cutoff: 3},       // 3 relevant (document, subtopic) pairs over 3 ranks * 2 subtopics
		{Kind: ndeval.StRecall, Cutoff: 1},  // 1 subtopic of 2
		{Kind: ndeval.NRBP},                 // (1 + 1.5/4) * (1 - 0.5*0.5) / 2
	} {
		fmt.Println(m.Kind, v.Get(m))
	}
	// Output:
	// alpha_nDCG 0.5
	// P_IA 0.5
	// StRecall 0.5
	// NRBP 0.515625
}
