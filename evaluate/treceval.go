package evaluate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/measure"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// This file is the seam between the engine and metric/treceval: the one
// place where the per-query value of a trec_eval measure (named in the
// registry, package measure) is computed (trecEval.compute), by the same
// code as "rankmetrics trec_eval".

// trecRef locates one engine measure among the trec_eval evaluators, and
// says how trec_eval summarises it.
type trecRef struct {
	ev, val int
	summary summaryKind
	// ir is set for a measure of ir_measures: a judged query the run
	// lacks scores 0 (ir_measures' default value), and NumQ is 1 per
	// query the run ranks.
	ir *measure.IRSpec
}

// summaryKind is how trec_eval makes a value's summary from the sum of its
// per-query values.
type summaryKind int

const (
	summaryMean  summaryKind = iota // the sum over the number of queries
	summarySum                      // the sum: num_ret, num_rel, num_rel_ret...
	summaryOther                    // another function of the sum (gm_map's geometric mean)
)

// summaryOf returns how ev summarises its value val, from what its
// summary makes of a sum of 1 over 2 queries: 1/2 for a mean, 1 for a sum.
// metric/treceval keeps the rule per measure; this reads it without
// duplicating its table.
func summaryOf(ev *treceval.Evaluator, val int) summaryKind {
	sums := make([]float64, ev.NumValues())
	sums[val] = 1
	switch ev.SummaryOf(sums, 2).Final(0, 0)[val] {
	case 0.5:
		return summaryMean
	case 1:
		return summarySum
	}
	return summaryOther
}

// trecEval is the trec_eval part of one Run.
type trecEval struct {
	cfg   treceval.Config
	cfgs  []treceval.Config // the configuration of each evaluator
	irEv  []bool            // whether each evaluator computes an ir_measures measure
	gains []map[int64]int64 // per evaluator, the labels' map of nDCG(gains=...), or nil
	specs [][]string        // the -m specifications of each evaluator
	refs  map[int]trecRef   // plan measure index -> its value
	evs   []*treceval.Evaluator
	name  string // the first trec_eval measure, to name in messages
}

// newTrecEval returns the trec_eval part of the engine for specs, or nil
// when none of them is a trec_eval measure. It groups the measures into
// as few evaluators as trec_eval's -m allows, in time linear in their
// number: one evaluator takes every measure without parameters, with its
// default parameters or with cutoffs (the cutoffs of one measure joined:
// P_5 and P_10 give P.5,10); a measure with other parameters (ndcg.1=2,
// utility.1,0,0,-1) takes an evaluator of its own, since trec_eval reads
// one set of parameters per measure. A measure of ir_measures takes an
// evaluator of its own too, under its own settings (relevance level,
// judged documents only, trec_eval 9.0.8 as pytrec_eval).
func newTrecEval(specs []Measure, version treceval.Version, runOnly Policy) (*trecEval, error) {
	t := &trecEval{cfg: treceval.DefaultConfig(version), refs: map[int]trecRef{}}
	var (
		shared   []string            // the specifications of the shared evaluator
		cuts     = map[string]int{}  // measure with cutoffs -> its index in shared
		named    = map[string]bool{} // value names already in shared
		inShared = map[string]bool{}
		own      = map[string]int{} // specification -> its own group
		groups   = [][]string{nil}
	)
	for _, m := range specs {
		if !m.IsTrecEval() {
			continue
		}
		if runOnly == Keep {
			return nil, fmt.Errorf("evaluate: measure %q: trec_eval evaluates no query without judgments; run-only queries cannot be kept (drop --run-only keep, or use a TF-Ranking measure)", m.Name)
		}
		if t.name == "" {
			t.name = m.Name
		}
		if m.IR != nil {
			continue
		}
		base, _, hasPar := strings.Cut(m.TrecEval, ".")
		d := m.Def()
		switch {
		case d != nil && d.Cutoff && hasPar:
			cut, ok := strings.CutPrefix(m.Name, base+"_")
			if !ok || cut == "" {
				if _, dup := own[m.TrecEval]; !dup {
					own[m.TrecEval] = len(groups)
					groups = append(groups, []string{m.TrecEval})
				}
				continue
			}
			if named[m.Name] {
				continue
			}
			named[m.Name] = true
			if i, ok := cuts[base]; ok {
				shared[i] += "," + cut
			} else {
				cuts[base] = len(shared)
				shared = append(shared, base+"."+cut)
			}
		case !hasPar:
			if !inShared[m.TrecEval] {
				inShared[m.TrecEval] = true
				shared = append(shared, m.TrecEval)
			}
		default:
			if _, dup := own[m.TrecEval]; !dup {
				own[m.TrecEval] = len(groups)
				groups = append(groups, []string{m.TrecEval})
			}
		}
	}
	if t.name == "" {
		return nil, nil
	}
	groups[0] = shared
	if len(shared) == 0 {
		groups = groups[1:]
		for k := range own {
			own[k]--
		}
	}
	t.cfgs = make([]treceval.Config, len(groups))
	t.irEv = make([]bool, len(groups))
	for i := range t.cfgs {
		t.cfgs[i] = t.cfg
	}
	irGroup := map[int]int{}
	for s, m := range specs {
		if m.IR != nil && m.IsTrecEval() {
			irGroup[s] = len(groups)
			groups = append(groups, []string{m.TrecEval})
			t.cfgs = append(t.cfgs, m.IR.TrecConfig())
			t.irEv = append(t.irEv, true)
			for len(t.gains) < len(t.cfgs)-1 {
				t.gains = append(t.gains, nil)
			}
			t.gains = append(t.gains, m.IR.Gains)
		}
	}
	return t, t.build(specs, groups, own, irGroup)
}

