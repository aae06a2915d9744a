package gorgonia

import (
	"context"
	"errors"
	"fmt"
	"iter"

	G "gorgonia.org/gorgonia"
	gt "gorgonia.org/tensor"

	"github.com/rankmetrics/rankmetrics/adapters"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// Feed holds what one batch binds to the graph.
type Feed struct {
	// Input is bound to the input node by [BindNodes].
	Input G.Value
	// Label is bound to the label node by [BindNodes] when there is one. When
	// the batch's Labels are empty, the metrics read their labels from it
	// (a *tensor.Dense of shape [B, L], viewed without copying).
	Label G.Value
	// Extra is free for bind functions of your own.
	Extra any
}

// Batch is one validation batch for an [Evaluator].
type Batch = adapters.Batch[Feed]

// BindFunc binds one batch to the graph, usually with G.Let.
type BindFunc func(b Batch) error

// BindNodes returns a BindFunc that binds Feed.Input to input and, when label
// is not nil, Feed.Label to label.
func BindNodes(input, label *G.Node) BindFunc {
	return func(b Batch) error {
		if b.Inputs.Input == nil {
			return fmt.Errorf("batch has no Input for input node %q", input.Name())
		}
		if err := G.Let(input, b.Inputs.Input); err != nil {
			return fmt.Errorf("binding input node %q: %w", input.Name(), err)
		}
		if label == nil {
			return nil
		}
		if b.Inputs.Label == nil {
			return fmt.Errorf("batch has no Label for label node %q", label.Name())
		}
		if err := G.Let(label, b.Inputs.Label); err != nil {
			return fmt.Errorf("binding label node %q: %w", label.Name(), err)
		}
		return nil
	}
}

// Evaluator runs a Gorgonia VM over validation batches and feeds the score
// node's values to metrics. It is not safe for concurrent use (a VM is not).
type Evaluator struct {
	vm    G.VM
	score *G.Node
	bind  BindFunc
	v     *adapters.Validator[Feed]
}

// NewEvaluator returns an Evaluator that binds each batch with bind, runs vm
// and reads score. The options are those of [adapters.NewValidator] (the
// report prefix, "val_" by default).
//
// vm must leave the score node's value intact: use [NewScoringVM], or a
// TapeMachine made with G.TraceExec() (see the package documentation).
func NewEvaluator(vm G.VM, score *G.Node, bind BindFunc, metrics []metric.Metric, opts ...adapters.ValidatorOption) (*Evaluator, error) {
	switch {
	case vm == nil:
		return nil, errors.New("gorgonia: NewEvaluator: vm is nil")
	case score == nil:
		return nil, errors.New("gorgonia: NewEvaluator: score node is nil")
	case bind == nil:
		return nil, errors.New("gorgonia: NewEvaluator: bind function is nil")
	}
	if d := score.Dtype(); d != gt.Float32 && d != gt.Float64 {
		return nil, fmt.Errorf("gorgonia: NewEvaluator: score node %q has dtype %v, want float32 or float64", score.Name(), d)
	}
	if s := score.Shape(); len(s) != 2 {
		return nil, fmt.Errorf("gorgonia: NewEvaluator: score node %q has shape %v, want [B, L]", score.Name(), s)
	}
	e := &Evaluator{vm: vm, score: score, bind: bind}
	v, err := adapters.NewValidator(e.run, metrics, opts...)
	if err != nil {
		return nil, fmt.Errorf("gorgonia: %w", err)
	}
	e.v = v
	return e, nil
}

// NewScoringVM returns a TapeMachine compiled for exactly the part of
// score's graph that score depends on (G.ExactSubgraphRoots), so running it
// computes the scores and nothing else: no loss, no gradients, and no
// statements such as a G.Set that updates weights. The score node's value
// stays intact for the Evaluator to read.
func NewScoringVM(score *G.Node, opts ...G.VMOpt) G.VM {
	return G.NewTapeMachine(score.Graph().ExactSubgraphRoots(score), opts...)
}

// Keys returns the keys of the metrics map that Evaluate returns.
func (e *Evaluator) Keys() []string { return e.v.Keys() }

// Evaluate resets the metrics, runs the graph on every batch, and returns the
// metrics keyed by prefix + name. A batch whose Labels are empty takes its
// labels from Feed.Label. Errors name the batch; a score value whose shape
// differs from the labels' names both shapes.
func (e *Evaluator) Evaluate(ctx context.Context, batches iter.Seq[Batch]) (map[string]float64, error) {
	var labelErr error
	withLabels := func(yield func(Batch) bool) {
		n := 0
		for b := range batches {
			if b.Labels.Len() == 0 && b.Inputs.Label != nil {
				l, err := valueLists(b.Inputs.Label)
				if err != nil {
					labelErr = fmt.Errorf("gorgonia: validation batch %d: labels from Feed.Label: %w", n, err)
					return
				}
				b.Labels = l
			}
			if !yield(b) {
				return
			}
			n++
		}
	}
	m, err := e.v.Evaluate(ctx, withLabels)
	if labelErr != nil {
		return nil, labelErr
	}
	if err != nil {
		return nil, fmt.Errorf("gorgonia: %w", err)
	}
	return m, nil
}

// run scores one batch: bind, run, read the score node.
func (e *Evaluator) run(_ context.Context, b Batch) (tensor.Lists, error) {
	e.vm.Reset()
	if err := e.bind(b); err != nil {
		return tensor.Lists{}, err
	}
	if err := runVM(e.vm); err != nil {
		return tensor.Lists{}, fmt.Errorf("running the graph: %w", err)
	}
	val := e.score.Value()
	if val == nil {
		return tensor.Lists{}, fmt.Errorf("score node %q has no value after running the VM; is it part of the VM's graph?", e.score.Name())
	}
	shape := val.Shape()
	if len(shape) != 2 || shape[0] != b.Labels.Len() || (!b.Labels.IsRagged() && shape[1] != b.Labels.Width()) {
		return tensor.Lists{}, fmt.Errorf("score node %q value has shape %v but labels have shape %s", e.score.Name(), shape, b.Labels.Shape())
	}
	return valueLists(val)
}

// valueLists views a Gorgonia value of shape [B, L] as dense lists.
func valueLists(v G.Value) (tensor.Lists, error) {
	d, ok := v.(*gt.Dense)
	if !ok {
		return tensor.Lists{}, fmt.Errorf("value of type %T, want a *tensor.Dense of shape [B, L]", v)
	}
	if len(d.Shape()) != 2 {
		return tensor.Lists{}, fmt.Errorf("value has shape %v, want [B, L]", d.Shape())
	}
	l, err := tensor.FromGorgonia(d)
	if err != nil {
		return tensor.Lists{}, err
	}
	return l, nil
}

// runVM runs the VM and turns a panic raised on the calling goroutine (as
// the LispMachine runs) into an error. The TapeMachine runs its program on a
// goroutine of its own, where a panic cannot be caught; G.Let's shape and
// dtype checks keep bad batches from getting that far.
func runVM(vm G.VM) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gorgonia panicked: %v", r)
		}
	}()
	return vm.RunAll()
}
