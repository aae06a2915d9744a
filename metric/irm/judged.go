package irm

// Judged is the judged provider's Judged@K: the share of the top K
// documents (ties by docno ascending) that the qrels judge, at any label.
// When the run ranks fewer than K documents, the share is of those it
// ranks; without a cutoff (K 0), of every document it ranks.
type Judged struct {
	// K is the cutoff; 0 for none.
	K int
}

// Value returns q's judged share; a query the run lacks scores 0,
// ir_measures' default.
func (m Judged) Value(q *Query) (float64, bool, error) {
	if len(q.Run) == 0 || len(q.Qrels) == 0 {
		return 0, true, nil
	}
	j := judgedMap(q)
	run := q.Ranked(DocnoAsc, true)
	k := m.K
	if k == 0 || k > len(run) {
		k = len(run)
	}
	n := 0
	for _, d := range run[:k] {
		if _, ok := j[d.Docno]; ok {
			n++
		}
	}
	return float64(n) / float64(k), true, nil
}
