package metric

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// testKeys returns nr relevant keys, sorted, and no other keys, key(i) for
// item i.
func testKeys(nr, no int, key func(i int) key32) (rel, oth []key32) {
	rel, oth = make([]key32, nr), make([]key32, no)
	for i := range rel {
		rel[i] = key(i)
	}
	for i := range oth {
		oth[i] = key(nr + i)
	}
	slices.Sort(rel)
	return rel, oth
}

// TestCountAhead32 checks countAhead32, vector path included, against a
// binary search per key, on keys with many ties of score.
func TestCountAhead32(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 3))
	for nr := 0; nr <= vecPivots+4; nr++ {
		for _, no := range []int{0, 1, 3, 4, 5, 90, 301} {
			rel, oth := testKeys(nr, no, func(i int) key32 {
				return makeKey32(float32(rng.IntN(16))-8, tieBits(Pessimistic, rng.IntN(2) == 0, i))
			})
			want, got := make([]int, nr+1), make([]int, nr+1)
			for _, k := range oth {
				want[lowerBoundFloat32(rel, k)]++
			}
			countAhead32(rel, oth, got)
			if !slices.Equal(got, want) {
				t.Fatalf("nr=%d no=%d: %v, want %v", nr, no, got, want)
			}
		}
	}
}

// BenchmarkCountAhead32 compares countAhead32 with the binary search per key
// it replaces, on lists of 100 keys with nr relevant ones.
func BenchmarkCountAhead32(b *testing.B) {
	rng := rand.New(rand.NewPCG(14, 4))
	for _, nr := range []int{1, 4, 10, 20, 48} {
		rel, oth := make([]key32, nr), make([]key32, 100-nr)
		for i := range rel {
			rel[i] = makeKey32(rng.Float32(), uint32(i))
		}
		for i := range oth {
			oth[i] = makeKey32(rng.Float32(), uint32(nr+i))
		}
		slices.Sort(rel)
		ahead := make([]int, nr+1)
		b.Run(fmt.Sprintf("nr=%d/count", nr), func(b *testing.B) {
			for b.Loop() {
				clear(ahead)
				countAhead32(rel, oth, ahead)
			}
		})
		b.Run(fmt.Sprintf("nr=%d/search", nr), func(b *testing.B) {
			for b.Loop() {
				clear(ahead)
				for _, key := range oth {
					ahead[lowerBoundFloat32(rel, key)]++
				}
			}
		})
	}
}

// TestCountTied32 checks countTied32, vector path included, against the
// binary search per key it replaces, on keys with many ties of score, score
// bits of 0 among them.
func TestCountTied32(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 5))
	for nr := 0; nr <= vecPivots+4; nr++ {
		for _, no := range []int{0, 1, 3, 4, 5, 90, 301} {
			for _, raw := range []bool{false, true} {
				rel, oth := testKeys(nr, no, func(i int) key32 {
					if raw {
						return key32(uint64(rng.IntN(6))<<32 | uint64(i))
					}
					return makeKey32(float32(rng.IntN(16))-8, uint32(i))
				})
				ends := append(rel, sentinel32)
				wantA, wantT := make([]int, nr+1), make([]int, nr+1)
				for _, k := range oth {
					p := lowerBoundFloat32(rel, k.floor())
					if ends[p].score() == k.score() {
						wantT[p]++
					} else {
						wantA[p]++
					}
				}
				gotA, gotT := make([]int, nr+1), make([]int, nr+1)
				countTied32(ends, oth, gotA, gotT)
				if !slices.Equal(gotA, wantA) || !slices.Equal(gotT, wantT) {
					t.Fatalf("nr=%d no=%d raw=%v: ahead %v tied %v, want %v %v", nr, no, raw, gotA, gotT, wantA, wantT)
				}
			}
		}
	}
}

// TestSortKeys32 checks sortKeys32, rank sort included, against slices.Sort
// on distinct keys with many ties of score.
func TestSortKeys32(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 5))
	for n := 0; n <= vecPivots+4; n++ {
		for range 20 {
			keys := make([]key32, n)
			for i := range keys {
				keys[i] = makeKey32(float32(rng.IntN(6))-3, tieBits(Pessimistic, rng.IntN(2) == 0, i))
			}
			rng.Shuffle(n, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
			want := slices.Clone(keys)
			slices.Sort(want)
			sortKeys32(keys)
			if !slices.Equal(keys, want) {
				t.Fatalf("n=%d: %x, want %x", n, keys, want)
			}
		}
	}
}
