package runio

import (
	"bytes"
	"context"
	"io"
	"math"
)

// row is one item as parsed by a rowSource. qid and doc may point into the
// source's buffers and are valid only until the next call.
type row struct {
	qid    []byte
	doc    []byte
	label  float64
	score  float64
	weight float64
	line   int64
}

// rowSource parses a single-file format row by row.
type rowSource interface {
	// next parses the next row into r, returning io.EOF at the end.
	next(r *row) error
	hasWeights() bool
	hasDocs() bool
	// docField names the document column for error messages.
	docField() string
	blankLines() int64
	close() error
}

// streamReader turns a rowSource into queries: contiguous rows with the
// same qid form a query. It enforces the qid order (UnsortedError), groups
// everything in memory (UnsortedGroup), or chooses one of the two from the
// first rows (UnsortedAuto), and applies the dedupe policy.
type streamReader struct {
	ctx   context.Context
	src   rowSource
	name  string
	opts  Options
	stats Stats

	r       row
	pending bool
	pend    row
	pendQID []byte
	pendDoc []byte
	curQID  []byte
	done    bool

	tbl   *docTable
	lines []int64 // line of each item of the current query (for messages)

	grouped *groupedRows
	// auto: UnsortedAuto streams past its first autoWindow rows, which
	// were sorted; an out-of-order qid then says so.
	auto bool
}

// autoWindow is how many rows UnsortedAuto reads from a single-file
// input before its first query: if their qids are out of order the input
// is gathered, else it is streamed. Shuffled, block-shuffled and
// naturally ordered inputs (q9 before q10, 19 before 2) break their order
// within a few queries; the rows held cost about 1 MB.
const autoWindow = 1 << 14

// replaySource gives rows read ahead (copied), then the rows of src.
type replaySource struct {
	rowSource
	rows []row
	i    int
}

func (r *replaySource) next(out *row) error {
	if r.i < len(r.rows) {
		*out = r.rows[r.i]
		r.rows[r.i] = row{}
		r.i++
		return nil
	}
	r.rows = nil
	return r.rowSource.next(out)
}

// decideAuto reads up to autoWindow rows and chooses, for UnsortedAuto,
// to gather the input (its qids are out of order there) or to stream it.
func (s *streamReader) decideAuto() error {
	var rows []row
	var arena []byte // the rows' qids and documents, one after the other
	var prev []byte
	sorted := true
	for len(rows) < autoWindow {
		var r row
		err := s.src.next(&r)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if len(rows) > 0 && !bytes.Equal(r.qid, prev) && compareQID(prev, r.qid) > 0 {
			sorted = false
		}
		prev = append(prev[:0], r.qid...)
		arena = append(append(arena, r.qid...), r.doc...)
		rows = append(rows, r)
		if !sorted {
			break
		}
	}
	// The qid and doc slices still point into the source's buffers: point
	// them into the arena, in the order they were appended.
	off := 0
	for i := range rows {
		r := &rows[i]
		nq, nd := len(r.qid), len(r.doc)
		r.qid = arena[off : off+nq : off+nq]
		r.doc = arena[off+nq : off+nq+nd : off+nq+nd]
		off += nq + nd
	}
	s.src = &replaySource{rowSource: s.src, rows: rows}
	if sorted {
		s.opts.Unsorted = UnsortedError
		s.auto = true
	} else {
		s.opts.Unsorted = UnsortedGroup
	}
	return nil
}

func newStreamReader(ctx context.Context, src rowSource, name string, opts Options) *streamReader {
	s := &streamReader{ctx: ctx, src: src, name: name, opts: opts}
	if src.hasDocs() {
		s.tbl = newDocTable()
	}
	return s
}

// Stats returns the counters so far.
func (s *streamReader) Stats() Stats {
	st := s.stats
	st.BlankLines = s.src.blankLines()
	return st
}

