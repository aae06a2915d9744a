package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	gt "gorgonia.org/tensor"
)

// model is the ranker's Gorgonia graph: a per-document scorer (linear or a
// one-hidden-layer MLP) and the listwise softmax loss.
type model struct {
	g                         *G.ExprGraph
	x, target, penalty, scale *G.Node
	scores, loss              *G.Node
	learnables                G.Nodes
	lossVal                   G.Value
	trainVM                   G.VM
	solver                    G.Solver
}

// newModel builds the graph for batches of lists × docs documents of
// features features. Weights are drawn from rng (Glorot uniform), so a seed
// fixes the whole run.
func newModel(kind string, hidden, lists, docs, features int, lr float64, rng *rand.Rand) (*model, error) {
	m := &model{g: G.NewGraph()}
	g := m.g
	n := lists * docs
	m.x = G.NewMatrix(g, gt.Float32, G.WithShape(n, features), G.WithName("x"))
	m.target = G.NewMatrix(g, gt.Float32, G.WithShape(lists, docs), G.WithName("target"))
	m.penalty = G.NewMatrix(g, gt.Float32, G.WithShape(lists, docs), G.WithName("penalty"))
	m.scale = G.NewScalar(g, gt.Float32, G.WithName("scale"))

	var flat *G.Node // [n, 1] scores
	var err error
	switch kind {
	case "linear":
		w := G.NewMatrix(g, gt.Float32, G.WithShape(features, 1), G.WithName("w"), G.WithValue(glorot(rng, features, 1)))
		m.learnables = G.Nodes{w}
		if flat, err = G.Mul(m.x, w); err != nil {
			return nil, err
		}
	case "mlp":
		if hidden < 1 {
			return nil, fmt.Errorf("-hidden %d: want >= 1", hidden)
		}
		w1 := G.NewMatrix(g, gt.Float32, G.WithShape(features, hidden), G.WithName("w1"), G.WithValue(glorot(rng, features, hidden)))
		b1 := G.NewVector(g, gt.Float32, G.WithShape(hidden), G.WithName("b1"), G.WithValue(gt.New(gt.WithShape(hidden), gt.Of(gt.Float32))))
		w2 := G.NewMatrix(g, gt.Float32, G.WithShape(hidden, 1), G.WithName("w2"), G.WithValue(glorot(rng, hidden, 1)))
		m.learnables = G.Nodes{w1, b1, w2}
		h, err := G.Mul(m.x, w1)
		if err != nil {
			return nil, err
		}
		if h, err = G.BroadcastAdd(h, b1, nil, []byte{0}); err != nil {
			return nil, err
		}
		if h, err = G.Rectify(h); err != nil {
			return nil, err
		}
		if flat, err = G.Mul(h, w2); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("-model %q: want linear or mlp", kind)
	}
	if m.scores, err = G.Reshape(flat, gt.Shape{lists, docs}); err != nil {
		return nil, err
	}

	// Listwise softmax cross-entropy: -Σ target · log softmax(scores +
	// penalty) over each list, summed over the batch and multiplied by scale
	// (1 / the number of lists that have a positive label).
	masked, err := G.Add(m.scores, m.penalty)
	if err != nil {
		return nil, err
	}
	logp, err := logSoftmaxRows(masked)
	if err != nil {
		return nil, err
	}
	ce, err := G.HadamardProd(m.target, logp)
	if err != nil {
		return nil, err
	}
	sum, err := G.Sum(ce)
	if err != nil {
		return nil, err
	}
	if sum, err = G.Neg(sum); err != nil {
		return nil, err
	}
	if m.loss, err = G.Mul(sum, m.scale); err != nil {
		return nil, err
	}
	G.Read(m.loss, &m.lossVal)
	if _, err := G.Grad(m.loss, m.learnables...); err != nil {
		return nil, fmt.Errorf("gradients: %w", err)
	}
	m.trainVM = G.NewTapeMachine(g, G.BindDualValues(m.learnables...))
	m.solver = G.NewAdamSolver(G.WithLearnRate(lr))
	return m, nil
}

// logSoftmaxRows returns the log-softmax of each row of s, computed stably
// as (s - max) - log Σ exp(s - max). Gorgonia v0.9.18's own LogSoftMax takes
// the shift from the tensor's first element instead of each row's maximum,
// which gives NaN on rows that are all padding, so it is not used.
func logSoftmaxRows(s *G.Node) (*G.Node, error) {
	mx, err := G.Max(s, 1)
	if err != nil {
		return nil, err
	}
	shifted, err := G.BroadcastSub(s, mx, nil, []byte{1})
	if err != nil {
		return nil, err
	}
	e, err := G.Exp(shifted)
	if err != nil {
		return nil, err
	}
	sum, err := G.Sum(e, 1)
	if err != nil {
		return nil, err
	}
	lse, err := G.Log(sum)
	if err != nil {
		return nil, err
	}
	return G.BroadcastSub(shifted, lse, nil, []byte{1})
}

// glorot returns a [in, out] float32 tensor drawn uniformly from
// ±sqrt(6 / (in + out)).
func glorot(rng *rand.Rand, in, out int) *gt.Dense {
	a := math.Sqrt(6 / float64(in+out))
	v := make([]float32, in*out)
	for i := range v {
		v[i] = float32((2*rng.Float64() - 1) * a)
	}
	return gt.New(gt.WithShape(in, out), gt.WithBacking(v))
}

// step runs one training step on the batch in b and returns its loss.
func (m *model) step(b *batcher, withGain int) (float64, error) {
	defer m.trainVM.Reset()
	if withGain == 0 {
		return 0, nil // nothing to learn from: every list has only zero labels
	}
	for _, bind := range []struct {
		n *G.Node
		v any
	}{{m.x, b.xT}, {m.target, b.targetT}, {m.penalty, b.penaltyT}, {m.scale, float32(1 / float64(withGain))}} {
		if err := G.Let(bind.n, bind.v); err != nil {
			return 0, fmt.Errorf("binding %s: %w", bind.n.Name(), err)
		}
	}
	if err := m.trainVM.RunAll(); err != nil {
		return 0, fmt.Errorf("forward/backward pass: %w", err)
	}
	if err := m.solver.Step(G.NodesToValueGrads(m.learnables)); err != nil {
		return 0, fmt.Errorf("solver step: %w", err)
	}
	loss, ok := m.lossVal.Data().(float32)
	if !ok {
		return 0, fmt.Errorf("loss has type %T, want float32", m.lossVal.Data())
	}
	return float64(loss), nil
}

// snapshot copies the weights.
func (m *model) snapshot() [][]float32 {
	out := make([][]float32, len(m.learnables))
	for i, n := range m.learnables {
		out[i] = append([]float32(nil), n.Value().Data().([]float32)...)
	}
	return out
}

// restore copies weights from a snapshot back into the graph.
func (m *model) restore(s [][]float32) {
	for i, n := range m.learnables {
		copy(n.Value().Data().([]float32), s[i])
	}
}

// close releases the VM.
func (m *model) close() { _ = m.trainVM.Close() }
