package metric

import (
	"fmt"
	"math"
)

// State is the accumulator of a metric: what must travel to merge partial
// results computed elsewhere. Its JSON form has the keys config, total,
// count, exact_total and exact_count (under Exact accumulation) and rng.
type State struct {
	// Config is the configuration of the metric the state comes from.
	Config Config `json:"config"`
	// Total is the sum of value times list weight; a float32 in float32
	// mode with Sequential accumulation, the exact total rounded once under
	// Exact.
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

// state returns metric j's accumulator. The caller holds f.mu.
func (f *family) state(j int) State {
	rng, _ := f.pcg.MarshalBinary() // a PCG always marshals
	s := f.acc[j].state(f.sets[j].DType, f.sets[j].accumulation() == Exact, rng)
	s.Config = f.sets[j]
	return s
}

// State returns a copy of the metric's accumulator.
func (f *family) State() State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state(0)
}

// checkState returns an error when s cannot be the state of metric j.
func (f *family) checkState(j int, s *State) error {
	own := &f.sets[j]
	if err := own.sameKind(&s.Config); err != nil {
		return err
	}
	// TF-Ranking's MAP is in [0, 1] and masks items of weight <= 0, so its
	// totals are finite and never negative. The other metrics reach other
	// totals as TF-Ranking does: MRR and hits of a batch of width 0 are the
	// max over no ranks, -Inf; ARP's 0/0 is NaN; negative per-list weights
	// make negative counts.
	bounded := own.Kind == KindMAP && own.Convention == TFRanking
	return checkTotals(s.ExactTotal, s.ExactCount, s.Total, s.Count, own.accumulation() == Exact, own.DType, bounded)
}

// addState adds a checked state to metric j's totals. The caller holds
// f.mu.
func (f *family) addState(j int, s *State) {
	f.acc[j].add(f.sets[j].accumulation() == Exact, s.ExactTotal, s.ExactCount, s.Total, s.Count)
}

// SetState replaces the metric's accumulator with s, which must come from a
// metric of the same kind (see Merge). A float32 metric with Sequential
// accumulation takes only totals that are float32 values. MAP of the
// TFRanking convention refuses a NaN, an infinite or a negative total or
// count, naming it; the other metrics reach such totals as TF-Ranking does
// (MRR of a batch of width 0 is -Inf, for one).
func (f *family) SetState(s State) error {
	if err := f.checkState(0, &s); err != nil {
		return fmt.Errorf("metric: SetState: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(s.RNG) > 0 {
		if err := f.pcg.UnmarshalBinary(s.RNG); err != nil {
			return fmt.Errorf("metric: SetState: rng: %w", err)
		}
	}
	f.acc[0].reset()
	f.addState(0, &s)
	return nil
}

// merge adds the totals of others to f, metric by metric and in order, as
// Keras merge_state does. Each other's state is read before f changes, so
// f may be among them: it then adds its own totals once more. On an error
// f is unchanged.
func (f *family) merge(others []*family) error {
	states := make([][]State, len(others))
	for i, o := range others {
		if o == nil {
			return fmt.Errorf("metric: Merge: metric %d is nil: %w", i, ErrConfig)
		}
		if len(o.sets) != len(f.sets) {
			return fmt.Errorf("metric: Merge: metric %d has %d metrics, the receiver %d: %w", i, len(o.sets), len(f.sets), ErrConfig)
		}
		o.mu.Lock()
		for j := range o.sets {
			states[i] = append(states[i], o.state(j))
		}
		o.mu.Unlock()
		for j := range states[i] {
			if err := f.checkState(j, &states[i][j]); err != nil {
				return fmt.Errorf("metric: Merge: metric %d: %w", i, err)
			}
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range states {
		for j := range states[i] {
			f.addState(j, &states[i][j])
		}
	}
	return nil
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
		case !exactly && d == Float32 && !math.IsNaN(v.x) && float64(float32(v.x)) != v.x:
			return fmt.Errorf("metric: state %s %v is not a float32 value, as a float32 metric's totals are: %w", v.key, v.x, ErrInput)
		}
	}
	return nil
}

// families returns the engines of ms.
func families[T any, M interface {
	*T
	fam() *family
}](ms []M) []*family {
	out := make([]*family, len(ms))
	for i, m := range ms {
		if m != nil {
			out[i] = m.fam()
		}
	}
	return out
}
