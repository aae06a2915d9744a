package metric

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refTreeSum transcribes the tree split of parity/SUMMATION.md for sums
// longer than 8192, over refSum's leaf.
func refTreeSum(buf []float32, first, n int, top bool) float32 {
	if n <= 8192 {
		if !top && n == 1 {
			return refFTZ(refFTZ(float32(0)) + refFTZ(buf[first]))
		}
		return refSum(buf[first : first+n])
	}
	half := (n + 1) / 2
	split := 8 * ((first + half + 7) / 8)
	left := min(split-first, n)
	acc := refFTZ(0 + refTreeSum(buf, first, left, false))
	if left < n {
		acc = refFTZ(acc + refTreeSum(buf, split, n-left, false))
	}
	return acc
}

func randomTerms(rng *rand.Rand, n int, zeros float64) []float32 {
	xs := make([]float32, n)
	for i := range xs {
		if rng.Float64() < zeros {
			continue
		}
		xs[i] = float32(rng.Float64() * math.Ldexp(1, rng.IntN(28)-14))
		if rng.IntN(4) == 0 {
			xs[i] = -xs[i]
		}
	}
	return xs
}

// TestSumFloat32 checks the Eigen-order sum against the dense transcription
// of the reference, and the sparse laneSum against both, on every length
// up to 600 and on tree-split lengths at several buffer offsets.
func TestSumFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	lengths := []int{}
	for n := 0; n <= 600; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 8191, 8192, 8193, 9000, 16385, 40001)
	var buf []float32
	for _, n := range lengths {
		for _, zeros := range []float64{0, 0.9} {
			xs := randomTerms(rng, n, zeros)
			first := 8 * rng.IntN(4) * n
			if rng.IntN(2) == 0 {
				first += rng.IntN(8)
			}
			padded := make([]float32, first+n)
			copy(padded[first:], xs)
			want := refTreeSum(padded, first, n, true)
			if got := sumFloat32(xs, first); math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("n %d first %d: sumFloat32 %v, reference %v", n, first, got, want)
			}
			var a laneSumFloat32
			a.reset(n, first, &buf)
			for p, x := range xs {
				if x != 0 {
					a.add(p, x)
				}
			}
			if got := a.result(); math.Float32bits(got) != math.Float32bits(want) && !(got == 0 && want == 0) {
				t.Fatalf("n %d first %d zeros %v: laneSum %v, reference %v", n, first, zeros, got, want)
			}
		}
	}
}

// TestSumFloat32Order pins the order with values whose float32 sum depends
// on it: 2^24 then eight 1s. Left to right the 1s are lost; in lanes the
// eight 1s of lanes 1..7 meet first.
func TestSumFloat32Order(t *testing.T) {
	xs := []float32{1 << 24, 1, 1, 1, 1, 1, 1, 1, 1}
	// Lanes 0..7 hold 2^24, 1, ..., 1 and the ninth value is the tail:
	// m0 = 2^24+1 rounds to 2^24, m1..m3 = 2; (2^24 + 2) + 4 = 2^24 + 6; the
	// tail's 1 makes 2^24 + 7, which rounds to the even 2^24 + 8.
	if got := sumFloat32(xs, 0); got != 1<<24+8 {
		t.Fatalf("lane order: %v, want %v", got, float32(1<<24+8))
	}
	var seq float32
	for _, x := range xs {
		seq += x
	}
	if seq != 1<<24 {
		t.Fatalf("sequential: %v", seq)
	}
	// Subnormals are flushed: TF gives 0 where IEEE gives 3.3e-39.
	if got := sumFloat32([]float32{1e-40, 2e-40, 3e-39}, 0); got != 0 {
		t.Fatalf("subnormal sum %v, want 0", got)
	}
	// A single element is copied, -0 included.
	if got := sumFloat32([]float32{float32(math.Copysign(0, -1))}, 0); !math.Signbit(float64(got)) {
		t.Fatal("single -0 lost its sign")
	}
}

// TestLaneSumAddTerms checks addTerms against add one term at a time, bit
// for bit, on every length up to 600 and on tree-split lengths, with dense
// and sparse positions, some added by add before the batch.
func TestLaneSumAddTerms(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 7))
	lengths := []int{}
	for n := 0; n <= 600; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 8191, 8192, 8193, 9000)
	var buf1, buf2 []float32
	for _, n := range lengths {
		for _, dens := range []float64{1, 0.5, 0.1} {
			var ps []int
			var num, den, w []float32
			for p := range n {
				if rng.Float64() < dens {
					ps = append(ps, p)
					num = append(num, float32(1+len(ps)))
					den = append(den, float32(p+1))
					w = append(w, float32(rng.ExpFloat64()*math.Ldexp(1, rng.IntN(260)-130)))
				}
			}
			first := rng.IntN(4) * n
			var want, got laneSumFloat32
			want.reset(n, first, &buf1)
			got.reset(n, first, &buf2)
			pre := 0
			if len(ps) > 0 {
				pre = rng.IntN(len(ps))
			}
			for i, p := range ps {
				term := ftzFloat32(float32(num[i]/den[i]) * w[i])
				want.add(p, term)
				if i < pre {
					got.add(p, term)
				}
			}
			got.addTerms(ps[pre:], num[pre:], den[pre:], w[pre:])
			if g, e := got.result(), want.result(); math.Float32bits(g) != math.Float32bits(e) {
				t.Fatalf("n %d density %v first %d pre %d: addTerms %v, add %v", n, dens, first, pre, g, e)
			}
		}
	}
}
