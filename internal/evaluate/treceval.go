package evaluate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/internal/runio"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// This file is the seam between the engine and metric/treceval: the one
// place where a measure of kind trec_eval is parsed (parseTrecEval,
// ParseTrecEvalSpec) and the one place where its per-query value is
// computed (trecEval.compute), by the same code as "rankmetrics
// trec_eval".

// parseTrecEval returns the measure of a trec_eval value name ("P_10",
// "ndcg", "iprec_at_recall_0.50") or of a -m specification giving one
// value ("P.10"), and whether name is one of them.
func parseTrecEval(name string) (Measure, bool, error) {
	if spec, err := treceval.ValueSpec(name, treceval.V10); err == nil {
		return Measure{Name: name, TopN: metric.NoTopN, TrecEval: spec}, true, nil
	}
	list, ok, err := ParseTrecEvalSpec(name)
	if !ok || err != nil {
		return Measure{}, ok, err
	}
	if len(list) != 1 {
		return Measure{}, true, fmt.Errorf("measure %q gives %d values; give it as the whole value of one -m, as in -m %s", name, len(list), name)
	}
	return list[0], true, nil
}

// ParseTrecEvalSpec parses a trec_eval -m specification with parameters,
// "name.params" (P.5,10; ndcg_cut.3; iprec_at_recall.0.25,0.75;
// ndcg.1=1,2=3), into one measure per value it gives, named as trec_eval
// prints them (P_5, P_10). ok is false when s is not of that form with a
// trec_eval measure name before the dot.
func ParseTrecEvalSpec(s string) (list []Measure, ok bool, err error) {
	name, _, has := strings.Cut(s, ".")
	if !has || name == "official" || name == "all_trec" || name == "set" {
		return nil, false, nil
	}
	if _, err := treceval.NewEvaluator(treceval.DefaultConfig(treceval.V10), []string{name}); err != nil {
		return nil, false, nil
	}
	ev, err := treceval.NewEvaluator(treceval.DefaultConfig(treceval.V10), []string{s})
	if err != nil {
		return nil, true, fmt.Errorf("measure %q: %w", s, err)
	}
	for i, n := range ev.Names() {
		if !ev.IsTopicValue(i) {
			return nil, true, fmt.Errorf("measure %q: trec_eval prints %s in its summary only, without a per-query value; use rankmetrics trec_eval", s, n)
		}
		list = append(list, Measure{Name: n, TopN: metric.NoTopN, TrecEval: s})
	}
	return list, true, nil
}

// IsTrecEval reports whether m is computed by metric/treceval.
func (m Measure) IsTrecEval() bool { return m.TrecEval != "" }

// isMAP reports whether m is map or map@K.
func (m Measure) isMAP() bool { return m.Family == nil && m.TrecEval == "" }

// trecRef locates one engine measure among the trec_eval evaluators, and
// says how trec_eval summarises it.
type trecRef struct {
	ev, val int
	summary summaryKind
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
	specs [][]string      // the -m specifications of each evaluator
	refs  map[int]trecRef // plan measure index -> its value
	evs   []*treceval.Evaluator
	name  string // the first trec_eval measure, to name in messages
}

// newTrecEval returns the trec_eval part of the engine for specs, or nil
// when none of them is a trec_eval measure.
func newTrecEval(specs []Measure, version treceval.Version, runOnly Policy) (*trecEval, error) {
	t := &trecEval{cfg: treceval.DefaultConfig(version), refs: map[int]trecRef{}}
	var groups [][]string       // the -m specifications of each evaluator
	inGroup := map[string]int{} // specification -> its group
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
		if _, ok := inGroup[m.TrecEval]; ok {
			continue
		}
		one, err := treceval.NewEvaluator(t.cfg, []string{m.TrecEval})
		if err != nil {
			return nil, fmt.Errorf("evaluate: measure %q: %w", m.Name, err)
		}
		g := len(groups)
		for i := range groups {
			if merged, ok := t.merge(groups[i], m.TrecEval, one.Names()); ok {
				groups[i], g = merged, i
				break
			}
		}
		if g == len(groups) {
			groups = append(groups, []string{m.TrecEval})
		}
		inGroup[m.TrecEval] = g
	}
	if len(groups) == 0 {
		return nil, nil
	}
	return t, t.build(specs, groups, inGroup)
}

// merge returns group g with spec added, when one evaluator of both
// gives the values of each (names being spec's value names): spec joins a
// measure of another name, or adds its cutoffs to the same measure's
// (P.5 and P.10 give P.5,10). g itself is left alone.
func (t *trecEval) merge(g []string, spec string, names []string) ([]string, bool) {
	base, par, hasPar := strings.Cut(spec, ".")
	out := slices.Clone(g)
	joined := false
	for i, x := range out {
		xb, xp, xHas := strings.Cut(x, ".")
		if xb != base {
			continue
		}
		if !hasPar || !xHas {
			return nil, false
		}
		out[i], joined = base+"."+xp+","+par, true
	}
	if !joined {
		out = append(out, spec)
	}
	ev, err := treceval.NewEvaluator(t.cfg, out)
	if err != nil {
		return nil, false
	}
	have := ev.Names()
	want := slices.Clone(names)
	for _, x := range g {
		one, err := treceval.NewEvaluator(t.cfg, []string{x})
		if err != nil {
			return nil, false
		}
		want = append(want, one.Names()...)
	}
	slices.Sort(want)
	want = slices.Compact(want)
	sorted := slices.Sorted(slices.Values(have))
	if !slices.Equal(sorted, want) {
		return nil, false
	}
	return out, true
}

// build makes one summary per group and locates each measure's value.
func (t *trecEval) build(specs []Measure, groups [][]string, inGroup map[string]int) error {
	for _, g := range groups {
		ev, err := treceval.NewEvaluator(t.cfg, g)
		if err != nil {
			return fmt.Errorf("evaluate: trec_eval measures %v: %w", g, err)
		}
		t.specs = append(t.specs, g)
		t.evs = append(t.evs, ev)
	}
	for s, m := range specs {
		if !m.IsTrecEval() {
			continue
		}
		k := inGroup[m.TrecEval]
		v := slices.Index(t.evs[k].Names(), m.Name)
		if v < 0 {
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
	vals    [][]float64       // per evaluator, every value of every query
	per     map[int][]float64 // per plan measure, its value per query
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
			if ev, err = treceval.NewEvaluator(t.cfg, spec); err != nil {
				return err
			}
			tj.evs[k] = ev
		}
		tj.vals[k] = tj.vals[k][:0]
		d0, j0 := 0, 0
		for i, qid := range j.qids {
			docs, judged := tj.docs[d0:tj.dEnd[i]], tj.judged[j0:tj.jEnd[i]]
			d0, j0 = tj.dEnd[i], tj.jEnd[i]
			var err error
			switch {
			case !tj.missing[i]:
				err = ev.Evaluate(qid, judged, docs, &tj.tv)
			case t.cfg.Version == treceval.V10:
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
			v = append(v, tj.vals[r.ev][i*n+r.val])
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
