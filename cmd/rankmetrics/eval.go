package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/runio"
	"github.com/rankmetrics/rankmetrics/significance"
)

const evalUsage = `usage: rankmetrics eval [flags] QRELS RUN
       rankmetrics eval [flags] FILE

Evaluates ranking outputs: a TREC qrels and run pair (in trec_eval's order), or
one file of TSV, CSV, JSON Lines, Parquet or RKM1, any of them gzipped. Flags
may come before or after the files.

Input: the format comes from the file's extension (through a final .gz, which
is detected from the content anyway); --input-format names it otherwise, and
for standard input ("-"). --format is the format of the OUTPUT.
  trec      QRELS RUN, two whitespace-separated files as trec_eval reads them
            (any file names):
              qrels  qid iter docno rel            401 0 FBIS3-10 1
              run    qid Q0 docno rank score tag   401 Q0 FBIS3-10 1 12.5 myrun
  tsv, csv  a header line naming the columns qid, label, score and optionally
            weight and doc, in any order, then one item per line (.tsv, .tab,
            .csv); other columns are ignored, CSV fields may be "quoted":
              qid<TAB>label<TAB>score   then   q1<TAB>1<TAB>0.93
            --qid-col, --label-col... rename the columns; a file without a
            header needs --columns qid,doc,label,score[,weight].
  jsonl     one JSON object per line (.jsonl, .ndjson): one item per line
              {"qid":"q1","doc":"d1","label":1,"score":0.93}
            or one list per line, with plural keys:
              {"qid":"q1","labels":[1,0],"scores":[0.93,0.2],"docs":["d1","d2"]}
            weight(s) and doc(s) are optional; ids are strings or numbers;
            other keys are ignored.
  parquet   columns qid and doc (string or integer), label, score and weight
            (INT32, INT64, FLOAT or DOUBLE), not repeated; weight and doc are
            optional (.parquet, .pq). From pandas:
              df[["qid", "label", "score"]].to_parquet("run.parquet")
  rkm1      dense binary (.rkm1, .rkm, .bin): "RKM1", then Q and L as
            little-endian uint32, then Q*L int8 labels, then Q*L little-endian
            float32 scores, list after list; every list has L items and the
            qids are 1..Q. From NumPy:
              f.write(b"RKM1" + struct.pack("<II", Q, L))
              f.write(labels.astype("i1").tobytes() + scores.astype("<f4").tobytes())

Output: --format table (the default), json or tsv, on standard output; -q
adds one record per query, written as the evaluation goes. After an error or
an interrupt the output holds whole records only, and JSON gets an "error"
member so that it stays a valid document; the exit status is 1 (2 for a bad
command line).

` + namesHelp + `

` + plotPathHelp + `

` + ciHelp + `

Measures: -m map, -m map@10, ... (repeatable; default map). --topn N adds map@N.
MAP is TF-Ranking's: relevance is label >= 1, and the AP denominator counts
every relevant item of the list, including, for TREC, judged relevant documents
the run did not retrieve (they take no rank). Unjudged run documents are not
relevant. Judged queries missing from the run count with value 0, as with
trec_eval -c (--qrels-only keep, the default, as in compare): every run is then
scored on the same queries, all the judged ones, as the IR community recommends
for comparing systems; --qrels-only skip leaves them out, as trec_eval without
-c. Queries found only in the run are skipped (--run-only skip), as trec_eval
skips them. Both are always counted in the report; a pair without any query in
both files is an error (it shows qids of each file), and a warning says when
most queries of one file are missing from the other.

Every metric of the TF-Ranking family is a measure too, named key[@K] as in
rankmetrics compute: mrr, ndcg@10, dcg@5, precision@5, recall@100, hits@1,
arp, opa (TF-Ranking's definitions, with --ties, --ties-seed and --dtype), or by the
name Keras gives it (ndcg_metric: TF-Ranking's NDCG over the whole list).
map:CONVENTION and map@K:CONVENTION are MAP under another convention
(treceval, minrk, retrieved, xgboost, xgboost-): map@10:treceval divides by
every judged relevant document, as trec_eval's map_cut_10.

trec_eval's names are trec_eval's measures, computed by the code of rankmetrics
trec_eval (--compat 10.0, the default, or 9.0.8): every value trec_eval -q
prints per topic, as it prints it (P_10, recall_100, ndcg, ndcg_cut_10,
map_cut_10, recip_rank, bpref, Rprec, success_1, iprec_at_recall_0.50, infAP,
num_rel_ret...), or as a specification with parameters, which takes the whole
-m value (-m P.5,10 gives P_5 and P_10; -m ndcg.0=0,1=1,2=3). They see every
judged document of the query: unjudged run documents, relevant documents the
run missed, negative labels (-2: in the pool, unjudged); ties are ordered by
score, then document id, as trec_eval orders them, whatever the line order;
values are float64 whatever --dtype and --ties say, item weights are ignored,
and the overall value is trec_eval's (the mean over the queries evaluated; the
counts num_ret, num_rel... are summed). Queries evaluated are trec_eval -c's:
the run's judged queries and the judged queries the run lacks (with
--qrels-only skip, trec_eval's without -c); --run-only keep is refused. They
need document ids: a TREC pair has them; TSV, CSV, JSON Lines and Parquet need a doc column
(--doc-col, or --columns qid,doc,label,score), RKM1 has none. The bare names
map, recall and dcg are TF-Ranking's (trec_eval's map, dcg and recall are
rankmetrics trec_eval's). README's "Measure names" table lists every name with
the definition it follows.

Lists go to the metric in updates of --batch queries in input order, so
TF-Ranking's per-list weights (which depend on the update) and random tie
draws (seeded from --ties-seed and the update's number) do not depend on the
number of workers: results are bit-identical for any --workers.

Memory: input is read in any line order (--unsorted auto, the default); TREC
queries come in qid order (numerically when both ids are integers, byte-wise
otherwise), gathered ones in order of first appearance. A TREC file sorted by
qid streams: memory grows with the longest list, not with the input (about 35
MB for many short lists; one list of 2M items took 140 MB from TSV, 510 MB from
TREC with four measures, 1 GB with --plot). A first pass over its qids checks
the order first: about 0.1 s of CPU for a pair of 5M-line files. A TREC file whose qids are each in one block of lines,
blocks in any order (q9 before q10, 19 before 2), is read block by block:
memory grows with the largest query plus about 120 bytes per query (40 MB for
5M-line files of 50,000 queries). TSV, CSV, JSON Lines and Parquet are read
16384 rows ahead: sorted there, they stream (and a qid out of order later is an
error naming --unsorted group). A gzipped TREC file or one on standard input
is read once, its queries returned 16384 lines behind the reading: out of
order within them it is gathered, and a qid that comes later before a query
already returned is an error naming --unsorted group.
Scattered TREC lines, and inputs read once out of order in their first rows,
are gathered in memory as with --unsorted group: the process then peaks at
about 75 bytes per item plus its document id and 150 per query plus its qid
(max RSS, /usr/bin/time -v): 750 MB for 10M TSV rows of 10k queries, 220 MB
for 1M one-item queries, 485 MB for a shuffled 5M-line run and 5M-line qrels,
820 to 920 MB for a 10M-line pair (go run ./bench/gen). --unsorted error streams without the first pass and stops at
the first qid out of order.

Flags:
`

