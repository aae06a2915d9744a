package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/cliflags"
	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
	"github.com/rankmetrics/rankmetrics/significance"
)

// errDeadLetters is returned when there are more dead letters than allowed.
var errDeadLetters = errors.New("too many dead letters")

const usage = `usage: rankmetrics-beam [flags] --input GLOB [--input GLOB ...]
       rankmetrics-beam [flags] --qrels GLOB --run GLOB

Evaluates ranking outputs on Apache Beam: TSV, CSV, JSON Lines, Parquet or
RKM1 files (--input), or TREC qrels and run files (--qrels, --run), from any
file system Beam knows. A repeated --input, --qrels or --run, like a glob that
matches several files, names shards of one input: a repeated --run is one run
cut into files, evaluated as one, not several runs to compare (that is
"rankmetrics compare").

It runs the evaluation of "rankmetrics eval" (the same plan, the same code):
every measure eval's -m takes (map, map@K, ndcg@K, mrr, precision@K, ...,
and trec_eval's values such as P_10, ndcg_cut_10, recip_rank, in trec_eval
10.0's definitions). Its options and counts follow "rankmetrics eval", with
differences that make the result independent of sharding and worker count;
the result is that of "rankmetrics eval --batch 1 --accumulation exact":

  - every query is its own metric update (eval's --batch 1), so TF-Ranking's
    per-update list weights do not depend on batching: a list without
    relevant items weighs 1;
  - sums are exact (eval's --accumulation exact) and rounded once, so the
    result is bit-identical for any sharding, order and runner (a trec_eval
    measure's mean is its exact sum, rounded once, over the queries);
  - under --ties random, each query's tie order is seeded from --ties-seed and
    its qid (eval seeds each update from its position in the input instead);
  - where eval stops at a bad line (malformed, over --max-line-bytes, a
    repeated document under --dedupe error), the query goes to the dead
    letters, and the run fails when there are more than --max-dead-letters.

ir_measures' diversity measures (alpha_nDCG@K, ERR_IA@K, NRBP, ...) read
the qrels a second time as subtopic qrels (qid subtopic docno rel: the
iteration column is the subtopic), as eval does: they need --qrels and
--run, and --dedupe max where a document is judged under several
subtopics. The subtopic qrels (every file of --qrels, in path order) are
read where the pipeline is built, held whole in memory there and in every
worker (about the size of the files plus a few tens of bytes a line), and
carried in the pipeline's description.

Beside each value it gives, as "rankmetrics eval --ci t" does, the (1 - --alpha)
t interval of the mean of the per-query values, mean ± t(1-alpha/2, n-1)
sd/sqrt(n) (scipy.stats.t.interval), from the count, mean and sum of squared
deviations of each measure merged across workers (24 bytes per measure), so
that it equals eval's up to rounding of the merges (about 1e-15 relative).
There is none ("-" in the table, null in JSON) where eval prints none: for
trec_eval's sums (num_rel, num_ret...), TF-Ranking's weighted means with a
list weight other than 1, and a single query. The report's JSON has it per
measure as "ci": {"ci_low", "ci_high"} or null, and "ci": {"method": "t",
"level"} at the top. eval's BCa bootstrap interval (--ci bootstrap) is not
computed: it needs every per-query value in one place.

Items of a query keep their input order (file name, then position in the
file), which decides --ties stable.

It runs on prism in this process by default. Beam's own flags (--runner,
--project, --region, --temp_location, --endpoint, ...) choose another runner;
see the README's "Scaling out". On a remote runner, --output and
--dead-letters must name files the workers can write (gs://...).

Flags:
`

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

// Set adds one value.
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// measureList is the repeatable -m flag of `rankmetrics eval`: measure
// names, comma-separated or repeated (a trec_eval specification with
// parameters, P.5,10, takes a whole value).
type measureList []string

func (m *measureList) String() string { return strings.Join(*m, ",") }

