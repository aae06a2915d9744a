package metric

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// benchBatch returns a dense batch of bsz lists of n items shaped like the
// bench data of issue 5: about 10% relevant, scores label*0.6 + noise
// rounded to 3 decimals, so some scores tie.
func benchBatch(bsz, n int) (labels, scores []float32) {
	rng := rand.New(rand.NewPCG(1, 1))
	labels, scores = make([]float32, bsz*n), make([]float32, bsz*n)
	for b := range bsz {
		rate := 0.2 * rng.Float64()
		for i := range n {
			j := b*n + i
			if rng.Float64() < rate {
				labels[j] = float32(1 + rng.IntN(4))
			}
			scores[j] = float32(math.Round((float64(labels[j])*0.6+rng.NormFloat64())*1000) / 1000)
		}
	}
	return labels, scores
}

func BenchmarkUpdate(b *testing.B) {
	const bsz, n = 1024, 100
	lab, sc := benchBatch(bsz, n)
	labels, _ := tensor.Dense(lab, bsz, n)
	scores, _ := tensor.Dense(sc, bsz, n)
	for _, d := range []DType{Float32, Float64} {
		for _, topn := range []int{NoTopN, 10} {
			for _, p := range allPolicies {
				name := fmt.Sprintf("%s/topn=%d/%s", d, topn, p)
				b.Run(name, func(b *testing.B) {
					opts := []Option{WithDType(d), WithTies(p)}
					if topn != NoTopN {
						opts = append(opts, WithTopN(topn))
					}
					m, _ := NewMeanAveragePrecision(opts...)
					b.ReportAllocs()
					for b.Loop() {
						if err := m.Update(labels, scores, tensor.Weights{}); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*bsz*n), "ns/item")
				})
			}
		}
	}
}

// BenchmarkSortFloor is the baseline to quote the kernels against, measured
// in the same run: packing each list's keys and sorting them with
// slices.Sort, then one pass for AP, as the shared floor program does.
func BenchmarkSortFloor(b *testing.B) {
	const bsz, n = 1024, 100
	lab, sc := benchBatch(bsz, n)
	keys := make([]uint64, n)
	b.ReportAllocs()
	var sink float64
	for b.Loop() {
		for q := range bsz {
			l, s := lab[q*n:(q+1)*n], sc[q*n:(q+1)*n]
			r := 0
			for i := range n {
				keys[i] = uint64(makeKey32(s[i], uint32(i)))
				if l[i] >= 1 {
					r++
				}
			}
			if r == 0 {
				continue
			}
			slices.Sort(keys)
			hits, sum := 0, 0.0
			for k, key := range keys {
				if l[uint32(key)] >= 1 {
					hits++
					sum += float64(hits) / float64(k+1)
				}
			}
			sink += sum / float64(r)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*bsz*n), "ns/item")
	_ = sink
}
