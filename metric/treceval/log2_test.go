package treceval

import (
	"math"
	"math/big"
	"testing"
)

// refLog2 computes log2(n) bit by bit in 400-bit arithmetic (square m in
// [1, 2); a square of 2 or more gives a 1 bit), 80 bits after the point,
// and rounds the binary expansion to the nearest float64 once.
func refLog2(n int64) float64 {
	const prec = 400
	e := 0
	for int64(1)<<(e+1) <= n {
		e++
	}
	m := new(big.Float).SetPrec(prec).SetInt64(n)
	m.SetMantExp(m, -e) // n / 2^e in [1, 2)
	two := new(big.Float).SetPrec(prec).SetInt64(2)
	r := new(big.Float).SetPrec(prec).SetInt64(int64(e))
	bit := new(big.Float).SetPrec(prec).SetFloat64(1)
	for range 80 {
		m.Mul(m, m)
		bit.SetMantExp(bit, -1)
		if m.Cmp(two) >= 0 {
			m.Quo(m, two)
			r.Add(r, bit)
		}
	}
	f, _ := r.Float64()
	return f
}

// TestLog2Int: correctly rounded for every integer to 20000 and some
// larger ones, checked against an independent 400-bit computation; Go's
// math.Log2 is not (3 is the first it misses).
func TestLog2Int(t *testing.T) {
	missed := 0
	check := func(n int64) {
		want := refLog2(n)
		if got := log2Int(n); got != want {
			t.Errorf("log2Int(%d) = %v, want %v", n, got, want)
		}
		if math.Log2(float64(n)) != want {
			missed++
		}
	}
	for n := int64(1); n <= 20000; n++ {
		check(n)
	}
	for _, n := range []int64{1 << 20, 1<<20 + 1, 999983, 1<<31 - 1, 1 << 40, 1<<53 - 1} {
		check(n)
	}
	if refLog2(3) == math.Log2(3) {
		t.Error("math.Log2(3) is correctly rounded: the reference is wrong")
	}
	t.Logf("math.Log2 misses %d of them", missed)
}

func BenchmarkLog2Int(b *testing.B) {
	for i := range b.N {
		log2Int(int64(i%1000 + 2))
	}
}
