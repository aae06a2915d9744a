package treceval

import "math"

// log2Int returns log2(n) for an integer n >= 1, correctly rounded, as
// glibc's log2 gives it for the ranks trec_eval divides by (Go's
// math.Log2 is one ulp off it for some integers, 3 among them). It sums
// ln(m) = 2 atanh((m-1)/(m+1)) for n = m 2^e, m in [1/sqrt 2, sqrt 2),
// in double-double arithmetic (about 100 bits), and rounds once.
func log2Int(n int64) float64 {
	if n < 1 || n > 1<<53 {
		return math.Log2(float64(n))
	}
	frac, exp := math.Frexp(float64(n))
	if frac == 0.5 {
		return float64(exp - 1)
	}
	m, e := 2*frac, exp-1
	if m > math.Sqrt2 {
		m, e = frac, exp
	}
	// s = (m-1)/(m+1); m-1 is exact, m+1 held as a double-double.
	den := ddFromSum(m, 1)
	s := ddDiv(dd{m - 1, 0}, den)
	s2 := ddMul(s, s)
	// atanh(s)/s = sum s^(2k)/(2k+1), by Horner from k = 24 (s^2 <=
	// 0.0295, so the terms left out are below 2^-120).
	t := invOdd[24]
	for k := 23; k >= 0; k-- {
		t = ddAdd(ddMul(t, s2), invOdd[k])
	}
	ln := ddMul(ddMul(s, t), dd{2, 0})
	l2 := ddMul(ln, dd{1.4426950408889634, 2.0355273740931033e-17}) // log2(e)
	r := ddAdd(l2, dd{float64(e), 0})
	return r.hi + r.lo
}

// invOdd holds 1/(2k+1) as double-doubles, k = 0 to 24; never changed.
var invOdd = func() (t [25]dd) {
	for k := range t {
		t[k] = ddDiv(dd{1, 0}, dd{float64(2*k + 1), 0})
	}
	return t
}()

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
