package ndeval

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/metric/irm"
)

// Scorer computes one measure through the metric/irm interface, from a
// query's subtopic qrels (irm.Query.Subtopics). A Scorer is safe for
// concurrent use.
type Scorer struct {
	m        Measure
	discount [Depth]float64
}

// New returns the Scorer of m, or m's Validate error.
func New(m Measure) (*Scorer, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &Scorer{m: m, discount: discounts()}, nil
}

// ReadsSubtopics reports that the measure reads the subtopic qrels.
func (s *Scorer) ReadsSubtopics() bool { return true }

// Value returns q's value as ir_measures' pyndeval provider gives it:
// the run ranked by score, ties by docno ascending, against the query's
// subtopic qrels. A query the run lacks scores 0, ir_measures' default.
func (s *Scorer) Value(q *irm.Query) (float64, bool, error) {
	if q.Subtopics == nil {
		return 0, false, fmt.Errorf("query %q: %v reads subtopic qrels (qid subtopic docno rel), and none were given", q.QID, s.m.Kind)
	}
	if len(q.Run) == 0 {
		return 0, true, nil
	}
	// The measures of one setting share the topic and the values of the
	// ranking, as pyndeval computes them in one call.
	if q.Memo == nil {
		q.Memo = map[any]any{}
	}
	key := memoKey{s.m.Params}
	if v, ok := q.Memo[key].(Values); ok {
		return v.Get(s.m), true, nil
	}
	docs, ok := q.Memo[memoKey{}].([]string)
	if !ok {
		run := q.Ranked(irm.DocnoAsc, false)
		docs = make([]string, len(run))
		for i, d := range run {
			docs[i] = d.Docno
		}
		q.Memo[memoKey{}] = docs
	}
	js := make([]Judgment, len(q.Subtopics))
	for i, j := range q.Subtopics {
		js[i] = Judgment{Subtopic: j.Subtopic, Doc: j.Docno, Label: j.Rel}
	}
	v := newTopic(js, s.m.Params, &s.discount).Eval(docs)
	q.Memo[key] = v
	return v.Get(s.m), true, nil
}

// memoKey keys what a query's diversity measures share in irm.Query.Memo:
// the ranked docnos (the zero key) and the Values of each setting.
type memoKey struct {
	p Params
}

var (
	_ irm.Measure        = (*Scorer)(nil)
	_ irm.SubtopicReader = (*Scorer)(nil)
)
