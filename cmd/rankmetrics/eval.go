package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"golang.org/x/term"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/rankmetrics/rankmetrics/internal/runio"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

const evalUsage = `usage: rankmetrics eval [flags] QRELS RUN
       rankmetrics eval [flags] FILE

Evaluates ranking outputs: a TREC qrels and run pair (in trec_eval's order), or
one file of TSV, CSV, JSON Lines, Parquet or RKM1, any of them gzipped. The
format comes from the extension unless --input-format says it. Flags may come
before or after the files.

Measures: -m map, -m map@10, ... (repeatable; default map). --topn N adds map@N.
MAP is TF-Ranking's: relevance is label >= 1, and the AP denominator counts
every relevant item of the list, including, for TREC, judged relevant documents
the run did not retrieve (they take no rank). Unjudged run documents are not
relevant. As trec_eval does, queries found only in the run or only in the qrels
are skipped by default, and always counted in the report.

Lists go to the metric in updates of --batch queries in input order, so
TF-Ranking's per-list weights (which depend on the update) and random tie
draws (seeded from --seed and the update's number) do not depend on the
number of workers: results are bit-identical for any --workers.

Memory: input sorted by qid (numerically when both ids are integers, byte-wise
otherwise) streams in constant memory (about 35 MB whatever the size). With
--unsorted group the whole input is held: about 45 bytes per item plus its
document id (430 MB for 10M TSV rows), and for TREC the qrels as well (900 MB
for a 10M-line run and 10M-line qrels). The default, --unsorted error, stops at
the first qid out of order.

Flags:
`

// measureSpec is one measure: MAP over the whole list (topn NoTopN) or MAP@topn.
type measureSpec struct {
	name string
	topn int
}

func parseMeasure(s string) (measureSpec, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "map" {
		return measureSpec{"map", metric.NoTopN}, nil
	}
	if k, ok := strings.CutPrefix(name, "map@"); ok {
		n, err := strconv.Atoi(k)
		if err == nil && n >= 0 {
			return measureSpec{"map@" + strconv.Itoa(n), n}, nil
		}
	}
	return measureSpec{}, fmt.Errorf("unknown measure %q (want map or map@K with K >= 0)", s)
}

// measureList is a repeatable -m flag.
type measureList []measureSpec

func (m *measureList) String() string {
	names := make([]string, len(*m))
	for i, s := range *m {
		names[i] = s.name
	}
	return strings.Join(names, ",")
}

func (m *measureList) Set(s string) error {
	for _, part := range strings.Split(s, ",") {
		spec, err := parseMeasure(part)
		if err != nil {
			return err
		}
		*m = appendMeasure(*m, spec)
	}
	return nil
}

func appendMeasure(list []measureSpec, s measureSpec) []measureSpec {
	for _, x := range list {
		if x.topn == s.topn {
			return list
		}
	}
	return append(list, s)
}

// evalOptions is the parsed command line of eval.
type evalOptions struct {
	paths     []string
	read      runio.Options
	measures  []measureSpec
	cfg       metric.Config
	batch     int
	workers   int
	perQuery  bool
	format    string
	quiet     bool
	plotPath  string
	plotK     int
	runOnly   string
	qrelsOnly string
}

