package beam

import (
	"encoding/json"
	"fmt"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric"
)

// Accumulator is the accumulator of OverallFn: the exact totals of the
// evaluation plan of `rankmetrics eval` under Exact accumulation, per
// measure a metric.ExactTotals (Σ value·w and Σ w, with no rounding; for a
// trec_eval measure Σ value and the number of queries), plus the Counts of
// the queries added. Its wire form, which Beam uses between workers, is
// JSON with one metric.State per measure, so a partial result can be saved
// and merged later. Merging adds integers, so it is associative and
// commutative exactly.
type Accumulator struct {
	sums   []metric.ExactTotals
	Counts Counts
}

// add adds one query's value and list weight for measure i, computed in
// dtype d, as the plan's exact totals add them: the product value·w is
// rounded to d, then both terms are added exactly.
func (a *Accumulator) add(i int, d metric.DType, v, w float64) {
	a.sums[i].Add(d, v, w)
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
	// Value is the overall value, computed from the exact sums as
	// `rankmetrics eval --accumulation exact` computes it: for a
	// TF-Ranking measure the weighted mean over the queries, rounded once;
	// for a trec_eval measure trec_eval's summary (mean, sum...) of the sum
	// rounded once.
	Value float64 `json:"value"`
	// State holds the exact sums: it merges exactly with the states of
	// other runs, and for MAP and MAP@K, metric.New(State.Config)
	// and SetState give Value again.
	State metric.State `json:"state"`
}

// Report is the result of a pipeline: the overall value of every measure
// and the counts of what was read, used and rejected.
type Report struct {
	Measures []MeasureResult `json:"measures"`
	Counts   Counts          `json:"counts"`
}

// OverallFn is the CombineFn from per-query values (QueryValue) to the
// overall Report. Its accumulator is the plan's exact totals; see
// Accumulator.
type OverallFn struct {
	// Measures are the measures of the QueryValue inputs, in order,
	// normalised by Normalize.
	Measures []metric.Config
	plan     *evaluate.Plan
}

// NewOverallFn returns the CombineFn of the measures.
func NewOverallFn(measures []metric.Config) (*OverallFn, error) {
	plan, cfgs, err := newPlan(measures)
	if err != nil {
		return nil, err
	}
	return &OverallFn{Measures: cfgs, plan: plan}, nil
}

// getPlan returns the evaluation plan of f.Measures, made once (Beam
// makes the CombineFn from its exported fields on each worker).
func (f *OverallFn) getPlan() (*evaluate.Plan, error) {
	if f.plan == nil {
		plan, _, err := newPlan(f.Measures)
		if err != nil {
			return nil, err
		}
		f.plan = plan
	}
	return f.plan, nil
}

// CreateAccumulator returns an empty accumulator.
func (f *OverallFn) CreateAccumulator() Accumulator {
	return Accumulator{sums: make([]metric.ExactTotals, len(f.Measures))}
}

// AddInput adds one query.
func (f *OverallFn) AddInput(a Accumulator, v QueryValue) (Accumulator, error) {
	if len(v.Value) != len(f.Measures) || len(v.Weight) != len(f.Measures) {
		return a, fmt.Errorf("qid %q has %d values and %d weights for %d measures: %w", v.QID, len(v.Value), len(v.Weight), len(f.Measures), ErrMeasures)
	}
	if len(a.sums) != len(f.Measures) {
		return a, fmt.Errorf("accumulator holds %d measures, want %d: %w", len(a.sums), len(f.Measures), ErrMeasures)
	}
	plan, err := f.getPlan()
	if err != nil {
		return a, err
	}
	for i := range f.Measures {
		a.add(i, plan.DType(i), v.Value[i], v.Weight[i])
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

// ExtractOutput returns the report: the values are the plan's, from its
// exact totals, so they are what `rankmetrics eval --batch 1
// --accumulation exact` reports for the same queries.
func (f *OverallFn) ExtractOutput(a Accumulator) (Report, error) {
	states, err := a.States(f.Measures)
	if err != nil {
		return Report{}, err
	}
	plan, err := f.getPlan()
	if err != nil {
		return Report{}, err
	}
	t, err := plan.NewTotals()
	if err != nil {
		return Report{}, err
	}
	if err := t.SetStates(states); err != nil {
		return Report{}, err
	}
	values := t.Values()
	r := Report{Measures: make([]MeasureResult, len(states)), Counts: a.Counts}
	for i, s := range states {
		r.Measures[i] = MeasureResult{Name: s.Config.Name, Value: values[i], State: s}
	}
	return r, nil
}
