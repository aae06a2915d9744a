package metric_test

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// The example of TF-Ranking's NDCGMetric docstring: labels {0, 1, 1}
// scored {3, 1, 2} give DCG 1/log2(3) + 1/log2(4) and ideal DCG 1 + 1/log2(3).
func ExampleNewNDCG() {
	labels, _ := tensor.DenseRows([][]float32{{0, 1, 1}})
	scores, _ := tensor.DenseRows([][]float32{{3, 1, 2}})
	m, _ := metric.NewNDCG()
	if err := m.Update(labels, scores, tensor.Weights{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %.7f\n", m.Name(), m.Result())
	// Output: ndcg_metric 0.6934264
}

// A suite ranks each list once for all its metrics. List 1 ranks its items
// 0 1 1 (AP (1/2 + 2/3)/2, reciprocal rank 1/2), list 2 ranks them 0 0 1 (AP
// 1/3, reciprocal rank 1/3).
func ExampleNewSuite() {
	labels, _ := tensor.DenseRows([][]float32{{0, 1, 1}, {1, 0, 0}})
	scores, _ := tensor.DenseRows([][]float32{{3, 1, 2}, {1, 2, 3}})
	s, _ := metric.NewSuite([]string{"map", "map@2", "mrr", "precision@1", "ndcg@3"})
	if err := s.Update(labels, scores, tensor.Weights{}); err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range s.Results() {
		fmt.Printf("%-11s %.4f\n", r.Name, r.Value)
	}
	// Output:
	// map         0.4583
	// map@2       0.1250
	// mrr         0.4167
	// precision@1 0.0000
	// ndcg@3      0.5967
}

// The conventions of average precision on one list ranked R I R R I I R:
// with every relevant item retrieved, TFRanking, TrecEval and
// RetrievedRelevant agree on (1 + 2/3 + 3/4 + 4/7)/4; with cutoff 3 they
// divide 1 + 2/3 by 4 relevant items, by min(4, 3) and by the 2 retrieved.
func ExampleWithConvention() {
	labels, _ := tensor.DenseRows([][]float32{{1, 0, 1, 1, 0, 0, 1}})
	scores, _ := tensor.DenseRows([][]float32{{7, 6, 5, 4, 3, 2, 1}})
	for _, c := range []metric.Convention{metric.TFRanking, metric.TrecEval, metric.MinRK, metric.RetrievedRelevant} {
		all, _ := metric.NewMeanAveragePrecision(metric.WithConvention(c))
		at3, _ := metric.NewMeanAveragePrecision(metric.WithConvention(c), metric.WithTopN(3))
		_ = all.Update(labels, scores, tensor.Weights{})
		_ = at3.Update(labels, scores, tensor.Weights{})
		fmt.Printf("%-9s %.4f %.4f\n", c, all.Result(), at3.Result())
	}
	// Output:
	// tfranking 0.7470 0.4167
	// treceval  0.7470 0.4167
	// minrk     0.7470 0.5556
	// retrieved 0.7470 0.8333
}
