package significance

import (
	"context"
	"errors"
	"math"
	"testing"
)

// TestRiskByHand works URisk and TRisk out on four topics.
func TestRiskByHand(t *testing.T) {
	// d = run - baseline; with alpha = 1 a loss counts twice:
	// r = {0.2, -0.2, 0.05, -0.6}, URisk = -0.55/4 = -0.1375; the
	// deviations from -0.1375 are 0.3375, -0.0625, 0.1875, -0.4625, their
	// squares sum to 0.366875, so sd^2 = 0.366875/3 and
	// TRisk = -0.1375 / sqrt(0.366875/3/4).
	d := []float64{0.2, -0.1, 0.05, -0.3}
	r, err := Risk(d, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.URisk-(-0.1375)) > 1e-15 || relErr(r.TRisk, -0.1375/math.Sqrt(0.366875/12)) > 1e-12 {
		t.Errorf("alpha 1: got %+v, want URisk -0.1375, TRisk %v", r, -0.1375/math.Sqrt(0.366875/12))
	}
	// alpha = 0: the mean difference and the paired t statistic.
	// mean -0.0375; deviations 0.2375, -0.0625, 0.0875, -0.2625; squares
	// sum to 0.136875.
	r, err = Risk(d, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.URisk-(-0.0375)) > 1e-15 || relErr(r.TRisk, -0.0375/math.Sqrt(0.136875/12)) > 1e-12 {
		t.Errorf("alpha 0: got %+v", r)
	}
	// alpha = 5 on all wins: the losses are absent, URisk is the mean.
	if r, _ := Risk([]float64{0.1, 0.3}, 5); math.Abs(r.URisk-0.2) > 1e-15 {
		t.Errorf("wins only: got %+v", r)
	}
	if _, err := Risk(d, -1); err == nil {
		t.Error("risk alpha -1: no error")
	}
}

