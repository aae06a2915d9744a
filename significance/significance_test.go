package significance

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

var ctx = context.Background()

func near(got, want, tol float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// TestPairedTHand checks the t-test on cases worked by hand: with 1 and 2
// degrees of freedom the t distribution has closed forms (Cauchy for 1;
// P(T > t) = (1 - t/sqrt(t^2+2))/2 for 2).
func TestPairedTHand(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name    string
		d       []float64
		stat, p float64
	}{
		{"n=0", nil, 0, 1},
		{"n=1", []float64{0.3}, 0, 1},
		{"all zero", []float64{0, 0, 0}, 0, 1},
		{"identical runs", make([]float64, 50), 0, 1},
		{"n=2 df=1", []float64{1, 3}, 2, 1 - 2*math.Atan(2)/math.Pi},
		{"n=3 df=2", []float64{1, 2, 3}, 2 * math.Sqrt(3), 1 - 2*math.Sqrt(3)/math.Sqrt(14)},
		{"negative", []float64{-1, -2, -3}, -2 * math.Sqrt(3), 1 - 2*math.Sqrt(3)/math.Sqrt(14)},
		{"equal non-zero", []float64{0.5, 0.5}, inf, 0},
		{"equal negative", []float64{-0.25, -0.25, -0.25}, -inf, 0},
	}
	for _, c := range cases {
		r, err := PairedT(c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !near(r.Statistic, c.stat, 1e-12) || !near(r.P, c.p, 1e-12) {
			t.Errorf("%s: got t=%v p=%v, want t=%v p=%v", c.name, r.Statistic, r.P, c.stat, c.p)
		}
	}
}

// TestWilcoxonHand checks the signed-rank test on cases worked by hand.
// Exact: with n untied ranks all 2^n sign patterns are equally likely.
// Approximate: d = {1, 1, -1, 2} has ranks 2, 2, 2, 4, R+ = 8, mean 5,
// variance (4*5*9 - (3^3-3)/2)/24 = 7.
func TestWilcoxonHand(t *testing.T) {
	cases := []struct {
		name    string
		d       []float64
		stat, p float64
		exact   bool
	}{
		{"n=0", nil, 0, 1, true},
		{"all zero", []float64{0, 0}, 0, 1, true},
		{"n=1", []float64{0.3}, 0, 1, true},                               // P(W<=0) = 1/2
		{"n=2", []float64{0.1, 0.3}, 0, 0.5, true},                        // P(W<=0) = 1/4
		{"n=3 balanced", []float64{1, 2, -3}, 3, 1, true},                 // P(W<=3) = 5/8
		{"n=5 all positive", []float64{1, 2, 3, 4, 5}, 0, 1.0 / 16, true}, // 2/32
		{"zeros dropped", []float64{0, 1, 0, 2, 3, 4, 5}, 0, 1.0 / 16, true},
		{"one negative", []float64{-1, 2, 3, 4, 5, 6}, 1, 4.0 / 64, true}, // P(W<=1) = 2/64
		{"ties: normal approximation", []float64{1, 1, -1, 2}, 2, 0.25683925795785667, false},
	}
	for _, c := range cases {
		r, err := Wilcoxon(c.d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Statistic != c.stat || !near(r.P, c.p, 1e-12) || r.Exact != c.exact {
			t.Errorf("%s: got W=%v p=%v exact=%v, want W=%v p=%v exact=%v", c.name, r.Statistic, r.P, r.Exact, c.stat, c.p, c.exact)
		}
	}
}

// TestSignedRankCDFNaive checks the exact distribution against counting
// all subsets.
func TestSignedRankCDFNaive(t *testing.T) {
	for n := 1; n <= 12; n++ {
		counts := make([]int, n*(n+1)/2+1)
		for mask := 0; mask < 1<<n; mask++ {
			s := 0
			for r := 1; r <= n; r++ {
				if mask>>(r-1)&1 == 1 {
					s += r
				}
			}
			counts[s]++
		}
		cum := 0
		for k := range counts {
			cum += counts[k]
			if got, want := signedRankCDF(n, k), float64(cum)/float64(int(1)<<n); got != want {
				t.Fatalf("n=%d k=%d: got %v, want %v", n, k, got, want)
			}
		}
	}
}

// TestRandomizationHand checks the exact sign-flip test on enumerations
// done by hand: d = {1, 2, 3} has sums ±1±2±3 = 6, 4, 2, 0, 0, -2, -4,
// -6, two of which reach |6|.
func TestRandomizationHand(t *testing.T) {
	cases := []struct {
		name    string
		d       []float64
		stat, p float64
	}{
		{"n=0", nil, 0, 1},
		{"all zero", []float64{0, 0, 0}, 0, 1},
		{"n=1", []float64{0.5}, 0.5, 1},
		{"n=2 equal", []float64{1, 1}, 1, 0.5},
		{"n=2 cancel", []float64{1, -1}, 0, 1},
		// 0.1 + 0.2 - 0.3 = 5.6e-17 in floating point: 0 within rounding
		{"n=3 cancel on a grid", []float64{0.1, 0.2, -0.3}, 0x1p-54 / 3, 1},
		{"n=3", []float64{1, 2, 3}, 2, 0.25},
		{"n=4 with zero", []float64{1, 2, 3, 0}, 1.5, 0.25},
	}
	for _, c := range cases {
		r, err := Randomization(ctx, c.d, WithSamples(1000))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !near(r.Statistic, c.stat, 1e-15) || r.P != c.p || !r.Exact {
			t.Errorf("%s: got T=%v p=%v exact=%v, want T=%v p=%v exact", c.name, r.Statistic, r.P, r.Exact, c.stat, c.p)
		}
	}
}

// TestRandomizationMonteCarlo checks the Monte Carlo p against the exact
// enumeration of the same data, within 5 standard errors.
func TestRandomizationMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{14, 15} {
		d := make([]float64, n)
		for i := range d {
			d[i] = rng.Float64() - 0.4
		}
		exact, err := Randomization(ctx, d, WithSamples(1<<n))
		if err != nil || !exact.Exact {
			t.Fatalf("n=%d exact: %v %v", n, exact, err)
		}
		const samples = 4000
		mc, err := Randomization(ctx, d, WithSamples(samples), WithSeed(7))
		if err != nil || mc.Exact || mc.Samples != samples {
			t.Fatalf("n=%d mc: %+v %v", n, mc, err)
		}
		se := math.Sqrt(exact.P * (1 - exact.P) / samples)
		if math.Abs(mc.P-exact.P) > 5*se+1.0/samples {
			t.Errorf("n=%d: Monte Carlo p %v, exact %v (5 se %v)", n, mc.P, exact.P, 5*se)
		}
	}
	// Differences on a grid that cancel exactly but sum to a rounding
	// residue: p is 1, not the share of sign patterns whose residue
	// reaches it.
	g := slices.Repeat([]float64{0.1, 0.2, -0.3}, 5)
	if r, err := Randomization(ctx, g, WithSamples(1000)); err != nil || r.P != 1 {
		t.Errorf("cancelling grid of 15: p = %v (%v), want 1", r.P, err)
	}
	// All 20 differences positive: exact p = 2/2^20, so with 1000 samples
	// almost surely no sample reaches |T| and p = 1/1001.
	d := slices.Repeat([]float64{0.1}, 20)
	r, err := Randomization(ctx, d, WithSamples(1000))
	if err != nil || r.P > 3.0/1001 || r.P < 1.0/1001 {
		t.Errorf("all positive: p = %v (%v), want about 1/1001", r.P, err)
	}
}

// TestBootstrapHand checks degenerate samples and d = {0, 1}, whose
// resampled means are 0, 1/2, 1 with probabilities 1/4, 1/2, 1/4: the
// 2.5% and 97.5% quantiles are 0 and 1, and |T* - 1/2| >= 1/2 has
// probability 1/2.
func TestBootstrapHand(t *testing.T) {
	const samples = 4000
	cases := []struct {
		name         string
		d            []float64
		low, high, p float64
		pTol         float64
	}{
		{"n=0", nil, 0, 0, 1, 0},
		{"all zero", []float64{0, 0, 0}, 0, 0, 1, 0},
		{"n=1", []float64{0.4}, 0.4, 0.4, 1, 0},
		{"equal non-zero", []float64{0.2, 0.2, 0.2}, 0.2, 0.2, 1.0 / (samples + 1), 0},
		{"n=2", []float64{0, 1}, 0, 1, 0.5, 5 * math.Sqrt(0.25/samples)},
	}
	for _, c := range cases {
		r, err := Bootstrap(ctx, c.d, WithSamples(samples), WithSeed(3))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !near(r.Low, c.low, 1e-15) || !near(r.High, c.high, 1e-15) || math.Abs(r.P-c.p) > c.pTol+1e-15 {
			t.Errorf("%s: got [%v, %v] p=%v, want [%v, %v] p=%v±%v", c.name, r.Low, r.High, r.P, c.low, c.high, c.p, c.pTol)
		}
	}
}

// TestTukeyHand: two systems A = {0, 0, 0} and B = {1, 1, 1}. A
// permutation swaps each query's pair with probability 1/2; the range of
// the means is 1 only when no or all queries swap (probability 1/4), so
// p is about 1/4. Identical systems have p = 1.
func TestTukeyHand(t *testing.T) {
	const samples = 4000
	stat, p, err := Tukey(ctx, [][]float64{{0, 0, 0}, {1, 1, 1}, {0, 0, 0}}, WithSamples(samples))
	if err != nil {
		t.Fatal(err)
	}
	if stat[0][1] != 1 || stat[1][0] != -1 || p[0][0] != 1 {
		t.Errorf("stat %v p %v", stat, p)
	}
	if p[0][2] != 1 {
		t.Errorf("identical systems: p = %v, want 1", p[0][2])
	}
	_, p2, err := Tukey(ctx, [][]float64{{0, 0, 0}, {1, 1, 1}}, WithSamples(samples))
	if err != nil {
		t.Fatal(err)
	}
	if se := math.Sqrt(0.25 * 0.75 / samples); math.Abs(p2[0][1]-0.25) > 5*se {
		t.Errorf("two systems: p = %v, want 0.25 ± %v", p2[0][1], 5*se)
	}
	if p2[0][1] != p2[1][0] {
		t.Errorf("p not symmetric: %v", p2)
	}
	// With the third system, the three 1s land in one system's column
	// (range 1) with probability 3 (1/3)^3 = 1/9; otherwise the range is
	// at most 2/3.
	if se := math.Sqrt((1.0 / 9) * (8.0 / 9) / samples); math.Abs(p[0][1]-1.0/9) > 5*se {
		t.Errorf("three systems: p = %v, want 1/9 ± %v", p[0][1], 5*se)
	}
	for _, bad := range [][][]float64{{{1, 2}, {1}}, {{1, math.NaN()}, {1, 2}}} {
		if _, _, err := Tukey(ctx, bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	if _, p, err := Tukey(ctx, [][]float64{{1, 2}}); err != nil || p[0][0] != 1 {
		t.Errorf("one system: %v %v", p, err)
	}
}

// TestCorrections checks Bonferroni, Holm and BH on p-values adjusted by
// hand. p = {0.01, 0.04, 0.03, 0.005}, m = 4, sorted 0.005, 0.01, 0.03,
// 0.04:
//
//	Holm: 4(0.005) = 0.02, 3(0.01) = 0.03, 2(0.03) = 0.06, 1(0.04) = 0.04 -> running max 0.02, 0.03, 0.06, 0.06
//	BH:   4(0.005)/1 = 0.02, 4(0.01)/2 = 0.02, 4(0.03)/3 = 0.04, 4(0.04)/4 = 0.04 -> running min from the top: same
func TestCorrections(t *testing.T) {
	cases := []struct {
		c    Correction
		p    []float64
		want []float64
	}{
		{None, []float64{0.01, 0.04, 0.03, 0.005}, []float64{0.01, 0.04, 0.03, 0.005}},
		{Bonferroni, []float64{0.01, 0.04, 0.03, 0.005}, []float64{0.04, 0.16, 0.12, 0.02}},
		{Holm, []float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		{BH, []float64{0.01, 0.04, 0.03, 0.005}, []float64{0.02, 0.04, 0.04, 0.02}},
		{Bonferroni, []float64{0.5, 0.9}, []float64{1, 1}},
		{Holm, []float64{0.5, 0.9}, []float64{1, 1}},
		{BH, []float64{0.5, 0.9}, []float64{0.9, 0.9}},
		{Holm, []float64{0.02, 0.02, 0.5}, []float64{0.06, 0.06, 0.5}},
		{BH, []float64{0.02, 0.02, 0.5}, []float64{0.03, 0.03, 0.5}},
		{Holm, nil, []float64{}},
		{BH, []float64{0}, []float64{0}},
	}
	for _, c := range cases {
		got, err := c.c.Adjust(c.p)
		if err != nil {
			t.Fatalf("%v %v: %v", c.c, c.p, err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%v %v: got %v", c.c, c.p, got)
		}
		for i := range got {
			if !near(got[i], c.want[i], 1e-15) {
				t.Errorf("%v %v: got %v, want %v", c.c, c.p, got, c.want)
				break
			}
		}
	}
	for _, bad := range [][]float64{{0.1, math.NaN()}, {1.5}, {-0.1}} {
		if _, err := Holm.Adjust(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	for _, name := range []string{"none", "bonferroni", "holm", "bh"} {
		c, err := ParseCorrection(name)
		if err != nil || c.String() != name {
			t.Errorf("%s: %v %v", name, c, err)
		}
	}
	if _, err := ParseCorrection("sidak"); err == nil {
		t.Error("sidak: no error")
	}
}

// TestSummarize checks the summary on baseline {0.1, 0.2, 0.3, 0.4} and
// run {0.2, 0.2, 0.5, 0.3}: differences 0.1, 0, 0.2, -0.1, mean 0.05,
// squared deviations summing to 0.05, sd sqrt(0.05/3), t(0.975, 3) =
// 3.182446305284263.
func TestSummarize(t *testing.T) {
	s, err := Summarize([]float64{0.1, 0.2, 0.3, 0.4}, []float64{0.2, 0.2, 0.5, 0.3}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	sd := math.Sqrt(0.05 / 3)
	half := 3.182446305284263 * sd / 2
	want := Summary{N: 4, MeanBaseline: 0.25, MeanRun: 0.3, Diff: 0.05, SD: sd, EffectSize: 0.05 / sd,
		CILow: 0.05 - half, CIHigh: 0.05 + half, Wins: 2, Ties: 1, Losses: 1}
	got := []float64{s.MeanBaseline, s.MeanRun, s.Diff, s.SD, s.EffectSize, s.CILow, s.CIHigh}
	exp := []float64{want.MeanBaseline, want.MeanRun, want.Diff, want.SD, want.EffectSize, want.CILow, want.CIHigh}
	for i := range got {
		if !near(got[i], exp[i], 1e-12) {
			t.Errorf("got %+v, want %+v", s, want)
			break
		}
	}
	if s.N != 4 || s.Wins != 2 || s.Ties != 1 || s.Losses != 1 {
		t.Errorf("counts: %+v", s)
	}
	inf := math.Inf(1)
	edge := []struct {
		name           string
		a, b           []float64
		effect, lo, hi float64
	}{
		{"n=0", nil, nil, 0, -inf, inf},
		{"n=1", []float64{0.1}, []float64{0.3}, inf, -inf, inf},
		{"identical", []float64{0.1, 0.5}, []float64{0.1, 0.5}, 0, 0, 0},
		{"equal shift", []float64{0, 0.5}, []float64{0.25, 0.75}, inf, 0.25, 0.25},
	}
	for _, e := range edge {
		s, err := Summarize(e.a, e.b, 0.05)
		if err != nil || s.EffectSize != e.effect || s.CILow != e.lo || s.CIHigh != e.hi {
			t.Errorf("%s: %+v %v", e.name, s, err)
		}
	}
	if _, err := Summarize([]float64{1}, []float64{1, 2}, 0.05); err == nil {
		t.Error("unpaired: no error")
	}
	if _, err := Summarize([]float64{math.NaN()}, []float64{1}, 0.05); err == nil {
		t.Error("NaN: no error")
	}
}

// TestNoNaN runs every test on random small and degenerate samples and
// checks that every p is in [0, 1] and every correction accepts them.
func TestNoNaN(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var ps []float64
	for it := range 300 {
		n := rng.IntN(8)
		d := make([]float64, n)
		for i := range d {
			switch it % 3 {
			case 0:
				d[i] = float64(rng.IntN(3) - 1) // ties and zeros
			case 1:
				d[i] = 0.25
			default:
				d[i] = rng.NormFloat64()
			}
		}
		tr, err1 := PairedT(d)
		wr, err2 := Wilcoxon(d)
		rr, err3 := Randomization(ctx, d, WithSamples(64))
		br, err4 := Bootstrap(ctx, d, WithSamples(64))
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			t.Fatal(err)
		}
		for _, p := range []float64{tr.P, wr.P, rr.P, br.P} {
			if math.IsNaN(p) || p < 0 || p > 1 {
				t.Fatalf("d=%v: p=%v (t %v, w %v, r %v, b %v)", d, p, tr, wr, rr, br)
			}
			ps = append(ps, p)
		}
		for _, x := range []float64{tr.Statistic, wr.Statistic, rr.Statistic, br.Statistic, br.Low, br.High} {
			if math.IsNaN(x) {
				t.Fatalf("d=%v: NaN statistic", d)
			}
		}
	}
	for _, c := range []Correction{None, Bonferroni, Holm, BH} {
		if _, err := c.Adjust(ps); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := PairedT([]float64{math.Inf(1)}); err == nil {
		t.Error("Inf: no error")
	}
}

// TestWorkersDeterminism: the same seed gives bit-identical Monte Carlo
// results for 1, 2 and 7 workers.
func TestWorkersDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	d := make([]float64, 300)
	vals := make([][]float64, 4)
	for i := range d {
		d[i] = rng.NormFloat64()*0.2 + 0.02
	}
	for s := range vals {
		vals[s] = make([]float64, 50)
		for q := range vals[s] {
			vals[s][q] = rng.Float64() + 0.05*float64(s)
		}
	}
	type out struct {
		r  Result
		b  BootstrapResult
		tp [][]float64
	}
	var first out
	for i, w := range []int{1, 2, 7} {
		opts := []Option{WithSamples(5000), WithSeed(42), WithStream(3), WithWorkers(w)}
		r, err1 := Randomization(ctx, d, opts...)
		b, err2 := Bootstrap(ctx, d, opts...)
		_, tp, err3 := Tukey(ctx, vals, opts...)
		if err := errors.Join(err1, err2, err3); err != nil {
			t.Fatal(err)
		}
		o := out{r, b, tp}
		if i == 0 {
			first = o
			continue
		}
		if o.r != first.r || o.b != first.b {
			t.Errorf("workers %d: %+v %+v, want %+v %+v", w, o.r, o.b, first.r, first.b)
		}
		for s := range tp {
			if !slices.Equal(tp[s], first.tp[s]) {
				t.Errorf("workers %d: Tukey %v, want %v", w, tp, first.tp)
			}
		}
	}
	other, _ := Randomization(ctx, d, WithSamples(5000), WithSeed(42), WithStream(4))
	if other.P == first.r.P {
		t.Logf("streams 3 and 4 gave the same p %v (possible, unlikely)", other.P)
	}
}

// TestCancel: a cancelled context stops the Monte Carlo work with its
// error.
func TestCancel(t *testing.T) {
	c, cancel := context.WithCancel(ctx)
	cancel()
	d := make([]float64, 100)
	d[0] = 1
	if _, err := Randomization(c, d); !errors.Is(err, context.Canceled) {
		t.Errorf("Randomization: %v", err)
	}
	if _, err := Bootstrap(c, d); !errors.Is(err, context.Canceled) {
		t.Errorf("Bootstrap: %v", err)
	}
	if _, _, err := Tukey(c, [][]float64{d, make([]float64, 100)}); !errors.Is(err, context.Canceled) {
		t.Errorf("Tukey: %v", err)
	}
}

func TestOptionsErrors(t *testing.T) {
	for _, o := range []Option{WithSamples(0), WithWorkers(0), WithAlpha(0), WithAlpha(1), WithAlpha(math.NaN())} {
		if _, err := Randomization(ctx, []float64{1, 2}, o); err == nil {
			t.Error("no error")
		}
	}
}