func parseEvalArgs(args []string, stderr io.Writer) (*evalOptions, bool, error) {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &evalOptions{cfg: metric.DefaultConfig(metric.DefaultMAPName)}
	var measures measureList
	fs.Var(&measures, "m", "measure `NAME`: map or map@K; repeatable or comma-separated (default map)")
	topn := fs.Int("topn", -1, "add the measure map@`N` (TF-Ranking's topn)")
	dtype := fs.String("dtype", "float32", "compute in `TYPE` float32 (TF-Ranking's, bit-exact) or float64")
	ties := fs.String("ties", "random", "order of equal scores: random, stable, pessimistic, optimistic or expected")
	fs.Uint64Var(&o.cfg.Seed, "seed", 0, "seed of the random tie order")
	accum := fs.String("accumulation", "default", "how updates add up: default, sequential (Keras, float32 in TF's order) or exact")
	ragged := fs.Bool("ragged", true, "pass lists ragged, as TF-Ranking's ragged=True (negative labels rank as non-relevant items); false pads them into dense batches, where labels < 0 are masked")
	fs.IntVar(&o.batch, "batch", 1024, "queries per metric update")
	fs.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parallel workers (results do not depend on it)")
	fs.BoolVar(&o.perQuery, "q", false, "also print the measures of every query, like trec_eval -q")
	fs.StringVar(&o.format, "format", "table", "output `FORMAT`: table, json or tsv")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress bar and no timing on stderr")
	fs.StringVar(&o.plotPath, "plot", "", "write a PNG to `FILE`: the MAP@k curve and a histogram of per-query AP")
	fs.IntVar(&o.plotK, "plot-k", 20, "largest k of the MAP@k curve")
	inFormat := fs.String("input-format", "auto", "input format: auto, trec, tsv, csv, jsonl, parquet or rkm1")
	fs.StringVar(&o.read.Columns.QID, "qid-col", "qid", "`NAME` of the qid column (TSV, CSV, Parquet) or key (JSON Lines)")
	fs.StringVar(&o.read.Columns.Label, "label-col", "label", "`NAME` of the label column or key (JSON lists use NAME+\"s\")")
	fs.StringVar(&o.read.Columns.Score, "score-col", "score", "`NAME` of the score column or key")
	fs.StringVar(&o.read.Columns.Weight, "weight-col", "weight", "`NAME` of the optional per-item weight column or key")
	fs.StringVar(&o.read.Columns.Doc, "doc-col", "doc", "`NAME` of the optional document id column or key (for duplicate checks)")
	unsorted := fs.String("unsorted", "error", "input not sorted by qid: error, or group (holds the whole input in memory)")
	dedupe := fs.String("dedupe", "error", "repeated (qid, doc): error, first (keep the first) or max (keep the highest score, or label in qrels)")
	fs.StringVar(&o.runOnly, "run-only", "skip", "queries of the run with no judgment: skip (trec_eval), or keep (AP 0)")
	fs.StringVar(&o.qrelsOnly, "qrels-only", "skip", "judged queries missing from the run: skip (trec_eval), or keep (AP 0, trec_eval -c)")
	fs.Usage = func() {
		fmt.Fprint(stderr, evalUsage)
		fs.PrintDefaults()
	}
	// Flags may follow the files: parse, take the positional arguments,
	// and parse again what follows them.
	rest := args
	for {
		if help, err := parseFlags(fs, rest); help || err != nil {
			return nil, help, err
		}
		if fs.NArg() == 0 {
			break
		}
		o.paths = append(o.paths, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	bad := func(format string, a ...any) (*evalOptions, bool, error) {
		fmt.Fprintf(stderr, "eval: "+format+"\n", a...)
		return nil, false, errUsage
	}
	if len(o.paths) == 0 || len(o.paths) > 2 {
		return bad("want FILE, or QRELS RUN; got %d paths (see rankmetrics eval -h)", len(o.paths))
	}
	var err error
	if o.cfg.DType, err = metric.ParseDType(*dtype); err != nil {
		return bad("--dtype: %v", err)
	}
	if o.cfg.Ties, err = metric.ParseTiePolicy(*ties); err != nil {
		return bad("--ties: %v", err)
	}
	if o.cfg.Accumulation, err = metric.ParseAccumulation(*accum); err != nil {
		return bad("--accumulation: %v", err)
	}
	o.cfg.Ragged = *ragged
	if o.read.Format, err = runio.ParseFormat(*inFormat); err != nil {
		return bad("--input-format: %v", err)
	}
	if o.read.Unsorted, err = runio.ParseUnsortedPolicy(*unsorted); err != nil {
		return bad("--unsorted: %v", err)
	}
	if o.read.Dedupe, err = runio.ParseDedupePolicy(*dedupe); err != nil {
		return bad("--dedupe: %v", err)
	}
	if *topn < -1 {
		return bad("--topn %d: want N >= 0", *topn)
	}
	o.measures = measures
	if *topn >= 0 {
		o.measures = appendMeasure(o.measures, measureSpec{"map@" + strconv.Itoa(*topn), *topn})
	}
	if len(o.measures) == 0 {
		o.measures = []measureSpec{{"map", metric.NoTopN}}
	}
	if o.batch < 1 {
		return bad("--batch %d: want at least 1", o.batch)
	}
	if o.workers < 1 {
		return bad("--workers %d: want at least 1", o.workers)
	}
	if o.plotK < 1 {
		return bad("--plot-k %d: want at least 1", o.plotK)
	}
	switch o.format {
	case "table", "json", "tsv":
	default:
		return bad("--format %q: want table, json or tsv", o.format)
	}
	if o.runOnly != "skip" && o.runOnly != "keep" {
		return bad("--run-only %q: want skip or keep", o.runOnly)
	}
	if o.qrelsOnly != "skip" && o.qrelsOnly != "keep" {
		return bad("--qrels-only %q: want skip or keep", o.qrelsOnly)
	}
	return o, false, nil
}

// runEval implements "rankmetrics eval".
func runEval(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, help, err := parseEvalArgs(args, stderr)
	if help || err != nil {
		return err
	}
	o.read.Stdin = stdin
	var bytesRead atomic.Int64
	o.read.BytesRead = &bytesRead
	start := time.Now()
	r, err := runio.Open(ctx, o.paths, o.read)
	if err != nil {
		return err
	}
	defer r.Close()

	var prog *progress
	if f, ok := stderr.(*os.File); ok && !o.quiet && term.IsTerminal(int(f.Fd())) {
		prog = startProgress(stderr, &bytesRead, totalSize(o.paths))
	}
	out := bufio.NewWriterSize(stdout, 1<<16)
	rep := newReporter(out, o)
	ev := newEvaluator(o)
	res, err := ev.run(ctx, r, rep, prog)
	if prog != nil {
		prog.stop()
	}
	if err != nil {
		return err
	}
	res.stats = r.Stats()
	if err := rep.finish(res); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if o.plotPath != "" {
		if err := writePlot(o.plotPath, res.plot()); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
	}
	if !o.quiet {
		el := time.Since(start)
		fmt.Fprintf(stderr, "eval: %d queries, %d items in %.3f s (%.1f M items/s)\n",
			res.evaluated, res.items, el.Seconds(), float64(res.items)/el.Seconds()/1e6)
	}
	return nil
}

func totalSize(paths []string) int64 {
	var n int64
	for _, p := range paths {
		if p == "-" {
			return 0
		}
		st, err := os.Stat(p)
		if err != nil {
			return 0
		}
		n += st.Size()
	}
	return n
}

// evalJob is one update: up to --batch consecutive queries, packed as
// ragged (or dense) lists, and, once a worker is done, their results.
type evalJob struct {
	idx    int
	qids   []string
	lines  []int64
	splits []int
	lab32  []float32
	sc32   []float32
	w32    []float32
	lab64  []float64
	sc64   []float64
	w64    []float64
	hasW   bool
	// unranked holds per list the number of judged relevant documents
	// the run did not rank (TREC), and anyUnranked whether any is > 0.
	unranked    []int
	anyUnranked bool
	items       int
	// placeholders counts the items added for lists without any.
	placeholders int

	// Results, one entry per measure spec. The metrics in accs live as
	// long as the job: each update resets and reseeds them.
	per  []metric.PerList
	accs []*metric.MeanAveragePrecision
	err  error
}

func (j *evalJob) reset(idx int) {
	j.idx = idx
	j.qids = j.qids[:0]
	j.lines = j.lines[:0]
	j.splits = append(j.splits[:0], 0)
	j.lab32, j.sc32, j.w32 = j.lab32[:0], j.sc32[:0], j.w32[:0]
	j.lab64, j.sc64, j.w64 = j.lab64[:0], j.sc64[:0], j.w64[:0]
	j.unranked = j.unranked[:0]
	j.anyUnranked = false
	j.items = 0
	j.placeholders = 0
	j.err = nil
}

// add appends one query. It returns an error for a non-finite weight,
// which the metric would reject without naming the query.
func (j *evalJob) add(q *runio.Query, f64 bool) error {
	j.qids = append(j.qids, q.QID)
	j.lines = append(j.lines, q.Line)
	j.hasW = q.Weights != nil
	for i, w := range q.Weights {
		if math.IsInf(w, 0) {
			return fmt.Errorf("query %q (line %d): item %d: weight %v is not finite", q.QID, q.Line, i+1, w)
		}
	}
	unr := 0
	for _, l := range q.UnrankedLabels {
		if l >= 1 {
			unr++
		}
	}
	j.unranked = append(j.unranked, unr)
	if unr > 0 {
		j.anyUnranked = true
	}
	if len(q.Scores) == 0 {
		// A judged query the run misses (kept with --qrels-only keep) has
		// no item. An empty list would weigh 0 in an update of empty lists
		// (no slot carries a weight), so it gets one non-relevant
		// placeholder item instead: AP 0, and the list weight of a list
		// without relevant items, whatever the update holds.
		if f64 {
			j.lab64, j.sc64 = append(j.lab64, 0), append(j.sc64, 0)
		} else {
			j.lab32, j.sc32 = append(j.lab32, 0), append(j.sc32, 0)
		}
		j.items++
		j.placeholders++
		j.splits = append(j.splits, j.items)
		return nil
	}
	if f64 {
		j.lab64 = append(j.lab64, q.Labels...)
		j.sc64 = append(j.sc64, q.Scores...)
		j.w64 = append(j.w64, q.Weights...)
	} else {
		for i := range q.Scores {
			j.lab32 = append(j.lab32, float32(q.Labels[i]))
			j.sc32 = append(j.sc32, float32(q.Scores[i]))
		}
		for _, w := range q.Weights {
			j.w32 = append(j.w32, float32(w))
		}
	}
	j.items += len(q.Scores)
	j.splits = append(j.splits, j.items)
	return nil
}

// tensors returns the batch as lists for the metric: ragged as read, or
// padded into dense rows (label -1, weight 0) when ragged is false.
func (j *evalJob) tensors(ragged, f64 bool) (labels, preds tensor.Lists, w tensor.Weights, err error) {
	if ragged {
		if f64 {
			return raggedLists(j.lab64, j.sc64, j.w64, j.splits, j.hasW)
		}
		return raggedLists(j.lab32, j.sc32, j.w32, j.splits, j.hasW)
	}
	if f64 {
		return denseLists(j.lab64, j.sc64, j.w64, j.splits, j.hasW)
	}
	return denseLists(j.lab32, j.sc32, j.w32, j.splits, j.hasW)
}

func raggedLists[T float32 | float64](lab, sc, w []T, splits []int, hasW bool) (labels, preds tensor.Lists, ws tensor.Weights, err error) {
	if labels, err = tensor.Ragged(lab, splits); err != nil {
		return
	}
	if preds, err = tensor.Ragged(sc, splits); err != nil {
		return
	}
	if hasW {
		var wl tensor.Lists
		if wl, err = tensor.Ragged(w, splits); err != nil {
			return
		}
		ws = tensor.PerItem(wl)
	}
	return
}

func denseLists[T float32 | float64](lab, sc, w []T, splits []int, hasW bool) (labels, preds tensor.Lists, ws tensor.Weights, err error) {
	rows, width := len(splits)-1, 0
	for b := range rows {
		width = max(width, splits[b+1]-splits[b])
	}
	pad := func(src []T, fill T) []T {
		out := make([]T, rows*width)
		for b := range rows {
			row := out[b*width : (b+1)*width]
			n := copy(row, src[splits[b]:splits[b+1]])
			for i := n; i < width; i++ {
				row[i] = fill
			}
		}
		return out
	}
	if labels, err = tensor.Dense(pad(lab, -1), rows, width); err != nil {
		return
	}
	if preds, err = tensor.Dense(pad(sc, 0), rows, width); err != nil {
		return
	}
	if hasW {
		var wl tensor.Lists
		if wl, err = tensor.Dense(pad(w, 0), rows, width); err != nil {
			return
		}
		ws = tensor.PerItem(wl)
	}
	return
}

// evaluator runs the pipeline: the caller's goroutine reads and packs
// updates, workers compute them, and a reducer adds them up in input order.
type evaluator struct {
	o     *evalOptions
	specs []measureSpec // the reported measures, then the plot's map@1..K
	plotK []int         // index in specs of map@k, k = 1..K (with --plot)
	hist  int           // index in specs of the histogram's measure
}

func newEvaluator(o *evalOptions) *evaluator {
	e := &evaluator{o: o, specs: append([]measureSpec(nil), o.measures...)}
	e.hist = 0
	for i, s := range o.measures {
		if s.topn == metric.NoTopN {
			e.hist = i
			break
		}
	}
	if o.plotPath != "" {
		for k := 1; k <= o.plotK; k++ {
			e.specs = appendMeasure(e.specs, measureSpec{"map@" + strconv.Itoa(k), k})
			for i, s := range e.specs {
				if s.topn == k {
					e.plotK = append(e.plotK, i)
				}
			}
		}
	}
	return e
}

// batchSeed derives the tie-break seed of update idx (SplitMix64).
func batchSeed(seed uint64, idx int) uint64 {
	z := seed + uint64(idx+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// compute runs every measure on one job. The job's metrics are made once
// and reused: Reset empties them and Reseed sets the tie-break seed of the
// update, derived from --seed and the update's number, so the draws do not
// depend on which worker runs the job. Judged relevant documents the run
// did not rank go to the metric as unranked counts: they count in the AP
// denominator and take no rank.
func (e *evaluator) compute(j *evalJob) error {
	f64 := e.o.cfg.DType == metric.Float64
	labels, preds, weights, err := j.tensors(e.o.cfg.Ragged, f64)
	if err != nil {
		return err
	}
	if len(j.accs) < len(e.specs) {
		j.per = make([]metric.PerList, len(e.specs))
		j.accs = make([]*metric.MeanAveragePrecision, len(e.specs))
	}
	var unranked []int
	if j.anyUnranked {
		unranked = j.unranked
	}
	seed := batchSeed(e.o.cfg.Seed, j.idx)
	for s, spec := range e.specs {
		m := j.accs[s]
		if m == nil {
			cfg := e.o.cfg
			cfg.Name, cfg.TopN = spec.name, spec.topn
			if m, err = metric.FromConfig(cfg); err != nil {
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

// evalResult is what the reducer found.
type evalResult struct {
	o         *evalOptions
	specs     []measureSpec
	values    []float64 // per spec
	evaluated int64
	items     int64
	read      int64 // queries read
	runOnly   int64 // skipped
	qrelsOnly int64 // skipped
	stats     runio.Stats
	hist      []int64
	plotK     []int
}

const histBins = 20

// run evaluates every query of r.
func (e *evaluator) run(ctx context.Context, r runio.Reader, rep *reporter, prog *progress) (*evalResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o := e.o
	nJobs := 2*o.workers + 2
	free := make(chan *evalJob, nJobs)
	for range nJobs {
		free <- &evalJob{}
	}
	jobs := make(chan *evalJob, o.workers)
	results := make(chan *evalJob, nJobs)

	var wg sync.WaitGroup
	for range o.workers {
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

	res := &evalResult{o: o, specs: e.specs, hist: make([]int64, histBins), plotK: e.plotK}
	accs := make([]*metric.MeanAveragePrecision, len(e.specs))
	for s, spec := range e.specs {
		cfg := o.cfg
		cfg.Name, cfg.TopN = spec.name, spec.topn
		m, err := metric.FromConfig(cfg)
		if err != nil {
			return nil, err
		}
		accs[s] = m
	}
	var redErr error
	redDone := make(chan struct{})
	go func() {
		defer close(redDone)
		pending := map[int]*evalJob{}
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
				if err := e.reduce(j, accs, res, rep); err != nil && redErr == nil {
					redErr = err
					cancel()
				}
				free <- j
			}
		}
	}()

	readErr := e.produce(ctx, r, free, jobs, res, prog)
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
	res.values = make([]float64, len(accs))
	for s, m := range accs {
		res.values[s] = m.Result()
	}
	return res, nil
}

// readAhead runs the reader in its own goroutine, so parsing overlaps the
// packing of updates. Queries travel in recycled chunks, so that the two
// goroutines meet once per chunk, not once per query.
type readAhead struct {
	ch   chan *readChunk
	free chan *readChunk
	done chan struct{}
	wg   sync.WaitGroup
}

// readChunk holds up to readChunkQueries queries, then the error that ended
// the input (io.EOF at the end), if any.
type readChunk struct {
	qs  []runio.Query
	n   int
	err error
}

const (
	readChunkQueries = 32
	readChunks       = 4
)

func startReadAhead(r runio.Reader) *readAhead {
	a := &readAhead{ch: make(chan *readChunk, readChunks), free: make(chan *readChunk, readChunks), done: make(chan struct{})}
	for range readChunks {
		a.free <- &readChunk{qs: make([]runio.Query, readChunkQueries)}
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		for {
			var c *readChunk
			select {
			case c = <-a.free:
			case <-a.done:
				return
			}
			c.n, c.err = 0, nil
			for c.n < len(c.qs) {
				if c.err = r.Next(&c.qs[c.n]); c.err != nil {
					break
				}
				c.n++
			}
			select {
			case a.ch <- c:
			case <-a.done:
				return
			}
			if c.err != nil {
				return
			}
		}
	}()
	return a
}

// stop ends the goroutine; after it the reader may be used again.
func (a *readAhead) stop() {
	close(a.done)
	a.wg.Wait()
}

// produce reads queries into jobs of o.batch queries.
func (e *evaluator) produce(ctx context.Context, r runio.Reader, free <-chan *evalJob, jobs chan<- *evalJob, res *evalResult, prog *progress) error {
	o := e.o
	f64 := o.cfg.DType == metric.Float64
	ra := startReadAhead(r)
	defer ra.stop()
	idx := 0
	var j *evalJob
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
			if err := e.take(ctx, &c.qs[i], &j, &idx, free, res, prog, f64); err != nil {
				return err
			}
			if j != nil && len(j.qids) == o.batch {
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

// take adds one query read to the job being filled (starting one from the
// free list when needed), or counts it as skipped.
func (e *evaluator) take(ctx context.Context, q *runio.Query, j **evalJob, idx *int, free <-chan *evalJob, res *evalResult, prog *progress, f64 bool) error {
	o := e.o
	res.read++
	switch {
	case q.Match == runio.MatchRunOnly && o.runOnly == "skip":
		res.runOnly++
		return nil
	case q.Match == runio.MatchQrelsOnly && o.qrelsOnly == "skip":
		res.qrelsOnly++
		return nil
	}
	if *j == nil {
		select {
		case *j = <-free:
		case <-ctx.Done():
			return ctx.Err()
		}
		(*j).reset(*idx)
	}
	if err := (*j).add(q, f64); err != nil {
		return err
	}
	if prog != nil {
		prog.queries.Add(1)
		prog.items.Add(int64(len(q.Scores)))
	}
	return nil
}

// reduce adds one computed job, in input order.
func (e *evaluator) reduce(j *evalJob, accs []*metric.MeanAveragePrecision, res *evalResult, rep *reporter) error {
	for s, m := range accs {
		if err := m.Merge(j.accs[s]); err != nil {
			return err
		}
	}
	res.evaluated += int64(len(j.qids))
	res.items += int64(j.items - j.placeholders)
	for _, v := range j.per[e.hist].Values[:len(j.qids)] {
		res.hist[histBin(v)]++
	}
	if e.o.perQuery {
		return rep.perQuery(j, len(e.o.measures))
	}
	return nil
}

func histBin(v float64) int {
	b := int(v * histBins)
	return min(max(b, 0), histBins-1)
}

// formatValue prints v so that parsing it gives back the same value of the
// metric's dtype.
func formatValue(v float64, d metric.DType) string {
	if d == metric.Float32 {
		return strconv.FormatFloat(v, 'g', -1, 32)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// reporter writes the output in the chosen format.
type reporter struct {
	w          *bufio.Writer
	o          *evalOptions
	wroteQuery bool
}

func newReporter(w *bufio.Writer, o *evalOptions) *reporter {
	return &reporter{w: w, o: o}
}

// perQuery writes the first n measures of every query of j.
func (r *reporter) perQuery(j *evalJob, n int) error {
	d := r.o.cfg.DType
	for b, qid := range j.qids {
		switch r.o.format {
		case "json":
			if !r.wroteQuery {
				r.w.WriteString(`{"per_query":[`)
			} else {
				r.w.WriteString(",")
			}
			r.w.WriteString("\n{\"qid\":")
			r.w.WriteString(strconv.Quote(qid))
			for s := range n {
				fmt.Fprintf(r.w, ",%q:%s", r.o.measures[s].name, jsonNumber(formatValue(j.per[s].Values[b], d)))
			}
			r.w.WriteString("}")
		case "tsv":
			if !r.wroteQuery && b == 0 {
				r.w.WriteString("measure\tqid\tvalue\n")
			}
			for s := range n {
				fmt.Fprintf(r.w, "%s\t%s\t%s\n", r.o.measures[s].name, qid, formatValue(j.per[s].Values[b], d))
			}
		default:
			for s := range n {
				fmt.Fprintf(r.w, "%-10s\t%s\t%s\n", r.o.measures[s].name, qid, formatValue(j.per[s].Values[b], d))
			}
		}
		r.wroteQuery = true
	}
	return nil
}

// jsonNumber keeps a formatted float valid JSON (it always is for AP values
// in [0, 1], but a NaN would not be).
func jsonNumber(s string) string {
	if s == "NaN" || strings.Contains(s, "Inf") {
		return strconv.Quote(s)
	}
	return s
}

// count is one counter of the report.
type count struct {
	key  string
	text string
	n    int64
}

func (res *evalResult) counts() []count {
	st := res.stats
	cs := []count{
		{"queries_evaluated", "queries evaluated", res.evaluated},
		{"queries_read", "queries read", res.read},
		{"items", "items ranked", res.items},
		{"rows", "rows read", st.Rows},
	}
	if res.o.read.Format == runio.FormatTREC || len(res.o.paths) == 2 {
		cs = append(cs,
			count{"qrels_rows", "qrels lines read", st.QrelsRows},
			count{"run_only_queries", "run-only queries (no judgment)", st.RunOnlyQueries},
			count{"run_only_skipped", "  of which skipped", res.runOnly},
			count{"qrels_only_queries", "qrels-only queries (not in the run)", st.QrelsOnlyQueries},
			count{"qrels_only_skipped", "  of which skipped", res.qrelsOnly},
			count{"unjudged_items", "unjudged run items (label 0)", st.UnjudgedItems},
			count{"unranked_judged", "judged documents not in the run", st.UnrankedJudged},
			count{"unranked_relevant", "  of which relevant (in the AP denominator)", st.UnrankedRelevant},
		)
	}
	cs = append(cs,
		count{"duplicates_dropped", "duplicates dropped", st.DuplicatesDropped},
		count{"blank_lines", "blank lines", st.BlankLines},
	)
	return cs
}

func (res *evalResult) settings() string {
	c := res.o.cfg
	layout := "ragged"
	if !c.Ragged {
		layout = "dense"
	}
	return fmt.Sprintf("dtype %s, ties %s, seed %d, accumulation %s, %s lists, %d queries per update",
		c.DType, c.Ties, c.Seed, c.Accumulation, layout, res.o.batch)
}

// finish writes the summary.
func (r *reporter) finish(res *evalResult) error {
	o := r.o
	d := o.cfg.DType
	n := len(o.measures)
	switch o.format {
	case "json":
		if r.wroteQuery {
			r.w.WriteString("\n],")
		} else {
			r.w.WriteString("{")
		}
		r.w.WriteString("\n\"input\":{\"paths\":[")
		for i, p := range o.paths {
			if i > 0 {
				r.w.WriteString(",")
			}
			r.w.WriteString(strconv.Quote(p))
		}
		fmt.Fprintf(r.w, "],\"format\":%q},\n", inputFormat(o))
		fmt.Fprintf(r.w, "\"settings\":{\"dtype\":%q,\"ties\":%q,\"seed\":%d,\"accumulation\":%q,\"ragged\":%v,\"batch\":%d},\n",
			o.cfg.DType, o.cfg.Ties, o.cfg.Seed, o.cfg.Accumulation, o.cfg.Ragged, o.batch)
		r.w.WriteString("\"counts\":{")
		for i, c := range res.counts() {
			if i > 0 {
				r.w.WriteString(",")
			}
			fmt.Fprintf(r.w, "%q:%d", c.key, c.n)
		}
		r.w.WriteString("},\n\"measures\":{")
		for s := range n {
			if s > 0 {
				r.w.WriteString(",")
			}
			fmt.Fprintf(r.w, "%q:%s", o.measures[s].name, jsonNumber(formatValue(res.values[s], d)))
		}
		r.w.WriteString("}}\n")
	case "tsv":
		if !r.wroteQuery {
			r.w.WriteString("measure\tqid\tvalue\n")
		}
		for s := range n {
			fmt.Fprintf(r.w, "%s\tall\t%s\n", o.measures[s].name, formatValue(res.values[s], d))
		}
		for _, c := range res.counts() {
			fmt.Fprintf(r.w, "%s\tall\t%d\n", c.key, c.n)
		}
	default:
		tw := tabwriter.NewWriter(r.w, 0, 0, 2, ' ', 0)
		if r.wroteQuery {
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "input\t%s (%s)\n", strings.Join(o.paths, " "), inputFormat(o))
		fmt.Fprintf(tw, "settings\t%s\n", res.settings())
		for _, c := range res.counts() {
			fmt.Fprintf(tw, "%s\t%d\n", c.text, c.n)
		}
		fmt.Fprintln(tw)
		fmt.Fprintln(tw, "measure\tvalue")
		for s := range n {
			fmt.Fprintf(tw, "%s\t%s\n", o.measures[s].name, formatValue(res.values[s], d))
		}
		return tw.Flush()
	}
	return nil
}

func inputFormat(o *evalOptions) string {
	if len(o.paths) == 2 {
		return "trec"
	}
	if o.read.Format != runio.FormatAuto {
		return o.read.Format.String()
	}
	f, err := runio.DetectFormat(o.paths[0])
	if err != nil {
		return "unknown"
	}
	return f.String()
}

// plotData is what --plot draws: MAP@k for k = 1..K, and the histogram of
// per-query AP over [0, 1] in histBins bins.
type plotData struct {
	K       []int
	MAPAtK  []float64
	Measure string // the histogram's measure
	Counts  []int64
}

func (res *evalResult) plot() plotData {
	p := plotData{Counts: res.hist}
	for i, s := range res.plotK {
		p.K = append(p.K, i+1)
		p.MAPAtK = append(p.MAPAtK, res.values[s])
	}
	p.Measure = "map"
	for _, s := range res.o.measures {
		if s.topn == metric.NoTopN {
			return p
		}
	}
	p.Measure = res.o.measures[0].name
	return p
}

// plot size in pixels.
const (
	plotWidthPx  = 1200
	plotHeightPx = 500
	plotDPI      = 100
)

// writePlot draws the MAP@k curve and the AP histogram side by side.
func writePlot(path string, d plotData) error {
	curve := plot.New()
	curve.Title.Text = "MAP@k"
	curve.X.Label.Text = "k"
	curve.Y.Label.Text = "MAP@k"
	pts := make(plotter.XYs, len(d.K))
	for i := range d.K {
		pts[i].X, pts[i].Y = float64(d.K[i]), d.MAPAtK[i]
	}
	line, dots, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	line.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	dots.Color = line.Color
	curve.Add(line, dots, plotter.NewGrid())
	curve.Y.Min = 0

	hist := plot.New()
	hist.Title.Text = "per-query AP (" + d.Measure + ")"
	hist.X.Label.Text = "AP"
	hist.Y.Label.Text = "queries"
	h := &plotter.Histogram{Width: 1.0 / histBins, FillColor: color.RGBA{R: 255, G: 127, B: 14, A: 255}}
	h.LineStyle.Width = vg.Points(0.5)
	h.LineStyle.Color = color.Black
	for i, c := range d.Counts {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: float64(i) / histBins, Max: float64(i+1) / histBins, Weight: float64(c)})
	}
	hist.Add(h)
	hist.X.Min, hist.X.Max = 0, 1

	img := vgimg.NewWith(vgimg.UseWH(vg.Length(plotWidthPx)/plotDPI*vg.Inch, vg.Length(plotHeightPx)/plotDPI*vg.Inch), vgimg.UseDPI(plotDPI))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Millimeter * 8, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	canvases := plot.Align([][]*plot.Plot{{curve, hist}}, tiles, dc)
	curve.Draw(canvases[0][0])
	hist.Draw(canvases[0][1])
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// progress draws a progress bar on a terminal.
type progress struct {
	w       io.Writer
	bytes   *atomic.Int64
	total   int64
	queries atomic.Int64
	items   atomic.Int64
	start   time.Time
	done    chan struct{}
	wg      sync.WaitGroup
}

func startProgress(w io.Writer, bytes *atomic.Int64, total int64) *progress {
	p := &progress{w: w, bytes: bytes, total: total, start: time.Now(), done: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				fmt.Fprint(p.w, "\r"+p.line(time.Since(p.start)))
			case <-p.done:
				fmt.Fprint(p.w, "\r\033[K")
				return
			}
		}
	}()
	return p
}

// line renders the bar at elapsed time el.
func (p *progress) line(el time.Duration) string {
	q, it, b := p.queries.Load(), p.items.Load(), p.bytes.Load()
	sec := max(el.Seconds(), 1e-9)
	s := fmt.Sprintf("%d queries (%.0f/s), %d items (%.2f M/s)", q, float64(q)/sec, it, float64(it)/sec/1e6)
	if p.total > 0 && b > 0 {
		frac := min(float64(b)/float64(p.total), 1)
		const width = 24
		n := int(frac * width)
		eta := time.Duration(float64(el) * (1/frac - 1)).Round(time.Second)
		s = fmt.Sprintf("[%s%s] %3.0f%% %s, ETA %s", strings.Repeat("=", n), strings.Repeat(" ", width-n), 100*frac, s, eta)
	}
	return s + "\033[K"
}

func (p *progress) stop() {
	close(p.done)
	p.wg.Wait()
}
