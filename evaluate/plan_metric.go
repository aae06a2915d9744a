package evaluate

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// This file is where a Plan meets the metric API: the settings of family
// measures, the metrics a Batch updates, and the Sequential totals. The
// rest of the package sees measures, per-list values and list weights.

// group is TF-Ranking measures computed by one metric.Suite, from one
// ranking of each list.
type group struct {
	specs []int // indexes into Plan.specs
	sets  []metric.Config
	ext   bool // the lists carry the missed judged documents
	ties  metric.TiePolicy
	// unranked says whether the group holds map or map@K, which count the
	// judged relevant documents the run did not rank (Suite.UpdateUnranked);
	// plainMAP whether it holds a family MAP that would count them too
	// (map:tfranking), which must not; solo whether it takes no other
	// measure.
	unranked, plainMAP, solo bool
}

// planFamily sets the settings of the TF-Ranking measures and groups them.
func (p *Plan) planFamily() error {
	for i, m := range p.specs {
		if m.IsTrecEval() || m.IR != nil {
			continue
		}
		s := familyConfig(m, p.cfg)
		if err := s.Validate(); err != nil {
			return fmt.Errorf("evaluate: measure %q: %w", m.Name, err)
		}
		ext := m.Family != nil && s.Kind == metric.KindMAP && s.Convention == metric.TrecEval
		p.ext = p.ext || ext
		p.addToGroup(i, s, ext, m.Family == nil)
	}
	return nil
}

// familyConfig returns the configuration of TF-Ranking measure m under
// the run's configuration c: c's dtype, raggedness, accumulation, seed
// and tie policy; map and map@K are TF-Ranking's MAP.
func familyConfig(m Measure, c metric.Config) metric.Config {
	var s metric.Config
	if m.Family != nil {
		s = *m.Family
	} else {
		s = metric.DefaultConfig(metric.KindMAP)
		s.TopN = m.TopN
	}
	s.Name = m.Name
	s.DType, s.Ragged, s.Accumulation, s.Seed, s.Ties = c.DType, c.Ragged, c.Accumulation, c.Seed, c.Ties
	return s
}

// addToGroup puts TF-Ranking measure i, with settings s, in the first
// group it can share a ranking with: the same tie policy, the same lists
// (with or without the missed judged documents), the same profile, a
// distinct name, and
// unranked counts only for map and map@K (unranked); or in a new group.
// Under random ties map and map@K make groups of their own, drawing their
// own tie orders as MeanAveragePrecision does: a shared order would change
// their values.
func (p *Plan) addToGroup(i int, s metric.Config, ext, unranked bool) {
	solo := unranked && s.Ties == metric.Random
	plainMAP := !unranked && s.Kind == metric.KindMAP && s.Convention == metric.TFRanking
	for g := range p.groups {
		gr := &p.groups[g]
		if solo || gr.solo || gr.ext != ext || gr.ties != s.Ties || unranked && gr.plainMAP || plainMAP && gr.unranked || gr.sets[0].Profile != s.Profile {
			continue
		}
		dup := false
		for _, x := range gr.sets {
			dup = dup || x.Name == s.Name
		}
		if !dup {
			gr.specs, gr.sets = append(gr.specs, i), append(gr.sets, s)
			gr.unranked, gr.plainMAP = gr.unranked || unranked, gr.plainMAP || plainMAP
			return
		}
	}
	p.groups = append(p.groups, group{specs: []int{i}, sets: []metric.Config{s}, ext: ext, ties: s.Ties, unranked: unranked, plainMAP: plainMAP, solo: solo})
}

// batchMetrics are the metrics one Batch updates, made once and reused:
// per group its Suite and the group's per-list values.
type batchMetrics struct {
	suites []*metric.Suite
	gper   [][]metric.PerList
}

// compute runs every TF-Ranking measure of b's plan on b's lists, as one
// update seeded with seed, writing the values into b.all.
func (bm *batchMetrics) compute(b *Batch, seed uint64, labels, preds tensor.Lists, weights tensor.Weights) error {
	p := b.p
	if len(bm.suites) < len(p.groups) {
		bm.suites = make([]*metric.Suite, len(p.groups))
		bm.gper = make([][]metric.PerList, len(p.groups))
	}
	for g := range p.groups {
		gr := &p.groups[g]
		l, pr, w := labels, preds, weights
		if gr.ext {
			var err error
			if l, pr, w, err = b.extTensors(p.cfg.Ragged, p.f64); err != nil {
				return err
			}
		}
		var unranked []int
		if gr.unranked && b.anyUnranked {
			unranked = b.unranked
		}
		if err := bm.computeGroup(g, gr, seed, l, pr, w, unranked); err != nil {
			return fmt.Errorf("queries %q to %q: measure %q: %w", b.qids[0], b.qids[len(b.qids)-1], p.specs[gr.specs[0]].Name, err)
		}
		for k, s := range gr.specs {
			b.all[s] = bm.gper[g][k]
		}
	}
	return nil
}

// computeGroup runs group g on one batch, with the unranked counts of its
// lists when not nil, writing its measures' per-list values into
// bm.gper[g]. The suite is made once and reset for each update; under
// random ties it is reseeded with the update's seed, so draws do not
// depend on the worker.
func (bm *batchMetrics) computeGroup(g int, gr *group, seed uint64, labels, preds tensor.Lists, weights tensor.Weights, unranked []int) error {
	m := bm.suites[g]
	if m == nil {
		var err error
		if m, err = metric.NewSuiteOf(gr.sets...); err != nil {
			return err
		}
		bm.suites[g] = m
	} else {
		m.Reset()
	}
	if gr.ties == metric.Random {
		m.Reseed(seed)
	}
	if len(bm.gper[g]) != len(gr.sets) {
		bm.gper[g] = make([]metric.PerList, len(gr.sets))
	}
	return m.UpdateUnranked(bm.gper[g], labels, preds, weights, unranked)
}

// seqTotals are the Sequential totals of the TF-Ranking measures: per
// group a Suite, to which each batch's suites are merged in input order.
type seqTotals struct {
	suites []*metric.Suite
}

// newSeqTotals returns empty Sequential totals of p.
func (p *Plan) newSeqTotals() (seqTotals, error) {
	t := seqTotals{suites: make([]*metric.Suite, len(p.groups))}
	for g := range p.groups {
		m, err := metric.NewSuiteOf(p.groups[g].sets...)
		if err != nil {
			return t, fmt.Errorf("evaluate: measure %q: %w", p.specs[p.groups[g].specs[0]].Name, err)
		}
		t.suites[g] = m
	}
	return t, nil
}

// add merges the suites of one computed batch.
func (t *seqTotals) add(bm *batchMetrics) error {
	for g, m := range t.suites {
		if err := m.Merge(bm.suites[g]); err != nil {
			return err
		}
	}
	return nil
}

// results sets the overall values of the TF-Ranking measures in out.
func (t *seqTotals) results(p *Plan, out []float64) {
	for g, m := range t.suites {
		for k, sc := range m.Results() {
			out[p.groups[g].specs[k]] = sc.Value
		}
	}
}
