package metric

import (
	"math"
	"math/bits"

	"github.com/rankmetrics/rankmetrics/metric/internal/vec"
)

// This file is the one place that fixes the order of additions, and the
// float32 rounding of TF's CPU kernels. Every reduction of the kernels goes
// through sumFloat32 / sumFloat64, or through laneSumFloat32 /
// laneSumFloat64, their incremental forms for sparse summands.
//
// TF 2.15's CPU reduce_sum (Eigen, built with AVX) adds float32 in 8-lane
// packets, as parity/SUMMATION.md establishes against the real wheel:
//
//   - n < 8: left to right from +0; a single element is copied, not added.
//   - 8 <= n: lane l of accumulator 0 adds x[j+l] for each whole packet j.
//     From n >= 32 the first (n/32)*32 values go four packets at a time into
//     accumulators 0..3, which are then combined as ((a0+a1)+a2)+a3 before
//     the remaining whole packets are added to a0. The scalar tail after the
//     last whole packet is summed on its own from +0, and the result is
//     tail + ((m0+m2) + (m1+m3)) with m_i = a0[i] + a0[i+4].
//   - n > 8192: the values are split in two at a packet boundary of the flat
//     buffer, each half summed the same way (recursively), and the halves
//     added: +0 + left + right.
//
// TF's kernels also run with flush-to-zero and denormals-are-zero: a
// subnormal float32 operand reads as a zero of its sign and a subnormal
// result is written as one. ftzFloat32 applies that to every float32
// operation the kernels do.
//
// Float64 mode has no TF counterpart to match; it adds left to right.

const (
	eigenLanes = 8    // floats in an AVX packet
	eigenLeaf  = 8192 // the longest sum Eigen does without a tree split
)

// ftzFloat32 flushes a subnormal x to a zero of its sign: a float32 whose
// exponent bits are all zero and mantissa bits are not keeps only its sign
// bit. Its one branch is taken for subnormals alone, which are rare, and not
// for zeros, which are common among labels (a branch-free form measured 8%
// slower on the whole MAP kernel).
func ftzFloat32(x float32) float32 {
	u := math.Float32bits(x)
	if u&0x7fffffff-1 < 0x7fffff { // exponent 0, mantissa not: a subnormal
		return math.Float32frombits(u & 0x80000000)
	}
	return x
}

// minPosFloat32 is the least positive float32 TF's kernels do not read as
// zero: the least normal, 2^-126. minPosFloat64 is the least positive
// float64. A weight below it is masked; a label above its negation is >= 0.
const (
	minPosFloat32 = 0x1p-126
	minPosFloat64 = math.SmallestNonzeroFloat64
)

// ftzFloat64 is the identity: float64 mode keeps subnormals.
func ftzFloat64(x float64) float64 { return x }

// add32 is one float32 addition of TF's CPU kernels, on operands that are
// already flushed.
func add32(a, b float32) float32 { return ftzFloat32(a + b) }

// sumFloat32 returns TF's float32 reduce_sum of xs, whose first element sits
// at index first of the flat tensor buffer (it decides where a sum longer
// than 8192 splits).
func sumFloat32(xs []float32, first int) float32 {
	switch {
	case len(xs) == 1:
		return ftzFloat32(xs[0])
	case len(xs) <= eigenLeaf:
		return leafSum32(xs)
	}
	half := (len(xs) + 1) / 2
	split := eigenLanes * ((first + half + eigenLanes - 1) / eigenLanes)
	left := min(split-first, len(xs))
	acc := sumFloat32Tree(xs[:left], first) + 0 // +0 + x, which makes -0 +0
	if left < len(xs) {
		acc = add32(acc, sumFloat32Tree(xs[left:], split))
	}
	return acc
}

// sumFloat32Tree is sumFloat32 inside a tree split, where a single element
// is added rather than copied.
func sumFloat32Tree(xs []float32, first int) float32 {
	if len(xs) <= eigenLeaf {
		return leafSum32(xs)
	}
	return sumFloat32(xs, first)
}

// leafSum32 is Eigen's vectorised inner reduction of at most 8192 values.
// Its whole packets go through vec.Packets32 (AVX2 where the CPU has it),
// which adds them as laneSumFloat32 does.
func leafSum32(xs []float32) float32 {
	if len(xs) >= eigenLanes {
		var lanes [eigenLanes]float32
		vec.Packets32(xs, &lanes)
		var tail float32
		for _, x := range xs[len(xs)/eigenLanes*eigenLanes:] {
			tail = add32(tail, ftzFloat32(x))
		}
		return finishLanes32(&lanes, tail)
	}
	var a laneSumFloat32
	a.reset(len(xs), 0, nil)
	for p, x := range xs {
		a.add(p, x)
	}
	return a.result()
}

