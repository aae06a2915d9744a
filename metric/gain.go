package metric

import (
	"fmt"
	"math"
	"slices"
)

// Gain maps a label to the gain NDCG and DCG credit for it. The zero
// value is TF-Ranking's default, Pow2Minus1Gain.
type Gain struct {
	name string
	f    func(label float64) float64
}

// Pow2Minus1Gain returns TF-Ranking's default gain, 2^label - 1
// (tfr.keras.utils.pow_minus_1). In float32 mode it is computed as TF does:
// 2^label rounded to float32, minus 1 in float32.
func Pow2Minus1Gain() Gain { return Gain{name: "pow2m1"} }

// IdentityGain returns the gain label itself (tfr.keras.utils.identity).
func IdentityGain() Gain { return Gain{name: "identity"} }

// NewGain returns a user gain function named name. In float32 mode the
// label is widened to float64, f is applied and the result is rounded to
// float32. f must be pure: the metric calls it once per distinct small
// integer label and caches the results.
func NewGain(name string, f func(label float64) float64) (Gain, error) {
	if f == nil {
		return Gain{}, fmt.Errorf("metric: NewGain(%q): nil function: %w", name, ErrConfig)
	}
	if name == "" || name == "pow2m1" || name == "identity" {
		return Gain{}, fmt.Errorf("metric: NewGain(%q): a user gain needs a name that is not empty or built in: %w", name, ErrConfig)
	}
	return Gain{name: name, f: f}, nil
}

// ParseGain returns the built-in gain named "pow2m1" or "identity".
func ParseGain(name string) (Gain, error) {
	switch name {
	case "pow2m1":
		return Pow2Minus1Gain(), nil
	case "identity":
		return IdentityGain(), nil
	}
	return Gain{}, fmt.Errorf("metric: gain %q is not pow2m1 or identity; pass a user gain with WithGain(NewGain(...)): %w", name, ErrConfig)
}

// IsZero reports whether g is the zero value, which means Pow2Minus1Gain.
func (g Gain) IsZero() bool { return g.name == "" }

// String returns the gain's name.
func (g Gain) String() string {
	if g.name == "" {
		return "pow2m1"
	}
	return g.name
}

// Discount maps a 1-based rank to the discount NDCG and DCG apply at it.
// The zero value is TF-Ranking's default, Log2Discount.
type Discount struct {
	name string
	f    func(rank float64) float64
}

// Log2Discount returns TF-Ranking's default discount, 1/log2(1+rank)
// (tfr.keras.utils.log2_inverse, computed as ln 2 / log1p(rank)). In
// float32 mode it reproduces TF 2.15 on x86-64: Eigen's vectorised log1p
// for the ranks that fill whole 8-float packets of the cutoff, the C
// library's log1pf (glibc's, from fdlibm) for the others.
func Log2Discount() Discount { return Discount{name: "log2"} }

// InverseDiscount returns the discount 1/rank (tfr.keras.utils.inverse).
func InverseDiscount() Discount { return Discount{name: "inverse"} }

// NewDiscount returns a user discount function named name, applied like a
// user gain (see NewGain).
func NewDiscount(name string, f func(rank float64) float64) (Discount, error) {
	if f == nil {
		return Discount{}, fmt.Errorf("metric: NewDiscount(%q): nil function: %w", name, ErrConfig)
	}
	if name == "" || name == "log2" || name == "inverse" {
		return Discount{}, fmt.Errorf("metric: NewDiscount(%q): a user discount needs a name that is not empty or built in: %w", name, ErrConfig)
	}
	return Discount{name: name, f: f}, nil
}

// ParseDiscount returns the built-in discount named "log2" or "inverse".
func ParseDiscount(name string) (Discount, error) {
	switch name {
	case "log2":
		return Log2Discount(), nil
	case "inverse":
		return InverseDiscount(), nil
	}
	return Discount{}, fmt.Errorf("metric: discount %q is not log2 or inverse; pass a user discount with WithDiscount(NewDiscount(...)): %w", name, ErrConfig)
}

// IsZero reports whether d is the zero value, which means Log2Discount.
func (d Discount) IsZero() bool { return d.name == "" }

// String returns the discount's name.
func (d Discount) String() string {
	if d.name == "" {
		return "log2"
	}
	return d.name
}

// gainTableSize is the number of small integer labels, 0 up, whose gains
// a gainEval caches.
const gainTableSize = 32

