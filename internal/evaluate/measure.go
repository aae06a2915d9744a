package evaluate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric"
)

// Measure is one measure: MAP over the whole list (TopN is
// metric.NoTopN) or MAP@TopN on the MAP path, or a metric of the family
// (Family is set).
type Measure struct {
	// Name is the measure's name: "map", "map@K", or the name the user
	// gave a family metric ("ndcg@10", "mrr", "P_10", "map_cut_10"...).
	Name string
	// TopN is K of map@K, or metric.NoTopN for map; for a family metric,
	// its cutoff.
	TopN int
	// Family, when not nil, holds the settings of a metric of the family
	// (metric.ParseMetric or metric.ParseTrecEvalMeasure). Its dtype,
	// raggedness, accumulation and seed come from Options.Config; its tie
	// policy too unless TrecTies is set.
	Family *metric.Settings
	// TrecTies keeps the tie policy of the settings (Stable, for a
	// trec_eval alias) instead of Options.Config's.
	TrecTies bool
}

// MAP returns the measure map: MAP over the whole list.
func MAP() Measure { return Measure{Name: "map", TopN: metric.NoTopN} }

// MAPAt returns the measure map@k.
func MAPAt(k int) Measure { return Measure{Name: "map@" + strconv.Itoa(k), TopN: k} }

// ParseMeasure parses a measure name, with surrounding spaces:
//   - "map" or "map@K" with K >= 0, in any case: TF-Ranking's MAP on the
//     MAP path (trec_eval's map is the same measure there);
//   - any other name metric.ParseMetric reads (key[@k]: "ndcg@10", "mrr",
//     "precision@5", "recall", "hits@1", "arp", "opa", "dcg@3"...);
//   - otherwise a trec_eval measure name that metric.ParseTrecEvalMeasure
//     reads ("P_10", "recip_rank", "ndcg_cut_10", "map_cut_10",
//     "recall_100", "ndcg"), computed with trec_eval's settings.
//
// Metrics over subtopic labels (precision_ia, alpha_dcg) are refused:
// eval's inputs have one label per item.
func ParseMeasure(s string) (Measure, error) {
	raw := strings.TrimSpace(s)
	name := strings.ToLower(raw)
	if name == "map" {
		return MAP(), nil
	}
	if k, ok := strings.CutPrefix(name, "map@"); ok {
		n, err := strconv.Atoi(k)
		if err == nil && n >= 0 {
			return MAPAt(n), nil
		}
		return Measure{}, fmt.Errorf("unknown measure %q (map@K needs K >= 0)", s)
	}
	trec := false
	set, err := metric.ParseMetric(raw)
	if err != nil && !strings.Contains(raw, "@") {
		// Without @ the name may be a trec_eval one; with it, ParseMetric's
		// error says what is wrong.
		set, err = metric.ParseTrecEvalMeasure(raw)
		trec = true
	}
	if err != nil {
		return Measure{}, fmt.Errorf("unknown measure %q (want map, map@K, a metric key[@K] such as ndcg@10, mrr, precision@5, or a trec_eval name such as P_10, recip_rank, ndcg_cut_10, map_cut_10): %w", s, err)
	}
	if set.Kind == metric.KindPrecisionIA || set.Kind == metric.KindAlphaDCG {
		return Measure{}, fmt.Errorf("unknown measure %q: %s needs subtopic labels, which eval's inputs do not have", s, set.Kind)
	}
	return Measure{Name: raw, TopN: set.TopN, Family: &set, TrecTies: trec}, nil
}

// AppendMeasure appends m to list unless list already has the same
// measure: a MAP-path measure with the same TopN, or a family measure with
// the same name.
func AppendMeasure(list []Measure, m Measure) []Measure {
	for _, x := range list {
		if (m.Family == nil && x.Family == nil && x.TopN == m.TopN) || (m.Family != nil && x.Family != nil && x.Name == m.Name) {
			return list
		}
	}
	return append(list, m)
}

// index returns the index in list of the MAP-path measure with TopN topn,
// or -1.
func index(list []Measure, topn int) int {
	for i, x := range list {
		if x.Family == nil && x.TopN == topn {
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
