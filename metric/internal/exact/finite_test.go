package exact

import (
	"math"
	"testing"
)

// TestIsFiniteSign: a sum beyond the float64 range is still finite, with
// its sign; a sum given a NaN or an infinity is not, and has sign 0.
func TestIsFiniteSign(t *testing.T) {
	for _, tc := range []struct {
		name   string
		adds   []float64
		finite bool
		sign   int
	}{
		{"empty", nil, true, 0},
		{"cancels", []float64{1.5, -1.5}, true, 0},
		{"beyond float64", []float64{math.MaxFloat64, math.MaxFloat64}, true, 1},
		{"negative beyond", []float64{-math.MaxFloat64, -math.MaxFloat64}, true, -1},
		{"tiny", []float64{5e-324}, true, 1},
		{"inf", []float64{1, math.Inf(1)}, false, 0},
		{"nan", []float64{math.NaN()}, false, 0},
	} {
		var s Sum
		for _, x := range tc.adds {
			s.Add(x)
		}
		if s.IsFinite() != tc.finite || s.Sign() != tc.sign {
			t.Errorf("%s: IsFinite %v, Sign %d; want %v, %d", tc.name, s.IsFinite(), s.Sign(), tc.finite, tc.sign)
		}
	}
}
