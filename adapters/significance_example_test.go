package adapters_test

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/adapters"
	"github.com/rankmetrics/rankmetrics/significance"
)

// A BestCheckpoint that saves an epoch only when it is significantly
// better than the best one: epoch 2 is better in mean (0.52 > 0.50) but
// its per-query differences {+0.3, -0.3, +0.3, -0.3, +0.1} give p = 0.89;
// epoch 3 is 0.1 better on every query.
func ExampleWithSignificance() {
	perQuery := [][]float64{
		{0.5, 0.5, 0.5, 0.5, 0.5},
		{0.8, 0.2, 0.8, 0.2, 0.6},
		{0.6, 0.6, 0.6, 0.6, 0.6},
	}
	values := func(e adapters.Event) ([]float64, error) { return perQuery[e.Epoch-1], nil }
	cb, err := adapters.NewBestCheckpoint("val_map",
		func(r adapters.Record) error { fmt.Printf("saved epoch %d (%.2f)\n", r.Epoch, r.Value); return nil },
		adapters.WithSignificance(values, significance.PairedT, 0.05))
	if err != nil {
		panic(err)
	}
	var cbs adapters.Callbacks = []adapters.Callback{cb}
	for epoch, mean := range []float64{0.50, 0.52, 0.60} {
		if _, err := cbs.EpochEnd(epoch+1, 0, map[string]float64{"val_map": mean}); err != nil {
			panic(err)
		}
	}
	fmt.Println("better in mean only:", cb.NotSignificant())
	// Output:
	// saved epoch 1 (0.50)
	// saved epoch 3 (0.60)
	// better in mean only: 1
}