// Upper bounds of flags whose cost grows with their value.
const (
	// maxWorkers bounds --workers: each worker keeps about two updates of
	// --batch queries in flight.
	maxWorkers = 256
	// maxPlotK bounds --plot-k: the curve computes MAP@1 to MAP@K, K
	// more passes of the metric (measured: 0.08 s per k per million items
	// on one core), and 1000 is the usual depth of a TREC run.
	maxPlotK = 1000
)

// measureList is a repeatable -m flag.
type measureList []evaluate.Measure

func (m *measureList) String() string {
	names := make([]string, len(*m))
	for i, s := range *m {
		names[i] = s.Name
	}
	return strings.Join(names, ",")
}

func (m *measureList) Set(s string) error {
	list, err := measure.ParseList(s)
	if err != nil {
		return err
	}
	for _, spec := range list {
		if d := spec.Def(); d != nil && d.Subtopics {
			return fmt.Errorf("%w %q: %s needs subtopic labels, which eval's inputs do not have", measure.ErrUnknown, spec.Name, d.Key)
		}
		*m = measure.Append(*m, spec)
	}
	return nil
}

// evalOptions is the parsed command line of eval.
type evalOptions struct {
	engineArgs
	paths []string
	// subtopics are the qrels read as subtopic qrels, for the diversity
	// measures; nil when no measure reads them.
	subtopics *runio.SubtopicQrels
	perQuery  bool
	format    string
	quiet     bool
	plotPath  string
	plotK     int
	// digits is the number of decimals of the table's values; -1 prints
	// the shortest form that reads back to the same number.
	digits int
	ci     ciOptions
	// provider is --provider: the ir_measures provider of its measures.
	provider string
}

