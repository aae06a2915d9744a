package evaluate

import (
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/measure"
)

// FuzzParseMeasures checks that ParseMeasures never panics, and that what
// it accepts is a consistent measure: named, of exactly one kind (MAP
// path, family or trec_eval), parsed again to itself, and usable in a
// plan.
func FuzzParseMeasures(f *testing.F) {
	for _, s := range []string{"map", "map@10", "ndcg@5,mrr", "map@10:treceval", "map:minrk", "P.5,10", "P_10", "ndcg_cut_10",
		"map@x:treceval", "ndcg:treceval", ":", "map@", "recall", "alpha_dcg@5", "num_q.1", "iprec_at_recall_0.50"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := measure.ParseList(s)
		if err != nil {
			return
		}
		for _, m := range ms {
			if m.Name == "" {
				t.Fatalf("%q: a measure without a name: %+v", s, m)
			}
			if m.Family != nil && m.TrecEval != "" {
				t.Fatalf("%q: %s is both a family and a trec_eval measure", s, m.Name)
			}
			if strings.Contains(m.Name, ",") && m.TrecEval == "" {
				t.Fatalf("%q: name %q has a comma", s, m.Name)
			}
			again, err := measure.Parse(m.Name)
			if err != nil {
				t.Fatalf("%q: %s does not parse again: %v", s, m.Name, err)
			}
			// A value of a specification with several (P.5,10) parses
			// again under its own (P.5).
			if again.Name != m.Name || again.TopN != m.TopN || (again.Family == nil) != (m.Family == nil) || again.IsTrecEval() != m.IsTrecEval() {
				t.Fatalf("%q: %+v parses again as %+v", s, m, again)
			}
		}
	})
}
