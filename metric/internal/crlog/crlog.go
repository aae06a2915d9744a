// Package crlog computes logarithms of integers correctly rounded to
// float64, as the C library's log and log2 give them where they are
// correctly rounded (glibc's are, for the integers the references divide
// by): Go's math.Log and math.Log2 are within an ulp of the exact value
// but not always on the nearest float64 (ln 3 and log2 3 among others).
//
// trec_eval's nDCG divides by glibc's log2 of the rank, cwl_eval and
// ndeval by Python's (glibc's) log, keras-rs' float64 discount by XLA's
// call of the C library's log: rankmetrics reproduces each with Ln or Log2.
//
// Both sum ln(m) = 2 atanh((m-1)/(m+1)) for n = m 2^e, m in [1/sqrt 2,
// sqrt 2), in double-double arithmetic (about 100 bits), and round once.
// They allocate nothing, so the engines may call them per rank; the tests
// check them against a separate 400-bit computation for every integer to
// 20,000 and at larger ones.
package crlog

import "math"

// Ln returns the natural logarithm of n, correctly rounded, for 1 <= n <=
// 2^53; outside that range it returns math.Log(float64(n)).
func Ln(n int64) float64 {
	r, ok := lnDD(n)
	if !ok {
		return math.Log(float64(n))
	}
	return r.hi + r.lo
}

// Log2 returns the base-2 logarithm of n, correctly rounded, for 1 <= n <=
// 2^53; outside that range it returns math.Log2(float64(n)).
func Log2(n int64) float64 {
	if n < 1 || n > 1<<53 {
		return math.Log2(float64(n))
	}
	frac, exp := math.Frexp(float64(n))
	if frac == 0.5 {
		return float64(exp - 1) // a power of two: exact
	}
	m, e := reduce(frac, exp)
	l2 := ddMul(lnMantissa(m), log2e)
	r := ddAdd(l2, dd{float64(e), 0})
	return r.hi + r.lo
}

// lnDD returns ln n as a double-double, for 1 <= n <= 2^53.
func lnDD(n int64) (dd, bool) {
	if n < 1 || n > 1<<53 {
		return dd{}, false
	}
	if n == 1 {
		return dd{}, true
	}
	frac, exp := math.Frexp(float64(n))
	m, e := reduce(frac, exp)
	return ddAdd(lnMantissa(m), ddMul(dd{float64(e), 0}, ln2)), true
}

// reduce writes frac 2^exp (frac in [1/2, 1)) as m 2^e with m in
// [1/sqrt 2, sqrt 2].
func reduce(frac float64, exp int) (m float64, e int) {
	m, e = 2*frac, exp-1
	if m > math.Sqrt2 {
		m, e = frac, exp
	}
	return m, e
}

// lnMantissa returns ln m for m in [1/sqrt 2, sqrt 2] as a double-double:
// 2 s atanh(s)/s with s = (m-1)/(m+1), |s| <= 0.172.
func lnMantissa(m float64) dd {
	// m-1 is exact (m is within a factor 2 of 1); m+1 held as a
	// double-double.
	s := ddDiv(dd{m - 1, 0}, ddFromSum(m, 1))
	s2 := ddMul(s, s)
	// atanh(s)/s = sum s^(2k)/(2k+1), by Horner from k = 24 (s^2 <=
	// 0.0295, so the terms left out are below 2^-120).
	t := invOdd[24]
	for k := 23; k >= 0; k-- {
		t = ddAdd(ddMul(t, s2), invOdd[k])
	}
	return ddMul(ddMul(s, t), dd{2, 0})
}

var (
	// ln2 and log2e are ln 2 and log2(e) as double-doubles (hi the
	// float64 nearest, lo the nearest to the rest).
	ln2   = dd{0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56}
	log2e = dd{0x1.71547652b82fep+0, 0x1.777d0ffda0d24p-56}
	// invOdd holds 1/(2k+1) as double-doubles, k = 0 to 24; never
	// changed after it is built.
	invOdd = func() (t [25]dd) {
		for k := range t {
			t[k] = ddDiv(dd{1, 0}, dd{float64(2*k + 1), 0})
		}
		return t
	}()
)

// dd is a double-double: the unevaluated sum hi + lo, |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

// ddFromSum returns a + b exactly.
func ddFromSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

// ddNorm returns hi + lo with |lo| <= ulp(hi)/2, for |hi| >= |lo|.
func ddNorm(hi, lo float64) dd {
	s := hi + lo
	return dd{s, lo - (s - hi)}
}

func ddAdd(a, b dd) dd {
	s := ddFromSum(a.hi, b.hi)
	return ddNorm(s.hi, s.lo+a.lo+b.lo)
}

func ddMul(a, b dd) dd {
	p := a.hi * b.hi
	e := math.FMA(a.hi, b.hi, -p)
	return ddNorm(p, e+a.hi*b.lo+a.lo*b.hi)
}

func ddDiv(a, b dd) dd {
	q1 := a.hi / b.hi
	r := ddAdd(a, ddMul(dd{-q1, 0}, b))
	q2 := r.hi / b.hi
	r = ddAdd(r, ddMul(dd{-q2, 0}, b))
	q3 := r.hi / b.hi
	q := ddNorm(q1, q2)
	return ddAdd(q, dd{q3, 0})
}