// gainEval evaluates one gain function in both dtypes, with the gains of
// the small integer labels cached.
type gainEval struct {
	g     Gain
	t32   [gainTableSize]float32
	t64   [gainTableSize]float64
	zero  bool // gain(0) == 0 in both dtypes
	index int  // position among the distinct gains of a plan
	ideal bool // an NDCG of the plan needs the ideal order
	// order32 and order64 list the small integer labels by gain, largest
	// first: the ideal order of items of equal weight.
	order32, order64 [gainTableSize]uint8
}

func newGainEval(g Gain) *gainEval {
	e := &gainEval{g: g}
	for i := range gainTableSize {
		e.t32[i] = e.slow32(float32(i))
		e.t64[i] = e.slow64(float64(i))
	}
	e.zero = e.t32[0] == 0 && e.t64[0] == 0
	for i := range gainTableSize {
		e.order32[i], e.order64[i] = uint8(i), uint8(i)
	}
	byGain := func(t func(uint8) float64) func(a, b uint8) int {
		return func(a, b uint8) int {
			x, y := t(a), t(b)
			switch {
			case x > y || y != y && x == x:
				return -1
			case x < y || x != x && y == y:
				return 1
			}
			return 0
		}
	}
	slices.SortStableFunc(e.order32[:], byGain(func(i uint8) float64 { return float64(e.t32[i]) }))
	slices.SortStableFunc(e.order64[:], byGain(func(i uint8) float64 { return e.t64[i] }))
	return e
}

// slow32 computes the float32 gain of a label read as TF reads it (a
// subnormal as 0), flushing each result to zero as TF's kernels do.
func (e *gainEval) slow32(l float32) float32 {
	switch {
	case e.g.f != nil:
		return ftzFloat32(float32(e.g.f(float64(l))))
	case e.g.name == "identity":
		return l
	}
	return ftzFloat32(ftzFloat32(float32(math.Exp2(float64(l)))) - 1)
}

func (e *gainEval) slow64(l float64) float64 {
	switch {
	case e.g.f != nil:
		return e.g.f(l)
	case e.g.name == "identity":
		return l
	}
	return math.Exp2(l) - 1
}

// eval32 returns the float32 gain of label l.
func (e *gainEval) eval32(l float32) float32 {
	if l >= 0 && l < gainTableSize {
		if i := int(l); float32(i) == l {
			return e.t32[i]
		}
	}
	return e.slow32(l)
}

// eval64 returns the float64 gain of label l.
func (e *gainEval) eval64(l float64) float64 {
	if l >= 0 && l < gainTableSize {
		if i := int(l); float64(i) == l {
			return e.t64[i]
		}
	}
	return e.slow64(l)
}

// discountTable32 returns in dst the float32 discounts of ranks 1..k, for
// a cutoff of k ranks.
func discountTable32(d Discount, k int, dst []float32) []float32 {
	dst = grow(dst, k)
	switch {
	case d.f != nil:
		for i := range dst {
			dst[i] = ftzFloat32(float32(d.f(float64(i + 1))))
		}
	case d.name == "inverse":
		for i := range dst {
			dst[i] = 1 / float32(i+1)
		}
	default:
		// TF evaluates log1p over the [k] vector of ranks: Eigen's packet
		// code for the whole 8-float packets, the scalar C library call for
		// the rest.
		ln2 := float32(math.Ln2)
		packed := k / 8 * 8
		for i := range dst {
			r := float32(i + 1)
			var l float32
			if i < packed {
				l = eigenLog1p32(r)
			} else {
				l = libmLog1p32(r)
			}
			dst[i] = 0
			if l != 0 {
				dst[i] = ftzFloat32(ln2 / l)
			}
		}
	}
	return dst
}

// discountTable64 returns in dst the float64 discounts of ranks 1..k.
func discountTable64(d Discount, k int, dst []float64) []float64 {
	dst = grow(dst, k)
	for i := range dst {
		r := float64(i + 1)
		switch {
		case d.f != nil:
			dst[i] = d.f(r)
		case d.name == "inverse":
			dst[i] = 1 / r
		default:
			dst[i] = math.Ln2 / math.Log1p(r)
		}
	}
	return dst
}

// eigenLog1p32 is log1p(x) for x >= 0 as Eigen's packet code computes it
// in float32 without fused multiply-add (the AVX build of TF 2.15): Kahan's
// x * (log(1+x) / ((1+x) - 1)), with log from eigenLog32.
func eigenLog1p32(x float32) float32 {
	u := x + 1
	if u == 1 {
		return x
	}
	lu := eigenLog32(u)
	if lu == u { // +Inf
		return x
	}
	return x * (lu / (u - 1))
}

