package trecfile

import (
	"context"
	"io"
	"slices"
	"strings"
	"unsafe"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// RunTopic is one topic of a run held in memory.
type RunTopic struct {
	Qid  string
	Docs []treceval.Doc
}

// Run is a whole run in memory, topics sorted by qid; lines of a topic
// that were not consecutive in the file are gathered into one topic.
type Run struct {
	Topics []RunTopic
	Runid  string
	Lines  int64
}

// BytesPerLine is the memory a run line costs when a run is gathered in
// memory, besides the bytes of its docno (a treceval.Doc).
const BytesPerLine = 24

// CollectRun reads a whole run into memory.
func CollectRun(ctx context.Context, s *RunScanner) (*Run, error) {
	var a Arena
	byQid := map[string]int{}
	run := &Run{}
	for {
		qid, docs, err := s.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		k, ok := byQid[qid]
		if !ok {
			k = len(run.Topics)
			byQid[qid] = k
			run.Topics = append(run.Topics, RunTopic{Qid: qid})
		}
		t := &run.Topics[k]
		for _, d := range docs {
			t.Docs = append(t.Docs, treceval.Doc{Docno: a.String(unsafeBytes(d.Docno)), Score: d.Score})
		}
	}
	if len(run.Topics) == 0 {
		return nil, ErrEmptyRun
	}
	slices.SortFunc(run.Topics, func(a, b RunTopic) int { return strings.Compare(a.Qid, b.Qid) })
	run.Runid = s.Runid()
	run.Lines = s.Lines()
	return run, nil
}

// Order is how a run's topics are laid out in the file.
type Order int

const (
	// Sorted: each topic in one block of lines, topics in increasing qid
	// (byte) order: the run can be evaluated and printed as a stream.
	Sorted Order = iota
	// Contiguous: each topic in one block, in another order: topics can be
	// evaluated one at a time and printed at the end.
	Contiguous
	// Scattered: some topic's lines are not consecutive: the run must be
	// gathered in memory.
	Scattered
)

// RunIndex is where each topic of a run file is, from a first pass.
type RunIndex struct {
	// Order is how the topics are laid out.
	Order Order
	// Blocks holds each topic's block in qid order; nil for a Scattered
	// run.
	Blocks []RunBlock
	// Runid is the run id of the last line.
	Runid string
}

// BytesPerTopic is the memory a RunIndex costs per topic group, besides
// the bytes of its qid.
const BytesPerTopic = int(unsafe.Sizeof(RunBlock{}))

// IndexRun reads a whole run (with the scanner in QidsOnly mode), checking
// every line, and returns where its topics are; it returns the first
// malformed line's error. Its memory grows with the number of topics, not
// of blocks: once a qid comes back in a second block the run is Scattered
// and the blocks are dropped (the rest is only checked), so a shuffled run
// of millions of one-line blocks costs no more than a sorted one.
func IndexRun(ctx context.Context, s *RunScanner) (*RunIndex, error) {
	s.QidsOnly()
	x := &RunIndex{Order: Sorted}
	var seen map[string]struct{} // the qids so far, once not Sorted
	for {
		qid, _, err := s.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if x.Order == Scattered {
			continue
		}
		n := len(x.Blocks)
		if n > 0 && qid <= x.Blocks[n-1].Qid && seen == nil {
			x.Order = Contiguous
			seen = make(map[string]struct{}, n)
			for _, b := range x.Blocks {
				seen[b.Qid] = struct{}{}
			}
		}
		if seen != nil {
			if _, ok := seen[qid]; ok {
				x.Order, x.Blocks, seen = Scattered, nil, nil
				continue
			}
			seen[qid] = struct{}{}
		}
		b := s.Block()
		b.Qid = qid
		x.Blocks = append(x.Blocks, b)
	}
	if s.Lines() == 0 {
		return nil, ErrEmptyRun
	}
	x.Runid = s.Runid()
	if x.Order == Contiguous {
		slices.SortFunc(x.Blocks, func(a, b RunBlock) int { return strings.Compare(a.Qid, b.Qid) })
	}
	return x, nil
}

// Classify reads a whole run (with the scanner in QidsOnly mode) and
// returns its Order; it returns the first malformed line's error.
func Classify(ctx context.Context, s *RunScanner) (Order, error) {
	x, err := IndexRun(ctx, s)
	if err != nil {
		return Scattered, err
	}
	return x.Order, nil
}
