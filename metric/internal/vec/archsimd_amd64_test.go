//go:build goexperiment.simd && amd64 && !purego

// This file measures Go 1.26's experimental simd/archsimd against the avo
// kernels; it is built only with GOEXPERIMENT=simd, so the normal build and
// CI never see it. It writes CountLE and CountScores in archsimd (the same
// algorithms as countLEAVX2 and countScoresAVX2, plus variants that show
// what costs), checks them bit for bit against countLEGo and countScoresGo,
// and benchmarks them against avo and Go on a query's 90 keys x 10 pivots
// and on 1000 keys x 48:
//
//	GOEXPERIMENT=simd go test -c -o vec.test ./metric/internal/vec
//	for r in 1 2 3 4 5 6; do ./vec.test -test.run ArchSIMD -test.bench ArchSIMD \
//		-test.benchmem -test.count 1 -test.benchtime 200ms; done
//
// Go 1.26.8, AMD EPYC (Zen 3), 2 shared cores, six interleaved rounds, the
// fastest ns/op of each (0 B/op, 0 allocs/op everywhere):
//
//	kernel        shape    avo   archsimd  /avo  /Go    Go
//	CountLE       90x10     70      89     1.27  0.15    585
//	CountLE       1000x48 2417    3224     1.33  0.10  31452
//	CountScores   90x10     88     162     1.84  0.20    819
//	CountScores   1000x48 2502    5568     2.23  0.13  42766
//
// The variants, fastest ns/op and ratio to avo, 90x10 and 1000x48: CountLE
// indexed (xs[i:] rather than rest = rest[4:]) 123 1.75, 5068 2.10; naive
// (Uint64x4.LessEqual, one pivot a pass) 373 5.32, 18262 7.56; CountScores
// three (3 scores a pass) 145 1.65, 4172 1.67; arrays ([4]Int32x8
// accumulators) 310 3.53, 9994 3.99.
//
// archsimd expresses everything: the masked tail is LoadUint64x4SlicePart
// (VPMASKMOVQ, inlined), the tail mask of CountScores a Greater of a
// broadcast count against lane numbers; unsigned compares exist but are
// emulated on AVX2 (sign flip of both operands, and a NOT for LessEqual, at
// every call: the compiler does not hoist the pivots' flip out of the loop),
// so the sign bits are flipped by hand as in avo. All of it inlines, but the
// compiler gives at most 15 vector registers (X15 is the ABI's zero) and
// reloads loop invariants at the back edge: with 4 scores and 8 accumulators
// it reloads 8 vectors and stores 2 every 8 keys, and arrays of vectors live
// in memory, copied in 16-byte SSE halves. VZEROUPPER is not emitted:
// ClearAVXUpperBits must be called. So archsimd is 1.3x (CountLE) to 2.2x
// (CountScores) slower than avo, while 5 to 10 times faster than Go; and a
// package using it builds only where the final binary's builder sets
// GOEXPERIMENT=simd, against an API outside the Go 1 promise.

package vec

import (
	"math"
	"math/rand/v2"
	"simd/archsimd"
	"testing"
)

