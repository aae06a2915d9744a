package treceval

import (
	"fmt"
	"strconv"
	"strings"
)

// ValueSpec returns the -m specification under which version v computes
// the value named name, as trec_eval prints it: "P_10" gives "P.10",
// "ndcg_cut_5" "ndcg_cut.5", "iprec_at_recall_0.50"
// "iprec_at_recall.0.50", "success_1" "success.1", and a measure without
// cutoffs ("ndcg", "bpref", "recip_rank", "utility") its own name with
// its default parameters. Names of the nicknames (official, all_trec,
// set), of several values at once ("P") and of values trec_eval prints in
// the summary only (num_q, gm_map, gm_bpref, runid) or not as a number
// (relstring) are refused with ErrIllegalMeasure.
func ValueSpec(name string, v Version) (string, error) {
	for _, d := range measureDefs {
		if d.v10 && v != V10 {
			continue
		}
		switch d.params {
		case longCuts, doubleCuts:
			rest, ok := strings.CutPrefix(name, d.name+"_")
			if !ok || rest == "" {
				continue
			}
			spec := d.name + "." + rest
			if d.params == longCuts {
				if n, err := strconv.ParseInt(rest, 10, 64); err != nil || n < 1 || strconv.FormatInt(n, 10) != rest {
					continue
				}
			}
			if e, err := NewEvaluator(DefaultConfig(v), []string{spec}); err == nil && len(e.Names()) == 1 && e.Names()[0] == name {
				return spec, nil
			}
		default:
			if name == d.name && d.perTopic() {
				return name, nil
			}
		}
	}
	return "", fmt.Errorf("%w %q: not a value trec_eval %s prints per topic (a name as trec_eval -q prints it: P_10, ndcg_cut_10, recip_rank, bpref, iprec_at_recall_0.50...)", ErrIllegalMeasure, name, v)
}

// perTopic reports whether the measure prints a number per topic.
func (d *measureDef) perTopic() bool { return d.print == prDouble || d.print == prLong }

// IsTopicValue reports whether value i (an index into Names) is printed
// per topic as a number by trec_eval -q: false for the summary-only
// values (num_q, gm_map, gm_bpref, runid) and for relstring.
func (e *Evaluator) IsTopicValue(i int) bool {
	for _, m := range e.ms {
		if i >= m.off && i < m.off+len(m.names) {
			return m.def.perTopic()
		}
	}
	return false
}

// Evaluator returns the Evaluator whose values s adds up.
func (s *Summary) Evaluator() *Evaluator { return s.e }

// ParamKind says what parameters a trec_eval measure takes after its name
// and a dot in -m.
type ParamKind int

const (
	// NoParams: none; one value named after the measure (recip_rank).
	NoParams ParamKind = iota
	// Cutoffs: integer cutoffs, one value each, named name_K (P.5,10
	// gives P_5 and P_10).
	Cutoffs
	// RealCutoffs: real cutoffs, one value each, named name_%3.2f
	// (iprec_at_recall.0.5 gives iprec_at_recall_0.50).
	RealCutoffs
	// RealParams: a list of reals, one value (utility.1,-1,0,0).
	RealParams
	// GainPairs: level=gain pairs, one value (ndcg.0=0,1=1,2=3).
	GainPairs
)

// SummaryKind says how a measure's per-topic values make the value
// trec_eval prints for "all".
type SummaryKind int

const (
	// SummaryMean is the arithmetic mean over the topics evaluated.
	SummaryMean SummaryKind = iota
	// SummarySum is the sum over the topics (num_ret, num_rel_ret...).
	SummarySum
	// SummaryGeoMean is the geometric mean (gm_map, gm_bpref).
	SummaryGeoMean
	// SummaryCount is the number of topics (num_q).
	SummaryCount
	// SummaryNone: no summary value (relstring, runid).
	SummaryNone
)

// MeasureInfo describes one trec_eval measure as -m names it.
type MeasureInfo struct {
	// Name is the measure's -m name (P, ndcg_cut, recip_rank).
	Name string
	// V10Only is set for the measures trec_eval 9.0.8 does not have.
	V10Only bool
	// Params is what the measure takes after a dot.
	Params ParamKind
	// PerTopic reports whether trec_eval -q prints a number per topic.
	PerTopic bool
	// Summary is how the "all" value is formed.
	Summary SummaryKind
	// Integer reports whether the values print as integers (counts).
	Integer bool
}

// Measures returns every trec_eval measure, in trec_eval's output order.
func Measures() []MeasureInfo {
	out := make([]MeasureInfo, len(measureDefs))
	for i, d := range measureDefs {
		m := MeasureInfo{Name: d.name, V10Only: d.v10, PerTopic: d.perTopic(),
			Integer: d.print == prLong || d.print == prSummaryLong}
		switch d.params {
		case longCuts:
			m.Params = Cutoffs
		case doubleCuts:
			m.Params = RealCutoffs
		case doubleParams:
			m.Params = RealParams
		case pairParams:
			m.Params = GainPairs
		}
		switch d.avg {
		case avgSum, avgNumRel:
			m.Summary = SummarySum
		case avgGeo:
			m.Summary = SummaryGeoMean
		case avgNumQ:
			m.Summary = SummaryCount
		case avgNone:
			m.Summary = SummaryNone
		}
		if d.print == prRunid {
			m.Summary = SummaryNone
		}
		out[i] = m
	}
	return out
}
