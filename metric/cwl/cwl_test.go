package cwl

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestValueHandWorked checks each kind on rankings worked by hand.
func TestValueHandWorked(t *testing.T) {
	// sumTo returns the sum over j < Depth of f(j), added naively: the
	// normaliser of the hand-worked INST and INSQ cases.
	sumTo := func(f func(j float64) float64) float64 {
		s := 0.0
		for j := 0; j < Depth; j++ {
			s += f(float64(j))
		}
		return s
	}
	cases := []struct {
		name   string
		m      Measure
		labels []int64 // by rank; -9 for an unjudged document
		want   float64
		tol    float64
	}{
		// W = 0.5^i / (2 - 2^-999), and 2 - 2^-999 rounds to 2:
		// (1 + 0.25) / 2.
		{"RBP p=0.5", Measure{Kind: RBP, Rel: 1, P: 0.5}, []int64{2, 0, 1}, 0.625, 0},
		{"RBP rel=2", Measure{Kind: RBP, Rel: 2, P: 0.5}, []int64{2, 0, 1}, 0.5, 0},
		{"RBP unjudged and negative", Measure{Kind: RBP, Rel: 1, P: 0.5}, []int64{-9, -1, 1}, 0.125, 0},
		// C(1) = log2(2)/log2(3), then 0: W = (1, 1/log2 3) / (1 + 1/log2 3).
		{"SDCG@2", Measure{Kind: SDCG, MaxRel: 1, K: 2}, []int64{0, 1}, 1 / (1 + math.Log2(3)), 1e-15},
		// Gains 0, 1, 1: the gain reaches T=1 at rank 2, so W = (1/2, 1/2).
		{"BPM T=1 K=3", Measure{Kind: BPM, T: 1, MaxRel: 1, K: 3}, []int64{0, 1, 1}, 0.5, 0},
		// K=1: the reader stops at rank 1 whatever the gain.
		{"BPM K=1", Measure{Kind: BPM, T: 1, MaxRel: 1, K: 1}, []int64{0, 1}, 0, 0},
		// Gains 1/2, 1, 0: C = (1/2, 0), W = (2/3, 1/3): 1/3 + 1/3.
		{"NERR8@3", Measure{Kind: NERR8, MaxRel: 2, K: 3}, []int64{1, 2, 0}, 2.0 / 3, 1e-16},
		// Gains 0, 0, 1: C = (1/2, 2/3, 0), products (1, 1/2, 1/3), sum 11/6.
		{"NERR9@3", Measure{Kind: NERR9, MaxRel: 3, K: 3}, []int64{0, 0, 3, 3}, 2.0 / 11, 1e-16},
		// A first document of gain 1 stops the reader: W = (1, 0, ...).
		{"NERR10", Measure{Kind: NERR10, P: 0.5, MaxRel: 3}, []int64{3, 3}, 1, 0},
		{"NERR11", Measure{Kind: NERR11, T: 1, MaxRel: 3}, []int64{3, 3}, 1, 0},
		// min_rel=1: label 1 (and 0, -1) has gain 0, label 2 gain 1/2.
		// min_rel=1: labels 0 and 2 have gains 0 and 1/2. C = (1/2, 1/4,
		// 1/2, 1/2, ...), products 1, 1/2, then 1/8 halving: sum 7/4 (to
		// 2^-1000), W(2) = 2/7.
		{"NERR10 min_rel", Measure{Kind: NERR10, P: 0.5, MinRel: 1, MaxRel: 3}, []int64{0, 2}, 1.0 / 7, 1e-16},
		// INSQ, T=1: C(i) = ((i+2)/(i+3))^2, products (2/(j+2))^2.
		{"INSQ", Measure{Kind: INSQ, T: 1, MaxRel: 1}, []int64{1}, 1 / sumTo(func(j float64) float64 { return 4 / ((j + 2) * (j + 2)) }), 1e-14},
		// INST, T=1, gain 1 at rank 1: T_i = 0, C(i) = ((i+1)/(i+2))^2,
		// products 1/(j+1)^2.
		{"INST", Measure{Kind: INST, T: 1, MaxRel: 1}, []int64{1}, 1 / sumTo(func(j float64) float64 { return 1 / ((j + 1) * (j + 1)) }), 1e-14},
		{"INST nothing relevant", Measure{Kind: INST, T: 1, MaxRel: 3}, []int64{0, -9, 0}, 0, 0},
	}
	for _, c := range cases {
		s, err := New(c.m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		gains := make([]float64, len(c.labels))
		for i, l := range c.labels {
			if l != -9 {
				gains[i] = c.m.Gain(l)
			}
		}
		if got := s.Score(gains); math.Abs(got-c.want) > c.tol {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDepth: cwl_eval reads 1000 ranks; a relevant document below them
// gives nothing.
func TestDepth(t *testing.T) {
	s, err := New(Measure{Kind: RBP, Rel: 1, P: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, Depth+1)
	g[Depth] = 1
	if v := s.Score(g); v != 0 {
		t.Errorf("relevant at rank %d: %v, want 0", Depth+1, v)
	}
}

func TestOrder(t *testing.T) {
	got := Order([]float64{1, 3, 1, 3, -2, 2})
	if want := []int{1, 3, 5, 0, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("Order = %v, want %v (ties in input order)", got, want)
	}
}

func TestGain(t *testing.T) {
	rbp := Measure{Kind: RBP, Rel: 2}
	graded := Measure{Kind: INST, MinRel: 1, MaxRel: 3}
	for _, c := range []struct {
		m     Measure
		label int64
		want  float64
	}{
		{rbp, 3, 1}, {rbp, 2, 1}, {rbp, 1, 0}, {rbp, -1, 0},
		{graded, -1, 0}, {graded, 0, 0}, {graded, 1, 0}, {graded, 2, 0.5}, {graded, 3, 1}, {graded, 7, 1},
		// A negative label counts as 0 before min_rel applies.
		{Measure{Kind: SDCG, MinRel: -2, MaxRel: 2}, -2, 0.5},
	} {
		if got := c.m.Gain(c.label); got != c.want {
			t.Errorf("%v Gain(%d) = %v, want %v", c.m, c.label, got, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		m    Measure
		want string
	}{
		{Measure{Kind: INST, MinRel: 2, MaxRel: 2}, "min_rel=2 must be less than max_rel=2"},
		{Measure{Kind: RBP, P: math.NaN()}, "p=NaN"},
		{Measure{Kind: 99}, "unknown measure kind 99"},
	} {
		if _, err := New(c.m); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v): %v, want an error with %q", c.m, err, c.want)
		}
	}
}

// TestPairwiseSum: numpy's pairwise sum differs from a left-to-right sum;
// on 1, 2^-53, 2^-53, ... it keeps the small values together.
func TestPairwiseSum(t *testing.T) {
	a := make([]float64, 16)
	for i := range a {
		a[i] = 0x1p-53
	}
	a[0] = 1
	// r0 = 1 + 2^-53 = 1 (ties to even), r1..r7 = 2^-52 each; then
	// (1 + 2^-52) + (2^-51) + (2^-51 + 2^-51)... = 1 + 7 * 2^-52.
	if got, want := pairwiseSum(a), 1+7*0x1p-52; got != want {
		t.Errorf("pairwiseSum = %v, want %v", got, want)
	}
}

// TestDot: the sum of w[i] g[i] over 1000 terms as numpy.dot gives it
// (numpy 2.4, OpenBLAS on an AVX-512 processor), recorded for
// w[i] = 1/(i+a), g[i] = ((i b) mod 5)/4; a left-to-right sum and the
// correctly rounded one both differ from it on the last two.
func TestDot(t *testing.T) {
	for _, c := range []struct {
		a, b int
		want float64
	}{
		{3, 7, 0x1.7170fa55e4f49p+1},
		{7, 3, 0x1.3d8125fb22406p+1},
		{1, 9, 0x1.c2526c0daa69ep+1},
	} {
		w, g := make([]float64, Depth), make([]float64, Depth)
		for i := range w {
			w[i] = 1 / float64(i+c.a)
			g[i] = float64(i*c.b%5) / 4
		}
		if got := dot(w, g); got != c.want {
			t.Errorf("a=%d b=%d: %x, numpy %x", c.a, c.b, got, c.want)
		}
	}
}
