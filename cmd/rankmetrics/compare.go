package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/runio"
	"github.com/rankmetrics/rankmetrics/significance"
)

const compareUsage = `usage: rankmetrics compare [flags] QRELS RUN_A RUN_B [RUN...]
       rankmetrics compare [flags] FILE_A FILE_B [FILE...]
       rankmetrics compare [flags] --score-col a --score-col b [...] FILE

Compares systems over the same queries with paired significance tests. Each
run is evaluated by the engine of "rankmetrics eval" (the per-query values of
eval -q, for any measure eval accepts); then every run is compared with the
baseline (--baseline, default the first run) or every pair (--all-pairs).
TREC runs are read 2 x --workers at a time, their qrels parsed once; a run
that is not sorted by qid, or not well formed, is then read again alone.
The output does not depend on --workers.

Inputs: a TREC qrels file and two or more runs; or two or more prediction
files (TSV, CSV, JSON Lines, Parquet, RKM1; labels in each); or one prediction
file with several --score-col columns, one run per column.

Pairing: the queries are paired by qid. By default the queries are the
qrels' judged queries: a run that misses one gets 0 on it, as trec_eval -c
(--qrels-only keep), and queries only in a run are left out (--run-only
skip), the default of eval too, so that eval -q and compare give the same
values. With other settings, the queries are those every run has; the others
are counted on stderr. A run without any query in common with the qrels is an
error naming it; a run that covers fewer than half of the judged queries gets
a warning on stderr with the counts. A query to which an ir_measures measure
gives no value in some run (Accuracy's without a relevant document in its top
K: ir_measures reports none) is left out of that measure's tests and means,
counted on stderr and in the TSV/JSON queries of the measure; the other
measures keep it.

Tests (--test, repeatable, two-sided; default t and randomization):
  t              Student's paired t-test
  wilcoxon       signed-rank test, zeros dropped, exact for n <= 50 untied
  randomization  Fisher's sign-flip test of the mean difference: exact when
                 2^n <= --samples, else --samples Monte Carlo samples
  bootstrap      paired bootstrap: shift-method p and percentile interval
  tukey          randomised Tukey HSD over all runs (Carterette 2012); its p
                 is already family-wise over all pairs, so --correction does
                 not apply to it (p_adjusted = p)
p_adjusted applies --correction over the comparisons of one measure and one
test. diff is the mean of the per-query differences run - baseline;
effect_size is diff / sd of the differences; ci_low and ci_high bound the
(1 - alpha) t interval of diff. A difference is significant (a superscript in
the tables, a * after p_adj) when p_adjusted <= alpha. In JSON, runs[].mean is
the value eval reports for the run over its queries; mean_baseline and
mean_run are the means over the paired queries, as the tables' means: the
exact sum over the number of queries, rounded once in the measure's dtype.
The tables print means, differences, effect sizes and intervals with
--digits decimals (4 by default; -1: the shortest form that reads back to
the same number); JSON and TSV print every number in that shortest form.
Non-finite statistics
(t of equal non-zero differences, the effect size with sd 0, the interval of
one query) are null in JSON. Monte Carlo results depend only on --seed, never
on --workers.

Runs are named by their file names; runs of the same file name by the
shortest ending of their paths that tells them apart (a/x.run, b/x.run);
with --score-col, by their columns. --baseline takes a run's name, or its
path written any way (./x.run, an absolute path, a link to the file).

Every name (of a run, a file, a measure) is written as inert text. The
markdown format backslash-escapes \ | * _ (but between letters or digits)
` + "`" + ` [ ] < > & ~ ! $ #; the latex format escapes the ten special characters
\ { } $ & # ^ _ ~ % (\textbackslash{}, \{, ...); both show any other
character that is not printable as its escape, after a backslash (\n, \x01,
\u202e, \xff for invalid UTF-8).

` + powerHelp + `

` + namesHelp + `

` + plotPathHelp + `

Flags:
`

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*s = append(*s, p)
		}
	}
	return nil
}

// The tests of --test, in report order.
var compareTests = []string{"t", "wilcoxon", "randomization", "bootstrap", "tukey"}

