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
