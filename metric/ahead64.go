package metric

import (
	"unsafe"

	"github.com/rankmetrics/rankmetrics/metric/internal/vec"
)

// keyWords64 views keys as vec.CountAbove96's pairs of words: the score, then
// the tie-break bits in the lower half of a word whose upper half is padding.
func keyWords64(keys []key64) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(keys))), 2*len(keys))
}

// keyWords64 relies on key64's layout: these constants overflow otherwise.
const (
	_ = uint8(unsafe.Sizeof(key64{}) - 16)
	_ = uint8(16 - unsafe.Sizeof(key64{}))
	_ = uint8(unsafe.Offsetof(key64{}.tb) - 8)
	_ = uint8(8 - unsafe.Offsetof(key64{}.tb))
)

// countAhead64 is countAhead32 for float64 keys: it adds to ahead[p], for
// each key of oth, 1 where p is the number of keys of the sorted rel that
// are less than it. ahead has len(rel)+1 elements, all zero. With AVX2 and
// few relevant keys, it counts for each relevant key the other keys above
// it, four keys at a time, comparing scores and tie-breaks at once, and
// takes differences (a list's keys are distinct).
func countAhead64(rel, oth []key64, ahead []int) {
	nr := len(rel)
	if !vec.Accelerated() || nr == 0 || nr > vecPivots {
		for _, key := range oth {
			ahead[lowerBoundFloat64(rel, key)]++
		}
		return
	}
	vec.CountAbove96(keyWords64(oth), keyWords64(rel), ahead[:nr])
	// ahead[j] holds the keys above rel[j]; descending, each j reads the
	// counts of j-1 and j before ahead[j] is rewritten.
	ahead[nr] = ahead[nr-1]
	for j := nr - 1; j > 0; j-- {
		ahead[j] = ahead[j-1] - ahead[j]
	}
	ahead[0] = len(oth) - ahead[0]
}

// countTied64 is countTied32 for float64 keys: for each key of oth, with p
// the number of keys of the sorted rel whose score is higher (lower key
// score bits), it adds 1 to tied[p] when rel[p] has the key's score and to
// ahead[p] otherwise. ends is rel followed by a sentinel whose score no key
// has. ahead and tied have len(rel)+1 elements, all zero.
//
// With AVX2 and few relevant keys, it counts for the first key p of each
// group of equal scores among rel the other keys whose score is at most
// (hi) and below (lo) its score: lo[p]-hi[p'] keys fall between the previous
// group (starting at p') and this one, and hi[p]-lo[p] tie with it; only
// group starts, and len(rel), receive counts.
func countTied64(ends, oth []key64, ahead, tied []int) {
	nr := len(ends) - 1
	if !vec.Accelerated() || nr == 0 || nr > vecPivots {
		for _, key := range oth {
			p := lowerBoundFloat64(ends[:nr], key.floor())
			if ends[p].score() == key.score() {
				tied[p]++
			} else {
				ahead[p]++
			}
		}
		return
	}
	// Most lists have few relevant keys: smaller arrays cost less to zero.
	if nr <= 16 {
		var starts [16]key64
		var lo, hi [16]int
		countGroups64(ends, oth, ahead, tied, starts[:], lo[:], hi[:])
		return
	}
	var starts [vecPivots]key64
	var lo, hi [vecPivots]int
	countGroups64(ends, oth, ahead, tied, starts[:], lo[:], hi[:])
}

// countGroups64 is countTied64's vector path, with room for the group starts
// and their counts.
func countGroups64(ends, oth []key64, ahead, tied []int, starts []key64, lo, hi []int) {
	nr := len(ends) - 1
	m := 0
	for p := range nr {
		if p == 0 || ends[p-1].s != ends[p].s {
			starts[m] = ends[p]
			m++
		}
	}
	vec.CountScores64(keyWords64(oth), keyWords64(starts[:m]), lo[:m], hi[:m])
	prev, g := 0, 0 // prev: hi of the previous group
	for p := range nr {
		if p == 0 || ends[p-1].s != ends[p].s {
			ahead[p] = lo[g] - prev
			tied[p] = hi[g] - lo[g]
			prev = hi[g]
			g++
		}
	}
	ahead[nr] = len(oth) - prev
}

// sorter64 is the float64 kernels' sorter, kept in a kernel's workspace:
// with AVX2, it sorts up to vecPivots distinct keys (a list's keys are) by
// rank, each going to the place given by the number of keys above it,
// counted with vector comparisons, which has no branch to mispredict; its
// scratch is its own, so that sorting a few keys zeroes no memory. Other
// lengths go to sortKeys64.
type sorter64 struct {
	tmp   [vecPivots]key64
	above [vecPivots]int
}

// sort sorts keys ascending.
func (s *sorter64) sort(keys []key64) {
	n := len(keys)
	if !vec.Accelerated() || n <= 4 || n > vecPivots {
		sortKeys64(keys)
		return
	}
	tmp, above := s.tmp[:n], s.above[:n]
	// The count reads keys before the copy: its wide loads would not be
	// forwarded from the copy's narrower stores, and would wait for them.
	vec.CountAbove96(keyWords64(keys), keyWords64(keys), above)
	copy(tmp, keys)
	for j, k := range tmp {
		keys[n-1-above[j]] = k
	}
}
