package adapters

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// Batch is one validation batch: the model inputs, and the labels and
// weights the metric compares the model's scores with.
//
// A padded batch, where lists of different lengths share one dense [B, L]
// layout, says which slots are real through Lengths or Mask (not both), and
// a batch padded with whole dummy lists (for a framework whose graph has a
// fixed batch size) says how many lists are real through NumLists. The
// validator then removes the padding and passes ragged lists to the
// metrics, so padded slots take no rank position and no weight and dummy
// lists do not count; the metrics must be ragged ones
// (metric.WithRagged(true)).
type Batch[X any] struct {
	// Inputs is whatever the scoring function needs (features, a graph
	// binding, ...). The validator does not look at it.
	Inputs X
	// Labels are the graded labels, dense [B, L] or ragged.
	Labels tensor.Lists
	// Weights are the sample weights (the zero value means none).
	Weights tensor.Weights
	// Lengths, when not nil, gives the number of real items of each row of a
	// dense batch; the rest of the row is padding.
	Lengths []int
	// Mask, when not empty, is a dense [B, L] batch shaped like Labels whose
	// nonzero entries mark the real items.
	Mask tensor.Lists
	// NumLists, when positive, is the number of real lists: rows NumLists
	// and beyond are dummy lists that the metrics do not see.
	NumLists int
}

// ScoreFunc scores the items of one batch: it returns predictions shaped
// like b.Labels (dense [B, L], padding included, or ragged). The returned
// lists are read before the next call, so they may alias buffers that the
// function reuses.
type ScoreFunc[X any] func(ctx context.Context, b Batch[X]) (tensor.Lists, error)

// ValidatorOption configures a [Validator].
type ValidatorOption func(*validatorConfig) error

type validatorConfig struct {
	prefix string
}

// WithPrefix sets the prefix of the keys of the returned metrics map
// (default "val_", as Keras names validation metrics).
func WithPrefix(p string) ValidatorOption {
	return func(c *validatorConfig) error { c.prefix = p; return nil }
}

// Validator runs a scoring function over validation batches and feeds the
// scores to metrics. It is not safe for concurrent use; a loop that
// evaluates in parallel should use one Validator per goroutine and merge the
// metrics.
type Validator[X any] struct {
	score   ScoreFunc[X]
	metrics []metric.Metric
	keys    []string
	pad     unpadder
}

// NewValidator returns a Validator that scores batches with score and feeds
// every metric. Metric names must be distinct.
func NewValidator[X any](score ScoreFunc[X], metrics []metric.Metric, opts ...ValidatorOption) (*Validator[X], error) {
	cfg := validatorConfig{prefix: "val_"}
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("adapters: NewValidator: option %d is nil", i)
		}
		if err := o(&cfg); err != nil {
			return nil, fmt.Errorf("adapters: NewValidator: %w", err)
		}
	}
	if score == nil {
		return nil, errors.New("adapters: NewValidator: score function is nil")
	}
	if len(metrics) == 0 {
		return nil, errors.New("adapters: NewValidator: no metrics")
	}
	v := &Validator[X]{score: score, metrics: metrics}
	seen := map[string]int{}
	for i, m := range metrics {
		if m == nil {
			return nil, fmt.Errorf("adapters: NewValidator: metric %d is nil", i)
		}
		if j, ok := seen[m.Name()]; ok {
			return nil, fmt.Errorf("adapters: NewValidator: metrics %d and %d are both named %q", j, i, m.Name())
		}
		seen[m.Name()] = i
		v.keys = append(v.keys, cfg.prefix+m.Name())
	}
	return v, nil
}

// Keys returns the keys of the metrics map that Evaluate returns, in metric
// order.
func (v *Validator[X]) Keys() []string { return append([]string(nil), v.keys...) }

// Evaluate resets the metrics, scores every batch, updates the metrics and
// returns their results keyed by prefix + metric name. Pass a slice of
// batches as slices.Values(batches). It checks ctx between batches. An error
// names the batch (0-based) and leaves the metrics partly updated; no
// batches at all is an error, since a metric over nothing would read 0.
func (v *Validator[X]) Evaluate(ctx context.Context, batches iter.Seq[Batch[X]]) (map[string]float64, error) {
	for _, m := range v.metrics {
		m.Reset()
	}
	n := 0
	var err error
	batches(func(b Batch[X]) bool {
		if err = ctx.Err(); err != nil {
			err = fmt.Errorf("adapters: validation stopped before batch %d: %w", n, err)
			return false
		}
		if err = v.update(ctx, b); err != nil {
			err = fmt.Errorf("adapters: validation batch %d: %w", n, err)
			return false
		}
		n++
		return true
	})
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errors.New("adapters: validation: no batches")
	}
	out := make(map[string]float64, len(v.metrics))
	for i, m := range v.metrics {
		out[v.keys[i]] = m.Result()
	}
	return out, nil
}

func (v *Validator[X]) update(ctx context.Context, b Batch[X]) error {
	preds, err := v.score(ctx, b)
	if err != nil {
		return fmt.Errorf("scoring: %w", err)
	}
	if err := b.Labels.SameShape(preds, "labels", "predictions"); err != nil {
		return err
	}
	labels, weights := b.Labels, b.Weights
	padded := b.Lengths != nil || b.Mask.Len() > 0 || b.NumLists > 0
	if padded {
		if labels, preds, weights, err = v.pad.unpad(b.Labels, preds, b.Weights, b.Lengths, b.Mask, b.NumLists); err != nil {
			return err
		}
	}
	for _, m := range v.metrics {
		if c, ok := m.(interface{ Config() metric.Config }); ok && padded && !c.Config().Ragged {
			return fmt.Errorf("the batch is padded (Lengths, Mask or NumLists), so the validator passes ragged lists, but metric %q is dense; make it with metric.WithRagged(true)", m.Name())
		}
		if err := m.Update(labels, preds, weights); err != nil {
			return fmt.Errorf("metric %q: %w", m.Name(), err)
		}
	}
	return nil
}
