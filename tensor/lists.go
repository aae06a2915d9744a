package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Float is the set of element types a Lists can hold.
type Float interface {
	float32 | float64
}

// ErrShape is wrapped by every error about the shape of an input.
var ErrShape = errors.New("bad shape")

// Lists is a batch of ranked lists, dense or ragged, backed by float32 or
// float64 storage. The zero value is an empty dense batch.
//
// Row b of a dense batch is data[b*stride : b*stride+cols]. Row b of a
// ragged batch is values[splits[b]:splits[b+1]].
type Lists struct {
	f32    []float32
	f64    []float64
	rows   int
	cols   int   // dense: row length; ragged: longest row (the padded width)
	stride int   // dense only
	splits []int // ragged only, len rows+1
}

func store[T Float](data []T) (f32 []float32, f64 []float64) {
	switch d := any(data).(type) {
	case []float32:
		return d, nil
	case []float64:
		return nil, d
	}
	return nil, nil
}

// Dense views data as a row-major [rows, cols] batch without copying.
func Dense[T Float](data []T, rows, cols int) (Lists, error) {
	return DenseStride(data, rows, cols, cols)
}

// DenseStride views data as a [rows, cols] batch whose row b starts at
// data[b*stride], without copying. stride must be at least cols.
func DenseStride[T Float](data []T, rows, cols, stride int) (Lists, error) {
	if rows < 0 || cols < 0 {
		return Lists{}, fmt.Errorf("tensor: shape [%d, %d] has a negative dimension: %w", rows, cols, ErrShape)
	}
	if stride < cols {
		return Lists{}, fmt.Errorf("tensor: stride %d is less than the row length %d: %w", stride, cols, ErrShape)
	}
	need, ok := denseNeed(rows, cols, stride)
	if !ok {
		return Lists{}, fmt.Errorf("tensor: shape [%d, %d] with stride %d overflows an int: (rows-1)*stride+cols is over %d; check the rows, cols and stride arguments: %w",
			rows, cols, stride, math.MaxInt, ErrShape)
	}
	if len(data) < need {
		return Lists{}, fmt.Errorf("tensor: shape [%d, %d] with stride %d needs %d values, data has %d: %w",
			rows, cols, stride, need, len(data), ErrShape)
	}
	if rows == 1 || stride == 0 {
		stride = cols
	}
	l := Lists{rows: rows, cols: cols, stride: stride}
	l.f32, l.f64 = store(data[:need])
	return l, nil
}

// denseNeed returns (rows-1)*stride + cols, the number of values a dense
// view needs, and false when that overflows an int. rows, cols and stride
// are >= 0.
func denseNeed(rows, cols, stride int) (int, bool) {
	if rows == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(uint64(rows-1), uint64(stride))
	sum, carry := bits.Add64(lo, uint64(cols), 0)
	if hi != 0 || carry != 0 || sum > math.MaxInt {
		return 0, false
	}
	return int(sum), true
}

// DenseRows copies equal-length rows into a dense batch.
func DenseRows[T Float](rows [][]T) (Lists, error) {
	cols := 0
	if len(rows) > 0 {
		cols = len(rows[0])
	}
	data := make([]T, 0, len(rows)*cols)
	for b, r := range rows {
		if len(r) != cols {
			return Lists{}, fmt.Errorf("tensor: row %d has %d values, row 0 has %d; use RaggedRows for lists of different lengths: %w",
				b, len(r), cols, ErrShape)
		}
		data = append(data, r...)
	}
	return Dense(data, len(rows), cols)
}

// Ragged views values as a ragged batch whose row b is
// values[splits[b]:splits[b+1]], without copying, like
// tf.RaggedTensor.from_row_splits.
func Ragged[T Float](values []T, splits []int) (Lists, error) {
	if len(splits) == 0 {
		return Lists{}, fmt.Errorf("tensor: row splits are empty; a batch of B rows needs B+1 splits: %w", ErrShape)
	}
	if splits[0] != 0 {
		return Lists{}, fmt.Errorf("tensor: row splits[0] is %d, want 0: %w", splits[0], ErrShape)
	}
	width := 0
	for b := 1; b < len(splits); b++ {
		// Compare before subtracting: splits[b]-splits[b-1] of a hostile
		// negative split can overflow into a huge positive length.
		if splits[b] < splits[b-1] {
			return Lists{}, fmt.Errorf("tensor: row splits[%d] = %d is less than splits[%d] = %d: %w",
				b, splits[b], b-1, splits[b-1], ErrShape)
		}
		width = max(width, splits[b]-splits[b-1]) // both in [0, splits[b]]: no overflow
	}
	if last := splits[len(splits)-1]; last != len(values) {
		return Lists{}, fmt.Errorf("tensor: last row split is %d, but there are %d values: %w", last, len(values), ErrShape)
	}
	l := Lists{rows: len(splits) - 1, cols: width, splits: splits}
	l.f32, l.f64 = store(values)
	return l, nil
}

