package irm

import "slices"

// Compat is the compat provider's compatibility (Clarke, Vtyurina and
// Smucker, TOIS 2021): the rank-biased overlap, persistence P, of the
// run's ranking (ties by docno ascending) with an ideal ranking of the
// positively judged documents (by label, then by run score, an unranked
// document scoring 0, then in qrels order), both taken to the depth of
// the longer; with Normalize, over the same overlap of the ideal ranking
// with itself (when that is positive).
type Compat struct {
	P         float64
	Normalize bool
}

// Value returns q's compatibility; 0 for a query the run lacks.
func (m Compat) Value(q *Query) (float64, bool, error) {
	if len(q.Run) == 0 {
		return 0, true, nil
	}
	run := q.Ranked(DocnoAsc, true)
	score := make(map[string]float64, len(run))
	for _, d := range run {
		score[d.Docno] = d.Score
	}
	// The positive judgments, one per docno (the last label, at the
	// place of the first line, as a dictionary of the qrels).
	label := make(map[string]int64, len(q.Qrels))
	var ideal []string
	for _, j := range q.Qrels {
		if _, dup := label[j.Docno]; !dup {
			ideal = append(ideal, j.Docno)
		}
		label[j.Docno] = j.Rel
	}
	ideal = slices.DeleteFunc(ideal, func(d string) bool { return label[d] <= 0 })
	slices.SortStableFunc(ideal, func(a, b string) int {
		if la, lb := label[a], label[b]; la != lb {
			if la > lb {
				return -1
			}
			return 1
		}
		sa, sb := score[a], score[b]
		switch {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	ranking := make([]string, len(run))
	for i, d := range run {
		ranking[i] = d.Docno
	}
	depth := max(len(ranking), len(ideal))
	v := rbo(ranking, ideal, m.P, depth)
	if m.Normalize {
		if best := rbo(ideal, ideal, m.P, depth); best > 0 {
			v = rbo(ranking, ideal, m.P, depth) / best
		}
	}
	return v, true, nil
}

// rbo is the compat provider's rank-biased overlap of two rankings to
// depth: the mean, weighted p^i, of the overlap of their first i+1
// documents over i+1.
func rbo(a, b []string, p float64, depth int) float64 {
	inA := make(map[string]bool, len(a))
	inB := make(map[string]bool, len(b))
	overlap := 0
	score, norm, w := 0.0, 0.0, 1.0
	for i := range depth {
		if i < len(a) {
			inA[a[i]] = true
			if inB[a[i]] {
				overlap++
			}
		}
		if i < len(b) && !inB[b[i]] {
			inB[b[i]] = true
			if inA[b[i]] {
				overlap++
			}
		}
		// Each product and quotient rounded as Python rounds it.
		t := float64(w * float64(overlap))
		score += float64(t / float64(i+1))
		norm += w
		w = float64(w * p)
	}
	return score / norm
}