// compareOptions is the parsed command line of compare.
type compareOptions struct {
	engineArgs
	paths      []string
	trec       bool
	scoreCols  []string
	tests      []string
	samples    int
	seed       uint64
	alpha      float64
	correction significance.Correction
	baseline   string
	allPairs   bool
	format     string
	plotPath   string
	// digits is the number of decimals of the tables' means, differences,
	// effect sizes and intervals; -1 prints the shortest form that reads
	// back to the same number.
	digits int
	powerOptions
	stderr io.Writer
}

func parseCompareArgs(args []string, stdout, stderr io.Writer) (*compareOptions, bool, error) {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &compareOptions{}
	var ef engineFlags
	// --seed is the Monte Carlo seed here; the tie seed is --ties-seed. A
	// run missing a judged query scores 0 on it (--qrels-only keep), so
	// that every run has a value on every query of the comparison.
	ef.register(fs, &o.engineArgs, false)
	var tests, scoreCols stringList
	fs.Var(&tests, "test", "`TEST`: t, wilcoxon, randomization, bootstrap or tukey; repeatable (default t and randomization)")
	fs.IntVar(&o.samples, "samples", significance.DefaultSamples, "Monte Carlo samples of randomization, bootstrap and tukey")
	fs.Uint64Var(&o.seed, "seed", 0, "`SEED` of the Monte Carlo samples of randomization, bootstrap and tukey (the tie seed is --ties-seed)")
	fs.Float64Var(&o.alpha, "alpha", significance.DefaultAlpha, "significance level; intervals cover 1 - alpha")
	correction := fs.String("correction", "holm", "multiple-comparison correction per measure and test: none, bonferroni, holm or bh")
	fs.StringVar(&o.baseline, "baseline", "", "the baseline `RUN` (its name or path; default the first run)")
	fs.BoolVar(&o.allPairs, "all-pairs", false, "compare every pair of runs instead of each run with the baseline")
	fs.StringVar(&o.format, "format", "table", "output `FORMAT`: table, markdown, latex, json or tsv")
	fs.IntVar(&o.digits, "digits", 4, digitsUsage("4"))
	fs.StringVar(&o.plotPath, "plot", "", "write a PNG to `FILE`: the sorted per-query differences with the baseline, one panel per run and measure (at most 64)")
	o.powerOptions.register(fs)
	fs.Var(&scoreCols, "score-col", "`NAME` of the score column or key (default score); repeat it to compare the columns of one file")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), compareUsage)
		fs.PrintDefaults()
	}
	var help bool
	var err error
	if o.paths, help, err = parseInterleaved(fs, args, stdout); help || err != nil {
		return nil, help, err
	}
	bad := func(format string, a ...any) (*compareOptions, bool, error) {
		return nil, false, usageError(stderr, "compare", fmt.Sprintf(format, a...))
	}
	if err := ef.parse(&o.engineArgs); err != nil {
		return bad("%v", err)
	}
	if o.correction, err = significance.ParseCorrection(*correction); err != nil {
		return bad("--correction %q: want none, bonferroni, holm or bh", *correction)
	}
	if len(o.measures) == 0 {
		o.measures = []evaluate.Measure{measure.MAP()}
	}
	if err := o.applyProfile(); err != nil {
		return bad("--profile: %v", err)
	}
	o.keepDocs()
	for _, t := range tests {
		if !slices.Contains(compareTests, t) {
			return bad("--test %q: want t, wilcoxon, randomization, bootstrap or tukey", t)
		}
	}
	if len(tests) == 0 {
		tests = stringList{"t", "randomization"}
	}
	for _, t := range compareTests { // report order, no repeats
		if slices.Contains(tests, t) {
			o.tests = append(o.tests, t)
		}
	}
	switch {
	case o.samples < 1:
		return bad("--samples %d: want at least 1", o.samples)
	case !(o.alpha > 0 && o.alpha < 1):
		return bad("--alpha %v: want 0 < alpha < 1", o.alpha)
	case o.allPairs && o.baseline != "":
		return bad("--baseline and --all-pairs exclude each other")
	}
	switch o.format {
	case "table", "markdown", "latex", "json", "tsv":
	default:
		return bad("--format %q: want table, markdown, latex, json or tsv", o.format)
	}
	if err := checkDigits(o.digits); err != nil {
		return bad("%v", err)
	}
	if err := o.powerOptions.check(o.alpha); err != nil {
		return bad("%v", err)
	}
	o.scoreCols = scoreCols
	if len(o.scoreCols) == 0 {
		o.scoreCols = []string{"score"}
	}
	// TREC unless the format, or the first file's extension, says a
	// prediction file.
	o.trec = o.read.Format == runio.FormatTREC
	if o.read.Format == runio.FormatAuto && len(o.paths) > 0 {
		f, err := runio.DetectFormat(o.paths[0])
		o.trec = err != nil || f == runio.FormatTREC
	}
	nRuns := len(o.paths)
	if o.trec {
		nRuns--
		if len(o.scoreCols) > 1 {
			return bad("--score-col is repeated, but TREC runs have no score columns")
		}
	} else if len(o.scoreCols) > 1 {
		if len(o.paths) != 1 {
			return bad("a repeated --score-col compares the columns of one file; got %d files", len(o.paths))
		}
		nRuns = len(o.scoreCols)
	}
	if nRuns < 2 {
		return bad("want at least two runs (QRELS RUN_A RUN_B, FILE_A FILE_B, or FILE with two --score-col); got %d paths (see rankmetrics compare -h)", len(o.paths))
	}
	if n := (nRuns - 1) * len(o.measures); o.plotPath != "" && n > maxPlotPanels {
		return bad("--plot: %d runs compared with the baseline x %d measures = %d panels; at most %d (compare fewer runs or measures, or leave out --plot)", nRuns-1, len(o.measures), n, maxPlotPanels)
	}
	return o, false, nil
}

