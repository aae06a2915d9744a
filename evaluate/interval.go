package evaluate

import (
	"math"

	"github.com/rankmetrics/rankmetrics/measure"
	"github.com/rankmetrics/rankmetrics/significance"
)

// MeanInterval gathers what the t interval of one measure's value needs
// from its per-query values: their count, mean and sum of squared
// deviations (significance.Moments, 24 bytes), and whether any came with a
// list weight other than 1, which makes a TF-Ranking value a weighted mean
// that the interval of the plain mean does not describe. It merges, so
// that the partial results of a distributed evaluation give the interval
// of all their queries. The zero value is empty.
type MeanInterval struct {
	// Moments are the count, mean and sum of squared deviations of the
	// values added.
	Moments significance.Moments
	// Weighted says that a value came with a list weight other than 1.
	Weighted bool
}

// Add adds one query's value and list weight.
func (s *MeanInterval) Add(value, weight float64) {
	s.Moments.Add(value)
	if weight != 1 {
		s.Weighted = true
	}
}

// Merge adds the values of o (significance.Moments.Merge: associative and
// commutative up to rounding).
func (s *MeanInterval) Merge(o MeanInterval) {
	s.Moments.Merge(o.Moments)
	s.Weighted = s.Weighted || o.Weighted
}

// HasInterval reports whether measure m gets an interval of its value:
// whether that value is the plain mean of its per-query values. It is for
// trec_eval's means, and for TF-Ranking's weighted means when every list
// weight is 1 (weighted is false); not for TF-Ranking's means with a list
// weight other than 1, trec_eval's sums (num_rel, num_ret, num_rel_ret...)
// or a measure without a summary. This is the rule of `rankmetrics eval
// --ci`.
func HasInterval(m Measure, weighted bool) bool {
	d := m.Def()
	if d == nil {
		return false
	}
	switch d.Summary {
	case measure.Mean:
		return true
	case measure.WeightedMean:
		return !weighted
	}
	return false
}

// ReportedInterval returns iv as `rankmetrics eval --ci` reports it: nil
// when it says nothing of the mean (fewer than two values, or a NaN
// bound).
func ReportedInterval(iv significance.Interval) *significance.Interval {
	if iv.N < 2 || math.IsNaN(iv.Low) || math.IsNaN(iv.High) {
		return nil
	}
	return &iv
}

// TInterval returns the (1 - alpha) t interval of measure m's value from
// the values added (significance.Moments.TInterval), or nil where
// `rankmetrics eval --ci t` reports none: when HasInterval(m, s.Weighted)
// is false, with fewer than two values, or when a value is not finite
// (NaN NDCG of a float32 gain that overflows, MRR at cutoff 0): the
// measure's value is reported without an interval, and the other measures
// keep theirs.
func (s MeanInterval) TInterval(m Measure, alpha float64) (*significance.Interval, error) {
	if !HasInterval(m, s.Weighted) || !s.Moments.Finite() {
		return nil, nil
	}
	iv, err := s.Moments.TInterval(alpha)
	if err != nil {
		return nil, err
	}
	return ReportedInterval(iv), nil
}
