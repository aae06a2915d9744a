package ndeval

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/metric/irm"
)

// Scorer computes one measure through the metric/irm interface, from a
// query's subtopic qrels (irm.Query.Subtopics). A Scorer is safe for
// concurrent use.
type Scorer struct {
	m Measure
}

// New returns the Scorer of m, or m's Validate error.
func New(m Measure) (*Scorer, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &Scorer{m: m}, nil
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
	js := make([]Judgment, len(q.Subtopics))
	for i, j := range q.Subtopics {
		js[i] = Judgment{Subtopic: j.Subtopic, Doc: j.Docno, Label: j.Rel}
	}
	run := irm.SortRun(q.Run, irm.DocnoAsc)
	docs := make([]string, len(run))
	for i, d := range run {
		docs[i] = d.Docno
	}
	return NewTopic(js, s.m.Params).Eval(docs).Get(s.m), true, nil
}

var (
	_ irm.Measure        = (*Scorer)(nil)
	_ irm.SubtopicReader = (*Scorer)(nil)
)
