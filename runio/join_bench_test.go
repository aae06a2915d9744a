package runio

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// benchGenPair returns a run and a qrels file in bench/gen's layout:
// queries of 100 documents D99..D00, each judged (qrels in that order,
// labels 0 to 4, most 0) and ranked by a score of 3 decimals drawn as
// bench/gen does (0.6 × label + a normal deviate: 2.328, -0.123).
func benchGenPair(queries int) (run, qrels []byte) {
	rng := rand.New(rand.NewPCG(5, 6))
	var r, q bytes.Buffer
	type item struct {
		doc, label int
		milli      int64
	}
	items := make([]item, 100)
	for qid := 1; qid <= queries; qid++ {
		rate := 0.2 * rng.Float64()
		for i := range items {
			lab := 0
			if rng.Float64() < rate {
				lab = 1 + rng.IntN(4)
			}
			items[i] = item{99 - i, lab, int64(math.Round((0.6*float64(lab) + rng.NormFloat64()) * 1000))}
			fmt.Fprintf(&q, "%d 0 D%02d %d\n", qid, items[i].doc, lab)
		}
		slices.SortStableFunc(items, func(a, b item) int { return cmp.Compare(b.milli, a.milli) })
		for k, it := range items {
			fmt.Fprintf(&r, "%d Q0 D%02d %d %s gen\n", qid, it.doc, k+1, strconv.FormatFloat(float64(it.milli)/1000, 'f', 3, 64))
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