// Set parses one value of -m.
func (m *measureList) Set(s string) error {
	names, err := rm.ParseMeasureNames(s)
	if err != nil {
		return err
	}
	for _, n := range names {
		m.add(n)
	}
	return nil
}

func (m *measureList) add(name string) {
	if !slices.Contains(*m, name) {
		*m = append(*m, name)
	}
}

// options is the command line.
type options struct {
	inputs, qrels, runs stringList
	// Values holds the input, measure, tie and query flags, registered
	// by package cliflags as rankmetrics eval registers them.
	cliflags.Values
	measures         measureList
	output, perQuery string
	deadLetters      string
	maxDead          int64
	blockSize        int64
	format           string
	alpha            float64
	verbose          bool
}

func (o *options) register(fs *flag.FlagSet) {
	fs.Var(&o.inputs, "input", "`GLOB` of TSV, CSV, JSON Lines, Parquet or RKM1 files to evaluate (repeatable)")
	fs.Var(&o.qrels, "qrels", "`GLOB` of TREC qrels files (repeatable: all of them are the qrels of one evaluation)")
	fs.Var(&o.runs, "run", "`GLOB` of TREC run files (repeatable: all of them are shards of one run, evaluated as one; rankmetrics compare compares runs)")
	o.Values = cliflags.Defaults()
	o.Measures = &o.measures
	o.Register(fs, cliflags.Input|cliflags.ScoreCol|cliflags.Measures|cliflags.Ties|cliflags.Queries)
	fs.StringVar(&o.output, "output", "", "write the report (JSON) to `PATH`; default: a temporary file (local runners only)")
	fs.StringVar(&o.perQuery, "per-query", "", "write per-query values to `PATH` (measure, qid, value, list weight; tab-separated)")
	fs.StringVar(&o.deadLetters, "dead-letters", "", "write rejected rows to `PATH` (JSON lines); default: a temporary file (local runners only)")
	fs.Int64Var(&o.maxDead, "max-dead-letters", 0, "exit with status 1 when there are more than `N` dead letters")
	fs.Int64Var(&o.blockSize, "block-size", 0, "split text files into ranges of `BYTES` (default 64 MiB)")
	fs.StringVar(&o.format, "format", "table", "stdout `FORMAT`: table or json (the report)")
	fs.Float64Var(&o.alpha, "alpha", significance.DefaultAlpha, "the t interval beside each value covers 1 - `ALPHA` (as rankmetrics eval --ci t --alpha)")
	fs.BoolVar(&o.verbose, "verbose", false, "show the runner's logs")
}

// plan is a checked command line.
type plan struct {
	o        *options
	trec     bool
	format   string // tsv, csv, jsonl, parquet, rkm1 or trec
	measures []metric.Config
	dedupe   rm.Dedupe
	evalOpts rm.EvalOptions
	// positions are the columns of headerless TSV or CSV input, in order
	// (--columns).
	positions []string
}

