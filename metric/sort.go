package metric

import (
	"cmp"
	"slices"
)

// insertionMax is the list length up to which an insertion sort beats the
// standard library's pattern-defeating quicksort on keys.
const insertionMax = 12

// sortOrdered sorts keys ascending.
func sortOrdered[K cmp.Ordered](keys []K) {
	if len(keys) <= insertionMax {
		for i := 1; i < len(keys); i++ {
			v := keys[i]
			j := i - 1
			for j >= 0 && keys[j] > v {
				keys[j+1] = keys[j]
				j--
			}
			keys[j+1] = v
		}
		return
	}
	slices.Sort(keys)
}

// sortFunc sorts keys ascending by compare.
func sortFunc[K any](keys []K, compare func(a, b K) int) {
	if len(keys) <= insertionMax {
		for i := 1; i < len(keys); i++ {
			v := keys[i]
			j := i - 1
			for j >= 0 && compare(keys[j], v) > 0 {
				keys[j+1] = keys[j]
				j--
			}
			keys[j+1] = v
		}
		return
	}
	slices.SortFunc(keys, compare)
}
