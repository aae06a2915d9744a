package trecfile

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// MaxLine is the longest run line accepted (trec_eval has no limit, but a
// line this long is not a TREC run).
const MaxLine = 16 << 20

// ctxCheckLines is how often (in lines) the scanner checks its context.
const ctxCheckLines = 1 << 16

// RunScanner reads a run file ("qid iter docno rank score runid") as a
// sequence of topic groups: maximal runs of consecutive lines with the
// same qid, in file order. Blank lines are skipped, and in 10.0 lines
// whose first non-blank character is '#'.
type RunScanner struct {
	name string
	v    treceval.Version
	br   *bufio.Reader
	line int64
	// the group being built
	qid   []byte
	arena []byte
	offs  []span
	docs  []treceval.Doc
	runid []byte
	// the first line of the next group, already read
	pending     []byte
	havePending bool
	f           [][]byte
	long        []byte
	done        bool
	nlines      int64
	qidsOnly    bool
	// byte offsets: of the next physical line, of the last line read
	// (start and end), of the pending line, and of the group returned
	off, lineOff, lineEnd int64
	pendingOff, pendingNo int64
	group                 RunBlock
}

// RunBlock is where a topic group's lines are in a run file: bytes
// [Off, End) starting at physical line FirstLine (from 1).
type RunBlock struct {
	Qid       string
	Off, End  int64
	FirstLine int64
}

// QidsOnly makes Next check lines and group them without parsing scores
// or keeping docnos (it then returns no documents): a fast first pass.
func (s *RunScanner) QidsOnly() { s.qidsOnly = true }

type span struct {
	off, n int
	score  float64
}

// NewRunScanner returns a scanner of r, named name in errors.
func NewRunScanner(r io.Reader, name string, v treceval.Version) *RunScanner {
	return &RunScanner{name: name, v: v, br: bufio.NewReaderSize(r, 1<<20)}
}

// Lines is the number of run lines (not blank, not comments) read so far.
func (s *RunScanner) Lines() int64 { return s.nlines }

// Runid is the run id of the last line read (trec_eval prints the last
// line's).
func (s *RunScanner) Runid() string { return string(s.runid) }

// readLine returns the next physical line without its newline, or io.EOF.
func (s *RunScanner) readLine() ([]byte, error) {
	b, err := s.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		s.long = append(s.long[:0], b...)
		for err == bufio.ErrBufferFull {
			if len(s.long) > MaxLine {
				return nil, &FieldError{File: s.name, Line: s.line + 1, Field: "line", Msg: fmt.Sprintf("longer than %d bytes", MaxLine)}
			}
			b, err = s.br.ReadSlice('\n')
			s.long = append(s.long, b...)
		}
		if len(s.long) > MaxLine {
			return nil, &FieldError{File: s.name, Line: s.line + 1, Field: "line", Msg: fmt.Sprintf("longer than %d bytes", MaxLine)}
		}
		b = s.long
	}
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	if len(b) == 0 && err == io.EOF {
		return nil, io.EOF
	}
	s.line++
	s.lineOff = s.off
	s.off += int64(len(b))
	s.lineEnd = s.off
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return nil, &FieldError{File: s.name, Line: s.line, Field: "line", Msg: "NUL byte (trec_eval cannot read it)"}
	}
	return b, nil
}

var runFieldNames = [...]string{"1 (qid)", "2 (iteration)", "3 (docno)", "4 (rank)", "5 (score)", "6 (run id)"}

// nextData returns the fields of the next data line, or io.EOF.
func (s *RunScanner) nextData() ([][]byte, error) {
	for {
		line, err := s.readLine()
		if err != nil {
			return nil, err
		}
		i := 0
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			continue
		}
		if s.v == treceval.V10 && line[i] == '#' {
			continue
		}
		s.f = fields(s.f[:0], line, 6)
		if len(s.f) < 6 {
			return nil, &FieldError{File: s.name, Line: s.line, Field: runFieldNames[len(s.f)], Msg: "missing: a run line is 'qid iter docno rank score runid'"}
		}
		s.nlines++
		return s.f, nil
	}
}

// Next reads the next topic group. It returns the qid and the documents
// (valid until the next call), or io.EOF after the last group.
func (s *RunScanner) Next(ctx context.Context) (string, []treceval.Doc, error) {
	if s.done {
		return "", nil, io.EOF
	}
	s.arena, s.offs = s.arena[:0], s.offs[:0]
	s.qid = s.qid[:0]
	var f [][]byte
	var err error
	if s.havePending {
		f = fields(s.f[:0], s.pending, 6)
		s.havePending = false
		s.group.Off, s.group.FirstLine = s.pendingOff, s.pendingNo
	} else {
		f, err = s.nextData()
		if err == io.EOF {
			s.done = true
			return "", nil, io.EOF
		}
		if err != nil {
			return "", nil, err
		}
		s.group.Off, s.group.FirstLine = s.lineOff, s.line
	}
	s.qid = append(s.qid, f[0]...)
	for {
		s.add(f)
		s.group.End = s.lineEnd
		if s.nlines%ctxCheckLines == 0 {
			if err := ctx.Err(); err != nil {
				return "", nil, err
			}
		}
		f, err = s.nextData()
		if err == io.EOF {
			s.done = true
			break
		}
		if err != nil {
			return "", nil, err
		}
		if !bytes.Equal(f[0], s.qid) {
			s.pending = s.pending[:0]
			for i, x := range f {
				if i > 0 {
					s.pending = append(s.pending, ' ')
				}
				s.pending = append(s.pending, x...)
			}
			s.havePending = true
			s.pendingOff, s.pendingNo = s.lineOff, s.line
			break
		}
	}
	s.docs = s.docs[:0]
	for _, o := range s.offs {
		d := treceval.Doc{Score: o.score}
		if o.n > 0 {
			d.Docno = unsafe.String(&s.arena[o.off], o.n)
		}
		s.docs = append(s.docs, d)
	}
	return string(s.qid), s.docs, nil
}

// Block returns where the group returned by the last Next is in the
// input (its Qid is not set).
func (s *RunScanner) Block() RunBlock { return s.group }

// ResetBlock makes s read r, which holds a block of the run that starts
// at physical line firstLine, keeping its buffers.
func (s *RunScanner) ResetBlock(r io.Reader, firstLine int64) {
	s.br.Reset(r)
	s.line, s.off = firstLine-1, 0
	s.done, s.havePending = false, false
}

func (s *RunScanner) add(f [][]byte) {
	s.runid = append(s.runid[:0], f[5]...)
	if s.qidsOnly {
		return
	}
	sc := f[4]
	score := treceval.Atof(unsafe.String(&sc[0], len(sc)))
	s.offs = append(s.offs, span{off: len(s.arena), n: len(f[2]), score: score})
	s.arena = append(s.arena, f[2]...)
}

// ErrEmptyRun is returned for a run without any data line.
var ErrEmptyRun = errors.New("no results in run file")
