package runio

import (
	"strconv"
)

// pow10 holds the powers of ten that are exact in float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat parses b as strconv.ParseFloat(string(b), 64) does, without
// allocating for plain decimals. Short decimals whose digits fit in 2^53 and
// whose power of ten is exact take the exact fast path (one correctly
// rounded multiply or divide); everything else, including "inf", "nan",
// hexadecimal and long mantissas, goes to strconv.
func parseFloat(b []byte) (float64, bool) {
	i := 0
	n := len(b)
	if n == 1 {
		if c := b[0] - '0'; c <= 9 {
			return float64(c), true
		}
	}
	if n == 0 {
		return 0, false
	}
	neg := false
	switch b[0] {
	case '-':
		neg = true
		i++
	case '+':
		i++
	}
	var mant uint64
	digits := 0
	exp := 0
	sawDigit := false
	for ; i < n; i++ {
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
	if i < n && b[i] == '.' {
		i++
		for ; i < n; i++ {
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
		return slowFloat(b)
	}
	if i < n {
		if b[i] != 'e' && b[i] != 'E' {
			return slowFloat(b)
		}
		i++
		eneg := false
		if i < n && (b[i] == '-' || b[i] == '+') {
			eneg = b[i] == '-'
			i++
		}
		if i == n {
			return 0, false
		}
		e := 0
		for ; i < n; i++ {
			c := b[i] - '0'
			if c > 9 || e > 10000 {
				return slowFloat(b)
			}
			e = e*10 + int(c)
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	f := float64(mant) // exact: mant < 10^15 < 2^53
	switch {
	case mant == 0:
	case exp == 0:
	case exp < 0 && exp >= -22:
		f /= pow10[-exp]
	case exp > 0 && exp <= 22:
		f *= pow10[exp]
	default:
		return slowFloat(b)
	}
	if neg {
		f = -f
	}
	return f, true
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
