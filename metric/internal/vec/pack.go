package vec

import "math"

// Which valid items Pack32 writes to keys; the others go to oth.
const (
	KeysNonzero  = iota // items whose label is not 0 (a subnormal label reads as 0)
	KeysRelevant        // relevant items
	KeysAll             // every valid item
)

// Which items get bit 31 of their tie-break bits (see Pack32).
const (
	TieIndex    = iota // none: the tie-break is the index
	TieRelevant        // relevant items (TF-Ranking's pessimistic ties)
	TieOther           // items that are not relevant (optimistic ties)
)

// minPos32 is the least normal float32: a label above its negation reads as
// >= 0, a label strictly between its negation and it reads as 0.
const minPos32 = 0x1p-126

// Pack32 masks a list of float32 labels and scores and packs the sort keys
// of its valid items, as package metric's kernels do when every slot weighs
// the same positive weight.
//
// An item is valid when Ragged is true or its label is > -2^-126 (a
// subnormal label reads as 0, NaN is not valid), and relevant when its
// label is >= Thr. The key of a valid item with score s and index i is
// metric's makeKey32(ftz(s), tb): the score's bits, flushed to zero when
// subnormal, -0 made +0, and made to sort ascending for a descending score,
// in the upper 32 bits, and the tie-break bits tb = i, with bit 31 set
// according to Tie, in the lower 32 bits.
type Pack32 struct {
	Thr    float32 // relevance threshold
	Ragged bool    // every slot is valid, whatever its label
	Keys   int     // which valid items go to keys: KeysNonzero, KeysRelevant or KeysAll
	Tie    int     // which items get bit 31 of their tie-break: TieIndex, TieRelevant or TieOther
}

// Packed is the outcome of Pack32.Pack.
type Packed struct {
	Keys, Oth int // the numbers of keys written to keys and to oth
	Rel       int // the number of valid relevant items
	Out       int // the number of relevant items that are not valid
	// Bad is the index of the first valid item whose score is NaN, or -1.
	// When it is not -1, the other fields and the slices' contents are
	// unspecified.
	Bad int
}

// Pack writes, in item order, the keys of the valid items that c.Keys
// selects to keys and those of the other valid items to oth, and counts the
// relevant items. sc must hold at least len(lab) scores, and keys and oth
// each at least len(lab) rounded up to a multiple of 8 keys (the kernel
// writes them 8 at a time); Pack panics otherwise.
func (c *Pack32) Pack(lab, sc []float32, keys, oth []uint64) Packed {
	n := len(lab)
	n8 := (n + 7) &^ 7
	sc, keys, oth = sc[:n], keys[:n8], oth[:n8]
	if !avx2 {
		return c.packGo(lab, sc, 0, keys, oth, Packed{Bad: -1})
	}
	cfg := c.config()
	var r Packed
	r.Keys, r.Oth, r.Rel, r.Out, r.Bad = pack32AVX2(lab, sc, keys, oth, &cfg)
	return r
}

// config returns the kernel's broadcast constants (packConfig).
func (c *Pack32) config() [8]uint32 {
	return packConfig(math.Float32bits(c.Thr), c.Ragged, c.Keys, c.Tie)
}

// packConfig returns the broadcast constants of pack32AVX2 or pack64AVX2, in
// words of their lanes: the threshold's bits thr, then all-ones or zero for
// ragged, KeysNonzero, KeysRelevant and KeysAll (by keys, which must be one
// of them), the tie bit's inversion (TieOther), and the tie bit's mask.
func packConfig[W uint32 | uint64](thr W, ragged bool, keys, tie int) [8]W {
	ones := ^W(0)
	var cfg [8]W
	cfg[0] = thr
	if ragged {
		cfg[1] = ones
	}
	cfg[2+keys] = ones
	if tie == TieOther {
		cfg[5] = ones
	}
	if tie != TieIndex {
		cfg[6] = 1 << 31
	}
	return cfg
}

// key32 is package metric's makeKey32(ftzFloat32(s), tb).
func key32(s float32, tb uint32) uint64 {
	u := math.Float32bits(s)
	if u&0x7f800000 == 0 {
		u = 0 // a subnormal reads as a zero, and -0 + 0 is +0
	}
	u ^= uint32(int32(u)>>31) | 1<<31
	return uint64(^u)<<32 | uint64(tb)
}

// packGo is the reference of Pack for the items lab[j], which are items
// first+j of the list, adding to the counts of r.
func (c *Pack32) packGo(lab, sc []float32, first int, keys, oth []uint64, r Packed) Packed {
	for j, l := range lab {
		i := first + j
		rel := l >= c.Thr
		if !(c.Ragged || l > -minPos32) {
			if rel {
				r.Out++
			}
			continue
		}
		s := sc[j]
		if s != s {
			r.Bad = i
			return r
		}
		if rel {
			r.Rel++
		}
		tb := uint32(i)
		if c.Tie == TieRelevant && rel || c.Tie == TieOther && !rel {
			tb |= 1 << 31
		}
		k := key32(s, tb)
		toKeys := c.Keys == KeysAll || c.Keys == KeysRelevant && rel ||
			c.Keys == KeysNonzero && !(l > -minPos32 && l < minPos32)
		if toKeys {
			keys[r.Keys] = k
			r.Keys++
		} else {
			oth[r.Oth] = k
			r.Oth++
		}
	}
	return r
}
