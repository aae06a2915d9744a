package gomlx

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/train/metrics"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// MetricType is the GoMLX metric type of [MeanAveragePrecision]. GoMLX groups metrics of
// the same type, for example on one plot axis.
const MetricType = "ranking"

// ErrInput is wrapped by every error about the labels, predictions, mask
// or weights given to [MeanAveragePrecision].
var ErrInput = errors.New("bad MAP input")

// MeanAveragePrecision is mean average precision as a GoMLX evaluation metric. It
// implements GoMLX's metrics.Interface and metrics.UpdateGo: the graph
// part only gathers labels, scores and weights of a batch into one tensor,
// and the sorting, tie handling, weights and averaging run on the host in
// a [metric.MeanAveragePrecision], with TF-Ranking's semantics.
//
// Give it to train.NewTrainer among the evaluation metrics; Trainer.Eval
// then returns its value. It is not meant as a training metric: the
// training step never calls UpdateGo, so a training progress bar would
// only show "n/a".
//
// Inputs, as the Trainer passes them to UpdateGraph:
//
//   - predictions[0]: scores, float, shape [B, L] or [B, L, 1].
//   - labels[0]: relevance labels, any numeric dtype, the same shape.
//     A label >= 1 is relevant; a negative label marks a padded slot, as
//     in TF-Ranking.
//   - labels[1:], optional, in any order, told apart by shape and dtype as
//     GoMLX's losses do: a Bool [B, L] item mask (false = padding), a Bool
//     [B] list mask (false = a padding list), float [B, L] per-item
//     weights, float [B] or [B, 1] per-list weights (the model.fit reading
//     of a 1-D sample weight; TF's standalone update_state would read 1-D
//     weights per position instead).
//
// A mask is applied as weight 0 on the masked slots: TF-Ranking masks an
// item whose weight is <= 0, so it leaves the ranking, and a list whose
// slots are all masked gets list weight 0 and does not count. Per-list
// weights reach every slot of their list, exactly as TF-Ranking broadcasts
// a [B, 1] weight.
//
// Each evaluation batch is one update, as one update_state call in Keras:
// TF-Ranking's derived weight for lists without relevant items depends on
// the batch.
//
// UpdateGo cannot return an error, so the first error of an evaluation is
// kept: later batches are skipped, ReadGo returns NaN and [MeanAveragePrecision.Err] returns
// the error until [MeanAveragePrecision.Reset]. [Evaluator] checks it after every
// evaluation.
type MeanAveragePrecision struct {
	m         *metric.MeanAveragePrecision
	shortName string

	mu      sync.Mutex
	err     error
	batches int
}

// NewMeanAveragePrecision returns a MAP metric configured by the options of
// [metric.NewMeanAveragePrecision] (top-n, name, dtype, ties, seed). Only
// dense inputs are supported: GoMLX tensors are dense, and padding is
// expressed with a mask or negative labels.
func NewMeanAveragePrecision(opts ...metric.Option) (*MeanAveragePrecision, error) {
	m, err := metric.NewMeanAveragePrecision(opts...)
	if err != nil {
		return nil, fmt.Errorf("gomlx: NewMeanAveragePrecision: %w", err)
	}
	if m.Config().Ragged {
		return nil, fmt.Errorf("gomlx: NewMeanAveragePrecision: option WithRagged(true) is not supported, GoMLX batches are dense; mark padding with a mask: %w", ErrInput)
	}
	short := "MAP"
	if n := m.Config().TopN; n != metric.NoTopN {
		short = fmt.Sprintf("MAP@%d", n)
	}
	return &MeanAveragePrecision{m: m, shortName: short}, nil
}

// WithShortName sets the short name shown in progress bars (default "MAP"
// or "MAP@n") and returns m.
func (m *MeanAveragePrecision) WithShortName(name string) *MeanAveragePrecision {
	m.shortName = name
	return m
}

// Metric returns the underlying metric, whose state holds the evaluation
// so far.
func (m *MeanAveragePrecision) Metric() *metric.MeanAveragePrecision { return m.m }

// Name returns the metric's name, as set with metric.WithName.
func (m *MeanAveragePrecision) Name() string { return m.m.Name() }

// ValidationKey returns "val_" + Name(): the key of the MAP in the metrics
// an [Evaluator] passes to adapters callbacks, as adapters.Validator names
// validation metrics.
func (m *MeanAveragePrecision) ValidationKey() string { return "val_" + m.Name() }

// ShortName returns the name for progress bars.
func (m *MeanAveragePrecision) ShortName() string { return m.shortName }

