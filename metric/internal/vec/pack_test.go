package vec

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// labels returns n labels drawn from the values whose masks differ: -1, NaN,
// ±0, subnormals of both signs, ±2^-126, 0.5, 1, 2 and ±Inf.
func labels(rng *rand.Rand, n int) []float32 {
	vals := []float32{-1, float32(math.NaN()), 0, float32(math.Copysign(0, -1)),
		math.Float32frombits(1), math.Float32frombits(0x807fffff), 0x1p-126, -0x1p-126,
		0.5, 1, 1, 2, float32(math.Inf(1)), float32(math.Inf(-1)), 0, 0, 1}
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = vals[rng.IntN(len(vals))]
	}
	return xs
}

// scores returns n scores: float32s with infinities and, with probability
// 1/nanOdds each when nanOdds > 0, NaNs.
func scores(rng *rand.Rand, n, nanOdds int) []float32 {
	xs := float32s(rng, n, true)
	for i := range xs {
		if nanOdds > 0 && rng.IntN(nanOdds) == 0 {
			xs[i] = float32(math.NaN())
		}
	}
	return xs
}

// configs are every combination of Pack32's settings, at thresholds 1 and 0.5.
func configs() []Pack32 {
	var cs []Pack32
	for _, thr := range []float32{1, 0.5} {
		for _, ragged := range []bool{false, true} {
			for keys := range 3 {
				for tie := range 3 {
					cs = append(cs, Pack32{Thr: thr, Ragged: ragged, Keys: keys, Tie: tie})
				}
			}
		}
	}
	return cs
}

func samePacked(got, want Packed, gk, go_, wk, wo []uint64) bool {
	if got.Bad != want.Bad {
		return false
	}
	if want.Bad >= 0 {
		return true
	}
	return got == want && slices.Equal(gk[:got.Keys], wk[:want.Keys]) && slices.Equal(go_[:got.Oth], wo[:want.Oth])
}

func TestPack32(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 3))
	for _, n := range lengths() {
		for off := range 8 {
			for _, nanOdds := range []int{0, 3 * (n + 1)} {
				lab := labels(rng, n+off)[off:]
				sc := scores(rng, n+off, nanOdds)[off:]
				for _, c := range configs() {
					wk, wo := make([]uint64, n), make([]uint64, n)
					want := c.packGo(lab, sc, 0, wk, wo, Packed{Bad: -1})
					// The kernel alone, writing past the keys it reports but
					// not past the whole packets.
					n8 := (n + 7) &^ 7
					cfg := c.config()
					gk, gob := make([]uint64, n8+1), make([]uint64, n8+1)
					gk[n8], gob[n8] = 7, 7
					var got Packed
					got.Keys, got.Oth, got.Rel, got.Out, got.Bad = pack32AVX2(lab, sc[:n], gk[:n8], gob[:n8], &cfg)
					if !samePacked(got, want, gk, gob, wk, wo) || gk[n8] != 7 || gob[n8] != 7 {
						t.Fatalf("kernel n=%d off=%d %+v: %+v, want %+v", n, off, c, got, want)
					}
					want = c.packGo(lab, sc, 0, wk, wo, Packed{Bad: -1})
					got = c.Pack(lab, sc, gk, gob)
					if !samePacked(got, want, gk, gob, wk, wo) {
						t.Fatalf("Pack n=%d off=%d %+v: %+v, want %+v\n%x\n%x", n, off, c, got, want, gk[:got.Keys], wk[:want.Keys])
					}
				}
			}
		}
	}
}

// TestPack32Keys checks the reference's keys against the rules Pack32
// states, on the scores whose keys are special.
func TestPack32Keys(t *testing.T) {
	c := Pack32{Thr: 1, Ragged: true, Keys: KeysAll, Tie: TieRelevant}
	sc := []float32{0, float32(math.Copysign(0, -1)), math.Float32frombits(5), math.Float32frombits(0x80000005), 1, -1, float32(math.Inf(1)), float32(math.Inf(-1))}
	lab := []float32{1, 0, 0, 0, 0, 0, 0, 0}
	keys, oth := make([]uint64, 8), make([]uint64, 8)
	r := c.Pack(lab, sc, keys, oth)
	if r.Keys != 8 || r.Rel != 1 {
		t.Fatalf("%+v", r)
	}
	zero := keys[0] >> 32
	for i := 1; i < 4; i++ {
		if keys[i]>>32 != zero || uint32(keys[i]) != uint32(i) {
			t.Errorf("key %d = %#x, want a zero's", i, keys[i])
		}
	}
	if uint32(keys[0]) != 1<<31 {
		t.Errorf("relevant item's tie-break = %#x", uint32(keys[0]))
	}
	// Descending scores sort ascending: +Inf, 1, 0, -1, -Inf.
	order := []uint64{keys[6], keys[4], keys[0], keys[5], keys[7]}
	if !slices.IsSorted(order) {
		t.Errorf("keys out of order: %x", order)
	}
}

func BenchmarkPack32(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	lab, sc := labels(rng, 100), scores(rng, 100, 0)
	keys, oth := make([]uint64, 104), make([]uint64, 104)
	c := Pack32{Thr: 1}
	b.Run("avx2", func(b *testing.B) {
		for b.Loop() {
			c.Pack(lab, sc, keys, oth)
		}
	})
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			c.packGo(lab, sc, 0, keys, oth, Packed{Bad: -1})
		}
	})
}
