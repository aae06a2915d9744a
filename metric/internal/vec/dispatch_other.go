//go:build !amd64 || purego

package vec

import "math"

// avx2 is false: this build has no vector kernels.
const avx2 = false

// packets32AVX2 stands in for the assembly kernel, which this build lacks.
func packets32AVX2(xs []float32, acc *[8]float32) { packets32Go(xs, acc) }

// countLEAVX2 stands in for the assembly kernel, which this build lacks.
func countLEAVX2(xs, pivots []uint64, counts []int) { countLEGo(xs, pivots, counts) }

// pack32AVX2 stands in for the assembly kernel, which this build lacks.
func pack32AVX2(lab, sc []float32, keys, oth []uint64, cfg *[8]uint32) (nk, no, nrel, nout, bad int) {
	var c Pack32
	c.Thr = math.Float32frombits(cfg[0])
	c.Ragged = cfg[1] != 0
	switch {
	case cfg[3] != 0:
		c.Keys = KeysRelevant
	case cfg[4] != 0:
		c.Keys = KeysAll
	}
	switch {
	case cfg[5] != 0:
		c.Tie = TieOther
	case cfg[6] != 0:
		c.Tie = TieRelevant
	}
	r := c.packGo(lab, sc, 0, keys, oth, Packed{Bad: -1})
	return r.Keys, r.Oth, r.Rel, r.Out, r.Bad
}

// countScoresAVX2 stands in for the assembly kernel, which this build lacks.
func countScoresAVX2(xs, pivots []uint64, below, atOrBelow []int) {
	countScoresGo(xs, pivots, below, atOrBelow)
}

// terms32AVX2 stands in for the assembly kernel, which this build lacks.
func terms32AVX2(dst, num, den, w []float32) { terms32Go(dst, num, den, w) }

// countAbove96AVX2 stands in for the assembly kernel, which this build lacks.
func countAbove96AVX2(keys, pivots []uint64, counts []int) { countAbove96Go(keys, pivots, counts) }

// pack64AVX2 stands in for the assembly kernel, which this build lacks.
func pack64AVX2(lab, sc []float64, keys, oth []uint64, cfg *[8]uint64) (nk, no, nrel, nout, bad int) {
	c := Pack64{Thr: math.Float64frombits(cfg[0]), Ragged: cfg[1] != 0}
	switch {
	case cfg[3] != 0:
		c.Keys = KeysRelevant
	case cfg[4] != 0:
		c.Keys = KeysAll
	}
	switch {
	case cfg[5] != 0:
		c.Tie = TieOther
	case cfg[6] != 0:
		c.Tie = TieRelevant
	}
	r := c.packGo(lab, sc, keys, oth)
	return r.Keys, r.Oth, r.Rel, r.Out, r.Bad
}

// countScores64AVX2 stands in for the assembly kernel, which this build lacks.
func countScores64AVX2(keys, pivots []uint64, below, atOrBelow []int) {
	countScores64Go(keys, pivots, below, atOrBelow)
}
