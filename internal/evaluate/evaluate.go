package evaluate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/rankmetrics/rankmetrics/internal/runio"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// HistBins is the number of bins of Result.Hist over [0, 1].
const HistBins = 20

// MaxDistinct is the largest number of distinct per-query values that
// Result.HistValues counts one by one.
const MaxDistinct = 64

// SampleQIDs is the number of qids Result keeps of each kind of TREC
// query (in both files, run only, qrels only), to show in messages.
const SampleQIDs = 3

// Options configures Run.
type Options struct {
	// Measures are the measures to report; at least one.
	Measures []Measure
	// Config is the metric's configuration: dtype, tie policy, seed,
	// accumulation and raggedness. Its Name and TopN are ignored (they
	// come from each measure).
	Config metric.Config
	// Batch is the number of queries per metric update; at least 1.
	Batch int
	// Workers is the number of goroutines computing updates; at least 1.
	// Results do not depend on it.
	Workers int
	// RunOnly and QrelsOnly say what to do with TREC queries found only
	// in the run or only in the qrels.
	RunOnly, QrelsOnly Policy
	// TrecEvalVersion is the trec_eval release whose definitions the
	// trec_eval measures follow (10.0 by default).
	TrecEvalVersion treceval.Version
	// CurveK, when > 0, adds MAP@1 to MAP@CurveK to the measures computed,
	// returned in Result.Curve.
	CurveK int
	// PerQuery, when not nil, is called with every update's queries and
	// their values, in input order, from one goroutine at a time. The
	// Batch is valid only during the call. An error stops Run.
	PerQuery func(b *Batch) error
	// Progress, when not nil, counts the queries and items taken for
	// evaluation as they are read.
	Progress *Progress
}

// Progress counts what Run has taken so far; it may be read from any
// goroutine while Run runs.
type Progress struct {
	// Queries counts the queries taken for evaluation.
	Queries atomic.Int64
	// Items counts their ranked items.
	Items atomic.Int64
}

// Batch is the queries of one update with their per-query values.
type Batch struct {
	qids []string
	per  []metric.PerList
}

// Len returns the number of queries of the batch.
func (b *Batch) Len() int { return len(b.qids) }

// QID returns the id of query i.
func (b *Batch) QID(i int) string { return b.qids[i] }

// Value returns the value of measure m (an index into Options.Measures)
// for query i: its AP, or AP@K.
func (b *Batch) Value(m, i int) float64 { return b.per[m].Values[i] }

// Result is what Run found.
type Result struct {
	// Values holds the overall value of each measure of Options.Measures.
	Values []float64
	// Curve holds MAP@k for k = 1 .. Options.CurveK.
	Curve []float64
	// HistMeasure is the index in Options.Measures of the measure of the
	// histogram: the first map, else the first measure with values in
	// [0, 1] (not arp or dcg), else the first measure.
	HistMeasure int
	// Hist counts the queries whose value of that measure falls in each of
	// HistBins equal bins over [0, 1] (1 falls in the last bin, and so do
	// values above 1 of arp or dcg).
	Hist []int64
	// HistMax is the largest value of that measure.
	HistMax float64
	// HistValues counts the queries per distinct value of that measure,
	// when there are at most MaxDistinct distinct values; otherwise it is
	// nil. A measure with few possible values (P_10 has 11) can then be
	// drawn with one bin per value.
	HistValues map[float64]int64
	// Longest is the largest number of ranked items of a query evaluated:
	// MAP@k is the same for every k >= Longest.
	Longest int
	// BothQIDs, RunOnlyQIDs and QrelsOnlyQIDs hold the first SampleQIDs
	// qids read of the TREC queries found in both files, in the run only
	// and in the qrels only (evaluated or skipped), in input order.
	BothQIDs, RunOnlyQIDs, QrelsOnlyQIDs []string
	// Read counts the queries read, Evaluated those evaluated, and Items
	// their ranked items.
	Read, Evaluated, Items int64
	// RunOnlySkipped and QrelsOnlySkipped count the one-sided TREC queries
	// skipped.
	RunOnlySkipped, QrelsOnlySkipped int64
	// Stats are the reader's counters at the end of the input.
	Stats runio.Stats
}

