package metric

import (
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// BenchmarkProfileUpdate measures a steady-state Update of each profile's
// NDCG@5 on 32 lists of 20 items, which must not allocate.
func BenchmarkProfileUpdate(b *testing.B) {
	const bsz, n = 32, 20
	lab, sc := make([]float32, bsz*n), make([]float32, bsz*n)
	for i := range lab {
		lab[i] = float32(i * 7 % 3)
		sc[i] = float32(i*13%17) / 4
	}
	labels, _ := tensor.Dense(lab, bsz, n)
	preds, _ := tensor.Dense(sc, bsz, n)
	for _, p := range []Profile{ProfileKerasRS, ProfileTorchmetrics} {
		b.Run(p.String(), func(b *testing.B) {
			m, err := NewNDCG(WithProfile(p), WithTopN(5), WithTies(Stable))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := m.Update(labels, preds, tensor.Weights{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
