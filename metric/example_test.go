package metric_test

import (
	"fmt"
	"log"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// The first example of the MeanAveragePrecisionMetric docstring: one list,
// top 2. The relevant items rank 2nd and 3rd, so AP@2 = (1/2) / 2.
func ExampleMeanAveragePrecision() {
	labels, _ := tensor.DenseRows([][]float32{{0, 1, 1}})
	preds, _ := tensor.DenseRows([][]float32{{3, 2, 1}})
	m, err := metric.NewMeanAveragePrecision(metric.WithTopN(2))
	if err != nil {
		log.Fatal(err)
	}
	if err := m.Update(labels, preds, tensor.Weights{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Result())
	// Output: 0.25
}

// The second docstring example: ragged lists of 2 and 3 items, top 2.
func ExampleMeanAveragePrecision_ragged() {
	labels, _ := tensor.RaggedRows([][]float32{{0, 1}, {1, 2, 0}})
	preds, _ := tensor.RaggedRows([][]float32{{3, 2}, {4, 1, 2}})
	m, err := metric.NewMeanAveragePrecision(metric.WithTopN(2), metric.WithRagged(true))
	if err != nil {
		log.Fatal(err)
	}
	if err := m.Update(labels, preds, tensor.Weights{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Result())
	// Output: 0.5
}

// Compute gives each list's AP and list weight, as TF-Ranking's compute().
func ExampleMeanAveragePrecision_Compute() {
	labels, _ := tensor.DenseRows([][]float64{{0, 0, 1}, {0, 1, 2}})
	preds, _ := tensor.DenseRows([][]float64{{1, 3, 2}, {1, 2, 3}})
	weights, _ := tensor.DenseRows([][]float64{{1, 2, 3}, {4, 5, 6}})
	m, _ := metric.NewMeanAveragePrecision(metric.WithDType(metric.Float64))
	pl, err := m.Compute(labels, preds, tensor.PerItem(weights))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pl.Values, pl.Weights)
	// Output: [0.5 1] [3 5.5]
}

// Under the Expected tie policy a tie counts as the average over every
// order: here the one relevant item ties with another, so it ranks 1st or
// 2nd with even odds, and E[AP] = (1 + 1/2) / 2.
func ExampleExpected() {
	labels, _ := tensor.DenseRows([][]float64{{1, 0, 0}})
	preds, _ := tensor.DenseRows([][]float64{{2, 2, 1}})
	m, _ := metric.NewMeanAveragePrecision(metric.WithTies(metric.Expected))
	_ = m.Update(labels, preds, tensor.Weights{})
	fmt.Println(m.Result())
	// Output: 0.75
}

// ExactTotals adds lists without rounding, so totals split over workers
// merge to the exact result: here 1e16 + 1 - 1e16 over three lists of
// weight 1 is 1/3, where a float64 running sum would lose the 1 and give 0.
func ExampleExactTotals() {
	var a, b metric.ExactTotals
	a.Add(metric.Float64, 1e16, 1)
	a.Add(metric.Float64, 1, 1)
	b.Add(metric.Float64, -1e16, 1)
	a.Merge(&b)
	s := a.State(metric.DefaultConfig(metric.KindMAP))
	var back metric.ExactTotals
	if err := back.SetState(s); err != nil {
		fmt.Println(err)
	}
	fmt.Println(a.Result(), back.Result())
	// Output: 0.3333333333333333 0.3333333333333333
}