// ScopeName returns a context scope name derived from the name. MAP keeps
// no graph variables.
func (m *MeanAveragePrecision) ScopeName() string { return context.EscapeScopeName(m.Name()) }

// MetricType returns [MetricType].
func (m *MeanAveragePrecision) MetricType() string { return MetricType }

// UpdateGraph gathers the labels, scores and weights of a batch into one
// float tensor of shape [C, B, L] (C is 2, or 3 with weights): Float64 when
// any of them is Float64, Float32 otherwise. Bad shapes
// or dtypes panic with an error wrapping [ErrInput], GoMLX's convention
// while building a graph; Trainer.Eval returns it as an error.
func (m *MeanAveragePrecision) UpdateGraph(_ *context.Context, labels, predictions []*graph.Node) *graph.Node {
	packed, err := pack(labels, predictions)
	if err != nil {
		panic(fmt.Errorf("gomlx: metric %q: %w", m.Name(), err))
	}
	return packed
}

// UpdateGo feeds one batch, as packed by UpdateGraph, to the metric.
func (m *MeanAveragePrecision) UpdateGo(value *tensors.Tensor) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return
	}
	if err := m.update(value); err != nil {
		m.err = fmt.Errorf("gomlx: metric %q: evaluation batch %d: %w", m.Name(), m.batches, err)
	}
	m.batches++
}

// ReadGo returns the MAP over the batches since the last Reset, as a
// Float64 scalar, or NaN after an error (see [MeanAveragePrecision.Err]).
func (m *MeanAveragePrecision) ReadGo() *tensors.Tensor {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return tensors.FromScalar(math.NaN())
	}
	return tensors.FromScalar(m.m.Result())
}

// Result returns the MAP over the batches since the last Reset.
func (m *MeanAveragePrecision) Result() float64 { return m.m.Result() }

// Err returns the first error since the last Reset, or nil.
func (m *MeanAveragePrecision) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// Reset clears the metric and any kept error. Trainer.Eval calls it before
// each evaluation.
func (m *MeanAveragePrecision) Reset(_ *context.Context) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m.Reset()
	m.err = nil
	m.batches = 0
}

// PrettyPrint formats a value returned by ReadGo with 4 decimals. Values
// that are not scalars (the packed batch a training step would show) print
// as "n/a".
func (m *MeanAveragePrecision) PrettyPrint(value *tensors.Tensor) string {
	if value == nil || !value.Shape().IsScalar() || !value.DType().IsFloat() {
		return "n/a"
	}
	return fmt.Sprintf("%.4f", shapes.ConvertTo[float64](value.Value()))
}

var (
	_ metrics.Interface = (*MeanAveragePrecision)(nil)
	_ metrics.UpdateGo  = (*MeanAveragePrecision)(nil)
)

// update reads a packed [C, B, L] batch.
func (m *MeanAveragePrecision) update(value *tensors.Tensor) error {
	if value == nil {
		return fmt.Errorf("packed batch is nil: %w", ErrInput)
	}
	s := value.Shape()
	if s.Rank() != 3 || (s.Dimensions[0] != 2 && s.Dimensions[0] != 3) {
		return fmt.Errorf("packed batch has shape %s, want [2|3, B, L] as built by UpdateGraph: %w", s, ErrInput)
	}
	c, b, l := s.Dimensions[0], s.Dimensions[1], s.Dimensions[2]
	var err error
	switch value.DType() {
	case dtypes.Float32:
		cerr := tensors.ConstFlatData(value, func(flat []float32) { err = updatePacked(m.m, flat, c, b, l) })
		err = errors.Join(cerr, err)
	case dtypes.Float64:
		cerr := tensors.ConstFlatData(value, func(flat []float64) { err = updatePacked(m.m, flat, c, b, l) })
		err = errors.Join(cerr, err)
	default:
		return fmt.Errorf("packed batch has dtype %s, want Float32 or Float64: %w", value.DType(), ErrInput)
	}
	return err
}

// updatePacked views the channels of flat without copying and updates mp.
func updatePacked[T float32 | float64](mp *metric.MeanAveragePrecision, flat []T, c, b, l int) error {
	n := b * l
	labels, err := tensor.Dense(flat[:n], b, l)
	if err != nil {
		return fmt.Errorf("labels: %w", err)
	}
	preds, err := tensor.Dense(flat[n:2*n], b, l)
	if err != nil {
		return fmt.Errorf("predictions: %w", err)
	}
	var w tensor.Weights
	if c == 3 {
		wl, err := tensor.Dense(flat[2*n:3*n], b, l)
		if err != nil {
			return fmt.Errorf("weights: %w", err)
		}
		w = tensor.PerItem(wl)
	}
	return mp.Update(labels, preds, w)
}