func parseEvalArgs(args []string, stdout, stderr io.Writer) (*evalOptions, bool, error) {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &evalOptions{}
	var ef engineFlags
	ef.register(fs, &o.engineArgs, true)
	fs.BoolVar(&o.perQuery, "q", false, "also print the measures of every query, like trec_eval -q (a query to which an ir_measures measure gives no value, as Accuracy without a relevant document ranked, has no line of it; null in JSON)")
	fs.StringVar(&o.format, "format", "table", "`FORMAT` of the output: table, json or tsv (the input's is --input-format)")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress bar and no timing on stderr")
	fs.StringVar(&o.plotPath, "plot", "", "write a PNG to `FILE`: the MAP@k curve and a histogram of per-query values of the first map (else of the first measure in [0, 1])")
	fs.IntVar(&o.plotK, "plot-k", 20, "largest k of the MAP@k curve, at most 1000 (each k is one more MAP@k computed)")
	fs.IntVar(&o.digits, "digits", -1, digitsUsage("-1"))
	o.ci.register(fs)
	fs.StringVar(&o.provider, "provider", "", "compute the measures of ir_measures by `NAME`, one of ir_measures' providers that computes them (as its --provider): pytrec_eval, judged, msmarco, gdeval, compat, accuracy; RR without cutoff by msmarco, say")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), evalUsage)
		fs.PrintDefaults()
	}
	var help bool
	var err error
	if o.paths, help, err = parseInterleaved(fs, args, stdout); help || err != nil {
		return nil, help, err
	}
	bad := func(format string, a ...any) (*evalOptions, bool, error) {
		return nil, false, usageError(stderr, "eval", fmt.Sprintf(format, a...))
	}
	if len(o.paths) == 0 || len(o.paths) > 2 {
		return bad("want FILE, or QRELS RUN; got %d paths", len(o.paths))
	}
	if err := ef.parse(&o.engineArgs); err != nil {
		return bad("%v", err)
	}
	if len(o.measures) == 0 {
		o.measures = []evaluate.Measure{measure.MAP()}
	}
	if err := o.applyProfile(); err != nil {
		return bad("--profile: %v", err)
	}
	if err := o.applyProvider(o.provider); err != nil {
		return bad("--provider: %v", err)
	}
	if o.plotK < 1 || o.plotK > maxPlotK {
		return bad("--plot-k %d: want 1 to %d (each k is one more MAP@k computed over the whole input)", o.plotK, maxPlotK)
	}
	switch o.format {
	case "table", "json", "tsv":
	default:
		return bad("--format %q: want table, json or tsv", o.format)
	}
	if err := checkDigits(o.digits); err != nil {
		return bad("%v", err)
	}
	if err := o.ci.check(); err != nil {
		return bad("%v", err)
	}
	o.keepDocs()
	return o, false, nil
}

