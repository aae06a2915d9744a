package beam

import (
	"errors"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"hash/fnv"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/irm"
	"github.com/rankmetrics/rankmetrics/runio"
)

// ErrMeasures is wrapped by the errors about the measures given to the
// transforms.
var ErrMeasures = errors.New("bad measures")

// Normalize checks measures for distributed use and returns them with Exact
// accumulation: the overall value of a measure is then the same, to the
// bit, for every sharding, bundle size, merge order and worker count.
//
// Each Name is a measure as `rankmetrics eval -m` names it (see
// ParseMeasureNames): map or map@K, any other TF-Ranking measure (ndcg@5,
// mrr, precision@10...) or convention, or one value of trec_eval (P_10,
// ndcg_cut_10, recip_rank...; trec_eval 10.0's definitions). TopN is set
// from the name; a TopN other than 0, metric.NoTopN and the name's is
// refused. The measures share one dtype, tie policy, seed and raggedness,
// as eval's flags give them. Sequential accumulation, whose result depends
// on the order of the additions, is refused, as are an empty list and
// repeated names. A diversity measure of ir_measures (alpha_nDCG@K,
// ERR_IA@K...; see ReadsSubtopics) is accepted: its evaluation needs
// EvalOptions.SubtopicQrels.
func Normalize(measures []metric.Config) ([]metric.Config, error) {
	_, cfgs, err := newPlan(measures, summaryOnly())
	return cfgs, err
}

// summaryOnly returns the empty subtopic qrels given to the plans that
// check measures or combine their values, and evaluate no query.
func summaryOnly() *runio.SubtopicQrels {
	return &runio.SubtopicQrels{Topics: map[string][]runio.SubtopicJudgment{}}
}

// ReadsSubtopics returns the name of the first of measures that reads
// subtopic qrels (qid subtopic docno rel: ir_measures' diversity measures,
// alpha_nDCG@K, ERR_IA@K...), or "" when none does or a name is unknown
// (Normalize tells which).
func ReadsSubtopics(measures []metric.Config) string {
	for _, c := range measures {
		m, err := measure.Parse(c.Name)
		if err != nil || m.IR == nil || m.IR.Calc == nil {
			continue
		}
		if r, ok := m.IR.Calc.(irm.SubtopicReader); ok && r.ReadsSubtopics() {
			return c.Name
		}
	}
	return ""
}

// newPlan returns the evaluation plan of measures (see Normalize), the
// plan `rankmetrics eval` runs, and the normalised measures; sub are the
// subtopic qrels of the diversity measures (nil when there are none).
func newPlan(measures []metric.Config, sub *runio.SubtopicQrels) (*evaluate.Plan, []metric.Config, error) {
	if len(measures) == 0 {
		return nil, nil, fmt.Errorf("no measure given: %w", ErrMeasures)
	}
	out := make([]metric.Config, len(measures))
	specs := make([]evaluate.Measure, len(measures))
	seen := make(map[string]int, len(measures))
	for i, c := range measures {
		m, err := measure.Parse(c.Name)
		if err != nil {
			return nil, nil, fmt.Errorf("measure %d: %w: %w", i, ErrMeasures, err)
		}
		if err := c.Validate(); err != nil {
			return nil, nil, fmt.Errorf("measure %d (%s): %w: %w", i, c.Name, ErrMeasures, err)
		}
		if c.TopN != 0 && c.TopN != metric.NoTopN && c.TopN != m.TopN {
			return nil, nil, fmt.Errorf("measure %d (%s): TopN %d, but the name says %d: %w", i, c.Name, c.TopN, m.TopN, ErrMeasures)
		}
		if m.Family != nil {
			// The state in the report says which metric it holds.
			f := *m.Family
			f.Name, f.DType, f.Ties, f.Seed, f.Ragged, f.Accumulation = c.Name, c.DType, c.Ties, c.Seed, c.Ragged, c.Accumulation
			c = f
		}
		c.TopN = m.TopN
		if c.Accumulation == metric.Sequential {
			return nil, nil, fmt.Errorf("measure %d (%s): sequential accumulation depends on the order of the shards; distributed evaluation uses exact accumulation: %w",
				i, c.Name, ErrMeasures)
		}
		if j, ok := seen[m.Name]; ok {
			return nil, nil, fmt.Errorf("measures %d and %d are both named %q: %w", j, i, m.Name, ErrMeasures)
		}
		seen[m.Name] = i
		c.Accumulation = metric.Exact
		if i > 0 {
			if f := out[0]; c.DType != f.DType || c.Ties != f.Ties || c.Seed != f.Seed || c.Ragged != f.Ragged {
				return nil, nil, fmt.Errorf("measure %d (%s): dtype, ties, seed and raggedness differ from measure 0's (%s); one evaluation shares them, as eval's flags do: %w",
					i, c.Name, f.Name, ErrMeasures)
			}
		}
		out[i], specs[i] = c, m
	}
	shared := metric.DefaultConfig(metric.KindMAP)
	f := out[0]
	shared.DType, shared.Ties, shared.Seed, shared.Ragged, shared.Accumulation = f.DType, f.Ties, f.Seed, f.Ragged, f.Accumulation
	plan, err := evaluate.NewPlan(specs, evaluate.PlanOptions{Config: shared, SubtopicQrels: sub})
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrMeasures, err)
	}
	return plan, out, nil
}

