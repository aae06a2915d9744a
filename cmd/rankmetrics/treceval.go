package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/internal/trecfile"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// exitError carries the exit status trec_eval would end with.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// ExitCode is the process exit status.
func (e *exitError) ExitCode() int { return e.code }

// trecEvalExitCode is the status an exitError in err asks for (1
// otherwise).
func trecEvalExitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.ExitCode()
	}
	return 1
}

func exitf(code int, format string, a ...any) error {
	return &exitError{code: code, err: fmt.Errorf(format, a...)}
}

// trecEvalOptions are the parsed command-line settings.
type trecEvalOptions struct {
	cfg        treceval.Config
	query      bool
	summary    bool
	measures   []string
	debugQuery string
	runName    string
	qrelsName  string
	help       bool
	version    bool
	// valuesBudget bounds the one-pass summary's stored values (bytes).
	valuesBudget int64
}

const trecEvalUsage = `usage: rankmetrics trec_eval [--compat 10.0|9.0.8] [-h] [-v] [-q] [-m measure[.params]]... [-c] [-n]
       [-l level] [-N num_docs] [-M max_ret] [-J] [-R qrels] [-T trec_results] QRELS RUN
`

func trecEvalHelp(w io.Writer) {
	fmt.Fprint(w, trecEvalUsage)
	fmt.Fprintf(w, `
Evaluates the TREC run RUN against the judgements QRELS and prints what
trec_eval prints, byte for byte, for the version chosen with --compat
(default 10.0; 9.0.8 is the version inside pytrec_eval and most published
numbers). RUN may be '-' for standard input (10.0 only, as in trec_eval).

  -q        print every topic's values before the summary
  -m M      add measure M (a name, or official, all_trec, set); parameters
            follow a dot: -m P.5,10  -m ndcg_cut.3  -m ndcg.1=1,2=3
            -m success.1  -m rbp.p=0.8 (10.0). Default: official
  -c        average over every judged topic; topics the run lacks count 0
  -n        no summary lines
  -l N      judgements of at least N are relevant (default 1)
  -N N      collection size for utility
  -M N      keep only each topic's first N ranked documents
  -J        drop unjudged documents before ranking
  -R qrels  only the qrels format (prefs and qrels_jg are refused)
  -T trec_results  only the TREC run format
  -D 0.QID  evaluate topic QID only (debug output is not reproduced)
  -v        print the version and exit

Memory: every line is checked in a first pass (trec_eval reads both
files whole before printing). A run sorted by topic (qids in increasing
byte order, each topic in one block of lines) is then evaluated as a
stream, one topic in memory at a time; a run whose topics are each in one
block, in any order, is read again block by block in qid order (about %d
bytes per topic plus the qid). Without -q, a run is evaluated in a single
pass when every topic's values fit in %d MiB. Any other line order is
gathered in memory at about %d bytes per line plus the docno's bytes.
When the two files are regular files that give their common topics in
about the same order, each in one block, both are read once, side by
side, and each topic's values are kept (beyond 256 KiB in a temporary
file in TMPDIR) to be summed and printed in qid order at the end. The
qrels file is indexed the same way when each topic is in one block, and
held in memory otherwise. A file that cannot seek (a pipe, a FIFO,
<(...)) is first copied to a temporary file (in TMPDIR). The largest topic
costs about 170 bytes per document while it is ranked. Measured (max RSS,
/usr/bin/time -v): one topic of 5M documents, 838 MB (trec_eval 10.0:
575 MB); 5M lines of 5000 topics in shuffled order with -q, 293 MB
(trec_eval 10.0: 428 MB).
`, runio.TopicBlockBytes, storedValuesBudget>>20, trecfile.BytesPerLine)
}