// runValues is the per-query values of one run.
type runValues struct {
	name, file string
	// qidBytes holds the qids of the queries one after another, query
	// k's ending at qidEnd[k]: a string per query cost three times as
	// much for short qids, held for every run read at once.
	qidBytes []byte
	qidEnd   []int
	values   [][]float64 // [measure][query]
	// noValue[measure][query] is set for a query to which an ir_measures
	// measure gives no value (Accuracy's without a relevant document
	// ranked: weight 0), which ir_measures leaves out.
	noValue [][]bool
	means   []float64 // overall value of each measure, as eval reports it
}

// addQID appends the qid of the next query.
func (r *runValues) addQID(qid string) {
	r.qidBytes = append(r.qidBytes, qid...)
	r.qidEnd = append(r.qidEnd, len(r.qidBytes))
}

// numQueries is the number of queries of the run.
func (r *runValues) numQueries() int { return len(r.qidEnd) }

// qidBytesOf returns the qid of query k, in place.
func (r *runValues) qidBytesOf(k int) []byte {
	start := 0
	if k > 0 {
		start = r.qidEnd[k-1]
	}
	return r.qidBytes[start:r.qidEnd[k]]
}

// qid returns the qid of query k.
func (r *runValues) qid(k int) string { return string(r.qidBytesOf(k)) }

// runCompare implements "rankmetrics compare".
func runCompare(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, help, err := parseCompareArgs(args, stdout, stderr)
	if help || err != nil {
		return err
	}
	if o.plotPath != "" {
		if err := checkPlotPath(o.plotPath, o.paths); err != nil {
			return usageError(stderr, "compare", err.Error())
		}
	}
	o.read.Stdin = stdin
	defer o.limitCores()()
	o.stderr = stderr
	runs, err := o.evaluateRuns(ctx)
	if err != nil {
		return err
	}
	if err := o.dropNonFinite(runs, stderr); err != nil {
		return err
	}
	qids, values, err := pairQueries(runs, o.measures, stderr)
	if err != nil {
		return err
	}
	rep, err := o.compare(ctx, runs, qids, values)
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(stdout, 1<<16)
	if err := rep.write(out, o.format); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if o.plotPath != "" {
		if err := writeComparePlot(o.plotPath, rep, values); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
	}
	return nil
}