// build makes one evaluator per group and locates each measure's value:
// in its own group, or in the shared one (group 0); an ir_measures
// measure, in its group of irGroup, is the one value of its evaluator.
func (t *trecEval) build(specs []Measure, groups [][]string, own map[string]int, irGroup map[int]int) error {
	for i, g := range groups {
		ev, err := treceval.NewEvaluator(t.cfgs[i], g)
		if err != nil {
			for _, spec := range g {
				if _, err1 := treceval.NewEvaluator(t.cfgs[i], []string{spec}); err1 != nil {
					return fmt.Errorf("evaluate: measure %q: %w", spec, err1)
				}
			}
			return fmt.Errorf("evaluate: trec_eval measures %s: %w", strings.Join(g, " "), err)
		}
		t.specs = append(t.specs, g)
		t.evs = append(t.evs, ev)
	}
	index := make([]map[string]int, len(t.evs))
	for s, m := range specs {
		if !m.IsTrecEval() {
			continue
		}
		if m.IR != nil {
			r := trecRef{ev: irGroup[s], summary: summaryMean, ir: m.IR}
			if m.IR.Sum {
				r.summary = summarySum
			}
			t.refs[s] = r
			continue
		}
		k, ok := own[m.TrecEval]
		if !ok {
			k = 0
		}
		if index[k] == nil {
			index[k] = make(map[string]int, t.evs[k].NumValues())
			for i, n := range t.evs[k].Names() {
				if _, dup := index[k][n]; !dup {
					index[k][n] = i
				}
			}
		}
		v, ok := index[k][m.Name]
		if !ok {
			return fmt.Errorf("evaluate: measure %q: not a value of trec_eval's %q", m.Name, m.TrecEval)
		}
		t.refs[s] = trecRef{ev: k, val: v, summary: summaryOf(t.evs[k], v)}
	}
	return nil
}

// trecBatch holds one batch's queries as trec_eval sees them, and their
// values.
type trecBatch struct {
	evs     []*treceval.Evaluator
	docs    []treceval.Doc
	judged  []treceval.Judgment
	dEnd    []int
	jEnd    []int
	missing []bool
	mapped  []treceval.Judgment // a query's judgments under an evaluator's gains
	vals    [][]float64         // per evaluator, every value of every query
	per     map[int][]float64   // per plan measure, its value per query
	tv      treceval.TopicValues
}

