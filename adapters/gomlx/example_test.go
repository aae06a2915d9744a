package gomlx_test

import (
	"fmt"
	"io"

	"github.com/gomlx/gomlx/backends"
	_ "github.com/gomlx/gomlx/backends/simplego" // the pure Go backend
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/train"
	"github.com/gomlx/gomlx/pkg/ml/train/metrics"
	"github.com/gomlx/gomlx/pkg/ml/train/optimizers"

	rmgomlx "github.com/rankmetrics/rankmetrics/adapters/gomlx"
	"github.com/rankmetrics/rankmetrics/metric"
)

// oneBatch yields one batch of two lists of four items: the scores as the
// input, and the labels with a mask that pads the second list to four.
type oneBatch struct{ done bool }

func (d *oneBatch) Name() string { return "one batch" }
func (d *oneBatch) Reset()       { d.done = false }
func (d *oneBatch) Yield() (any, []*tensors.Tensor, []*tensors.Tensor, error) {
	if d.done {
		return nil, nil, nil, io.EOF
	}
	d.done = true
	scores := tensors.FromValue([][]float32{{0.4, 0.3, 0.2, 0.1}, {0.9, 0.8, 0.7, 0.95}})
	labels := tensors.FromValue([][]float32{{0, 1, 0, 1}, {1, 0, 0, 1}})
	mask := tensors.FromValue([][]bool{{true, true, true, true}, {true, true, true, false}})
	return nil, []*tensors.Tensor{scores}, []*tensors.Tensor{labels, mask}, nil
}

// MAP as an evaluation metric of a GoMLX Trainer. The model here passes its
// input through as the scores. List 1 has relevant items at ranks 2 and 4
// (AP 0.5); list 2, with its last item masked, at rank 1 (AP 1).
func ExampleNewMeanAveragePrecision() {
	backend, err := backends.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := rmgomlx.NewMeanAveragePrecision(metric.WithTopN(10))
	if err != nil {
		fmt.Println(err)
		return
	}
	model := func(_ *context.Context, _ any, inputs []*graph.Node) []*graph.Node { return inputs[:1] }
	loss := func(_, predictions []*graph.Node) *graph.Node {
		return graph.ScalarZero(predictions[0].Graph(), predictions[0].DType())
	}
	trainer := train.NewTrainer(backend, context.New(), model, loss,
		optimizers.StochasticGradientDescent().Done(), nil, []metrics.Interface{m})
	results, err := trainer.Eval(&oneBatch{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, mm := range trainer.EvalMetrics() {
		if mm == m {
			fmt.Printf("%s = %s\n", m.ShortName(), m.PrettyPrint(results[i]))
		}
	}
	// Output: MAP@10 = 0.7500
}
