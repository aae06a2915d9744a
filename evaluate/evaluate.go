package evaluate

import (
	"context"
	"errors"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"io"
	"sync"
	"sync/atomic"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
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
	// InFlight is the most updates held at once (being filled, computed
	// or added up), each of Batch queries; 0 means 2*Workers+2, and any
	// other value is at least 2. A caller running several Run at once
	// lowers it to bound their memory. Results do not depend on it.
	InFlight int
	// RunOnly and QrelsOnly say what to do with TREC queries found only
	// in the run or only in the qrels.
	RunOnly, QrelsOnly Policy
	// TrecEvalVersion is the trec_eval release whose definitions the
	// trec_eval measures follow (10.0 by default).
	TrecEvalVersion treceval.Version
	// SubtopicQrels are the judgments the diversity measures of
	// ir_measures (alpha_nDCG@K, ERR_IA@K...) read: ndeval's subtopic
	// qrels, the same file as the qrels the reader joins. Required when
	// one of Measures reads them.
	SubtopicQrels *runio.SubtopicQrels
	// CurveK, when > 0, adds MAP@1 to MAP@CurveK to the measures computed,
	// returned in Result.Curve.
	CurveK int
	// PerQuery, when not nil, is called with every update's queries and
	// their values (Batch.Value, with m an index into Measures), in input
	// order, from one goroutine at a time. The Batch is valid only during
	// the call. An error stops Run.
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

// Result is what Run found.
type Result struct {
	// Values holds the summary value of each measure of Options.Measures,
	// as Totals.Values: the correctly rounded mean of its per-query values.
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

// engine is one Run: the options, and the plan of the measures computed
// (Options.Measures, then the curve's map@1..K).
type engine struct {
	o     *Options
	p     *Plan
	curve []int // index in the plan of map@k, k = 1..CurveK
	// interrupted reports whether the caller's context is done.
	interrupted func() bool
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
	case o.InFlight < 0 || o.InFlight == 1:
		return fmt.Errorf("evaluate: %d updates in flight: want 0 (the default) or at least 2", o.InFlight)
	case o.CurveK < 0:
		return fmt.Errorf("evaluate: curve k %d: want at least 0", o.CurveK)
	}
	return nil
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
	specs := append([]Measure(nil), o.Measures...)
	e := &engine{o: &o}
	for k := 1; k <= o.CurveK; k++ {
		specs = measure.Append(specs, measure.MAPAt(k))
		e.curve = append(e.curve, index(specs, k))
	}
	var err error
	e.p, err = newPlan(specs, len(o.Measures), PlanOptions{Config: o.Config, TrecEvalVersion: o.TrecEvalVersion, RunOnly: o.RunOnly, SubtopicQrels: o.SubtopicQrels})
	if err != nil {
		return nil, err
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
	if o.InFlight > 0 {
		nJobs = o.InFlight
	}
	free := make(chan *Batch, nJobs)
	for range nJobs {
		free <- e.p.NewBatch()
	}
	jobs := make(chan *Batch, o.Workers)
	results := make(chan *Batch, nJobs)

	var wg sync.WaitGroup
	for range o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if err := ctx.Err(); err != nil {
					j.err = err
				} else {
					j.err = j.Compute(batchSeed(o.Config.Seed, j.idx))
				}
				results <- j
			}
		}()
	}

	res := &Result{HistMeasure: histMeasure(o.Measures), Hist: make([]int64, HistBins), HistValues: map[float64]int64{}}
	totals, err := e.p.NewTotals()
	if err != nil {
		return nil, err
	}
	var redErr error
	redDone := make(chan struct{})
	go func() {
		defer close(redDone)
		pending := map[int]*Batch{}
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
				if err := e.reduce(j, totals, res); err != nil && redErr == nil {
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
	all := totals.Values()
	res.Values = all[:len(o.Measures):len(o.Measures)]
	for _, s := range e.curve {
		res.Curve = append(res.Curve, all[s])
	}
	return res, nil
}

// produce reads queries into jobs of o.Batch queries.
func (e *engine) produce(ctx context.Context, r runio.Reader, free <-chan *Batch, jobs chan<- *Batch, res *Result) error {
	ra := startReadAhead(r)
	defer func() {
		if e.interrupted() {
			ra.abandon()
		} else {
			ra.stop()
		}
	}()
	idx := 0
	var j *Batch
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
func (e *engine) take(ctx context.Context, q *runio.Query, j **Batch, idx int, free <-chan *Batch, res *Result) error {
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
	if err := (*j).Add(q); err != nil {
		return err
	}
	res.Longest = max(res.Longest, len(q.Scores))
	if p := o.Progress; p != nil {
		p.Queries.Add(1)
		p.Items.Add(int64(len(q.Scores)))
	}
	return nil
}

// reduce adds one computed batch, in input order.
func (e *engine) reduce(j *Batch, totals *Totals, res *Result) error {
	if err := totals.Add(j); err != nil {
		return err
	}
	res.Evaluated += int64(len(j.qids))
	res.Items += int64(j.items - j.placeholders)
	for _, v := range j.all[res.HistMeasure].Values[:len(j.qids)] {
		res.Hist[histBin(v)]++
		res.HistMax = max(res.HistMax, v)
		res.countValue(v)
	}
	if e.o.PerQuery != nil {
		return e.o.PerQuery(j)
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
