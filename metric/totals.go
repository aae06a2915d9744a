package metric

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/metric/internal/exact"
)

// ExactTotals is the accumulator of Exact accumulation on its own: the sum
// of value times list weight and the sum of list weights, held without
// rounding. Adding and merging are integer additions, so the result does
// not depend on the order of the lists or on how they were split between
// ExactTotals merged later; it is rounded once, when read. Its wire form is
// a State (see State and SetState), so a partial result travels as any
// metric's state does. The zero value is empty and ready to use.
type ExactTotals struct {
	total, count exact.Sum
}

// Add adds one list's value and list weight, computed in dtype d, as a
// metric's Exact accumulation adds them: the product value·weight is
// rounded to d, then both terms are added exactly.
func (t *ExactTotals) Add(d DType, value, weight float64) {
	v := value * weight
	if d == Float32 {
		v = float64(float32(value) * float32(weight))
	}
	t.addProduct(v, weight)
}

// addProduct adds a product already rounded to the dtype and its weight.
func (t *ExactTotals) addProduct(vw, w float64) {
	t.total.Add(vw)
	t.count.Add(w)
}

// Merge adds o to t exactly.
func (t *ExactTotals) Merge(o *ExactTotals) {
	t.total.Merge(&o.total)
	t.count.Merge(&o.count)
}

// Reset empties t.
func (t *ExactTotals) Reset() { *t = ExactTotals{} }

// Result returns total / count rounded once to float64, or 0 when count is
// 0, as Result of a metric under Exact accumulation.
func (t *ExactTotals) Result() float64 { return t.total.Ratio(&t.count) }

// ResultIn returns total / count rounded once to dtype d (for Float32, not
// through a float64, which would round twice), or 0 when count is 0: the
// correctly rounded mean of values computed in d.
func (t *ExactTotals) ResultIn(d DType) float64 {
	if d == Float32 {
		return float64(t.total.Ratio32(&t.count))
	}
	return t.total.Ratio(&t.count)
}

// State returns t as the state of a metric of configuration cfg under Exact
// accumulation: the exact sums, and Total and Count rounded once. It has no
// RNG; SetState then keeps the metric's generator.
func (t *ExactTotals) State(cfg Config) State {
	tt, _ := t.total.MarshalText() // a Sum always marshals
	c, _ := t.count.MarshalText()
	return State{Config: cfg, Total: t.total.Float64(), Count: t.count.Float64(), ExactTotal: string(tt), ExactCount: string(c)}
}

// SetState replaces t with the exact sums of s; an error names the sum that
// does not decode. Only ExactTotal and ExactCount are read.
func (t *ExactTotals) SetState(s State) error {
	var n ExactTotals
	if err := n.total.UnmarshalText([]byte(s.ExactTotal)); err != nil {
		return fmt.Errorf("metric: state exact_total: %w", err)
	}
	if err := n.count.UnmarshalText([]byte(s.ExactCount)); err != nil {
		return fmt.Errorf("metric: state exact_count: %w", err)
	}
	*t = n
	return nil
}