// laneSumFloat32 computes the leaf sum of n <= 8192 values, most of them
// zero, from the nonzero ones alone, given in increasing position: a zero
// added to a lane changes no bits (the values are never -0 summands that
// matter, as every lane starts at +0).
//
// A sum of more than 8192 values, which splits in a tree, is kept dense in
// the buffer given to reset and handed to sumFloat32.
type laneSumFloat32 struct {
	n, v4, v int
	acc      [4][eigenLanes]float32
	// touched has bit 8q+l set when lane l of accumulator q (q >= 1) holds a
	// value: combining the others would add +0, which changes no bits.
	touched  uint32
	tail     float32
	combined bool
	single   float32 // the one value of a sum of n == 1, which TF copies
	first    int
	dense    []float32 // the values of a sum of more than 8192
}

// reset starts a sum of n values whose first sits at index first of the
// flat buffer; buf is scratch for sums of more than 8192 values, grown as
// needed.
func (a *laneSumFloat32) reset(n, first int, buf *[]float32) {
	*a = laneSumFloat32{n: n, first: first}
	if n > eigenLeaf {
		*buf = grow(*buf, n)
		a.dense = *buf
		clear(a.dense)
		return
	}
	if n >= 4*eigenLanes {
		a.v4 = n / (4 * eigenLanes) * (4 * eigenLanes)
	}
	a.v = n / eigenLanes * eigenLanes
}

// combine adds accumulators 1, 2 and 3 into 0, once, as Eigen does after
// the four-packet loop.
func (a *laneSumFloat32) combine() {
	if a.combined {
		return
	}
	a.combined = true
	// Lane by lane, ((a0 + a1) + a2) + a3; each lane's additions are
	// independent of the other lanes', so the order across lanes is free.
	for t := a.touched; t != 0; t &= t - 1 {
		i := bits.TrailingZeros32(t)
		q, l := i/eigenLanes, i%eigenLanes
		a.acc[0][l] = add32(a.acc[0][l], a.acc[q][l])
	}
}

// add adds x, the value at position p; positions must increase.
func (a *laneSumFloat32) add(p int, x float32) {
	x = ftzFloat32(x)
	switch {
	case a.dense != nil:
		a.dense[p] = x
	case a.n == 1:
		a.single = x
	case a.n < eigenLanes || p >= a.v:
		a.tail = add32(a.tail, x)
	case p < a.v4:
		q, l := p%(4*eigenLanes)/eigenLanes, p%eigenLanes
		a.acc[q][l] = add32(a.acc[q][l], x)
		if q > 0 {
			a.touched |= 1 << (q*eigenLanes + l)
		}
	default:
		a.combine()
		a.acc[0][p%eigenLanes] = add32(a.acc[0][p%eigenLanes], x)
	}
}

// addTerms adds the terms ftzFloat32(num[i]/den[i]*w[i]) at positions ps[i],
// which must increase (and exceed those added before), as add would one by
// one: vec.Terms32 computes them, eight at a time on AVX2, into num.
func (a *laneSumFloat32) addTerms(ps []int, num, den, w []float32) {
	xs := num[:len(ps)]
	vec.Terms32(xs, xs, den, w)
	if a.dense != nil || a.n < eigenLanes {
		for i, p := range ps {
			a.add(p, xs[i])
		}
		return
	}
	i := 0
	// Four accumulators: position p goes to lane p%8 of accumulator p%32/8,
	// element p%32 of acc seen as 32 floats.
	var touched uint32
	for ; i < len(ps) && ps[i] < a.v4; i++ {
		p := ps[i] & 31
		q, l := p>>3, p&7
		a.acc[q][l] = add32(a.acc[q][l], xs[i])
		touched |= 1 << p
	}
	a.touched |= touched &^ 0xff
	if i < len(ps) && ps[i] < a.v {
		a.combine()
		for ; i < len(ps) && ps[i] < a.v; i++ {
			l := ps[i] & 7
			a.acc[0][l] = add32(a.acc[0][l], xs[i])
		}
	}
	for ; i < len(ps); i++ {
		a.tail = add32(a.tail, xs[i])
	}
}

// result returns the sum.
func (a *laneSumFloat32) result() float32 {
	switch {
	case a.dense != nil:
		return sumFloat32(a.dense, a.first)
	case a.n == 1:
		return ftzFloat32(a.single)
	case a.n < eigenLanes:
		return add32(a.tail, 0)
	}
	a.combine()
	return finishLanes32(&a.acc[0], a.tail)
}

// finishLanes32 ends a sum of at least 8 values: the lanes l of its packets
// folded as (m0+m2) + (m1+m3) with m_i = l[i] + l[i+4], added to the tail.
func finishLanes32(l *[eigenLanes]float32, tail float32) float32 {
	m0, m1, m2, m3 := add32(l[0], l[4]), add32(l[1], l[5]), add32(l[2], l[6]), add32(l[3], l[7])
	return add32(tail, add32(add32(m0, m2), add32(m1, m3)))
}

// sumFloat64 adds xs in float64, left to right, starting from +0; first is
// unused, for symmetry with sumFloat32.
func sumFloat64(xs []float64, first int) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

// laneSumFloat64 is the incremental form of sumFloat64.
type laneSumFloat64 struct{ s float64 }

func (a *laneSumFloat64) reset(n, first int, buf *[]float64) { a.s = 0 }
func (a *laneSumFloat64) add(p int, x float64)               { a.s += x }
func (a *laneSumFloat64) result() float64                    { return a.s }