// HasWeights reports whether the input has a weight column.
func (s *streamReader) HasWeights() bool { return s.src.hasWeights() }

// Close closes the underlying input.
func (s *streamReader) Close() error { return s.src.close() }

// Next reads the next query into q.
func (s *streamReader) Next(q *Query) error {
	if s.done {
		return io.EOF
	}
	if err := s.ctx.Err(); err != nil {
		return err
	}
	if s.opts.Unsorted == UnsortedAuto {
		if err := s.decideAuto(); err != nil {
			return err
		}
	}
	if s.opts.Unsorted == UnsortedGroup {
		return s.nextGrouped(q)
	}
	q.reset(s.src.hasWeights(), s.opts.KeepDocs && s.src.hasDocs())
	if !s.pending {
		err := s.src.next(&s.r)
		if err == io.EOF {
			s.done = true
			return io.EOF
		}
		if err != nil {
			return err
		}
		s.stats.Rows++
		s.stash(&s.r)
	}
	s.curQID = append(s.curQID[:0], s.pendQID...)
	q.QID = string(s.curQID)
	q.Line = s.pend.line
	s.beginQuery(q, 0)
	s.pending = false
	if err := s.add(q, &s.pend); err != nil {
		return err
	}
	for {
		err := s.src.next(&s.r)
		if err == io.EOF {
			s.done = true
			break
		}
		if err != nil {
			return err
		}
		s.stats.Rows++
		if bytes.Equal(s.r.qid, s.curQID) {
			if err := s.add(q, &s.r); err != nil {
				return err
			}
			continue
		}
		if compareQID(s.curQID, s.r.qid) > 0 {
			msg := unsortedMsg(s.curQID)
			if s.auto {
				msg = lateUnsortedMsg(s.curQID, autoWindow)
			}
			return &ParseError{File: s.name, Line: s.r.line, Field: "qid", Value: clip(s.r.qid), Msg: msg}
		}
		s.stash(&s.r)
		break
	}
	s.stats.Queries++
	s.stats.Items += int64(len(q.Scores))
	return nil
}

// stash copies r into the pending row.
func (s *streamReader) stash(r *row) {
	s.pendQID = append(s.pendQID[:0], r.qid...)
	s.pendDoc = append(s.pendDoc[:0], r.doc...)
	s.pend = *r
	s.pend.qid = s.pendQID
	s.pend.doc = s.pendDoc
	s.pending = true
}

func (s *streamReader) beginQuery(q *Query, sizeHint int) {
	if s.tbl != nil {
		s.tbl.reset(max(sizeHint, len(s.lines)))
		s.lines = s.lines[:0]
	}
}

// add appends one row to q, applying the dedupe policy.
func (s *streamReader) add(q *Query, r *row) error {
	if s.tbl != nil {
		idx, dup := s.tbl.insert(r.doc)
		if dup {
			first := int(s.tbl.slots[idx].a)
			switch s.opts.Dedupe {
			case DedupeFirst:
				s.stats.DuplicatesDropped++
				return nil
			case DedupeMax:
				s.stats.DuplicatesDropped++
				if r.score > q.Scores[first] {
					q.Scores[first] = r.score
					q.Labels[first] = r.label
					if q.Weights != nil {
						q.Weights[first] = r.weight
					}
				}
				return nil
			}
			return &ParseError{File: s.name, Line: r.line, Field: s.src.docField(), Value: clip(r.doc),
				Msg: duplicateMsg("document", q.QID, s.lines[first])}
		}
		s.tbl.slots[idx].a = int32(len(q.Scores))
		s.lines = append(s.lines, r.line)
		if q.Docs != nil {
			q.Docs = append(q.Docs, string(r.doc))
		}
	}
	q.Labels = append(q.Labels, r.label)
	q.Scores = append(q.Scores, r.score)
	if q.Weights != nil {
		q.Weights = append(q.Weights, r.weight)
	}
	return nil
}

