package treceval

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// benchTopic is a topic of n retrieved documents out of 2n judged-or-not
// documents, graded 0-3 with some -2, with ties.
func benchTopic(n int, seed uint64) ([]Judgment, []Doc) {
	r := rand.New(rand.NewPCG(seed, 1))
	var judged []Judgment
	var docs []Doc
	for i := 0; i < 2*n; i++ {
		d := "D" + strconv.Itoa(i)
		if r.IntN(3) > 0 {
			judged = append(judged, Judgment{d, int64(r.IntN(5)) - 1})
		}
		if i%2 == 0 {
			docs = append(docs, Doc{d, float64(r.IntN(n))})
		}
	}
	slices.SortFunc(judged, func(a, b Judgment) int { return strings.Compare(a.Docno, b.Docno) })
	judged[0].Rel = 1
	return judged, docs
}

func benchEvaluate(b *testing.B, measures ...string) {
	judged, docs := benchTopic(100, 1)
	ev, err := NewEvaluator(DefaultConfig(V10), measures)
	if err != nil {
		b.Fatal(err)
	}
	var tv TopicValues
	b.ReportAllocs()
	for b.Loop() {
		if err := ev.Evaluate("q", judged, docs, &tv); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvaluateAllTrec(b *testing.B) { benchEvaluate(b, "all_trec") }
func BenchmarkEvaluateMap(b *testing.B)     { benchEvaluate(b, "map") }

// Evaluating a topic allocates nothing once the buffers have grown.
func TestEvaluateSteadyStateAllocs(t *testing.T) {
	judged, docs := benchTopic(100, 2)
	for _, v := range []Version{V10, V908} {
		ev, err := NewEvaluator(DefaultConfig(v), []string{"all_trec", "ndcg.1=2,3=0.5"})
		if err != nil {
			t.Fatal(err)
		}
		var tv TopicValues
		_ = ev.Evaluate("q", judged, docs, &tv)
		if n := testing.AllocsPerRun(20, func() { _ = ev.Evaluate("q", judged, docs, &tv) }); n != 0 {
			t.Errorf("%s: %v allocations per topic", v, n)
		}
	}
}
