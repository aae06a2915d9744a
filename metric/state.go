package metric

import "fmt"

// State is the accumulator of a metric: what must travel to merge partial
// results computed elsewhere. Its JSON form has the keys config, total,
// count, exact_total and exact_count (under Exact accumulation) and rng.
type State struct {
	// Config is the configuration of the metric the state comes from.
	Config Config `json:"config"`
	// Total is the sum of AP times list weight; a float32 in float32 mode
	// with Sequential accumulation, the exact total rounded once under Exact.
	Total float64 `json:"total"`
	// Count is the sum of list weights, like Total.
	Count float64 `json:"count"`
	// ExactTotal and ExactCount are the exact sums under Exact
	// accumulation: hexadecimal integers scaled by 2^1074.
	ExactTotal string `json:"exact_total,omitempty"`
	ExactCount string `json:"exact_count,omitempty"`
	// RNG is the state of the tie-break generator.
	RNG []byte `json:"rng"`
}

// State returns a copy of the metric's accumulator.
func (m *MeanAveragePrecision) State() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	rng, _ := m.pcg.MarshalBinary() // a PCG always marshals
	s := m.acc.state(m.cfg.DType, m.cfg.accumulation() == Exact, rng)
	s.Config = m.cfg
	return s
}

// check returns an error when s cannot be the state of a metric like m.
func (m *MeanAveragePrecision) checkState(s *State) error {
	if err := m.cfg.sameKind(s.Config); err != nil {
		return err
	}
	// AP is in [0, 1] and list weights are means of positive, finite
	// weights, or 0.
	return checkTotals(s.ExactTotal, s.ExactCount, s.Total, s.Count, m.cfg.accumulation() == Exact, m.cfg.DType, true)
}

// checkTotals returns an error naming the total or count of a state that
// cannot come from the metric: a total that is not a float32 value in a
// float32 metric with Sequential accumulation, and, when bounded says the
// metric's values and list weights are finite and never negative (MAP), a
// NaN, an infinity or a negative value. Under Exact accumulation the exact
// sums are checked and the rounded total and count ignored, as SetState
// ignores them.
func checkTotals(exactTotal, exactCount string, total, count float64, exactly bool, d DType, bounded bool) error {
	if exactly {
		var ex ExactTotals
		if err := ex.SetState(State{ExactTotal: exactTotal, ExactCount: exactCount}); err != nil {
			return err
		}
		total, count = ex.total.Float64(), ex.count.Float64()
	}
	for _, v := range []struct {
		key string
		x   float64
	}{{"total", total}, {"count", count}} {
		if exactly {
			v.key = "exact_" + v.key
		}
		switch {
		case bounded && notFinite(v.x):
			return fmt.Errorf("metric: state %s is %v; a state's total and count must be finite: %w", v.key, v.x, ErrInput)
		case bounded && v.x < 0:
			return fmt.Errorf("metric: state %s is %v; this metric's totals are never negative: %w", v.key, v.x, ErrInput)
		case !exactly && d == Float32 && float64(float32(v.x)) != v.x:
			return fmt.Errorf("metric: state %s %v is not a float32 value, as a float32 metric's totals are: %w", v.key, v.x, ErrInput)
		}
	}
	return nil
}

// addState adds the totals of a checked state. The caller holds m.mu.
func (m *MeanAveragePrecision) addState(s *State) {
	m.acc.add(m.cfg.accumulation() == Exact, s.ExactTotal, s.ExactCount, s.Total, s.Count)
}

// SetState replaces the metric's accumulator with s, which must come from a
// metric of the same kind (see Merge). A float32 metric with Sequential
// accumulation takes only totals that are float32 values, and a NaN, an
// infinite or a negative total or count is an error wrapping ErrInput that
// names it.
func (m *MeanAveragePrecision) SetState(s State) error {
	if err := m.checkState(&s); err != nil {
		return fmt.Errorf("metric: SetState: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(s.RNG) > 0 {
		if err := m.pcg.UnmarshalBinary(s.RNG); err != nil {
			return fmt.Errorf("metric: SetState: rng: %w", err)
		}
	}
	m.acc.reset()
	m.addState(&s)
	return nil
}