// compareInput is one run of a comparison: its name, its file, the paths
// of its input (the qrels and the run, or one prediction file) and its
// score column.
type compareInput struct {
	name, file string
	paths      []string
	scoreCol   string
}

// runRead is what the read of one run gave: its values and eval's result,
// or the error; opened is false when the input did not open.
type runRead struct {
	rv     *runValues
	res    *evaluate.Result
	err    error
	opened bool
}

// evaluateRuns evaluates every run with eval's engine and keeps its
// per-query values. TREC runs that are sorted are read runsAtOnce at a
// time with their qrels parsed once (runio.OpenRuns); a run that is not
// sorted, or not well formed, is then read again alone, as is any other
// input. Results, warnings and the first error are those of reading the
// runs one after another, in run order, whatever --workers; no group is
// read after an error.
func (o *compareOptions) evaluateRuns(ctx context.Context) ([]*runValues, error) {
	var inputs []compareInput
	switch {
	case o.trec:
		labels := runLabels(o.paths[1:])
		for i, p := range o.paths[1:] {
			inputs = append(inputs, compareInput{labels[i], p, []string{o.paths[0], p}, "score"})
		}
	case len(o.scoreCols) > 1:
		for _, c := range o.scoreCols {
			inputs = append(inputs, compareInput{c, o.paths[0], o.paths[:1], c})
		}
	default:
		labels := runLabels(o.paths)
		for i, p := range o.paths {
			inputs = append(inputs, compareInput{labels[i], p, []string{p}, o.scoreCols[0]})
		}
	}
	sub, err := subtopicQrels(ctx, o.measures, o.trec, o.paths[0])
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	for i := range inputs {
		name := inputs[i].name
		if seen[name]++; seen[name] > 1 {
			inputs[i].name = fmt.Sprintf("%s#%d", name, seen[name])
		}
	}
	runs := make([]*runValues, len(inputs))
	for start := 0; start < len(inputs); start += o.runsAtOnce() {
		group := inputs[start:min(start+o.runsAtOnce(), len(inputs))]
		reads := make([]*runRead, len(group))
		if o.trec {
			o.readShared(ctx, group, reads, sub)
		}
		for k, in := range group {
			rd := reads[k]
			if rd == nil {
				rd = o.readAlone(ctx, in, sub)
			}
			if !rd.opened {
				// The input did not open.
				return nil, rd.err
			}
			err := rd.err
			if err == nil && o.trec {
				err = trecMatchError(o.paths[0], in.file, rd.res)
			} else if err == nil && rd.res.Read == 0 {
				err = fmt.Errorf("no query to evaluate: the input has no data rows")
			}
			if err != nil {
				return nil, fmt.Errorf("run %s: %w", in.file, err)
			}
			if o.trec {
				for _, w := range trecOneSidedWarnings(o.paths[0], in.file, rd.res, o.runOnly, o.qrelsOnly) {
					fmt.Fprintf(o.stderr, "compare: warning: run %s: %s\n", in.name, w)
				}
			}
			rd.rv.means = rd.res.Values
			runs[start+k] = rd.rv
		}
	}
	return runs, nil
}

// runsAtOnce is how many TREC runs are read at the same time, their qrels
// parsed once: twice --workers, as a run read alone keeps about one core
// busy (its parse, its join and its engine, one after another).
func (o *compareOptions) runsAtOnce() int { return 2 * o.workers }

// sharedBuffer is the read buffer of each file when several runs are read
// at once (runio's default is 1 MiB): as fast, and it bounds their memory.
const sharedBuffer = 256 << 10

// readOptions are the input options of run in.
func (o *compareOptions) readOptions(in compareInput) runio.Options {
	read := o.read
	read.Columns.Score = in.scoreCol
	if o.trec {
		read.Format = runio.FormatTREC
	}
	// Nothing is written before every run is read: a TREC pair may
	// stream as if sorted and be read again, from a clean state, if it
	// is not (runio.Options.Restartable).
	read.Restartable = true
	return read
}

