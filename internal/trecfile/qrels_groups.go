package trecfile

import (
	"context"
	"io"
	"slices"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// QrelsScanner reads a qrels file as a sequence of topic groups: maximal
// runs of consecutive lines with the same qid, in file order, each line
// read and parsed once (IndexQrels reads a file twice: its index, then
// each topic's block). It is the qrels side of a read of both files side
// by side in one pass. Lines are read as IndexQrels and ParseQrels read
// them: a blank line or a wrong number of fields is an error, and in 10.0
// a line that starts with '#' is a comment.
type QrelsScanner struct {
	sc     *runio.TRECScanner
	qid    []byte
	docnos groupArena
	judged []treceval.Judgment
	done   bool
	nlines int64
	rel0   int64
}

// NewQrelsScanner returns a scanner of r, a qrels file named name in
// errors, read under trec_eval version v's rules.
func NewQrelsScanner(r io.Reader, name string, v treceval.Version) *QrelsScanner {
	return &QrelsScanner{sc: NewScanner(r, name, true, v)}
}

// Lines is the number of judgement lines read so far.
func (s *QrelsScanner) Lines() int64 { return s.nlines }

// RelAbove0 counts the judgements above 0 read so far (trec_eval's
// num_rel with -c, once the file is read).
func (s *QrelsScanner) RelAbove0() int64 { return s.rel0 }

// Next reads the next topic group. It returns the qid and the judgements
// in file order (valid until the next call), or io.EOF after the last
// group.
func (s *QrelsScanner) Next(ctx context.Context) (string, []treceval.Judgment, error) {
	if s.done {
		return "", nil, io.EOF
	}
	s.docnos.reset()
	s.judged = s.judged[:0]
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
		s.nlines++
		rel := treceval.Atol(unsafeString(f[3]))
		if rel > 0 {
			s.rel0++
		}
		if len(s.judged) == cap(s.judged) {
			s.judged = slices.Grow(s.judged, max(len(s.judged), 1024))
		}
		s.judged = append(s.judged, treceval.Judgment{Docno: s.docnos.add(f[2]), Rel: rel})
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
	return string(s.qid), s.judged, nil
}
