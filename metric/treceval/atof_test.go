package treceval

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// atofDecimal's fast path gives ParseFloat's bits (strtod's value) on the
// decimal shapes it accepts, and declines the others.
func TestAtofDecimalMatchesParseFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	cases := []string{"0", "-0", "-0.000", "1.", ".5", "+3.017", "3.017000001", "999999999999999", "0.00000000000001", "123456789.012345"}
	for range 200000 {
		nd := 1 + r.IntN(15)
		b := make([]byte, 0, 20)
		if r.IntN(2) == 0 {
			b = append(b, '-')
		}
		dot := r.IntN(nd + 1)
		for i := range nd {
			if i == dot {
				b = append(b, '.')
			}
			b = append(b, byte('0'+r.IntN(10)))
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		v, ok := atofDecimal(s)
		if !ok {
			t.Fatalf("atofDecimal(%q) declined", s)
		}
		w, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(v) != math.Float64bits(w) {
			t.Fatalf("atofDecimal(%q) = %v, ParseFloat %v (%v)", s, v, w, err)
		}
	}
	for _, s := range []string{"", "-", ".", "1e5", "1.2.3", "0x1p3", "nan", "1234567890123456", "1 "} {
		if _, ok := atofDecimal(s); ok {
			t.Errorf("atofDecimal(%q) accepted", s)
		}
	}
}

// TestAtofMatchesStrtod checks Atof's bits against glibc's atof (strtod):
// the table is parity/treceval_strtod.c's output for these strings (glibc
// 2.36), NaN signs and payloads included.
func TestAtofMatchesStrtod(t *testing.T) {
	tests := []struct {
		s    string
		bits uint64
	}{
		{"nan", 0x7ff8000000000000},
		{"-nan", 0xfff8000000000000},
		{"+nan", 0x7ff8000000000000},
		{"NaN", 0x7ff8000000000000},
		{"-NaN", 0xfff8000000000000},
		{"+NAN", 0x7ff8000000000000},
		{"nan(1)", 0x7ff8000000000001},
		{"-nan(1)", 0xfff8000000000001},
		{"nan(0x10)", 0x7ff8000000000010},
		{"nan(010)", 0x7ff8000000000008},
		{"nan(08)", 0x7ff8000000000000},
		{"nan(0x)", 0x7ff8000000000000},
		{"nan(99999999999999999999999)", 0x7fffffffffffffff},
		{"nan(abc_9)", 0x7ff8000000000000},
		{"-nan()", 0xfff8000000000000},
		{"nan(", 0x7ff8000000000000},
		{"-nan(x y)", 0xfff8000000000000},
		{"nan((1)", 0x7ff8000000000000},
		{"nanx", 0x7ff8000000000000},
		{"-nanq", 0xfff8000000000000},
		{"inf", 0x7ff0000000000000},
		{"-inf", 0xfff0000000000000},
		{"+INF", 0x7ff0000000000000},
		{"infinity", 0x7ff0000000000000},
		{"-Infinity", 0xfff0000000000000},
		{"infinit", 0x7ff0000000000000},
		{"-infx", 0xfff0000000000000},
		{"0x1p-1", 0x3fe0000000000000},
		{"-0x1p-1", 0xbfe0000000000000},
		{"0x1", 0x3ff0000000000000},
		{"-0X1.8p1", 0xc008000000000000},
		{"0x.8", 0x3fe0000000000000},
		{"0x", 0x0000000000000000},
		{"-0x", 0x8000000000000000},
		{"0xg", 0x0000000000000000},
		{"0x1p", 0x3ff0000000000000},
		{"0x1p+", 0x3ff0000000000000},
		{"1e5x", 0x40f86a0000000000},
		{"1e", 0x3ff0000000000000},
		{"1e+", 0x3ff0000000000000},
		{"-1e-400", 0x8000000000000000},
		{"1e400", 0x7ff0000000000000},
		{"-1e400", 0xfff0000000000000},
		{".5", 0x3fe0000000000000},
		{".", 0x0000000000000000},
		{"-.e5", 0x0000000000000000},
		{"+", 0x0000000000000000},
		{"-", 0x0000000000000000},
		{"0x_1p0", 0x0000000000000000},
		{"1_000", 0x3ff0000000000000},
		{"4.9e-324", 0x0000000000000001},
		{"2.4703282292062327e-324", 0x0000000000000000},
		{"0x1.fffffffffffff8p1023", 0x7ff0000000000000},
		{"0x1p-1075", 0x0000000000000000},
		{"1.5e+3xyz", 0x4097700000000000},
		{"-0", 0x8000000000000000},
		{"nan(-1)", 0x7ff8000000000000},
		{"infinityx", 0x7ff0000000000000},
		{"-in", 0x0000000000000000},
	}
	for _, tc := range tests {
		if got := math.Float64bits(Atof(tc.s)); got != tc.bits {
			t.Errorf("Atof(%q) = %#016x (%v), strtod %#016x (%v)", tc.s, got, Atof(tc.s), tc.bits, math.Float64frombits(tc.bits))
		}
	}
}

func BenchmarkAtof(b *testing.B) {
	for _, s := range []string{"2.328", "-0.5"} {
		b.Run(s, func(b *testing.B) {
			for b.Loop() {
				_ = Atof(s)
			}
		})
	}
}

func BenchmarkParseFloat(b *testing.B) {
	for b.Loop() {
		_, _ = strconv.ParseFloat("2.328", 64)
	}
}

// Atol reads every string of one or two bytes as C's atol: the digits
// after optional white space and one sign, 0 when there are none (a
// table worked from the C standard's description, not from Atol).
func TestAtolShortStrings(t *testing.T) {
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	space := func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
	for a := range 256 {
		s := string([]byte{byte(a)})
		want := int64(0)
		if digit(byte(a)) {
			want = int64(a - '0')
		}
		if got := Atol(s); got != want {
			t.Fatalf("Atol(%q) = %d, want %d", s, got, want)
		}
		for b := range 256 {
			s := string([]byte{byte(a), byte(b)})
			var want int64
			switch {
			case digit(byte(a)) && digit(byte(b)):
				want = int64(a-'0')*10 + int64(b-'0')
			case digit(byte(a)):
				want = int64(a - '0')
			case (space(byte(a)) || a == '+') && digit(byte(b)):
				want = int64(b - '0')
			case a == '-' && digit(byte(b)):
				want = -int64(b - '0')
			}
			if got := Atol(s); got != want {
				t.Fatalf("Atol(%q) = %d, want %d", s, got, want)
			}
		}
	}
}
