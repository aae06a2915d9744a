package ltrdata

import "math"

// rng is a small deterministic generator (SplitMix64) private to one
// Generate call. The standard library's generators are not used so that the
// data cannot change with a Go release.
type rng struct{ state uint64 }

func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float64 returns a uniform value in [0, 1).
func (r *rng) float64() float64 { return float64(r.next()>>11) / (1 << 53) }

// intn returns a uniform value in [0, n) for 0 < n < 2^31 (multiply-shift;
// the bias is below n/2^32, negligible for the small n used here).
func (r *rng) intn(n int) int {
	return int((r.next() >> 32) * uint64(n) >> 32)
}

// normal returns a standard normal value (Box–Muller, one value per call).
func (r *rng) normal() float64 {
	u1 := 1 - r.float64() // (0, 1]
	u2 := r.float64()
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}
