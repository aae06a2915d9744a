package beam

import (
	"encoding/json"
	"fmt"

	"github.com/rankmetrics/rankmetrics/metric"
)

// Accumulator is the accumulator of OverallFn: per measure, the
// metric.ExactTotals of the metric's Exact accumulation (Σ AP·w and Σ w,
// with no rounding),
// plus the Counts of the queries added. Its wire form, which Beam uses
// between workers, is JSON with one metric.State per measure, so a partial
// result can be saved and merged later with metric.MeanAveragePrecision's
// SetState and Merge. Merging adds integers, so it is associative and
// commutative exactly.
type Accumulator struct {
	sums   []metric.ExactTotals
	Counts Counts
}

// add adds one query's AP and list weight for measure i, computed in
// dtype d, as the metric's Exact accumulation adds an update: the product
// AP·w is rounded to d, then both terms are added exactly.
func (a *Accumulator) add(i int, d metric.DType, ap, w float64) {
	a.sums[i].Add(d, ap, w)
}

// merge adds o to a.
func (a *Accumulator) merge(o *Accumulator) {
	for i := range a.sums {
		a.sums[i].Merge(&o.sums[i])
	}
	a.Counts = a.Counts.Add(o.Counts)
}

// States returns one metric.State per measure of cfgs, which must be the
// measures the accumulator was made for.
func (a *Accumulator) States(cfgs []metric.Config) ([]metric.State, error) {
	if len(cfgs) != len(a.sums) {
		return nil, fmt.Errorf("accumulator holds %d measures, %d configurations given: %w", len(a.sums), len(cfgs), ErrMeasures)
	}
	out := make([]metric.State, len(cfgs))
	for i, c := range cfgs {
		out[i] = a.sums[i].State(c)
	}
	return out, nil
}

// accumulatorJSON is the wire form of an Accumulator.
type accumulatorJSON struct {
	Measures []metric.State `json:"measures"`
	Counts   Counts         `json:"counts"`
}

// encodeAccumulator is Beam's coder for Accumulator. The states carry no
// configuration: OverallFn knows it.
func encodeAccumulator(a Accumulator) ([]byte, error) {
	j := accumulatorJSON{Measures: make([]metric.State, len(a.sums)), Counts: a.Counts}
	for i := range a.sums {
		s := a.sums[i].State(metric.Config{})
		j.Measures[i] = metric.State{ExactTotal: s.ExactTotal, ExactCount: s.ExactCount}
	}
	return json.Marshal(j)
}

// decodeAccumulator is Beam's decoder for Accumulator.
func decodeAccumulator(b []byte) (Accumulator, error) {
	var j accumulatorJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return Accumulator{}, fmt.Errorf("accumulator: %w", err)
	}
	a := Accumulator{sums: make([]metric.ExactTotals, len(j.Measures)), Counts: j.Counts}
	for i, s := range j.Measures {
		if err := a.sums[i].SetState(s); err != nil {
			return Accumulator{}, fmt.Errorf("accumulator measure %d: %w", i, err)
		}
	}
	return a, nil
}

// MeasureResult is the overall value of one measure.
type MeasureResult struct {
	// Name is the measure's name.
	Name string `json:"name"`
	// Value is the weighted mean AP over the queries, rounded once from
	// the exact sums.
	Value float64 `json:"value"`
	// State is the metric's state: with metric.New(State.Config)
	// and SetState it gives Value again, and it merges exactly with the
	// states of other runs.
	State metric.State `json:"state"`
}

// Report is the result of a pipeline: the overall value of every measure
// and the counts of what was read, used and rejected.
type Report struct {
	Measures []MeasureResult `json:"measures"`
	Counts   Counts          `json:"counts"`
}

// OverallFn is the CombineFn from per-query values (QueryValue) to the
// overall Report. Its accumulator is the metric's exact state; see
// Accumulator.
type OverallFn struct {
	// Measures are the measures of the QueryValue inputs, in order,
	// normalised by Normalize.
	Measures []metric.Config
}

// NewOverallFn returns the CombineFn of the measures.
func NewOverallFn(measures []metric.Config) (*OverallFn, error) {
	cfgs, err := Normalize(measures)
	if err != nil {
		return nil, err
	}
	return &OverallFn{Measures: cfgs}, nil
}

// CreateAccumulator returns an empty accumulator.
func (f *OverallFn) CreateAccumulator() Accumulator {
	return Accumulator{sums: make([]metric.ExactTotals, len(f.Measures))}
}

// AddInput adds one query.
func (f *OverallFn) AddInput(a Accumulator, v QueryValue) (Accumulator, error) {
	if len(v.AP) != len(f.Measures) || len(v.Weight) != len(f.Measures) {
		return a, fmt.Errorf("qid %q has %d values and %d weights for %d measures: %w", v.QID, len(v.AP), len(v.Weight), len(f.Measures), ErrMeasures)
	}
	if len(a.sums) != len(f.Measures) {
		return a, fmt.Errorf("accumulator holds %d measures, want %d: %w", len(a.sums), len(f.Measures), ErrMeasures)
	}
	for i, c := range f.Measures {
		a.add(i, c.DType, v.AP[i], v.Weight[i])
	}
	a.Counts = a.Counts.Add(v.Counts)
	return a, nil
}

// MergeAccumulators adds b to a exactly.
func (f *OverallFn) MergeAccumulators(a, b Accumulator) (Accumulator, error) {
	if len(a.sums) != len(b.sums) {
		return a, fmt.Errorf("cannot merge accumulators of %d and %d measures: %w", len(a.sums), len(b.sums), ErrMeasures)
	}
	a.merge(&b)
	return a, nil
}

// ExtractOutput returns the report: each value is computed by the metric
// itself, from the state, so it is what metric.MeanAveragePrecision.Result
// returns after the same updates under Exact accumulation.
func (f *OverallFn) ExtractOutput(a Accumulator) (Report, error) {
	states, err := a.States(f.Measures)
	if err != nil {
		return Report{}, err
	}
	r := Report{Measures: make([]MeasureResult, len(states)), Counts: a.Counts}
	for i, s := range states {
		m, err := metric.New(s.Config)
		if err != nil {
			return Report{}, err
		}
		if err := m.SetState(s); err != nil {
			return Report{}, err
		}
		r.Measures[i] = MeasureResult{Name: s.Config.Name, Value: m.Result(), State: m.State()}
	}
	return r, nil
}
