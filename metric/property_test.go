package metric

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

var allPolicies = []TiePolicy{Random, Stable, Pessimistic, Optimistic, Expected}

func TestPropertyAPInUnitInterval(t *testing.T) {
	for _, tc := range randomBatches(300, 21) {
		for _, d := range []DType{Float32, Float64} {
			for _, p := range allPolicies {
				pl := computeCase(t, tc, d, p)
				for b, v := range pl.Values {
					// float32 rounding can lift AP a few ulps above 1, in TF too:
					// its numerator and denominator add in different lanes.
					if !(v >= 0 && v <= 1+4e-7) || !(pl.Weights[b] >= 0) {
						t.Fatalf("%s %s list %d: ap %v, weight %v", d, p, b, v, pl.Weights[b])
					}
				}
			}
		}
	}
}

// TestPropertyPermutationInvariance: reordering the items of lists whose
// valid scores are distinct changes no AP (beyond the rounding of the
// weighted relevance, which TF sums in slot order).
func TestPropertyPermutationInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		n := 1 + rng.IntN(30)
		lab, sc, w := make([]float64, n), make([]float64, n), make([]float64, n)
		for i, s := range rng.Perm(n) {
			lab[i] = float64(rng.IntN(5)) - 1
			sc[i] = float64(s) + 0.25
			w[i] = 0.5 + rng.Float64()
		}
		perm := rng.Perm(n)
		plab, psc, pw := make([]float64, n), make([]float64, n), make([]float64, n)
		for i, j := range perm {
			plab[i], psc[i], pw[i] = lab[j], sc[j], w[j]
		}
		for _, d := range []DType{Float32, Float64} {
			for _, p := range allPolicies {
				a := computeCase(t, refCase{labels: [][]float64{lab}, preds: [][]float64{sc}, weights: [][]float64{w}, topn: 5}, d, p)
				b := computeCase(t, refCase{labels: [][]float64{plab}, preds: [][]float64{psc}, weights: [][]float64{pw}, topn: 5}, d, p)
				if math.Abs(a.Values[0]-b.Values[0]) > 1e-6 || math.Abs(a.Weights[0]-b.Weights[0]) > 1e-5 {
					t.Fatalf("%s %s: %v vs permuted %v", d, p, a, b)
				}
			}
		}
	}
}

// permutations calls f with every permutation of 0..n-1.
func permutations(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

// tieLists returns random short lists of at most maxN items with many
// ties, with weights when weighted.
func tieLists(count, maxN int, seed uint64, weighted bool) []refCase {
	rng := rand.New(rand.NewPCG(seed, 3))
	out := make([]refCase, count)
	for c := range out {
		n := 1 + rng.IntN(maxN)
		lab, sc, w := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			lab[i] = []float64{0, 1, 2, -1}[rng.IntN(4)]
			sc[i] = float64(rng.IntN(3))
			w[i] = 1
			if weighted {
				w[i] = []float64{1, 0.5, 2, 3}[rng.IntN(4)]
			}
		}
		out[c] = refCase{labels: [][]float64{lab}, preds: [][]float64{sc}, weights: [][]float64{w}, topn: []int{NoTopN, 1, 2, 4}[rng.IntN(4)]}
	}
	return out
}

// orderValues returns the AP of list tc under every order of its items,
// each ranked with the Stable policy, so that ties fall in that order.
func orderValues(t *testing.T, tc refCase) []float64 {
	n := len(tc.labels[0])
	var out []float64
	permutations(n, func(p []int) {
		pc := tc
		pc.labels = [][]float64{make([]float64, n)}
		pc.preds = [][]float64{make([]float64, n)}
		pc.weights = [][]float64{make([]float64, n)}
		for i, j := range p {
			pc.labels[0][i], pc.preds[0][i], pc.weights[0][i] = tc.labels[0][j], tc.preds[0][j], tc.weights[0][j]
		}
		out = append(out, computeCase(t, pc, Float64, Stable).Values[0])
	})
	return out
}

// TestPropertyExpectedIsTheMeanOverTieOrders enumerates every order of the
// items and checks that Expected equals the mean AP over them. With equal
// weights, Pessimistic and Optimistic are the least and the greatest AP.
// (With unequal weights among tied relevant items they are not: both keep
// such items in input order.)
func TestPropertyExpectedIsTheMeanOverTieOrders(t *testing.T) {
	for _, weighted := range []bool{false, true} {
		for _, tc := range tieLists(300, 7, 5, weighted) {
			vals := orderValues(t, tc)
			var sum float64
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, v := range vals {
				sum += v
				lo, hi = min(lo, v), max(hi, v)
			}
			mean := sum / float64(len(vals))
			got := computeCase(t, tc, Float64, Expected).Values[0]
			if math.Abs(got-mean) > 1e-12 {
				t.Fatalf("Expected %v, mean over %d orders %v; case %+v", got, len(vals), mean, tc)
			}
			if weighted {
				continue
			}
			pess := computeCase(t, tc, Float64, Pessimistic).Values[0]
			opt := computeCase(t, tc, Float64, Optimistic).Values[0]
			if math.Abs(pess-lo) > 1e-12 || math.Abs(opt-hi) > 1e-12 || pess > got+1e-12 || got > opt+1e-12 {
				t.Fatalf("pessimistic %v (min %v) <= expected %v <= optimistic %v (max %v) fails; case %+v", pess, lo, got, opt, hi, tc)
			}
		}
	}
}

