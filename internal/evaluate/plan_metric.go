package evaluate

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// This file is where a Plan meets the metric API: the settings of family
// measures, the metrics a Batch updates, and the Sequential totals. The
// rest of the package sees measures, per-list values and list weights.

// group is family measures computed by one metric.Suite, from one ranking
// of each list.
type group struct {
	specs []int // indexes into Plan.specs
	sets  []metric.Config
	ext   bool // the lists carry the missed judged documents
	ties  metric.TiePolicy
}

// planFamily sets the settings of the family measures and groups them.
func (p *Plan) planFamily() error {
	p.fam = make([]*metric.Config, len(p.specs))
	for i, m := range p.specs {
		if m.Family == nil {
			continue
		}
		s := familyConfig(m, p.cfg)
		if err := s.Validate(); err != nil {
			return fmt.Errorf("evaluate: measure %q: %w", m.Name, err)
		}
		p.fam[i] = &s
		ext := s.Kind == metric.KindMAP && s.Convention == metric.TrecEval
		p.ext = p.ext || ext
		p.addToGroup(i, s, ext)
	}
	return nil
}

// mapPath reports whether measure s is MAP or MAP@K of the metric's
// MeanAveragePrecision.
func (p *Plan) mapPath(s int) bool { return p.fam[s] == nil && !p.trec.has(s) }

// mapConfig returns the configuration of MAP-path measure s: TF-Ranking's
// MAP with the plan's dtype, raggedness, accumulation, seed and tie
// policy.
func (p *Plan) mapConfig(s int) metric.Config {
	c := metric.DefaultConfig(metric.KindMAP)
	c.DType, c.Ragged, c.Accumulation, c.Seed, c.Ties = p.cfg.DType, p.cfg.Ragged, p.cfg.Accumulation, p.cfg.Seed, p.cfg.Ties
	c.Name, c.TopN = p.specs[s].Name, p.specs[s].TopN
	return c
}

// newMAP returns the MAP metric of configuration cfg, which UpdateUnranked
// and Reseed serve.
func newMAP(cfg metric.Config) (*metric.MeanAveragePrecision, error) {
	m, err := metric.New(cfg)
	if err != nil {
		return nil, err
	}
	mp, ok := m.(*metric.MeanAveragePrecision)
	if !ok {
		return nil, fmt.Errorf("evaluate: measure %s is %s, not map: %w", cfg.Name, cfg.Kind, metric.ErrConfig)
	}
	return mp, nil
}

// familyConfig returns the configuration of family measure m under the run's
// configuration c: c's dtype, raggedness, accumulation, seed and tie
// policy.
func familyConfig(m Measure, c metric.Config) metric.Config {
	s := *m.Family
	s.Name = m.Name
	s.DType, s.Ragged, s.Accumulation, s.Seed, s.Ties = c.DType, c.Ragged, c.Accumulation, c.Seed, c.Ties
	return s
}

// addToGroup puts family spec i, with settings s, in the first group it
// can share a ranking with: the same tie policy, the same lists (with or
// without the missed judged documents), and a distinct name; or in a new
// group.
func (p *Plan) addToGroup(i int, s metric.Config, ext bool) {
	for g := range p.groups {
		gr := &p.groups[g]
		if gr.ext != ext || gr.ties != s.Ties {
			continue
		}
		dup := false
		for _, x := range gr.sets {
			dup = dup || x.Name == s.Name
		}
		if !dup {
			gr.specs, gr.sets = append(gr.specs, i), append(gr.sets, s)
			return
		}
	}
	p.groups = append(p.groups, group{specs: []int{i}, sets: []metric.Config{s}, ext: ext, ties: s.Ties})
}

// batchMetrics are the metrics one Batch updates, made once and reused:
// per MAP-path measure its MeanAveragePrecision, per family group its
// Suite and the group's per-list values.
type batchMetrics struct {
	maps   []*metric.MeanAveragePrecision
	suites []*metric.Suite
	gper   [][]metric.PerList
}

// compute runs every TF-Ranking measure of b's plan on b's lists, as one
// update seeded with seed, writing the values into b.all.
func (bm *batchMetrics) compute(b *Batch, seed uint64, labels, preds tensor.Lists, weights tensor.Weights) error {
	p := b.p
	if len(bm.maps) < len(p.specs) {
		bm.maps = make([]*metric.MeanAveragePrecision, len(p.specs))
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
		if err := bm.computeGroup(g, gr, seed, l, pr, w); err != nil {
			return fmt.Errorf("queries %q to %q: measure %q: %w", b.qids[0], b.qids[len(b.qids)-1], p.specs[gr.specs[0]].Name, err)
		}
		for k, s := range gr.specs {
			b.all[s] = bm.gper[g][k]
		}
	}
	var unranked []int
	if b.anyUnranked {
		unranked = b.unranked
	}
	for s := range p.specs {
		if !p.mapPath(s) {
			continue
		}
		m := bm.maps[s]
		if m == nil {
			var err error
			if m, err = newMAP(p.mapConfig(s)); err != nil {
				return err
			}
			bm.maps[s] = m
		}
		m.Reset()
		m.Reseed(seed)
		if err := m.UpdateUnranked(&b.all[s], labels, preds, weights, unranked); err != nil {
			return fmt.Errorf("queries %q to %q: %w", b.qids[0], b.qids[len(b.qids)-1], err)
		}
	}
	return nil
}

// computeGroup runs family group g on one batch, writing its measures'
// per-list values into bm.gper[g]. The suite is reused across updates
// unless ties are random: then each update gets a suite seeded with the
// update's seed, so draws do not depend on the worker.
func (bm *batchMetrics) computeGroup(g int, gr *group, seed uint64, labels, preds tensor.Lists, weights tensor.Weights) error {
	m := bm.suites[g]
	if m == nil || gr.ties == metric.Random {
		sets := append([]metric.Config(nil), gr.sets...)
		for i := range sets {
			sets[i].Seed = seed
		}
		var err error
		if m, err = metric.NewSuiteOf(sets...); err != nil {
			return err
		}
		bm.suites[g] = m
	} else {
		m.Reset()
	}
	if len(bm.gper[g]) != len(gr.sets) {
		bm.gper[g] = make([]metric.PerList, len(gr.sets))
	}
	return m.UpdatePerList(bm.gper[g], labels, preds, weights)
}

// seqTotals are the Sequential totals of the TF-Ranking measures: the
// metrics' own accumulators, to which each batch's metrics are merged in
// input order.
type seqTotals struct {
	maps   []*metric.MeanAveragePrecision
	suites []*metric.Suite
}

// newSeqTotals returns empty Sequential totals of p.
func (p *Plan) newSeqTotals() (seqTotals, error) {
	t := seqTotals{maps: make([]*metric.MeanAveragePrecision, len(p.specs)), suites: make([]*metric.Suite, len(p.groups))}
	for g := range p.groups {
		m, err := metric.NewSuiteOf(p.groups[g].sets...)
		if err != nil {
			return t, fmt.Errorf("evaluate: measure %q: %w", p.specs[p.groups[g].specs[0]].Name, err)
		}
		t.suites[g] = m
	}
	for s := range p.specs {
		if !p.mapPath(s) {
			continue
		}
		m, err := newMAP(p.mapConfig(s))
		if err != nil {
			return t, err
		}
		t.maps[s] = m
	}
	return t, nil
}

// add merges the metrics of one computed batch.
func (t *seqTotals) add(bm *batchMetrics) error {
	for s, m := range t.maps {
		if m == nil {
			continue
		}
		if err := m.Merge(bm.maps[s]); err != nil {
			return err
		}
	}
	for g, m := range t.suites {
		if err := m.Merge(bm.suites[g]); err != nil {
			return err
		}
	}
	return nil
}

// results sets the overall values of the TF-Ranking measures in out.
func (t *seqTotals) results(p *Plan, out []float64) {
	for s, m := range t.maps {
		if m != nil {
			out[s] = m.Result()
		}
	}
	for g, m := range t.suites {
		for k, sc := range m.Results() {
			out[p.groups[g].specs[k]] = sc.Value
		}
	}
}
