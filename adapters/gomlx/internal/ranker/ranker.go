// Package ranker holds a small GoMLX scoring model and a listwise softmax
// loss, shared by the tests and the gomlx-ranker example of this module.
package ranker

import (
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/layers"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"
)

// Model returns a train.ModelFn-compatible function that scores every item
// of a [B, L, F] feature batch with a per-item MLP (hidden ReLU layers of
// the given widths, none for a linear scorer) and returns the scores
// [B, L].
func Model(hidden ...int) func(ctx *context.Context, spec any, inputs []*graph.Node) []*graph.Node {
	return func(ctx *context.Context, _ any, inputs []*graph.Node) []*graph.Node {
		x := inputs[0]
		for i, h := range hidden {
			x = layers.Dense(ctx.In("hidden").In(string(rune('a'+i))), x, true, h)
			x = activations.Relu(x)
		}
		s := layers.Dense(ctx.In("output"), x, true, 1)
		return []*graph.Node{graph.Squeeze(s, -1)}
	}
}

// ListwiseSoftmaxLoss is the listwise softmax cross-entropy of TF-Ranking's
// SoftmaxLoss: for each list, −Σ_i (y_i / Σ_j y_j)·log softmax(s)_i over the
// valid items, averaged over the lists that have a positive label.
// labels[0] is the graded labels [B, L] and labels[1] the Bool mask [B, L];
// every list needs at least one valid item.
func ListwiseSoftmaxLoss(labels, predictions []*graph.Node) *graph.Node {
	s := predictions[0]
	dt := s.DType()
	mask := labels[1]
	y := graph.ConvertDType(labels[0], dt)
	y = graph.Where(mask, y, graph.ZerosLike(y))
	logp := graph.Where(mask, graph.MaskedLogSoftmax(s, mask, -1), graph.ZerosLike(s))
	sumY := graph.ReduceSum(y, -1)
	hasRel := graph.ConvertDType(graph.GreaterThan(sumY, graph.ScalarZero(s.Graph(), dt)), dt)
	p := graph.Div(y, graph.InsertAxes(graph.MaxScalar(sumY, 1e-6), -1))
	perList := graph.Neg(graph.ReduceSum(graph.Mul(p, logp), -1))
	return graph.Div(graph.ReduceAllSum(graph.Mul(perList, hasRel)), graph.MaxScalar(graph.ReduceAllSum(hasRel), 1))
}
