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
