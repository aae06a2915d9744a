package evaluate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric"
)

// Measure is one measure: map, TF-Ranking's MAP over the whole list (TopN
// is metric.NoTopN), or map@TopN, which count the judged relevant
// documents a TREC run missed; a metric of the family
// (Family is set), or a trec_eval measure (TrecEval is set).
type Measure struct {
	// Name is the measure's name: "map", "map@K", the name the user gave
	// a family metric ("ndcg@10", "mrr", "ndcg_metric"...), or the name
	// trec_eval prints a value under ("P_10", "ndcg", "map_cut_10"...).
	Name string
	// TopN is K of map@K, or metric.NoTopN for map; for a family metric,
	// its cutoff; metric.NoTopN for a trec_eval measure.
	TopN int
	// Family, when not nil, holds the settings of a metric of the family
	// (metric.ParseMetric). Its dtype, raggedness, accumulation, seed and
	// tie policy come from Options.Config.
	Family *metric.Config
	// TrecEval, when not empty, is the trec_eval -m specification ("P.10",
	// "ndcg", "P.5,10") one of whose values, named Name, the measure is:
	// computed by metric/treceval over the query's judged documents, in
	// trec_eval's rank order (score, then docno), in float64, whatever
	// Options.Config says.
	TrecEval string
}

// MAP returns the measure map: MAP over the whole list.
func MAP() Measure { return Measure{Name: "map", TopN: metric.NoTopN} }

// MAPAt returns the measure map@k.
func MAPAt(k int) Measure { return Measure{Name: "map@" + strconv.Itoa(k), TopN: k} }

// ParseMeasure parses a measure name, with surrounding spaces:
//   - "map" or "map@K" with K >= 0, in any case: TF-Ranking's MAP,
//     counting in its denominator the judged relevant documents a TREC run
//     did not rank;
//   - "ndcg", and any other value name trec_eval prints per topic ("P_10",
//     "recall_100", "ndcg_cut_10", "map_cut_10", "recip_rank", "bpref",
//     "Rprec", "success_1", "iprec_at_recall_0.50", "infAP"...) or a -m
//     specification giving one value ("P.10"): trec_eval's measure,
//     computed by metric/treceval (see ParseTrecEvalSpec for several);
//   - "map:CONVENTION" or "map@K:CONVENTION", CONVENTION a name of
//     metric.ParseConvention ("treceval", "minrk", "retrieved", "xgboost",
//     "xgboost-", "tfranking"): the family's MAP under that convention
//     ("map@10:treceval" divides by every judged relevant document, as
//     trec_eval's map_cut_10; "map@10:minrk" is Kaggle's MAP@10);
//   - any other name metric.ParseMetric reads (key[@k]: "ndcg@10", "mrr",
//     "precision@5", "recall", "hits@1", "arp", "opa", "dcg@3"...), or the
//     name Keras gives a TF-Ranking metric made without one ("ndcg_metric",
//     "mrr_metric"...): TF-Ranking's metric over the whole list.
//
// The bare names map, recall and dcg are TF-Ranking's keys; trec_eval's
// map, dcg and recall (all cutoffs) have no name in eval. Metrics over
// subtopic labels (precision_ia, alpha_dcg) are refused: eval's inputs
// have one label per item.
func ParseMeasure(s string) (Measure, error) {
	raw := strings.TrimSpace(s)
	name := strings.ToLower(raw)
	if base, conv, ok := strings.Cut(name, ":"); ok {
		return parseConvention(s, base, conv)
	}
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
	if raw != "recall" && raw != "dcg" {
		if m, ok, err := parseTrecEval(raw); ok || err != nil {
			return m, err
		}
	}
	set, err := metric.ParseMetric(raw)
	if err != nil {
		if base, ok := strings.CutSuffix(raw, "_metric"); ok {
			if k, kerr := metric.ParseKind(base); kerr == nil && k != metric.KindMAP && k.DefaultName() == raw {
				set, err = metric.ParseMetric(base)
				set.Name = raw
			}
		}
	}
	if err != nil {
		return Measure{}, fmt.Errorf("unknown measure %q (want map, map@K, a TF-Ranking metric key[@K] such as ndcg@10, mrr, precision@5, ndcg_metric, or a value name of trec_eval such as P_10, ndcg, ndcg_cut_10, recip_rank, bpref): %w", s, err)
	}
	if set.Kind == metric.KindPrecisionIA || set.Kind == metric.KindAlphaDCG {
		return Measure{}, fmt.Errorf("unknown measure %q: %s needs subtopic labels, which eval's inputs do not have", s, set.Kind)
	}
	return Measure{Name: raw, TopN: set.TopN, Family: &set}, nil
}

// parseConvention returns the family MAP measure base ("map" or "map@K")
// under convention conv; s is the name as given.
func parseConvention(s, base, conv string) (Measure, error) {
	c, err := metric.ParseConvention(conv)
	if err != nil {
		return Measure{}, fmt.Errorf("unknown measure %q: %w", s, err)
	}
	set, err := metric.ParseMetric(base)
	if err != nil || set.Kind != metric.KindMAP {
		return Measure{}, fmt.Errorf("unknown measure %q: a convention follows map or map@K, as in map@10:treceval", s)
	}
	set.Convention = c
	name := strings.ToLower(strings.TrimSpace(s))
	set.Name = name
	if err := set.Validate(); err != nil {
		return Measure{}, fmt.Errorf("measure %q: %w", s, err)
	}
	return Measure{Name: name, TopN: set.TopN, Family: &set}, nil
}

// ParseMeasures parses the value of one -m flag of eval: a trec_eval
// specification with parameters takes the whole value, as trec_eval's -m
// does (P.5,10 gives P_5 and P_10); anything else is a comma-separated
// list of measures (see ParseMeasure). Repeats are left out
// (AppendMeasure).
func ParseMeasures(s string) ([]Measure, error) {
	var out []Measure
	if list, ok, err := ParseTrecEvalSpec(strings.TrimSpace(s)); ok {
		if err != nil {
			return nil, err
		}
		for _, m := range list {
			out = AppendMeasure(out, m)
		}
		return out, nil
	}
	for _, part := range strings.Split(s, ",") {
		m, err := ParseMeasure(part)
		if err != nil {
			return nil, err
		}
		out = AppendMeasure(out, m)
	}
	return out, nil
}

// AppendMeasure appends m to list unless list already has the same
// measure: map or map@K with the same TopN, or a family or trec_eval
// measure with the same name.
func AppendMeasure(list []Measure, m Measure) []Measure {
	for _, x := range list {
		if (m.isMAP() && x.isMAP() && x.TopN == m.TopN) || (!m.isMAP() && !x.isMAP() && x.Name == m.Name) {
			return list
		}
	}
	return append(list, m)
}

// index returns the index in list of map (topn metric.NoTopN) or map@topn,
// or -1.
func index(list []Measure, topn int) int {
	for i, x := range list {
		if x.isMAP() && x.TopN == topn {
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

// ValueDType returns the dtype m's values are computed in under a plan of
// dtype d: d, but float64 for trec_eval's measures, as trec_eval's doubles.
func (m Measure) ValueDType(d metric.DType) metric.DType {
	if m.IsTrecEval() {
		return metric.Float64
	}
	return d
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
