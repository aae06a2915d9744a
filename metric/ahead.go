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
// key, the other keys at or below it, and takes differences.
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
