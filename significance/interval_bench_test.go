package significance

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkMeanBCa1000x10k is the cost of --ci bootstrap per measure: 1,000
// resamples of 10,000 queries (one worker).
func BenchmarkMeanBCa1000x10k(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 10000)
	for i := range x {
		x[i] = rng.Float64()
	}
	for b.Loop() {
		if _, err := MeanBCa(context.Background(), x, WithSamples(1000), WithWorkers(1)); err != nil {
			b.Fatal(err)
		}
	}
}
