package runio

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// benchGenPair returns a run and a qrels file in bench/gen's layout:
// queries of 100 documents D99..D00, each judged (qrels in that order)
// and ranked (the run in a random order, scores of 3 decimals).
func benchGenPair(queries int) (run, qrels []byte) {
	rng := rand.New(rand.NewPCG(5, 6))
	var r, q bytes.Buffer
	for qid := 1; qid <= queries; qid++ {
		for i := range 100 {
			fmt.Fprintf(&q, "%d 0 D%02d %d\n", qid, 99-i, rng.IntN(5)/3)
		}
		for k, i := range rng.Perm(100) {
			fmt.Fprintf(&r, "%d Q0 D%02d %d %.3f gen\n", qid, 99-i, k+1, 3-float64(k)*0.02)
		}
	}
	return r.Bytes(), q.Bytes()
}

// benchBlocks parses a TREC file into its blocks, one per qid.
func benchBlocks(tb testing.TB, data []byte, isRun bool) []*trecBlock {
	p := newTRECParser(bytes.NewReader(data), "bench", isRun, &Options{})
	var out []*trecBlock
	for {
		b := &trecBlock{}
		err := p.nextBlock(b)
		if err == io.EOF {
			return out
		}
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
}

// BenchmarkTRECJoin: the join alone (the document table, labels, scores,
// unranked judgments) of queries of 100 judged and 100 ranked documents,
// their blocks parsed beforehand, with and without keeping the ids: in
// bench/gen's layout (every judged document ranked), and benchTREC's (few
// of them); ns/line counts the lines of both files.
func BenchmarkTRECJoin(b *testing.B) {
	genRun, genQrels := benchGenPair(2000)
	run, qrels := benchTREC(2000)
	for _, c := range []struct {
		name       string
		qrels, run []byte
		keep       bool
	}{{"gen/ids=no", genQrels, genRun, false}, {"gen/ids=yes", genQrels, genRun, true}, {"disjoint/ids=no", qrels, run, false}} {
		qbs, rbs := benchBlocks(b, c.qrels, false), benchBlocks(b, c.run, true)
		keep := c.keep
		b.Run(c.name, func(b *testing.B) {
			t := &trecReader{opts: Options{KeepDocs: keep}, qname: "q", rname: "r", tbl: newDocTable()}
			var q Query
			lines := 0
			for i := range qbs {
				lines += len(qbs[i].vals) + len(rbs[i].vals)
			}
			b.ReportAllocs()
			for b.Loop() {
				for i := range qbs {
					if err := t.join(&q, qbs[i], rbs[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
		})
	}
}