func parseTrecEvalOptions(args []string) (*trecEvalOptions, []string, error) {
	args0, operands, err := parseTrecEvalArgs(args)
	if err != nil {
		return nil, nil, exitf(1, "trec_eval: %w\n%s", err, trecEvalUsage)
	}
	o := &trecEvalOptions{summary: true, cfg: treceval.DefaultConfig(treceval.V10)}
	for _, a := range args0 {
		if a.opt == 0 {
			v, err := treceval.ParseVersion(a.val)
			if err != nil {
				return nil, nil, exitf(1, "%w", err)
			}
			o.cfg.Version = v
		}
	}
	for _, a := range args0 {
		switch a.opt {
		case 'h':
			o.help = true
		case 'v':
			o.version = true
		case 'q':
			o.query = true
		case 'm':
			o.measures = append(o.measures, a.val)
		case 'c':
			o.cfg.Complete = true
		case 'l':
			o.cfg.RelLevel = treceval.Atol(a.val)
		case 'n':
			o.summary = false
		case 'D':
			lvl, q, _ := strings.Cut(a.val, ".")
			if treceval.Atol(lvl) != 0 {
				return nil, nil, exitf(2, "trec_eval: -D %s: debug output is not reproduced by rankmetrics (use -D 0.QID to evaluate one topic)", a.val)
			}
			o.debugQuery = q
		case 'J':
			o.cfg.JudgedOnly = true
		case 'N':
			o.cfg.NumDocsInColl = treceval.Atol(a.val)
		case 'M':
			o.cfg.MaxRet = treceval.Atol(a.val)
			if o.cfg.MaxRet < 0 {
				return nil, nil, exitf(2, "trec_eval: -M %s: a negative maximum makes trec_eval crash; give 0 or more", a.val)
			}
		case 'R':
			switch a.val {
			case "qrels":
			case "prefs", "qrels_prefs", "qrels_jg":
				return nil, nil, exitf(2, "trec_eval: -R %s: the %s format is not supported by rankmetrics trec_eval (only -R qrels)", a.val, a.val)
			default:
				return nil, nil, exitf(2, "trec_eval: -R %s: illegal rel_info format (only qrels)", a.val)
			}
		case 'T':
			if a.val != "trec_results" {
				return nil, nil, exitf(2, "trec_eval: -T %s: illegal results format (only trec_results)", a.val)
			}
		case 'o':
		case 'Z':
			return nil, nil, exitf(2, "trec_eval: -Z: Z scores are not supported by rankmetrics trec_eval")
		}
	}
	return o, operands, nil
}

// runTrecEval is the trec_eval subcommand. Interrupted, it ends with
// "interrupted" and exit status 130.
func runTrecEval(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	err := runTrecEvalTuned(ctx, args, trecEvalTuning{budget: storedValuesBudget}, stdin, stdout, stderr)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return &exitError{code: 130, err: errors.New("interrupted")}
	}
	return err
}

// runTrecEvalTuned is runTrecEval with the reading strategies of tune
// (tests turn the side-by-side read off and give a budget of 0 to take
// the two-pass paths on small files).
func runTrecEvalTuned(ctx context.Context, args []string, tune trecEvalTuning, stdin io.Reader, stdout, stderr io.Writer) error {
	o, operands, err := parseTrecEvalOptions(args)
	if err != nil {
		return err
	}
	o.valuesBudget = tune.budget
	ev, initErr := treceval.NewEvaluator(o.cfg, o.measures)
	if errors.Is(initErr, treceval.ErrIllegalMeasure) {
		return exitf(1, "trec_eval: %w%s", initErr, illegalMeasureHint(o.measures, o.cfg.Version))
	}
	if errors.Is(initErr, treceval.ErrUnsupported) {
		return exitf(1, "trec_eval: %w", initErr)
	}
	// trec_eval reports bad measure parameters after reading the files,
	// with status 2: initErr is returned below.
	if o.help {
		trecEvalHelp(stdout)
		return nil
	}
	if o.version {
		fmt.Fprintf(stderr, "rankmetrics trec_eval, compatible with trec_eval %s\n", o.cfg.Version)
		return nil
	}
	if len(operands) != 2 {
		return exitf(1, "trec_eval: need exactly two files, QRELS and RUN\n%s", trecEvalUsage)
	}
	qrelsName, runName := operands[0], operands[1]
	o.runName, o.qrelsName = runName, qrelsName
	if initErr == nil && !tune.noSideBySide {
		err := readSideBySide(ctx, o, ev, tune, qrelsName, runName, stdout)
		if !errors.Is(err, errNotSideBySide) {
			return err
		}
		// Read the usual way, from no topic evaluated.
		if err := ev.Follow(nil); err != nil {
			return err
		}
	}
	qrels, closeQrels, err := trecfile.OpenQrels(ctx, qrelsName, o.cfg.Version)
	if err != nil {
		return exitf(2, "trec_eval: %w", err)
	}
	defer closeQrels()
	if initErr != nil {
		// Check the run first: trec_eval reports a malformed run before
		// bad measure parameters (both with status 2).
		if f, err := os.Open(runName); err == nil {
			defer f.Close()
			if _, _, err := trecfile.Scan(ctx, trecfile.NewScanner(f, runName, false, o.cfg.Version)); err != nil {
				return exitf(2, "trec_eval: %w", err)
			}
		}
		return exitf(2, "trec_eval: %w", initErr)
	}
	src, err := openRunSource(ctx, runName, stdin, o, ev, qrels)
	if err != nil {
		return err
	}
	defer src.close()
	w := bufio.NewWriterSize(stdout, 1<<16)
	err = evaluateTrecEval(ctx, o, ev, qrels, src, w)
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	return err
}

