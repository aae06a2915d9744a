package metric

import "github.com/rankmetrics/rankmetrics/metric/internal/vec"

// packVec says whether the float32 kernels mask their lists and pack their
// sort keys with vec.Pack32 when every slot weighs the same positive weight:
// where the vector kernel runs (vec.Accelerated; elsewhere the Go loop is as
// fast as vec's Go reference), unless the tests set ws.goLoops to compare
// the two paths.
func (ws *famFloat32) packVec() bool { return vec.Accelerated() && !ws.goLoops }

// Which valid items packKeys32 packs into keys; the others go to oth.
const (
	packNonzero  = vec.KeysNonzero  // label not 0
	packRelevant = vec.KeysRelevant // label >= thr
	packAll      = vec.KeysAll      // every valid item
)

// packKeys32 is the masking loop of a float32 kernel whose slots all weigh
// the same positive weight, on vec.Pack32: it appends in item order to keys
// (which it leaves room for a sentinel) the keys of the valid items that sel
// selects, with tieBits(ties, relevant, i), and to oth those of the other
// valid items. A slot is valid when the list is ragged or its label is >= 0
// as TF reads it, relevant when its label is >= thr. It returns the keys, the
// numbers of valid and of masked relevant items, and the index of the first
// valid item whose score is NaN, or -1 (and then the keys are unspecified).
func packKeys32(lab, sc []float32, keys, oth []key32, thr float32, ragged bool, sel int, ties TiePolicy) (k, o []key32, nrel, nout, bad int) {
	c := vec.Pack32{Thr: thr, Ragged: ragged, Keys: sel, Tie: vecTie(ties)}
	n0, o0 := len(keys), len(oth)
	// Pack writes whole packets of 8 keys; keys keeps room for the sentinel.
	keys, oth = grow(keys, n0+(len(lab)+8)&^7), grow(oth, o0+(len(lab)+7)&^7)
	r := c.Pack(lab, sc, keyBits32(keys[n0:]), keyBits32(oth[o0:]))
	return keys[:n0+r.Keys], oth[:o0+r.Oth], r.Rel, r.Out, r.Bad
}

// vecTie returns which items get bit 31 of their tie-break bits under ties
// (tieBits), in vec's terms.
func vecTie(ties TiePolicy) int {
	switch ties {
	case Pessimistic:
		return vec.TieRelevant
	case Optimistic:
		return vec.TieOther
	}
	return vec.TieIndex
}
