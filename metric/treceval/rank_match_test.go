package treceval

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Rank's judgement of each ranked document, its duplicate checks and its
// counts are a naive ranking's: a sort by score, then docno, both
// decreasing, and a map from docno to judgement. The docnos are drawn to
// meet every case of the docno table: at most 8 bytes and longer, equal
// first 8 bytes and different lengths, NUL bytes (which a prefix key pads
// with), a docno that is another's prefix.
func TestRankMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 4))
	parts := []string{"a", "b", "\x00", "D1", "clueweb09-en0000", "\xff", "7"}
	docno := func() string {
		var b strings.Builder
		for range 1 + r.IntN(4) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		return b.String()
	}
	k := NewRanker(DefaultConfig(V10))
	dups := 0
	for n := 0; n < 3000; n++ {
		pool := make([]string, 1+r.IntN(60))
		for i := range pool {
			pool[i] = docno()
		}
		var docs []Doc
		var judged []Judgment
		for _, d := range pool {
			if r.IntN(3) > 0 {
				docs = append(docs, Doc{Docno: d, Score: float64(r.IntN(5))})
			}
			if r.IntN(3) > 0 || len(judged) == 0 {
				judged = append(judged, Judgment{Docno: d, Rel: int64(r.IntN(5)) - 1})
			}
		}
		dupDoc, dupJudged := hasDup(docs, func(d Doc) string { return d.Docno }), hasDup(judged, func(j Judgment) string { return j.Docno })
		got, err := k.Rank(judged, docs)
		if dupDoc || dupJudged {
			dups++
			if !errors.Is(err, ErrDuplicate) {
				t.Fatalf("case %d: duplicates (documents %v, judgements %v): error %v", n, dupDoc, dupJudged, err)
			}
			continue
		}
		if err != nil {
			if errors.Is(err, ErrNegativeFirst) || errors.Is(err, ErrCrashLevels) {
				k = NewRanker(DefaultConfig(V10))
				continue
			}
			t.Fatalf("case %d: %v", n, err)
		}
		rel := map[string]int64{}
		for _, j := range judged {
			rel[j.Docno] = j.Rel
		}
		ranked := slices.Clone(docs)
		slices.SortStableFunc(ranked, func(a, b Doc) int {
			if a.Score != b.Score {
				if a.Score > b.Score {
					return -1
				}
				return 1
			}
			return strings.Compare(b.Docno, a.Docno)
		})
		var relRet int64
		for i, d := range ranked {
			want := int64(RelNonpool)
			if v, ok := rel[d.Docno]; ok {
				want = v
				if v < 0 {
					want = RelUnjudged
				}
			}
			if want >= 1 {
				relRet++
			}
			if got.Rels[i] != want {
				t.Fatalf("case %d: rank %d (%q): judgement %d, want %d", n, i, d.Docno, got.Rels[i], want)
			}
		}
		if len(got.Rels) != len(ranked) || got.NumRelRet != relRet {
			t.Fatalf("case %d: %d ranked, %d relevant retrieved; want %d, %d", n, len(got.Rels), got.NumRelRet, len(ranked), relRet)
		}
	}
	t.Logf("%d of 3000 cases had duplicates", dups)
	if dups < 100 || dups > 2900 {
		t.Errorf("%d of 3000 cases had duplicates: want both kinds of case", dups)
	}
}

func hasDup[T any](s []T, key func(T) string) bool {
	seen := map[string]bool{}
	for _, x := range s {
		if seen[key(x)] {
			return true
		}
		seen[key(x)] = true
	}
	return false
}