// runSource yields a run's topics in increasing qid order, either as
// documents or already evaluated.
type runSource struct {
	next  func(ctx context.Context) (topic, error)
	runid func() string
	close func()
	// outOfOrder: topics were evaluated in the run's order, so the
	// state trec_eval carries between topics in qid order must be set
	// before each all-negative topic evaluated in the merge.
	outOfOrder bool
}

// topic is one run topic: its documents, or its evaluation (values or
// the error trec_eval would stop with when it reaches the topic).
type topic struct {
	qid  string
	docs []treceval.Doc
	done *evaluated
}

type evaluated struct {
	tv  treceval.TopicValues
	err error
	// nonneg: the topic has a judgement of 0 or more.
	nonneg bool
}

// openRunSource reads the run's topics in increasing qid order with
// trecfile.ReadRun (a check of every line, then a stream, block by block
// or gathered, as the run's layout allows), gathering standard input in
// memory. Without -q, when every topic's values fit in
// storedValuesBudget, a single pass evaluates each topic as it comes and
// keeps only the values.
func openRunSource(ctx context.Context, name string, stdin io.Reader, o *trecEvalOptions, ev *treceval.Evaluator, qrels trecfile.Judgements) (*runSource, error) {
	v := o.cfg.Version
	fail := func(err error) (*runSource, error) {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, exitf(2, "trec_eval: %w", err)
	}
	if v == treceval.V10 && strings.HasPrefix(name, "-") {
		run, err := trecfile.CollectRun(ctx, trecfile.NewRunScanner(trecfile.StdinReader(stdin), "stdin", v))
		if errors.Is(err, trecfile.ErrEmptyRun) {
			err = fmt.Errorf("%s: %w", name, err)
		}
		if err != nil {
			return fail(err)
		}
		return topicsSource(run.Source()), nil
	}
	f, err := trecfile.OpenSeekable(ctx, name)
	if err != nil {
		return nil, exitf(2, "trec_eval: cannot read results file: %w", err)
	}
	rewind := func() error {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return exitf(2, "trec_eval: %s: %w", name, err)
		}
		return nil
	}
	read := trecfile.ReadRun
	if !o.query && int64(qrels.NumTopics())*int64(ev.NumValues())*8 <= o.valuesBudget {
		// Only the summary is printed and every topic's values fit in
		// the budget: evaluate in one pass, keeping each topic's
		// values, unless a topic's lines are scattered.
		src, scattered, err := evaluatedSource(ctx, trecfile.NewRunScanner(f, name, v), o, ev, qrels)
		if errors.Is(err, trecfile.ErrEmptyRun) {
			err = fmt.Errorf("%s: %w", name, err)
		}
		switch {
		case errors.Is(err, errOverBudget):
			// Too many all-negative topics to keep: read the run
			// again in topic order, from no topic evaluated.
		case err != nil || !scattered:
			f.Close()
			if err != nil {
				return fail(err)
			}
			return src, nil
		default:
			// The topics evaluated so far left the state trec_eval
			// carries between topics: start again from none, and
			// gather the run.
			read = trecfile.GatherRun
		}
		if err := ev.Follow(nil); err != nil {
			f.Close()
			return nil, err
		}
		if err := rewind(); err != nil {
			f.Close()
			return nil, err
		}
	}
	t, err := read(ctx, f, name, v)
	if err != nil {
		return fail(err)
	}
	return topicsSource(t), nil
}

// topicsSource is the runSource of the topics t.
func topicsSource(t *trecfile.Source) *runSource {
	next := func(ctx context.Context) (topic, error) {
		qid, docs, err := t.Next(ctx)
		return topic{qid: qid, docs: docs}, err
	}
	return &runSource{next: next, runid: t.Runid, close: t.Close}
}

// storedValuesBudget bounds the memory of the one-pass summary: above it,
// a run whose topics are not sorted is read a second time in topic order
// instead of keeping every topic's values.
const storedValuesBudget = 16 << 20

