package adapters

import (
	"fmt"
	"slices"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/significance"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// PairedTest is a two-sided paired test of per-query differences (new
// evaluation - best evaluation), such as [significance.PairedT] or
// [significance.Wilcoxon].
type PairedTest func(d []float64) (significance.Result, error)

// WithSignificance makes [EarlyStopping] and [BestCheckpoint] count an
// evaluation as a new best only when, besides beating the best value (by
// the min delta, in the direction of the mode), a paired test of its
// per-query values against those of the best evaluation gives p <= alpha.
// An evaluation that is better in mean but not significantly so is not an
// improvement: it counts towards the patience and is counted by
// NotSignificant.
//
// perQuery returns the per-query validation values behind the event's
// monitored value, for the same queries in the same order at every
// evaluation ([PerQuery.Values] records them). The callback keeps a copy
// of the best evaluation's values.
func WithSignificance(perQuery func(e Event) ([]float64, error), test PairedTest, alpha float64) Option {
	return func(s *settings) error {
		switch {
		case perQuery == nil:
			return fmt.Errorf("WithSignificance: the per-query function is nil")
		case test == nil:
			return fmt.Errorf("WithSignificance: the test is nil")
		case !(alpha > 0 && alpha < 1):
			return fmt.Errorf("WithSignificance: alpha %v: want 0 < alpha < 1", alpha)
		}
		s.sig = &sigTracker{perQuery: perQuery, test: test, alpha: alpha}
		return nil
	}
}

// sigTracker holds the state of WithSignificance.
type sigTracker struct {
	perQuery       func(Event) ([]float64, error)
	test           PairedTest
	alpha          float64
	best           []float64
	notSignificant int
}

// accept reports whether the evaluation e, better in mean than the best
// one, is significantly better; first is true for the first evaluation,
// which always is the best. On acceptance it keeps e's values.
func (g *sigTracker) accept(kind string, e Event, first bool) (bool, error) {
	vals, err := g.perQuery(e)
	if err != nil {
		return false, fmt.Errorf("adapters: %s: per-query values (epoch %d, step %d): %w", kind, e.Epoch, e.Step, err)
	}
	if !first {
		d, err := significance.Differences(g.best, vals)
		if err != nil {
			return false, fmt.Errorf("adapters: %s: per-query values (epoch %d, step %d) against the best (%d values): %w", kind, e.Epoch, e.Step, len(g.best), err)
		}
		r, err := g.test(d)
		if err != nil {
			return false, fmt.Errorf("adapters: %s: paired test (epoch %d, step %d): %w", kind, e.Epoch, e.Step, err)
		}
		if !(r.P <= g.alpha) {
			g.notSignificant++
			return false, nil
		}
	}
	g.best = slices.Clone(vals)
	return true, nil
}

// PerQuery is a [metric.Metric] that records the value of every list it is
// updated with, in order, for [WithSignificance]. Give it to a validator
// in place of the metric it wraps; Reset (which the validator calls before
// every evaluation) and SetState forget the values. Its other methods are
// the wrapped metric's. It is not safe for concurrent use.
type PerQuery struct {
	metric.Metric
	buf    metric.PerList
	values []float64
}

// NewPerQuery wraps m.
func NewPerQuery(m metric.Metric) (*PerQuery, error) {
	if m == nil {
		return nil, fmt.Errorf("adapters: NewPerQuery: the metric is nil")
	}
	return &PerQuery{Metric: m}, nil
}

// Update updates the wrapped metric and records the value of every list.
func (p *PerQuery) Update(labels, predictions tensor.Lists, weights tensor.Weights) error {
	return p.UpdatePerList(nil, labels, predictions, weights)
}

// UpdatePerList is Update that also writes the per-list values and list
// weights of the batch into dst when it is not nil.
func (p *PerQuery) UpdatePerList(dst *metric.PerList, labels, predictions tensor.Lists, weights tensor.Weights) error {
	if err := p.Metric.UpdatePerList(&p.buf, labels, predictions, weights); err != nil {
		return err
	}
	p.values = append(p.values, p.buf.Values...)
	if dst != nil {
		dst.Values = append(dst.Values[:0], p.buf.Values...)
		dst.Weights = append(dst.Weights[:0], p.buf.Weights...)
	}
	return nil
}

// Reset resets the wrapped metric and forgets the values.
func (p *PerQuery) Reset() {
	p.Metric.Reset()
	p.values = p.values[:0]
}

// SetState replaces the wrapped metric's accumulator and forgets the
// values.
func (p *PerQuery) SetState(s metric.State) error {
	if err := p.Metric.SetState(s); err != nil {
		return err
	}
	p.values = p.values[:0]
	return nil
}

// Values returns the values of the lists since the last Reset, in update
// order (a copy).
func (p *PerQuery) Values() []float64 { return slices.Clone(p.values) }

// notSignificant returns the count of WithSignificance, 0 without it.
func (t *tracker) notSignificant() int {
	if t.sig == nil {
		return 0
	}
	return t.sig.notSignificant
}
