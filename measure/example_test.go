package measure_test

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/measure"
)

// ExampleParse reads names of the three families and shows the record each
// follows; an unknown name lists the nearest names of every family.
func ExampleParse() {
	for _, name := range []string{"ndcg@10", "ndcg_cut_10", "map@10:minrk", "P.5"} {
		m, err := measure.Parse(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		d := m.Def()
		fmt.Printf("%s: %s %s, %s\n", m.Name, d.Family, d.Key, d.Summary)
	}
	for _, s := range measure.Suggest("NDCG@10", false) {
		fmt.Printf("NDCG@10? %s (%s)\n", s.Name, s.Def.Family)
	}
	// Output:
	// ndcg@10: TF-Ranking ndcg, weighted mean
	// ndcg_cut_10: trec_eval ndcg_cut, mean
	// map@10:minrk: convention minrk, weighted mean
	// P_5: trec_eval P, mean
	// NDCG@10? ndcg@10 (TF-Ranking)
	// NDCG@10? ndcg_cut_10 (trec_eval)
}
