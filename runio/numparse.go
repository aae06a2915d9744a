package runio

import (
	"strconv"
)

// pow10 holds the powers of ten that are exact in float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat parses b as strconv.ParseFloat(string(b), 64) does, without
// allocating for plain decimals: see parseShort and parseFastPrefix.
// Everything else, including "inf", "nan", hexadecimal and long
// mantissas, goes to strconv.
func parseFloat(b []byte) (float64, bool) {
	if f, ok := parseShort(b); ok {
		return f, true
	}
	return parseFloatLong(b)
}

// parseFloatLong is parseFloat of what parseShort does not take.
func parseFloatLong(b []byte) (float64, bool) {
	if f, n, ok := parseFastPrefix(b); ok && n == len(b) {
		return f, true
	}
	return slowFloat(b)
}

// parseShort parses the most common numbers of ranking files, plain
// decimals of at most 15 bytes, [+-]digits[.digits] or [+-].digits (a
// TREC score such as 2.328 or -0.123456, a label 0 or 1), and fails on
// anything else, which parseFloatLong then parses. At most 15 bytes hold
// at most 15 digits, so the mantissa is exact in float64, and at most 14
// decimals, so the power of ten is exact too: the one correctly rounded
// division gives the correctly rounded value, strconv's bits. It never
// gives NaN or ±Inf. It is parseFastPrefix without exponents, leading
// zeros' special case and its checks per digit: one test per byte.
func parseShort(b []byte) (float64, bool) {
	if len(b) == 1 {
		c := b[0] - '0'
		return float64(c), c <= 9
	}
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	i, neg := 0, false
	if c := b[0]; c == '-' || c == '+' {
		i, neg = 1, c == '-'
	}
	digits := len(b) - i
	var mant uint64
	dot := -1
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c <= 9 {
			mant = mant*10 + uint64(c)
			continue
		}
		if b[i] != '.' || dot >= 0 {
			return 0, false
		}
		dot = i
		digits--
	}
	if digits == 0 {
		return 0, false
	}
	f := float64(mant)
	if dot >= 0 {
		f /= pow10[len(b)-1-dot]
	}
	if neg {
		f = -f
	}
	return f, true
}

// parseFastPrefix parses the decimal number at the start of b, of the form
// [+-]digits[.digits][(e|E)[+-]digits], and returns it and its length. It
// succeeds only when the result is exact to compute: at most 15 significant
// digits (so the mantissa is exact in float64) and a power of ten within
// 10^±22 (exact too), so one correctly rounded multiply or divide gives
// the correctly rounded value, the same bits as strconv. Otherwise ok is
// false and the caller must use strconv.
func parseFastPrefix(b []byte) (f float64, n int, ok bool) {
	i, end := 0, len(b)
	neg := false
	if i < end && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	digits, exp := 0, 0
	sawDigit := false
	for ; i < end; i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		sawDigit = true
		if mant == 0 && c == 0 {
			continue
		}
		mant = mant*10 + uint64(c)
		digits++
	}
	if i < end && b[i] == '.' {
		i++
		for ; i < end; i++ {
			c := b[i] - '0'
			if c > 9 {
				break
			}
			sawDigit = true
			exp--
			if mant == 0 && c == 0 {
				continue
			}
			mant = mant*10 + uint64(c)
			digits++
		}
	}
	if !sawDigit || digits > 15 {
		return 0, 0, false
	}
	if i < end && b[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < end && (b[i] == '-' || b[i] == '+') {
			eneg = b[i] == '-'
			i++
		}
		e, j := 0, i
		for ; i < end; i++ {
			c := b[i] - '0'
			if c > 9 {
				break
			}
			if e > 10000 {
				return 0, 0, false
			}
			e = e*10 + int(c)
		}
		if i == j {
			return 0, 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	f = float64(mant) // exact: mant < 10^15 < 2^53
	switch {
	case mant == 0, exp == 0:
	case exp < 0 && exp >= -22:
		f /= pow10[-exp]
	case exp > 0 && exp <= 22:
		f *= pow10[exp]
	default:
		return 0, 0, false
	}
	if neg {
		f = -f
	}
	return f, i, true
}

func slowFloat(b []byte) (float64, bool) {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		// A range error still returns ±Inf or 0; the value is a number.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}
