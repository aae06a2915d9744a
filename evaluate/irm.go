package evaluate

import (
	"fmt"
	"math"
	"sort"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/irm"
	"github.com/rankmetrics/rankmetrics/runio"
)

// This file is the seam between the engine and metric/irm: the measures
// of ir_measures whose provider is not pytrec_eval (Judged@K, RR@K,
// ERR@K...), each a per-query function of the query as ir_measures reads
// it (irm.Query).

// irmEval is the metric/irm part of one Plan: the plan index of each
// provider measure and its computation.
type irmEval struct {
	refs  []int
	calcs []irm.Measure
	sum   []bool // per provider measure, whether its summary is a sum
	name  string // the first such measure, to name in messages
	// subtopics holds each query's subtopic qrels when a measure reads
	// them.
	subtopics map[string][]irm.SubtopicJudgment
}

// newIRMEval returns the metric/irm part of the engine for specs, or nil
// when none of them is a provider measure.
func newIRMEval(specs []Measure, runOnly Policy, sub *runio.SubtopicQrels) (*irmEval, error) {
	var t irmEval
	for s, m := range specs {
		if m.IR == nil || m.IR.Calc == nil {
			continue
		}
		if r, ok := m.IR.Calc.(irm.SubtopicReader); ok && r.ReadsSubtopics() && t.subtopics == nil {
			if sub == nil {
				return nil, fmt.Errorf("evaluate: measure %q reads subtopic qrels (qid subtopic docno rel; Options.SubtopicQrels), and none were given", m.Name)
			}
			t.subtopics = make(map[string][]irm.SubtopicJudgment, len(sub.Topics))
			for qid, js := range sub.Topics {
				out := make([]irm.SubtopicJudgment, len(js))
				for i, j := range js {
					out[i] = irm.SubtopicJudgment{Subtopic: j.Subtopic, Docno: j.Doc, Rel: j.Rel}
				}
				t.subtopics[qid] = out
			}
		}
		if runOnly == Keep {
			return nil, fmt.Errorf("evaluate: measure %q: ir_measures evaluates no query without judgments; run-only queries cannot be kept (drop --run-only keep)", m.Name)
		}
		if t.name == "" {
			t.name = m.Name
		}
		t.refs = append(t.refs, s)
		t.calcs = append(t.calcs, m.IR.Calc)
		t.sum = append(t.sum, m.IR.Sum)
	}
	if t.refs == nil {
		return nil, nil
	}
	return &t, nil
}

// irmBatch holds one batch's queries as ir_measures reads them.
type irmBatch struct {
	qs      []irm.Query
	vals    [][]float64 // per provider measure, its value per query
	weights [][]float64 // per provider measure, 1 per query with a value, 0 without
	pos     []int32     // the qrels positions of the query being added
}

// byPos sorts judgments by their positions in the qrels.
type byPos struct {
	pos []int32
	j   []irm.Judgment
}

func (b byPos) Len() int           { return len(b.pos) }
func (b byPos) Less(i, k int) bool { return b.pos[i] < b.pos[k] }
func (b byPos) Swap(i, k int) {
	b.pos[i], b.pos[k] = b.pos[k], b.pos[i]
	b.j[i], b.j[k] = b.j[k], b.j[i]
}

