package tensor

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	gt "gorgonia.org/tensor"
)

func rowsOf(l Lists) [][]float64 {
	out := make([][]float64, l.Len())
	for b := range out {
		out[b] = make([]float64, l.RowLen(b))
		for i := range out[b] {
			out[b][i] = l.At(b, i)
		}
	}
	return out
}

func equalRows(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				return false
			}
		}
	}
	return true
}

func TestConstructors(t *testing.T) {
	want := [][]float64{{1, 2, 3}, {4, 5, 6}}
	for _, tc := range []struct {
		name   string
		make   func() (Lists, error)
		ragged bool
		f32    bool
		want   [][]float64
	}{
		{"Dense float32", func() (Lists, error) { return Dense([]float32{1, 2, 3, 4, 5, 6}, 2, 3) }, false, true, want},
		{"Dense float64", func() (Lists, error) { return Dense([]float64{1, 2, 3, 4, 5, 6}, 2, 3) }, false, false, want},
		{"DenseStride", func() (Lists, error) { return DenseStride([]float64{1, 2, 3, 9, 4, 5, 6}, 2, 3, 4) }, false, false, want},
		{"DenseRows", func() (Lists, error) { return DenseRows([][]float32{{1, 2, 3}, {4, 5, 6}}) }, false, true, want},
		{"Ragged", func() (Lists, error) { return Ragged([]float64{1, 2, 3, 4}, []int{0, 1, 1, 4}) }, true, false, [][]float64{{1}, {}, {2, 3, 4}}},
		{"RaggedRows", func() (Lists, error) { return RaggedRows([][]float32{{1}, {}, {2, 3, 4}}) }, true, true, [][]float64{{1}, {}, {2, 3, 4}}},
		{"FromGonum", func() (Lists, error) {
			m := mat.NewDense(3, 4, []float64{1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0})
			return FromGonum(m.Slice(0, 2, 0, 3).(*mat.Dense))
		}, false, false, want},
		{"FromGorgonia float32", func() (Lists, error) {
			return FromGorgonia(gt.New(gt.WithShape(2, 3), gt.WithBacking([]float32{1, 2, 3, 4, 5, 6})))
		}, false, true, want},
		{"FromGorgonia float64 column", func() (Lists, error) {
			return FromGorgonia(gt.New(gt.WithShape(2), gt.WithBacking([]float64{1, 4})))
		}, false, false, [][]float64{{1}, {4}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := tc.make()
			if err != nil {
				t.Fatal(err)
			}
			if got := rowsOf(l); !equalRows(got, tc.want) {
				t.Fatalf("rows %v, want %v", got, tc.want)
			}
			if l.IsRagged() != tc.ragged || l.IsFloat32() != tc.f32 || l.IsFloat64() == tc.f32 {
				t.Fatalf("ragged %v float32 %v float64 %v", l.IsRagged(), l.IsFloat32(), l.IsFloat64())
			}
			wantWidth := 0
			for _, r := range tc.want {
				wantWidth = max(wantWidth, len(r))
			}
			if l.Width() != wantWidth || l.Len() != len(tc.want) {
				t.Fatalf("shape %s, want %d rows of width %d", l.Shape(), len(tc.want), wantWidth)
			}
		})
	}
}

// TestZeroCopy checks that the views see the caller's data.
func TestZeroCopy(t *testing.T) {
	data := []float32{1, 2, 3, 4}
	l, _ := Dense(data, 2, 2)
	data[3] = 40
	if l.At(1, 1) != 40 {
		t.Fatal("Dense copied its data")
	}
	g := gt.New(gt.WithShape(2, 2), gt.WithBacking([]float64{1, 2, 3, 4}))
	gl, _ := FromGorgonia(g)
	g.Float64s()[0] = 10
	if gl.At(0, 0) != 10 {
		t.Fatal("FromGorgonia copied its data")
	}
	m := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	ml, _ := FromGonum(m)
	m.Set(1, 0, 30)
	if ml.At(1, 0) != 30 {
		t.Fatal("FromGonum copied its data")
	}
	if row := ml.Row64(1, nil); &row[0] != &m.RawMatrix().Data[2] {
		t.Fatal("Row64 of float64 storage is not a view")
	}
	if row := l.Row64(1, nil); row[1] != 40 {
		t.Fatalf("Row64 of float32 storage: %v", row)
	}
}

func TestConstructorErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  func() error
		text string
	}{
		{"short data", func() error { _, err := Dense([]float32{1, 2, 3}, 2, 2); return err }, "shape [2, 2] with stride 2 needs 4 values, data has 3"},
		{"negative", func() error { _, err := Dense([]float32{}, -1, 2); return err }, "negative dimension"},
		{"stride", func() error { _, err := DenseStride([]float32{1, 2}, 1, 2, 1); return err }, "stride 1 is less than the row length 2"},
		{"unequal rows", func() error { _, err := DenseRows([][]float64{{1, 2}, {3}}); return err }, "row 1 has 1 values, row 0 has 2"},
		{"empty splits", func() error { _, err := Ragged([]float64{1}, nil); return err }, "row splits are empty"},
		{"first split", func() error { _, err := Ragged([]float64{1}, []int{1, 1}); return err }, "splits[0] is 1, want 0"},
		{"decreasing split", func() error { _, err := Ragged([]float64{1, 2}, []int{0, 2, 1, 2}); return err }, "splits[2] = 1 is less than splits[1] = 2"},
		// (rows-1)*stride+cols = 2^62+2^62 overflows to -2^63: it used to pass
		// the size check and panic slicing data.
		{"overflow to negative", func() error { _, err := Dense(make([]float32, 16), 2, 1<<62); return err },
			"shape [2, 4611686018427387904] with stride 4611686018427387904 overflows an int: (rows-1)*stride+cols is over 9223372036854775807; check the rows, cols and stride arguments"},
		// (2^40-1)*2^24+2^24 = 2^64 wraps to 0: it used to be accepted, and
		// Update then allocated 4 TB.
		{"overflow to zero", func() error { _, err := Dense(make([]float64, 16), 1<<40, 1<<24); return err }, "shape [1099511627776, 16777216] with stride 16777216 overflows an int"},
		{"stride overflow", func() error { _, err := DenseStride(make([]float32, 16), 3, 1, 1<<62); return err }, "shape [3, 1] with stride 4611686018427387904 overflows an int"},
		{"fits exactly", func() error { _, err := DenseStride(make([]float32, 3), 2, 1, 1<<62); return err }, "needs 4611686018427387905 values, data has 3"},
		// MinInt-1 wraps to MaxInt: the split check used to subtract first
		// and take the row for MaxInt values long.
		{"wrapping split", func() error { _, err := Ragged([]float64{}, []int{0, math.MaxInt, -2, 0}); return err }, "splits[2] = -2 is less than splits[1] = 9223372036854775807"},
		{"last split", func() error { _, err := Ragged([]float64{1, 2}, []int{0, 1}); return err }, "last row split is 1, but there are 2 values"},
		{"gorgonia dtype", func() error {
			_, err := FromGorgonia(gt.New(gt.WithShape(2, 2), gt.WithBacking([]int{1, 2, 3, 4})))
			return err
		}, "dtype int"},
		{"gorgonia rank", func() error {
			_, err := FromGorgonia(gt.New(gt.WithShape(1, 2, 2), gt.WithBacking([]float32{1, 2, 3, 4})))
			return err
		}, "shape (1, 2, 2), want [B, L]"},
		{"gorgonia nil", func() error { _, err := FromGorgonia(nil); return err }, "nil"},
		{"per-list column", func() error { l, _ := Dense([]float32{1, 2}, 1, 2); _, err := PerListColumn(l); return err }, "per-list weights must have shape [B, 1], got [1, 2]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("error %v, want ErrShape containing %q", err, tc.text)
			}
		})
	}
}

