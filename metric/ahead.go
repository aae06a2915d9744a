package metric

import (
	"unsafe"

	"github.com/rankmetrics/rankmetrics/metric/internal/vec"
)

// vecPivots is the most relevant keys for which countAhead32 compares every
// other key with every relevant one (len(rel)*len(oth)/4 vector comparisons)
// rather than searching for it (len(oth)*log2(len(rel)) dependent steps).
const vecPivots = 48

// countAhead32 adds to ahead[p], for each key of oth, 1 where p is the
// number of keys of the sorted rel that are less than it: the count of the
// keys ranked between rel[p-1] and rel[p]. ahead has len(rel)+1 elements,
// all zero. With AVX2 and few relevant keys, it counts, for each relevant
// key, the other keys at or below it (below it: a list's keys are distinct),
// four keys and four relevant keys at a time, and takes differences.
func countAhead32(rel, oth []key32, ahead []int) {
	nr := len(rel)
	if !vec.Accelerated() || nr == 0 || nr > vecPivots {
		for _, key := range oth {
			ahead[lowerBoundFloat32(rel, key)]++
		}
		return
	}
	vec.CountLE(keyBits32(oth), keyBits32(rel), ahead[:nr])
	ahead[nr] = len(oth) - ahead[nr-1]
	for j := nr - 1; j > 0; j-- {
		ahead[j] -= ahead[j-1]
	}
}

// keyBits32 views keys as their uint64 bits.
func keyBits32(keys []key32) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.SliceData(keys)), len(keys))
}

// countTied32 is countAhead32 for the Random and Expected policies, which
// rank the keys of a score tie as a group: for each key of oth, with p the
// number of keys of the sorted rel whose score is higher (lower key score
// bits), it adds 1 to tied[p] when rel[p] has the key's score and to
// ahead[p] otherwise. ends is rel followed by a sentinel whose score no key
// has. ahead and tied have len(rel)+1 elements, all zero.
//
// With AVX2 and few relevant keys, it counts for each relevant key j the
// other keys whose score is at most (hi[j]) and below (lo[j]) its score: the
// keys at p are hi[p]-hi[p-1], of which hi[p]-lo[p] tie when p starts a group
// of equal scores (none land at p otherwise).
func countTied32(ends, oth []key32, ahead, tied []int) {
	nr := len(ends) - 1
	if !vec.Accelerated() || nr == 0 || nr > vecPivots {
		for _, key := range oth {
			p := lowerBoundFloat32(ends[:nr], key.floor())
			if ends[p].score() == key.score() {
				tied[p]++
			} else {
				ahead[p]++
			}
		}
		return
	}
	// hi lands in ahead and lo in tied, which are then rewritten in place,
	// each p reading its own counts before writing them.
	vec.CountScores(keyBits32(oth), keyBits32(ends[:nr]), tied[:nr], ahead[:nr])
	prev := 0 // hi[p-1]
	for p := range nr {
		hi, lo := ahead[p], tied[p]
		ahead[p], tied[p] = 0, 0
		if p == 0 || ends[p-1].score() != ends[p].score() {
			tied[p] = hi - lo
			ahead[p] = lo - prev
		}
		prev = hi
	}
	ahead[nr] = len(oth) - prev
}

// sortKeys32 sorts keys ascending. The keys must be distinct, as a list's
// keys are (their tie-break bits hold the item's index). With AVX2, up to
// vecPivots keys are sorted by rank: each goes to the place given by the
// number of keys at or below it, counted with vector comparisons, which has
// no branch to mispredict.
func sortKeys32(keys []key32) {
	var s sorter32
	s.sort(keys)
}

// sorter32 is sortKeys32 with scratch of its own, kept in a kernel's
// workspace so that sorting a few keys zeroes no memory (a tenth of the time
// of float32 MAP when it did).
type sorter32 struct {
	tmp [vecPivots]key32
	at  [vecPivots]int
}

// sort is sortKeys32.
func (s *sorter32) sort(keys []key32) {
	n := len(keys)
	if !vec.Accelerated() || n <= 4 || n > vecPivots {
		sortOrdered(keys)
		return
	}
	tmp, at := s.tmp[:n], s.at[:n]
	copy(tmp, keys)
	vec.CountLE(keyBits32(tmp), keyBits32(tmp), at)
	for j, k := range tmp {
		keys[at[j]-1] = k
	}
}