// countLEArch is countLEGo in archsimd, as countLEAVX2 does it: unsigned
// order is signed order with the sign bits flipped; pivots go 4, 2, then 1
// at a time over xs, 4 keys a step; the last len(xs)%4 keys are loaded under
// a mask (LoadUint64x4SlicePart), the lanes past the end as zeros, which
// flipped are below every pivot.
func countLEArch(xs, pivots []uint64, counts []int) {
	_ = counts[:len(pivots)]
	sign := archsimd.BroadcastInt64x4(math.MinInt64)
	flip := func(x uint64) archsimd.Int64x4 {
		return archsimd.BroadcastUint64x4(x).AsInt64x4().Xor(sign)
	}
	n := len(xs)
	j := 0
	for ; len(pivots)-j >= 4; j += 4 {
		p0, p1, p2, p3 := flip(pivots[j]), flip(pivots[j+1]), flip(pivots[j+2]), flip(pivots[j+3])
		var a0, a1, a2, a3 archsimd.Int64x4 // keys above each pivot, lane by lane
		rest := xs
		for ; len(rest) >= 4; rest = rest[4:] {
			x := archsimd.LoadUint64x4((*[4]uint64)(rest)).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
			a1 = a1.Sub(x.Greater(p1).ToInt64x4())
			a2 = a2.Sub(x.Greater(p2).ToInt64x4())
			a3 = a3.Sub(x.Greater(p3).ToInt64x4())
		}
		if len(rest) > 0 {
			x := archsimd.LoadUint64x4SlicePart(rest).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
			a1 = a1.Sub(x.Greater(p1).ToInt64x4())
			a2 = a2.Sub(x.Greater(p2).ToInt64x4())
			a3 = a3.Sub(x.Greater(p3).ToInt64x4())
		}
		counts[j], counts[j+1], counts[j+2], counts[j+3] = n-sum64(a0), n-sum64(a1), n-sum64(a2), n-sum64(a3)
	}
	if len(pivots)-j >= 2 {
		p0, p1 := flip(pivots[j]), flip(pivots[j+1])
		var a0, a1 archsimd.Int64x4
		rest := xs
		for ; len(rest) >= 4; rest = rest[4:] {
			x := archsimd.LoadUint64x4((*[4]uint64)(rest)).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
			a1 = a1.Sub(x.Greater(p1).ToInt64x4())
		}
		if len(rest) > 0 {
			x := archsimd.LoadUint64x4SlicePart(rest).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
			a1 = a1.Sub(x.Greater(p1).ToInt64x4())
		}
		counts[j], counts[j+1] = n-sum64(a0), n-sum64(a1)
		j += 2
	}
	if j < len(pivots) {
		p0 := flip(pivots[j])
		var a0 archsimd.Int64x4
		rest := xs
		for ; len(rest) >= 4; rest = rest[4:] {
			x := archsimd.LoadUint64x4((*[4]uint64)(rest)).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
		}
		if len(rest) > 0 {
			x := archsimd.LoadUint64x4SlicePart(rest).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
		}
		counts[j] = n - sum64(a0)
	}
	archsimd.ClearAVXUpperBits()
}

// countLEArchIndexed is countLEArch with the loops over xs indexed
// (xs[i:] at i += 4) rather than advancing a slice (rest = rest[4:]): the
// compiler checks the bounds at every step and spills the index.
func countLEArchIndexed(xs, pivots []uint64, counts []int) {
	_ = counts[:len(pivots)]
	sign := archsimd.BroadcastInt64x4(math.MinInt64)
	flip := func(x uint64) archsimd.Int64x4 {
		return archsimd.BroadcastUint64x4(x).AsInt64x4().Xor(sign)
	}
	n := len(xs)
	n4 := n &^ 3
	j := 0
	for ; len(pivots)-j >= 4; j += 4 {
		p0, p1, p2, p3 := flip(pivots[j]), flip(pivots[j+1]), flip(pivots[j+2]), flip(pivots[j+3])
		var a0, a1, a2, a3 archsimd.Int64x4 // keys above each pivot, lane by lane
		i := 0
		for ; i < n4; i += 4 {
			x := archsimd.LoadUint64x4Slice(xs[i:]).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
			a1 = a1.Sub(x.Greater(p1).ToInt64x4())
			a2 = a2.Sub(x.Greater(p2).ToInt64x4())
			a3 = a3.Sub(x.Greater(p3).ToInt64x4())
		}
		if i < n {
			x := archsimd.LoadUint64x4SlicePart(xs[i:]).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
			a1 = a1.Sub(x.Greater(p1).ToInt64x4())
			a2 = a2.Sub(x.Greater(p2).ToInt64x4())
			a3 = a3.Sub(x.Greater(p3).ToInt64x4())
		}
		counts[j], counts[j+1], counts[j+2], counts[j+3] = n-sum64(a0), n-sum64(a1), n-sum64(a2), n-sum64(a3)
	}
	if len(pivots)-j >= 2 {
		p0, p1 := flip(pivots[j]), flip(pivots[j+1])
		var a0, a1 archsimd.Int64x4
		i := 0
		for ; i < n4; i += 4 {
			x := archsimd.LoadUint64x4Slice(xs[i:]).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
			a1 = a1.Sub(x.Greater(p1).ToInt64x4())
		}
		if i < n {
			x := archsimd.LoadUint64x4SlicePart(xs[i:]).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
			a1 = a1.Sub(x.Greater(p1).ToInt64x4())
		}
		counts[j], counts[j+1] = n-sum64(a0), n-sum64(a1)
		j += 2
	}
	if j < len(pivots) {
		p0 := flip(pivots[j])
		var a0 archsimd.Int64x4
		i := 0
		for ; i < n4; i += 4 {
			x := archsimd.LoadUint64x4Slice(xs[i:]).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
		}
		if i < n {
			x := archsimd.LoadUint64x4SlicePart(xs[i:]).AsInt64x4().Xor(sign)
			a0 = a0.Sub(x.Greater(p0).ToInt64x4())
		}
		counts[j] = n - sum64(a0)
	}
	archsimd.ClearAVXUpperBits()
}

