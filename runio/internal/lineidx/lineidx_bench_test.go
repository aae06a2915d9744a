package lineidx

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchLines returns n run lines in bench/gen's layout (100 per qid).
func benchLines(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for i := range n {
		k := i % 100
		fmt.Fprintf(&b, "%d Q0 D%d-%d %d %.3f gen\n", 1+i/100, rng.IntN(1000), k, k+1, 3-float64(k)*0.02+rng.Float64()*0.01)
	}
	return b.Bytes()
}

// BenchmarkIndex: the index alone, in ns per line, by the kernel and by
// indexGo, over 20000 run lines in batches of 64 records.
func BenchmarkIndex(b *testing.B) {
	data := benchLines(20000)
	lines := bytes.Count(data, []byte{'\n'})
	for _, c := range []struct {
		name string
		f    func([]byte, []Rec) int
	}{
		{"kernel", func(d []byte, r []Rec) int { return indexStrictAVX2(d, r) }},
		{"kernel-cspace", func(d []byte, r []Rec) int { return indexCAVX2(d, r) }},
		{"go", func(d []byte, r []Rec) int { return indexGo(d, r, false) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var recs [64]Rec
			n := 0
			for b.Loop() {
				pos := 0
				for {
					k := c.f(data[pos:], recs[:])
					if k == 0 {
						break
					}
					for i := range k {
						pos += int(recs[i][0]) + 1
					}
					n += k
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/line")
			_ = lines
		})
	}
}