func (o *options) plan() (*plan, error) {
	p := &plan{o: o}
	switch {
	case len(o.inputs) > 0 && (len(o.qrels) > 0 || len(o.runs) > 0):
		return nil, errors.New("give either --input, or --qrels and --run, not both")
	case len(o.inputs) > 0:
		f, err := runio.ParseFormat(o.InputFormat)
		if err == nil && f == runio.FormatAuto {
			f, err = runio.DetectFormat(o.inputs[0])
		}
		if err == nil && f == runio.FormatTREC {
			err = errors.New("TREC input is --qrels GLOB and --run GLOB")
		}
		if err != nil {
			return nil, fmt.Errorf("--input-format %s: %w", o.InputFormat, err)
		}
		p.format = f.String()
	case len(o.qrels) > 0 && len(o.runs) > 0:
		p.trec, p.format = true, "trec"
	default:
		return nil, errors.New("nothing to read: give --input GLOB, or --qrels GLOB and --run GLOB")
	}
	var cfg metric.Config
	var err error
	if cfg.DType, err = metric.ParseDType(o.DType); err != nil {
		return nil, fmt.Errorf("--dtype: %w", err)
	}
	if cfg.Ties, err = metric.ParseTiePolicy(o.Ties); err != nil {
		return nil, fmt.Errorf("--ties: %w", err)
	}
	cfg.Seed, cfg.Ragged, cfg.Accumulation = o.TiesSeed, o.Ragged, metric.Exact
	if o.TopN < -1 {
		return nil, fmt.Errorf("--topn %d: want N >= 0", o.TopN)
	}
	ms := append(measureList(nil), o.measures...)
	if o.TopN >= 0 {
		ms.add("map@" + strconv.Itoa(o.TopN))
	}
	if len(ms) == 0 {
		ms = measureList{"map"}
	}
	for _, n := range ms {
		c := cfg
		c.Name = n
		p.measures = append(p.measures, c)
	}
	if p.measures, err = rm.Normalize(p.measures); err != nil {
		return nil, fmt.Errorf("-m: %w", err)
	}
	if name := rm.ReadsSubtopics(p.measures); name != "" && !p.trec {
		return nil, fmt.Errorf("-m %s: a diversity measure reads the qrels as subtopic qrels (qid subtopic docno rel), and --input has no qrels file: give --qrels GLOB and --run GLOB", name)
	}
	if p.dedupe, err = rm.ParseDedupe(o.Dedupe); err != nil {
		return nil, fmt.Errorf("--dedupe: %w", err)
	}
	for _, f := range []struct{ name, v string }{{"--run-only", o.RunOnly}, {"--qrels-only", o.QrelsOnly}} {
		if f.v != "skip" && f.v != "keep" {
			return nil, fmt.Errorf("%s %q: want skip or keep", f.name, f.v)
		}
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return nil, fmt.Errorf("--alpha %v: want 0 < alpha < 1", o.alpha)
	}
	p.evalOpts = rm.EvalOptions{KeepRunOnly: o.RunOnly == "keep", KeepQrelsOnly: o.QrelsOnly == "keep", Alpha: o.alpha}
	if err := rm.CheckEvalOptions(p.measures, p.evalOpts); err != nil {
		return nil, fmt.Errorf("--run-only keep: %w", err)
	}
	if o.format != "table" && o.format != "json" {
		return nil, fmt.Errorf("--format %q: want table or json", o.format)
	}
	if o.maxDead < 0 {
		return nil, fmt.Errorf("--max-dead-letters %d: want N >= 0", o.maxDead)
	}
	if o.blockSize < 0 {
		return nil, fmt.Errorf("--block-size %d: want BYTES >= 0", o.blockSize)
	}
	if o.MaxLineBytes < 1 || o.MaxLineBytes > math.MaxInt32 {
		return nil, fmt.Errorf("--max-line-bytes %d: want 1 <= BYTES <= %d", o.MaxLineBytes, math.MaxInt32)
	}
	if o.MaxInputBytes < 1 {
		return nil, fmt.Errorf("--max-input-bytes %d: want BYTES >= 1", o.MaxInputBytes)
	}
	if p.positions, err = runio.ParsePositions(o.Positions); err != nil {
		return nil, fmt.Errorf("--columns: %w", err)
	}
	if p.positions != nil && p.format != "tsv" && p.format != "csv" {
		return nil, fmt.Errorf("--columns %s: only TSV and CSV files are read without a header, not %s", o.Positions, p.format)
	}
	return p, nil
}

