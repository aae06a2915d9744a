package cwl

import "github.com/rankmetrics/rankmetrics/metric/irm"

// Value returns q's value as ir_measures' cwl_eval provider gives it:
// the run's lines ranked by score, ties in file order, every line kept (a
// docno twice is scored twice, as cwl_eval reads the lines), each with
// the gain of its label (the last qrels line of a docno) or 0 unjudged.
// A query the run lacks scores 0, ir_measures' default. It makes s an
// irm.Measure.
func (s *Scorer) Value(q *irm.Query) (float64, bool, error) {
	if len(q.Run) == 0 {
		return 0, true, nil
	}
	labels := q.Labels()
	run := q.Ranked(irm.FileOrder, false)
	gains := make([]float64, min(len(run), Depth))
	for i := range gains {
		if l, ok := labels[run[i].Docno]; ok {
			gains[i] = s.m.Gain(l)
		}
	}
	return s.Score(gains), true, nil
}

var _ irm.Measure = (*Scorer)(nil)
