package evaluate

import (
	"fmt"
	"strconv"

	"github.com/rankmetrics/rankmetrics/measure"
	"github.com/rankmetrics/rankmetrics/metric"
)

// Measure is one measure of the registry (package measure): TF-Ranking's
// map and map@K, which count the judged relevant documents a TREC run
// missed, a metric of the family, or a trec_eval measure.
type Measure = measure.Measure

// index returns the index in list of map (topn metric.NoTopN) or map@topn,
// or -1.
func index(list []Measure, topn int) int {
	for i, x := range list {
		if x.IsMAP() && x.TopN == topn {
			return i
		}
	}
	return -1
}

// Policy says what to do with a query found in only one of a TREC qrels
// and run pair.
type Policy uint8

const (
	// Skip leaves the query out of the measures, as trec_eval does. It is
	// still counted in the Result.
	Skip Policy = iota
	// Keep evaluates the query: a run-only query has no relevant item and
	// a qrels-only query no ranked item, so its AP is 0 (trec_eval -c for
	// qrels-only queries).
	Keep
)

// ParsePolicy parses "skip" or "keep".
func ParsePolicy(s string) (Policy, error) {
	switch s {
	case "skip":
		return Skip, nil
	case "keep":
		return Keep, nil
	}
	return 0, fmt.Errorf("%q: want skip or keep", s)
}

// String returns "skip" or "keep".
func (p Policy) String() string {
	switch p {
	case Skip:
		return "skip"
	case Keep:
		return "keep"
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

// FormatValue prints v, a value of dtype d, in the shortest form that
// parses back to the same value of that dtype: a float32 value prints as
// float32 (0.1, not 0.10000000149011612).
func FormatValue(v float64, d metric.DType) string {
	if d == metric.Float32 {
		return strconv.FormatFloat(v, 'g', -1, 32)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
