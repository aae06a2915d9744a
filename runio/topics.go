package runio

import (
	"context"
	"io"
	"slices"
	"unsafe"
)

// This file holds the parts of the TREC reader that the rankmetrics
// trec_eval command shares with it: the join of a qrels file's topics with
// a run's ([TopicMerge]), and the scan that finds where a file's topics are
// while checking every line ([ScanTopics]), after which a sorted file is
// streamed, a file in blocks is read block by block and any other is
// gathered.

// TopicPair is one qid of a qrels+run join: its judgments (HasQ), its
// ranked documents (HasR), or both.
type TopicPair[Q, R any] struct {
	Q    Q
	R    R
	HasQ bool
	HasR bool
}

// TopicMerge joins the topics of a qrels file with those of a run, each
// given in increasing order of one qid order, into one sequence in that
// order: a qid of both files comes out once, with both sides; a qid of one
// file with that side alone. It is the qrels+run join of every front end:
// the TREC reader (eval, compare) joins its blocks through it, in the order
// of [CompareQID], and rankmetrics trec_eval its topics, in trec_eval's
// byte order. The run is read before the qrels when both sides are due, so
// that a run error comes first, as in trec_eval.
type TopicMerge[Q, R any] struct {
	nextQ      func() (Q, bool, error)
	nextR      func() (R, bool, error)
	cmp        func(Q, R) int
	q          Q
	r          R
	hasQ, hasR bool
	qEnd, rEnd bool
}

// NewTopicMerge returns the join of the topics nextQ gives (qrels) and
// those nextR gives (run); each returns its next topic, or false after its
// last. cmp orders a qrels topic against a run topic by their qids.
func NewTopicMerge[Q, R any](nextQ func() (Q, bool, error), nextR func() (R, bool, error), cmp func(Q, R) int) *TopicMerge[Q, R] {
	return &TopicMerge[Q, R]{nextQ: nextQ, nextR: nextR, cmp: cmp}
}

// Next returns the next qid's pair, or io.EOF after the last. An error of
// either side is returned as it is, and the side is asked again by the
// next call.
func (m *TopicMerge[Q, R]) Next() (TopicPair[Q, R], error) {
	var p TopicPair[Q, R]
	if !m.hasR && !m.rEnd {
		r, ok, err := m.nextR()
		if err != nil {
			return p, err
		}
		m.r, m.hasR, m.rEnd = r, ok, !ok
	}
	if !m.hasQ && !m.qEnd {
		q, ok, err := m.nextQ()
		if err != nil {
			return p, err
		}
		m.q, m.hasQ, m.qEnd = q, ok, !ok
	}
	switch {
	case !m.hasQ && !m.hasR:
		return p, io.EOF
	case !m.hasQ:
		p.R, p.HasR = m.r, true
	case !m.hasR:
		p.Q, p.HasQ = m.q, true
	default:
		switch c := m.cmp(m.q, m.r); {
		case c == 0:
			p.Q, p.R, p.HasQ, p.HasR = m.q, m.r, true, true
		case c < 0:
			p.Q, p.HasQ = m.q, true
		default:
			p.R, p.HasR = m.r, true
		}
	}
	var zq Q
	var zr R
	if p.HasQ {
		m.q, m.hasQ = zq, false
	}
	if p.HasR {
		m.r, m.hasR = zr, false
	}
	return p, nil
}

// TopicBlock is where one topic's lines are in a TREC file: bytes
// [Off, End) from physical line FirstLine (from 1). Lines the scanner
// skips (comments, blank run lines) may be inside the range.
type TopicBlock struct {
	QID       string
	Off, End  int64
	FirstLine int64
}

// TopicBlockBytes is the memory of one TopicBlock, besides its qid's bytes.
const TopicBlockBytes = int(unsafe.Sizeof(TopicBlock{}))

// TopicLayout is how a TREC file's topics are laid out.
type TopicLayout uint8

const (
	// TopicsSorted: each topic in one block of lines, in increasing qid
	// order: the file can be read as a stream.
	TopicsSorted TopicLayout = iota
	// TopicsInBlocks: each topic in one block, in another order: the
	// file can be read block by block in qid order.
	TopicsInBlocks
	// TopicsScattered: some topic's lines are in several blocks: the
	// file must be gathered.
	TopicsScattered
)

// ScanTopics reads every line of sc, checking it by sc's rules, hands its
// fields to visit (when not nil), and returns how the file's topics are
// laid out under the qid order cmp, with each topic's block in that order
// unless they are scattered. It returns the first malformed line's error.
// Its memory grows with the number of topics, not of blocks: once a qid
// comes back in a second block, the blocks are dropped and the rest of
// the file is only checked.
//
// It is the first pass of rankmetrics trec_eval, which must check every
// line before it prints anything; the TREC reader's own first pass
// (UnsortedAuto) cuts qids without checking the other fields, and leaves
// the errors to its parser.
func ScanTopics(ctx context.Context, sc *TRECScanner, cmp func(a, b string) int, visit func(f [][]byte)) (TopicLayout, []TopicBlock, error) {
	x := topicIndex{cmp: cmp, layout: TopicsSorted}
	for n := 1; ; n++ {
		if n&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return TopicsScattered, nil, err
			}
		}
		f, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return TopicsScattered, nil, err
		}
		if visit != nil {
			visit(f)
		}
		start, end := sc.Span()
		x.add(f[0], start, end, sc.Line())
	}
	return x.finish()
}

// topicIndex records a file's topic blocks line by line.
type topicIndex struct {
	cmp    func(a, b string) int
	layout TopicLayout
	blocks []TopicBlock
	seen   map[string]struct{} // the qids so far, once not sorted
}

// add adds a line of qid qid at bytes [start, end), physical line line.
func (x *topicIndex) add(qid []byte, start, end, line int64) {
	if x.layout == TopicsScattered {
		return
	}
	n := len(x.blocks)
	if n > 0 && x.blocks[n-1].QID == string(qid) {
		x.blocks[n-1].End = end
		return
	}
	if n > 0 && x.seen == nil && x.cmp(string(qid), x.blocks[n-1].QID) <= 0 {
		x.layout = TopicsInBlocks
		x.seen = make(map[string]struct{}, n)
		for _, b := range x.blocks {
			x.seen[b.QID] = struct{}{}
		}
	}
	if x.seen != nil {
		if _, ok := x.seen[string(qid)]; ok {
			x.layout, x.blocks, x.seen = TopicsScattered, nil, nil
			return
		}
	}
	q := string(qid)
	if x.seen != nil {
		x.seen[q] = struct{}{}
	}
	x.blocks = append(x.blocks, TopicBlock{QID: q, Off: start, End: end, FirstLine: line})
}

// finish returns the layout and the blocks in qid order.
func (x *topicIndex) finish() (TopicLayout, []TopicBlock, error) {
	if x.layout == TopicsInBlocks {
		slices.SortFunc(x.blocks, func(a, b TopicBlock) int { return x.cmp(a.QID, b.QID) })
	}
	return x.layout, x.blocks, nil
}
