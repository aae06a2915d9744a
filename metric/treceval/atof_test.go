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
