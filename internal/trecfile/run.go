package trecfile

import (
	"context"
	"errors"
	"io"
	"slices"
	"unsafe"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// MaxLine is the longest run line accepted, its line terminator included
// (trec_eval has no limit, but a line this long is not a TREC run).
const MaxLine = 16 << 20

// ctxCheckLines is how often (in lines) the scanner checks its context.
const ctxCheckLines = 1 << 16

// RunScanner reads a run file ("qid iter docno rank score runid") as a
// sequence of topic groups: maximal runs of consecutive lines with the
// same qid, in file order. The lines are read by runio's TREC scanner in
// the version's trec_eval mode: blank lines are skipped, and in 10.0
// lines whose first non-blank character is '#'.
type RunScanner struct {
	sc *runio.TRECScanner
	// the group being built
	qid    []byte
	docnos groupArena
	docs   []treceval.Doc
	runid  []byte
	done   bool
	nlines int64
}

// NewRunScanner returns a scanner of r, named name in errors.
func NewRunScanner(r io.Reader, name string, v treceval.Version) *RunScanner {
	return &RunScanner{sc: NewScanner(r, name, false, v)}
}

// Lines is the number of run lines (not blank, not comments) read so far.
func (s *RunScanner) Lines() int64 { return s.nlines }

// Runid is the run id of the last line read (trec_eval prints the last
// line's).
func (s *RunScanner) Runid() string { return string(s.runid) }

// Next reads the next topic group. It returns the qid and the documents
// (valid until the next call), or io.EOF after the last group.
func (s *RunScanner) Next(ctx context.Context) (string, []treceval.Doc, error) {
	if s.done {
		return "", nil, io.EOF
	}
	s.docnos.reset()
	s.docs = s.docs[:0]
	f, err := s.sc.Next()
	if err == io.EOF {
		s.done = true
		return "", nil, io.EOF
	}
	if err != nil {
		return "", nil, err
	}
	s.qid = append(s.qid[:0], f[0]...)
	for {
		s.add(f)
		if s.nlines%ctxCheckLines == 0 {
			if err := ctx.Err(); err != nil {
				return "", nil, err
			}
		}
		f, err = s.sc.Next()
		if err == io.EOF {
			s.done = true
			break
		}
		if err != nil {
			return "", nil, err
		}
		if string(f[0]) != string(s.qid) {
			s.sc.Unread()
			break
		}
	}
	return string(s.qid), s.docs, nil
}

// ResetBlock makes s read r, which holds a block of the run that starts
// at physical line firstLine, keeping its buffers.
func (s *RunScanner) ResetBlock(r io.Reader, firstLine int64) {
	s.sc.Reset(r, firstLine)
	s.done = false
}

// add adds a data line's fields f to the group.
func (s *RunScanner) add(f [][]byte) {
	s.nlines++
	s.runid = append(s.runid[:0], f[5]...)
	score := treceval.Atof(unsafeString(f[4]))
	if len(s.docs) == cap(s.docs) {
		// Double: appends grow a large slice by a quarter at a time,
		// allocating five times its final size on the way.
		s.docs = slices.Grow(s.docs, max(len(s.docs), 1024))
	}
	s.docs = append(s.docs, treceval.Doc{Docno: s.docnos.add(f[2]), Score: score})
}

// groupArena holds the docnos of the topic group being read in chunks
// that never move, so that a document can point at its docno as soon as
// it is read (24 bytes and the docno per line, where offsets into one
// growing buffer, turned into documents at the end of the group, took
// twice that and copied the docnos as the buffer grew). The chunks are
// reused from group to group.
type groupArena struct {
	chunks [][]byte
	cur    int // the chunk being filled
}

// reset empties the arena, keeping its chunks.
func (a *groupArena) reset() {
	for i := range a.chunks[:min(a.cur+1, len(a.chunks))] {
		a.chunks[i] = a.chunks[i][:0]
	}
	a.cur = 0
}

// add returns a copy of b in the arena, valid until the next reset.
func (a *groupArena) add(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	for {
		if a.cur == len(a.chunks) {
			a.chunks = append(a.chunks, make([]byte, 0, max(arenaChunk, len(b))))
		}
		if c := a.chunks[a.cur]; cap(c)-len(c) >= len(b) {
			c = append(c, b...)
			a.chunks[a.cur] = c
			return unsafe.String(&c[len(c)-len(b)], len(b))
		}
		a.cur++
	}
}

// ErrEmptyRun is returned for a run without any data line.
var ErrEmptyRun = errors.New("no results in run file")
