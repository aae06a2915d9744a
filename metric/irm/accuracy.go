package irm

import "fmt"

// Accuracy is the accuracy provider's Accuracy: within the top K (all the
// run's lines without K; ties in file order), the share of the pairs of a
// relevant document (labelled Rel or more; an unjudged one is labelled 0)
// and a non-relevant one in which the relevant one ranks first.
type Accuracy struct {
	K   int
	Rel int64
}

// Value returns q's accuracy. A query the run lacks, or without a
// relevant document in the top K, has no value (ok false: ir_measures
// reports none, not even the default 0). A query whose top K holds
// relevant documents but no non-relevant one is an error: there is no
// pair to count, and ir_measures stops there (it divides by zero).
func (m Accuracy) Value(q *Query) (float64, bool, error) {
	if len(q.Run) == 0 {
		return 0, false, nil
	}
	label := judgedMap(q)
	run := q.Ranked(FileOrder, false)
	if m.K > 0 && m.K < len(run) {
		run = run[:m.K]
	}
	// above sums, over the relevant documents, the non-relevant ones
	// ranked above each; nonrel counts the non-relevant ones.
	above, nonrel, rel := 0, 0, 0
	for _, d := range run {
		if label[d.Docno] >= m.Rel {
			above += nonrel
			rel++
		} else {
			nonrel++
		}
	}
	if rel == 0 {
		return 0, false, nil
	}
	if nonrel == 0 {
		return 0, false, fmt.Errorf("query %q: Accuracy is undefined: the top %d documents are all relevant (rel=%d), so there is no relevant/non-relevant pair (ir_measures' accuracy provider fails with a division by zero on this query); leave Accuracy out, or raise its cutoff or rel", q.QID, len(run), m.Rel)
	}
	return 1 - float64(above)/(float64(nonrel)*float64(rel)), true, nil
}
