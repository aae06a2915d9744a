package metric

import "fmt"

// State is the accumulator of a metric: what must travel to merge partial
// results computed elsewhere. Its JSON form has the keys config, total,
// count and rng.
type State struct {
	// Config is the configuration of the metric the state comes from.
	Config Config `json:"config"`
	// Total is the sum of AP times list weight; a float32 in float32 mode.
	Total float64 `json:"total"`
	// Count is the sum of list weights; a float32 in float32 mode.
	Count float64 `json:"count"`
	// RNG is the state of the tie-break generator.
	RNG []byte `json:"rng"`
}

// State returns a copy of the metric's accumulator.
func (m *MeanAveragePrecision) State() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	rng, _ := m.pcg.MarshalBinary() // a PCG always marshals
	s := State{Config: m.cfg, Total: m.total64, Count: m.count64, RNG: rng}
	if m.cfg.DType == Float32 {
		s.Total, s.Count = float64(m.total32), float64(m.count32)
	}
	return s
}

// SetState replaces the metric's accumulator with s, which must come from a
// metric of the same kind (see Merge). A float32 metric takes only totals
// that are float32 values.
func (m *MeanAveragePrecision) SetState(s State) error {
	if err := m.cfg.sameKind(s.Config); err != nil {
		return err
	}
	if m.cfg.DType == Float32 && (float64(float32(s.Total)) != s.Total || float64(float32(s.Count)) != s.Count) {
		return fmt.Errorf("metric: SetState: total %v or count %v is not a float32 value: %w", s.Total, s.Count, ErrInput)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(s.RNG) > 0 {
		if err := m.pcg.UnmarshalBinary(s.RNG); err != nil {
			return fmt.Errorf("metric: SetState: rng: %w", err)
		}
	}
	m.total64, m.count64 = s.Total, s.Count
	m.total32, m.count32 = float32(s.Total), float32(s.Count)
	return nil
}