// countLEArchNaive is countLEGo in archsimd as a first try would write it:
// one pivot at a time, Uint64x4.LessEqual (which archsimd emulates on AVX2
// with a sign flip of both operands and a NOT), and LoadUint64x4SlicePart
// on every step, whole or not.
func countLEArchNaive(xs, pivots []uint64, counts []int) {
	_ = counts[:len(pivots)]
	n := len(xs)
	for j, p := range pivots {
		pv := archsimd.BroadcastUint64x4(p)
		var le archsimd.Int64x4
		for i := 0; i < n; i += 4 {
			x := archsimd.LoadUint64x4SlicePart(xs[i:])
			le = le.Sub(x.LessEqual(pv).ToInt64x4())
		}
		// The lanes past the end load as zeros, which are <= every pivot.
		counts[j] = sum64(le) - (-n & 3)
	}
	archsimd.ClearAVXUpperBits()
}

// sum64 adds the four lanes of v.
func sum64(v archsimd.Int64x4) int {
	s := v.GetLo().Add(v.GetHi())
	return int(s.GetElem(0) + s.GetElem(1))
}

// sum32 adds the eight lanes of v.
func sum32(v archsimd.Int32x8) int {
	s := v.GetLo().Add(v.GetHi())
	s = s.AddPairs(s)
	return int(s.GetElem(0) + s.GetElem(1))
}

// scoreCounts returns the numbers of the n keys at or below, and below, a
// score, from the lane counts of the keys above it (gt) and at it (eq).
func scoreCounts(n int, gt, eq archsimd.Int32x8) (atOrBelow, below int) {
	g := sum32(gt)
	return n - g, n - g - sum32(eq)
}

