package crlog

import (
	"math"
	"math/big"
	"testing"
)

const refPrec = 400

// refLog2 computes log2(n) bit by bit in 400-bit arithmetic (square m in
// [1, 2); a square of 2 or more gives a 1 bit), 90 bits after the point:
// a computation independent of the series Ln and Log2 sum.
func refLog2(n int64) *big.Float {
	e := 0
	for int64(1)<<(e+1) <= n {
		e++
	}
	m := new(big.Float).SetPrec(refPrec).SetInt64(n)
	m.SetMantExp(m, -e) // n / 2^e in [1, 2)
	two := new(big.Float).SetPrec(refPrec).SetInt64(2)
	r := new(big.Float).SetPrec(refPrec).SetInt64(int64(e))
	bit := new(big.Float).SetPrec(refPrec).SetFloat64(1)
	for range 90 {
		m.Mul(m, m)
		bit.SetMantExp(bit, -1)
		if m.Cmp(two) >= 0 {
			m.Quo(m, two)
			r.Add(r, bit)
		}
	}
	return r
}

// refLn2 is ln 2 to 400 bits: the sum of 1/(k 2^k).
func refLn2() *big.Float {
	s := new(big.Float).SetPrec(refPrec)
	for k := int64(1); k < refPrec+10; k++ {
		t := new(big.Float).SetPrec(refPrec).SetInt64(k)
		t.SetMantExp(t, int(k))
		s.Add(s, new(big.Float).SetPrec(refPrec).Quo(big.NewFloat(1).SetPrec(refPrec), t))
	}
	return s
}

func rounded(x *big.Float) float64 {
	f, _ := x.Float64()
	return f
}

// TestLogs checks Ln and Log2 against the independent 400-bit computation
// for every integer to 20,000 and at larger ones, and counts where Go's
// math.Log and math.Log2 miss the correctly rounded value.
func TestLogs(t *testing.T) {
	ln2 := refLn2()
	missLn, missLog2 := 0, 0
	check := func(n int64) {
		l2 := refLog2(n)
		want2 := rounded(l2)
		want := rounded(new(big.Float).SetPrec(refPrec).Mul(l2, ln2))
		if got := Log2(n); got != want2 {
			t.Errorf("Log2(%d) = %x, want %x", n, got, want2)
		}
		if got := Ln(n); got != want {
			t.Errorf("Ln(%d) = %x, want %x", n, got, want)
		}
		if math.Log2(float64(n)) != want2 {
			missLog2++
		}
		if math.Log(float64(n)) != want {
			missLn++
		}
	}
	for n := int64(1); n <= 20000; n++ {
		check(n)
	}
	for _, n := range []int64{1 << 20, 1<<20 + 1, 999983, 1<<31 - 1, 1 << 40, 1<<53 - 1, 1 << 53} {
		check(n)
	}
	if missLn == 0 || missLog2 == 0 {
		t.Errorf("math.Log misses %d, math.Log2 %d: the reference cannot tell them apart", missLn, missLog2)
	}
	t.Logf("of the integers checked, math.Log misses %d, math.Log2 %d", missLn, missLog2)
}

// TestGlibc checks Ln at integers where Go's math.Log differs from glibc's
// log, against glibc's values as Python's math.log printed them.
func TestGlibc(t *testing.T) {
	for n, hex := range map[int64]float64{
		2:    0x1.62e42fefa39efp-1,
		3:    0x1.193ea7aad030bp+0,
		14:   0x1.51cca16d7bba7p+1,
		48:   0x1.ef8383c50bb75p+1,
		74:   0x1.1375cd6fcab1dp+2,
		176:  0x1.4ae935b3cb89dp+2,
		196:  0x1.51cca16d7bba7p+2,
		1000: 0x1.ba18a998fffa0p+2,
		1001: 0x1.ba2909ce4f864p+2,
		1002: 0x1.ba3965d405f5fp+2,
	} {
		if got := Ln(n); got != hex {
			t.Errorf("Ln(%d) = %x, glibc %x", n, got, hex)
		}
	}
}

// TestOutOfRange: outside [1, 2^53] the functions fall back to math's.
func TestOutOfRange(t *testing.T) {
	for _, n := range []int64{0, -1, 1<<53 + 2, math.MaxInt64} {
		if got, want := Ln(n), math.Log(float64(n)); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("Ln(%d) = %v, want math.Log's %v", n, got, want)
		}
		if got, want := Log2(n), math.Log2(float64(n)); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("Log2(%d) = %v, want math.Log2's %v", n, got, want)
		}
	}
}

func BenchmarkLn(b *testing.B) {
	for i := range b.N {
		Ln(int64(i%1000 + 2))
	}
}

func BenchmarkLog2(b *testing.B) {
	for i := range b.N {
		Log2(int64(i%1000 + 2))
	}
}
