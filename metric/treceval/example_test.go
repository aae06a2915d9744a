package treceval_test

import (
	"fmt"
	"os"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// The worked example of the package documentation, printed as trec_eval
// -q prints it.
func Example() {
	judged := []treceval.Judgment{{"d1", 2}, {"d2", 0}, {"d3", 1}, {"d5", -2}}
	docs := []treceval.Doc{{"d4", 3}, {"d1", 2}, {"d2", 2}, {"d3", 1}, {"d5", 0.5}}
	ev, err := treceval.NewEvaluator(treceval.DefaultConfig(treceval.V10),
		[]string{"P.5", "map", "recip_rank", "Rprec", "bpref", "ndcg", "relstring"})
	if err != nil {
		fmt.Println(err)
		return
	}
	var tv treceval.TopicValues
	if err := ev.Evaluate("301", judged, docs, &tv); err != nil {
		fmt.Println(err)
		return
	}
	os.Stdout.Write(ev.AppendTopic(nil, &tv))
	// Output:
	// map                   	301	0.4167
	// Rprec                 	301	0.0000
	// bpref                 	301	0.0000
	// recip_rank            	301	0.3333
	// P_5                   	301	0.4000
	// relstring             	301	'-021.'
	// ndcg                  	301	0.5438
}
