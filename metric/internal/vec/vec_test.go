package vec

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// lengths are the lengths the tests try: every one up to 300, then some
// around the powers of two up to Eigen's 8192-value leaf.
func lengths() []int {
	var ns []int
	for n := range 301 {
		ns = append(ns, n)
	}
	ns = append(ns, 511, 512, 513, 1000, 1023, 1024, 1025, 4095, 4096, 4097, 8191, 8192)
	return ns
}

// float32s returns n values drawn to exercise every rule of the sums:
// magnitudes far apart (rounding), subnormals of both signs, values near the
// least normal whose sums and differences are subnormal, zeros of both signs
// and, when inf is true, infinities.
func float32s(rng *rand.Rand, n int, inf bool) []float32 {
	xs := make([]float32, n)
	for i := range xs {
		var x float32
		switch r := rng.IntN(16); {
		case r < 6:
			x = float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20)))
		case r < 8:
			x = math.Float32frombits(rng.Uint32() & 0x807fffff) // subnormal or zero
		case r < 11:
			x = float32(1+rng.IntN(4)) * 0x1p-126 * float32(rng.IntN(3)-1)
			if rng.IntN(2) == 0 {
				x += math.Float32frombits(rng.Uint32() & 0x007fffff)
			}
		case r < 12:
			x = float32(math.Copysign(0, float64(rng.IntN(2)*2-1)))
		case r < 13 && inf:
			x = float32(math.Inf(rng.IntN(2)*2 - 1))
		default:
			x = float32(rng.IntN(5)) * 0.25
		}
		xs[i] = x
	}
	return xs
}

func TestPackets32(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	for _, n := range lengths() {
		for off := range 8 {
			for _, inf := range []bool{false, true} {
				buf := float32s(rng, n+off, inf)
				xs := buf[off:]
				var want, got [8]float32
				packets32Go(xs, &want)
				for l := range got {
					got[l] = float32(l + 1) // ignored by the kernel
				}
				packets32AVX2(xs, &got)
				for l := range want {
					if math.Float32bits(got[l]) != math.Float32bits(want[l]) {
						t.Fatalf("n=%d off=%d inf=%v: lane %d = %g (%#08x), want %g (%#08x)",
							n, off, inf, l, got[l], math.Float32bits(got[l]), want[l], math.Float32bits(want[l]))
					}
				}
				var pub [8]float32
				Packets32(xs, &pub)
				if pub != want && !inf {
					t.Fatalf("n=%d off=%d: Packets32 = %v, want %v", n, off, pub, want)
				}
			}
		}
	}
}

// TestPackets32Order checks the reference itself against the rule it states
// on a sum where the order shows: lane 0 gets 2^24 and then ones, which a
// float32 loses one at a time, unless they are first summed in other
// accumulators.
func TestPackets32Order(t *testing.T) {
	xs := make([]float32, 48)
	xs[0] = 1 << 24
	for _, p := range []int{8, 16, 24, 40} {
		xs[p] = 1
	}
	var acc [8]float32
	packets32Go(xs, &acc)
	// Accumulators 1..3 hold 1 each, added one at a time to 2^24: lost. The
	// packet at 40 goes into a0 after the combination: lost too.
	if acc[0] != 1<<24 {
		t.Errorf("lane 0 = %g, want 2^24", acc[0])
	}
	xs[0], xs[32] = 1, 1<<24
	packets32Go(xs, &acc)
	// Now the four accumulators hold 1 each and combine to 4; 2^24 at 32 and
	// the 1 at 40 are remaining packets: 2^24+4, then 2^24+5 rounds to even.
	if acc[0] != 1<<24+4 {
		t.Errorf("lane 0 = %g, want 2^24+4", acc[0])
	}
}

func uint64s(rng *rand.Rand, n int) []uint64 {
	special := []uint64{0, 1, 1<<63 - 1, 1 << 63, 1<<63 + 1, math.MaxUint64, math.MaxUint64 - 1}
	xs := make([]uint64, n)
	for i := range xs {
		switch r := rng.IntN(4); r {
		case 0:
			xs[i] = special[rng.IntN(len(special))]
		case 1:
			xs[i] = uint64(rng.IntN(8)) << 62 >> uint(rng.IntN(3)) // few distinct values: ties
		default:
			xs[i] = rng.Uint64()
		}
	}
	return xs
}

func TestCountLE(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2))
	for _, n := range lengths() {
		for off := range 4 {
			buf := uint64s(rng, n+off)
			xs := buf[off:]
			np := rng.IntN(20)
			pivots := uint64s(rng, np)
			for j := range pivots {
				if n > 0 && rng.IntN(2) == 0 {
					pivots[j] = xs[rng.IntN(n)]
				}
			}
			want, got := make([]int, np), make([]int, np+1)
			got[np] = -7
			countLEGo(xs, pivots, want)
			countLEAVX2(xs, pivots, got)
			for j := range want {
				if got[j] != want[j] {
					t.Fatalf("n=%d off=%d pivot %#x: %d, want %d", n, off, pivots[j], got[j], want[j])
				}
			}
			if got[np] != -7 {
				t.Fatalf("n=%d: wrote past the pivots", n)
			}
			clear(got)
			countLEGo(xs, pivots, want)
			CountLE(xs, pivots, got)
			for j := range want {
				if got[j] != want[j] {
					t.Fatalf("CountLE n=%d pivot %d: %d, want %d", n, j, got[j], want[j])
				}
			}
		}
	}
}

func TestCountScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 4))
	for _, n := range lengths() {
		for off := range 4 {
			xs := uint64s(rng, n+off)[off:]
			ns := rng.IntN(20)
			// The pivots' upper halves are scores; their lower halves,
			// which must not matter, are random.
			scores := make([]uint64, ns)
			for j := range scores {
				var hi uint32
				switch r := rng.IntN(4); {
				case r == 0 && n > 0:
					hi = uint32(xs[rng.IntN(n)] >> 32)
				case r == 1:
					hi = []uint32{0, 1, 1<<31 - 1, 1 << 31, 1<<32 - 1}[rng.IntN(5)]
				default:
					hi = rng.Uint32()
				}
				scores[j] = uint64(hi)<<32 | uint64(rng.Uint32())
			}
			wb, wa := make([]int, ns), make([]int, ns)
			gb, ga := make([]int, ns+1), make([]int, ns+1)
			gb[ns], ga[ns] = -7, -7
			countScoresGo(xs, scores, wb, wa)
			countScoresAVX2(xs, scores, gb, ga)
			for j := range wb {
				if gb[j] != wb[j] || ga[j] != wa[j] {
					t.Fatalf("n=%d off=%d score %#x: %d %d, want %d %d", n, off, scores[j], gb[j], ga[j], wb[j], wa[j])
				}
			}
			if gb[ns] != -7 || ga[ns] != -7 {
				t.Fatalf("n=%d: wrote past the scores", n)
			}
			countScoresGo(xs, scores, wb, wa)
			CountScores(xs, scores, gb, ga)
			for j := range wb {
				if gb[j] != wb[j] || ga[j] != wa[j] {
					t.Fatalf("CountScores n=%d score %d: %d %d, want %d %d", n, j, gb[j], ga[j], wb[j], wa[j])
				}
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	xs, ps, cs := make([]float32, 100), make([]uint64, 100), make([]int, 10)
	var acc [8]float32
	if a := testing.AllocsPerRun(10, func() {
		Packets32(xs, &acc)
		CountLE(ps, ps[:10], cs)
	}); a != 0 {
		t.Errorf("%v allocations, want 0", a)
	}
}

func BenchmarkPackets32(b *testing.B) {
	xs := float32s(rand.New(rand.NewPCG(1, 1)), 1024, false)
	var acc [8]float32
	b.Run("avx2", func(b *testing.B) {
		for b.Loop() {
			Packets32(xs, &acc)
		}
	})
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			packets32Go(xs, &acc)
		}
	})
}

func BenchmarkCountLE(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	xs, ps, cs := uint64s(rng, 90), uint64s(rng, 10), make([]int, 10)
	for b.Loop() {
		CountLE(xs, ps, cs)
	}
}

func TestTerms32(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 3))
	for _, n := range lengths() {
		for off := range 8 {
			for _, inf := range []bool{false, true} {
				num := float32s(rng, n+off, inf)[off:]
				den := float32s(rng, n+off, inf)[off:]
				w := float32s(rng, n+off, inf)[off:]
				if rng.IntN(2) == 0 {
					// AP's own operands: ranks, positions and weights.
					for i := range num {
						num[i], den[i] = float32(1+rng.IntN(1<<rng.IntN(25))), float32(1+rng.IntN(1<<rng.IntN(25)))
						w[i] = float32(rng.ExpFloat64() * math.Pow(2, float64(rng.IntN(260)-130)))
					}
				}
				want := make([]float32, n)
				terms32Go(want, num, den, w)
				got := make([]float32, n+off)[off:]
				for i := range got {
					got[i] = 7 // overwritten
				}
				n8 := n &^ 7
				terms32AVX2(got[:n8], num, den, w)
				terms32Go(got[n8:], num[n8:], den[n8:], w[n8:])
				pub := append([]float32(nil), num...)
				Terms32(pub, pub, den, w)
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) || math.Float32bits(pub[i]) != math.Float32bits(want[i]) {
						t.Fatalf("n=%d off=%d inf=%v: term %d = %g (%#08x), Terms32 %g, want %g (%#08x); %g / %g * %g",
							n, off, inf, i, got[i], math.Float32bits(got[i]), pub[i], want[i], math.Float32bits(want[i]), num[i], den[i], w[i])
					}
				}
			}
		}
	}
}

// keys96 returns n keys of two words for CountAbove96: scores with many ties
// (uint64s), tie-breaks with few distinct low dwords and random upper dwords,
// which must not matter.
func keys96(rng *rand.Rand, n int) []uint64 {
	s := uint64s(rng, n)
	ks := make([]uint64, 2*n)
	for i := range n {
		tb := uint64(rng.IntN(4))
		switch rng.IntN(4) {
		case 0:
			tb = uint64(rng.Uint32())
		case 1:
			tb = []uint64{0, 1<<31 - 1, 1 << 31, 1<<32 - 1}[rng.IntN(4)]
		}
		ks[2*i], ks[2*i+1] = s[i], tb|rng.Uint64()<<32
	}
	return ks
}

