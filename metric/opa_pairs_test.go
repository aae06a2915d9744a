package metric

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// naivePairSums is the O(L²) pair loop of OPA with exact big.Float sums,
// rounded once to float64: the reference for opaPairSums.
func naivePairSums[T float32 | float64](fl, fs, fw []T) (lw, num float64) {
	l, n := new(big.Float).SetPrec(2000), new(big.Float).SetPrec(2000)
	for i := range fl {
		if fw[i] == 0 {
			continue
		}
		w := new(big.Float).SetPrec(2000).SetFloat64(float64(fw[i]))
		for j := range fl {
			if fw[j] == 0 || !(fl[i] > fl[j]) {
				continue
			}
			l.Add(l, w)
			if fs[i] > fs[j] {
				n.Add(n, w)
			}
		}
	}
	lw, _ = l.Float64()
	num, _ = n.Float64()
	return lw, num
}

// randomOPAList returns the flushed labels, scores and masked weights of a
// list of m items: few distinct labels (or up to 200 when manyLabels, more
// than fewLabels) and scores (ties), NaN labels and scores, ±Inf and ±0
// labels and scores, masked items and fractional weights.
func randomOPAList[T float32 | float64](rng *rand.Rand, m int, unit, manyLabels bool) (fl, fs, fw []T) {
	fl, fs, fw = make([]T, m), make([]T, m), make([]T, m)
	for i := range m {
		fl[i] = T(rng.IntN(5))
		if manyLabels {
			fl[i] = T(rng.IntN(200)) - 100
		}
		if fl[i] == 0 && rng.IntN(2) == 0 {
			fl[i] = T(math.Copysign(0, -1))
		}
		if rng.IntN(30) == 0 {
			fl[i] = T(math.NaN())
		}
		fs[i] = T(rng.IntN(1+m/3)) / 3
		switch rng.IntN(30) {
		case 0:
			fs[i] = T(math.NaN())
		case 1:
			fs[i] = T(math.Inf(1 - 2*rng.IntN(2)))
		case 2:
			fs[i] = T(math.Copysign(0, -1))
		}
		fw[i] = 1
		if !unit {
			fw[i] = T(rng.Float64() * 3)
		}
		if rng.IntN(8) == 0 {
			fw[i] = 0
		}
	}
	return fl, fs, fw
}

// TestOPAPairSums checks the O(L log L) pair sums against the O(L²) loop
// with exact sums, bit for bit, in both dtypes.
func TestOPAPairSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var ps32, ps64 opaPairs
	for trial := range 300 {
		m := rng.IntN(120)
		unit, many := trial%2 == 0, trial%4 >= 2
		fl, fs, fw := randomOPAList[float32](rng, m, unit, many)
		lw, num := opaPairSums(&ps32, fl, fs, fw)
		wlw, wnum := naivePairSums(fl, fs, fw)
		if lw != wlw || num != wnum {
			t.Fatalf("float32 trial %d: sums %v, %v; the pair loop gives %v, %v", trial, lw, num, wlw, wnum)
		}
		gl, gs, gw := randomOPAList[float64](rng, m, unit, many)
		lw, num = opaPairSums(&ps64, gl, gs, gw)
		wlw, wnum = naivePairSums(gl, gs, gw)
		if lw != wlw || num != wnum {
			t.Fatalf("float64 trial %d: sums %v, %v; the pair loop gives %v, %v", trial, lw, num, wlw, wnum)
		}
	}
}

// oldLongOPA is OPA of one list as the kernels computed it past
// opaMaxTerms before opaPairSums: the O(L²) loop summing in float64 in
// row-major order.
func oldLongOPA[T float32 | float64](fl, fs, fw []T) float64 {
	var lw, num float64
	for i := range fl {
		if fw[i] == 0 {
			continue
		}
		for j := range fl {
			if fw[j] == 0 || !(fl[i] > fl[j]) {
				continue
			}
			lw += float64(fw[i])
			if fs[i] > fs[j] {
				num += float64(fw[i])
			}
		}
	}
	if T(lw) == 0 {
		return 0
	}
	return float64(T(num) / T(lw))
}

// TestOPALongList runs OPA on a dense list longer than opaMaxTerms allows
// in TF's order: without weights, or with integer weights, every pair sum
// is an integer below 2^53, so the result is the O(L²) loop's to the bit.
// Its steady-state update does not allocate.
func TestOPALongList(t *testing.T) {
	const m = 2100 // 2100² > opaMaxTerms
	if m*m <= opaMaxTerms {
		t.Fatal("the list is not long enough for the long path")
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for _, d := range []DType{Float32, Float64} {
		for _, weighted := range []bool{false, true} {
			fl, fs, fw := randomOPAList[float64](rng, m, true, weighted)
			for i := range fl {
				if math.IsNaN(fl[i]) {
					fl[i] = -1 // masked in a dense list
				}
				if math.IsNaN(fs[i]) {
					fs[i] = 0.5 // NaN scores of valid items are an error
				}
				if weighted {
					fw[i] = float64(rng.IntN(4)) // 0 masks
				} else {
					fw[i] = 1
				}
			}
			// The kernel masks the items of label -1 of a dense list.
			masked := make([]float64, m)
			for i := range fw {
				if fl[i] >= 0 {
					masked[i] = fw[i]
				}
			}
			var want float64
			if d == Float32 {
				want = oldLongOPA(to32([][]float64{fl})[0], to32([][]float64{fs})[0], to32([][]float64{masked})[0])
			} else {
				want = oldLongOPA(fl, fs, masked)
			}
			opa, err := NewOPA(WithDType(d), WithTies(Stable))
			if err != nil {
				t.Fatal(err)
			}
			labels, _ := tensor.Dense(fl, 1, len(fl))
			preds, _ := tensor.Dense(fs, 1, len(fs))
			var w tensor.Weights
			if weighted {
				wl, _ := tensor.Dense(fw, 1, len(fw))
				w = tensor.PerItem(wl)
			}
			pl, err := opa.Compute(labels, preds, w)
			if err != nil {
				t.Fatal(err)
			}
			if pl.Values[0] != want || want == 0 {
				t.Fatalf("%s weighted %v: OPA %v, the O(L²) loop %v", d, weighted, pl.Values[0], want)
			}
			if n := testing.AllocsPerRun(3, func() { _ = opa.Update(labels, preds, w) }); n != 0 {
				t.Fatalf("%s: %v allocations per update of a long list", d, n)
			}
		}
	}
}

// TestOPALongListIsFast bounds the time of OPA on one list of 300,000
// items: the O(L²) pair loop took about 90 s, the pair sums take well under
// a second.
func TestOPALongListIsFast(t *testing.T) {
	labels, preds := longOPAList(300_000)
	opa, err := NewOPA(WithTies(Stable))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := opa.Update(labels, preds, tensor.Weights{}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("OPA of 300,000 items took %v", d)
	}
	if r := opa.Result(); !(r > 0.4 && r < 0.6) {
		t.Fatalf("OPA of random scores is %v, want about 1/2", r)
	}
}

// longOPAList returns one dense float32 list of m items with labels 0 to 4
// and random scores.
func longOPAList(m int) (labels, preds tensor.Lists) {
	rng := rand.New(rand.NewPCG(1, uint64(m)))
	lab, sc := make([]float32, m), make([]float32, m)
	for i := range lab {
		lab[i], sc[i] = float32(rng.IntN(5)), rng.Float32()
	}
	labels, _ = tensor.Dense(lab, 1, m)
	preds, _ = tensor.Dense(sc, 1, m)
	return labels, preds
}