// countScoresArch is countScoresGo in archsimd, as countScoresAVX2 does it:
// the upper halves of 8 keys are gathered into one Uint32x8 (VSHUFPS of the
// odd dwords, in the lane order 0, 1, 4, 5, 2, 3, 6, 7), flipped to signed
// order, and compared with 4 scores a pass, the last score repeated to fill
// the last pass; lanes count the keys above and at each score. The last
// len(xs)%8 keys are loaded under masks, the lanes past the end as zeros,
// whose score is below every other but may equal one: the equal counts are
// masked to the lanes that hold keys.
func countScoresArch(xs []uint64, scores []uint64, below, atOrBelow []int) {
	below, atOrBelow = below[:len(scores)], atOrBelow[:len(scores)]
	sign := archsimd.BroadcastInt32x8(math.MinInt32)
	flip := func(s uint32) archsimd.Int32x8 {
		return archsimd.BroadcastUint32x8(s).AsInt32x8().Xor(sign)
	}
	lanes := [8]int32{0, 1, 4, 5, 2, 3, 6, 7}
	order := archsimd.LoadInt32x8(&lanes)
	n := len(xs)
	last := len(scores) - 1
	for j := 0; j <= last; j += 4 {
		p0, p1, p2, p3 := flip(uint32(scores[j]>>32)), flip(uint32(scores[min(j+1, last)]>>32)), flip(uint32(scores[min(j+2, last)]>>32)), flip(uint32(scores[min(j+3, last)]>>32))
		var g0, g1, g2, g3, e0, e1, e2, e3 archsimd.Int32x8
		rest := xs
		for ; len(rest) >= 8; rest = rest[8:] {
			lo := archsimd.LoadUint64x4((*[4]uint64)(rest)).AsUint32x8()
			hi := archsimd.LoadUint64x4((*[4]uint64)(rest[4:])).AsUint32x8()
			h := lo.SelectFromPairGrouped(1, 3, 5, 7, hi).AsInt32x8().Xor(sign)
			g0, e0 = g0.Sub(h.Greater(p0).ToInt32x8()), e0.Sub(h.Equal(p0).ToInt32x8())
			g1, e1 = g1.Sub(h.Greater(p1).ToInt32x8()), e1.Sub(h.Equal(p1).ToInt32x8())
			g2, e2 = g2.Sub(h.Greater(p2).ToInt32x8()), e2.Sub(h.Equal(p2).ToInt32x8())
			g3, e3 = g3.Sub(h.Greater(p3).ToInt32x8()), e3.Sub(h.Equal(p3).ToInt32x8())
		}
		if len(rest) > 0 {
			lo := archsimd.LoadUint64x4SlicePart(rest).AsUint32x8()
			hi := archsimd.LoadUint64x4SlicePart(rest[min(4, len(rest)):]).AsUint32x8()
			h := lo.SelectFromPairGrouped(1, 3, 5, 7, hi).AsInt32x8().Xor(sign)
			keys := archsimd.BroadcastInt32x8(int32(len(rest))).Greater(order)
			g0, e0 = g0.Sub(h.Greater(p0).ToInt32x8()), e0.Sub(h.Equal(p0).And(keys).ToInt32x8())
			g1, e1 = g1.Sub(h.Greater(p1).ToInt32x8()), e1.Sub(h.Equal(p1).And(keys).ToInt32x8())
			g2, e2 = g2.Sub(h.Greater(p2).ToInt32x8()), e2.Sub(h.Equal(p2).And(keys).ToInt32x8())
			g3, e3 = g3.Sub(h.Greater(p3).ToInt32x8()), e3.Sub(h.Equal(p3).And(keys).ToInt32x8())
		}
		atOrBelow[j], below[j] = scoreCounts(n, g0, e0)
		if j+1 <= last {
			atOrBelow[j+1], below[j+1] = scoreCounts(n, g1, e1)
		}
		if j+2 <= last {
			atOrBelow[j+2], below[j+2] = scoreCounts(n, g2, e2)
		}
		if j+3 <= last {
			atOrBelow[j+3], below[j+3] = scoreCounts(n, g3, e3)
		}
	}
	archsimd.ClearAVXUpperBits()
}

