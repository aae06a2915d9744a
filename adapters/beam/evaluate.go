package beam

import (
	"errors"
	"fmt"
	"hash/fnv"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// ErrMeasures is wrapped by the errors about the measures given to the
// transforms.
var ErrMeasures = errors.New("bad measures")

// Normalize checks measures for distributed use and returns them with Exact
// accumulation: the overall value of a measure is then the same, to the
// bit, for every sharding, bundle size, merge order and worker count.
// Sequential accumulation, whose result depends on the order of the
// additions, is refused, as are an empty list and repeated names.
func Normalize(measures []metric.Config) ([]metric.Config, error) {
	if len(measures) == 0 {
		return nil, fmt.Errorf("no measure given: %w", ErrMeasures)
	}
	out := make([]metric.Config, len(measures))
	seen := make(map[string]int, len(measures))
	for i, c := range measures {
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("measure %d (%s): %w: %w", i, c.Name, ErrMeasures, err)
		}
		if c.Accumulation == metric.Sequential {
			return nil, fmt.Errorf("measure %d (%s): sequential accumulation depends on the order of the shards; distributed evaluation uses exact accumulation: %w",
				i, c.Name, ErrMeasures)
		}
		if j, ok := seen[c.Name]; ok {
			return nil, fmt.Errorf("measures %d and %d are both named %q: %w", j, i, c.Name, ErrMeasures)
		}
		seen[c.Name] = i
		c.Accumulation = metric.Exact
		out[i] = c
	}
	return out, nil
}

// querySeed derives the tie-break seed of one query from the measure's seed
// and the qid, so that the Random tie policy draws the same order for a
// query wherever and whenever it is evaluated.
func querySeed(seed uint64, qid string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(qid))
	z := seed ^ h.Sum64()
	// SplitMix64's finalizer.
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Evaluator computes the per-query values of a set of measures, one query
// at a time: each query is its own update of the metric (a batch of one
// list). It is what the Evaluate transform runs; it is not safe for
// concurrent use.
type Evaluator struct {
	cfgs        []metric.Config
	ms          []*metric.MeanAveragePrecision
	pl          metric.PerList
	splits      []int
	unranked    []int
	placeholder [1]float64
}

// NewEvaluator returns an Evaluator of the measures, normalised by
// Normalize.
func NewEvaluator(measures []metric.Config) (*Evaluator, error) {
	cfgs, err := Normalize(measures)
	if err != nil {
		return nil, err
	}
	e := &Evaluator{cfgs: cfgs, ms: make([]*metric.MeanAveragePrecision, len(cfgs)), splits: make([]int, 2), unranked: make([]int, 1)}
	for i, c := range cfgs {
		if e.ms[i], err = metric.FromConfig(c); err != nil {
			return nil, fmt.Errorf("measure %d: %w", i, err)
		}
	}
	return e, nil
}

// Measures returns the normalised measures.
func (e *Evaluator) Measures() []metric.Config { return e.cfgs }

// Eval returns the AP and list weight of l for every measure, as one
// update of the metric holding l alone.
//
// The relevant documents of l.Unranked (TREC judgments absent from the run)
// go to the metric as unranked items (UpdateUnranked): they count in the AP
// denominator and in the list weight and take no rank, as trec_eval counts
// them. Weighted lists cannot have unranked relevant documents. A list of
// no ranked item (a qrels-only query) is given one non-relevant
// placeholder item, as `rankmetrics eval` does, so that it counts with AP 0
// and the weight of a list without ranked relevant items instead of an
// update with no weighted slot.
func (e *Evaluator) Eval(l *List) (QueryValue, error) {
	n := len(l.Scores)
	if len(l.Labels) != n || (l.Weights != nil && len(l.Weights) != n) {
		return QueryValue{}, fmt.Errorf("qid %q: %d labels, %d scores and %d weights", l.QID, len(l.Labels), n, len(l.Weights))
	}
	e.unranked[0] = 0
	for _, lab := range l.UnrankedLabels {
		if lab >= 1 {
			e.unranked[0]++
		}
	}
	var unranked []int
	if e.unranked[0] > 0 {
		if l.Weights != nil {
			return QueryValue{}, fmt.Errorf("qid %q: a weighted list cannot have unranked relevant documents (they have no weight)", l.QID)
		}
		unranked = e.unranked
	}
	labelData, scoreData, weightData := l.Labels, l.Scores, l.Weights
	size := n
	if n == 0 {
		labelData, scoreData, weightData, size = e.placeholder[:], e.placeholder[:], nil, 1
	}
	var labels, scores tensor.Lists
	var weights tensor.Weights
	var err error
	v := QueryValue{QID: l.QID, AP: make([]float64, len(e.cfgs)), Weight: make([]float64, len(e.cfgs)), Counts: l.Counts}
	v.Counts.Queries++
	v.Counts.Items += int64(n)
	for i, c := range e.cfgs {
		if c.Ragged {
			e.splits[0], e.splits[1] = 0, size
			if labels, err = tensor.Ragged(labelData, e.splits); err == nil {
				scores, err = tensor.Ragged(scoreData, e.splits)
			}
			if err == nil && weightData != nil {
				var w tensor.Lists
				w, err = tensor.Ragged(weightData, e.splits)
				weights = tensor.PerItem(w)
			}
		} else {
			if labels, err = tensor.Dense(labelData, 1, size); err == nil {
				scores, err = tensor.Dense(scoreData, 1, size)
			}
			if err == nil && weightData != nil {
				var w tensor.Lists
				w, err = tensor.Dense(weightData, 1, size)
				weights = tensor.PerItem(w)
			}
		}
		if err != nil {
			return QueryValue{}, fmt.Errorf("qid %q: %w", l.QID, err)
		}
		m := e.ms[i]
		m.Reset()
		if c.Ties == metric.Random {
			m.Reseed(querySeed(c.Seed, l.QID))
		}
		if err := m.UpdateUnranked(&e.pl, labels, scores, weights, unranked); err != nil {
			return QueryValue{}, fmt.Errorf("qid %q: measure %s: %w", l.QID, c.Name, err)
		}
		v.AP[i], v.Weight[i] = e.pl.Values[0], e.pl.Weights[0]
	}
	return v, nil
}
