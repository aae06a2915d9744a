// Command quickstart is the README's first example: TF-Ranking's mean
// average precision over two batches of ranked lists, the first without
// weights and the second with a per-list weight, with a top-n cutoff and a
// deterministic tie policy.
package main

import (
	"fmt"
	"log"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

func main() {
	m, err := metric.NewMeanAveragePrecision(metric.WithTopN(10), metric.WithTies(metric.Expected))
	if err != nil {
		log.Fatal(err)
	}

	// Batch 1: two dense lists of 4 items. Label >= 1 means relevant; -1 masks.
	labels, _ := tensor.DenseRows([][]float32{{0, 1, 0, 2}, {1, 0, -1, 0}})
	scores, _ := tensor.DenseRows([][]float32{{0.9, 0.8, 0.1, 0.4}, {0.3, 0.7, 0.9, 0.3}})
	if err := m.Update(labels, scores, tensor.Weights{}); err != nil {
		log.Fatal(err)
	}

	// Batch 2: one list weighted 2.
	labels, _ = tensor.DenseRows([][]float32{{1, 1, 0, 0}})
	scores, _ = tensor.DenseRows([][]float32{{0.2, 0.9, 0.5, 0.1}})
	if err := m.Update(labels, scores, tensor.PerList([]float32{2})); err != nil {
		log.Fatal(err)
	}

	fmt.Printf("MAP@10 = %.6f\n", m.Result())
}