// countScoresArch3 is countScoresArch with 3 scores a pass rather than 4:
// 4 scores, their 8 accumulators, the keys, the sign and the comparisons'
// results need more than the 15 vector registers the compiler may use (X15
// is the ABI's zero), and it reloads 8 vectors and stores 2 every 8 keys; with
// 3 it still reloads some (the tail's constants) but fewer.
func countScoresArch3(xs []uint64, scores []uint64, below, atOrBelow []int) {
	below, atOrBelow = below[:len(scores)], atOrBelow[:len(scores)]
	sign := archsimd.BroadcastInt32x8(math.MinInt32)
	flip := func(s uint32) archsimd.Int32x8 {
		return archsimd.BroadcastUint32x8(s).AsInt32x8().Xor(sign)
	}
	lanes := [8]int32{0, 1, 4, 5, 2, 3, 6, 7}
	order := archsimd.LoadInt32x8(&lanes)
	n := len(xs)
	last := len(scores) - 1
	for j := 0; j <= last; j += 3 {
		p0, p1, p2 := flip(uint32(scores[j]>>32)), flip(uint32(scores[min(j+1, last)]>>32)), flip(uint32(scores[min(j+2, last)]>>32))
		var g0, g1, g2, e0, e1, e2 archsimd.Int32x8
		rest := xs
		for ; len(rest) >= 8; rest = rest[8:] {
			lo := archsimd.LoadUint64x4((*[4]uint64)(rest)).AsUint32x8()
			hi := archsimd.LoadUint64x4((*[4]uint64)(rest[4:])).AsUint32x8()
			h := lo.SelectFromPairGrouped(1, 3, 5, 7, hi).AsInt32x8().Xor(sign)
			g0, e0 = g0.Sub(h.Greater(p0).ToInt32x8()), e0.Sub(h.Equal(p0).ToInt32x8())
			g1, e1 = g1.Sub(h.Greater(p1).ToInt32x8()), e1.Sub(h.Equal(p1).ToInt32x8())
			g2, e2 = g2.Sub(h.Greater(p2).ToInt32x8()), e2.Sub(h.Equal(p2).ToInt32x8())
		}
		if len(rest) > 0 {
			lo := archsimd.LoadUint64x4SlicePart(rest).AsUint32x8()
			hi := archsimd.LoadUint64x4SlicePart(rest[min(4, len(rest)):]).AsUint32x8()
			h := lo.SelectFromPairGrouped(1, 3, 5, 7, hi).AsInt32x8().Xor(sign)
			keys := archsimd.BroadcastInt32x8(int32(len(rest))).Greater(order)
			g0, e0 = g0.Sub(h.Greater(p0).ToInt32x8()), e0.Sub(h.Equal(p0).And(keys).ToInt32x8())
			g1, e1 = g1.Sub(h.Greater(p1).ToInt32x8()), e1.Sub(h.Equal(p1).And(keys).ToInt32x8())
			g2, e2 = g2.Sub(h.Greater(p2).ToInt32x8()), e2.Sub(h.Equal(p2).And(keys).ToInt32x8())
		}
		atOrBelow[j], below[j] = scoreCounts(n, g0, e0)
		if j+1 <= last {
			atOrBelow[j+1], below[j+1] = scoreCounts(n, g1, e1)
		}
		if j+2 <= last {
			atOrBelow[j+2], below[j+2] = scoreCounts(n, g2, e2)
		}
	}
	archsimd.ClearAVXUpperBits()
}

// countScoresArchArrays is countScoresArch with its 4 scores and 8
// accumulators in arrays, looped over with range: the compiler keeps arrays
// of vectors in memory (it does not unroll the loops or give the elements
// registers), so every comparison loads and stores them.
func countScoresArchArrays(xs []uint64, scores []uint64, below, atOrBelow []int) {
	below, atOrBelow = below[:len(scores)], atOrBelow[:len(scores)]
	sign := archsimd.BroadcastInt32x8(math.MinInt32)
	lanes := [8]int32{0, 1, 4, 5, 2, 3, 6, 7}
	order := archsimd.LoadInt32x8(&lanes)
	n := len(xs)
	last := len(scores) - 1
	for j := 0; j <= last; j += 4 {
		var p [4]archsimd.Int32x8
		for k := range p {
			p[k] = archsimd.BroadcastUint32x8(uint32(scores[min(j+k, last)] >> 32)).AsInt32x8().Xor(sign)
		}
		var gt, eq [4]archsimd.Int32x8
		rest := xs
		for ; len(rest) >= 8; rest = rest[8:] {
			lo := archsimd.LoadUint64x4((*[4]uint64)(rest)).AsUint32x8()
			hi := archsimd.LoadUint64x4((*[4]uint64)(rest[4:])).AsUint32x8()
			h := lo.SelectFromPairGrouped(1, 3, 5, 7, hi).AsInt32x8().Xor(sign)
			for k := range p {
				gt[k] = gt[k].Sub(h.Greater(p[k]).ToInt32x8())
				eq[k] = eq[k].Sub(h.Equal(p[k]).ToInt32x8())
			}
		}
		if len(rest) > 0 {
			lo := archsimd.LoadUint64x4SlicePart(rest).AsUint32x8()
			hi := archsimd.LoadUint64x4SlicePart(rest[min(4, len(rest)):]).AsUint32x8()
			h := lo.SelectFromPairGrouped(1, 3, 5, 7, hi).AsInt32x8().Xor(sign)
			keys := archsimd.BroadcastInt32x8(int32(len(rest))).Greater(order)
			for k := range p {
				gt[k] = gt[k].Sub(h.Greater(p[k]).ToInt32x8())
				eq[k] = eq[k].Sub(h.Equal(p[k]).And(keys).ToInt32x8())
			}
		}
		for k := range min(4, last+1-j) {
			g, e := sum32(gt[k]), sum32(eq[k])
			atOrBelow[j+k], below[j+k] = n-g, n-g-e
		}
	}
	archsimd.ClearAVXUpperBits()
}