// eigenLog32 is the natural logarithm of a positive normal float32 as
// Eigen's plog_float computes it: frexp into m·2^e with m in [0.5, 1),
// moved to [sqrt(1/2), sqrt(2)), then a (3,3) rational approximation of
// log(1+x) and e·ln 2 added back. Every operation rounds to float32.
func eigenLog32(v float32) float32 {
	if math.IsInf(float64(v), 1) {
		return v
	}
	fr, exp := math.Frexp(float64(v))
	x, e := float32(fr), float32(exp)
	if x < float32(0.707106781186547524) {
		e--
		x = (x - 1) + x
	} else {
		x--
	}
	const (
		p1 = float32(1.0000000190281136)
		p2 = float32(1.0000000190281063)
		p3 = float32(0.18256296349849254)
		q1 = float32(1.4999999999999927)
		q2 = float32(0.59923249590823520)
		q3 = float32(0.049616247954120038)
	)
	p := mulAdd32(x, p3, p2)
	p = mulAdd32(x, p, p1)
	p = float32(x * p)
	q := mulAdd32(x, q3, q2)
	q = mulAdd32(x, q, q1)
	q = mulAdd32(x, q, 1)
	r := p / q
	return mulAdd32(e, float32(math.Ln2), r)
}

// mulAdd32 returns a*b + c with both operations rounded to float32, as
// Eigen's pmadd does without FMA.
func mulAdd32(a, b, c float32) float32 {
	ab := float32(a * b)
	return float32(ab + c)
}

// libmLog1p32 is log1pf(x) for x >= 1 as glibc 2.36 computes it (fdlibm's
// algorithm: 1+x split into 2^k·u with u in [sqrt(2)/2, sqrt(2)), a
// correction c for the rounding of 1+x, and log(u) from s = f/(2+f) by a
// polynomial in s²), every operation rounded to float32. TF 2.15 calls it
// for the ranks past the last whole 8-float packet. Other inputs get the
// correctly rounded value.
func libmLog1p32(x float32) float32 {
	if !(x >= 1) || math.IsInf(float64(x), 1) {
		return float32(math.Log1p(float64(x)))
	}
	const (
		ln2Hi = float32(6.9313812256e-01)
		ln2Lo = float32(9.0580006145e-06)
		lp1   = float32(6.6666668653e-01)
		lp2   = float32(4.0000000596e-01)
		lp3   = float32(2.8571429849e-01)
		lp4   = float32(2.2222198546e-01)
		lp5   = float32(1.8183572590e-01)
		lp6   = float32(1.5313838422e-01)
		lp7   = float32(1.4798198640e-01)
	)
	var k, hu int32
	var c, u float32
	if math.Float32bits(x) < 0x5a000000 {
		u = x + 1
		hu = int32(math.Float32bits(u))
		k = hu>>23 - 127
		if k > 0 {
			c = 1 - (u - x)
		} else {
			c = x - (u - 1)
		}
		c /= u
	} else {
		u = x
		hu = int32(math.Float32bits(u))
		k = hu>>23 - 127
	}
	hu &= 0x007fffff
	if hu < 0x3504f4 {
		u = math.Float32frombits(uint32(hu | 0x3f800000))
	} else {
		k++
		u = math.Float32frombits(uint32(hu | 0x3f000000))
		hu = (0x00800000 - hu) >> 2
	}
	f := u - 1
	fk := float32(k)
	hfsq := float32(float32(0.5*f) * f)
	klo := float32(fk * ln2Lo)
	khi := float32(fk * ln2Hi)
	if hu == 0 {
		if f == 0 {
			return khi + float32(c+klo)
		}
		r := float32(hfsq * float32(1-float32(float32(0.66666666666666666)*f)))
		return khi - float32(float32(r-float32(klo+c))-f)
	}
	s := f / (2 + f)
	z := float32(s * s)
	p := float32(z * lp7)
	p = float32(z * float32(lp6+p))
	p = float32(z * float32(lp5+p))
	p = float32(z * float32(lp4+p))
	p = float32(z * float32(lp3+p))
	p = float32(z * float32(lp2+p))
	r := float32(z * float32(lp1+p))
	t := float32(s * float32(hfsq+r))
	return khi - float32(float32(hfsq-float32(t+float32(klo+c)))-f)
}

// powFloat32 is TF's float32 pow(x, y), taken as correctly rounded and
// flushed to zero. It is exact, as TF's is, for alpha-DCG's default x = 1/2
// and integer labels; TF's vectorised pow (Eigen's generic_pow) is not
// correctly rounded, so for other bases a power may differ from TF's by an
// ulp.
func powFloat32(x, y float32) float32 { return ftzFloat32(float32(math.Pow(float64(x), float64(y)))) }

// powFloat64 is pow(x, y) in float64.
func powFloat64(x, y float64) float64 { return math.Pow(x, y) }