// runEval implements "rankmetrics eval".
func runEval(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, help, err := parseEvalArgs(args, stdout, stderr)
	if help || err != nil {
		return err
	}
	if o.plotPath != "" {
		if err := checkPlotPath(o.plotPath, o.paths); err != nil {
			return usageError(stderr, "eval", err.Error())
		}
	}
	o.read.Stdin = stdin
	defer o.limitCores()()
	var bytesRead atomic.Int64
	o.read.BytesRead = &bytesRead
	start := time.Now()
	if o.subtopics, err = subtopicQrels(ctx, o.measures, o.read.Format == runio.FormatTREC || len(o.paths) == 2, o.paths[0]); err != nil {
		return err
	}
	var prog *progress
	if f, ok := stderr.(*os.File); ok && !o.quiet && term.IsTerminal(int(f.Fd())) {
		prog = startProgress(stderr, &bytesRead, totalSize(o.paths))
	}
	out := bufio.NewWriterSize(stdout, 1<<16)
	// A TREC pair may stream at once as if sorted and be read again, from
	// a clean state, if it is not (runio.Options.Restartable): nothing is
	// written before the end of such a read, so -q's records wait in a
	// spool (in memory up to 8 MiB, the rest in a temporary file) until
	// the read is known good. The reader is closed by Restarting, except
	// after an interrupt, when it may still be blocked in a read (see
	// evaluate.Run): it is left to the end of the process.
	read := o.read
	read.Restartable = true
	var (
		rep *reporter
		res *evaluate.Result
		sp  *spool
	)
	defer func() {
		if sp != nil {
			sp.Close()
		}
	}()
	err = runio.Restarting(ctx, o.paths, read, func(r runio.Reader) error {
		w := out
		if sp != nil {
			sp.Close()
			sp = nil
		}
		if o.perQuery && runio.MayRestart(r) {
			sp = &spool{limit: 8 << 20}
			w = bufio.NewWriterSize(sp, 1<<16)
		}
		rep = newReporter(w, o)
		if prog != nil {
			prog.counts.Queries.Store(0)
			prog.counts.Items.Store(0)
		}
		var err error
		res, err = evaluate.Run(ctx, r, o.engineOptions(rep, prog))
		return err
	})
	if prog != nil {
		prog.stop()
	}
	if rep == nil {
		// The input did not open.
		return err
	}
	if sp != nil {
		// The read is over: what it wrote goes out, then the rest; a
		// spool that could not hold it all writes nothing (its last
		// record may be cut).
		if ferr := rep.w.Flush(); ferr != nil {
			err = errors.Join(err, ferr)
			rep.wroteQuery = false // nothing of it is out
		} else if _, werr := sp.WriteTo(out); werr != nil {
			err = errors.Join(err, werr)
		}
		rep.w = out
	}
	if err == nil {
		err = o.checkMatch(res)
	}
	if err == nil && rep.ci != nil {
		rep.ivs, err = rep.ci.intervals(ctx, o.measures, o.workers)
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			err = errInterrupted
		}
		// Whatever -q wrote stays, as whole records, and JSON stays a
		// valid document.
		rep.abort(err)
		return errors.Join(err, out.Flush())
	}
	for _, w := range o.oneSidedWarnings(res) {
		fmt.Fprintln(stderr, "eval: warning:", w)
	}
	if err := rep.finish(res); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if o.plotPath != "" {
		if err := writePlot(o.plotPath, o.plot(res)); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
	}
	if !o.quiet {
		el := time.Since(start)
		fmt.Fprintf(stderr, "eval: %d queries, %d items in %.3f s (%.1f M items/s)\n",
			res.Evaluated, res.Items, el.Seconds(), float64(res.Items)/el.Seconds()/1e6)
	}
	return nil
}