// ParseMeasureNames parses the value of one -m flag of `rankmetrics eval`
// into measure names: a trec_eval specification with parameters takes the
// whole value (P.5,10 gives P_5 and P_10), anything else is a
// comma-separated list of names.
func ParseMeasureNames(s string) ([]string, error) {
	ms, err := measure.ParseList(s)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names, nil
}

// querySeed derives the tie-break seed of one query from the measure's seed
// and the qid, so that the Random tie policy draws the same order for a
// query wherever and whenever it is evaluated.
func querySeed(seed uint64, qid string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(qid))
	z := seed ^ h.Sum64()
	// SplitMix64's finalizer.
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Evaluator computes the per-query values of a set of measures, one query
// at a time, through the evaluation plan of `rankmetrics eval`: each query
// is a batch of its own (eval --batch 1). It is what the Evaluate
// transform runs; it is not safe for concurrent use.
type Evaluator struct {
	cfgs  []metric.Config
	plan  *evaluate.Plan
	batch *evaluate.Batch
}

// NewEvaluator returns an Evaluator of the measures, normalised by
// Normalize. A measure that reads subtopic qrels needs
// NewEvaluatorSubtopics.
func NewEvaluator(measures []metric.Config) (*Evaluator, error) {
	return NewEvaluatorSubtopics(measures, nil)
}

// NewEvaluatorSubtopics returns an Evaluator of the measures, normalised
// by Normalize, whose diversity measures (ReadsSubtopics) read the
// subtopic qrels sub, as `rankmetrics eval` reads its qrels file a second
// time (runio.ReadSubtopicQrels). sub may be nil when no measure reads
// them.
func NewEvaluatorSubtopics(measures []metric.Config, sub *runio.SubtopicQrels) (*Evaluator, error) {
	plan, cfgs, err := newPlan(measures, sub)
	if err != nil {
		return nil, err
	}
	return &Evaluator{cfgs: cfgs, plan: plan, batch: plan.NewBatch()}, nil
}

// Measures returns the normalised measures.
func (e *Evaluator) Measures() []metric.Config { return e.cfgs }

// Eval returns the value and list weight of l for every measure, as one
// update of the metrics holding l alone: `rankmetrics eval --batch 1` on
// the same query gives the same bits.
//
// The plan takes l as eval takes a query read from a file: the relevant
// documents of l.UnrankedLabels (TREC judgments absent from the run) count
// in MAP's denominator and list weight and take no rank, as trec_eval
// counts them (a weighted list cannot have any); a list of no ranked item
// (a qrels-only query) gets one non-relevant placeholder item, so that it
// counts with value 0 and the weight of a list without relevant items;
// trec_eval's measures need document ids (l.Docs) and integer labels.
func (e *Evaluator) Eval(l *List) (QueryValue, error) {
	n := len(l.Scores)
	if len(l.Labels) != n || (l.Weights != nil && len(l.Weights) != n) || (l.Docs != nil && len(l.Docs) != n) {
		return QueryValue{}, fmt.Errorf("qid %q: %d labels, %d scores, %d weights and %d document ids", l.QID, len(l.Labels), n, len(l.Weights), len(l.Docs))
	}
	b := e.batch
	b.Reset()
	if err := b.Add(&l.Query); err != nil {
		return QueryValue{}, fmt.Errorf("qid %q: %w", l.QID, err)
	}
	if err := b.Compute(querySeed(e.cfgs[0].Seed, l.QID)); err != nil {
		return QueryValue{}, err
	}
	v := QueryValue{QID: l.QID, Value: make([]float64, len(e.cfgs)), Weight: make([]float64, len(e.cfgs)), Counts: l.Counts}
	v.Counts.Queries++
	v.Counts.Items += int64(n)
	for m := range e.cfgs {
		v.Value[m], v.Weight[m] = b.Value(m, 0), b.Weight(m, 0)
	}
	return v, nil
}
