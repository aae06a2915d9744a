package metric

import "math/rand/v2"

// keyer is what the tie helpers need of a sort key.
type keyer interface {
	index() int
	score() uint64
}

// shuffleTies puts every run of equal scores in sorted keys in a uniformly
// random order, drawn from rng: the order TF-Ranking's random tie-break
// gives.
func shuffleTies[K keyer](keys []K, rng *rand.Rand) {
	for g := 0; g < len(keys); {
		e := g + 1
		for e < len(keys) && keys[e].score() == keys[g].score() {
			e++
		}
		for i := e - 1; i > g; i-- {
			j := g + rng.IntN(i-g+1)
			keys[i], keys[j] = keys[j], keys[i]
		}
		g = e
	}
}

// expectedPrecisionSum returns the expectation, over every uniformly random
// order of each run of equal scores in sorted keys, of the sum over the
// first k positions of precision times weight at each relevant item: the
// AP numerator. Dividing by the weighted relevance gives the expected AP.
//
// A tie group of n items, r of them relevant, after a items of which c are
// relevant, puts each relevant item at group position j with probability
// 1/n, with (j-1)(r-1)/(n-1) other relevant items of the group ahead of it
// on average. See tie_expectation.md in the shared parity notes.
func expectedPrecisionSum[K keyer, T float32 | float64](keys []K, lab, w []T, k int) float64 {
	var sum float64
	a, c := 0, 0
	for g := 0; g < len(keys) && a < k; {
		e := g + 1
		for e < len(keys) && keys[e].score() == keys[g].score() {
			e++
		}
		n, r, wr := e-g, 0, 0.0
		for _, key := range keys[g:e] {
			if i := key.index(); lab[i] >= 1 {
				r++
				wr += float64(w[i])
			}
		}
		if r > 0 {
			var s float64
			for j := 1; j <= min(n, k-a); j++ {
				ahead := float64(c)
				if n > 1 {
					ahead += float64(j-1) * float64(r-1) / float64(n-1)
				}
				s += (ahead + 1) / float64(a+j)
			}
			sum += wr * s / float64(n)
		}
		a, c, g = a+n, c+r, e
	}
	return sum
}