// build adds the whole evaluation to the pipeline.
func (p *plan) build(s beam.Scope, paths rm.Paths) error {
	opts := beamio.Options{Columns: p.o.Columns, BlockSize: p.o.blockSize, MaxLineBytes: int64(p.o.MaxLineBytes), MaxInputBytes: p.o.MaxInputBytes, Positions: p.positions}
	var lists rm.Step
	var upstream []rm.Step
	var err error
	switch p.format {
	case "trec":
		qrels, run := beamio.ReadTREC(s, p.o.qrels, p.o.runs, opts)
		upstream = []rm.Step{qrels, run}
		lists, err = rm.JoinTREC(s, qrels.Output, run.Output, p.dedupe)
	default:
		var rows rm.Step
		switch p.format {
		case "tsv":
			rows = beamio.ReadDelimited(s, p.o.inputs, '\t', opts)
		case "csv":
			rows = beamio.ReadDelimited(s, p.o.inputs, ',', opts)
		case "parquet":
			rows = beamio.ReadParquet(s, p.o.inputs, opts)
		case "jsonl":
			rows = beamio.ReadJSONL(s, p.o.inputs, p.dedupe, opts)
		case "rkm1":
			rows = beamio.ReadRKM1(s, p.o.inputs, opts)
		}
		upstream = []rm.Step{rows}
		lists, err = rm.GroupChunks(s, rows.Output, p.dedupe)
	}
	if err != nil {
		return err
	}
	out, err := rm.Evaluate(s, lists, p.measures, p.evalOpts, upstream...)
	if err != nil {
		return err
	}
	return rm.Write(s, out, p.measures, paths)
}

// isLocal reports whether the runner runs in this process or on this
// machine, so that temporary local files can hold the outputs.
func isLocal(runner string) bool {
	switch strings.ToLower(runner) {
	case "", "prism", "prismrunner", "direct", "directrunner":
		return true
	}
	return false
}

// execute runs the plan with the runner and prints the report. The
// pipeline writes the report to a pending file; it becomes --output only
// when the run succeeds, so a run that fails (too many dead letters, counts
// that do not add up) leaves no report behind. On a local runner, every
// temporary file of the run is removed when it ends.
func execute(ctx context.Context, p *plan, runner string, stdout, stderr io.Writer) (rm.Report, error) {
	local := isLocal(runner)
	if !local && (p.o.output == "" || p.o.deadLetters == "") {
		return rm.Report{}, fmt.Errorf("runner %q: --output and --dead-letters must name files the workers can write", runner)
	}
	paths := rm.Paths{PerQuery: p.o.perQuery, DeadLetters: p.o.deadLetters}
	if local {
		dir, err := os.MkdirTemp("", "rankmetrics-beam-")
		if err != nil {
			return rm.Report{}, err
		}
		defer os.RemoveAll(dir)
		// Beam's loopback runner leaves a file in os.TempDir on every run
		// (runnerlib/execute.go); TMPDIR points into dir while the
		// pipeline runs, so that it goes away with dir.
		defer setTempDir(dir)()
		paths.Report = filepath.Join(dir, "report.json")
		if paths.DeadLetters == "" {
			paths.DeadLetters = filepath.Join(dir, "dead-letters.jsonl")
		}
	} else {
		paths.Report = p.o.output + ".pending"
		defer removeFile(context.WithoutCancel(ctx), paths.Report)
	}
	if rm.ReadsSubtopics(p.measures) != "" {
		// The diversity measures read the qrels a second time, as
		// subtopic qrels, here: they go to every worker with the
		// evaluation (rm.EvalOptions.SubtopicQrels).
		sub, err := beamio.ReadSubtopicQrels(ctx, p.o.qrels)
		if err != nil {
			return rm.Report{}, fmt.Errorf("--qrels: %w", err)
		}
		p.evalOpts.SubtopicQrels = sub
	}
	pipeline, s := beam.NewPipelineWithRoot()
	if err := p.build(s, paths); err != nil {
		return rm.Report{}, err
	}
	start := time.Now()
	if err := beamx.Run(ctx, pipeline); err != nil {
		return rm.Report{}, fmt.Errorf("pipeline: %w", err)
	}
	elapsed := time.Since(start)
	rep, err := rm.ReadReport(ctx, paths.Report)
	if err != nil {
		return rm.Report{}, err
	}
	if err := printReport(stdout, p, rep); err != nil {
		return rep, err
	}
	c := rep.Counts
	fmt.Fprintf(stderr, "rankmetrics-beam: %d queries, %d items in %.3f s (%.3f M items/s)\n",
		c.Queries, c.Items, elapsed.Seconds(), float64(c.Items)/elapsed.Seconds()/1e6)
	notWritten := ""
	if p.o.output != "" {
		notWritten = " (report not written to " + p.o.output + ")"
	}
	if err := c.Check(p.trec); err != nil {
		return rep, fmt.Errorf("%w%s", err, notWritten)
	}
	if p.trec {
		// As rankmetrics eval and compare: no query in common is an
		// error, a run covering a minority of the judged queries a
		// warning.
		read := c.Queries + c.SkippedQueries + c.DeadQueries
		both := read - c.RunOnlyQueries - c.QrelsOnlyQueries
		runs := strings.Join(p.o.runs, ", ")
		if both <= 0 {
			return rep, fmt.Errorf("no query is in both the qrels (%s: %d queries) and the run (%s: %d queries), so there is nothing to evaluate; qids must be equal strings in both (\"q1\" is not \"1\")%s",
				strings.Join(p.o.qrels, ", "), c.QrelsOnlyQueries, runs, c.RunOnlyQueries, notWritten)
		}
		if judged := both + c.QrelsOnlyQueries; float64(c.QrelsOnlyQueries) > 0.5*float64(judged) {
			fmt.Fprintf(stderr, "rankmetrics-beam: warning: the run (%s) covers %d of the %d judged queries; the %d others %s\n",
				runs, both, judged, c.QrelsOnlyQueries, map[bool]string{true: "count with value 0 (--qrels-only keep)", false: "are skipped (--qrels-only skip)"}[p.evalOpts.KeepQrelsOnly])
		}
	}
	if c.DeadLetters > 0 {
		where := paths.DeadLetters
		if p.o.deadLetters == "" {
			where = "this run (give --dead-letters PATH to keep them)"
		}
		fmt.Fprintf(stderr, "rankmetrics-beam: %d dead letters in %s\n", c.DeadLetters, where)
		if dead, err := rm.ReadDeadLetters(ctx, paths.DeadLetters); err == nil {
			for i, d := range dead {
				if i == 10 {
					fmt.Fprintf(stderr, "  ...\n")
					break
				}
				fmt.Fprintf(stderr, "  %s\n", d)
			}
		}
	}
	if c.DeadLetters > p.o.maxDead {
		return rep, fmt.Errorf("%w: %d, more than --max-dead-letters %d%s", errDeadLetters, c.DeadLetters, p.o.maxDead, notWritten)
	}
	saved := "not kept (give --output PATH to keep it)"
	if p.o.output != "" {
		if err := rm.WriteReport(ctx, p.o.output, rep); err != nil {
			return rep, err
		}
		saved = p.o.output
	}
	if p.o.format == "table" {
		_, err = fmt.Fprintf(stdout, "report: %s\n", saved)
	}
	return rep, err
}