// add appends query q as ir_measures reads it: its run lines in file
// order, and its judgments.
func (t *irmEval) add(j *Batch, q *runio.Query) error {
	if j.irm == nil {
		j.irm = &irmBatch{}
	}
	ib := j.irm
	if len(j.qids) == 1 {
		ib.qs = ib.qs[:0]
	}
	if len(q.Docs) != len(q.Scores) || len(q.UnrankedDocs) != len(q.UnrankedLabels) {
		return fmt.Errorf("query %q (line %d): measure %s: %w: add a document id column (named doc, or --doc-col NAME; headerless TSV/CSV: --columns qid,doc,label,score), or use TF-Ranking's measures (precision@10, ndcg@10, mrr...)", q.QID, q.Line, t.name, ErrNoDocIDs)
	}
	if len(ib.qs) < cap(ib.qs) {
		ib.qs = ib.qs[:len(ib.qs)+1]
	} else {
		ib.qs = append(ib.qs, irm.Query{})
	}
	iq := &ib.qs[len(ib.qs)-1]
	iq.Reset(q.QID)
	if t.subtopics != nil {
		iq.Subtopics = t.subtopics[q.QID]
		if iq.Subtopics == nil {
			// A query the subtopic qrels do not judge: no relevant
			// subtopic, every measure 0 (nNRBP 0/0).
			iq.Subtopics = []irm.SubtopicJudgment{}
		}
	}
	label := func(doc string, l float64) error {
		if l != math.Trunc(l) || math.Abs(l) > 1<<30 {
			return fmt.Errorf("query %q (line %d): document %q: label %v: measure %s is ir_measures', whose judgments are integers; give integer labels, or use TF-Ranking's measures", q.QID, q.Line, doc, l, t.name)
		}
		iq.Qrels = append(iq.Qrels, irm.Judgment{Docno: doc, Rel: int64(l)})
		return nil
	}
	trec := len(q.Unjudged) == len(q.Docs) && len(q.Docs) > 0
	if q.Match != runio.MatchQrelsOnly {
		for i, d := range q.Docs {
			iq.Run = append(iq.Run, irm.Doc{Docno: d, Score: q.Scores[i]})
			if trec && q.Unjudged[i] {
				continue
			}
			if err := label(d, q.Labels[i]); err != nil {
				return err
			}
		}
	}
	for i, d := range q.UnrankedDocs {
		if err := label(d, q.UnrankedLabels[i]); err != nil {
			return err
		}
	}
	if pos := q.QrelsPos; len(pos) == len(q.Docs)+len(q.UnrankedDocs) && len(pos) > 0 {
		// The judgments in qrels order, as ir_measures reads them.
		ib.pos = ib.pos[:0]
		for i, p := range pos {
			if p >= 0 && (i >= len(q.Docs) || q.Match != runio.MatchQrelsOnly) {
				ib.pos = append(ib.pos, p)
			}
		}
		if len(ib.pos) == len(iq.Qrels) {
			sort.Sort(byPos{ib.pos, iq.Qrels})
		}
	}
	if len(iq.Qrels) == 0 {
		return fmt.Errorf("query %q (line %d): measure %s: the query has no judgment, and ir_measures evaluates no such query", q.QID, q.Line, t.name)
	}
	return nil
}

// compute sets the per-query values of the provider measures in j.all.
func (t *irmEval) compute(j *Batch) error {
	ib := j.irm
	if len(ib.vals) < len(t.refs) {
		ib.vals = make([][]float64, len(t.refs))
		ib.weights = make([][]float64, len(t.refs))
	}
	for k, c := range t.calcs {
		vals, ws := ib.vals[k][:0], ib.weights[k][:0]
		weighted := false
		for i := range ib.qs {
			v, ok, err := c.Value(&ib.qs[i])
			if err != nil {
				return fmt.Errorf("measure %s: %w", j.p.specs[t.refs[k]].Name, err)
			}
			w := 1.0
			if !ok {
				v, w, weighted = 0, 0, true
			}
			vals, ws = append(vals, v), append(ws, w)
		}
		ib.vals[k], ib.weights[k] = vals, ws
		pl := metric.PerList{Values: vals}
		if weighted {
			pl.Weights = ws
		}
		j.all[t.refs[k]] = pl
	}
	return nil
}

// finalExact sets the summary value of each provider measure: the
// correctly rounded mean of its per-query values (NaN, as ir_measures'
// mean of no value, when no query has one: Accuracy), or their exact sum
// rounded once for a measure whose summary is a sum.
func (t *irmEval) finalExact(exact []metric.ExactTotals, values []float64) {
	for k, s := range t.refs {
		st := exact[s].State(metric.Config{})
		switch {
		case t.sum[k]:
			values[s] = st.Total
		case st.Count == 0:
			values[s] = math.NaN()
		default:
			values[s] = exact[s].ResultIn(metric.Float64)
		}
	}
}
