package treceval

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/racebuild"
)

// Ranking a topic of n documents takes at most 150 bytes per document: 40
// for its record, 24 for its sort key, 8 for its judgement in the result,
// and 2 to 4 of the docno table's 16-byte slots (4 here: 136 in all; two
// records and 32-byte slots took 240). The ranking is checked
// too: document i scores i, so the ranking is by decreasing index, and
// every 50th document is judged relevant (2) or not (0) by its index.
func TestRankMemory(t *testing.T) {
	const n, every = 1 << 19, 50
	docs := make([]Doc, n)
	var judged []Judgment
	for i := range docs {
		docs[i] = Doc{Docno: fmt.Sprintf("d%07d", i), Score: float64(i)}
		if i%every == 0 {
			judged = append(judged, Judgment{Docno: docs[i].Docno, Rel: int64(i / every % 2 * 2)})
		}
	}
	k := NewRanker(DefaultConfig(V10))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := k.Rank(judged, docs)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes per document", alloc/n)
	if alloc > 150*n && !racebuild.Enabled {
		t.Errorf("ranking %d documents allocated %d bytes, %d per document; want at most 150", n, alloc, alloc/n)
	}
	relRet := int64(0)
	for rank, rel := range r.Rels {
		i := n - 1 - rank
		want := int64(RelNonpool)
		if i%every == 0 {
			want = int64(i / every % 2 * 2)
		}
		if rel != want {
			t.Fatalf("rank %d (document %d): judgement %d, want %d", rank, i, rel, want)
		}
		if rel >= 1 {
			relRet++
		}
	}
	if len(r.Rels) != n || r.NumRelRet != relRet || r.NumRel != relRet {
		t.Errorf("%d ranked, %d relevant retrieved of %d; want %d, %d of %d", len(r.Rels), r.NumRelRet, r.NumRel, n, relRet, relRet)
	}
}
