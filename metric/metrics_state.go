package metric

import "fmt"

// FamilyState is the accumulator of a metric of the family: what must
// travel to merge partial results computed elsewhere. Its JSON form has the
// keys settings, total, count, exact_total and exact_count (under Exact
// accumulation) and rng, as State has.
type FamilyState struct {
	// Settings are the settings of the metric the state comes from.
	Settings Settings `json:"settings"`
	// Total is the sum of value times list weight: a float32 in float32
	// mode with Sequential accumulation, the exact total rounded once under
	// Exact.
	Total float64 `json:"total"`
	// Count is the sum of list weights, like Total.
	Count float64 `json:"count"`
	// ExactTotal and ExactCount are the exact sums under Exact accumulation.
	ExactTotal string `json:"exact_total,omitempty"`
	ExactCount string `json:"exact_count,omitempty"`
	// RNG is the state of the tie-break generator.
	RNG []byte `json:"rng"`
}

// sameKind returns an error when o computes a different metric than s.
// Names and seeds may differ.
func (s *Settings) sameKind(o *Settings) error {
	if s.Kind != o.Kind || s.TopN != o.TopN || s.DType != o.DType || s.Ragged != o.Ragged || s.Ties != o.Ties ||
		s.accumulation() != o.accumulation() || s.Gain.String() != o.Gain.String() || s.Discount.String() != o.Discount.String() ||
		s.Convention != o.Convention || s.Empty.resolve(s.Convention) != o.Empty.resolve(o.Convention) || s.threshold() != o.threshold() ||
		s.Alpha != o.Alpha || s.Subtopics != o.Subtopics {
		return fmt.Errorf("metric: cannot merge %s (%s) with %s (%s): %w", o.Name, o.describe(), s.Name, s.describe(), ErrConfig)
	}
	return nil
}

// describe lists the settings that make a metric what it is.
func (s *Settings) describe() string {
	return fmt.Sprintf("%s, topn %d, %s, ragged %v, ties %s, %s accumulation, gain %s, discount %s, convention %s, empty %s, relevance %v, alpha %v, subtopics %d",
		s.Kind, s.TopN, s.DType, s.Ragged, s.Ties, s.accumulation(), s.Gain, s.Discount, s.Convention, s.Empty.resolve(s.Convention), s.threshold(), s.Alpha, s.Subtopics)
}

// state returns metric j's accumulator. The caller holds f.mu.
func (f *family) state(j int) FamilyState {
	rng, _ := f.pcg.MarshalBinary() // a PCG always marshals
	s := f.acc[j].state(f.sets[j].DType, f.sets[j].accumulation() == Exact, rng)
	return FamilyState{Settings: f.sets[j], Total: s.Total, Count: s.Count, ExactTotal: s.ExactTotal, ExactCount: s.ExactCount, RNG: rng}
}

// State returns a copy of the metric's accumulator.
func (f *family) State() FamilyState {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state(0)
}

// checkState returns an error when s cannot be the state of metric j.
func (f *family) checkState(j int, s *FamilyState) error {
	own := &f.sets[j]
	if err := own.sameKind(&s.Settings); err != nil {
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
func (f *family) addState(j int, s *FamilyState) {
	f.acc[j].add(f.sets[j].accumulation() == Exact, s.ExactTotal, s.ExactCount, s.Total, s.Count)
}

// SetState replaces the metric's accumulator with s, which must come from a
// metric of the same kind (see Merge). A float32 metric with Sequential
// accumulation takes only totals that are float32 values. MAP of the
// TFRanking convention refuses a NaN, an infinite or a negative total or
// count, naming it; the other metrics reach such totals as TF-Ranking does
// (MRR of a batch of width 0 is -Inf, for one).
func (f *family) SetState(s FamilyState) error {
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
// Keras merge_state does. On an error f is unchanged.
func (f *family) merge(others []*family) error {
	states := make([][]FamilyState, len(others))
	for i, o := range others {
		if o == nil {
			return fmt.Errorf("metric: Merge: metric %d is nil: %w", i, ErrConfig)
		}
		if o == f {
			return fmt.Errorf("metric: Merge: metric %d is the receiver: %w", i, ErrConfig)
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
