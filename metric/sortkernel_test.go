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

// expectedTerms writes into terms, position by position over the first
// len(terms) positions, the expectation of precision times weight at each
// relevant item, over every uniformly random order of each run of equal
// scores in sorted keys. Their sum is the expected AP numerator; dividing by
// the weighted relevance gives the expected AP.
//
// A tie group of n items, r of them relevant, after a items of which c are
// relevant, puts each relevant item at group position j with probability
// 1/n, with (j-1)(r-1)/(n-1) other relevant items of the group ahead of it
// on average (tie_expectation.md in the shared parity notes). An untied
// item's term is computed in T exactly as the other policies compute it, so
// a list without ties gets the same bits under every policy.
func expectedTerms[K keyer, T float32 | float64](keys []K, lab, w, terms []T) {
	k := len(terms)
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
		switch {
		case r == 0:
		case n == 1:
			terms[a] = T(T(c+1)/T(a+1)) * w[keys[g].index()]
		default:
			for j := 1; j <= min(n, k-a); j++ {
				ahead := float64(c) + float64(j-1)*float64(r-1)/float64(n-1)
				terms[a+j-1] = T(wr / float64(n) * (ahead + 1) / float64(a+j))
			}
		}
		a, c, g = a+n, c+r, e
	}
}
