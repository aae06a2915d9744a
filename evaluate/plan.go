package evaluate

import (
	"errors"
	"fmt"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// PlanOptions configures a Plan.
type PlanOptions struct {
	// Config is the configuration of every TF-Ranking measure: dtype, tie
	// policy, seed, accumulation and raggedness. Its Name and TopN are
	// ignored (they come from each measure).
	Config metric.Config
	// TrecEvalVersion is the trec_eval release whose definitions the
	// trec_eval measures follow (10.0 by default).
	TrecEvalVersion treceval.Version
	// RunOnly says whether queries found only in a TREC run are evaluated;
	// the trec_eval measures refuse Keep.
	RunOnly Policy
	// SubtopicQrels are the subtopic qrels the diversity measures read
	// (Options.SubtopicQrels).
	SubtopicQrels *runio.SubtopicQrels
}

// Plan is one evaluation, whatever runs it: `rankmetrics eval` and
// `compare` (through Run), and the Beam pipeline, one query at a time.
// It holds the measures and how each is computed: the TF-Ranking measures
// (map and map@K, which count the judged relevant documents a run missed,
// and the other metrics of the family), grouped so that one metric.Suite
// ranks each list once for every measure of a group, and trec_eval's
// measures (metric/treceval). Under every tie policy but Random, one
// Suite serves every TF-Ranking measure (but the family's MAP of the
// tfranking convention, which must not count the missed documents, and
// of the treceval convention, on lists that carry them); under Random,
// map and map@K each draw their own tie orders, as MeanAveragePrecision
// made alone does, so that their values do not depend on the other
// measures. A Batch gives the per-query values and list weights of every
// measure, and Totals adds them up; the metric API is used in
// plan_metric.go only.
//
// A Plan is read-only once made, and safe for concurrent use; its Batches
// and Totals are not.
type Plan struct {
	cfg      metric.Config
	specs    []Measure
	reported int
	f64      bool
	dtypes   []metric.DType // per measure, the dtype of its values
	// groups are the TF-Ranking measures that share one metric.Suite; ext
	// says whether one of them takes the judged documents a run missed as
	// weight-0 items (TrecEval convention).
	groups []group
	ext    bool
	// trec computes the trec_eval measures; nil when there is none.
	trec *trecEval
	// irm computes ir_measures' measures of providers other than
	// pytrec_eval; nil when there is none.
	irm *irmEval
}

// NewPlan returns the plan of measures (see measure.Parse; measure.Append
// leaves out repeats) under o.
func NewPlan(measures []Measure, o PlanOptions) (*Plan, error) {
	return newPlan(measures, len(measures), o)
}

// newPlan is NewPlan of which the first reported measures are reported
// per query (Batch.per); the others (Run's curve) only overall.
func newPlan(measures []Measure, reported int, o PlanOptions) (*Plan, error) {
	if len(measures) == 0 {
		return nil, errors.New("evaluate: no measure")
	}
	for _, m := range measures {
		if m.Family == nil && m.TrecEval == "" && m.TopN < 0 && m.TopN != metric.NoTopN {
			return nil, fmt.Errorf("evaluate: measure %q: topn %d", m.Name, m.TopN)
		}
		if m.Family != nil && m.Family.Kind.Subtopics() {
			return nil, fmt.Errorf("evaluate: measure %q: %s needs subtopic labels, which eval's inputs do not have", m.Name, m.Family.Kind)
		}
	}
	c := o.Config
	c.TopN = metric.NoTopN
	if err := c.Validate(); err != nil {
		return nil, err
	}
	p := &Plan{cfg: o.Config, specs: append([]Measure(nil), measures...), reported: reported, f64: o.Config.DType == metric.Float64,
		dtypes: measureDTypes(measures, o.Config.DType)}
	var err error
	if p.trec, err = newTrecEval(p.specs, o.TrecEvalVersion, o.RunOnly); err != nil {
		return nil, err
	}
	if p.irm, err = newIRMEval(p.specs, o.RunOnly, o.SubtopicQrels); err != nil {
		return nil, err
	}
	if err := p.planFamily(); err != nil {
		return nil, err
	}
	return p, nil
}

// Measures returns the plan's measures, in order.
func (p *Plan) Measures() []Measure { return p.specs[:p.reported:p.reported] }

// DType returns the dtype of the values of measure m: the plan's for a
// TF-Ranking measure, float64 for trec_eval's. Exact totals add a value
// and its weight in that dtype (metric.ExactTotals.Add).
func (p *Plan) DType(m int) metric.DType { return p.dtypes[m] }

// Config returns the configuration of the plan's TF-Ranking measures.
func (p *Plan) Config() metric.Config { return p.cfg }

// NewBatch returns an empty batch of the plan.
func (p *Plan) NewBatch() *Batch {
	b := &Batch{p: p}
	b.reset(0)
	return b
}

// Add appends query q to the batch: its ranked items, and what the
// measures need besides (the judged documents the run missed, document
// ids for trec_eval's). It returns an error naming the query and its line
// for what the measures cannot take (a non-finite weight; for trec_eval's
// measures, no document ids, a non-integer label, no judgment).
func (b *Batch) Add(q *runio.Query) error {
	if err := b.add(q, b.p.f64, b.p.ext); err != nil {
		return err
	}
	if b.p.trec != nil {
		if err := b.p.trec.add(b, q); err != nil {
			return err
		}
	}
	if b.p.irm != nil {
		return b.p.irm.add(b, q)
	}
	return nil
}

// Len returns the number of queries of the batch.
func (b *Batch) Len() int { return len(b.qids) }

// QID returns the id of query i.
func (b *Batch) QID(i int) string { return b.qids[i] }

// Value returns the value of measure m (an index into the plan's
// measures, or Options.Measures) for query i, once computed.
func (b *Batch) Value(m, i int) float64 { return b.all[m].Values[i] }

// Weight returns the list weight of query i for measure m: the weight of
// its value in the measure's mean (TF-Ranking's list weight; 1 for
// trec_eval's measures).
func (b *Batch) Weight(m, i int) float64 {
	if w := b.all[m].Weights; w != nil {
		return w[i]
	}
	return 1
}

// Compute evaluates every measure on the batch, drawing random tie orders
// from seed. The lists of one batch are one update of each metric, so a
// list without relevant items weighs the mean list weight of the batch's
// lists (TF-Ranking's rule): a batch of one query makes that weight 1,
// whatever other queries exist, which is how the Beam pipeline and `eval
// --batch 1` agree. Judged relevant documents the run did not rank go to
// MAP as unranked counts: they count in the AP denominator and take no
// rank.
func (b *Batch) Compute(seed uint64) error {
	if len(b.qids) == 0 {
		return errors.New("evaluate: empty batch")
	}
	p := b.p
	labels, preds, weights, err := b.tensors(p.cfg.Ragged, p.f64)
	if err != nil {
		return err
	}
	if len(b.all) < len(p.specs) {
		b.all = make([]metric.PerList, len(p.specs))
	}
	if err := b.ms.compute(b, seed, labels, preds, weights); err != nil {
		return err
	}
	if p.trec != nil {
		if err := p.trec.compute(b); err != nil {
			return err
		}
	}
	if p.irm != nil {
		if err := p.irm.compute(b); err != nil {
			return err
		}
	}
	b.per = b.all[:p.reported]
	return nil
}

// Totals adds up the values of a plan's batches into the overall value of
// each measure, its summary value: one accumulator for every measure of
// the plan.
//
// A summary value is the correctly rounded mean of the measure's
// per-query values: their exact sum (and, for TF-Ranking's measures, the
// exact sum of value × list weight over the exact sum of list weights),
// divided and rounded once, in the dtype of the measure's values (float64
// for trec_eval's measures, the plan's otherwise). trec_eval's counts
// (num_ret, num_rel, num_rel_ret...) are summed, exactly, and rounded
// once. The one exception is TF-Ranking's measures under Sequential
// accumulation (eval's default in float32): their summary is the metric's
// own, Keras's running mean of TF-Ranking, TF's bits.
//
// Under Exact accumulation (the Beam pipeline's, eval --accumulation
// exact) it holds, per measure, the exact sums (metric.ExactTotals; for
// trec_eval's measures the exact sum of the values and their count),
// added list by list: the result is the same to the bit for any split of
// the queries into batches of the same lists and any order of Add and
// Merge.
//
// Under Sequential accumulation it holds the metrics' own accumulators,
// added batch by batch (Add must follow input order, and such totals do
// not merge), and the exact sums of trec_eval's measures.
type Totals struct {
	p *Plan
	// exact holds per measure its exact sums: of every measure under
	// Exact accumulation, of trec_eval's measures under Sequential.
	exact []metric.ExactTotals
	seq   seqTotals // TF-Ranking's measures under Sequential accumulation
}

// NewTotals returns empty totals of the plan.
func (p *Plan) NewTotals() (*Totals, error) {
	t := &Totals{p: p, exact: make([]metric.ExactTotals, len(p.specs))}
	if p.exactly() {
		return t, nil
	}
	var err error
	if t.seq, err = p.newSeqTotals(); err != nil {
		return nil, err
	}
	return t, nil
}

// exactly reports whether the plan accumulates exactly.
func (p *Plan) exactly() bool { return p.cfg.Accumulation == metric.Exact }

// Add adds a computed batch.
func (t *Totals) Add(b *Batch) error {
	if b.p != t.p {
		return errors.New("evaluate: Totals.Add: a batch of another plan")
	}
	if !t.p.exactly() {
		if err := t.seq.add(&b.ms); err != nil {
			return err
		}
		if t.p.trec != nil {
			for m := range t.p.trec.refs {
				for i := range b.qids {
					t.exact[m].Add(metric.Float64, b.Value(m, i), 1)
				}
			}
		}
		if t.p.irm != nil {
			for _, m := range t.p.irm.refs {
				for i := range b.qids {
					t.exact[m].Add(metric.Float64, b.Value(m, i), b.Weight(m, i))
				}
			}
		}
		return nil
	}
	for m, d := range t.p.dtypes {
		for i := range b.qids {
			t.exact[m].Add(d, b.Value(m, i), b.Weight(m, i))
		}
	}
	return nil
}

// AddValue adds one query's value and list weight of measure m, as Add
// adds them: for a pipeline that carries per-query values between
// workers. Only exact totals take it.
func (t *Totals) AddValue(m int, value, weight float64) error {
	if !t.p.exactly() {
		return errors.New("evaluate: Totals.AddValue needs exact accumulation")
	}
	if m < 0 || m >= len(t.exact) {
		return fmt.Errorf("evaluate: Totals.AddValue: measure %d of %d", m, len(t.exact))
	}
	t.exact[m].Add(t.p.dtypes[m], value, weight)
	return nil
}

// Merge adds o, exact totals of the same plan, to t: exactly, so that
// Merge is associative and commutative. Sequential totals do not merge.
func (t *Totals) Merge(o *Totals) error {
	if o.p != t.p {
		return errors.New("evaluate: Totals.Merge: totals of another plan")
	}
	if !t.p.exactly() {
		return errors.New("evaluate: Totals.Merge needs exact accumulation")
	}
	for m := range t.exact {
		t.exact[m].Merge(&o.exact[m])
	}
	return nil
}

// Values returns the summary value of every measure of the plan (see
// Totals).
func (t *Totals) Values() []float64 {
	out := make([]float64, len(t.p.specs))
	if !t.p.exactly() {
		t.seq.results(t.p, out)
	} else {
		for m := range t.exact {
			out[m] = t.exact[m].ResultIn(t.p.dtypes[m])
		}
	}
	if t.p.trec != nil {
		t.p.trec.finalExact(t.exact, out)
	}
	if t.p.irm != nil {
		t.p.irm.finalExact(t.exact, out)
	}
	return out
}

// States returns the exact sums of every measure as metric states, the
// wire form of exact totals (State.Config names the measure); SetStates
// reads them back.
func (t *Totals) States() ([]metric.State, error) {
	if !t.p.exactly() {
		return nil, errors.New("evaluate: Totals.States needs exact accumulation")
	}
	out := make([]metric.State, len(t.exact))
	for m := range t.exact {
		c := t.p.cfg
		sp := &t.p.specs[m]
		// A trec_eval measure is computed in float64 whatever the plan's dtype.
		c.Name, c.TopN, c.DType = sp.Name, sp.TopN, sp.ValueDType(c.DType)
		out[m] = t.exact[m].State(c)
	}
	return out, nil
}

// SetStates replaces exact totals with states States returned.
func (t *Totals) SetStates(states []metric.State) error {
	if !t.p.exactly() {
		return errors.New("evaluate: Totals.SetStates needs exact accumulation")
	}
	if len(states) != len(t.exact) {
		return fmt.Errorf("evaluate: %d states for %d measures", len(states), len(t.exact))
	}
	for m, s := range states {
		if err := t.exact[m].SetState(s); err != nil {
			return fmt.Errorf("evaluate: measure %q: %w", t.p.specs[m].Name, err)
		}
	}
	return nil
}

// measureDTypes returns the dtype each measure's value was computed in:
// the plan's, float64 for trec_eval's.
func measureDTypes(specs []Measure, d metric.DType) []metric.DType {
	out := make([]metric.DType, len(specs))
	for m, s := range specs {
		out[m] = s.ValueDType(d)
	}
	return out
}