// readAlone reads run in alone, as eval reads a pair.
func (o *compareOptions) readAlone(ctx context.Context, in compareInput, sub *runio.SubtopicQrels) *runRead {
	rd := &runRead{}
	rd.err = runio.Restarting(ctx, in.paths, o.readOptions(in), func(r runio.Reader) error {
		rd.opened = true
		rd.rv, rd.res, rd.err = o.evaluateReader(ctx, r, in, o.workers, 0, sub)
		return rd.err
	})
	return rd
}

// readShared reads the TREC runs ins at the same time, their qrels parsed
// once (runio.OpenRuns), into reads; it leaves a run's read nil when its
// input is not one OpenRuns reads. A run whose read fails with
// runio.ErrRestart (its lines are not sorted, or not well formed) is read
// again alone (runio.ReadAgain), after the others, as Restarting reads it
// again, so that its values and its error are those of reading it alone.
func (o *compareOptions) readShared(ctx context.Context, ins []compareInput, reads []*runRead, sub *runio.SubtopicQrels) {
	runPaths := make([]string, len(ins))
	for i, in := range ins {
		runPaths[i] = in.paths[1]
	}
	read := o.readOptions(ins[0])
	// The runs read at once share the workers, and the memory, of one
	// eval: the parse of each file and each run's engine get their part
	// of --workers, each engine its part of eval's updates in flight
	// (2 * workers + 2), and each file a smaller read buffer.
	workers := max(o.workers/len(ins), 1)
	read.Workers = workers
	inFlight := max((2*o.workers+2)/len(ins), 2)
	if read.BufferSize == 0 {
		read.BufferSize = sharedBuffer
	}
	rs, err := runio.OpenRuns(ctx, o.paths[0], runPaths, read)
	if err != nil {
		return // read alone, which gives the error of the file that does not open
	}
	var wg sync.WaitGroup
	for i, r := range rs {
		wg.Go(func() {
			rd := &runRead{opened: true}
			rd.rv, rd.res, rd.err = o.evaluateReader(ctx, r, ins[i], workers, inFlight, sub)
			if ctx.Err() == nil {
				// After an interrupt, a reader may still be blocked in a
				// read: it is left to the end of the process.
				r.Close()
			}
			reads[i] = rd
		})
	}
	wg.Wait()
	for i, in := range ins {
		if errors.Is(reads[i].err, runio.ErrRestart) && ctx.Err() == nil {
			rd := &runRead{}
			rd.err = runio.ReadAgain(ctx, in.paths, o.readOptions(in), func(r runio.Reader) error {
				rd.opened = true
				rd.rv, rd.res, rd.err = o.evaluateReader(ctx, r, in, o.workers, 0, sub)
				return rd.err
			})
			reads[i] = rd
			if rd.err != nil {
				// The first error in run order: the runs after it are
				// not reported (a bad qrels line fails every run).
				return
			}
		}
	}
}

// evaluateReader evaluates the queries of r, run in, with workers workers
// and inFlight updates in flight (0: the engine's default), and keeps
// their values.
func (o *compareOptions) evaluateReader(ctx context.Context, r runio.Reader, in compareInput, workers, inFlight int, sub *runio.SubtopicQrels) (*runValues, *evaluate.Result, error) {
	rv := &runValues{name: in.name, file: in.file, values: make([][]float64, len(o.measures)), noValue: make([][]bool, len(o.measures))}
	res, err := evaluate.Run(ctx, r, evaluate.Options{
		Measures: o.measures, Config: o.cfg, Batch: o.batch, Workers: workers, InFlight: inFlight,
		RunOnly: o.runOnly, QrelsOnly: o.qrelsOnly, TrecEvalVersion: o.compat, SubtopicQrels: sub,
		PerQuery: func(b *evaluate.Batch) error {
			for q := range b.Len() {
				rv.addQID(b.QID(q))
				for m, ms := range o.measures {
					rv.values[m] = append(rv.values[m], b.Value(m, q))
					rv.noValue[m] = append(rv.noValue[m], ms.IR != nil && b.Weight(m, q) == 0)
				}
			}
			return nil
		},
	})
	return rv, res, err
}

