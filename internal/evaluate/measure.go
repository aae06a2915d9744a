package evaluate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric"
)

// Measure is one measure: MAP over the whole list (TopN is
// metric.NoTopN) or MAP@TopN.
type Measure struct {
	// Name is the measure's name: "map" or "map@K".
	Name string
	// TopN is K of map@K, or metric.NoTopN for map.
	TopN int
}

// MAP returns the measure map: MAP over the whole list.
func MAP() Measure { return Measure{"map", metric.NoTopN} }

// MAPAt returns the measure map@k.
func MAPAt(k int) Measure { return Measure{"map@" + strconv.Itoa(k), k} }

// ParseMeasure parses "map" or "map@K" with K >= 0, in any case and with
// surrounding spaces.
func ParseMeasure(s string) (Measure, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "map" {
		return MAP(), nil
	}
	if k, ok := strings.CutPrefix(name, "map@"); ok {
		n, err := strconv.Atoi(k)
		if err == nil && n >= 0 {
			return MAPAt(n), nil
		}
	}
	return Measure{}, fmt.Errorf("unknown measure %q (want map or map@K with K >= 0)", s)
}

// AppendMeasure appends m to list unless list already has a measure with
// the same TopN.
func AppendMeasure(list []Measure, m Measure) []Measure {
	if index(list, m.TopN) >= 0 {
		return list
	}
	return append(list, m)
}

// index returns the index in list of the measure with TopN topn, or -1.
func index(list []Measure, topn int) int {
	for i, x := range list {
		if x.TopN == topn {
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
