package significance

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkRandomization: one pair of 10,000 queries, 10,000 sign-flip
// samples, on one worker.
func BenchmarkRandomization(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	d := make([]float64, 10000)
	for i := range d {
		d[i] = rng.NormFloat64() * 0.1
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Randomization(context.Background(), d, WithSamples(10000), WithWorkers(1)); err != nil {
			b.Fatal(err)
		}
	}
}
