package metric

import "github.com/rankmetrics/rankmetrics/metric/internal/vec"

// packVec says whether the float64 MAP kernel masks its lists and packs its
// sort keys with vec.Pack64 when every slot weighs 1: where the vector kernel
// runs, unless the tests set ws.goLoops to compare the two paths.
func (ws *famFloat64) packVec() bool { return vec.Accelerated() && !ws.goLoops }

// packKeys64 is packKeys32 for the float64 kernels, on vec.Pack64: it
// appends in item order to keys (which it leaves room for a sentinel) the
// keys of the valid items that sel selects, with tieBits(ties, relevant, i),
// and to oth those of the other valid items. A slot is valid when the list is
// ragged or its label is >= -0, relevant when its label is >= thr. It
// returns the keys, the numbers of valid and of masked relevant items, and
// the index of the first valid item whose score is NaN, or -1 (and then the
// keys are unspecified).
func packKeys64(lab, sc []float64, keys, oth []key64, thr float64, ragged bool, sel int, ties TiePolicy) (k, o []key64, nrel, nout, bad int) {
	c := vec.Pack64{Thr: thr, Ragged: ragged, Keys: sel, Tie: vecTie(ties)}
	n0, o0 := len(keys), len(oth)
	// Pack writes whole packets of 4 keys; keys keeps room for the sentinel.
	keys, oth = grow(keys, n0+(len(lab)+4)&^3), grow(oth, o0+(len(lab)+3)&^3)
	r := c.Pack(lab, sc, keyWords64(keys[n0:]), keyWords64(oth[o0:]))
	return keys[:n0+r.Keys], oth[:o0+r.Oth], r.Rel, r.Out, r.Bad
}
