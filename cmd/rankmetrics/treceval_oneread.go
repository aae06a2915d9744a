package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
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
// peak RSS, 256 KiB 36.5 MB, in 0.91 against 0.92 s of CPU. The state kept
// for every topic besides its values, packed (packedStrings, topicOf:
// about 22 bytes a topic of that pair, 112 in a sideTopic with its qid,
// relstring and the two []string of qids before), took the live heap at
// the end from 9 to 6 MB and peak RSS, min / median of 5 alternated runs
// of `/usr/bin/time -f "%e %U %S %M" rankmetrics trec_eval -m all_trec
// qrels.txt run.txt`, from 35.8 / 36.5 to 25.4 / 27.2 MB (-m map: 33.3 /
// 35.3 to 26.1 / 26.9; -q -m all_trec: 35.8 / 36.0 to 27.3 / 27.7), CPU
// 0.96 against 1.00 s.
const sideBySideMemory = 256 << 10

// errNotSideBySide makes the side-by-side read give way to the usual
// reading: the files are not what it reads, or it met an error that the
// usual reading reports in trec_eval's order.
var errNotSideBySide = errors.New("not read side by side")

// packedStrings is a list of byte strings in one arena: 4 bytes a string
// besides its bytes, where a []string takes 16 and an allocation each. It
// keeps the side-by-side read's per-topic state small: the qids of a
// file's blocks, and the relstrings kept for -q.
type packedStrings struct {
	b    []byte
	ends []uint32 // string i is b[ends[i-1]:ends[i]] (b[:ends[0]] for i = 0)
}

// add appends s; it returns false, adding nothing, when the list would
// pass 4 GiB of bytes or 2^32-1 strings.
func (l *packedStrings) add(s string) bool {
	if uint64(len(l.b))+uint64(len(s)) > math.MaxUint32 || uint64(len(l.ends)) >= math.MaxUint32 {
		return false
	}
	l.b = append(l.b, s...)
	l.ends = append(l.ends, uint32(len(l.b)))
	return true
}

// len is the number of strings.
func (l *packedStrings) len() int { return len(l.ends) }

// bytesAt returns string i's bytes, in the arena's memory: read only.
func (l *packedStrings) bytesAt(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	end := l.ends[i]
	return l.b[start:end:end]
}

