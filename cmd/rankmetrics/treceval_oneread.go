package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unsafe"

	"github.com/rankmetrics/rankmetrics/internal/trecfile"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// trecEvalTuning selects the reading strategies of rankmetrics trec_eval;
// the defaults are what the command uses, and tests change them to take
// every path on small files.
type trecEvalTuning struct {
	// budget bounds the values kept in memory (bytes): the one-pass
	// summary's (evaluatedSource), and, in the side-by-side read, the
	// values kept in memory before the rest go to a temporary file.
	budget int64
	// noSideBySide turns off the side-by-side read (readSideBySide).
	noSideBySide bool
	// sideBySide, when not nil, counts the runs answered by the
	// side-by-side read.
	sideBySide *int
}

// sideBySideCopies bounds the bytes of the topics the side-by-side read
// keeps while it waits for them in the other file: beyond it, the files'
// orders differ too much, and it gives way to the usual reading.
const sideBySideCopies = 16 << 20

// sideBySideMemory bounds the values the side-by-side read keeps in
// memory (bytes); the rest go to a temporary file, which costs less than
// a second read of the run (see bench/README.md). -m all_trec on the
// 50,000-topic pair of bench/gen, 5 alternated runs: 4 MiB held 44 MB of
// peak RSS, 256 KiB 36.5 MB, in 0.91 against 0.92 s of CPU.
const sideBySideMemory = 256 << 10

// errNotSideBySide makes the side-by-side read give way to the usual
// reading: the files are not what it reads, or it met an error that the
// usual reading reports in trec_eval's order.
var errNotSideBySide = errors.New("not read side by side")

// sideTopic is a topic evaluated by the side-by-side read: its values are
// at ref in the valueStore.
type sideTopic struct {
	qid       string
	ref       int64
	relstring []byte
}