// engine is one Run: the options and the measures computed.
type engine struct {
	o     *Options
	specs []Measure // o.Measures, then the curve's map@1..K
	curve []int     // index in specs of map@k, k = 1..CurveK
	f64   bool
	// fam holds, per spec, the final settings of a family measure, or nil
	// for a MAP-path one; groups are the family measures that share one
	// metric.Suite; ext says whether one of them takes the judged
	// documents a run missed as weight-0 items (TrecEval convention).
	fam    []*metric.Config
	groups []group
	ext    bool
	// trec computes the trec_eval measures; nil when there is none.
	trec *trecEval
	// interrupted reports whether the caller's context is done.
	interrupted func() bool
}

// group is family measures computed by one metric.Suite, from one ranking
// of each list.
type group struct {
	specs []int // indexes into engine.specs
	sets  []metric.Config
	ext   bool // the lists carry the missed judged documents
	ties  metric.TiePolicy
}

// histMeasure returns the index of the first map in list, else of the
// first measure with values in [0, 1] (not arp or dcg), else 0.
func histMeasure(list []Measure) int {
	if i := index(list, metric.NoTopN); i >= 0 {
		return i
	}
	for i, m := range list {
		if m.Family == nil || (m.Family.Kind != metric.KindARP && m.Family.Kind != metric.KindDCG) {
			return i
		}
	}
	return 0
}

// check returns an error for options Run cannot use.
func (o *Options) check() error {
	switch {
	case len(o.Measures) == 0:
		return errors.New("evaluate: no measure")
	case o.Batch < 1:
		return fmt.Errorf("evaluate: batch %d: want at least 1", o.Batch)
	case o.Workers < 1:
		return fmt.Errorf("evaluate: workers %d: want at least 1", o.Workers)
	case o.CurveK < 0:
		return fmt.Errorf("evaluate: curve k %d: want at least 0", o.CurveK)
	}
	for _, m := range o.Measures {
		if m.Family == nil && m.TopN < 0 && m.TopN != metric.NoTopN {
			return fmt.Errorf("evaluate: measure %q: topn %d", m.Name, m.TopN)
		}
	}
	c := o.Config
	c.TopN = metric.NoTopN
	return c.Validate()
}

// Run evaluates every query of r with the options o and returns the
// result. It stops at the first error of the input, of the metric or of
// o.PerQuery, and when ctx is done. Then it returns at once even if r is
// blocked in Next (waiting on a pipe, say): that call finishes in the
// background, so after Run returned ctx's error, r must be left alone, not
// even closed (the program is expected to end).
func Run(ctx context.Context, r runio.Reader, o Options) (*Result, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	e := &engine{o: &o, specs: append([]Measure(nil), o.Measures...), f64: o.Config.DType == metric.Float64}
	for k := 1; k <= o.CurveK; k++ {
		e.specs = AppendMeasure(e.specs, MAPAt(k))
		e.curve = append(e.curve, index(e.specs, k))
	}
	e.fam = make([]*metric.Config, len(e.specs))
	var err error
	if e.trec, err = newTrecEval(e.specs, &o); err != nil {
		return nil, err
	}
	for i, m := range e.specs {
		if m.Family == nil {
			continue
		}
		s := familyConfig(m, o.Config)
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("evaluate: measure %q: %w", m.Name, err)
		}
		e.fam[i] = &s
		ext := s.Kind == metric.KindMAP && s.Convention == metric.TrecEval
		e.ext = e.ext || ext
		e.addToGroup(i, s, ext)
	}
	e.interrupted = func() bool { return ctx.Err() != nil }
	res, err := e.run(ctx, r)
	if err != nil {
		return nil, err
	}
	res.Stats = r.Stats()
	return res, nil
}