// evaluatedSource evaluates each judged topic of s as it is read and
// keeps only its values. It stops early, reporting scattered, when a
// topic's lines are not consecutive. A topic whose judgements are all
// negative depends on the topic before it in qid order (trec_eval's
// order): its documents are kept, to be evaluated in that order, and
// errOverBudget is returned when they do not fit in o.valuesBudget.
func evaluatedSource(ctx context.Context, s *trecfile.RunScanner, o *trecEvalOptions, ev *treceval.Evaluator, qrels trecfile.Judgements) (src *runSource, scattered bool, err error) {
	var topics []topic
	var tv treceval.TopicValues
	seen := map[string]struct{}{}
	kept := int64(0) // bytes of the kept documents
	for {
		qid, docs, err := s.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
		if _, dup := seen[qid]; dup {
			return nil, true, nil
		}
		seen[qid] = struct{}{}
		ti := qrels.Index(qid)
		if ti < 0 || o.debugQuery != "" && qid != o.debugQuery {
			continue // never evaluated
		}
		judged, err := qrels.Judged(ti)
		if err != nil {
			return nil, false, err
		}
		if !slices.ContainsFunc(judged, func(j treceval.Judgment) bool { return j.Rel >= 0 }) {
			kept += int64(len(qid)) + 64
			keep := make([]treceval.Doc, len(docs))
			for i, d := range docs {
				keep[i] = treceval.Doc{Docno: strings.Clone(d.Docno), Score: d.Score}
				kept += int64(len(d.Docno)) + 24
			}
			if kept > o.valuesBudget {
				return nil, false, errOverBudget
			}
			topics = append(topics, topic{qid: qid, docs: keep})
			continue
		}
		e := &evaluated{nonneg: true}
		if e.err = ev.EvaluateContext(ctx, qid, judged, docs, &tv); ctx.Err() != nil {
			return nil, false, ctx.Err()
		} else if e.err == nil {
			e.tv = treceval.TopicValues{Qid: qid, V: slices.Clone(tv.V), Relstring: slices.Clone(tv.Relstring)}
		}
		topics = append(topics, topic{qid: qid, done: e})
	}
	slices.SortFunc(topics, func(a, b topic) int { return strings.Compare(a.qid, b.qid) })
	i := 0
	next := func(context.Context) (topic, error) {
		if i >= len(topics) {
			return topic{}, io.EOF
		}
		i++
		return topics[i-1], nil
	}
	if len(seen) == 0 {
		return nil, false, trecfile.ErrEmptyRun
	}
	runid := s.Runid()
	return &runSource{next: next, runid: func() string { return runid }, close: func() {}, outOfOrder: true}, false, nil
}

// errOverBudget stops the one-pass summary when the documents it keeps
// do not fit in its budget.
var errOverBudget = errors.New("over the one-pass budget")

// qrelsPlace is "QRELS:LINE", where the judgement of je is, or the qrels
// file's name if the line cannot be found.
func qrelsPlace(ctx context.Context, o *trecEvalOptions, je *treceval.JudgmentError) string {
	f, err := os.Open(o.qrelsName)
	if err != nil {
		return o.qrelsName
	}
	defer f.Close()
	line, err := trecfile.QrelsLine(ctx, f, o.qrelsName, o.cfg.Version, je.Qid, je.Index)
	if err != nil || line == 0 {
		return o.qrelsName
	}
	return fmt.Sprintf("%s:%d", o.qrelsName, line)
}

// judgmentHint tells how to get past a JudgmentError.
func judgmentHint(err error) string {
	switch {
	case errors.Is(err, treceval.ErrDuplicate):
		return " (trec_eval stops here too: remove the repeated judgement)"
	case errors.Is(err, treceval.ErrJudgmentTooLarge):
		return " (trec_eval allocates one counter per level up to it: lower the judgement)"
	case errors.Is(err, treceval.ErrCrashLevels):
		return "; make one of its judgements -1, or 0 or more, or remove its lines (-m runid and -m num_q alone do not need them)"
	case errors.Is(err, treceval.ErrNegativeFirst):
		return "; give the topic a judgement of 0 or more, or remove its lines (-m runid and -m num_q alone do not need it)"
	}
	return ""
}

