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

// TestAddMul checks AddMul(x, n) against the exact products in big.Float,
// and against n calls of Add for small n.
func TestAddMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		xs := randomValues(rng, 1+rng.IntN(50))
		var s Sum
		want := new(big.Float).SetPrec(4000)
		for _, x := range xs {
			n := rng.Uint32()
			if rng.IntN(3) == 0 {
				n = math.MaxUint32
			}
			s.AddMul(x, n)
			p := new(big.Float).SetPrec(4000).SetFloat64(x)
			want.Add(want, p.Mul(p, new(big.Float).SetPrec(4000).SetUint64(uint64(n))))
		}
		w, _ := want.Float64()
		if got := s.Float64(); got != w {
			t.Fatalf("trial %d: AddMul sum %v, exact %v", trial, got, w)
		}
	}
	x := math.Float64frombits(0x000fffffffffffff) // the largest subnormal
	var a, b Sum
	a.AddMul(x, 7)
	for range 7 {
		b.Add(x)
	}
	if a.Float64() != b.Float64() || a.Float64() != 7*x {
		t.Fatalf("7 subnormals: %v, %v, want %v", a.Float64(), b.Float64(), 7*x)
	}
}

// TestFloat64Allocs checks that rounding a sum does not allocate, as the
// metrics' steady-state updates round sums.
func TestFloat64Allocs(t *testing.T) {
	var s Sum
	s.Add(math.Pi)
	s.AddMul(-1e300, 3)
	if n := testing.AllocsPerRun(10, func() { _ = s.Float64() }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

// FuzzFloat64 compares the rounding of sums of a few arbitrary float64
// values, times arbitrary counts, with big.Float's.
func FuzzFloat64(f *testing.F) {
	f.Add(uint64(0x3ff0000000000000), uint64(0x3ca0000000000000), uint64(0x8000000000000001), uint32(1), uint32(1))
	f.Add(uint64(0x7fefffffffffffff), uint64(0x7fefffffffffffff), uint64(0xffefffffffffffff), uint32(3), uint32(2))
	f.Fuzz(func(t *testing.T, a, b, c uint64, na, nb uint32) {
		var s Sum
		want := new(big.Float).SetPrec(4000)
		for _, v := range []struct {
			x float64
			n uint32
		}{{math.Float64frombits(a), na}, {math.Float64frombits(b), nb}, {math.Float64frombits(c), 1}} {
			if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
				return
			}
			s.AddMul(v.x, v.n)
			p := new(big.Float).SetPrec(4000).SetFloat64(v.x)
			want.Add(want, p.Mul(p, new(big.Float).SetPrec(4000).SetUint64(uint64(v.n))))
		}
		w, _ := want.Float64()
		if got := s.Float64(); got != w {
			t.Fatalf("sum %v (%x), exact rounds to %v (%x)", got, math.Float64bits(got), w, math.Float64bits(w))
		}
	})
}

// TestRatioIsCorrectlyRounded checks the mean of n values, an exact sum
// over a count of n, against math/big.Rat: Σ x / n rounded once to float64
// (Ratio) and to float32 (Ratio32). Values of the kinds means are taken of
// (tenths like P_10's, ratios, any float64) make naive running sums that
// round differently; the test counts them, to make sure it sees some.
func TestRatioIsCorrectlyRounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	naiveDiffers := 0
	for trial := range 2000 {
		n := 1 + rng.IntN(300)
		xs := make([]float64, n)
		switch trial % 4 {
		case 0: // P_10: a tenth per query
			for i := range xs {
				xs[i] = float64(rng.IntN(11)) / 10
			}
		case 1: // a ratio of small integers, as AP or 1/rank
			for i := range xs {
				xs[i] = float64(rng.IntN(50)) / float64(1+rng.IntN(50))
			}
		case 2: // float32 values, as TF-Ranking's per-list values
			for i := range xs {
				xs[i] = float64(rng.Float32())
			}
		default:
			xs = randomValues(rng, n)
		}
		var s, c Sum
		ref := new(big.Rat)
		naive := 0.0
		for _, x := range xs {
			s.Add(x)
			c.Add(1)
			ref.Add(ref, new(big.Rat).SetFloat64(x))
			naive += x
		}
		ref.Quo(ref, new(big.Rat).SetInt64(int64(n)))
		want64, _ := ref.Float64()
		want32, _ := ref.Float32()
		if got := s.Ratio(&c); got != want64 {
			t.Fatalf("trial %d: Ratio %v (%#x), big.Rat %v (%#x)", trial, got, math.Float64bits(got), want64, math.Float64bits(want64))
		}
		if got := s.Ratio32(&c); math.Float32bits(got) != math.Float32bits(want32) {
			t.Fatalf("trial %d: Ratio32 %v, big.Rat %v", trial, got, want32)
		}
		if naive/float64(n) != want64 {
			naiveDiffers++
		}
	}
	if naiveDiffers < 100 {
		t.Fatalf("the naive running mean differs from the correctly rounded one in %d trials only", naiveDiffers)
	}
	t.Logf("the naive running mean differs in %d of 2000 trials", naiveDiffers)
}

// TestRatio32RoundsOnce: a quotient just above a float32 midpoint, whose
// float64 rounding falls on the midpoint, must round up in float32 (a
// float64 first would tie to even, down).
func TestRatio32RoundsOnce(t *testing.T) {
	// 1 + 2^-24 is the midpoint between float32 1 and its successor; add
	// 2^-80, below float64's precision at 1.
	var s, c Sum
	s.Add(1)
	s.Add(math.Ldexp(1, -24))
	s.Add(math.Ldexp(1, -80))
	c.Add(1)
	if got := float32(s.Ratio(&c)); got != 1 {
		t.Fatalf("through float64: %v, want 1 (the double rounding this test is about)", got)
	}
	if got := s.Ratio32(&c); got != math.Nextafter32(1, 2) {
		t.Fatalf("Ratio32 = %v, want %v", got, math.Nextafter32(1, 2))
	}
	var zero Sum
	if got := s.Ratio32(&zero); got != 0 {
		t.Fatalf("x/0: %v", got)
	}
	s.Add(math.Inf(1))
	if got := s.Ratio32(&c); !math.IsInf(float64(got), 1) {
		t.Fatalf("inf/1: %v", got)
	}
}
