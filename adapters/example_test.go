package adapters_test

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/rankmetrics/rankmetrics/adapters"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

func ExampleValidator() {
	// The "model" scores an item by its single feature.
	score := func(_ context.Context, b adapters.Batch[[][]float32]) (tensor.Lists, error) {
		return tensor.DenseRows(b.Inputs)
	}
	mapMetric, err := metric.NewMeanAveragePrecision()
	if err != nil {
		panic(err)
	}
	v, err := adapters.NewValidator(score, []metric.Metric{mapMetric})
	if err != nil {
		panic(err)
	}
	labels, _ := tensor.DenseRows([][]float32{{0, 0, 1}, {0, 1, 2}})
	batches := []adapters.Batch[[][]float32]{
		{Inputs: [][]float32{{1, 3, 2}, {1, 2, 3}}, Labels: labels},
	}
	m, err := v.Evaluate(context.Background(), slices.Values(batches))
	if err != nil {
		panic(err)
	}
	fmt.Println(m)
	// Output:
	// map[val_mean_average_precision_metric:0.75]
}

func ExampleEarlyStopping() {
	state := 0 // the model's state: here, just the epoch that produced it
	saved := 0
	es, err := adapters.NewEarlyStopping("val_map",
		adapters.WithPatience(2),
		adapters.WithRestoreBest(
			func(adapters.Record) error { saved = state; return nil },
			func(adapters.Record) error { state = saved; return nil }))
	if err != nil {
		panic(err)
	}
	hist := adapters.NewHistory()
	cbs := adapters.Callbacks{es, hist}
	valMAP := []float64{0.40, 0.55, 0.61, 0.60, 0.61, 0.59}
	for epoch := 1; epoch <= len(valMAP); epoch++ {
		state = epoch // "train" one epoch
		act, err := cbs.EpochEnd(epoch, epoch*10, map[string]float64{"val_map": valMAP[epoch-1]})
		if err != nil {
			panic(err)
		}
		if act == adapters.Stop {
			fmt.Println("stopped after epoch", epoch)
			break
		}
	}
	best, _ := es.Best()
	fmt.Printf("best epoch %d (val_map %.2f); model state is from epoch %d\n", best.Epoch, best.Value, state)
	if err := hist.WriteCSV(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// stopped after epoch 5
	// best epoch 3 (val_map 0.61); model state is from epoch 3
	// hook,epoch,step,val_map
	// epoch,1,10,0.4
	// epoch,2,20,0.55
	// epoch,3,30,0.61
	// epoch,4,40,0.6
	// epoch,5,50,0.61
}