// setTempDir points TMPDIR, and so os.TempDir, at dir and returns the
// function that restores it. Only main's run calls it, once at a time.
func setTempDir(dir string) (restore func()) {
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	return func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
	}
}

// removeFile removes path through Beam's file systems, when they can.
func removeFile(ctx context.Context, path string) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return
	}
	defer fs.Close()
	if r, ok := fs.(filesystem.Remover); ok {
		r.Remove(ctx, path)
	}
}

func printReport(w io.Writer, p *plan, rep rm.Report) error {
	if p.o.format == "json" {
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	c := rep.Counts
	cfg := p.measures[0]
	layout := "ragged"
	if !cfg.Ragged {
		layout = "dense"
	}
	fmt.Fprintf(tw, "input\t%s (%s)\n", strings.Join(append(append(append([]string(nil), p.o.inputs...), p.o.qrels...), p.o.runs...), " "), p.format)
	fmt.Fprintf(tw, "settings\tdtype %s, ties %s, seed %d, exact accumulation, %s lists, 1 query per update\n", cfg.DType, cfg.Ties, cfg.Seed, layout)
	rows := []struct {
		text string
		n    int64
	}{
		{"queries evaluated", c.Queries},
		{"items ranked", c.Items},
		{"records read", c.Records},
		{"rows parsed", c.Rows},
	}
	if p.trec {
		rows = append(rows, []struct {
			text string
			n    int64
		}{
			{"qrels lines parsed", c.QrelsRows},
			{"run-only queries (no judgment)", c.RunOnlyQueries},
			{"qrels-only queries (not in the run)", c.QrelsOnlyQueries},
			{"queries skipped", c.SkippedQueries},
			{"unjudged run items (label 0)", c.UnjudgedItems},
			{"judged documents not in the run", c.UnrankedJudged},
			{"  of which relevant (in the AP denominator)", c.UnrankedRelevant},
		}...)
	}
	rows = append(rows, []struct {
		text string
		n    int64
	}{
		{"duplicates dropped", c.DuplicatesDropped + c.QrelsDuplicatesDropped},
		{"blank lines", c.BlankLines},
		{"dead letters", c.DeadLetters},
	}...)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\n", r.text, r.n)
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "measure\tvalue\t%s%% t CI\n", strconv.FormatFloat(100*(1-p.o.alpha), 'g', -1, 64))
	for _, m := range rep.Measures {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", m.Name, formatMeasure(m, cfg.DType), ciCell(m.CI))
	}
	return tw.Flush()
}

