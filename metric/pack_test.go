package metric

import (
	"math"
	"math/rand/v2"
	"testing"
)

// packBatches returns random batches for the masking kernels: lists of every
// length up to 300 and a few longer, labels that are -1, NaN, ±0, subnormal,
// 0.5, 1 or 2, scores with ±0, subnormals, ±Inf, ties and, in some batches,
// NaNs, under no weights, per-list weights (some <= 0) and per-item weights.
func packBatches(seed uint64) []refCase {
	rng := rand.New(rand.NewPCG(seed, 14))
	sub := float64(math.Float32frombits(3))
	labelSet := []float64{-1, math.NaN(), 0, math.Copysign(0, -1), sub, -sub, 0.5, 1, 1, 2, 0, 0}
	scoreSet := []float64{0, math.Copysign(0, -1), sub, -sub, 0x1p-126, math.Inf(1), math.Inf(-1), 0.25, -0.25, 1, 3}
	weightSet := []float64{1, 1, 1, 0.3, 2, 0, -1}
	var out []refCase
	for n := 0; n <= 330; n++ {
		if n > 300 && n%7 != 0 {
			continue
		}
		tc := refCase{ragged: rng.IntN(2) == 0, f32Storage: rng.IntN(2) == 0, topn: []int{NoTopN, 0, 3, n}[rng.IntN(4)]}
		nan := rng.IntN(4) == 0
		for range 1 + rng.IntN(3) {
			m := n
			if tc.ragged {
				m = rng.IntN(n + 1)
			}
			lab, sc, w := make([]float64, m), make([]float64, m), make([]float64, m)
			for i := range m {
				lab[i] = labelSet[rng.IntN(len(labelSet))]
				if rng.IntN(2) == 0 {
					sc[i] = scoreSet[rng.IntN(len(scoreSet))]
				} else {
					sc[i] = rng.NormFloat64()
				}
				if nan && rng.IntN(3*m) == 0 {
					sc[i] = math.NaN()
				}
				w[i] = weightSet[rng.IntN(len(weightSet))]
			}
			tc.labels, tc.preds = append(tc.labels, lab), append(tc.preds, sc)
			switch n % 5 {
			case 1:
				tc.weights = append(tc.weights, w)
			case 2, 3:
				tc.perList = append(tc.perList, weightSet[rng.IntN(len(weightSet))])
			}
		}
		out = append(out, tc)
	}
	return out
}

// samePerList reports whether two computations agree bit for bit, errors
// included.
func samePerList(a, b PerList, ea, eb error) bool {
	if (ea == nil) != (eb == nil) || ea != nil && ea.Error() != eb.Error() {
		return false
	}
	if len(a.Values) != len(b.Values) || len(a.Weights) != len(b.Weights) {
		return false
	}
	for i := range a.Values {
		if !sameBits(a.Values[i], b.Values[i]) || !sameBits(a.Weights[i], b.Weights[i]) {
			return false
		}
	}
	return true
}

// checkPackMatchesLoop checks, bit for bit, that the kernels of dtype d
// compute the same values, list weights and errors with the vector masking
// kernel (packVec) as with the Go loop, for every metric of the family and
// the MeanAveragePrecision kernel, under every tie policy.
func checkPackMatchesLoop(t *testing.T, d DType) {
	// computeWith is famCompute with the Go masking loops forced or not.
	computeWith := func(tc refCase, s Config, loops bool) (PerList, error) {
		s.Ragged = tc.ragged
		m, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		f := m.(interface{ fam() *family }).fam()
		f.ws32.goLoops, f.ws64.goLoops = loops, loops
		labels, preds, w := caseInputs(t, tc)
		return m.Compute(labels, preds, w)
	}
	n := 0
	for ci, tc := range packBatches(3) {
		specs := famTestSpecs(t, tc.topn)
		for _, ties := range allPolicies {
			for _, s := range specs {
				if ties == Expected && s.Kind == KindMAP && s.Convention == RetrievedRelevant {
					continue
				}
				s.DType, s.Ties, s.Seed = d, ties, uint64(ci)
				want, werr := computeWith(tc, s, true)
				got, err := computeWith(tc, s, false)
				if !samePerList(got, want, err, werr) {
					t.Fatalf("case %d %s %s: vector %v (%v), loop %v (%v)\n%+v", ci, s.Name, ties, got, err, want, werr, tc)
				}
				n++
			}
			opts := []Option{WithDType(d), WithTies(ties), WithRagged(tc.ragged), WithSeed(uint64(ci))}
			if tc.topn != NoTopN {
				opts = append(opts, WithTopN(tc.topn))
			}
			var res [2]PerList
			var errs [2]error
			for k, loops := range []bool{true, false} {
				m, err := NewMeanAveragePrecision(opts...)
				if err != nil {
					t.Fatal(err)
				}
				m.ws32.goLoops, m.ws64.goLoops = loops, loops
				labels, preds, w := caseInputs(t, tc)
				res[k], errs[k] = m.Compute(labels, preds, w)
			}
			if !samePerList(res[1], res[0], errs[1], errs[0]) {
				t.Fatalf("case %d MAP %s: vector %v (%v), loop %v (%v)\n%+v", ci, ties, res[1], errs[1], res[0], errs[0], tc)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d comparisons ran", n)
	}
}
