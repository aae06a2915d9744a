package exact

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

const (
	// digitBits is the width of one digit; a limb is an int64, so it can
	// take 2^31 digit-sized additions before its carry must be moved up.
	digitBits = 32
	digitMask = 1<<digitBits - 1
	// bias is the scale: a float64 is an integer multiple of 2^-1074.
	bias = 1074
	// nLimbs covers 2^(1024+1074) times 2^63 additions, plus one digit.
	nLimbs = (1024+bias+64)/digitBits + 2
	// flushEvery is how many additions the limbs can take between carries.
	flushEvery = 1 << 30
)

// ErrNonFinite is returned by the methods that read a Sum that was given a
// NaN or an infinity.
var ErrNonFinite = errors.New("exact: the sum was given a NaN or an infinity")

// Sum is an exact sum of float64 values. The zero value is 0.
type Sum struct {
	limbs   [nLimbs]int64
	pending int32 // additions since the last carry
	// nan, posInf and negInf record non-finite additions, which have no
	// fixed-point value.
	nan, posInf, negInf bool
}

// Add adds x exactly.
func (s *Sum) Add(x float64) { s.AddMul(x, 1) }

// AddMul adds x·n exactly, as n additions of x would, in one step.
func (s *Sum) AddMul(x float64, n uint32) {
	if x == 0 || n == 0 {
		return
	}
	if math.IsNaN(x) {
		s.nan = true
		return
	}
	if math.IsInf(x, 0) {
		if x > 0 {
			s.posInf = true
		} else {
			s.negInf = true
		}
		return
	}
	b := math.Float64bits(x)
	exp := int(b>>52) & 0x7ff
	mant := b & (1<<52 - 1)
	if exp == 0 {
		exp = 1 // subnormal
	} else {
		mant |= 1 << 52
	}
	off := exp - 1 // bit offset of mant's lowest bit above 2^-1074
	i, sh := off/digitBits, uint(off%digitBits)
	// mant·n has at most 53+32 bits, and << sh at most 85+31 = 116: four
	// digits, the last below 2^20.
	hi, lo := bits.Mul64(mant, uint64(n))
	hi = hi<<sh | lo>>(64-sh) // lo>>64 is 0 when sh is 0
	lo <<= sh
	d0 := int64(lo & digitMask)
	d1 := int64(lo >> digitBits)
	d2 := int64(hi & digitMask)
	d3 := int64(hi >> digitBits)
	if b>>63 != 0 {
		d0, d1, d2, d3 = -d0, -d1, -d2, -d3
	}
	s.limbs[i] += d0
	s.limbs[i+1] += d1
	s.limbs[i+2] += d2
	s.limbs[i+3] += d3
	s.pending++
	if s.pending >= flushEvery {
		s.carry()
	}
}

// carry moves every limb's overflow into the next limb, leaving each limb
// but the last in [0, 2^32).
func (s *Sum) carry() {
	for i := 0; i < nLimbs-1; i++ {
		c := s.limbs[i] >> digitBits // arithmetic shift: floor division
		s.limbs[i] -= c << digitBits
		s.limbs[i+1] += c
	}
	s.pending = 0
}

// Merge adds the value of o to s exactly.
func (s *Sum) Merge(o *Sum) {
	s.carry()
	oc := *o
	oc.carry()
	for i := range s.limbs {
		s.limbs[i] += oc.limbs[i]
	}
	s.pending = 1
	s.carry()
	s.nan = s.nan || o.nan
	s.posInf = s.posInf || o.posInf
	s.negInf = s.negInf || o.negInf
}

// Reset sets s to 0.
func (s *Sum) Reset() { *s = Sum{} }

// nonFinite returns the IEEE value of a sum given a NaN or an infinity.
func (s *Sum) nonFinite() (float64, bool) {
	switch {
	case s.nan || (s.posInf && s.negInf):
		return math.NaN(), true
	case s.posInf:
		return math.Inf(1), true
	case s.negInf:
		return math.Inf(-1), true
	}
	return 0, false
}

// scaled returns the sum times 2^1074 as an integer.
func (s *Sum) scaled() *big.Int {
	c := *s
	c.carry()
	v := new(big.Int)
	d := new(big.Int)
	for i := nLimbs - 1; i >= 0; i-- {
		v.Lsh(v, digitBits)
		v.Add(v, d.SetInt64(c.limbs[i]))
	}
	return v
}