// scoresFor returns ns pivots for xs whose upper halves, the scores, are
// upper halves of its keys, the extremes and random values; their lower
// halves, which must not matter, are random.
func scoresFor(rng *rand.Rand, xs []uint64, ns int) []uint64 {
	scores := make([]uint64, ns)
	for j := range scores {
		var hi uint32
		switch r := rng.IntN(4); {
		case r == 0 && len(xs) > 0:
			hi = uint32(xs[rng.IntN(len(xs))] >> 32)
		case r == 1:
			hi = []uint32{0, 1, 1<<31 - 1, 1 << 31, 1<<32 - 1}[rng.IntN(5)]
		default:
			hi = rng.Uint32()
		}
		scores[j] = uint64(hi)<<32 | uint64(rng.Uint32())
	}
	return scores
}

// pivotsFor returns np pivots for xs: half of them keys of xs, the others
// drawn as uint64s draws keys.
func pivotsFor(rng *rand.Rand, xs []uint64, np int) []uint64 {
	pivots := uint64s(rng, np)
	for j := range pivots {
		if len(xs) > 0 && rng.IntN(2) == 0 {
			pivots[j] = xs[rng.IntN(len(xs))]
		}
	}
	return pivots
}

func TestArchSIMDCountLE(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("no AVX2")
	}
	impls := []struct {
		name string
		f    func(xs, pivots []uint64, counts []int)
	}{{"archsimd", countLEArch}, {"indexed", countLEArchIndexed}, {"naive", countLEArchNaive}}
	rng := rand.New(rand.NewPCG(14, 5))
	for _, n := range lengths() {
		for off := range 4 {
			xs := uint64s(rng, n+off)[off:]
			np := rng.IntN(20)
			pivots := pivotsFor(rng, xs, np)
			want := make([]int, np)
			countLEGo(xs, pivots, want)
			for _, impl := range impls {
				got := make([]int, np+1)
				got[np] = -7
				impl.f(xs, pivots, got)
				for j := range want {
					if got[j] != want[j] {
						t.Fatalf("%s n=%d off=%d pivot %#x: %d, want %d", impl.name, n, off, pivots[j], got[j], want[j])
					}
				}
				if got[np] != -7 {
					t.Fatalf("%s n=%d: wrote past the pivots", impl.name, n)
				}
			}
		}
	}
}

// scoresImpl is a version of countScoresGo, named.
type scoresImpl struct {
	name string
	f    func(xs []uint64, scores []uint64, below, atOrBelow []int)
}

// scoresImpls returns the archsimd versions of countScoresGo.
func scoresImpls() []scoresImpl {
	return []scoresImpl{{"archsimd", countScoresArch}, {"arrays", countScoresArchArrays}, {"three", countScoresArch3}}
}

func TestArchSIMDCountScores(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(14, 6))
	for _, n := range lengths() {
		for off := range 4 {
			xs := uint64s(rng, n+off)[off:]
			ns := rng.IntN(20)
			scores := scoresFor(rng, xs, ns)
			wb, wa := make([]int, ns), make([]int, ns)
			countScoresGo(xs, scores, wb, wa)
			for _, impl := range scoresImpls() {
				gb, ga := make([]int, ns+1), make([]int, ns+1)
				gb[ns], ga[ns] = -7, -7
				impl.f(xs, scores, gb, ga)
				for j := range wb {
					if gb[j] != wb[j] || ga[j] != wa[j] {
						t.Fatalf("%s n=%d off=%d score %#x: %d %d, want %d %d", impl.name, n, off, scores[j], gb[j], ga[j], wb[j], wa[j])
					}
				}
				if gb[ns] != -7 || ga[ns] != -7 {
					t.Fatalf("%s n=%d: wrote past the scores", impl.name, n)
				}
			}
		}
	}
}

// TestArchSIMDCountScoresZeros checks the masked tail where it matters: the
// lanes past the end load as zeros, and a score of 0 equals them.
func TestArchSIMDCountScoresZeros(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("no AVX2")
	}
	for n := range 20 {
		xs := make([]uint64, n)
		for i := range xs {
			xs[i] = uint64(i%3) << 32
		}
		scores := []uint64{0, 1 << 32, 2 << 32, 3 << 32, 0}
		wb, wa := make([]int, len(scores)), make([]int, len(scores))
		gb, ga := make([]int, len(scores)), make([]int, len(scores))
		countScoresGo(xs, scores, wb, wa)
		for _, impl := range scoresImpls() {
			impl.f(xs, scores, gb, ga)
			for j := range wb {
				if gb[j] != wb[j] || ga[j] != wa[j] {
					t.Fatalf("%s n=%d score %d: %d %d, want %d %d", impl.name, n, scores[j], gb[j], ga[j], wb[j], wa[j])
				}
			}
		}
	}
}

func TestArchSIMDZeroAllocs(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	xs := uint64s(rng, 101)
	ps, ss := pivotsFor(rng, xs, 11), scoresFor(rng, xs, 11)
	cs, bs := make([]int, 11), make([]int, 11)
	if a := testing.AllocsPerRun(10, func() {
		countLEArch(xs, ps, cs)
		countLEArchIndexed(xs, ps, cs)
		countLEArchNaive(xs, ps, cs)
		countScoresArch(xs, ss, bs, cs)
		countScoresArchArrays(xs, ss, bs, cs)
		countScoresArch3(xs, ss, bs, cs)
	}); a != 0 {
		t.Errorf("%v allocations, want 0", a)
	}
}

// archShape is a benchmark's shape: n keys against np pivots or scores.
type archShape struct {
	name  string
	n, np int
	seed  uint64
}

// archShapes returns the benchmarks' shapes: a query's 90 keys against 10
// pivots, and 1000 keys against 48.
func archShapes() []archShape {
	return []archShape{{"90x10", 90, 10, 1}, {"1000x48", 1000, 48, 2}}
}

func BenchmarkArchSIMDCountLE(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("no AVX2")
	}
	for _, s := range archShapes() {
		rng := rand.New(rand.NewPCG(s.seed, 5))
		xs := uint64s(rng, s.n)
		ps, cs := pivotsFor(rng, xs, s.np), make([]int, s.np)
		for _, impl := range []struct {
			name string
			f    func(xs, pivots []uint64, counts []int)
		}{{"avo", countLEAVX2}, {"archsimd", countLEArch}, {"indexed", countLEArchIndexed}, {"naive", countLEArchNaive}, {"go", countLEGo}} {
			b.Run(s.name+"/"+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					impl.f(xs, ps, cs)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.n*s.np), "ns/cmp")
			})
		}
	}
}

func BenchmarkArchSIMDCountScores(b *testing.B) {
	if !archsimd.X86.AVX2() {
		b.Skip("no AVX2")
	}
	for _, s := range archShapes() {
		rng := rand.New(rand.NewPCG(s.seed, 6))
		xs := uint64s(rng, s.n)
		ss := scoresFor(rng, xs, s.np)
		bs, as := make([]int, s.np), make([]int, s.np)
		impls := append([]scoresImpl{{"avo", countScoresAVX2}}, scoresImpls()...)
		for _, impl := range append(impls, scoresImpl{"go", countScoresGo}) {
			b.Run(s.name+"/"+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					impl.f(xs, ss, bs, as)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.n*s.np), "ns/cmp")
			})
		}
	}
}
