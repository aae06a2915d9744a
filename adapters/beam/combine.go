package beam

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/significance"
)

// Accumulator is the accumulator of OverallFn: the exact totals of the
// evaluation plan of `rankmetrics eval` under Exact accumulation, per
// measure a metric.ExactTotals (Σ value·w and Σ w, with no rounding; for a
// trec_eval measure Σ value and the number of queries), plus the Counts of
// the queries added, and per measure the evaluate.MeanInterval of the
// per-query values (count, mean and sum of squared deviations, 24 bytes,
// and whether a list weight other than 1 was seen) from which the t
// interval of `rankmetrics eval --ci t` comes. Its wire form, which Beam
// uses between workers, is JSON with one metric.State and one interval
// state per measure, so a partial result can be saved and merged later.
// Merging the sums adds integers, so it is associative and commutative
// exactly; merging the moments (significance.Moments.Merge) is so up to
// rounding.
type Accumulator struct {
	sums   []metric.ExactTotals
	ivs    []evaluate.MeanInterval
	Counts Counts
}

// add adds one query's value and list weight for measure i, computed in
// dtype d, as the plan's exact totals add them: the product value·w is
// rounded to d, then both terms are added exactly.
func (a *Accumulator) add(i int, d metric.DType, v, w float64) {
	a.sums[i].Add(d, v, w)
	a.ivs[i].Add(v, w)
}