// TestMomentsMerge checks that merged moments equal moments of all the
// values, and the t interval of {1, 2, 3}: mean 2, sd 1,
// t(0.975, 2) = 4.302652729749464 (scipy.stats.t.ppf).
func TestMomentsMerge(t *testing.T) {
	var a, b, all Moments
	x := []float64{0.5, 0.25, 1, 0, 0.75, 0.125}
	for i, v := range x {
		all.Add(v)
		if i < 2 {
			a.Add(v)
		} else {
			b.Add(v)
		}
	}
	a.Merge(b)
	if a.N != all.N || math.Abs(a.Mean-all.Mean) > 1e-15 || math.Abs(a.M2-all.M2) > 1e-14 {
		t.Errorf("merged %+v, all %+v", a, all)
	}
	iv, err := MeanT([]float64{1, 2, 3}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	half := 4.302652729749464 / math.Sqrt(3)
	if relErr(iv.Low, 2-half) > 1e-12 || relErr(iv.High, 2+half) > 1e-12 {
		t.Errorf("t interval of {1,2,3}: got [%v, %v], want 2 ± %v", iv.Low, iv.High, half)
	}
	if iv, _ := MeanT([]float64{0.5}, 0.05); !math.IsInf(iv.Low, -1) || !math.IsInf(iv.High, 1) {
		t.Errorf("one value: got %+v, want (-Inf, +Inf)", iv)
	}
	if iv, _ := MeanT([]float64{0.5, 0.5}, 0.05); iv.Low != 0.5 || iv.High != 0.5 {
		t.Errorf("equal values: got %+v, want the point 0.5", iv)
	}
}

// TestMeanBCaWorkers checks that the BCa bounds do not depend on the
// worker count, and the degenerate samples.
func TestMeanBCaWorkers(t *testing.T) {
	ctx := context.Background()
	x := []float64{0.1, 0.9, 0.35, 0.2, 0.6, 0.05, 0.7, 0.4, 0.3, 1}
	one, err := MeanBCa(ctx, x, WithSeed(7), WithWorkers(1), WithSamples(5000))
	if err != nil {
		t.Fatal(err)
	}
	three, err := MeanBCa(ctx, x, WithSeed(7), WithWorkers(3), WithSamples(5000))
	if err != nil {
		t.Fatal(err)
	}
	if one != three {
		t.Errorf("1 worker %+v, 3 workers %+v", one, three)
	}
	if !(one.Low < one.Mean && one.Mean < one.High) {
		t.Errorf("interval %+v does not hold the mean", one)
	}
	if iv, _ := MeanBCa(ctx, []float64{0.2, 0.2, 0.2}); iv.Low != iv.Mean || iv.High != iv.Mean || math.Abs(iv.Mean-0.2) > 1e-15 {
		t.Errorf("equal values: %+v", iv)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := MeanBCa(cctx, x); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}

// TestPowerByHand: with no effect, the two-sided test rejects with
// probability alpha whatever n; no number of topics detects it.
func TestPowerByHand(t *testing.T) {
	for _, n := range []float64{2, 10, 1000} {
		p, err := PairedTPower(0, n, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p-0.05) > 1e-12 {
			t.Errorf("n %v: power %v at effect 0, want alpha 0.05", n, p)
		}
	}
	if _, err := TopicsNeeded(0, 0.8, 0.05); !errors.Is(err, ErrNoEffect) {
		t.Errorf("effect 0: got %v", err)
	}
	// the power at the topic count found is the power asked for
	n, err := TopicsNeeded(0.5, 0.8, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := PairedTPower(0.5, n, 0.05); math.Abs(p-0.8) > 1e-10 {
		t.Errorf("power at n = %v is %v, want 0.8", n, p)
	}
	// statsmodels 0.15: TTestPower().solve_power(0.5, None, 0.05, 0.8) = 33.367...
	if math.Ceil(n) != 34 {
		t.Errorf("topics for d 0.5: %v, want 34", math.Ceil(n))
	}
}

// TestNoncentralTSmallTails checks both tails of NoncentralT, each
// computed on its own, against 80-digit values (mpmath 1.4.1, printed by
// parity/stats/nct_mpmath.py) down to 1e-86, where scipy's golden file
// stops at 1e-6: scipy's Boost code computes some small tails as 1 minus
// the other (its cdf at the 11th case is 4.2e-9 off relative). The first
// case is the upper tail that 1 - CDF got 2.75e-9 wrong relative.
func TestNoncentralTSmallTails(t *testing.T) {
	cases := []struct{ t, df, ncp, cdf, sf float64 }{
		{29.67, 999.0, 25.0, 0.99995065659313965, 4.9343406860345278e-5},
		{45.0, 999.0, 25.0, 1.0, 3.982336914960121e-47},
		{60.0, 5000.0, 40.0, 1.0, 1.0266215507959033e-66},
		{20.0, 5000.0, 40.0, 6.6329471517645466e-86, 1.0},
		{0.5, 10.0, -8.0, 0.99999999999999998, 1.5853465494831218e-17},
		{3.0, 2.0, -5.0, 0.99999999789266615, 2.107333847862958e-9},
		{0.8, 0.5, -2.0, 0.98943921611952555, 0.010560783880474447},
		{5.0, 1.0, -1.0, 0.98680045125174606, 0.013199548748253937},
		{-2.0, 29.0, 6.0, 4.8014633534906056e-15, 0.9999999999999952},
		{-9.56872774148163, 10.0, 9.774338355293011, 6.945652717600227e-35, 1.0},
		{-3.689436891072485, 5000.0, 1.6541141414711609, 4.6540995017738378e-8, 0.99999995345900498},
		{-44.094291402604405, 999.0, -25.028529076742494, 9.8078858834866203e-44, 1.0},
		{17.078285264423158, 3000.0, 4.276720473703875, 1.0, 3.5812494263175718e-36},
		{-1.730549107113296, 5.0, -13.645270970253982, 1.0, 2.7021495221597034e-24},
		{1.0, 1.0, 3.0, 0.033607638250824238, 0.96639236174917576},
		{-30.0, 2000.0, -33.0, 0.99666236791517291, 0.0033376320848270873},
	}
	for _, c := range cases {
		d := NoncentralT{Nu: c.df, Lambda: c.ncp}
		cdf, sf := d.CDF(c.t), d.Survival(c.t)
		if e := max(relErr(cdf, c.cdf), relErr(sf, c.sf)); e > 1e-10 {
			t.Errorf("t=%v df=%v ncp=%v: cdf %v sf %v, want %v %v (rel %.3g)", c.t, c.df, c.ncp, cdf, sf, c.cdf, c.sf, e)
		}
	}
}