// readSideBySide evaluates the qrels file and the run (both regular
// files) in one read of each, side by side: topic by topic in file order,
// when each file holds each of its topics in one block of lines and both
// give their common topics in about the same order (any order: a pair
// written in numeric qid order is the common case; a topic only one file
// has is kept until the end, within sideBySideCopies). Each topic is evaluated as soon as both its blocks are
// read, its values kept; when both files are read to their end, the
// values are added (and printed with -q) in increasing qid order, as
// trec_eval does. Nothing is printed before the end of both files, so a
// malformed line anywhere is still found before any output.
//
// It returns errNotSideBySide, having printed nothing, when the files are
// not such a pair or when it meets any error in them (a malformed line, a
// topic trec_eval refuses, a topic whose judgements are all negative and
// so depend on the topic before it in qid order): the usual reading,
// which reads each file whole first, then reports that error as trec_eval
// does. The evaluator must then be reset with Follow(nil).
func readSideBySide(ctx context.Context, o *trecEvalOptions, ev *treceval.Evaluator, tune trecEvalTuning, qrelsName, runName string, stdout io.Writer) error {
	v := o.cfg.Version
	if o.debugQuery != "" || v == treceval.V10 && strings.HasPrefix(runName, "-") {
		return errNotSideBySide
	}
	qf, err := openRegular(qrelsName)
	if err != nil {
		return errNotSideBySide
	}
	defer qf.Close()
	rf, err := openRegular(runName)
	if err != nil {
		return errNotSideBySide
	}
	defer rf.Close()
	qs := trecfile.NewQrelsScanner(qf, qrelsName, v)
	rs := trecfile.NewRunScanner(rf, runName, v)
	store := &valueStore{limit: int(min(tune.budget, sideBySideMemory) / 8)}
	defer store.close()
	var topics []sideTopic
	var tv treceval.TopicValues
	// evaluate evaluates a topic with a judgement of 0 or more (docs nil:
	// absent from the run) and keeps its values.
	evaluate := func(qid string, judged []treceval.Judgment, docs []treceval.Doc, missing bool) error {
		if !slices.ContainsFunc(judged, func(j treceval.Judgment) bool { return j.Rel >= 0 }) {
			return errNotSideBySide
		}
		var err error
		if missing {
			err = ev.EvaluateMissingContext(ctx, qid, judged, &tv)
		} else {
			err = ev.EvaluateContext(ctx, qid, judged, docs, &tv)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return errNotSideBySide
		}
		ref, err := store.put(tv.V)
		if err != nil {
			return errNotSideBySide
		}
		t := sideTopic{qid: qid, ref: ref}
		if len(tv.Relstring) > 0 {
			t.relstring = slices.Clone(tv.Relstring)
		}
		topics = append(topics, t)
		return nil
	}
	// A topic read from one file and not yet from the other is kept
	// (copied) until it is; topics the run has and the qrels lack stay
	// there (trec_eval ignores them), and so do judged topics the run
	// lacks, evaluated at the end.
	var arena trecfile.Arena
	copied := int64(0)
	pendRun := map[string][]treceval.Doc{}
	pendQrels := map[string][]treceval.Judgment{}
	// Every qid read, to find one in two blocks of a file once both are
	// read (sorting them costs less than a set of 50,000 qids).
	var runQids, qrelsQids []string
	runDone, qrelsDone := false, false
	for !runDone || !qrelsDone {
		var rqid, jqid string
		var docs []treceval.Doc
		var judged []treceval.Judgment
		gotRun, gotQrels := false, false
		if !runDone {
			qid, d, err := rs.Next(ctx)
			switch {
			case err == io.EOF:
				runDone = true
			case err != nil:
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return errNotSideBySide
			default:
				runQids = append(runQids, qid)
				rqid, docs, gotRun = qid, d, true
			}
		}
		if !qrelsDone {
			qid, j, err := qs.Next(ctx)
			switch {
			case err == io.EOF:
				qrelsDone = true
			case err != nil:
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return errNotSideBySide
			default:
				qrelsQids = append(qrelsQids, qid)
				jqid, judged, gotQrels = qid, j, true
			}
		}
		if gotRun && gotQrels && rqid == jqid {
			if err := evaluate(rqid, judged, docs, false); err != nil {
				return err
			}
			continue
		}
		if gotRun {
			if j, ok := pendQrels[rqid]; ok {
				delete(pendQrels, rqid)
				if err := evaluate(rqid, j, docs, false); err != nil {
					return err
				}
			} else {
				keep := make([]treceval.Doc, len(docs))
				for i, d := range docs {
					keep[i] = treceval.Doc{Docno: arena.String(unsafe.Slice(unsafe.StringData(d.Docno), len(d.Docno))), Score: d.Score}
					copied += int64(len(d.Docno)) + 24
				}
				pendRun[rqid] = keep
			}
		}
		if gotQrels {
			if d, ok := pendRun[jqid]; ok {
				delete(pendRun, jqid)
				if err := evaluate(jqid, judged, d, false); err != nil {
					return err
				}
			} else {
				keep := make([]treceval.Judgment, len(judged))
				for i, j := range judged {
					keep[i] = treceval.Judgment{Docno: arena.String(unsafe.Slice(unsafe.StringData(j.Docno), len(j.Docno))), Rel: j.Rel}
					copied += int64(len(j.Docno)) + 24
				}
				pendQrels[jqid] = keep
			}
		}
		if copied > sideBySideCopies {
			return errNotSideBySide
		}
	}
	if len(runQids) == 0 || len(qrelsQids) == 0 || inTwoBlocks(runQids) || inTwoBlocks(qrelsQids) {
		return errNotSideBySide
	}
	if len(pendQrels) > 0 && v == treceval.V10 {
		// Judged topics the run lacks: trec_eval 10.0 stops at the
		// first, or with -c scores each as an empty run.
		if !o.cfg.Complete {
			return errNotSideBySide
		}
		for qid, judged := range pendQrels {
			if err := evaluate(qid, judged, nil, true); err != nil {
				return err
			}
		}
	}
	if len(topics) == 0 {
		return errNotSideBySide
	}
	if tune.sideBySide != nil {
		*tune.sideBySide++
	}
	slices.SortFunc(topics, func(a, b sideTopic) int { return strings.Compare(a.qid, b.qid) })
	w := bufio.NewWriterSize(stdout, 1<<16)
	sum := ev.NewSummary()
	tv.V = slices.Grow(tv.V[:0], ev.NumValues())[:ev.NumValues()]
	var buf []byte
	for i, t := range topics {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := store.get(t.ref, tv.V); err != nil {
			return exitf(2, "trec_eval: %w", err)
		}
		tv.Qid, tv.Relstring = t.qid, t.relstring
		sum.Add(&tv)
		if o.query {
			buf = ev.AppendTopic(buf[:0], &tv)
			w.Write(buf)
		}
	}
	if o.summary {
		final := sum.Final(int64(len(qrelsQids)), qs.RelAbove0())
		buf = ev.AppendSummary(buf[:0], final, rs.Runid())
		w.Write(buf)
	}
	return w.Flush()
}

