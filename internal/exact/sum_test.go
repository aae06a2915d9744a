package exact

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bigSum is the reference: the exact sum in a big.Float wide enough for it.
func bigSum(xs []float64) *big.Float {
	s := new(big.Float).SetPrec(4000)
	for _, x := range xs {
		s.Add(s, new(big.Float).SetPrec(4000).SetFloat64(x))
	}
	return s
}

func randomValues(rng *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		switch rng.IntN(6) {
		case 0:
			xs[i] = rng.NormFloat64() * math.Ldexp(1, rng.IntN(2000)-1000)
		case 1:
			xs[i] = math.Float64frombits(rng.Uint64N(1 << 52)) // subnormal
		case 2:
			xs[i] = -xs[max(i-1, 0)] // cancellation
		case 3:
			xs[i] = math.MaxFloat64 * (rng.Float64() - 0.5)
		default:
			xs[i] = rng.Float64()
		}
	}
	return xs
}

func TestSumIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		xs := randomValues(rng, 1+rng.IntN(200))
		var s Sum
		for _, x := range xs {
			s.Add(x)
		}
		want, _ := bigSum(xs).Float64()
		if got := s.Float64(); got != want {
			t.Fatalf("trial %d: sum %v, exact %v", trial, got, want)
		}
		// Any order and any split give the same bits.
		rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		var parts [3]Sum
		for _, x := range xs {
			parts[rng.IntN(3)].Add(x)
		}
		var merged Sum
		for i := range parts {
			merged.Merge(&parts[i])
		}
		if got := merged.Float64(); got != want {
			t.Fatalf("trial %d: merged %v, exact %v", trial, got, want)
		}
		text, err := merged.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Sum
		if err := back.UnmarshalText(text); err != nil || back.Float64() != want {
			t.Fatalf("trial %d: text %s gave %v (%v)", trial, text, back.Float64(), err)
		}
	}
}

func TestSumRoundsOnce(t *testing.T) {
	// 1 + 2^-60 - 1 is 2^-60 exactly; a float64 running sum gives 0.
	var s Sum
	for _, x := range []float64{1, math.Ldexp(1, -60), -1} {
		s.Add(x)
	}
	if got := s.Float64(); got != math.Ldexp(1, -60) {
		t.Fatalf("got %v", got)
	}
	// Halfway between two float64s rounds to even: 1 + 2^-53.
	s.Reset()
	s.Add(1)
	s.Add(math.Ldexp(1, -53))
	if got := s.Float64(); got != 1 {
		t.Fatalf("tie: got %v, want 1", got)
	}
	s.Add(math.Ldexp(1, -100)) // just above halfway
	if got := s.Float64(); got != math.Nextafter(1, 2) {
		t.Fatalf("above tie: got %v", got)
	}
}

func TestRatio(t *testing.T) {
	var n, d Sum
	n.Add(1)
	d.Add(3)
	if got := n.Ratio(&d); got != 1.0/3 {
		t.Fatalf("1/3: %v", got)
	}
	var zero Sum
	if got := n.Ratio(&zero); got != 0 || !zero.IsZero() {
		t.Fatalf("x/0: %v", got)
	}
	d.Add(-3)
	if !d.IsZero() {
		t.Fatal("3 - 3 is not zero")
	}
}

func TestNonFinite(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
		text string
	}{
		{[]float64{1, math.Inf(1)}, math.Inf(1), "+inf"},
		{[]float64{math.Inf(-1), 2}, math.Inf(-1), "-inf"},
		{[]float64{math.Inf(1), math.Inf(-1)}, math.NaN(), "inf-inf"},
		{[]float64{math.NaN()}, math.NaN(), "nan"},
	} {
		var s Sum
		for _, x := range tc.xs {
			s.Add(x)
		}
		got := s.Float64()
		if got != tc.want && !(math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("%v: %v, want %v", tc.xs, got, tc.want)
		}
		text, _ := s.MarshalText()
		var back Sum
		bv := math.NaN()
		if back.UnmarshalText(text) == nil {
			bv = back.Float64()
		}
		if string(text) != tc.text || (bv != got && !(math.IsNaN(bv) && math.IsNaN(got))) {
			t.Errorf("%v: text %s", tc.xs, text)
		}
	}
	var s Sum
	if err := s.UnmarshalText([]byte("xyz")); err == nil {
		t.Fatal("bad text accepted")
	}
}

func TestManyAdditionsCarry(t *testing.T) {
	var s Sum
	s.pending = flushEvery - 5
	for range 10 {
		s.Add(math.MaxFloat64)
	}
	want := new(big.Float).SetPrec(2000).Mul(big.NewFloat(math.MaxFloat64).SetPrec(2000), big.NewFloat(10))
	got := new(big.Float).SetPrec(2000).SetInt(s.scaled())
	got.SetMantExp(got, -bias)
	if got.Cmp(want) != 0 {
		t.Fatalf("10 * MaxFloat64: %v, want %v", got, want)
	}
	if !math.IsInf(s.Float64(), 1) {
		t.Fatalf("beyond float64 range: %v", s.Float64())
	}
}