func (tj *trecBatch) reset() {
	tj.docs, tj.judged = tj.docs[:0], tj.judged[:0]
	tj.dEnd, tj.jEnd, tj.missing = tj.dEnd[:0], tj.jEnd[:0], tj.missing[:0]
}

// ErrNoDocIDs reports a trec_eval measure on an input without document
// ids.
var ErrNoDocIDs = errors.New("trec_eval's measures break score ties by document id, and this input has none")

// add appends query q: its ranked documents, and its judgments (the
// labels of the ranked documents the qrels judge, and of the judged
// documents the run missed).
func (t *trecEval) add(j *Batch, q *runio.Query) error {
	name := t.name
	if j.trec == nil {
		j.trec = &trecBatch{}
	}
	tj := j.trec
	if len(j.qids) == 1 {
		tj.reset()
	}
	if len(q.Docs) != len(q.Scores) || len(q.UnrankedDocs) != len(q.UnrankedLabels) {
		return fmt.Errorf("query %q (line %d): measure %s: %w: add a document id column (named doc, or --doc-col NAME; headerless TSV/CSV: --columns qid,doc,label,score), or use TF-Ranking's measures (precision@10, ndcg@10, mrr...)", q.QID, q.Line, name, ErrNoDocIDs)
	}
	trec := len(q.Unjudged) == len(q.Docs) && len(q.Docs) > 0
	start := len(tj.judged)
	label := func(doc string, l float64) error {
		if l != math.Trunc(l) || math.Abs(l) > 1<<30 {
			return fmt.Errorf("query %q (line %d): document %q: label %v: measure %s is trec_eval's, whose judgments are integers (trec_eval reads them as C's atol); give integer labels, or use TF-Ranking's measures", q.QID, q.Line, doc, l, name)
		}
		tj.judged = append(tj.judged, treceval.Judgment{Docno: doc, Rel: int64(l)})
		return nil
	}
	for i, d := range q.Docs {
		tj.docs = append(tj.docs, treceval.Doc{Docno: d, Score: q.Scores[i]})
		if trec && q.Unjudged[i] {
			continue
		}
		if err := label(d, q.Labels[i]); err != nil {
			return err
		}
	}
	for i, d := range q.UnrankedDocs {
		if err := label(d, q.UnrankedLabels[i]); err != nil {
			return err
		}
	}
	jd := tj.judged[start:]
	if len(jd) == 0 {
		return fmt.Errorf("query %q (line %d): measure %s: the query has no judgment, and trec_eval evaluates no such query", q.QID, q.Line, name)
	}
	if !slices.ContainsFunc(jd, func(x treceval.Judgment) bool { return x.Rel >= 0 }) {
		return fmt.Errorf("query %q (line %d): measure %s: every judgment of the query is negative: trec_eval then reuses the judgment levels of the topic it evaluated before (and fails on the first topic), so its values depend on the other topics; eval refuses such a query: drop it, or use rankmetrics trec_eval", q.QID, q.Line, name)
	}
	slices.SortFunc(jd, func(a, b treceval.Judgment) int { return strings.Compare(a.Docno, b.Docno) })
	tj.dEnd = append(tj.dEnd, len(tj.docs))
	tj.jEnd = append(tj.jEnd, len(tj.judged))
	tj.missing = append(tj.missing, q.Match == runio.MatchQrelsOnly)
	return nil
}