// evaluateTrecEval merges the judged topics with the run's (both in qid
// order) as the chosen trec_eval version does, printing as it goes.
func evaluateTrecEval(ctx context.Context, o *trecEvalOptions, ev *treceval.Evaluator, qrels trecfile.Judgements, src *runSource, w *bufio.Writer) error {
	cfg := o.cfg
	sum := ev.NewSummary()
	var tv treceval.TopicValues
	var buf []byte
	emit := func() {
		sum.Add(&tv)
		if o.query {
			buf = ev.AppendTopic(buf[:0], &tv)
			w.Write(buf)
		}
	}
	calcErr := func(err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var je *treceval.JudgmentError
		if errors.As(err, &je) {
			return exitf(4, "trec_eval: %s: %w%s", qrelsPlace(ctx, o, je), err, judgmentHint(err))
		}
		return exitf(4, "trec_eval: %s: %w", o.runName, err)
	}
	skip := func(qid string) bool { return o.debugQuery != "" && qid != o.debugQuery }
	// prev is the last topic evaluated in qid order with a judgement of
	// 0 or more (-1: none), for sources evaluated out of that order.
	prev := -1
	// follow returns topic ti's judgements (Judged's buffer may be
	// reused by the next call), after setting the state.
	follow := func(ti int) ([]treceval.Judgment, error) {
		judged, err := qrels.Judged(ti)
		if err != nil {
			return nil, exitf(2, "trec_eval: %w", err)
		}
		if slices.ContainsFunc(judged, func(j treceval.Judgment) bool { return j.Rel >= 0 }) {
			prev = ti
			return judged, nil
		}
		if !src.outOfOrder {
			return judged, nil
		}
		var pj []treceval.Judgment
		if prev >= 0 {
			if pj, err = qrels.Judged(prev); err != nil {
				return nil, exitf(2, "trec_eval: %w", err)
			}
		}
		if err := ev.Follow(pj); err != nil {
			return nil, calcErr(err)
		}
		if judged, err = qrels.Judged(ti); err != nil {
			return nil, exitf(2, "trec_eval: %w", err)
		}
		return judged, nil
	}
	// missing handles judged topic ti, absent from the run.
	missing := func(ti int) error {
		tq := qrels.Qid(ti)
		if cfg.Version != treceval.V10 || skip(tq) {
			return nil
		}
		if !cfg.Complete {
			return exitf(4, "trec_eval: judged topic %q is not in the run (trec_eval 10.0 stops here; -c scores it as an empty run)", tq)
		}
		judged, err := follow(ti)
		if err != nil {
			return err
		}
		if err := ev.EvaluateMissingContext(ctx, tq, judged, &tv); err != nil {
			return calcErr(err)
		}
		emit()
		return nil
	}
	// The judged topics (by index, in qid order) joined with the run's
	// (in qid order) by runio's join, in trec_eval's byte order.
	qi := 0
	judgedTopics := func() (int, bool, error) {
		if qi >= qrels.NumTopics() {
			return 0, false, nil
		}
		qi++
		return qi - 1, true, nil
	}
	runTopics := func() (topic, bool, error) {
		tp, err := src.next(ctx)
		if err == io.EOF {
			return topic{}, false, nil
		}
		if err != nil {
			return topic{}, false, exitf(2, "trec_eval: %w", err)
		}
		return tp, true, nil
	}
	join := runio.NewTopicMerge(judgedTopics, runTopics, func(ti int, tp topic) int { return strings.Compare(qrels.Qid(ti), tp.qid) })
	for n := 0; ; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		p, err := join.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if !p.HasR {
			if err := missing(p.Q); err != nil {
				return err
			}
			continue
		}
		if !p.HasQ {
			continue // run topic without judgements: ignored
		}
		ti, tp := p.Q, p.R
		qid := tp.qid
		if skip(qid) {
			continue
		}
		if tp.done != nil {
			if tp.done.err != nil {
				return calcErr(tp.done.err)
			}
			if tp.done.nonneg {
				prev = ti
			}
			tv = tp.done.tv
		} else {
			judged, err := follow(ti)
			if err != nil {
				return err
			}
			if err := ev.EvaluateContext(ctx, qid, judged, tp.docs, &tv); err != nil {
				return calcErr(err)
			}
		}
		emit()
	}
	if sum.NumQueries() == 0 {
		return exitf(7, "trec_eval: no topic has both results and judgements")
	}
	if o.summary {
		final := sum.Final(int64(qrels.NumTopics()), qrels.RelAbove0())
		buf = ev.AppendSummary(buf[:0], final, src.runid())
		w.Write(buf)
	}
	return nil
}

// illegalMeasureHint returns, for the first of specs that trec_eval does not
// know, the nearest names of the registry written as -m takes them (P_10:
// -m P.10), or "" when none is near.
func illegalMeasureHint(specs []string, v treceval.Version) string {
	for _, spec := range specs {
		if _, err := treceval.NewEvaluator(treceval.DefaultConfig(v), []string{spec}); !errors.Is(err, treceval.ErrIllegalMeasure) {
			continue
		}
		var names []string
		for _, x := range measure.Suggest(spec, true) {
			if x.Def.Family == measure.TrecEval && (!x.Def.V10Only || v == treceval.V10) {
				names = append(names, "-m "+x.Name+" ("+x.Def.Doc+")")
			}
		}
		if len(names) > 0 {
			return "; did you mean " + strings.Join(names, ", or ") + "?"
		}
		return ""
	}
	return ""
}
