package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/internal/trecfile"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
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
gathered in memory at about %d bytes per line plus the docno's bytes. The
qrels file is indexed the same way when each topic is in one block, and
held in memory otherwise. The largest topic costs about 170 bytes per
document while it is ranked. Measured (max RSS, /usr/bin/time -v): one
topic of 5M documents, 838 MB (trec_eval 10.0: 575 MB); 5M lines of 5000
topics in shuffled order with -q, 293 MB (trec_eval 10.0: 428 MB).
`, trecfile.BytesPerTopic, storedValuesBudget>>20, trecfile.BytesPerLine)
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

// runTrecEval is the trec_eval subcommand.
func runTrecEval(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return runTrecEvalBudget(ctx, args, storedValuesBudget, stdin, stdout, stderr)
}

// runTrecEvalBudget is runTrecEval with the one-pass summary's memory
// budget (tests give 0 to take the two-pass paths on small files).
func runTrecEvalBudget(ctx context.Context, args []string, budget int64, stdin io.Reader, stdout, stderr io.Writer) error {
	o, operands, err := parseTrecEvalOptions(args)
	if err != nil {
		return err
	}
	o.valuesBudget = budget
	ev, initErr := treceval.NewEvaluator(o.cfg, o.measures)
	if errors.Is(initErr, treceval.ErrIllegalMeasure) || errors.Is(initErr, treceval.ErrUnsupported) {
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
	o.runName = runName
	qrels, closeQrels, err := readQrels(ctx, qrelsName, o.cfg.Version)
	if err != nil {
		return err
	}
	defer closeQrels()
	if initErr != nil {
		// Check the run first: trec_eval reports a malformed run before
		// bad measure parameters (both with status 2).
		s := trecfile.NewRunScanner(strings.NewReader(""), runName, o.cfg.Version)
		if f, err := os.Open(runName); err == nil {
			s = trecfile.NewRunScanner(f, runName, o.cfg.Version)
			defer f.Close()
		}
		if _, err := trecfile.Classify(ctx, s); err != nil && !errors.Is(err, trecfile.ErrEmptyRun) {
			return exitf(2, "trec_eval: %w", err)
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

// readQrels indexes the qrels file by topic blocks (memory per topic,
// not per line), or reads it whole if its topics are scattered.
func readQrels(ctx context.Context, name string, v treceval.Version) (trecfile.Judgements, func(), error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, exitf(2, "trec_eval: cannot read qrels file: %w", err)
	}
	x, err := trecfile.IndexQrels(ctx, f, name, v)
	if err == nil {
		return x, func() { f.Close() }, nil
	}
	f.Close()
	if !errors.Is(err, trecfile.ErrScatteredQrels) {
		return nil, nil, exitf(2, "trec_eval: %w", err)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, nil, exitf(2, "trec_eval: cannot read qrels file: %w", err)
	}
	q, err := trecfile.ParseQrels(name, data, v)
	if err != nil {
		return nil, nil, exitf(2, "trec_eval: %w", err)
	}
	return q, func() {}, nil
}

// runSource yields a run's topics in increasing qid order, either as
// documents or already evaluated.
type runSource struct {
	next  func(ctx context.Context) (topic, error)
	runid func() string
	close func()
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
}

// openRunSource reads the run file once to check every line (trec_eval
// reads it whole before printing anything) and to see where its topics
// are, then reads it again: as a stream if its topics are sorted; block
// by block in qid order if each topic is in one block; gathering it in
// memory otherwise (and for standard input). Without -q, when every
// topic's values fit in storedValuesBudget, a single pass evaluates each
// topic as it comes and keeps only the values.
func openRunSource(ctx context.Context, name string, stdin io.Reader, o *trecEvalOptions, ev *treceval.Evaluator, qrels trecfile.Judgements) (*runSource, error) {
	v := o.cfg.Version
	fail := func(err error) (*runSource, error) {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		if errors.Is(err, trecfile.ErrEmptyRun) {
			return nil, exitf(2, "trec_eval: %s: %w", name, err)
		}
		return nil, exitf(2, "trec_eval: %w", err)
	}
	if v == treceval.V10 && strings.HasPrefix(name, "-") {
		run, err := trecfile.CollectRun(ctx, trecfile.NewRunScanner(stdin, "stdin", v))
		if err != nil {
			return fail(err)
		}
		return memorySource(run), nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, exitf(2, "trec_eval: cannot read results file: %w", err)
	}
	rewind := func() error {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return exitf(2, "trec_eval: %s: %w", name, err)
		}
		return nil
	}
	if !o.query && int64(qrels.NumTopics())*int64(ev.NumValues())*8 <= o.valuesBudget {
		// Only the summary is printed and every topic's values fit in
		// the budget: evaluate in one pass, keeping each topic's
		// values, unless a topic's lines are scattered.
		src, scattered, err := evaluatedSource(ctx, trecfile.NewRunScanner(f, name, v), o, ev, qrels)
		if err != nil || !scattered {
			f.Close()
			if err != nil {
				return fail(err)
			}
			return src, nil
		}
		if err := rewind(); err != nil {
			f.Close()
			return nil, err
		}
		return collectSource(ctx, f, name, v, fail)
	}
	x, err := trecfile.IndexRun(ctx, trecfile.NewRunScanner(f, name, v))
	if err != nil {
		f.Close()
		return fail(err)
	}
	switch x.Order {
	case trecfile.Sorted:
		if err := rewind(); err != nil {
			f.Close()
			return nil, err
		}
		s := trecfile.NewRunScanner(f, name, v)
		next := func(ctx context.Context) (topic, error) {
			qid, docs, err := s.Next(ctx)
			return topic{qid: qid, docs: docs}, err
		}
		return &runSource{next: next, runid: s.Runid, close: func() { f.Close() }}, nil
	case trecfile.Contiguous:
		return blockSource(f, name, v, x), nil
	}
	if err := rewind(); err != nil {
		f.Close()
		return nil, err
	}
	return collectSource(ctx, f, name, v, fail)
}

// storedValuesBudget bounds the memory of the one-pass summary: above it,
// a run whose topics are not sorted is read a second time in topic order
// instead of keeping every topic's values.
const storedValuesBudget = 16 << 20

// blockSource reads the run's topics from f block by block in qid order,
// as x found them, and closes f at the end.
func blockSource(f *os.File, name string, v treceval.Version, x *trecfile.RunIndex) *runSource {
	s := trecfile.NewRunScanner(nil, name, v)
	var buf []byte
	var br bytes.Reader
	i := 0
	next := func(ctx context.Context) (topic, error) {
		if i >= len(x.Blocks) {
			return topic{}, io.EOF
		}
		b := &x.Blocks[i]
		i++
		n := int(b.End - b.Off)
		buf = slices.Grow(buf[:0], n)[:n]
		if _, err := f.ReadAt(buf, b.Off); err != nil {
			return topic{}, fmt.Errorf("%s: %w", name, err)
		}
		br.Reset(buf)
		s.ResetBlock(&br, b.FirstLine)
		qid, docs, err := s.Next(ctx)
		if err == io.EOF || err == nil && qid != b.Qid {
			err = fmt.Errorf("%s: the file changed while it was read (line %d)", name, b.FirstLine)
		}
		return topic{qid: qid, docs: docs}, err
	}
	return &runSource{next: next, runid: func() string { return x.Runid }, close: func() { f.Close() }}
}

// collectSource gathers the run in f in memory and closes f.
func collectSource(ctx context.Context, f *os.File, name string, v treceval.Version, fail func(error) (*runSource, error)) (*runSource, error) {
	run, err := trecfile.CollectRun(ctx, trecfile.NewRunScanner(f, name, v))
	f.Close()
	if err != nil {
		return fail(err)
	}
	return memorySource(run), nil
}

// evaluatedSource evaluates each judged topic of s as it is read and
// keeps only its values. It stops early, reporting scattered, when a
// topic's lines are not consecutive.
func evaluatedSource(ctx context.Context, s *trecfile.RunScanner, o *trecEvalOptions, ev *treceval.Evaluator, qrels trecfile.Judgements) (src *runSource, scattered bool, err error) {
	var topics []topic
	var tv treceval.TopicValues
	seen := map[string]struct{}{}
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
		e := &evaluated{}
		if e.err = ev.Evaluate(qid, judged, docs, &tv); e.err == nil {
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
	return &runSource{next: next, runid: func() string { return runid }, close: func() {}}, false, nil
}

func memorySource(run *trecfile.Run) *runSource {
	i := 0
	return &runSource{
		next: func(context.Context) (topic, error) {
			if i >= len(run.Topics) {
				return topic{}, io.EOF
			}
			t := &run.Topics[i]
			i++
			return topic{qid: t.Qid, docs: t.Docs}, nil
		},
		runid: func() string { return run.Runid },
		close: func() {},
	}
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
		return exitf(4, "trec_eval: %s: %w", o.runName, err)
	}
	skip := func(qid string) bool { return o.debugQuery != "" && qid != o.debugQuery }
	qi := 0 // next judged topic
	// missingBefore handles judged topics that sort before qid (or all
	// remaining ones at the end) and are absent from the run.
	missingBefore := func(qid string, end bool) error {
		for ; qi < qrels.NumTopics() && (end || qrels.Qid(qi) < qid); qi++ {
			tq := qrels.Qid(qi)
			if cfg.Version != treceval.V10 || skip(tq) {
				continue
			}
			if !cfg.Complete {
				return exitf(4, "trec_eval: judged topic %q is not in the run (trec_eval 10.0 stops here; -c scores it as an empty run)", tq)
			}
			judged, err := qrels.Judged(qi)
			if err != nil {
				return exitf(2, "trec_eval: %w", err)
			}
			if err := ev.EvaluateMissing(tq, judged, &tv); err != nil {
				return calcErr(err)
			}
			emit()
		}
		return nil
	}
	for n := 0; ; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		tp, err := src.next(ctx)
		qid := tp.qid
		if err == io.EOF {
			break
		}
		if err != nil {
			return exitf(2, "trec_eval: %w", err)
		}
		if err := missingBefore(qid, false); err != nil {
			return err
		}
		if qi >= qrels.NumTopics() || qrels.Qid(qi) != qid {
			continue // run topic without judgements: ignored
		}
		ti := qi
		qi++
		if skip(qid) {
			continue
		}
		if tp.done != nil {
			if tp.done.err != nil {
				return calcErr(tp.done.err)
			}
			tv = tp.done.tv
		} else {
			judged, err := qrels.Judged(ti)
			if err != nil {
				return exitf(2, "trec_eval: %w", err)
			}
			if err := ev.Evaluate(qid, judged, tp.docs, &tv); err != nil {
				return calcErr(err)
			}
		}
		emit()
	}
	if err := missingBefore("", true); err != nil {
		return err
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