// compute evaluates every query of j with every evaluator and sets the
// per-query values of the trec_eval measures in j.all.
func (t *trecEval) compute(j *Batch) error {
	tj := j.trec
	if len(tj.evs) < len(t.specs) {
		tj.evs = make([]*treceval.Evaluator, len(t.specs))
		tj.vals = make([][]float64, len(t.specs))
		tj.per = map[int][]float64{}
	}
	for k, spec := range t.specs {
		ev := tj.evs[k]
		if ev == nil {
			var err error
			if ev, err = treceval.NewEvaluator(t.cfgs[k], spec); err != nil {
				return err
			}
			tj.evs[k] = ev
		}
		tj.vals[k] = tj.vals[k][:0]
		d0, j0 := 0, 0
		for i, qid := range j.qids {
			docs, judged := tj.docs[d0:tj.dEnd[i]], tj.judged[j0:tj.jEnd[i]]
			d0, j0 = tj.dEnd[i], tj.jEnd[i]
			if k < len(t.gains) && t.gains[k] != nil {
				// ir_measures maps the qrels' labels before pytrec_eval
				// reads them.
				tj.mapped = append(tj.mapped[:0], judged...)
				for x := range tj.mapped {
					if g, ok := t.gains[k][tj.mapped[x].Rel]; ok {
						tj.mapped[x].Rel = g
					}
				}
				judged = tj.mapped
			}
			var err error
			switch {
			case !tj.missing[i]:
				err = ev.Evaluate(qid, judged, docs, &tj.tv)
			case t.irEv[k]:
				// ir_measures gives a judged query the run lacks its
				// default value, 0.
				tj.tv.V = slices.Grow(tj.tv.V[:0], ev.NumValues())[:ev.NumValues()]
				clear(tj.tv.V)
			case t.cfgs[k].Version == treceval.V10:
				// trec_eval 10.0 -c scores a judged topic the run lacks.
				err = ev.EvaluateMissing(qid, judged, &tj.tv)
			default:
				// trec_eval 9.0.8 -c counts it with 0 in every average
				// and its relevant documents in num_rel.
				missing908(ev, judged, &tj.tv)
			}
			if err != nil {
				return fmt.Errorf("query %q: %w", qid, err)
			}
			tj.vals[k] = append(tj.vals[k], tj.tv.V...)
		}
	}
	for s, r := range t.refs {
		n := t.evs[r.ev].NumValues()
		v := tj.per[s][:0]
		for i := range j.qids {
			x := tj.vals[r.ev][i*n+r.val]
			if r.ir != nil && r.ir.Count {
				x = 1
				if tj.missing[i] {
					x = 0
				}
			}
			v = append(v, x)
		}
		tj.per[s] = v
		j.all[s] = metric.PerList{Values: v}
	}
	return nil
}

// missing908 sets tv to the contribution trec_eval 9.0.8 -c gives a
// judged topic absent from the run: 0, and its relevant documents in
// num_rel.
func missing908(ev *treceval.Evaluator, judged []treceval.Judgment, tv *treceval.TopicValues) {
	tv.V = slices.Grow(tv.V[:0], ev.NumValues())[:ev.NumValues()]
	clear(tv.V)
	for i, n := range ev.Names() {
		if n != "num_rel" {
			continue
		}
		for _, x := range judged {
			if x.Rel >= ev.Config().RelLevel {
				tv.V[i]++
			}
		}
	}
}

// finalExact sets the summary values of the trec_eval measures from the
// exact sums of their per-query values (weight 1 each): a mean is the
// exact sum over the number of queries rounded once, as one correctly
// rounded division; a count is the exact sum rounded once; another
// summary (a geometric mean) is trec_eval's of the sum rounded once.
func (t *trecEval) finalExact(exact []metric.ExactTotals, values []float64) {
	for s, r := range t.refs {
		switch r.summary {
		case summaryMean:
			values[s] = exact[s].ResultIn(metric.Float64)
		case summarySum:
			values[s] = exact[s].State(metric.Config{}).Total
		default:
			ev := t.evs[r.ev]
			st := exact[s].State(metric.Config{})
			sums := make([]float64, ev.NumValues())
			sums[r.val] = st.Total
			values[s] = ev.SummaryOf(sums, int64(st.Count)).Final(0, 0)[r.val]
		}
	}
}
