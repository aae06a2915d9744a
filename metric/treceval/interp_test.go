package treceval

import (
	"math"
	"math/rand/v2"
	"testing"
)

// interp divides only at relevant documents; trec_eval divides at every
// rank. The interpolated precisions are the same to the bit: checked
// against trec_eval's walk, written here as it does it, on random
// rankings with every cutoff, relevance levels from -2 to 3 (a negative
// level counts unjudged documents), and rankings of up to 300 documents.
func TestInterpMatchesEveryRank(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 6))
	for n := 0; n < 20000; n++ {
		cfg := DefaultConfig(V10)
		cfg.RelLevel = int64(r.IntN(6) - 2)
		e := &Evaluator{cfg: cfg}
		rk := &Ranked{Rels: make([]int64, 1+r.IntN(300))}
		for i := range rk.Rels {
			rk.Rels[i] = int64(r.IntN(6) - 2)
			if rk.Rels[i] >= 0 && rk.Rels[i] >= cfg.RelLevel {
				rk.NumRelRet++
			}
		}
		rk.NumRet = int64(len(rk.Rels))
		var cuts []int64
		for c := int64(0); c <= rk.NumRelRet+1; c++ {
			if r.IntN(3) == 0 {
				cuts = append(cuts, c)
			}
		}
		got := make([]float64, len(cuts))
		e.interp(rk, cuts, func(ci int, p float64) { got[ci] = p })

		want := make([]float64, len(cuts))
		cur := len(cuts) - 1
		for cur >= 0 && cuts[cur] > rk.NumRelRet {
			cur--
		}
		ip := float64(rk.NumRelRet) / float64(rk.NumRet)
		so := rk.NumRelRet
		for i := rk.NumRet; i > 0 && so > 0; i-- {
			if p := float64(so) / float64(i); ip < p {
				ip = p
			}
			if rk.Rels[i-1] >= cfg.RelLevel {
				for cur >= 0 && so == cuts[cur] {
					want[cur] = ip
					cur--
				}
				so--
			}
		}
		for ; cur >= 0; cur-- {
			want[cur] = ip
		}
		for i := range cuts {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("case %d (level %d, %v): cutoff %d: %v, trec_eval's walk %v", n, cfg.RelLevel, rk.Rels, cuts[i], got[i], want[i])
			}
		}
	}
}