// Float64 returns the sum rounded once to the nearest float64 (ties to
// even): ±Inf when it is beyond the float64 range, and the IEEE result when
// a NaN or an infinity was added. It does not allocate.
func (s *Sum) Float64() float64 {
	if v, ok := s.nonFinite(); ok {
		return v
	}
	c := *s
	c.carry() // every limb but the last in [0, 2^32)
	neg := c.limbs[nLimbs-1] < 0
	if neg {
		for i := range c.limbs {
			c.limbs[i] = -c.limbs[i]
		}
		c.carry()
	}
	t := nLimbs - 1
	for t >= 0 && c.limbs[t] == 0 {
		t--
	}
	var x float64
	switch {
	case t < 0:
		return 0
	case t < 2:
		// Below 2^64·2^-1074: an integer of two digits times 2^-1074, which
		// float64 rounds once; scaling it is exact, subnormals included
		// (they are below 2^53·2^-1074).
		v := uint64(c.limbs[0])
		if t == 1 {
			v |= uint64(c.limbs[1]) << digitBits
		}
		x = math.Ldexp(float64(v), -bias)
	case c.limbs[t] > digitMask:
		x = math.Inf(1) // far beyond the float64 range
	default:
		// The top 64 bits, from the top three digits, with a sticky bit for
		// any below: float64 then rounds them once as the whole value.
		top := uint64(c.limbs[t])<<digitBits | uint64(c.limbs[t-1])
		lz := uint(bits.LeadingZeros64(top)) // < 32: limbs[t] is not 0
		third := uint64(c.limbs[t-2])
		m := top<<lz | third>>(digitBits-lz)
		sticky := third&(1<<(digitBits-lz)-1) != 0
		for i := t - 3; i >= 0 && !sticky; i-- {
			sticky = c.limbs[i] != 0
		}
		if sticky {
			m |= 1
		}
		x = math.Ldexp(float64(m), (t-2)*digitBits+int(digitBits-lz)-bias)
	}
	if neg {
		return -x
	}
	return x
}

// Ratio returns s / d rounded once to the nearest float64, and 0 when d is
// 0, as TF's divide_no_nan.
func (s *Sum) Ratio(d *Sum) float64 {
	q, v, ok := s.quo(d)
	if !ok {
		return v
	}
	x, _ := q.Float64()
	return x
}

// Ratio32 returns s / d rounded once to the nearest float32 (not through
// a float64, which would round twice), and 0 when d is 0.
func (s *Sum) Ratio32(d *Sum) float32 {
	q, v, ok := s.quo(d)
	if !ok {
		return float32(v)
	}
	x, _ := q.Float32()
	return x
}

// quo returns the exact quotient s / d with ok true; or, when d is 0 or a
// sum was given a NaN or an infinity, ok false and the IEEE value of the
// quotient (0 when d is 0).
func (s *Sum) quo(d *Sum) (q *big.Rat, v float64, ok bool) {
	nv, nOK := s.nonFinite()
	dv, dOK := d.nonFinite()
	if nOK || dOK {
		if !nOK {
			nv = s.Float64()
		}
		if !dOK {
			dv = d.Float64()
		}
		if dv == 0 {
			return nil, 0, false
		}
		return nil, nv / dv, false
	}
	den := d.scaled()
	if den.Sign() == 0 {
		return nil, 0, false
	}
	return new(big.Rat).SetFrac(s.scaled(), den), 0, true
}

// IsFinite reports whether the sum was given finite values only, so that
// it has an exact value (which Float64 may still round to ±Inf).
func (s *Sum) IsFinite() bool {
	_, ok := s.nonFinite()
	return !ok
}

// Sign returns -1, 0 or +1, the sign of a finite sum, and 0 for a sum
// given a NaN or an infinity.
func (s *Sum) Sign() int {
	if _, ok := s.nonFinite(); ok {
		return 0
	}
	return s.scaled().Sign()
}

// IsZero reports whether the sum is exactly 0.
func (s *Sum) IsZero() bool {
	if _, ok := s.nonFinite(); ok {
		return false
	}
	return s.scaled().Sign() == 0
}

// MarshalText encodes the exact value: "nan", "+inf", "-inf", "inf-inf"
// for sums given non-finite values, otherwise the scaled integer in
// hexadecimal with a sign, like "-1a0".
func (s Sum) MarshalText() ([]byte, error) {
	switch {
	case s.nan:
		return []byte("nan"), nil
	case s.posInf && s.negInf:
		return []byte("inf-inf"), nil
	case s.posInf:
		return []byte("+inf"), nil
	case s.negInf:
		return []byte("-inf"), nil
	}
	return []byte(s.scaled().Text(16)), nil
}

// UnmarshalText decodes what MarshalText wrote.
func (s *Sum) UnmarshalText(b []byte) error {
	*s = Sum{}
	switch string(b) {
	case "nan":
		s.nan = true
		return nil
	case "inf-inf":
		s.posInf, s.negInf = true, true
		return nil
	case "+inf":
		s.posInf = true
		return nil
	case "-inf":
		s.negInf = true
		return nil
	}
	v, ok := new(big.Int).SetString(string(b), 16)
	if !ok {
		return fmt.Errorf("exact: %q is not a hexadecimal integer", b)
	}
	neg := v.Sign() < 0
	v.Abs(v)
	if v.BitLen() > (nLimbs-1)*digitBits {
		return fmt.Errorf("exact: %d-bit value is too large for a Sum", v.BitLen())
	}
	words := v.FillBytes(make([]byte, nLimbs*digitBits/8))
	for i := range nLimbs {
		end := len(words) - i*4
		d := int64(words[end-4])<<24 | int64(words[end-3])<<16 | int64(words[end-2])<<8 | int64(words[end-1])
		if neg {
			d = -d
		}
		s.limbs[i] = d
	}
	s.pending = 1
	s.carry()
	return nil
}
