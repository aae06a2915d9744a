package trecfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
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
	sc     *runio.TRECScanner
	topics []runio.TopicBlock
	rel0   int64
	buf    []byte
	judged []treceval.Judgment
}

// IndexQrels reads a qrels file once with Scan's index, checking every line as
// ParseQrels does, and records where each topic's lines are. It returns
// ErrScatteredQrels when a topic's lines are not consecutive.
func IndexQrels(ctx context.Context, r io.ReaderAt, name string, v treceval.Version) (*QrelsIndex, error) {
	x := &QrelsIndex{r: r, name: name, sc: runio.NewTRECScanner(nil, name, true, mode(v), lineOptions())}
	sc := NewScanner(io.NewSectionReader(r, 0, 1<<62), name, true, v)
	s, err := scanFile(ctx, sc, true)
	if err != nil {
		return nil, err
	}
	if s.layout == runio.TopicsScattered {
		return nil, ErrScatteredQrels
	}
	x.rel0 = s.rel0
	if sc.Line() == 0 {
		return nil, fmt.Errorf("%s: empty qrels file", name)
	}
	if len(s.blocks) == 0 {
		return nil, errors.New(name + ": no judgements in qrels file")
	}
	x.topics = s.blocks
	return x, nil
}

// NumTopics is the number of judged topics.
func (x *QrelsIndex) NumTopics() int { return len(x.topics) }

// Qid is the id of topic i (topics in increasing qid order).
func (x *QrelsIndex) Qid(i int) string { return x.topics[i].QID }

// Index returns the index of topic qid, or -1.
func (x *QrelsIndex) Index(qid string) int {
	i, ok := slices.BinarySearchFunc(x.topics, qid, func(b runio.TopicBlock, s string) int { return strings.Compare(b.QID, s) })
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
	n := int(t.End - t.Off)
	x.buf = slices.Grow(x.buf[:0], n)[:n]
	if _, err := x.r.ReadAt(x.buf, t.Off); err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", x.name, err)
	}
	x.judged = x.judged[:0]
	x.sc.ResetBytes(x.buf, t.FirstLine)
	for {
		f, err := x.sc.Next()
		if err == io.EOF {
			return x.judged, nil
		}
		if err != nil {
			return nil, err
		}
		x.judged = append(x.judged, treceval.Judgment{Docno: unsafeString(f[2]), Rel: treceval.Atol(unsafeString(f[3]))})
	}
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