// runLabels returns the names of the runs read from paths: the name of
// each file, or, for files of the same name, the shortest ending of their
// cleaned paths that tells them apart (a/x.run and b/x.run). Paths that no
// ending tells apart (x.run and ./x.run) keep the same name, which
// evaluateRuns numbers.
func runLabels(paths []string) []string {
	sep := string(filepath.Separator)
	parts := make([][]string, len(paths))
	depth := make([]int, len(paths))
	for i, p := range paths {
		parts[i] = strings.Split(filepath.Clean(p), sep)
		depth[i] = 1
	}
	label := func(i int) string {
		return strings.Join(parts[i][len(parts[i])-depth[i]:], sep)
	}
	for grew := true; grew; {
		grew = false
		groups := map[string][]int{}
		for i := range paths {
			groups[label(i)] = append(groups[label(i)], i)
		}
		for _, g := range groups {
			for _, i := range g {
				if len(g) > 1 && depth[i] < len(parts[i]) {
					depth[i]++
					grew = true
				}
			}
		}
	}
	labels := make([]string, len(paths))
	for i := range paths {
		labels[i] = label(i)
	}
	return labels
}

// dropNonFinite leaves out of the comparison, with a warning naming the
// run, the query and the value, each measure with a non-finite per-query
// value (NaN NDCG from a float32 gain 2^label-1 that overflows, as
// TF-Ranking's): the paired tests need finite values, and the other
// measures are compared as usual, as eval reports them beside it. With no
// measure left it is an error.
func (o *compareOptions) dropNonFinite(runs []*runValues, stderr io.Writer) error {
	var keep []int
	var first error
	for m := range o.measures {
		bad := ""
		for _, r := range runs {
			for k, v := range r.values[m] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					bad = fmt.Sprintf("run %s: query %q: %s is %v", textCell(r.file), r.qid(k), textCell(o.measures[m].Name), v)
					break
				}
			}
			if bad != "" {
				break
			}
		}
		if bad == "" {
			keep = append(keep, m)
			continue
		}
		if first == nil {
			first = fmt.Errorf("%s: the paired tests need finite per-query values", bad)
		}
		fmt.Fprintf(stderr, "compare: warning: %s, and the paired tests need finite values: %s is left out of the comparison (a float32 NDCG or DCG is NaN when a label reaches 128: --dtype float64 computes it)\n", bad, textCell(o.measures[m].Name))
	}
	if len(keep) == 0 {
		return first
	}
	if len(keep) == len(o.measures) {
		return nil
	}
	pick := func(xs []float64) []float64 {
		out := make([]float64, len(keep))
		for i, m := range keep {
			out[i] = xs[m]
		}
		return out
	}
	measures := make([]evaluate.Measure, len(keep))
	for i, m := range keep {
		measures[i] = o.measures[m]
	}
	o.measures = measures
	for _, r := range runs {
		vals := make([][]float64, len(keep))
		nov := make([][]bool, len(keep))
		for i, m := range keep {
			vals[i], nov[i] = r.values[m], r.noValue[m]
		}
		r.values, r.noValue, r.means = vals, nov, pick(r.means)
	}
	return nil
}

