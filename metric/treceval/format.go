package treceval

import (
	"math"
	"strconv"
)

// AppendFixed appends v as C's printf("%W.Pf") prints it with glibc:
// correctly rounded (ties to even on the exact binary value), right
// aligned in width, and "inf", "-inf", "nan", "-nan" for non-finite values.
func AppendFixed(b []byte, v float64, prec, width int) []byte {
	var tmp [48]byte
	s := tmp[:0]
	switch {
	case math.IsNaN(v):
		if math.Signbit(v) {
			s = append(s, '-')
		}
		s = append(s, "nan"...)
	case math.IsInf(v, 1):
		s = append(s, "inf"...)
	case math.IsInf(v, -1):
		s = append(s, "-inf"...)
	default:
		s = strconv.AppendFloat(s, v, 'f', prec, 64)
	}
	for i := len(s); i < width; i++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}

// FormatFixed is AppendFixed into a new string.
func FormatFixed(v float64, prec, width int) string {
	return string(AppendFixed(nil, v, prec, width))
}

// cLong converts v as C's (long) cast does on x86-64: truncation toward
// zero, and the "integer indefinite" value for NaN and out-of-range values.
func cLong(v float64) int64 {
	if v != v || v >= 9.223372036854775807e18 || v < -9.223372036854775808e18 {
		return math.MinInt64
	}
	return int64(v)
}

// appendName appends a measure name left aligned in 22 columns and a tab
// (C's "%-22s\t").
func appendName(b []byte, name string) []byte {
	b = append(b, name...)
	for i := len(name); i < 22; i++ {
		b = append(b, ' ')
	}
	return append(b, '\t')
}

func strconvAppendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }
