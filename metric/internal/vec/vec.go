// Package vec holds the vector kernels of package metric and their Go
// references.
//
// The AVX2 kernels are written in assembly by the avo program in ./asm
// (vec_amd64.s and stub_amd64.go are its output; go generate rewrites them).
// Each computes exactly what its Go reference in vec_generic.go computes, bit
// for bit: the tests check that on every length up to a few hundred, at every
// alignment, with subnormals, infinities and negative zeros.
//
// Which kernels run is decided once, at start-up, from golang.org/x/sys/cpu:
// the AVX2 kernels on amd64 CPUs with AVX2 (and the operating system's
// support for the YMM registers), the Go references elsewhere and under the
// build tag purego. That decision is the package's only state.
package vec

// Accelerated reports whether the AVX2 kernels run on this CPU.
func Accelerated() bool { return avx2 }

// Packets32 adds the whole 8-float packets of xs (the first len(xs)/8*8
// values) into the eight lanes of acc, as Eigen's AVX reduction of float32
// does, with TF's flush-to-zero and denormals-are-zero: a subnormal operand
// reads as a zero of its sign and a subnormal result is written as one.
//
// From 32 values on, the first len(xs)/32*32 go four packets at a time into
// four accumulators, which are then combined lane by lane as
// ((a0 + a1) + a2) + a3; the remaining whole packets are added to a0; acc
// receives a0. Every accumulator starts at +0; acc's prior contents are
// ignored.
func Packets32(xs []float32, acc *[8]float32) {
	if avx2 {
		packets32AVX2(xs, acc)
		return
	}
	packets32Go(xs, acc)
}

// CountLE sets counts[j], for each j < len(pivots), to the number of
// elements of xs that are less than or equal to pivots[j]. It takes
// len(xs)*len(pivots) comparisons: on the Go reference, a binary search over
// sorted pivots is faster, so callers should use it only when Accelerated.
// It panics if counts is shorter than pivots.
func CountLE(xs, pivots []uint64, counts []int) {
	_ = counts[:len(pivots)]
	if !avx2 {
		countLEGo(xs, pivots, counts)
		return
	}
	countLEAVX2(xs, pivots, counts)
}

// CountScores sets below[j] and atOrBelow[j], for each j < len(pivots), to
// the numbers of elements of xs whose upper 32 bits are less than, and less
// than or equal to, the upper 32 bits of pivots[j]: for package metric's
// sort keys, the keys of a higher score, and of a higher or equal score,
// than pivot j's. Like CountLE, it takes len(xs)*len(pivots) comparisons
// (eight at a time on AVX2), so callers should use it only when
// Accelerated. It panics if below or atOrBelow is shorter than pivots.
func CountScores(xs, pivots []uint64, below, atOrBelow []int) {
	below, atOrBelow = below[:len(pivots)], atOrBelow[:len(pivots)]
	if !avx2 {
		countScoresGo(xs, pivots, below, atOrBelow)
		return
	}
	countScoresAVX2(xs, pivots, below, atOrBelow)
}

// Terms32 sets dst[i] = num[i] / den[i] * w[i] for each i < len(dst), in
// float32 (a division, then a multiplication, each rounded as Go rounds
// them), the result flushed to a zero of its sign when subnormal: the terms
// of average precision, eight at a time on AVX2. The operands are not
// flushed (the callers' are normal). dst may be num, den or w; it panics if
// num, den or w is shorter than dst.
func Terms32(dst, num, den, w []float32) {
	num, den, w = num[:len(dst)], den[:len(dst)], w[:len(dst)]
	n8 := len(dst) &^ 7
	if avx2 && n8 > 0 {
		terms32AVX2(dst[:n8], num, den, w)
	} else {
		n8 = 0
	}
	terms32Go(dst[n8:], num[n8:], den[n8:], w[n8:])
}

// CountAbove96 sets counts[j], for each j < len(pivots)/2, to the number of
// keys greater than pivot j. keys and pivots hold 96-bit keys as pairs of
// words, package metric's key64: a key's upper 64 bits (the score) in its
// first word, its lower 32 bits (the tie-break) in the lower half of its
// second, whose upper half is ignored. A trailing odd word is ignored. Like
// CountLE, it takes as many comparisons as keys times pivots (four at a time
// on AVX2), so callers should use it only when Accelerated. It panics if
// counts holds fewer than len(pivots)/2 counts.
func CountAbove96(keys, pivots []uint64, counts []int) {
	_ = counts[:len(pivots)/2]
	if !avx2 {
		countAbove96Go(keys, pivots, counts)
		return
	}
	// The kernel compares a key of a greater tie-break with the pivot's score
	// minus one, which a score of 0 (no score of package metric) lacks.
	for j := 0; j < len(pivots)-1; j += 2 {
		if pivots[j] == 0 {
			countAbove96Go(keys, pivots, counts)
			return
		}
	}
	countAbove96AVX2(keys, pivots, counts)
}

// CountScores64 is CountScores for the keys of CountAbove96: it sets
// below[j] and atOrBelow[j], for each j < len(pivots)/2, to the numbers of
// keys whose first word (package metric's score bits) is less than, and less
// than or equal to, that of pivot j; the second words are ignored. It takes
// as many comparisons as keys times pivots (four at a time on AVX2), so
// callers should use it only when Accelerated. It panics if below or
// atOrBelow holds fewer than len(pivots)/2 counts.
func CountScores64(keys, pivots []uint64, below, atOrBelow []int) {
	below, atOrBelow = below[:len(pivots)/2], atOrBelow[:len(pivots)/2]
	if !avx2 {
		countScores64Go(keys, pivots, below, atOrBelow)
		return
	}
	countScores64AVX2(keys, pivots, below, atOrBelow)
}