// pairQueries returns the queries every run has, in the first run's order,
// and values[run][measure][query] on them. It counts on stderr the queries
// of each run that are not in every run. A non-finite value is an error
// naming the run, the measure and the query. A measure's queries to which
// some run gives no value (an ir_measures measure's, as Accuracy's
// without a relevant document ranked) are left out of that measure's
// values, so that its tests pair the queries with a value in every run;
// the other measures keep every query.
func pairQueries(runs []*runValues, measures []evaluate.Measure, stderr io.Writer) ([]string, [][][]float64, error) {
	qids, idx := sameQueries(runs)
	if qids == nil {
		var err error
		if qids, idx, err = commonQueries(runs, stderr); err != nil {
			return nil, nil, err
		}
	}
	values := make([][][]float64, len(runs))
	for i, r := range runs {
		values[i] = make([][]float64, len(r.values))
		for m, vals := range r.values {
			values[i][m] = make([]float64, len(qids))
			for k, q := range qids {
				p := idx(i, k)
				v := vals[p]
				if r.noValue != nil && r.noValue[m][p] {
					continue // left out below
				}
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, nil, fmt.Errorf("run %s: query %q: %s is %v: the paired tests need finite per-query values", r.file, q, measures[m].Name, v)
				}
				values[i][m][k] = v
			}
		}
	}
	if len(qids) == 0 {
		return nil, nil, fmt.Errorf("no query is in every run: nothing to compare")
	}
	for m := range measures {
		var keep []int
		for k := range qids {
			valued := true
			for i, r := range runs {
				if r.noValue != nil && r.noValue[m][idx(i, k)] {
					valued = false
					break
				}
			}
			if valued {
				keep = append(keep, k)
			}
		}
		if len(keep) == len(qids) {
			continue
		}
		if len(keep) == 0 {
			return nil, nil, fmt.Errorf("%s: no query has a value in every run (ir_measures gives none to a query without a relevant document ranked): nothing to compare", measures[m].Name)
		}
		fmt.Fprintf(stderr, "compare: %s: %d of the %d queries have no value in some run (ir_measures gives them none) and are left out of its tests and means\n", textCell(measures[m].Name), len(qids)-len(keep), len(qids))
		for i := range runs {
			vals := make([]float64, len(keep))
			for j, k := range keep {
				vals[j] = values[i][m][k]
			}
			values[i][m] = vals
		}
	}
	return qids, values, nil
}

// sameQueries returns the queries of the runs, and the position in run i
// of query k (k itself), when every run has the same queries in the same
// order, each once (the first run's are in increasing qid order: TREC
// runs sorted, or not, come out so); else nil. It is the common case,
// which needs no map of each run's queries.
func sameQueries(runs []*runValues) ([]string, func(i, k int) int) {
	r0 := runs[0]
	for _, r := range runs[1:] {
		if !slices.Equal(r.qidEnd, r0.qidEnd) || !bytes.Equal(r.qidBytes, r0.qidBytes) {
			return nil, nil
		}
	}
	qids := make([]string, r0.numQueries())
	for k := range qids {
		qids[k] = r0.qid(k)
		if k > 0 && runio.CompareQID(qids[k-1], qids[k]) >= 0 {
			return nil, nil
		}
	}
	if len(qids) == 0 {
		return nil, nil
	}
	return qids, func(_, k int) int { return k }
}

// commonQueries returns the queries every run has, in the first run's
// order, and the position in run i of query k. It counts on stderr the
// queries of each run that are not in every run; a query twice in a run
// is an error.
func commonQueries(runs []*runValues, stderr io.Writer) ([]string, func(i, k int) int, error) {
	count := map[string]int{}
	for _, r := range runs {
		for k := range r.numQueries() {
			count[string(r.qidBytesOf(k))]++
		}
	}
	qids := []string{}
	for k := range runs[0].numQueries() {
		if q := runs[0].qid(k); count[q] == len(runs) {
			qids = append(qids, q)
		}
	}
	poss := make([][]int, len(runs)) // each run's position of each query
	for i, r := range runs {
		if dropped := r.numQueries() - len(qids); dropped > 0 {
			fmt.Fprintf(stderr, "compare: run %s: %d of its %d queries are not in every run and are left out (see --qrels-only)\n", textCell(r.name), dropped, r.numQueries())
		}
		pos := make(map[string]int, r.numQueries())
		for k := range r.numQueries() {
			q := r.qid(k)
			if _, dup := pos[q]; dup {
				return nil, nil, fmt.Errorf("run %s: query %q appears twice (the input is not grouped by qid; see --unsorted group)", r.file, q)
			}
			pos[q] = k
		}
		poss[i] = make([]int, len(qids))
		for k, q := range qids {
			poss[i][k] = pos[q]
		}
	}
	return qids, func(i, k int) int { return poss[i][k] }, nil
}
