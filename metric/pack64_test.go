package metric

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPack64MatchesLoop checks, bit for bit, that the float64 MAP kernel
// computes the same values, list weights and errors with the vector masking
// kernel (packVec) as with the Go loop (goLoops), under every tie policy, on
// packBatches with some labels and scores made the values whose float64
// masks and keys are special: ±0 labels, the least subnormals of both signs,
// and subnormal scores, which float64 mode does not flush.
func TestPack64MatchesLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(64, 14))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 0x1p-1022 - 5e-324, 1, math.Nextafter(1, 0)}
	n := 0
	for ci, tc := range packBatches(4) {
		for _, list := range append(tc.labels, tc.preds...) {
			for i := range list {
				if rng.IntN(4) == 0 {
					list[i] = special[rng.IntN(len(special))]
				}
			}
		}
		tc.f32Storage = false
		for _, ties := range allPolicies {
			opts := []Option{WithDType(Float64), WithTies(ties), WithRagged(tc.ragged), WithSeed(uint64(ci))}
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
				m.ws64.goLoops = loops
				labels, preds, w := caseInputs(t, tc)
				res[k], errs[k] = m.Compute(labels, preds, w)
			}
			if !samePerList(res[1], res[0], errs[1], errs[0]) {
				t.Fatalf("case %d MAP %s: vector %v (%v), loop %v (%v)\n%+v", ci, ties, res[1], errs[1], res[0], errs[0], tc)
			}
			n++
		}
	}
	if n < 1000 {
		t.Fatalf("only %d comparisons ran", n)
	}
}
