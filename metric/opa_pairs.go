package metric

import (
	"math"
	"slices"

	"github.com/rankmetrics/rankmetrics/metric/internal/exact"
)

// opaPairs holds the scratch buffers of opaPairSums. A workspace keeps one,
// so that a steady-state update allocates nothing.
type opaPairs struct {
	items, labels []opaItem
	// rank is the 1-based rank of each slot's label among the distinct
	// labels of the valid items, 0 for a NaN label or a masked item.
	rank []int32
	// distinct holds the distinct labels while there are few; below counts
	// the items of each label rank, then of the smaller ranks; tree is a
	// Fenwick tree of item counts over the label ranks.
	distinct []float64
	below    []uint32
	tree     []int32
}

// opaItem is a slot and its label or score; for the sweep in score order,
// its weight w and label rank too, so the sweep reads memory in order.
type opaItem struct {
	v, w       float64
	slot, rank int32
}

// compareItems orders items by value; they hold no NaN.
func compareItems(a, b opaItem) int {
	switch {
	case a.v < b.v:
		return -1
	case a.v > b.v:
		return 1
	}
	return 0
}

// fewLabels is the most distinct labels opaPairSums finds by a linear
// search instead of sorting the items by label.
const fewLabels = 32

// opaPairSums returns the sums OPA's O(L²) loop forms over the ordered
// pairs (i, j) of valid items with fl[i] > fl[j]: lw, the sum of fw[i] over
// those pairs, and num, the sum over the pairs with fs[i] > fs[j] too. An
// item is valid when fw > 0; masked items have fw = 0, and a NaN label or
// score makes no pair, as the comparisons are false.
//
// The items' label ranks give each item the number of valid items with a
// smaller label; a sweep in score order with a Fenwick tree over the label
// ranks gives the number of those with a smaller score too: O(L log L) for
// L items, where the pair loop is O(L²) (10 s and more for 100,000 items,
// hours for 2,000,000). Each item adds fw[i] times its count to an exact
// sum, which is rounded once: the exact sum over the pairs, which every
// summation order reaches when the weighted counts are integers below 2^53
// (no weights: up to 94 million items).
func opaPairSums[T float32 | float64](ps *opaPairs, fl, fs, fw []T) (lw, num float64) {
	ranks := labelRanks(ps, fl, fw)
	// below[r] becomes the number of valid items of label rank < r.
	prev := uint32(0)
	for r := range ps.below[:ranks+1] {
		prev, ps.below[r] = prev+ps.below[r], prev
	}
	var lwSum, numSum exact.Sum
	ps.items = ps.items[:0]
	for i, r := range ps.rank[:len(fl)] {
		if r == 0 {
			continue
		}
		lwSum.AddMul(float64(fw[i]), ps.below[r])
		if s := float64(fs[i]); !math.IsNaN(s) {
			ps.items = append(ps.items, opaItem{v: s, w: float64(fw[i]), rank: r})
		}
	}
	slices.SortFunc(ps.items, compareItems)
	ps.tree = grow(ps.tree, int(ranks)+1)
	clear(ps.tree)
	for g := 0; g < len(ps.items); {
		end := g + 1
		for end < len(ps.items) && ps.items[end].v == ps.items[g].v { // -0 and +0 are one score
			end++
		}
		// The tree counts the items of smaller scores, by label rank.
		for _, it := range ps.items[g:end] {
			n := int32(0)
			for x := it.rank - 1; x > 0; x &= x - 1 {
				n += ps.tree[x]
			}
			numSum.AddMul(it.w, uint32(n))
		}
		for _, it := range ps.items[g:end] {
			for x := it.rank; x <= ranks; x += x & -x {
				ps.tree[x]++
			}
		}
		g = end
	}
	return lwSum.Float64(), numSum.Float64()
}

// labelRanks sets ps.rank to the 1-based rank of each valid item's label
// among the distinct labels, 0 for the others, and ps.below[r] to the
// number of items of rank r, and returns the number of ranks. Up to
// fewLabels distinct labels are found by a linear search, more by a sort.
func labelRanks[T float32 | float64](ps *opaPairs, fl, fw []T) int32 {
	ps.rank = grow(ps.rank, len(fl))
	ps.distinct = ps.distinct[:0]
	few := true
	for i := range fl {
		ps.rank[i] = 0
		l := float64(fl[i])
		if fw[i] == 0 || math.IsNaN(l) || !few {
			continue
		}
		k := slices.Index(ps.distinct, l) // == : -0 finds +0
		if k < 0 {
			if len(ps.distinct) == fewLabels {
				few = false
				continue
			}
			k = len(ps.distinct)
			ps.distinct = append(ps.distinct, l)
		}
		ps.rank[i] = int32(k + 1)
	}
	var ranks int32
	if few {
		// Rank the distinct labels, then map each item's index to its rank.
		ps.labels = ps.labels[:0]
		for k, l := range ps.distinct {
			ps.labels = append(ps.labels, opaItem{v: l, slot: int32(k)})
		}
		slices.SortFunc(ps.labels, compareItems)
		var rankOf [fewLabels]int32
		for k, it := range ps.labels {
			rankOf[it.slot] = int32(k + 1)
		}
		ranks = int32(len(ps.labels))
		for i, k := range ps.rank[:len(fl)] {
			if k > 0 {
				ps.rank[i] = rankOf[k-1]
			}
		}
	} else {
		ps.labels = ps.labels[:0]
		for i := range fl {
			if l := float64(fl[i]); fw[i] != 0 && !math.IsNaN(l) {
				ps.labels = append(ps.labels, opaItem{v: l, slot: int32(i)})
			}
		}
		slices.SortFunc(ps.labels, compareItems)
		for k, it := range ps.labels {
			if k == 0 || it.v != ps.labels[k-1].v {
				ranks++
			}
			ps.rank[it.slot] = ranks
		}
	}
	ps.below = grow(ps.below, int(ranks)+1)
	clear(ps.below)
	for _, r := range ps.rank[:len(fl)] {
		ps.below[r]++
	}
	ps.below[0] = 0 // masked items and NaN labels
	return ranks
}
