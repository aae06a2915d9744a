package beam

import (
	"context"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

func init() {
	beam.RegisterType(reflect.TypeOf(Pos{}))
	beam.RegisterType(reflect.TypeOf(Row{}))
	beam.RegisterType(reflect.TypeOf(Judgment{}))
	beam.RegisterType(reflect.TypeOf(Chunk{}))
	beam.RegisterType(reflect.TypeOf(Item{}))
	beam.RegisterType(reflect.TypeOf(Query{}))
	beam.RegisterType(reflect.TypeOf(List{}))
	beam.RegisterType(reflect.TypeOf(QueryValue{}))
	beam.RegisterType(reflect.TypeOf(DeadLetter{}))
	beam.RegisterType(reflect.TypeOf(Counts{}))
	beam.RegisterType(reflect.TypeOf(Report{}))
	beam.RegisterType(reflect.TypeOf(MeasureResult{}))
	beam.RegisterType(reflect.TypeOf(FileFailure{}))
	beam.RegisterCoder(reflect.TypeOf(Accumulator{}), encodeAccumulator, decodeAccumulator)

	register.Function1x1(rowChunk)
	register.Function2x0(keyChunk)
	register.Function2x0(failedFile)
	register.Function1x1(markQrels)
	register.Function2x1(addCounts)
	register.DoFn6x1[string, func(*Chunk) bool, func(*FileFailure) bool, func(List), func(DeadLetter), func(Counts), error](&buildFn{})
	register.DoFn5x1[context.Context, List, func(QueryValue), func(DeadLetter), func(Counts), error](&evalFn{})
	register.DoFn4x1[[]byte, func(*Report) bool, func(*Counts) bool, func(Report), error](&reportFn{})
	register.Combiner3[Accumulator, QueryValue, Report](&OverallFn{})
	register.Iter1[Chunk]()
	register.Iter1[FileFailure]()
	register.Emitter1[FileFailure]()
	register.Emitter2[string, Chunk]()
	register.Iter1[Report]()
	register.Iter1[Counts]()
	register.Emitter1[List]()
	register.Emitter1[Chunk]()
	register.Emitter1[QueryValue]()
	register.Emitter1[DeadLetter]()
	register.Emitter1[Counts]()
	register.Emitter1[Report]()
}

// Step is the output of one step of the pipeline: its main output, the
// records it rejected (DeadLetter), and Counts elements whose sum counts
// what it read and rejected. Any of them may be empty.
type Step struct {
	// Output is the step's main output.
	Output beam.PCollection
	// DeadLetters holds DeadLetter values.
	DeadLetters beam.PCollection
	// Counts holds Counts values, to be added up.
	Counts beam.PCollection
}

func rowChunk(r Row) Chunk {
	return Chunk{QID: r.QID, File: r.Pos.File, Items: []Item{{Doc: r.Doc, Label: r.Label, Score: r.Score,
		Weight: r.Weight, HasWeight: r.HasWeight, Offset: r.Pos.Offset}}}
}
func addCounts(a, b Counts) Counts { return a.Add(b) }

// keyChunk keys a chunk by its qid; FileFailed chunks go to failedFile.
func keyChunk(c Chunk, emit func(string, Chunk)) {
	if !c.FileFailed {
		emit(c.QID, c)
	}
}

// FileFailure says that a reader could not read File to the end, for
// Reason: every query with a row from File goes to the dead letters.
type FileFailure struct {
	File   string
	Reason string
}

func failedFile(c Chunk, emit func(FileFailure)) {
	if c.FileFailed {
		emit(FileFailure{File: c.File, Reason: c.Reason})
	}
}

// rejections gathers what the readers rejected of one query, from the
// Rejected fields of its chunks and the files that failed.
type rejections struct {
	n      int64
	at     Pos
	reason string
	failed map[string]string // file -> reason
}

// newRejections reads the failed files of the side input.
func newRejections(failed func(*FileFailure) bool) *rejections {
	r := &rejections{}
	var f FileFailure
	for failed(&f) {
		if r.failed == nil {
			r.failed = map[string]string{}
		}
		if _, ok := r.failed[f.File]; !ok || f.Reason < r.failed[f.File] {
			r.failed[f.File] = f.Reason
		}
	}
	return r
}

// add notes the rejected rows of a chunk, keeping the first by position.
func (r *rejections) add(c *Chunk) {
	if c.Rejected == 0 {
		return
	}
	at := Pos{File: c.File, Offset: c.RejectedAt}
	if r.n == 0 || at.Compare(r.at) < 0 {
		r.at, r.reason = at, c.Reason
	}
	r.n += c.Rejected
}

// why returns the reason the query of these rows must go to the dead
// letters, or "".
func (r *rejections) why(rows ...[]Row) string {
	if r.n > 0 {
		return fmt.Sprintf("the query has %d row(s) rejected by the reader (the first at %s: %s), so it is not evaluated on the rest", r.n, r.at, r.reason)
	}
	if len(r.failed) == 0 {
		return ""
	}
	files := map[string]bool{}
	for _, rs := range rows {
		for i := range rs {
			files[rs[i].Pos.File] = true
		}
	}
	first := ""
	for f := range files {
		if _, ok := r.failed[f]; ok && (first == "" || f < first) {
			first = f
		}
	}
	if first == "" {
		return ""
	}
	return fmt.Sprintf("the query has rows in %s, which could not be read to the end (%s), so it is not evaluated on part of its rows", first, r.failed[first])
}

// groupBy keys chunks by qid and gathers the FileFailed ones into the side
// input of the grouping DoFn.
func groupBy(s beam.Scope, chunks beam.PCollection) (keyed, failed beam.PCollection) {
	return beam.ParDo(s, keyChunk, chunks), beam.ParDo(s, failedFile, chunks)
}

// GroupLists groups rows (a PCollection of Row) by qid into one List per
// query (Step.Output, a PCollection of List). The items of a list are in
// Pos order, whatever order the rows arrive in, so every later result is
// independent of how the input was sharded or shuffled. Repeated documents
// are handled by dedupe; a query that cannot be built sends each of its
// rows to the dead letters with the reason, and so does a query of which a
// reader rejected a row (see Chunk): a query is evaluated on all of its
// rows or not at all.
func GroupLists(s beam.Scope, rows beam.PCollection, dedupe Dedupe) (Step, error) {
	s = s.Scope("rankmetrics.GroupLists")
	return GroupChunks(s, beam.ParDo(s, rowChunk, rows), dedupe)
}

// GroupChunks is GroupLists for a PCollection of Chunk, as the readers of
// package beamio emit them.
func GroupChunks(s beam.Scope, chunks beam.PCollection, dedupe Dedupe) (Step, error) {
	s = s.Scope("rankmetrics.GroupChunks")
	return buildLists(s, chunks, dedupe, false)
}

// JoinTREC joins TREC qrels and run lines (two PCollections of Chunk, as
// beamio.ReadTREC reads them) by qid into one List per query, as trec_eval
// and `rankmetrics eval` do: run documents without a judgment get label 0
// (and are marked Unjudged), and judged documents the run does not rank go
// to UnrankedLabels and UnrankedDocs, where the relevant ones still count
// in the AP denominator. Queries found in only one of the files are kept
// and counted (RunOnlyQueries, QrelsOnlyQueries). A query of which a
// reader rejected a qrels or run line, or with a line in a file that could
// not be read to the end (a FileFailed chunk), goes wholly to the dead
// letters. It runs the DoFn of GroupChunks, on the qrels chunks marked
// Qrels and the run chunks together.
func JoinTREC(s beam.Scope, qrels, run beam.PCollection, dedupe Dedupe) (Step, error) {
	s = s.Scope("rankmetrics.JoinTREC")
	return buildLists(s, beam.Flatten(s, beam.ParDo(s, markQrels, qrels), run), dedupe, true)
}

// markQrels marks a chunk as one of qrels lines.
func markQrels(c Chunk) Chunk {
	c.Qrels = true
	return c
}

// buildLists groups chunks by qid and builds one List per query.
func buildLists(s beam.Scope, chunks beam.PCollection, dedupe Dedupe, trec bool) (Step, error) {
	if err := dedupe.Check(); err != nil {
		return Step{}, err
	}
	keyed, failed := groupBy(s, chunks)
	grouped := beam.GroupByKey(s, keyed)
	lists, dead, counts := beam.ParDo3(s, &buildFn{Dedupe: dedupe, TREC: trec}, grouped, beam.SideInput{Input: failed})
	return Step{Output: lists, DeadLetters: dead, Counts: counts}, nil
}

// buildFn builds the List of one query from its chunks: single-file rows,
// or (TREC set) run and qrels lines.
type buildFn struct {
	Dedupe Dedupe
	TREC   bool
}

// ProcessElement builds the list of one query.
func (f *buildFn) ProcessElement(qid string, iter func(*Chunk) bool, failed func(*FileFailure) bool, emit func(List), dead func(DeadLetter), counts func(Counts)) error {
	b := builder{qid: qid, trec: f.TREC}
	var ch Chunk
	rej := newRejections(failed)
	for iter(&ch) {
		if ch.Qrels {
			b.qrels = ch.appendRows(b.qrels)
		} else {
			b.rows = ch.appendRows(b.rows)
		}
		rej.add(&ch)
	}
	l, dl, c := b.build(f.Dedupe, rej.why(b.rows, b.qrels))
	if dl != nil {
		for _, d := range dl {
			dead(d)
		}
		counts(c)
		return nil
	}
	emit(l)
	return nil
}

// EvalOptions says which TREC queries to evaluate.
type EvalOptions struct {
	// KeepRunOnly evaluates the queries of the run without any judgment
	// (value 0). By default they are skipped, as trec_eval and
	// `rankmetrics eval` skip them, and counted. trec_eval's measures
	// refuse it, as eval does.
	KeepRunOnly bool
	// KeepQrelsOnly evaluates judged queries the run has no line for
	// (value 0, as trec_eval -c). By default they are skipped and counted.
	KeepQrelsOnly bool
	// Alpha sets the coverage, 1 - Alpha, of the t interval of each
	// measure in the Report of Evaluate, as eval's --alpha; 0 means
	// significance.DefaultAlpha (0.05). EvaluateLists does not use it.
	Alpha float64
	// SubtopicQrels are the subtopic qrels (qid subtopic docno rel) the
	// diversity measures read (ReadsSubtopics); beamio.ReadSubtopicQrels
	// reads them from the qrels files. They are required when a measure
	// reads them and ignored otherwise. They travel inside the pipeline:
	// held whole in memory where the pipeline is built, encoded in its
	// description, and decoded by every worker's evaluation.
	SubtopicQrels *runio.SubtopicQrels
}

// EvaluateLists computes every measure on every List, one query at a time
// (Step.Output, a PCollection of QueryValue), through the evaluation plan
// of `rankmetrics eval` (see Evaluator). A query the plan refuses goes to
// the dead letters; run-only and qrels-only TREC queries are skipped or
// kept as opts says.
//
// Each query is evaluated as an update of its own, a batch of one list.
// This matters because TF-Ranking's list weights depend on the batch: a
// list without relevant items weighs the mean list weight of the lists of
// its own update. With a batch of one, such a list weighs 1; so the value
// of a query, and the overall value, do not depend on how the input was
// batched, sharded or ordered. Without weights every list weighs 1 anyway,
// so this only changes results for weighted lists without relevant items,
// compared with an evaluation that batches several queries per update.
// `rankmetrics eval --batch 1 --accumulation exact` makes one update per
// query too, and agrees to the bit.
//
// Under the Random tie policy, each query draws its tie order from a
// generator seeded with the measures' seed and the qid, so a query gets
// the same order wherever it is evaluated. This is reproducible for any
// sharding, but it is not the order of a single process, which seeds each
// update from its position; the other policies (stable, pessimistic,
// optimistic, expected) give the same values as a single process.
func EvaluateLists(s beam.Scope, lists beam.PCollection, measures []metric.Config, opts EvalOptions) (Step, error) {
	cfgs, err := Normalize(measures)
	if err != nil {
		return Step{}, err
	}
	if err := CheckEvalOptions(cfgs, opts); err != nil {
		return Step{}, err
	}
	if name := ReadsSubtopics(cfgs); name == "" {
		opts.SubtopicQrels = nil
	} else if opts.SubtopicQrels == nil {
		return Step{}, fmt.Errorf("measure %q reads subtopic qrels (qid subtopic docno rel), and EvalOptions.SubtopicQrels is nil (beamio.ReadSubtopicQrels reads them from the qrels): %w", name, ErrMeasures)
	}
	s = s.Scope("rankmetrics.EvaluateLists")
	values, dead, counts := beam.ParDo3(s, &evalFn{Measures: cfgs, Options: opts}, lists)
	return Step{Output: values, DeadLetters: dead, Counts: counts}, nil
}

// CheckEvalOptions returns an error when opts do not suit the measures:
// trec_eval's measures evaluate no query without judgments, so they refuse
// KeepRunOnly, as `rankmetrics eval --run-only keep` does.
func CheckEvalOptions(measures []metric.Config, opts EvalOptions) error {
	if !opts.KeepRunOnly {
		return nil
	}
	for _, c := range measures {
		if m, _ := measure.Parse(c.Name); m.IsTrecEval() {
			return fmt.Errorf("measure %q: trec_eval evaluates no query without judgments; run-only queries cannot be kept (keep them only with TF-Ranking measures): %w", c.Name, ErrMeasures)
		}
	}
	return nil
}

type evalFn struct {
	Measures []metric.Config
	Options  EvalOptions
	ev       *Evaluator
}

// Setup makes the evaluator.
func (f *evalFn) Setup() error {
	var err error
	f.ev, err = NewEvaluatorSubtopics(f.Measures, f.Options.SubtopicQrels)
	return err
}

// ProcessElement evaluates one list.
func (f *evalFn) ProcessElement(_ context.Context, l List, emit func(QueryValue), dead func(DeadLetter), counts func(Counts)) error {
	if f.ev == nil {
		if err := f.Setup(); err != nil {
			return err
		}
	}
	if (l.Match == MatchRunOnly && !f.Options.KeepRunOnly) || (l.Match == MatchQrelsOnly && !f.Options.KeepQrelsOnly) {
		c := l.Counts
		c.SkippedQueries++
		c.SkippedItems += int64(len(l.Scores))
		counts(c)
		return nil
	}
	v, err := f.ev.Eval(&l)
	if err != nil {
		dead(DeadLetter{Stage: StageEvaluate, QID: l.QID, Reason: err.Error(), Rows: int64(len(l.Scores))})
		c := l.Counts
		c.DeadQueries++
		c.DeadQueryItems += int64(len(l.Scores))
		c.DeadLetters++
		counts(c)
		return nil
	}
	emit(v)
	return nil
}

// Summarize combines per-query values (a PCollection of QueryValue) into
// the overall Report through OverallFn, adds the Counts elements of the
// given collections to its counts, and returns a PCollection holding
// exactly one Report, also when there is no query. The intervals of the
// Report cover 95%; SummarizeAlpha sets their coverage.
func Summarize(s beam.Scope, values beam.PCollection, measures []metric.Config, counts ...beam.PCollection) (beam.PCollection, error) {
	return SummarizeAlpha(s, values, measures, 0, counts...)
}

// SummarizeAlpha is Summarize with intervals of coverage 1 - alpha (0:
// significance.DefaultAlpha), as `rankmetrics eval --ci t --alpha`.
func SummarizeAlpha(s beam.Scope, values beam.PCollection, measures []metric.Config, alpha float64, counts ...beam.PCollection) (beam.PCollection, error) {
	fn, err := NewOverallFn(measures)
	if err != nil {
		return beam.PCollection{}, err
	}
	if _, err := checkAlpha(alpha); err != nil {
		return beam.PCollection{}, err
	}
	fn.Alpha = alpha
	s = s.Scope("rankmetrics.Summarize")
	overall := beam.Combine(s, fn, values)
	var total beam.PCollection
	switch len(counts) {
	case 0:
		total = beam.CreateList(s, []Counts{})
	case 1:
		total = counts[0]
	default:
		total = beam.Flatten(s, counts...)
	}
	total = beam.Combine(s, addCounts, total)
	return beam.ParDo(s, &reportFn{Measures: fn.Measures, Alpha: alpha}, beam.Impulse(s),
		beam.SideInput{Input: overall}, beam.SideInput{Input: total}), nil
}

type reportFn struct {
	Measures []metric.Config
	Alpha    float64
}

// ProcessElement joins the overall values with the counts.
func (f *reportFn) ProcessElement(_ []byte, reports func(*Report) bool, counts func(*Counts) bool, emit func(Report)) error {
	var r Report
	n := 0
	var x Report
	for reports(&x) {
		r = x
		n++
	}
	if n > 1 {
		return fmt.Errorf("rankmetrics: %d overall reports, want 1", n)
	}
	if n == 0 {
		fn := &OverallFn{Measures: f.Measures, Alpha: f.Alpha}
		var err error
		if r, err = fn.ExtractOutput(fn.CreateAccumulator()); err != nil {
			return err
		}
	}
	var c Counts
	for counts(&c) {
		r.Counts = r.Counts.Add(c)
	}
	emit(r)
	return nil
}
