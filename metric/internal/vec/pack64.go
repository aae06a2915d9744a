package vec

import "math"

// Pack64 is Pack32 for float64 labels and scores, which float64 mode reads
// without flushing subnormals: an item is valid when Ragged is true or its
// label is > -2^-1074 (>= -0; NaN is not valid), relevant when its label is
// >= Thr, and its label is zero when it is ±0. The key of a valid item with
// score s and index i is package metric's key64 of makeKey64(s, tb), as two
// words: the score's bits, -0 made +0, made to sort ascending for a
// descending score, then the tie-break bits tb = i, with bit 31 set
// according to Tie (the upper half of the second word is 0).
type Pack64 struct {
	Thr    float64 // relevance threshold
	Ragged bool    // every slot is valid, whatever its label
	Keys   int     // which valid items go to keys: KeysNonzero, KeysRelevant or KeysAll
	Tie    int     // which items get bit 31 of their tie-break: TieIndex, TieRelevant or TieOther
}

// minPos64 is the least positive float64: a label above its negation reads
// as >= 0, a label strictly between its negation and it is a zero.
const minPos64 = math.SmallestNonzeroFloat64

// Pack writes, in item order, the keys of the valid items that c.Keys
// selects to keys and those of the other valid items to oth, two words per
// key, and counts the relevant items; the counts of Packed are of keys, not
// words. sc must hold at least len(lab) scores, and keys and oth each at
// least len(lab) rounded up to a multiple of 4 keys (the kernel writes them
// 4 at a time), that is twice as many words; Pack panics otherwise.
func (c *Pack64) Pack(lab, sc []float64, keys, oth []uint64) Packed {
	n := len(lab)
	n4 := 2 * ((n + 3) &^ 3)
	sc, keys, oth = sc[:n], keys[:n4], oth[:n4]
	if !avx2 {
		return c.packGo(lab, sc, keys, oth)
	}
	cfg := c.config()
	var r Packed
	r.Keys, r.Oth, r.Rel, r.Out, r.Bad = pack64AVX2(lab, sc, keys, oth, &cfg)
	return r
}

// config returns the kernel's broadcast constants (packConfig).
func (c *Pack64) config() [8]uint64 {
	return packConfig(math.Float64bits(c.Thr), c.Ragged, c.Keys, c.Tie)
}

// key64 is the score word of package metric's makeKey64(s, tb).
func key64(s float64) uint64 {
	u := math.Float64bits(s + 0) // -0 + 0 is +0
	u ^= uint64(int64(u)>>63) | 1<<63
	return ^u
}

// packGo is the reference of Pack.
func (c *Pack64) packGo(lab, sc []float64, keys, oth []uint64) Packed {
	r := Packed{Bad: -1}
	for i, l := range lab {
		rel := l >= c.Thr
		if !(c.Ragged || l > -minPos64) {
			if rel {
				r.Out++
			}
			continue
		}
		s := sc[i]
		if s != s {
			r.Bad = i
			return r
		}
		if rel {
			r.Rel++
		}
		tb := uint64(i)
		if c.Tie == TieRelevant && rel || c.Tie == TieOther && !rel {
			tb |= 1 << 31
		}
		k := key64(s)
		toKeys := c.Keys == KeysAll || c.Keys == KeysRelevant && rel ||
			c.Keys == KeysNonzero && !(l > -minPos64 && l < minPos64)
		if toKeys {
			keys[2*r.Keys], keys[2*r.Keys+1] = k, tb
			r.Keys++
		} else {
			oth[2*r.Oth], oth[2*r.Oth+1] = k, tb
			r.Oth++
		}
	}
	return r
}