func TestCountAbove96(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 6))
	for _, n := range lengths() {
		for off := range 4 {
			buf := keys96(rng, n+off)
			xs := buf[2*off:]
			if rng.IntN(8) == 0 {
				xs = append(xs[:len(xs):len(xs)], rng.Uint64()) // an odd word, ignored
			}
			np := rng.IntN(20)
			pivots := keys96(rng, np)
			for j := range np {
				switch r := rng.IntN(4); {
				case r == 0 && n > 0:
					q := rng.IntN(n)
					pivots[2*j], pivots[2*j+1] = xs[2*q], xs[2*q+1]
				case r == 1 && n > 0:
					// A key's score with a tie-break next to its own.
					q := rng.IntN(n)
					pivots[2*j] = xs[2*q]
					pivots[2*j+1] = uint64(uint32(xs[2*q+1]) + uint32(rng.IntN(3)) - 1)
				}
			}
			want, got := make([]int, np), make([]int, np+1)
			got[np] = -7
			countAbove96Go(xs, pivots, want)
			// The kernel takes no pivot of score 0; CountAbove96 does.
			nz := slices.Clone(pivots)
			for j := 0; j < len(nz); j += 2 {
				if nz[j] == 0 {
					nz[j] = 1
				}
			}
			countAbove96Go(xs, nz, want)
			countAbove96AVX2(xs, nz, got)
			for j := range want {
				if got[j] != want[j] {
					t.Fatalf("n=%d off=%d pivot %#x:%#x: %d, want %d", n, off, pivots[2*j], pivots[2*j+1], got[j], want[j])
				}
			}
			if got[np] != -7 {
				t.Fatalf("n=%d: wrote past the pivots", n)
			}
			clear(got)
			countAbove96Go(xs, pivots, want)
			CountAbove96(xs, pivots, got)
			for j := range want {
				if got[j] != want[j] {
					t.Fatalf("CountAbove96 n=%d pivot %d: %d, want %d", n, j, got[j], want[j])
				}
			}
		}
	}
}

// TestCountAbove96Reference checks the reference on keys whose order shows in
// the tie-break only, and its upper dword does not.
func TestCountAbove96Reference(t *testing.T) {
	keys := []uint64{5, 1, 5, 2, 5, 3 | 1<<40, 4, 9, 6, 0}
	counts := make([]int, 3)
	countAbove96Go(keys, []uint64{5, 2 | 7<<32, 5, 3, 4, 1<<32 - 1}, counts)
	if want := []int{2, 1, 4}; counts[0] != want[0] || counts[1] != want[1] || counts[2] != want[2] {
		t.Errorf("counts %v, want %v", counts, want)
	}
}

func BenchmarkCountAbove96(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	xs, ps, cs := keys96(rng, 90), keys96(rng, 10), make([]int, 10)
	for j := 0; j < len(ps); j += 2 {
		ps[j] |= 1 // the kernel's pivots
	}
	for b.Loop() {
		CountAbove96(xs, ps, cs)
	}
}

func TestCountScores64(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	for _, n := range lengths() {
		for off := range 4 {
			xs := keys96(rng, n+off)[2*off:]
			if rng.IntN(8) == 0 {
				xs = append(xs[:len(xs):len(xs)], 0) // an odd word, ignored
			}
			np := rng.IntN(20)
			pivots := keys96(rng, np)
			for j := range np {
				if rng.IntN(2) == 0 && n > 0 {
					pivots[2*j] = xs[2*rng.IntN(n)]
				}
			}
			wb, wa := make([]int, np), make([]int, np)
			gb, ga := make([]int, np+1), make([]int, np+1)
			gb[np], ga[np] = -7, -7
			countScores64Go(xs, pivots, wb, wa)
			countScores64AVX2(xs, pivots, gb, ga)
			for j := range wb {
				if gb[j] != wb[j] || ga[j] != wa[j] {
					t.Fatalf("n=%d off=%d score %#x: %d %d, want %d %d", n, off, pivots[2*j], gb[j], ga[j], wb[j], wa[j])
				}
			}
			if gb[np] != -7 || ga[np] != -7 {
				t.Fatalf("n=%d: wrote past the pivots", n)
			}
			clear(gb)
			clear(ga)
			CountScores64(xs, pivots, gb, ga)
			for j := range wb {
				if gb[j] != wb[j] || ga[j] != wa[j] {
					t.Fatalf("CountScores64 n=%d score %d: %d %d, want %d %d", n, j, gb[j], ga[j], wb[j], wa[j])
				}
			}
		}
	}
}

func BenchmarkCountScores64(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	xs, ps, cb, ca := keys96(rng, 90), keys96(rng, 10), make([]int, 10), make([]int, 10)
	for b.Loop() {
		CountScores64(xs, ps, cb, ca)
	}
}
