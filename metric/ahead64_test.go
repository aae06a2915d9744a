package metric

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// score64s are float64 scores with many ties and the values whose keys are
// special: zeros of both signs (one key), infinities, subnormals and the
// extremes of the finite range.
var score64s = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 2, math.Inf(1), math.Inf(-1),
	5e-324, -5e-324, 0x1p-1022, math.MaxFloat64, -math.MaxFloat64, math.Nextafter(1, 2),
}

// testKeys64 returns nr relevant keys, sorted, and no other keys, with
// scores from score64s and tie-break bits by policy p, the relevant items
// at random slots.
func testKeys64(rng *rand.Rand, nr, no int, p TiePolicy) (rel, oth []key64) {
	isRel := make([]bool, nr+no)
	for i := range nr {
		isRel[i] = true
	}
	rng.Shuffle(len(isRel), func(i, j int) { isRel[i], isRel[j] = isRel[j], isRel[i] })
	few := 1 + rng.IntN(len(score64s))
	for i, r := range isRel {
		k := makeKey64(score64s[rng.IntN(few)], tieBits(p, r, i))
		if r {
			rel = append(rel, k)
		} else {
			oth = append(oth, k)
		}
	}
	slices.SortFunc(rel, compareKey64)
	return rel, oth
}

// TestCountAhead64 checks countAhead64, vector path included, against a
// binary search per key, under each ungrouped policy.
func TestCountAhead64(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 7))
	for _, p := range []TiePolicy{Stable, Pessimistic, Optimistic} {
		for nr := 0; nr <= vecPivots+4; nr++ {
			for _, no := range []int{0, 1, 3, 4, 5, 90, 301} {
				rel, oth := testKeys64(rng, nr, no, p)
				want, got := make([]int, nr+1), make([]int, nr+1)
				for _, k := range oth {
					want[lowerBoundFloat64(rel, k)]++
				}
				countAhead64(rel, oth, got)
				if !slices.Equal(got, want) {
					t.Fatalf("policy %v nr=%d no=%d: %v, want %v", p, nr, no, got, want)
				}
			}
		}
	}
}

// TestCountTied64 checks countTied64, vector path included, against the
// binary search per key it replaces.
func TestCountTied64(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 8))
	for nr := 0; nr <= vecPivots+4; nr++ {
		for _, no := range []int{0, 1, 3, 4, 5, 90, 301} {
			rel, oth := testKeys64(rng, nr, no, Stable)
			ends := append(rel, sentinel64)
			wantA, wantT := make([]int, nr+1), make([]int, nr+1)
			for _, k := range oth {
				p := lowerBoundFloat64(rel, k.floor())
				if ends[p].score() == k.score() {
					wantT[p]++
				} else {
					wantA[p]++
				}
			}
			gotA, gotT := make([]int, nr+1), make([]int, nr+1)
			countTied64(ends, oth, gotA, gotT)
			if !slices.Equal(gotA, wantA) || !slices.Equal(gotT, wantT) {
				t.Fatalf("nr=%d no=%d: ahead %v tied %v, want %v %v", nr, no, gotA, gotT, wantA, wantT)
			}
		}
	}
}

// TestSorter64 checks sorter64, rank sort included, against a comparison
// sort on distinct keys with many ties of score.
func TestSorter64(t *testing.T) {
	var s sorter64
	rng := rand.New(rand.NewPCG(14, 9))
	for _, p := range []TiePolicy{Stable, Pessimistic, Optimistic} {
		for n := 0; n <= vecPivots+4; n++ {
			for range 20 {
				rel, oth := testKeys64(rng, 0, n, p)
				keys := append(rel, oth...)
				for i := range keys {
					if rng.IntN(2) == 0 {
						keys[i].tb |= 1 << 31 // as a relevant item's, under Pessimistic
					}
				}
				rng.Shuffle(n, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
				want := slices.Clone(keys)
				slices.SortFunc(want, compareKey64)
				s.sort(keys)
				if !slices.Equal(keys, want) {
					t.Fatalf("policy %v n=%d: %x, want %x", p, n, keys, want)
				}
			}
		}
	}
}

// TestLowerBoundFloat64 checks the branch-free search against a linear count
// on keys whose tie-breaks decide.
func TestLowerBoundFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 10))
	for n := range 40 {
		rel, oth := testKeys64(rng, n, 30, Pessimistic)
		for _, k := range append(append(oth, rel...), sentinel64, key64{}) {
			want := 0
			for _, r := range rel {
				if compareKey64(r, k) < 0 {
					want++
				}
			}
			if got := lowerBoundFloat64(rel, k); got != want {
				t.Fatalf("n=%d key %x: %d, want %d", n, k, got, want)
			}
		}
	}
}

func TestAhead64ZeroAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 11))
	rel, oth := testKeys64(rng, 10, 90, Stable)
	ends := append(rel, sentinel64)
	ahead, tied := make([]int, 11), make([]int, 11)
	keys := slices.Clone(oth[:20])
	var s sorter64
	if a := testing.AllocsPerRun(10, func() {
		clear(ahead)
		countAhead64(rel, oth, ahead)
		clear(ahead)
		clear(tied)
		countTied64(ends, oth, ahead, tied)
		s.sort(keys)
	}); a != 0 {
		t.Errorf("%v allocations, want 0", a)
	}
}
