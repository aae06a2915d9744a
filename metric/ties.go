package metric

import (
	"math/rand/v2"
	"slices"
)

// rankKey is what the tie helpers need of a sort key.
type rankKey interface {
	index() int
	score() uint64
}

// The functions below give the exact expectation, over every uniformly
// random order of each run of equal scores, of the parts of the family's
// metrics that depend on the order. keys hold every valid item of a list,
// sorted; a run of equal scores is a tie group. A group of n items starting
// after a items puts each of its items at each of the positions a+1..a+n
// with probability 1/n. Terms of a group of one item are computed in T
// exactly as the other tie policies compute them, so that a list without
// ties gets the same bits under every policy.

// groupEnd returns the end of the run of equal scores that starts at g.
func groupEnd[K rankKey](keys []K, g int) int {
	e := g + 1
	for e < len(keys) && keys[e].score() == keys[g].score() {
		e++
	}
	return e
}

// expectedAPTerms writes into terms, over the first len(terms) positions,
// the expectation of precision times weight at each relevant item (label
// >= thr), as expectedTerms does for label >= 1.
func expectedAPTerms[K rankKey, T float32 | float64](keys []K, lab, w []T, thr T, terms []T, ftz func(T) T) {
	k := len(terms)
	a, c := 0, 0
	for g := 0; g < len(keys) && a < k; {
		e := groupEnd(keys, g)
		n, r, wr := e-g, 0, 0.0
		for _, key := range keys[g:e] {
			if i := key.index(); lab[i] >= thr {
				r++
				wr += float64(w[i])
			}
		}
		switch {
		case r == 0:
		case n == 1:
			terms[a] = ftz(T(T(c+1)/T(a+1)) * w[keys[g].index()])
		default:
			for j := 1; j <= min(n, k-a); j++ {
				ahead := float64(c) + float64(j-1)*float64(r-1)/float64(n-1)
				terms[a+j-1] = T(wr / float64(n) * (ahead + 1) / float64(a+j))
			}
		}
		a, c, g = a+n, c+r, e
	}
}

// expectedFirst returns the expected reciprocal rank of the first relevant
// item and the probability that one is ranked within the first k
// positions: MRR and hits, both 0 when no relevant item can be.
func expectedFirst[K rankKey, T float32 | float64](keys []K, lab []T, thr T, k int) (rr, hit T) {
	a := 0
	for g := 0; g < len(keys) && a < k; {
		e := groupEnd(keys, g)
		n, r := e-g, 0
		for _, key := range keys[g:e] {
			if lab[key.index()] >= thr {
				r++
			}
		}
		if r == 0 {
			a, g = a+n, e
			continue
		}
		if n == 1 {
			return 1 / T(a+1), 1
		}
		// P(the first relevant item of the group is its j-th) is
		// C(n-j, r-1)/C(n, r): r/n for j = 1, then times (n-j-r+1)/(n-j).
		var srr, shit float64
		p := float64(r) / float64(n)
		for j := 1; j <= n-r+1 && a+j <= k; j++ {
			srr += p / float64(a+j)
			shit += p
			p *= float64(n-j-r+1) / float64(n-j)
		}
		return T(srr), T(shit)
	}
	return 0, 0
}

// expectedCount returns the expected number of relevant items ranked
// within the first k positions.
func expectedCount[K rankKey, T float32 | float64](keys []K, lab []T, thr T, k int) T {
	a := 0
	var s float64
	for g := 0; g < len(keys) && a < k; {
		e := groupEnd(keys, g)
		n, r := e-g, 0
		for _, key := range keys[g:e] {
			if lab[key.index()] >= thr {
				r++
			}
		}
		if a+n <= k {
			s += float64(r)
		} else {
			s += float64(r) * float64(k-a) / float64(n)
		}
		a, g = a+n, e
	}
	return T(s)
}

// expectedGainTerms writes into terms, over the first len(terms)
// positions, the expectation of weight times gain times discount at each
// position: a tie group spreads the mean of its items' weight*gain over its
// positions. gains holds the gain of every slot.
func expectedGainTerms[K rankKey, T float32 | float64](keys []K, w, gains, disc, terms []T, ftz func(T) T) {
	k := len(terms)
	a := 0
	for g := 0; g < len(keys) && a < k; {
		e := groupEnd(keys, g)
		n := e - g
		if n == 1 {
			i := keys[g].index()
			terms[a] = ftz(ftz(w[i]*gains[i]) * disc[a])
		} else {
			var s float64
			for _, key := range keys[g:e] {
				i := key.index()
				s += float64(ftz(w[i] * gains[i]))
			}
			for j := range min(n, k-a) {
				terms[a+j] = T(s / float64(n) * float64(disc[a+j]))
			}
		}
		a, g = a+n, e
	}
}

// expectedARPTerms writes into pwl the expected weight*label at each
// position of the list times the position.
func expectedARPTerms[K rankKey, T float32 | float64](keys []K, lab, w, pwl []T, ftz func(T) T) {
	a := 0
	for g := 0; g < len(keys); {
		e := groupEnd(keys, g)
		n := e - g
		if n == 1 {
			i := keys[g].index()
			pwl[a] = ftz(T(a+1) * ftz(lab[i]*w[i]))
		} else {
			var s float64
			for _, key := range keys[g:e] {
				i := key.index()
				s += float64(ftz(lab[i] * w[i]))
			}
			for j := range n {
				pwl[a+j] = T(s / float64(n) * float64(a+j+1))
			}
		}
		a, g = a+n, e
	}
}

// sortDescending sorts xs from largest to smallest. xs holds no NaN. The
// weighted gains it sorts are few, and often equal, so an insertion sort
// serves up to 48 of them.
func sortDescending[T float32 | float64](xs []T) {
	if len(xs) <= 48 {
		for i := 1; i < len(xs); i++ {
			v := xs[i]
			j := i - 1
			for j >= 0 && xs[j] < v {
				xs[j+1] = xs[j]
				j--
			}
			xs[j+1] = v
		}
		return
	}
	slices.Sort(xs)
	slices.Reverse(xs)
}

// shuffleGroups puts every run of equal scores of sorted keys in a
// uniformly random order drawn from rng.
func shuffleGroups[K rankKey](keys []K, rng *rand.Rand) {
	for g := 0; g < len(keys); {
		e := groupEnd(keys, g)
		for i := e - 1; i > g; i-- {
			j := g + rng.IntN(i-g+1)
			keys[i], keys[j] = keys[j], keys[i]
		}
		g = e
	}
}

// expectedTopSum returns the expectation of the sum of val over the items
// ranked within the first k positions.
func expectedTopSum[K rankKey, T float32 | float64](keys []K, val []T, k int) T {
	a := 0
	var s float64
	for g := 0; g < len(keys) && a < k; {
		e := groupEnd(keys, g)
		n := e - g
		var gs float64
		for _, key := range keys[g:e] {
			gs += float64(val[key.index()])
		}
		if a+n <= k {
			s += gs
		} else {
			s += gs * float64(k-a) / float64(n)
		}
		a, g = a+n, e
	}
	return T(s)
}
