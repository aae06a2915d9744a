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
// unless they are scattered (see [TopicIndex] for its memory). It returns
// the first malformed line's error.
//
// It is the first pass of rankmetrics trec_eval, which must check every
// line before it prints anything; the TREC reader's own first pass
// (UnsortedAuto) cuts qids without checking the other fields, leaves the
// errors to its parser, and records its blocks in a TopicIndex too. A caller with work of its own on every line
// may read the lines itself and give them to a TopicIndex: that saves a
// call per line.
func ScanTopics(ctx context.Context, sc *TRECScanner, cmp func(a, b string) int, visit func(f [][]byte)) (TopicLayout, []TopicBlock, error) {
	x := NewTopicIndex(cmp)
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
		x.Add(f[0], sc)
	}
	lay, blocks := x.Layout()
	return lay, blocks, nil
}

// TopicIndex finds how a TREC file's topics are laid out, from its lines
// in file order: whether each topic is in one block of consecutive lines
// (comment lines between them do not count), and whether the blocks are
// in the index's qid order. Its memory is one TopicBlock for at most twice
// as many blocks as the file has topics, whatever the number of blocks:
// once the blocks are out of order, they are sorted each time their number
// doubles, and dropped at the first qid found in two blocks (a set of the
// qids instead took a third more time to index qrels of 50,000 topics in
// blocks). The first qid out of order is looked up at once among the
// blocks before it, which are then in order: a file of two sorted parts
// is known to be scattered where its second part starts.
type TopicIndex struct {
	cmp    func(a, b string) int
	layout TopicLayout
	// blocks holds the blocks before cur (sorted by qid from time to
	// time, once out of order); cur is the block being read, when have
	blocks []TopicBlock
	cur    TopicBlock
	have   bool
	// check is the number of blocks at which they are next sorted and
	// checked, once out of order
	check int
}

// minTopicCheck is the fewest blocks that are sorted and checked for a
// repeated qid.
const minTopicCheck = 1024

// NewTopicIndex returns an empty index under the qid order cmp.
func NewTopicIndex(cmp func(a, b string) int) *TopicIndex {
	return &TopicIndex{cmp: cmp, layout: TopicsSorted}
}

// Add adds the line sc returned last, of qid qid (its first field).
func (x *TopicIndex) Add(qid []byte, sc *TRECScanner) {
	if x.have && x.cur.QID == string(qid) {
		// The qid of the line before: the common case.
		x.cur.End = sc.lr.off
		return
	}
	x.addLine(qid, sc)
}

// addLine is add of sc's last line, out of Add so that Add is inlined.
func (x *TopicIndex) addLine(qid []byte, sc *TRECScanner) {
	start, end := sc.Span()
	x.add(qid, start, end, sc.Line())
}

// add starts a block at the line of bytes [start, end) and physical line
// number line, whose qid is not the line before's (or drops it, the
// layout being scattered). The TREC reader's own scan (trecScan) adds its
// lines here and extends the current block itself.
func (x *TopicIndex) add(qid []byte, start, end, line int64) {
	if x.layout == TopicsScattered {
		return
	}
	q := string(qid)
	if x.have {
		if x.layout == TopicsSorted && x.cmp(q, x.cur.QID) <= 0 {
			// The first qid out of order: the blocks so far are in
			// order, each qid once, so one search tells whether it is
			// one of theirs (a file written as two sorted parts).
			if q == x.cur.QID || x.sortedHas(q) {
				x.layout, x.blocks, x.cur, x.have = TopicsScattered, nil, TopicBlock{}, false
				return
			}
			x.layout = TopicsInBlocks
			x.check = max(2*(len(x.blocks)+1), minTopicCheck)
		}
		if x.push(); x.layout == TopicsScattered {
			return
		}
	}
	x.cur = TopicBlock{QID: q, Off: start, End: end, FirstLine: line}
	x.have = true
}

// sortedHas says whether qid is in a block of x.blocks, which are sorted.
func (x *TopicIndex) sortedHas(qid string) bool {
	_, ok := slices.BinarySearchFunc(x.blocks, qid, func(b TopicBlock, q string) int { return x.cmp(b.QID, q) })
	return ok
}

// push adds the block being read to the blocks, sorting and checking them
// when their number reaches x.check.
func (x *TopicIndex) push() {
	x.blocks = append(x.blocks, x.cur)
	x.cur, x.have = TopicBlock{}, false
	if x.layout == TopicsInBlocks && len(x.blocks) >= x.check {
		x.sortBlocks()
		x.check = 2 * len(x.blocks)
	}
}

// sortBlocks sorts the blocks by qid, and makes the layout scattered if a
// qid is in two of them.
func (x *TopicIndex) sortBlocks() {
	slices.SortFunc(x.blocks, func(a, b TopicBlock) int { return x.cmp(a.QID, b.QID) })
	for i := 1; i < len(x.blocks); i++ {
		if x.blocks[i].QID == x.blocks[i-1].QID {
			x.layout, x.blocks = TopicsScattered, nil
			return
		}
	}
}

// Layout returns the layout of the lines added so far and, unless they
// are scattered, each topic's block in qid order.
func (x *TopicIndex) Layout() (TopicLayout, []TopicBlock) {
	if x.have && x.layout != TopicsScattered {
		x.push()
	}
	if x.layout == TopicsInBlocks {
		x.sortBlocks()
	}
	return x.layout, x.blocks
}
