package metric

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCountAhead32 checks countAhead32, vector path included, against a
// binary search per key, on keys with many ties of score.
func TestCountAhead32(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 3))
	for nr := 0; nr <= vecPivots+4; nr++ {
		for _, no := range []int{0, 1, 3, 4, 5, 90, 301} {
			key := func(i int) key32 {
				return makeKey32(float32(rng.IntN(16))-8, tieBits(Pessimistic, rng.IntN(2) == 0, i))
			}
			rel, oth := make([]key32, nr), make([]key32, no)
			for i := range rel {
				rel[i] = key(i)
			}
			for i := range oth {
				oth[i] = key(nr + i)
			}
			slices.Sort(rel)
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