func TestWeights(t *testing.T) {
	labels, _ := RaggedRows([][]float64{{1, 0}, {1}})
	if err := (Weights{}).Check(labels); err != nil || (Weights{}).Kind() != NoWeights {
		t.Fatal(err)
	}
	w, _ := RaggedRows([][]float64{{1, 2}, {3}})
	if err := PerItem(w).Check(labels); err != nil {
		t.Fatal(err)
	}
	bad, _ := RaggedRows([][]float64{{1}, {2, 3}})
	if err := PerItem(bad).Check(labels); err == nil || !strings.Contains(err.Error(), "row 0 of weights has 1 values but row 0 of labels has 2") {
		t.Fatalf("ragged weight mismatch: %v", err)
	}
	pl := PerList([]float32{2, 3})
	if pl.Kind() != ListWeights || pl.Values().At(1, 0) != 3 || pl.Check(labels) != nil {
		t.Fatalf("PerList: %v %v", pl.Kind(), pl.Values().Shape())
	}
	col, _ := Dense([]float64{2, 3}, 2, 1)
	if w, err := PerListColumn(col); err != nil || w.Kind() != ListWeights {
		t.Fatal(err)
	}
	if s := ItemWeights.String() + NoWeights.String() + ListWeights.String(); s != "per-itemnoneper-list" {
		t.Fatal(s)
	}
}

// FuzzShapes checks that DenseStride and Ragged never panic, and that every
// view they accept can read its last value of every row.
func FuzzShapes(f *testing.F) {
	f.Add(2, 3, 3, 6, 0, 1, 4)
	f.Add(2, 1<<62, 1<<62, 16, math.MaxInt, -2, 0)
	f.Add(1<<40, 1<<24, 1<<24, 16, 1, 1, 1)
	f.Fuzz(func(t *testing.T, rows, cols, stride, n, s1, s2, s3 int) {
		n &= 1<<12 - 1
		data := make([]float32, n)
		if l, err := DenseStride(data, rows, cols, stride); err == nil && cols > 0 {
			// With cols > 0 an accepted view has rows <= n+1; [B, 0] views
			// take any B.
			for b := range l.Len() {
				if l.RowLen(b) > 0 {
					_ = l.At(b, l.RowLen(b)-1)
				}
			}
		}
		if l, err := Ragged(data, []int{0, s1, s2, s3}); err == nil {
			for b := range l.Len() {
				if l.RowLen(b) > l.Width() || l.RowLen(b) > n {
					t.Fatalf("row %d has %d values, width %d, data %d", b, l.RowLen(b), l.Width(), n)
				}
				if l.RowLen(b) > 0 {
					_ = l.At(b, l.RowLen(b)-1)
				}
			}
		}
	})
}

// TestRow64WidensEveryLength checks Row64 of float32 storage, which widens
// four values at a time, against float64 conversions one by one, on ragged
// rows of every length from 0 to 13 (each tail of the four-value steps),
// into a dst too short, exact and too long.
func TestRow64WidensEveryLength(t *testing.T) {
	var values []float32
	splits := []int{0}
	for n := range 14 {
		for i := range n {
			values = append(values, float32(n)+float32(i)/16)
		}
		splits = append(splits, len(values))
	}
	l, err := Ragged(values, splits)
	if err != nil {
		t.Fatal(err)
	}
	for b := range 14 {
		for _, dst := range [][]float64{nil, make([]float64, b), make([]float64, b+5)} {
			row := l.Row64(b, dst)
			if len(row) != b {
				t.Fatalf("row %d: length %d", b, len(row))
			}
			for i, v := range values[splits[b]:splits[b+1]] {
				if row[i] != float64(v) {
					t.Fatalf("row %d item %d: %v, want %v", b, i, row[i], float64(v))
				}
			}
		}
	}
}