// inTwoBlocks reports whether a qid is twice in qids (which it sorts).
func inTwoBlocks(qids []string) bool {
	slices.Sort(qids)
	for i := 1; i < len(qids); i++ {
		if qids[i] == qids[i-1] {
			return true
		}
	}
	return false
}

// openRegular opens name if it is a regular file (one that can be read
// again from its start when the side-by-side read gives way). It looks
// before it opens: opening a FIFO or a process substitution <(...) would
// wait for its writer, and closing it would lose what was written.
func openRegular(name string) (*os.File, error) {
	if st, err := os.Stat(name); err != nil || !st.Mode().IsRegular() {
		return nil, errNotSideBySide
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, errNotSideBySide
	}
	return f, nil
}

// valueStore keeps the values of every topic one after another: in
// memory up to limit values, and beyond it in a temporary file (in
// TMPDIR, removed at once, so its space is freed when it is closed), so
// that memory does not grow with the number of topics.
type valueStore struct {
	mem    []float64
	limit  int
	f      *os.File
	w      *bufio.Writer
	inFile int64 // values written to f
}

// put stores v and returns its place for get. Once a topic has gone to
// the file, every later one does, so a topic is never split.
func (s *valueStore) put(v []float64) (int64, error) {
	ref := int64(len(s.mem)) + s.inFile
	if s.inFile == 0 && len(s.mem)+len(v) <= s.limit {
		if len(s.mem)+len(v) > cap(s.mem) {
			s.mem = slices.Grow(s.mem, min(max(2*cap(s.mem), len(v), 1024), s.limit)-len(s.mem))
		}
		s.mem = append(s.mem, v...)
		return ref, nil
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "rankmetrics-trec_eval-values-*")
		if err != nil {
			return 0, err
		}
		os.Remove(f.Name())
		s.f, s.w = f, bufio.NewWriterSize(f, 1<<16)
	}
	if _, err := s.w.Write(float64Bytes(v)); err != nil {
		return 0, fmt.Errorf("temporary file of values: %w", err)
	}
	s.inFile += int64(len(v))
	return ref, nil
}

// get reads the len(dst) values stored at ref into dst.
func (s *valueStore) get(ref int64, dst []float64) error {
	if ref < int64(len(s.mem)) {
		copy(dst, s.mem[ref:])
		return nil
	}
	if s.w.Buffered() > 0 {
		if err := s.w.Flush(); err != nil {
			return fmt.Errorf("temporary file of values: %w", err)
		}
	}
	if _, err := s.f.ReadAt(float64Bytes(dst), (ref-int64(len(s.mem)))*8); err != nil {
		return fmt.Errorf("temporary file of values: %w", err)
	}
	return nil
}

// close removes the temporary file, if any.
func (s *valueStore) close() {
	if s.f != nil {
		s.f.Close()
	}
}

// float64Bytes views v's memory as bytes (for the temporary file, read
// back by the same process).
func float64Bytes(v []float64) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*8)
}
