package metric

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseTrecEvalMeasure returns the settings of the family metric that
// computes trec_eval's measure name, named by it: "map" and "map_cut_k"
// (MAP under the TrecEval convention), "ndcg" and "ndcg_cut_k" (NDCG with
// the identity gain), "recip_rank" (MRR), "P_k" (precision at k) and
// "recall_k". trec_eval breaks ties by descending document id: give the
// items in that order and use the Stable policy, which the settings set;
// give the judged documents a run missed with weight 0, which only the
// TrecEval convention counts. trec_eval's ndcg also puts missed relevant
// documents in its ideal order, and its P_k divides by k even when fewer
// than k documents were retrieved; these settings do neither.
func ParseTrecEvalMeasure(name string) (Settings, error) {
	base, cut, hasCut := name, "", false
	for _, p := range []string{"map_cut_", "ndcg_cut_", "P_", "recall_"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			base, cut, hasCut = strings.TrimSuffix(p, "_"), rest, true
			break
		}
	}
	var s Settings
	switch base {
	case "map", "map_cut":
		s = DefaultSettings(KindMAP)
		s.Convention = TrecEval
	case "ndcg", "ndcg_cut":
		s = DefaultSettings(KindNDCG)
		s.Gain = IdentityGain()
	case "recip_rank":
		s = DefaultSettings(KindMRR)
	case "P":
		s = DefaultSettings(KindPrecision)
	case "recall":
		s = DefaultSettings(KindRecall)
	default:
		return s, fmt.Errorf("metric: %q is not a trec_eval measure this package computes (map, map_cut_k, ndcg, ndcg_cut_k, recip_rank, P_k, recall_k): %w", name, ErrConfig)
	}
	if hasCut {
		k, err := strconv.Atoi(cut)
		if err != nil || k < 1 {
			return s, fmt.Errorf("metric: %q: the cutoff must be an integer >= 1: %w", name, ErrConfig)
		}
		s.TopN = k
	} else if base == "map_cut" || base == "ndcg_cut" {
		return s, fmt.Errorf("metric: %q needs a cutoff, as in %s_10: %w", name, base, ErrConfig)
	}
	s.Name, s.Ties = name, Stable
	return s, s.Validate()
}
