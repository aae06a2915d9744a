package metric

import (
	"math"
	"testing"
)

// FuzzFamilyUpdate decodes a batch and a metric from the fuzzer's bytes,
// checks that nothing panics and, under the Stable policy, that the kernel
// gives the reference's per-list values bit for bit.
func FuzzFamilyUpdate(f *testing.F) {
	f.Add([]byte{6, 3, 1, 0, 4, 2, 9, 1, 0, 7, 3, 5, 2, 8, 1})
	f.Add([]byte{0, 255, 0, 1, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{8, 2, 1, 2, 2, 0, 0, 200, 100, 3, 1, 1, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		kind := Kind(next() % byte(KindOPA+1))
		topn := int(next()%7) - 1
		flags := next()
		n := int(next() % 12)
		tc := refCase{ragged: flags&1 != 0, f32Storage: flags&2 != 0, topn: topn}
		labelSet := []float64{-1, 0, 0.5, 1, 2, 3, math.NaN(), 0x1p-140}
		scoreSet := []float64{0, 1, 1, 2, -1, math.Inf(1), math.Inf(-1), 0x1p-130}
		weightSet := []float64{1, 0, -1, 0.5, 2, 0x1p-135}
		for b := range 1 + int(flags>>2&3) {
			m := n
			if tc.ragged {
				m = int(next()) % (n + 1)
			}
			lab, sc, w := make([]float64, m), make([]float64, m), make([]float64, m)
			for i := range m {
				x := next()
				lab[i], sc[i], w[i] = labelSet[x%8], scoreSet[x/8%8], weightSet[int(x)/64%6]
			}
			tc.labels, tc.preds = append(tc.labels, lab), append(tc.preds, sc)
			if flags&16 != 0 {
				tc.weights = append(tc.weights, w)
			} else if flags&32 != 0 {
				tc.perList = append(tc.perList, weightSet[b%6])
			}
		}
		s := DefaultConfig(kind)
		if kind.takesTopN() {
			s.TopN = topn
		} else {
			tc.topn = NoTopN
		}
		s.Ties, s.Ragged = Stable, tc.ragged
		if flags&64 != 0 {
			s.DType = Float64
		}
		for _, ties := range []TiePolicy{Stable, Random, Expected, Pessimistic} {
			s.Ties = ties
			got, err := famCompute(t, tc, s)
			if err != nil || ties != Stable {
				continue
			}
			var want PerList
			var bad bool
			if s.DType == Float32 {
				want, bad = refFamily[float32](tc, refSpecOf(s), refOrders[float32](tc, Stable, 1))
			} else {
				want, bad = refFamily[float64](tc, refSpecOf(s), refOrders[float64](tc, Stable, 1))
			}
			if bad {
				t.Fatalf("%s: the kernel answered where the reference fails\n%+v", s.describe(), tc)
			}
			for b := range want.Values {
				if !sameBits(got.Values[b], want.Values[b]) || !sameBits(got.Weights[b], want.Weights[b]) {
					t.Fatalf("%s list %d: (%v, %v), reference (%v, %v)\n%+v", s.describe(), b,
						got.Values[b], got.Weights[b], want.Values[b], want.Weights[b], tc)
				}
			}
		}
	})
}
