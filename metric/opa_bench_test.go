package metric

import (
	"fmt"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// BenchmarkOPALongList times OPA of one list of L items: "pairs" is the
// O(L²) loop the kernels ran past opaMaxTerms (oldLongOPA), the baseline;
// "update" is an Update of the metric, with O(L log L) pair sums. The
// baseline at 2,000,000 items takes about an hour and is left out.
//
//	go test ./metric -run '^$' -bench OPALongList -benchtime 1x
func BenchmarkOPALongList(b *testing.B) {
	for _, m := range []int{100_000, 2_000_000} {
		labels, preds := longOPAList(m)
		if m <= 100_000 {
			b.Run(fmt.Sprintf("pairs/%d", m), func(b *testing.B) {
				lab, sc := labels.Row32(0, nil), preds.Row32(0, nil)
				w := make([]float32, m)
				for i := range w {
					w[i] = 1
				}
				for b.Loop() {
					_ = oldLongOPA(lab, sc, w)
				}
			})
		}
		b.Run(fmt.Sprintf("update/%d", m), func(b *testing.B) {
			opa, err := NewOPA(WithTies(Stable))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := opa.Update(labels, preds, tensor.Weights{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