// groupedRows holds a whole input grouped by qid (UnsortedGroup). The
// rows stay in flat arrays in input order, and each qid's rows are a
// linked list through nextRow: per item this costs the label, score and
// line (24 bytes), the link (4), and the weight (8) and document id (its
// bytes plus 4) when present; per query the qid, its list head and a map
// entry. Slices of slices per qid cost about twice as much for one-item
// queries.
type groupedRows struct {
	heads   []groupHead // in order of first appearance
	labels  []float64
	scores  []float64
	weights []float64
	lines   []int64
	nextRow []int32 // the qid's next row, or -1
	docs    []byte
	docEnd  []uint32 // end of each row's document id in docs
	next    int
}

type groupHead struct {
	qid         string
	first, last int32
	n           int32
}

// Largest input that UnsortedGroup holds: rows and document bytes are
// indexed with 32 bits.
const (
	maxGroupedRows     = math.MaxInt32
	maxGroupedDocBytes = math.MaxUint32
)

func (s *streamReader) loadGrouped() error {
	g := &groupedRows{}
	index := make(map[string]int32)
	last := int32(-1) // head of the previous row's qid
	withW, withD := s.src.hasWeights(), s.src.hasDocs()
	for n := 0; ; n++ {
		if n&0xffff == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
		err := s.src.next(&s.r)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		s.stats.Rows++
		r := &s.r
		if n >= maxGroupedRows || withD && uint64(len(g.docs))+uint64(len(r.doc)) > maxGroupedDocBytes {
			return &ParseError{File: s.name, Line: r.line, Msg: "too large to group in memory (over 2^31 rows or 4 GiB of document ids): sort the input by qid and read it without --unsorted group"}
		}
		row := int32(n)
		if last < 0 || g.heads[last].qid != string(r.qid) {
			h, ok := index[string(r.qid)]
			if !ok {
				h = int32(len(g.heads))
				g.heads = append(g.heads, groupHead{qid: string(r.qid), first: row, last: row})
				index[g.heads[h].qid] = h
			} else {
				g.nextRow[g.heads[h].last] = row
			}
			last = h
		} else {
			g.nextRow[g.heads[last].last] = row
		}
		hd := &g.heads[last]
		hd.last = row
		hd.n++
		g.labels = append(g.labels, r.label)
		g.scores = append(g.scores, r.score)
		g.lines = append(g.lines, r.line)
		g.nextRow = append(g.nextRow, -1)
		if withW {
			g.weights = append(g.weights, r.weight)
		}
		if withD {
			g.docs = append(g.docs, r.doc...)
			g.docEnd = append(g.docEnd, uint32(len(g.docs)))
		}
	}
	s.grouped = g
	return nil
}

func (s *streamReader) nextGrouped(q *Query) error {
	if s.grouped == nil {
		if err := s.loadGrouped(); err != nil {
			return err
		}
	}
	g := s.grouped
	if g.next >= len(g.heads) {
		s.done = true
		s.grouped = nil
		return io.EOF
	}
	hd := g.heads[g.next]
	g.next++
	q.reset(s.src.hasWeights(), s.opts.KeepDocs && s.src.hasDocs())
	q.QID = hd.qid
	q.Line = g.lines[hd.first]
	s.beginQuery(q, int(hd.n))
	var r row
	for i := hd.first; i >= 0; i = g.nextRow[i] {
		r.label, r.score, r.line = g.labels[i], g.scores[i], g.lines[i]
		if g.weights != nil {
			r.weight = g.weights[i]
		}
		if g.docEnd != nil {
			start := uint32(0)
			if i > 0 {
				start = g.docEnd[i-1]
			}
			r.doc = g.docs[start:g.docEnd[i]]
		}
		if err := s.add(q, &r); err != nil {
			return err
		}
	}
	s.stats.Queries++
	s.stats.Items += int64(len(q.Scores))
	return nil
}
