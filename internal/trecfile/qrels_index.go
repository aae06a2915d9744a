package trecfile

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// ErrScatteredQrels reports a qrels file in which some topic's lines are
// not consecutive: it cannot be indexed by byte ranges.
var ErrScatteredQrels = errors.New("qrels topics are not in blocks")

// QrelsIndex is a qrels file whose topics are each in one block of lines,
// indexed by byte range: a topic's judgements are read from the file when
// they are needed, so memory does not grow with the file.
type QrelsIndex struct {
	r      io.ReaderAt
	name   string
	v      treceval.Version
	topics []block
	rel0   int64
	buf    []byte
	judged []treceval.Judgment
	f      [][]byte
}

// block is one topic's byte range and first line number.
type block struct {
	qid       string
	off, end  int64
	firstLine int64
}

// IndexQrels reads a qrels file once, checking every line as ParseQrels
// does, and records where each topic's lines are. It returns
// ErrScatteredQrels when a topic's lines are not consecutive.
func IndexQrels(ctx context.Context, r io.ReaderAt, name string, v treceval.Version) (*QrelsIndex, error) {
	br := bufio.NewReaderSize(io.NewSectionReader(r, 0, 1<<62), 1<<20)
	x := &QrelsIndex{r: r, name: name, v: v}
	var off, lineNo int64
	var long []byte
	cur := -1
	for {
		b, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], b...)
			for err == bufio.ErrBufferFull && len(long) <= MaxLine {
				b, err = br.ReadSlice('\n')
				long = append(long, b...)
			}
			if len(long) > MaxLine {
				return nil, &FieldError{File: name, Line: lineNo + 1, Field: "line", Msg: fmt.Sprintf("longer than %d bytes", MaxLine)}
			}
			b = long
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(b) == 0 {
			break
		}
		lineNo++
		if lineNo%ctxCheckLines == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		start := off
		off += int64(len(b))
		line := bytes.TrimSuffix(b, []byte{'\n'})
		if bytes.IndexByte(line, 0) >= 0 {
			return nil, &FieldError{File: name, Line: lineNo, Field: "line", Msg: "NUL byte (trec_eval cannot read it)"}
		}
		f, skip, ferr := qrelsFields(x.f[:0], line, v, name, lineNo)
		x.f = f
		if ferr != nil {
			return nil, ferr
		}
		if skip {
			continue
		}
		if treceval.Atol(unsafeString(f[3])) > 0 {
			x.rel0++
		}
		if cur < 0 || x.topics[cur].qid != unsafeString(f[0]) {
			x.topics = append(x.topics, block{qid: string(f[0]), off: start, firstLine: lineNo})
			cur = len(x.topics) - 1
		}
		x.topics[cur].end = off
		if err == io.EOF {
			break
		}
	}
	if lineNo == 0 {
		return nil, fmt.Errorf("%s: empty qrels file", name)
	}
	if len(x.topics) == 0 {
		return nil, errors.New(name + ": no judgements in qrels file")
	}
	slices.SortFunc(x.topics, func(a, b block) int { return strings.Compare(a.qid, b.qid) })
	for i := 1; i < len(x.topics); i++ {
		if x.topics[i].qid == x.topics[i-1].qid {
			return nil, ErrScatteredQrels
		}
	}
	return x, nil
}

// NumTopics is the number of judged topics.
func (x *QrelsIndex) NumTopics() int { return len(x.topics) }

// Qid is the id of topic i (topics in increasing qid order).
func (x *QrelsIndex) Qid(i int) string { return x.topics[i].qid }

// Index returns the index of topic qid, or -1.
func (x *QrelsIndex) Index(qid string) int {
	i, ok := slices.BinarySearchFunc(x.topics, qid, func(b block, s string) int { return strings.Compare(b.qid, s) })
	if !ok {
		return -1
	}
	return i
}

// RelAbove0 counts the judgements above 0 (trec_eval's num_rel with -c).
func (x *QrelsIndex) RelAbove0() int64 { return x.rel0 }

// Judged reads topic i's judgements, in file order. They are valid
// until the next call.
func (x *QrelsIndex) Judged(i int) ([]treceval.Judgment, error) {
	t := &x.topics[i]
	n := int(t.end - t.off)
	x.buf = slices.Grow(x.buf[:0], n)[:n]
	if _, err := x.r.ReadAt(x.buf, t.off); err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", x.name, err)
	}
	x.judged = x.judged[:0]
	data := x.buf
	lineNo := t.firstLine - 1
	for len(data) > 0 {
		lineNo++
		var line []byte
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			line, data = data[:j], data[j+1:]
		} else {
			line, data = data, nil
		}
		f, skip, err := qrelsFields(x.f[:0], line, x.v, x.name, lineNo)
		x.f = f
		if err != nil {
			return nil, err
		}
		if skip {
			continue
		}
		x.judged = append(x.judged, treceval.Judgment{Docno: unsafeString(f[2]), Rel: treceval.Atol(unsafeString(f[3]))})
	}
	return x.judged, nil
}

// NumTopics is the number of judged topics.
func (q *Qrels) NumTopics() int { return len(q.Topics) }

// Qid is the id of topic i.
func (q *Qrels) Qid(i int) string { return q.Topics[i].Qid }

// Index returns the index of topic qid, or -1.
func (q *Qrels) Index(qid string) int {
	i, ok := slices.BinarySearchFunc(q.Topics, qid, func(t QrelsTopic, s string) int { return strings.Compare(t.Qid, s) })
	if !ok {
		return -1
	}
	return i
}

// Judged returns topic i's judgements.
func (q *Qrels) Judged(i int) ([]treceval.Judgment, error) { return q.Topics[i].Judged, nil }

// Judgements is a qrels file, in memory or indexed.
type Judgements interface {
	NumTopics() int
	Qid(i int) string
	Index(qid string) int
	Judged(i int) ([]treceval.Judgment, error)
	RelAbove0() int64
}
