package irm

// MSMarcoRR is the msmarco provider's RR: the reciprocal rank of the
// first document labelled Rel or more within the top K (ties by docno
// ascending), 0 when there is none; K 0 for no cutoff.
type MSMarcoRR struct {
	K   int
	Rel int64
}

// Value returns q's reciprocal rank; 0 for a query the run lacks or
// without a document labelled Rel or more (ir_measures' default).
func (m MSMarcoRR) Value(q *Query) (float64, bool, error) {
	rel := map[string]bool{}
	for _, j := range q.Qrels {
		if j.Rel >= m.Rel {
			rel[j.Docno] = true
		}
	}
	if len(rel) == 0 || len(q.Run) == 0 {
		return 0, true, nil
	}
	run := q.Ranked(DocnoAsc, true)
	if m.K > 0 && m.K < len(run) {
		run = run[:m.K]
	}
	for i, d := range run {
		if rel[d.Docno] {
			return 1 / float64(i+1), true, nil
		}
	}
	return 0, true, nil
}