// TestPropertyRandomConvergesToExpected runs the Random policy under many
// seeds: its mean lies within 4 standard errors of Expected, and each value
// is one that some order gives.
func TestPropertyRandomConvergesToExpected(t *testing.T) {
	const seeds = 2000
	for _, tc := range tieLists(30, 6, 9, true) {
		want := computeCase(t, tc, Float64, Expected).Values[0]
		possible := orderValues(t, tc)
		labels, preds, w := caseInputs(t, tc)
		var sum, sq float64
		for s := range uint64(seeds) {
			m, _ := NewMeanAveragePrecision(WithDType(Float64), WithSeed(s), WithTopN(max(tc.topn, 0)))
			if tc.topn == NoTopN {
				m, _ = NewMeanAveragePrecision(WithDType(Float64), WithSeed(s))
			}
			pl, err := m.Compute(labels, preds, w)
			if err != nil {
				t.Fatal(err)
			}
			v := pl.Values[0]
			if !slices.ContainsFunc(possible, func(x float64) bool { return math.Abs(x-v) <= 1e-12 }) {
				t.Fatalf("random value %v is not the AP of any order; case %+v", v, tc)
			}
			sum += v
			sq += v * v
		}
		mean := sum / seeds
		se := math.Sqrt(max(sq/seeds-mean*mean, 0) / seeds)
		if math.Abs(mean-want) > 4*se+1e-12 {
			t.Fatalf("random mean %v, expected %v, 4 SE = %v; case %+v", mean, want, 4*se, tc)
		}
	}
}

// TestPropertyMergeEqualsOneMetric splits a stream of batches over several
// metrics at random and merges them: to the bit under Exact accumulation
// (the float64 default), within rounding under Sequential.
func TestPropertyMergeEqualsOneMetric(t *testing.T) {
	var tcs []refCase
	for _, tc := range randomBatches(200, 13) {
		if !tc.ragged {
			tcs = append(tcs, tc)
		}
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for _, mode := range []struct {
		d   DType
		acc Accumulation
		tol float64
	}{{Float32, Sequential, 1e-5}, {Float32, Exact, 0}, {Float64, DefaultAccumulation, 0}, {Float64, Sequential, 1e-12}} {
		opts := []Option{WithDType(mode.d), WithTies(Stable), WithAccumulation(mode.acc)}
		for trial := range 20 {
			one, _ := NewMeanAveragePrecision(opts...)
			parts := make([]*MeanAveragePrecision, 1+rng.IntN(5))
			for i := range parts {
				parts[i], _ = NewMeanAveragePrecision(append(opts, WithName("part"))...)
			}
			for _, tc := range tcs {
				l, p, w := caseInputs(t, tc)
				if err := one.Update(l, p, w); err != nil {
					t.Fatal(err)
				}
				if err := parts[rng.IntN(len(parts))].Update(l, p, w); err != nil {
					t.Fatal(err)
				}
			}
			rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
			merged, _ := NewMeanAveragePrecision(opts...)
			if err := merged.Merge(parts...); err != nil {
				t.Fatal(err)
			}
			got, want := merged.Result(), one.Result()
			if mode.tol == 0 && math.Float64bits(got) != math.Float64bits(want) || math.Abs(got-want) > mode.tol*math.Abs(want) {
				t.Fatalf("%s %s trial %d: merged %v, one metric %v", mode.d, mode.acc, trial, got, want)
			}
		}
	}
	a, _ := NewMeanAveragePrecision(WithTopN(3))
	b, _ := NewMeanAveragePrecision(WithTopN(4))
	if err := a.Merge(b); err == nil {
		t.Fatal("merging topn 3 with topn 4 gave no error")
	}
	c, _ := NewMeanAveragePrecision(WithAccumulation(Exact))
	if err := a.Merge(c); err == nil {
		t.Fatal("merging sequential with exact accumulation gave no error")
	}
	if err := a.Merge(a); err != nil {
		t.Fatalf("merging a metric with itself: %v", err)
	}
}

// TestConcurrentUpdates updates one metric from several goroutines; the
// count is exact whatever the order.
func TestConcurrentUpdates(t *testing.T) {
	m, _ := NewMeanAveragePrecision(WithDType(Float64), WithTies(Expected))
	labels, _ := tensor.DenseRows([][]float64{{1, 0, 1}, {0, 0, 0}})
	preds, _ := tensor.DenseRows([][]float64{{3, 2, 1}, {1, 2, 3}})
	const workers, each = 8, 50
	done := make(chan error)
	for range workers {
		go func() {
			var err error
			for range each {
				if err = m.Update(labels, preds, tensor.Weights{}); err != nil {
					break
				}
			}
			done <- err
		}()
	}
	for range workers {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	s := m.State()
	if s.Count != 2*workers*each {
		t.Fatalf("count %v, want %d", s.Count, 2*workers*each)
	}
	if got, want := m.Result(), (1+2.0/3)/2/2; math.Abs(got-want) > 1e-12 {
		t.Fatalf("result %v, want %v", got, want)
	}
}