// run is the pipeline: the caller's goroutine packs updates (reading ahead
// in another), workers compute them, and a reducer adds them up in input
// order.
func (e *engine) run(ctx context.Context, r runio.Reader) (*Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o := e.o
	nJobs := 2*o.Workers + 2
	free := make(chan *job, nJobs)
	for range nJobs {
		free <- &job{}
	}
	jobs := make(chan *job, o.Workers)
	results := make(chan *job, nJobs)

	var wg sync.WaitGroup
	for range o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if err := ctx.Err(); err != nil {
					j.err = err
				} else {
					j.err = e.compute(j)
				}
				results <- j
			}
		}()
	}

	res := &Result{HistMeasure: histMeasure(o.Measures), Hist: make([]int64, HistBins), HistValues: map[float64]int64{}}
	accs := make([]*metric.MeanAveragePrecision, len(e.specs))
	faccs := make([]*metric.Suite, len(e.groups))
	for g := range e.groups {
		m, err := metric.NewSuiteOf(e.groups[g].sets...)
		if err != nil {
			return nil, fmt.Errorf("evaluate: measure %q: %w", e.specs[e.groups[g].specs[0]].Name, err)
		}
		faccs[g] = m
	}
	for s, spec := range e.specs {
		if e.fam[s] != nil || e.trec.has(s) {
			continue
		}
		cfg := o.Config
		cfg.Name, cfg.TopN = spec.Name, spec.TopN
		m, err := newMAP(cfg)
		if err != nil {
			return nil, err
		}
		accs[s] = m
	}
	var redErr error
	redDone := make(chan struct{})
	go func() {
		defer close(redDone)
		pending := map[int]*job{}
		next := 0
		for j := range results {
			if j.err != nil {
				if redErr == nil {
					redErr = j.err
					cancel()
				}
				continue
			}
			if redErr != nil {
				continue
			}
			pending[j.idx] = j
			for {
				j, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				if err := e.reduce(j, accs, faccs, res); err != nil && redErr == nil {
					redErr = err
					cancel()
				}
				free <- j
			}
		}
	}()

	readErr := e.produce(ctx, r, free, jobs, res)
	close(jobs)
	wg.Wait()
	close(results)
	<-redDone
	switch {
	case readErr != nil && !errors.Is(readErr, context.Canceled):
		return nil, readErr
	case redErr != nil && !errors.Is(redErr, context.Canceled):
		return nil, redErr
	case readErr != nil:
		return nil, readErr
	case redErr != nil:
		return nil, redErr
	}
	res.Values = make([]float64, len(o.Measures))
	for s := range o.Measures {
		if accs[s] != nil {
			res.Values[s] = accs[s].Result()
		}
	}
	for g := range e.groups {
		for k, sc := range faccs[g].Results() {
			res.Values[e.groups[g].specs[k]] = sc.Value
		}
	}
	if e.trec != nil {
		e.trec.final(res.Values)
	}
	for _, s := range e.curve {
		res.Curve = append(res.Curve, accs[s].Result())
	}
	return res, nil
}