// engineOptions returns the options of the evaluation for o, writing
// per-query values to rep with -q and counting what is read for prog
// when it is not nil.
func (o *evalOptions) engineOptions(rep *reporter, prog *progress) evaluate.Options {
	eo := evaluate.Options{
		Measures:  o.measures,
		Config:    o.cfg,
		Batch:     o.batch,
		Workers:   o.workers,
		RunOnly:   o.runOnly,
		QrelsOnly: o.qrelsOnly,

		TrecEvalVersion: o.compat,
		SubtopicQrels:   o.subtopics,
	}
	if o.plotPath != "" {
		eo.CurveK = o.plotK
	}
	if o.perQuery {
		eo.PerQuery = rep.perQuery
	}
	if rep.ci != nil {
		write := eo.PerQuery
		eo.PerQuery = func(b *evaluate.Batch) error {
			rep.ci.add(b)
			if write != nil {
				return write(b)
			}
			return nil
		}
	}
	if prog != nil {
		eo.Progress = &prog.counts
	}
	return eo
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

// reporter writes the output in the chosen format.
type reporter struct {
	w          *bufio.Writer
	o          *evalOptions
	wroteQuery bool
	// ci gathers the per-query values for the intervals (nil with --ci
	// none), and ivs holds the intervals once computed.
	ci  *ciCollector
	ivs []*significance.Interval
}

func newReporter(w *bufio.Writer, o *evalOptions) *reporter {
	r := &reporter{w: w, o: o}
	if o.ci.method != "none" {
		r.ci = newCICollector(o.ci, len(o.measures))
	}
	return r
}

// perQuery writes the measures of every query of b. A query to which an
// ir_measures measure gives no value (Accuracy's without a relevant
// document ranked, which ir_measures leaves out: weight 0) has no line of
// that measure, or null in JSON: never a number where ir_measures gives
// none.
func (r *reporter) perQuery(b *evaluate.Batch) error {
	d := r.o.cfg.DType
	noValue := func(s, i int) bool { return r.o.measures[s].IR != nil && b.Weight(s, i) == 0 }
	for i := range b.Len() {
		qid := b.QID(i)
		switch r.o.format {
		case "json":
			if !r.wroteQuery {
				r.w.WriteString(`{"per_query":[`)
			} else {
				r.w.WriteString(",")
			}
			r.w.WriteString("\n{\"qid\":")
			r.w.WriteString(jsonString(qid))
			for s, m := range r.o.measures {
				if noValue(s, i) {
					fmt.Fprintf(r.w, ",%s:null", jsonString(m.Name))
					continue
				}
				fmt.Fprintf(r.w, ",%s:%s", jsonString(m.Name), jsonNumber(evaluate.FormatValue(b.Value(s, i), m.ValueDType(d))))
			}
			r.w.WriteString("}")
		case "tsv":
			if !r.wroteQuery && i == 0 {
				r.w.WriteString("measure\tqid\tvalue\n")
			}
			qid = textCell(qid)
			for s, m := range r.o.measures {
				if !noValue(s, i) {
					fmt.Fprintf(r.w, "%s\t%s\t%s\n", textCell(m.Name), qid, evaluate.FormatValue(b.Value(s, i), m.ValueDType(d)))
				}
			}
		default:
			qid = textCell(qid)
			for s, m := range r.o.measures {
				if !noValue(s, i) {
					fmt.Fprintf(r.w, "%-10s\t%s\t%s\n", textCell(m.Name), qid, formatValue(b.Value(s, i), m, d, r.o.digits))
				}
			}
		}
		r.wroteQuery = true
	}
	return nil
}

// errInterrupted replaces the context's error after an interrupt.
var errInterrupted = errors.New("interrupted: the output holds the queries evaluated so far, without the summary")

// abort ends the output after err: every record written so far is whole
// (they are written whole into the buffer, which is then flushed), and
// JSON with per-query records gets the closing it needs, with the error,
// to stay a valid document. Nothing is added when nothing was written.
func (r *reporter) abort(err error) {
	if r.o.format == "json" && r.wroteQuery {
		r.w.WriteString("\n],\n\"error\":")
		r.w.WriteString(jsonString(err.Error()))
		r.w.WriteString("}\n")
	}
}

// jsonString returns s as a JSON string. Go's %q is not JSON for control
// characters (\x01) and invalid UTF-8, which qids may hold.
func jsonString(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			b, _ := json.Marshal(s) // a string always marshals
			return string(b)
		}
	}
	return `"` + s + `"`
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

