package gomlx

import (
	"fmt"
	"io"
	"testing"

	"github.com/gomlx/gomlx/backends"
	_ "github.com/gomlx/gomlx/backends/simplego" // the pure Go backend; set GOMLX_BACKEND=go
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/train"
	"github.com/gomlx/gomlx/pkg/ml/train/metrics"
	"github.com/gomlx/gomlx/pkg/ml/train/optimizers"
)

// newBackend returns the backend GOMLX_BACKEND names; only the pure Go
// backend is linked into the tests.
func newBackend(t testing.TB) backends.Backend {
	t.Helper()
	var b backends.Backend
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%v", r)
			}
		}()
		b, err = backends.New()
	}()
	if err != nil {
		t.Fatalf("creating the GoMLX backend (the tests link only simplego; run with GOMLX_BACKEND=go): %v", err)
	}
	return b
}

// batchFn builds fresh tensors for one batch: the loop and Eval free the
// tensors a dataset yields.
type batchFn func() (inputs, labels []*tensors.Tensor)

// fixedDataset yields the same batches in every pass and then io.EOF.
type fixedDataset struct {
	name    string
	batches []batchFn
	pos     int
}

func (d *fixedDataset) Name() string { return d.name }
func (d *fixedDataset) Reset()       { d.pos = 0 }
func (d *fixedDataset) Yield() (any, []*tensors.Tensor, []*tensors.Tensor, error) {
	if d.pos >= len(d.batches) {
		return nil, nil, nil, io.EOF
	}
	in, lab := d.batches[d.pos]()
	d.pos++
	return nil, in, lab, nil
}

// identityModel returns its input as the scores.
func identityModel(_ *context.Context, _ any, inputs []*graph.Node) []*graph.Node {
	return []*graph.Node{inputs[0]}
}

// zeroLoss is a constant loss: Eval in GoMLX v0.26.0 needs a loss function.
func zeroLoss(_, predictions []*graph.Node) *graph.Node {
	return graph.ScalarZero(predictions[0].Graph(), predictions[0].DType())
}

// evalWithIdentity evaluates m on the batches through a real Trainer whose
// model returns the scores it is given.
func evalWithIdentity(t *testing.T, m *MeanAveragePrecision, batches ...batchFn) (*tensors.Tensor, error) {
	t.Helper()
	trainer := train.NewTrainer(newBackend(t), context.New(), identityModel, zeroLoss,
		optimizers.StochasticGradientDescent().Done(), nil, []metrics.Interface{m})
	res, err := trainer.Eval(&fixedDataset{name: "fixed", batches: batches})
	if err != nil {
		return nil, err
	}
	idx := len(trainer.EvalMetrics()) - 1
	return res[idx], nil
}

// f32 builds a float32 tensor.
func f32(dims []int, v ...float32) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(v, dims...)
}

// bools builds a Bool tensor.
func bools(dims []int, v ...bool) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(v, dims...)
}

func dims(d ...int) []int { return d }
