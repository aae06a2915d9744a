package metric

import (
	"cmp"
	"math"
)

// The kernels sort the unmasked items of a list by a key that orders them
// as TF-Ranking ranks them: score descending, then the tie policy's order.
// A key packs the score's bits, made to sort ascending for a descending
// score, with 32 tie-break bits: a relevance bit for the Pessimistic and
// Optimistic policies above the item's index.

// maxItems is the longest list a kernel accepts: the index must fit in 31
// bits of the tie-break.
const maxItems = 1<<31 - 1

// tieBits returns the tie-break bits of item i under policy p.
func tieBits(p TiePolicy, rel bool, i int) uint32 {
	switch p {
	case Pessimistic:
		if rel {
			return 1<<31 | uint32(i)
		}
	case Optimistic:
		if !rel {
			return 1<<31 | uint32(i)
		}
	}
	return uint32(i)
}

// key32 is the sort key of a float32 score.
type key32 uint64

// makeKey32 returns the key of score s with tie-break bits tb. -0 and +0
// get the same key, as they compare equal. It has no branch.
func makeKey32(s float32, tb uint32) key32 {
	u := math.Float32bits(s + 0) // -0 + 0 is +0
	u ^= uint32(int32(u)>>31) | 1<<31
	return key32(uint64(^u)<<32 | uint64(tb))
}

func (k key32) index() int    { return int(uint32(k) &^ (1 << 31)) }
func (k key32) score() uint64 { return uint64(k) >> 32 }

// key64 is the sort key of a float64 score.
type key64 struct {
	s  uint64
	tb uint32
}

// makeKey64 returns the key of score s with tie-break bits tb.
func makeKey64(s float64, tb uint32) key64 {
	u := math.Float64bits(s + 0) // -0 + 0 is +0
	u ^= uint64(int64(u)>>63) | 1<<63
	return key64{s: ^u, tb: tb}
}

func (k key64) index() int    { return int(k.tb &^ (1 << 31)) }
func (k key64) score() uint64 { return k.s }

func compareKey64(a, b key64) int {
	if c := cmp.Compare(a.s, b.s); c != 0 {
		return c
	}
	return cmp.Compare(a.tb, b.tb)
}

func sortKeys64(keys []key64) { sortFunc(keys, compareKey64) }

// floor returns the least key with k's score: a binary search for it counts
// the keys with a strictly higher score.
func (k key32) floor() key32 { return k &^ (1<<32 - 1) }

func (k key64) floor() key64 { return key64{s: k.s} }

// sentinel32 and sentinel64 have a score no real score has (the key of a
// NaN with every bit set); the kernels end a sorted slice with one so that
// a lookup one past the end needs no bounds branch.
const sentinel32 = key32(1<<64 - 1)

var sentinel64 = key64{s: 1<<64 - 1, tb: 1<<32 - 1}