// merge adds o to a.
func (a *Accumulator) merge(o *Accumulator) {
	for i := range a.sums {
		a.sums[i].Merge(&o.sums[i])
		a.ivs[i].Merge(o.ivs[i])
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
	Measures  []metric.State `json:"measures"`
	Intervals []intervalJSON `json:"intervals"`
	Counts    Counts         `json:"counts"`
}

// intervalJSON is the wire form of an evaluate.MeanInterval. The mean and
// the sum of squared deviations are strings in Go's shortest round-trip
// form, so that they decode to the same bits, NaN and infinities included
// (a measure with a non-finite per-query value then gets no interval, as
// in eval).
type intervalJSON struct {
	N        int64  `json:"n"`
	Mean     string `json:"mean"`
	M2       string `json:"m2"`
	Weighted bool   `json:"weighted,omitempty"`
}

func intervalToJSON(s evaluate.MeanInterval) intervalJSON {
	return intervalJSON{N: s.Moments.N, Mean: strconv.FormatFloat(s.Moments.Mean, 'g', -1, 64),
		M2: strconv.FormatFloat(s.Moments.M2, 'g', -1, 64), Weighted: s.Weighted}
}

func intervalFromJSON(j intervalJSON) (evaluate.MeanInterval, error) {
	if j.N < 0 {
		return evaluate.MeanInterval{}, fmt.Errorf("count %d: want n >= 0", j.N)
	}
	mean, err := strconv.ParseFloat(j.Mean, 64)
	if err != nil {
		return evaluate.MeanInterval{}, fmt.Errorf("mean: %w", err)
	}
	m2, err := strconv.ParseFloat(j.M2, 64)
	if err != nil {
		return evaluate.MeanInterval{}, fmt.Errorf("m2: %w", err)
	}
	return evaluate.MeanInterval{Moments: significance.Moments{N: j.N, Mean: mean, M2: m2}, Weighted: j.Weighted}, nil
}

// encodeAccumulator is Beam's coder for Accumulator. The states carry no
// configuration: OverallFn knows it.
func encodeAccumulator(a Accumulator) ([]byte, error) {
	j := accumulatorJSON{Measures: make([]metric.State, len(a.sums)), Intervals: make([]intervalJSON, len(a.ivs)), Counts: a.Counts}
	for i := range a.sums {
		s := a.sums[i].State(metric.Config{})
		j.Measures[i] = metric.State{ExactTotal: s.ExactTotal, ExactCount: s.ExactCount}
	}
	for i, s := range a.ivs {
		j.Intervals[i] = intervalToJSON(s)
	}
	return json.Marshal(j)
}

// decodeAccumulator is Beam's decoder for Accumulator.
func decodeAccumulator(b []byte) (Accumulator, error) {
	var j accumulatorJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return Accumulator{}, fmt.Errorf("accumulator: %w", err)
	}
	if len(j.Intervals) != len(j.Measures) {
		return Accumulator{}, fmt.Errorf("accumulator: %d measures, %d interval states: %w", len(j.Measures), len(j.Intervals), ErrMeasures)
	}
	a := Accumulator{sums: make([]metric.ExactTotals, len(j.Measures)), ivs: make([]evaluate.MeanInterval, len(j.Intervals)), Counts: j.Counts}
	for i, s := range j.Measures {
		if err := a.sums[i].SetState(s); err != nil {
			return Accumulator{}, fmt.Errorf("accumulator measure %d: %w", i, err)
		}
		iv, err := intervalFromJSON(j.Intervals[i])
		if err != nil {
			return Accumulator{}, fmt.Errorf("accumulator measure %d: interval: %w", i, err)
		}
		a.ivs[i] = iv
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
	// CI is the (1 - alpha) t interval of the mean of the per-query
	// values, the interval `rankmetrics eval --ci t` prints beside the
	// value; nil (null in JSON) where eval prints none: for a trec_eval
	// sum (num_rel...), a TF-Ranking weighted mean with a list weight
	// other than 1, or fewer than two queries (see evaluate.HasInterval).
	CI *Interval `json:"ci"`
}

// Interval bounds a confidence interval, with eval's JSON keys.
type Interval struct {
	Low  float64 `json:"ci_low"`
	High float64 `json:"ci_high"`
}

// CISummary says which intervals a Report holds, with the keys of eval's
// JSON "ci" member.
type CISummary struct {
	// Method is "t": the t interval of the mean.
	Method string `json:"method"`
	// Level is the coverage, 1 - alpha.
	Level float64 `json:"level"`
}

// Report is the result of a pipeline: the overall value of every measure
// (with its interval), the counts of what was read, used and rejected, and
// what the intervals are.
type Report struct {
	Measures []MeasureResult `json:"measures"`
	Counts   Counts          `json:"counts"`
	CI       CISummary       `json:"ci"`
}

// OverallFn is the CombineFn from per-query values (QueryValue) to the
// overall Report. Its accumulator is the plan's exact totals and the
// moments of the intervals; see Accumulator.
type OverallFn struct {
	// Measures are the measures of the QueryValue inputs, in order,
	// normalised by Normalize.
	Measures []metric.Config
	// Alpha sets the coverage of the intervals, 1 - Alpha, as eval's
	// --alpha; 0 means significance.DefaultAlpha (0.05).
	Alpha float64
	plan  *evaluate.Plan
}

// checkAlpha returns alpha, or significance.DefaultAlpha when it is 0, and
// an error when it is not in (0, 1).
func checkAlpha(alpha float64) (float64, error) {
	if alpha == 0 {
		return significance.DefaultAlpha, nil
	}
	if !(alpha > 0 && alpha < 1) {
		return 0, fmt.Errorf("alpha %v: want 0 < alpha < 1 (0: %v)", alpha, significance.DefaultAlpha)
	}
	return alpha, nil
}

// NewOverallFn returns the CombineFn of the measures.
func NewOverallFn(measures []metric.Config) (*OverallFn, error) {
	plan, cfgs, err := newPlan(measures, summaryOnly())
	if err != nil {
		return nil, err
	}
	return &OverallFn{Measures: cfgs, plan: plan}, nil
}

// getPlan returns the evaluation plan of f.Measures, made once (Beam
// makes the CombineFn from its exported fields on each worker).
func (f *OverallFn) getPlan() (*evaluate.Plan, error) {
	if f.plan == nil {
		plan, _, err := newPlan(f.Measures, summaryOnly())
		if err != nil {
			return nil, err
		}
		f.plan = plan
	}
	return f.plan, nil
}

// CreateAccumulator returns an empty accumulator.
func (f *OverallFn) CreateAccumulator() Accumulator {
	return Accumulator{sums: make([]metric.ExactTotals, len(f.Measures)), ivs: make([]evaluate.MeanInterval, len(f.Measures))}
}

// AddInput adds one query.
func (f *OverallFn) AddInput(a Accumulator, v QueryValue) (Accumulator, error) {
	if len(v.Value) != len(f.Measures) || len(v.Weight) != len(f.Measures) {
		return a, fmt.Errorf("qid %q has %d values and %d weights for %d measures: %w", v.QID, len(v.Value), len(v.Weight), len(f.Measures), ErrMeasures)
	}
	if len(a.sums) != len(f.Measures) || len(a.ivs) != len(f.Measures) {
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
	if len(a.sums) != len(b.sums) || len(a.ivs) != len(a.sums) || len(b.ivs) != len(b.sums) {
		return a, fmt.Errorf("cannot merge accumulators of %d and %d measures: %w", len(a.sums), len(b.sums), ErrMeasures)
	}
	a.merge(&b)
	return a, nil
}

// ExtractOutput returns the report: the values are the plan's, from its
// exact totals, so they are what `rankmetrics eval --batch 1
// --accumulation exact` reports for the same queries; the intervals are
// those of `rankmetrics eval --ci t --alpha Alpha`, from the merged
// moments (evaluate.MeanInterval.TInterval: the same rule for which
// measures get one; none where a per-query value is not finite, as in
// eval).
func (f *OverallFn) ExtractOutput(a Accumulator) (Report, error) {
	states, err := a.States(f.Measures)
	if err != nil {
		return Report{}, err
	}
	if len(a.ivs) != len(states) {
		return Report{}, fmt.Errorf("accumulator holds %d interval states for %d measures: %w", len(a.ivs), len(states), ErrMeasures)
	}
	alpha, err := checkAlpha(f.Alpha)
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
	specs := plan.Measures()
	r := Report{Measures: make([]MeasureResult, len(states)), Counts: a.Counts, CI: CISummary{Method: "t", Level: 1 - alpha}}
	for i, s := range states {
		r.Measures[i] = MeasureResult{Name: s.Config.Name, Value: values[i], State: s}
		iv, err := a.ivs[i].TInterval(specs[i], alpha)
		if err != nil {
			return Report{}, fmt.Errorf("interval of %s: %w", s.Config.Name, err)
		}
		if iv != nil {
			r.Measures[i].CI = &Interval{Low: iv.Low, High: iv.High}
		}
	}
	return r, nil
}