// ciCell returns the table cell of an interval as rankmetrics eval prints
// it by default: "[low, high]" with 4 decimals (the bounds are estimates;
// the JSON report has them whole), or "-" when there is none.
func ciCell(iv *rm.Interval) string {
	if iv == nil {
		return "-"
	}
	return "[" + strconv.FormatFloat(iv.Low, 'f', 4, 64) + ", " + strconv.FormatFloat(iv.High, 'f', 4, 64) + "]"
}

// formatMeasure prints m's value as rankmetrics eval prints it: in the
// shortest form of the dtype it was computed in (d, or float64 for a
// trec_eval measure), so the two tables read the same.
func formatMeasure(m rm.MeasureResult, d metric.DType) string {
	if x, err := measure.Parse(m.Name); err == nil {
		d = x.ValueDType(d)
	} else {
		d = metric.Float64
	}
	return evaluate.FormatValue(m.Value, d)
}

// quietLogs hides the runner's informational logs.
func quietLogs() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
}

// parseArgs parses the command line args with fs, which writes errors to
// its output. -h (or --help) prints the help on stdout and returns help. A
// bad flag or value prints one line that names it (an unknown flag with
// the nearest flag name) and a pointer to -h, and returns the error.
func parseArgs(fs *flag.FlagSet, args []string, stdout io.Writer) (help bool, err error) {
	help, err = cliflags.Parse(fs, args, stdout)
	if err != nil {
		fmt.Fprintf(fs.Output(), "rankmetrics-beam: %v\nrun \"rankmetrics-beam -h\" for the flags\n", err)
	}
	return help, err
}

func main() {
	o := &options{}
	o.register(flag.CommandLine)
	// Beam's packages register their flags (--runner...) on
	// flag.CommandLine: parse it, answering errors here, not exiting.
	flag.CommandLine.Init("rankmetrics-beam", flag.ContinueOnError)
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), usage)
		flag.PrintDefaults()
	}
	if help, err := parseArgs(flag.CommandLine, os.Args[1:], os.Stdout); help || err != nil {
		if err != nil {
			os.Exit(2)
		}
		os.Exit(0)
	}
	beam.Init() // on a worker, this runs the worker and does not return
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rankmetrics-beam: unexpected argument %q (inputs are given with --input, --qrels, --run)\n", flag.Arg(0))
		os.Exit(2)
	}
	p, err := o.plan()
	if err != nil {
		fmt.Fprintf(os.Stderr, "rankmetrics-beam: %v\n", err)
		os.Exit(2)
	}
	if !o.verbose {
		quietLogs()
	}
	runner := flag.Lookup("runner").Value.String()
	if _, err := execute(context.Background(), p, runner, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "rankmetrics-beam: %v\n", err)
		os.Exit(1)
	}
}