// produce reads queries into jobs of o.Batch queries.
func (e *engine) produce(ctx context.Context, r runio.Reader, free <-chan *job, jobs chan<- *job, res *Result) error {
	ra := startReadAhead(r)
	defer func() {
		if e.interrupted() {
			ra.abandon()
		} else {
			ra.stop()
		}
	}()
	idx := 0
	var j *job
	send := func() error {
		select {
		case jobs <- j:
			j = nil
			idx++
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for {
		var c *readChunk
		select {
		case c = <-ra.ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		for i := range c.n {
			if err := e.take(ctx, &c.qs[i], &j, idx, free, res); err != nil {
				return err
			}
			if j != nil && len(j.qids) == e.o.Batch {
				if err := send(); err != nil {
					return err
				}
			}
		}
		err := c.err
		ra.free <- c
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if j != nil {
		return send()
	}
	return nil
}

// take adds one query read to the job being filled (starting job idx from
// the free list when there is none), or counts it as skipped.
func (e *engine) take(ctx context.Context, q *runio.Query, j **job, idx int, free <-chan *job, res *Result) error {
	o := e.o
	res.Read++
	res.sample(q)
	switch {
	case q.Match == runio.MatchRunOnly && o.RunOnly == Skip:
		res.RunOnlySkipped++
		return nil
	case q.Match == runio.MatchQrelsOnly && o.QrelsOnly == Skip:
		res.QrelsOnlySkipped++
		return nil
	}
	if *j == nil {
		select {
		case *j = <-free:
		case <-ctx.Done():
			return ctx.Err()
		}
		(*j).reset(idx)
	}
	if err := (*j).add(q, e.f64, e.ext); err != nil {
		return err
	}
	if e.trec != nil {
		if err := e.trec.add(*j, q); err != nil {
			return err
		}
	}
	res.Longest = max(res.Longest, len(q.Scores))
	if p := o.Progress; p != nil {
		p.Queries.Add(1)
		p.Items.Add(int64(len(q.Scores)))
	}
	return nil
}

// compute runs every measure on one job. The job's metrics are made once
// and reused: Reset empties them and Reseed sets the tie-break seed of the
// update, derived from the configured seed and the update's number, so the
// draws do not depend on which worker runs the job. Judged relevant
// documents the run did not rank go to the metric as unranked counts: they
// count in the AP denominator and take no rank.
func (e *engine) compute(j *job) error {
	labels, preds, weights, err := j.tensors(e.o.Config.Ragged, e.f64)
	if err != nil {
		return err
	}
	if len(j.accs) < len(e.specs) {
		j.per = make([]metric.PerList, len(e.specs))
		j.accs = make([]*metric.MeanAveragePrecision, len(e.specs))
		j.faccs = make([]*metric.Suite, len(e.groups))
		j.gper = make([][]metric.PerList, len(e.groups))
	}
	var unranked []int
	if j.anyUnranked {
		unranked = j.unranked
	}
	seed := batchSeed(e.o.Config.Seed, j.idx)
	for g := range e.groups {
		gr := &e.groups[g]
		l, p, w := labels, preds, weights
		if gr.ext {
			if l, p, w, err = j.extTensors(e.o.Config.Ragged, e.f64); err != nil {
				return err
			}
		}
		if err := j.computeGroup(g, gr, seed, l, p, w); err != nil {
			return fmt.Errorf("queries %q to %q: measure %q: %w", j.qids[0], j.qids[len(j.qids)-1], e.specs[gr.specs[0]].Name, err)
		}
		for k, s := range gr.specs {
			j.per[s] = j.gper[g][k]
		}
	}
	if e.trec != nil {
		if err := e.trec.compute(j); err != nil {
			return err
		}
	}
	for s, spec := range e.specs {
		if e.fam[s] != nil || e.trec.has(s) {
			continue
		}
		m := j.accs[s]
		if m == nil {
			cfg := e.o.Config
			cfg.Name, cfg.TopN = spec.Name, spec.TopN
			if m, err = newMAP(cfg); err != nil {
				return err
			}
			j.accs[s] = m
		}
		m.Reset()
		m.Reseed(seed)
		if err := m.UpdateUnranked(&j.per[s], labels, preds, weights, unranked); err != nil {
			return fmt.Errorf("queries %q to %q: %w", j.qids[0], j.qids[len(j.qids)-1], err)
		}
	}
	return nil
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

// reduce adds one computed job, in input order.
func (e *engine) reduce(j *job, accs []*metric.MeanAveragePrecision, faccs []*metric.Suite, res *Result) error {
	for s, m := range accs {
		if m == nil {
			continue
		}
		if err := m.Merge(j.accs[s]); err != nil {
			return err
		}
	}
	for g, m := range faccs {
		if err := m.Merge(j.faccs[g]); err != nil {
			return err
		}
	}
	if e.trec != nil {
		e.trec.reduce(j)
	}
	res.Evaluated += int64(len(j.qids))
	res.Items += int64(j.items - j.placeholders)
	for _, v := range j.per[res.HistMeasure].Values[:len(j.qids)] {
		res.Hist[histBin(v)]++
		res.HistMax = max(res.HistMax, v)
		res.countValue(v)
	}
	if e.o.PerQuery != nil {
		return e.o.PerQuery(&Batch{qids: j.qids, per: j.per[:len(e.o.Measures)]})
	}
	return nil
}

// countValue counts v in HistValues, which becomes nil once there are
// more than MaxDistinct distinct values.
func (r *Result) countValue(v float64) {
	if r.HistValues == nil {
		return
	}
	if _, ok := r.HistValues[v]; !ok && len(r.HistValues) == MaxDistinct {
		r.HistValues = nil
		return
	}
	r.HistValues[v]++
}

// sample keeps q's qid if fewer than SampleQIDs of its kind are kept.
func (r *Result) sample(q *runio.Query) {
	list := &r.BothQIDs
	switch q.Match {
	case runio.MatchRunOnly:
		list = &r.RunOnlyQIDs
	case runio.MatchQrelsOnly:
		list = &r.QrelsOnlyQIDs
	}
	if len(*list) < SampleQIDs {
		*list = append(*list, q.QID)
	}
}

// histBin returns the bin of Result.Hist where v falls.
func histBin(v float64) int {
	b := int(v * HistBins)
	return min(max(b, 0), HistBins-1)
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
func (e *engine) addToGroup(i int, s metric.Config, ext bool) {
	for g := range e.groups {
		gr := &e.groups[g]
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
	e.groups = append(e.groups, group{specs: []int{i}, sets: []metric.Config{s}, ext: ext, ties: s.Ties})
}
