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
	if len(f.sets) == 0 {
		return State{}
	}
	return f.state(0)
}

// checkState returns an error when s cannot be the state of metric j.
func (f *family) checkState(j int, s *State) error {
	if err := f.unset(); err != nil {
		return err
	}
	own := &f.sets[j]
	if err := own.sameKind(&s.Config); err != nil {
		return err
	}
	// TF-Ranking's MAP is in [0, 1] and masks items of weight <= 0, so its
	// totals are finite and never negative. The other metrics reach other
	// totals as TF-Ranking does: MRR and hits of a batch of width 0 are the
	// max over no ranks, -Inf; ARP's 0/0 is NaN; negative per-list weights
	// make negative counts.
	return checkTotals(s, own.accumulation() == Exact, own.DType, own.bounded())
}

// bounded reports whether the metric of c has values in [0, 1] and finite
// list weights that are never negative, so that its totals are finite,
// never negative, and the total at most the count: MAP of the TFRanking
// convention.
func (c *Config) bounded() bool { return c.Kind == KindMAP && c.Convention == TFRanking }

// addState adds a checked state to metric j's totals. The caller holds
// f.mu.
func (f *family) addState(j int, s *State) {
	f.acc[j].add(f.sets[j].accumulation() == Exact, s.ExactTotal, s.ExactCount, s.Total, s.Count)
}

// SetState replaces the metric's accumulator with s, which must come from a
// metric of the same kind (see Merge). A float32 metric with Sequential
// accumulation takes only totals that are float32 values; under Exact
// accumulation the total and count must be exact_total and exact_count
// rounded once, as State writes them. MAP of the TFRanking convention
// refuses a NaN, an infinite or a negative total or count, and a total
// above the count (its values are at most 1), naming the field (under
// Exact, the exact sums, which may exceed the float64 range); the other
// metrics reach such totals as TF-Ranking does (MRR of a batch of width 0
// is -Inf, for one).
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
// f is unchanged: a bounded metric (MAP) whose merged Sequential totals
// would overflow the dtype is one.
func (f *family) merge(others []*family) error {
	if f == nil {
		return fmt.Errorf("metric: Merge: the receiver is nil: %w", ErrConfig)
	}
	if err := f.unset(); err != nil {
		return fmt.Errorf("metric: Merge: the receiver: %w", err)
	}
	states := make([][]State, len(others))
	for i, o := range others {
		if o == nil {
			return fmt.Errorf("metric: Merge: metric %d is nil: %w", i, ErrConfig)
		}
		if err := o.unset(); err != nil {
			return fmt.Errorf("metric: Merge: metric %d: %w", i, err)
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
	for j := range f.acc {
		f.acc[j].save()
	}
	for i := range states {
		for j := range states[i] {
			f.addState(j, &states[i][j])
		}
	}
	if f.sets[0].accumulation() == Exact {
		return nil
	}
	// A bounded metric's totals must stay a state SetState takes, as
	// Update keeps them.
	for j := range f.acc {
		if !f.sets[j].bounded() {
			continue
		}
		if t, c := f.acc[j].sums(f.sets[0].DType); checkBounded(t, c) != nil {
			for k := range f.acc {
				f.acc[k].restore()
			}
			return fmt.Errorf("metric: Merge: %s: the merged total and count (%v, %v) are no state of the metric: they overflow %s or their rounding puts the total above the count; "+
				"accumulate exactly (WithAccumulation(Exact)), whose sums do not overflow or round: %w",
				f.sets[j].Name, t, c, f.sets[0].DType, ErrInput)
		}
	}
	return nil
}

// boundSlack is how far above the count a bounded metric's total may be,
// relative to the count: a float32 AP of a list of many weighted items can
// round above 1 (1 + 1e-5 for 100,000 items), and so can the sums of its
// products with the list weights. Update refuses a list whose value is
// above 1 + boundSlack/2, and totals above 1 + boundSlack times the count.
const boundSlack = 1e-3

// checkBounded returns an error when total and count, Sequential sums of
// a bounded metric, are not a state SetState takes.
func checkBounded(total, count float64) error {
	return checkTotals(&State{Total: total, Count: count}, false, Float64, true)
}

// checkTotals returns an error naming the field of a state that cannot
// come from the metric: under Exact accumulation, exact sums that do not
// decode, or a rounded total or count that is not its exact sum rounded
// once (as State writes them); otherwise a total or count that is not a
// float32 value in a float32 metric. When bounded says the metric's values
// are in [0, 1] and its list weights finite and never negative (MAP), it
// also refuses a NaN, an infinite or a negative total or count, and a total
// above the count (a total with a count of 0, for one). Under Exact these
// are judged on the exact sums, which may exceed the float64 range where
// their rounded values are ±Inf.
func checkTotals(s *State, exactly bool, d DType, bounded bool) error {
	total, count := s.Total, s.Count
	var ex ExactTotals
	if exactly {
		if err := ex.SetState(*s); err != nil {
			return err
		}
		total, count = ex.total.Float64(), ex.count.Float64()
	}
	prefix := ""
	if exactly {
		prefix = "exact_"
	}
	for _, v := range []struct {
		key    string
		x      float64
		finite bool
	}{{"total", total, !notFinite(total) || exactly && ex.total.IsFinite()}, {"count", count, !notFinite(count) || exactly && ex.count.IsFinite()}} {
		switch {
		case bounded && !v.finite:
			return fmt.Errorf("metric: state %s%s is %v; a state's total and count must be finite: %w", prefix, v.key, v.x, ErrInput)
		case bounded && v.x < 0:
			return fmt.Errorf("metric: state %s%s is %v; this metric's totals are never negative: %w", prefix, v.key, v.x, ErrInput)
		case !exactly && d == Float32 && !math.IsNaN(v.x) && float64(float32(v.x)) != v.x:
			return fmt.Errorf("metric: state %s %v is not a float32 value, as a float32 metric's totals are: %w", v.key, v.x, ErrInput)
		}
	}
	if bounded {
		zeroCount, zeroTotal, ratio := count == 0, total == 0, total/count
		if exactly {
			zeroCount, zeroTotal, ratio = ex.count.Sign() == 0, ex.total.Sign() == 0, ex.Result()
		}
		switch {
		case zeroCount && !zeroTotal:
			return fmt.Errorf("metric: state %stotal is %v with a %scount of 0; lists of weight 0 add 0 to the total: %w", prefix, total, prefix, ErrInput)
		case !zeroCount && ratio > 1+boundSlack:
			return fmt.Errorf("metric: state %stotal %v is %v times the %scount %v; this metric's values are at most 1, so its total is at most its count: %w",
				prefix, total, ratio, prefix, count, ErrInput)
		}
	}
	if exactly {
		for _, v := range []struct {
			key       string
			got, want float64
		}{{"total", s.Total, total}, {"count", s.Count, count}} {
			if v.got != v.want && !(math.IsNaN(v.got) && math.IsNaN(v.want)) {
				return fmt.Errorf("metric: state %s %v is not exact_%s rounded once (%v); a state's rounded and exact sums must agree: %w", v.key, v.got, v.key, v.want, ErrInput)
			}
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