// at returns string i, which shares the arena's memory (the arena only
// grows: its bytes never change).
func (l *packedStrings) at(i int) string {
	b := l.bytesAt(i)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// sorted returns the indices of the strings in increasing (byte) order,
// and whether a string is there twice.
func (l *packedStrings) sorted() ([]uint32, bool) {
	p := make([]uint32, l.len())
	for i := range p {
		p[i] = uint32(i)
	}
	slices.SortFunc(p, func(a, b uint32) int { return strings.Compare(l.at(int(a)), l.at(int(b))) })
	for i := 1; i < len(p); i++ {
		if l.at(int(p[i])) == l.at(int(p[i-1])) {
			return p, true
		}
	}
	return p, false
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
// so depend on the topic before it in qid order, a file's qids passing 4
// GiB, which packedStrings does not hold): the usual reading,
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
	// The qids of the blocks of each file, in file order, to find one in
	// two blocks of a file once both are read (sorting them costs less
	// than a set of 50,000 qids). Every topic evaluated is a block of the
	// qrels: topicOf[j] is 1 + the number of the topic (in evaluation
	// order) of the qrels' block j, 0 for a block not evaluated. Topic k's
	// values are at k*ev.NumValues() in store, and with -q its relstring is
	// relstrings.at(k).
	var runQids, qrelsQids, relstrings packedStrings
	var topicOf []uint32
	ntopics := 0
	var tv treceval.TopicValues
	// evaluate evaluates the topic of the qrels' block j, with a
	// judgement of 0 or more (docs nil: absent from the run), and keeps
	// its values.
	evaluate := func(j int, judged []treceval.Judgment, docs []treceval.Doc, missing bool) error {
		if !slices.ContainsFunc(judged, func(j treceval.Judgment) bool { return j.Rel >= 0 }) {
			return errNotSideBySide
		}
		qid := qrelsQids.at(j)
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
		if _, err := store.put(tv.V); err != nil {
			return errNotSideBySide
		}
		// Only -q prints relstrings; the summary does not add them.
		if o.query && !relstrings.add(unsafe.String(unsafe.SliceData(tv.Relstring), len(tv.Relstring))) {
			return errNotSideBySide
		}
		ntopics++
		topicOf[j] = uint32(ntopics)
		return nil
	}
	// A topic read from one file and not yet from the other is kept
	// (copied) until it is; topics the run has and the qrels lack stay
	// there (trec_eval ignores them), and so do judged topics the run
	// lacks, evaluated at the end.
	type pendingJudged struct {
		block  int // the block's number in the qrels
		judged []treceval.Judgment
	}
	var arena trecfile.Arena
	copied := int64(0)
	pendRun := map[string][]treceval.Doc{}
	pendQrels := map[string]pendingJudged{}
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
				if !runQids.add(qid) {
					return errNotSideBySide
				}
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
				if !qrelsQids.add(qid) {
					return errNotSideBySide
				}
				topicOf = append(topicOf, 0)
				jqid, judged, gotQrels = qid, j, true
			}
		}
		jblock := qrelsQids.len() - 1 // the qrels' block read now, if gotQrels
		if gotRun && gotQrels && rqid == jqid {
			if err := evaluate(jblock, judged, docs, false); err != nil {
				return err
			}
			continue
		}
		if gotRun {
			if p, ok := pendQrels[rqid]; ok {
				delete(pendQrels, rqid)
				if err := evaluate(p.block, p.judged, docs, false); err != nil {
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
				if err := evaluate(jblock, judged, d, false); err != nil {
					return err
				}
			} else {
				keep := make([]treceval.Judgment, len(judged))
				for i, j := range judged {
					keep[i] = treceval.Judgment{Docno: arena.String(unsafe.Slice(unsafe.StringData(j.Docno), len(j.Docno))), Rel: j.Rel}
					copied += int64(len(j.Docno)) + 24
				}
				pendQrels[jqid] = pendingJudged{block: jblock, judged: keep}
			}
		}
		if copied > sideBySideCopies {
			return errNotSideBySide
		}
	}
	if runQids.len() == 0 || qrelsQids.len() == 0 {
		return errNotSideBySide
	}
	if _, twice := runQids.sorted(); twice {
		return errNotSideBySide
	}
	runQids = packedStrings{}
	byQid, twice := qrelsQids.sorted()
	if twice {
		return errNotSideBySide
	}
	if len(pendQrels) > 0 && v == treceval.V10 {
		// Judged topics the run lacks: trec_eval 10.0 stops at the
		// first, or with -c scores each as an empty run.
		if !o.cfg.Complete {
			return errNotSideBySide
		}
		for _, p := range pendQrels {
			if err := evaluate(p.block, p.judged, nil, true); err != nil {
				return err
			}
		}
	}
	if ntopics == 0 {
		return errNotSideBySide
	}
	if tune.sideBySide != nil {
		*tune.sideBySide++
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	sum := ev.NewSummary()
	n := ev.NumValues()
	tv.V = slices.Grow(tv.V[:0], n)[:n]
	var buf []byte
	done := 0
	for _, j := range byQid {
		k := int(topicOf[j]) - 1
		if k < 0 {
			continue // not evaluated
		}
		if done%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		done++
		if err := store.get(int64(k)*int64(n), tv.V); err != nil {
			return exitf(2, "trec_eval: %w", err)
		}
		tv.Qid = qrelsQids.at(int(j))
		sum.Add(&tv)
		if o.query {
			tv.Relstring = relstrings.bytesAt(k)
			buf = ev.AppendTopic(buf[:0], &tv)
			w.Write(buf)
		}
	}
	if o.summary {
		final := sum.Final(int64(qrelsQids.len()), qs.RelAbove0())
		buf = ev.AppendSummary(buf[:0], final, rs.Runid())
		w.Write(buf)
	}
	return w.Flush()
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
