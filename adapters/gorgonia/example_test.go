package gorgonia_test

import (
	"context"
	"fmt"
	"slices"

	G "gorgonia.org/gorgonia"
	gt "gorgonia.org/tensor"

	"github.com/rankmetrics/rankmetrics/adapters/gorgonia"
	"github.com/rankmetrics/rankmetrics/metric"
)

func ExampleEvaluator() {
	// A linear ranker over 2 features for batches of 2 lists of 3 items:
	// scores = reshape(x · w, [2, 3]).
	g := G.NewGraph()
	x := G.NewMatrix(g, gt.Float32, G.WithShape(6, 2), G.WithName("x"))
	w := G.NewMatrix(g, gt.Float32, G.WithShape(2, 1), G.WithName("w"),
		G.WithValue(gt.New(gt.WithShape(2, 1), gt.WithBacking([]float32{1, 0.5}))))
	scores := G.Must(G.Reshape(G.Must(G.Mul(x, w)), gt.Shape{2, 3}))
	y := G.NewMatrix(g, gt.Float32, G.WithShape(2, 3), G.WithName("y"))

	vm := gorgonia.NewScoringVM(scores)
	defer vm.Close()
	mapMetric, err := metric.NewMeanAveragePrecision()
	if err != nil {
		panic(err)
	}
	ev, err := gorgonia.NewEvaluator(vm, scores, gorgonia.BindNodes(x, y), []metric.Metric{mapMetric})
	if err != nil {
		panic(err)
	}
	batch := gorgonia.Batch{Inputs: gorgonia.Feed{
		// Item scores: 1, 3, 2 and 1, 2, 3.
		Input: gt.New(gt.WithShape(6, 2), gt.WithBacking([]float32{1, 0, 3, 0, 2, 0, 0, 2, 2, 0, 1, 4})),
		// Graded labels; the metric reads them from here (zero-copy).
		Label: gt.New(gt.WithShape(2, 3), gt.WithBacking([]float32{0, 0, 1, 0, 1, 2})),
	}}
	m, err := ev.Evaluate(context.Background(), slices.Values([]gorgonia.Batch{batch}))
	if err != nil {
		panic(err)
	}
	fmt.Println(m)
	// Output:
	// map[val_mean_average_precision_metric:0.75]
}