// squeezeLast drops a trailing axis of size 1 from a rank-3 node.
func squeezeLast(x *graph.Node) *graph.Node {
	if x.Rank() == 3 && x.Shape().Dimensions[2] == 1 {
		return graph.Squeeze(x, 2)
	}
	return x
}

// pack builds the [C, B, L] tensor that UpdateGo reads.
func pack(labels, predictions []*graph.Node) (*graph.Node, error) {
	if len(predictions) == 0 || predictions[0] == nil {
		return nil, fmt.Errorf("no predictions: %w", ErrInput)
	}
	if len(labels) == 0 || labels[0] == nil {
		return nil, fmt.Errorf("no labels: %w", ErrInput)
	}
	pred := squeezeLast(predictions[0])
	if pred.Rank() != 2 {
		return nil, fmt.Errorf("predictions[0] has shape %s, want [B, L] or [B, L, 1]: %w", predictions[0].Shape(), ErrInput)
	}
	if !pred.DType().IsFloat() {
		return nil, fmt.Errorf("predictions[0] has dtype %s, want a float dtype: %w", pred.DType(), ErrInput)
	}
	dims := pred.Shape().Dimensions
	bsz, lsz := dims[0], dims[1]
	lab := squeezeLast(labels[0])
	if lab.Rank() != 2 || lab.Shape().Dimensions[0] != bsz || lab.Shape().Dimensions[1] != lsz {
		return nil, fmt.Errorf("labels[0] has shape %s but predictions[0] has shape %s; want both [B, L] (or [B, L, 1]): %w",
			labels[0].Shape(), predictions[0].Shape(), ErrInput)
	}
	if lab.DType() == dtypes.Bool || lab.DType().IsComplex() {
		return nil, fmt.Errorf("labels[0] has dtype %s, want a real number dtype: %w", lab.DType(), ErrInput)
	}

	var itemMask, listMask, itemW, listW *graph.Node
	for i, x := range labels[1:] {
		idx := i + 1
		xs := squeezeLast(x)
		d := xs.Shape().Dimensions
		isItem := xs.Rank() == 2 && d[0] == bsz && d[1] == lsz
		// [B] or [B, 1] (the squeeze above does not touch rank 2).
		isList := (xs.Rank() == 1 && d[0] == bsz) || (xs.Rank() == 2 && d[0] == bsz && d[1] == 1)
		var slot **graph.Node
		switch {
		case xs.DType() == dtypes.Bool && isItem && itemMask == nil:
			slot = &itemMask
		case xs.DType() == dtypes.Bool && isList && listMask == nil:
			slot = &listMask
		case xs.DType().IsFloat() && isItem && itemW == nil:
			slot = &itemW
		case xs.DType().IsFloat() && isList && listW == nil:
			slot = &listW
		default:
			return nil, fmt.Errorf("labels[%d] has shape %s, which is none of: Bool [%d, %d] item mask, Bool [%d] list mask, "+
				"float [%d, %d] per-item weights, float [%d] or [%d, 1] per-list weights (each at most once): %w",
				idx, x.Shape(), bsz, lsz, bsz, bsz, lsz, bsz, bsz, ErrInput)
		}
		if xs.Rank() == 2 && !isItem { // [B, 1] list value
			xs = graph.Reshape(xs, bsz)
		}
		*slot = xs
	}

	// Float64 when any input is, so that the metric, not the packing,
	// rounds to its own dtype.
	dt := dtypes.Float32
	for _, x := range []*graph.Node{pred, lab, itemW, listW} {
		if x != nil && x.DType() == dtypes.Float64 {
			dt = dtypes.Float64
		}
	}
	parts := []*graph.Node{graph.ConvertDType(lab, dt), graph.ConvertDType(pred, dt)}
	if itemMask != nil || listMask != nil || itemW != nil || listW != nil {
		g := pred.Graph()
		w := graph.Ones(g, shapes.Make(dt, bsz, lsz))
		if itemW != nil {
			w = graph.ConvertDType(itemW, dt)
		}
		if listW != nil {
			w = graph.Mul(w, graph.BroadcastToDims(graph.InsertAxes(graph.ConvertDType(listW, dt), -1), bsz, lsz))
		}
		if listMask != nil {
			lm := graph.BroadcastToDims(graph.InsertAxes(listMask, -1), bsz, lsz)
			w = graph.Where(lm, w, graph.ZerosLike(w))
		}
		if itemMask != nil {
			w = graph.Where(itemMask, w, graph.ZerosLike(w))
		}
		parts = append(parts, w)
	}
	return graph.StopGradient(graph.Stack(parts, 0)), nil
}