// counts returns the counters of the report of res.
func (o *evalOptions) counts(res *evaluate.Result) []count {
	st := res.Stats
	cs := []count{
		{"queries_evaluated", "queries evaluated", res.Evaluated},
		{"queries_read", "queries read", res.Read},
		{"items", "items ranked", res.Items},
		{"rows", "rows read", st.Rows},
	}
	if o.read.Format == runio.FormatTREC || len(o.paths) == 2 {
		cs = append(cs,
			count{"qrels_rows", "qrels lines read", st.QrelsRows},
			count{"run_only_queries", "run-only queries (no judgment)", st.RunOnlyQueries},
			count{"run_only_skipped", "  of which skipped", res.RunOnlySkipped},
			count{"qrels_only_queries", "qrels-only queries (not in the run)", st.QrelsOnlyQueries},
			count{"qrels_only_skipped", "  of which skipped", res.QrelsOnlySkipped},
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

// settings describes the metric's settings in a line.
func (o *evalOptions) settings() string {
	c := o.cfg
	layout := "ragged"
	if !c.Ragged {
		layout = "dense"
	}
	line := fmt.Sprintf("dtype %s, ties %s, seed %d, accumulation %s, %s lists, %d queries per update",
		c.DType, c.Ties, c.Seed, c.Accumulation, layout, o.batch)
	if o.hasTrecEval() {
		line += fmt.Sprintf("; trec_eval names as trec_eval %s (float64, ties by docno)", o.compat)
	}
	return line
}

// hasTrecEval reports whether a measure is trec_eval's.
func (o *evalOptions) hasTrecEval() bool { return hasTrecEval(o.measures) }

// hasTrecEval reports whether one of ms is trec_eval's: the input must
// then keep its document ids, by which trec_eval orders ties.
func hasTrecEval(ms []evaluate.Measure) bool {
	return slices.ContainsFunc(ms, evaluate.Measure.IsTrecEval)
}

// finish writes the summary.
func (r *reporter) finish(res *evaluate.Result) error {
	o := r.o
	d := o.cfg.DType
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
			r.w.WriteString(jsonString(p))
		}
		fmt.Fprintf(r.w, "],\"format\":%q},\n", inputFormat(o))
		fmt.Fprintf(r.w, "\"settings\":{\"dtype\":%q,\"ties\":%q,\"seed\":%d,\"accumulation\":%q,\"ragged\":%v,\"batch\":%d",
			o.cfg.DType, o.cfg.Ties, o.cfg.Seed, o.cfg.Accumulation, o.cfg.Ragged, o.batch)
		if o.hasTrecEval() {
			fmt.Fprintf(r.w, ",\"trec_eval\":%q", o.compat.String())
		}
		r.w.WriteString("},\n")
		r.w.WriteString("\"counts\":{")
		for i, c := range o.counts(res) {
			if i > 0 {
				r.w.WriteString(",")
			}
			fmt.Fprintf(r.w, "%q:%d", c.key, c.n)
		}
		r.w.WriteString("},\n\"measures\":{")
		for s, m := range o.measures {
			if s > 0 {
				r.w.WriteString(",")
			}
			fmt.Fprintf(r.w, "%s:%s", jsonString(m.Name), jsonNumber(evaluate.FormatValue(res.Values[s], m.ValueDType(d))))
		}
		r.w.WriteString("}")
		if r.ci != nil {
			r.w.WriteString(",\n" + o.ci.json(o.measures, r))
		}
		r.w.WriteString("}\n")
	case "tsv":
		if !r.wroteQuery {
			r.w.WriteString("measure\tqid\tvalue\n")
		}
		for s, m := range o.measures {
			fmt.Fprintf(r.w, "%s\tall\t%s\n", textCell(m.Name), evaluate.FormatValue(res.Values[s], m.ValueDType(d)))
			if r.ci != nil {
				lo, hi := "-", "-"
				if iv := r.interval(s); iv != nil {
					lo, hi = formatBound(iv.Low, -1), formatBound(iv.High, -1)
				}
				fmt.Fprintf(r.w, "ci_low:%s\tall\t%s\nci_high:%s\tall\t%s\n", textCell(m.Name), lo, textCell(m.Name), hi)
			}
		}
		for _, c := range o.counts(res) {
			fmt.Fprintf(r.w, "%s\tall\t%d\n", c.key, c.n)
		}
	default:
		tw := tabwriter.NewWriter(r.w, 0, 0, 2, ' ', 0)
		if r.wroteQuery {
			fmt.Fprintln(tw)
		}
		paths := make([]string, len(o.paths))
		for i, p := range o.paths {
			paths[i] = textCell(p)
		}
		fmt.Fprintf(tw, "input\t%s (%s)\n", strings.Join(paths, " "), inputFormat(o))
		fmt.Fprintf(tw, "settings\t%s\n", o.settings())
		for _, c := range o.counts(res) {
			fmt.Fprintf(tw, "%s\t%d\n", c.text, c.n)
		}
		fmt.Fprintln(tw)
		if r.ci == nil {
			fmt.Fprintln(tw, "measure\tvalue")
		} else {
			fmt.Fprintf(tw, "measure\tvalue\t%s %s CI\n", o.ci.level(), ciName(o.ci))
		}
		for s, m := range o.measures {
			fmt.Fprintf(tw, "%s\t%s", textCell(m.Name), formatValue(res.Values[s], m, d, o.digits))
			if r.ci != nil {
				fmt.Fprintf(tw, "\t%s", ciCell(r.interval(s), o.digits))
			}
			fmt.Fprintln(tw)
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

// progress draws a progress bar on a terminal.
type progress struct {
	w      io.Writer
	bytes  *atomic.Int64
	total  int64
	counts evaluate.Progress
	start  time.Time
	done   chan struct{}
	wg     sync.WaitGroup
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
	q, it, b := p.counts.Queries.Load(), p.counts.Items.Load(), p.bytes.Load()
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
