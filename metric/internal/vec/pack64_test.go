package vec

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// labels64 returns n labels drawn from the values whose masks differ: -1,
// NaN, ±0, the least subnormals of both signs, ±2^-1022, 0.5, 1, 2 and ±Inf.
func labels64(rng *rand.Rand, n int) []float64 {
	vals := []float64{-1, math.NaN(), 0, math.Copysign(0, -1), 5e-324, -5e-324, 0x1p-1022, -0x1p-1022,
		0.5, 1, 1, 2, math.Inf(1), math.Inf(-1), 0, 0, 1, math.Nextafter(1, 0)}
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = vals[rng.IntN(len(vals))]
	}
	return xs
}

// scores64 returns n scores: ±0, subnormals, ±Inf, the extremes, ties and
// random values and, with probability 1/nanOdds each when nanOdds > 0, NaNs.
func scores64(rng *rand.Rand, n, nanOdds int) []float64 {
	vals := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 0x1p-1022 - 5e-324, math.Inf(1), math.Inf(-1),
		math.MaxFloat64, -math.MaxFloat64, 0.25, -0.25, 1, 3}
	xs := make([]float64, n)
	for i := range xs {
		if rng.IntN(2) == 0 {
			xs[i] = vals[rng.IntN(len(vals))]
		} else {
			xs[i] = rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20))
		}
		if nanOdds > 0 && rng.IntN(nanOdds) == 0 {
			xs[i] = math.Float64frombits(0x7ff8000000000000 | rng.Uint64()>>13 | rng.Uint64()&(1<<63))
		}
	}
	return xs
}

// configs64 are every combination of Pack64's settings, at thresholds 1, 0.5
// and 0 (which the tail's zero lanes meet).
func configs64() []Pack64 {
	var cs []Pack64
	for _, thr := range []float64{1, 0.5, 0} {
		for _, ragged := range []bool{false, true} {
			for keys := range 3 {
				for tie := range 3 {
					cs = append(cs, Pack64{Thr: thr, Ragged: ragged, Keys: keys, Tie: tie})
				}
			}
		}
	}
	return cs
}

func TestPack64(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 12))
	for _, n := range lengths() {
		if n > 1100 {
			continue
		}
		for off := range 4 {
			for _, nanOdds := range []int{0, 3 * (n + 1)} {
				lab := labels64(rng, n+off)[off:]
				sc := scores64(rng, n+off, nanOdds)[off:]
				for _, c := range configs64() {
					wk, wo := make([]uint64, 2*n), make([]uint64, 2*n)
					want := c.packGo(lab, sc, wk, wo)
					// The kernel alone, writing past the keys it reports but
					// not past the whole packets.
					n4 := 2 * ((n + 3) &^ 3)
					cfg := c.config()
					gk, gob := make([]uint64, n4+1), make([]uint64, n4+1)
					gk[n4], gob[n4] = 7, 7
					var got Packed
					got.Keys, got.Oth, got.Rel, got.Out, got.Bad = pack64AVX2(lab, sc[:n], gk[:n4], gob[:n4], &cfg)
					if !samePacked(Packed{Keys: 2 * got.Keys, Oth: 2 * got.Oth, Rel: got.Rel, Out: got.Out, Bad: got.Bad},
						Packed{Keys: 2 * want.Keys, Oth: 2 * want.Oth, Rel: want.Rel, Out: want.Out, Bad: want.Bad}, gk, gob, wk, wo) ||
						gk[n4] != 7 || gob[n4] != 7 {
						t.Fatalf("kernel n=%d off=%d %+v: %+v, want %+v\n%x\n%x", n, off, c, got, want, gk[:2*got.Keys], wk[:2*want.Keys])
					}
					clear(gk)
					clear(gob)
					got = c.Pack(lab, sc, gk, gob)
					if !samePacked(Packed{Keys: 2 * got.Keys, Oth: 2 * got.Oth, Rel: got.Rel, Out: got.Out, Bad: got.Bad},
						Packed{Keys: 2 * want.Keys, Oth: 2 * want.Oth, Rel: want.Rel, Out: want.Out, Bad: want.Bad}, gk, gob, wk, wo) {
						t.Fatalf("Pack n=%d off=%d %+v: %+v, want %+v", n, off, c, got, want)
					}
				}
			}
		}
	}
}

// TestPack64Keys checks the reference's keys against the rules Pack64
// states, on the scores whose keys are special.
func TestPack64Keys(t *testing.T) {
	c := Pack64{Thr: 1, Ragged: true, Keys: KeysAll, Tie: TieRelevant}
	sc := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1, -1, math.Inf(1), math.Inf(-1)}
	lab := []float64{1, 0, 0, 0, 0, 0, 0, 0}
	keys, oth := make([]uint64, 16), make([]uint64, 16)
	r := c.Pack(lab, sc, keys, oth)
	if r.Keys != 8 || r.Rel != 1 {
		t.Fatalf("%+v", r)
	}
	if keys[2] != keys[0] || keys[3] != 1 {
		t.Errorf("-0's key = %#x %#x, want +0's", keys[2], keys[3])
	}
	if keys[1] != 1<<31 {
		t.Errorf("relevant item's tie-break = %#x", keys[1])
	}
	// Descending scores sort ascending: +Inf, 1, 2^-1074, 0, -2^-1074, -1, -Inf.
	order := []uint64{keys[12], keys[8], keys[4], keys[0], keys[6], keys[10], keys[14]}
	if !slices.IsSorted(order) || len(slices.Compact(slices.Clone(order))) != len(order) {
		t.Errorf("keys out of order: %x", order)
	}
}

func BenchmarkPack64(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	lab, sc := labels64(rng, 100), scores64(rng, 100, 0)
	keys, oth := make([]uint64, 200), make([]uint64, 200)
	c := Pack64{Thr: 1, Keys: KeysRelevant}
	b.Run("avx2", func(b *testing.B) {
		for b.Loop() {
			c.Pack(lab, sc, keys, oth)
		}
	})
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			c.packGo(lab, sc, keys, oth)
		}
	})
}

func TestZeroAllocs64(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 13))
	lab, sc := labels64(rng, 100), scores64(rng, 100, 0)
	keys, oth := make([]uint64, 200), make([]uint64, 200)
	ps, cs := keys96(rng, 10), make([]int, 10)
	c := Pack64{Thr: 1, Keys: KeysRelevant}
	if a := testing.AllocsPerRun(10, func() {
		c.Pack(lab, sc, keys, oth)
		CountAbove96(keys, ps, cs)
		CountScores64(keys, ps, cs, cs)
	}); a != 0 {
		t.Errorf("%v allocations, want 0", a)
	}
}