// RaggedRows copies rows of any lengths into a ragged batch.
func RaggedRows[T Float](rows [][]T) (Lists, error) {
	n := 0
	for _, r := range rows {
		n += len(r)
	}
	values := make([]T, 0, n)
	splits := make([]int, 1, len(rows)+1)
	for _, r := range rows {
		values = append(values, r...)
		splits = append(splits, len(values))
	}
	return Ragged(values, splits)
}

// Len returns the number of lists, B.
func (l Lists) Len() int { return l.rows }

// Width returns the row length of a dense batch, or the length of the
// longest row of a ragged batch (the width TF pads a ragged batch to).
func (l Lists) Width() int { return l.cols }

// IsRagged reports whether the batch is ragged.
func (l Lists) IsRagged() bool { return l.splits != nil }

// IsFloat32 reports whether the storage is float32 and not empty.
func (l Lists) IsFloat32() bool { return l.f32 != nil }

// IsFloat64 reports whether the storage is float64 and not empty.
func (l Lists) IsFloat64() bool { return l.f64 != nil }

// RowLen returns the length of row b: Width for a dense batch.
func (l Lists) RowLen(b int) int {
	if l.splits != nil {
		return l.splits[b+1] - l.splits[b]
	}
	return l.cols
}

// offset returns the index in storage of row b's first value.
func (l Lists) offset(b int) int {
	if l.splits != nil {
		return l.splits[b]
	}
	return b * l.stride
}

// At returns element i of row b as a float64. It panics when b or i is out
// of range, like a slice index.
func (l Lists) At(b, i int) float64 {
	if b < 0 || b >= l.rows || i < 0 || i >= l.RowLen(b) {
		panic(fmt.Sprintf("tensor: index [%d, %d] out of range for %s", b, i, l.Shape()))
	}
	if l.f64 != nil {
		return l.f64[l.offset(b)+i]
	}
	return float64(l.f32[l.offset(b)+i])
}

// Row32 returns row b as float32 values: a view of the storage when it is
// float32, otherwise the values rounded into dst (grown as needed).
func (l Lists) Row32(b int, dst []float32) []float32 {
	o, n := l.offset(b), l.RowLen(b)
	if l.f64 == nil {
		if l.f32 == nil {
			return dst[:0]
		}
		return l.f32[o : o+n]
	}
	dst = grow(dst, n)
	for i, v := range l.f64[o : o+n] {
		dst[i] = float32(v)
	}
	return dst
}

// Row64 returns row b as float64 values: a view of the storage when it is
// float64, otherwise the values widened into dst (grown as needed).
func (l Lists) Row64(b int, dst []float64) []float64 {
	o, n := l.offset(b), l.RowLen(b)
	if l.f64 != nil {
		return l.f64[o : o+n]
	}
	dst = grow(dst, n)
	if l.f32 == nil {
		return dst
	}
	// Four at a time, with the bounds checked once per four: the compiler
	// converts each with one instruction but checks dst[i] in a plain loop.
	src := l.f32[o : o+n]
	dst = dst[:len(src)]
	i := 0
	for ; i+4 <= len(src); i += 4 {
		s, d := src[i:i+4:i+4], dst[i:i+4:i+4]
		d[0], d[1], d[2], d[3] = float64(s[0]), float64(s[1]), float64(s[2]), float64(s[3])
	}
	for ; i < len(src); i++ {
		dst[i] = float64(src[i])
	}
	return dst
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

// Shape describes the batch for error messages: "[B, L]" for dense and
// "ragged [B, (lengths)]" for ragged, with L the padded width.
func (l Lists) Shape() string {
	if l.splits != nil {
		return fmt.Sprintf("ragged [%d, <=%d]", l.rows, l.cols)
	}
	return fmt.Sprintf("[%d, %d]", l.rows, l.cols)
}

// SameShape returns nil when o has the same number of rows, the same
// raggedness and the same row lengths as l, and otherwise an error that
// names the two arguments and the first difference.
func (l Lists) SameShape(o Lists, name, oname string) error {
	if l.rows != o.rows || l.IsRagged() != o.IsRagged() || (!l.IsRagged() && l.cols != o.cols) {
		return fmt.Errorf("tensor: %s has shape %s but %s has shape %s: %w", oname, o.Shape(), name, l.Shape(), ErrShape)
	}
	if l.IsRagged() {
		for b := range l.rows {
			if l.RowLen(b) != o.RowLen(b) {
				return fmt.Errorf("tensor: row %d of %s has %d values but row %d of %s has %d: %w",
					b, oname, o.RowLen(b), b, name, l.RowLen(b), ErrShape)
			}
		}
	}
	return nil
}
