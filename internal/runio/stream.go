package runio

import (
	"bytes"
	"context"
	"io"
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
// same qid form a query. It enforces the qid order (UnsortedError) or groups
// everything in memory (UnsortedGroup), and applies the dedupe policy.
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
			return &ParseError{File: s.name, Line: s.r.line, Field: "qid", Value: clip(s.r.qid),
				Msg: unsortedMsg(s.curQID)}
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
			first := int(s.tbl.entries[idx].a)
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
		s.tbl.entries[idx].a = int32(len(q.Scores))
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

// groupedRows holds a whole input grouped by qid (UnsortedGroup).
type groupedRows struct {
	groups []*rowGroup
	next   int
}

type rowGroup struct {
	qid     string
	labels  []float64
	scores  []float64
	weights []float64
	lines   []int64
	docs    []byte
	docEnd  []uint32
}

func (s *streamReader) loadGrouped() error {
	g := &groupedRows{}
	index := make(map[string]int)
	var last *rowGroup
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
		if last == nil || last.qid != string(r.qid) {
			i, ok := index[string(r.qid)]
			if !ok {
				i = len(g.groups)
				g.groups = append(g.groups, &rowGroup{qid: string(r.qid)})
				index[g.groups[i].qid] = i
			}
			last = g.groups[i]
		}
		last.labels = append(last.labels, r.label)
		last.scores = append(last.scores, r.score)
		last.lines = append(last.lines, r.line)
		if s.src.hasWeights() {
			last.weights = append(last.weights, r.weight)
		}
		if s.src.hasDocs() {
			last.docs = append(last.docs, r.doc...)
			last.docEnd = append(last.docEnd, uint32(len(last.docs)))
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
	if g.next >= len(g.groups) {
		s.done = true
		s.grouped = nil
		return io.EOF
	}
	grp := g.groups[g.next]
	g.groups[g.next] = nil // release memory as we go
	g.next++
	q.reset(s.src.hasWeights(), s.opts.KeepDocs && s.src.hasDocs())
	q.QID = grp.qid
	q.Line = grp.lines[0]
	s.beginQuery(q, len(grp.scores))
	var r row
	start := uint32(0)
	for i := range grp.scores {
		r.label, r.score, r.line = grp.labels[i], grp.scores[i], grp.lines[i]
		if grp.weights != nil {
			r.weight = grp.weights[i]
		}
		if grp.docEnd != nil {
			r.doc = grp.docs[start:grp.docEnd[i]]
			start = grp.docEnd[i]
		}
		if err := s.add(q, &r); err != nil {
			return err
		}
	}
	s.stats.Queries++
	s.stats.Items += int64(len(q.Scores))
	return nil
}
