package runio

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
)

// RKM1Magic starts an RKM1 file: the magic, then little-endian u32 Q and
// u32 L, then Q*L int8 labels, then Q*L float32 scores, list by list.
const RKM1Magic = "RKM1"

// rkm1Reader streams an RKM1 file with two cursors, one over the labels and
// one over the scores.
type rkm1Reader struct {
	ctx    context.Context
	name   string
	q, l   int
	next_  int
	labels *bufio.Reader
	scores *bufio.Reader
	lbuf   []byte
	sbuf   []byte
	stats  Stats
	closer io.Closer
}

// NewRKM1Reader returns a Reader over an RKM1 file. Queries get the ids
// "1".."Q" and no weights.
func NewRKM1Reader(ctx context.Context, r io.ReaderAt, size int64, name string) (Reader, error) {
	var hdr [12]byte
	if _, err := r.ReadAt(hdr[:], 0); err != nil {
		return nil, &ParseError{File: name, Msg: "cannot read the RKM1 header", Err: err}
	}
	if string(hdr[:4]) != RKM1Magic {
		return nil, &ParseError{File: name, Field: "magic", Value: string(hdr[:4]), Msg: "not an RKM1 file"}
	}
	q := uint64(binary.LittleEndian.Uint32(hdr[4:]))
	l := uint64(binary.LittleEndian.Uint32(hdr[8:]))
	if q > 0 && l == 0 {
		return nil, &ParseError{File: name, Field: "L", Value: "0", Msg: fmt.Sprintf("Q=%d lists of no items (a list needs at least one item)", q)}
	}
	// Check the header against the file size before allocating anything.
	// Q*L < 2^64 since both are below 2^32, and 5*Q*L cannot overflow once
	// Q*L fits in the size.
	if n := q * l; size < 12 || n > uint64(size-12)/5 || 12+5*n != uint64(size) {
		want := new(big.Int).Mul(new(big.Int).SetUint64(q), new(big.Int).SetUint64(l))
		want.Mul(want, big.NewInt(5)).Add(want, big.NewInt(12))
		return nil, &ParseError{File: name, Field: "size", Value: strconv.FormatInt(size, 10),
			Msg: fmt.Sprintf("an RKM1 file with Q=%d L=%d has %s bytes", q, l, want)}
	}
	n := int64(q * l)
	t := &rkm1Reader{ctx: ctx, name: name, q: int(q), l: int(l),
		labels: bufio.NewReaderSize(io.NewSectionReader(r, 12, n), 1<<16),
		scores: bufio.NewReaderSize(io.NewSectionReader(r, 12+n, 4*n), 1<<18)}
	if q > 0 {
		// Bounded by the file size, checked above.
		t.lbuf, t.sbuf = make([]byte, l), make([]byte, 4*l)
	}
	if c, ok := r.(io.Closer); ok {
		t.closer = c
	}
	return t, nil
}

func (t *rkm1Reader) HasWeights() bool { return false }
func (t *rkm1Reader) Stats() Stats     { return t.stats }
func (t *rkm1Reader) Close() error {
	if t.closer != nil {
		return t.closer.Close()
	}
	return nil
}

func (t *rkm1Reader) Next(q *Query) error {
	if t.next_ >= t.q {
		return io.EOF
	}
	if err := t.ctx.Err(); err != nil {
		return err
	}
	if _, err := io.ReadFull(t.labels, t.lbuf); err != nil {
		return &ParseError{File: t.name, Line: int64(t.next_ + 1), Field: "labels", Msg: "short read", Err: err}
	}
	if _, err := io.ReadFull(t.scores, t.sbuf); err != nil {
		return &ParseError{File: t.name, Line: int64(t.next_ + 1), Field: "scores", Msg: "short read", Err: err}
	}
	q.reset(false, false)
	t.next_++
	q.QID = strconv.Itoa(t.next_)
	q.Line = int64(t.next_)
	for i := 0; i < t.l; i++ {
		s := math.Float32frombits(binary.LittleEndian.Uint32(t.sbuf[4*i:]))
		if s != s {
			return &ParseError{File: t.name, Line: int64(t.next_), Field: fmt.Sprintf("scores[%d]", i), Value: "NaN", Msg: "NaN score"}
		}
		q.Labels = append(q.Labels, float64(int8(t.lbuf[i])))
		q.Scores = append(q.Scores, float64(s))
	}
	t.stats.Rows += int64(t.l)
	t.stats.Queries++
	t.stats.Items += int64(t.l)
	return nil
}

// WriteRKM1Header writes the RKM1 header for q lists of l items.
func WriteRKM1Header(w io.Writer, q, l int) error {
	if q < 0 || l < 0 || q > math.MaxUint32 || l > math.MaxUint32 {
		return fmt.Errorf("RKM1 header: Q=%d L=%d out of range", q, l)
	}
	var hdr [12]byte
	copy(hdr[:], RKM1Magic)
	binary.LittleEndian.PutUint32(hdr[4:], uint32(q))
	binary.LittleEndian.PutUint32(hdr[8:], uint32(l))
	_, err := w.Write(hdr[:])
	return err
}
