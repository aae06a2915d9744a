package irm

import (
	"slices"
	"strings"
	"testing"
)

// query builds a Query from "docno:label" judgments and "docno:score"
// run lines.
func query(qrels, run string) *Query {
	q := &Query{QID: "1"}
	for _, f := range strings.Fields(qrels) {
		d, l, _ := strings.Cut(f, ":")
		var n int64
		for _, c := range strings.TrimPrefix(l, "-") {
			n = n*10 + int64(c-'0')
		}
		if strings.HasPrefix(l, "-") {
			n = -n
		}
		q.Qrels = append(q.Qrels, Judgment{d, n})
	}
	for _, f := range strings.Fields(run) {
		d, s, _ := strings.Cut(f, ":")
		sc := map[string]float64{"3": 3, "2": 2, "1": 1, "0.5": 0.5, "0": 0}[s]
		q.Run = append(q.Run, Doc{d, sc})
	}
	return q
}

func docnos(run []Doc) string {
	var s []string
	for _, d := range run {
		s = append(s, d.Docno)
	}
	return strings.Join(s, " ")
}

// TestSortRun: the providers' tie orders, worked by hand.
func TestSortRun(t *testing.T) {
	q := query("", "c:1 a:1 d:0.5 b:1")
	for o, want := range map[Order]string{DocnoAsc: "a b c d", DocnoDesc: "c b a d", FileOrder: "c a b d"} {
		if got := docnos(SortRun(q.Run, o)); got != want {
			t.Errorf("SortRun(%d) = %s, want %s", o, got, want)
		}
	}
	if got := Dedup(q.Run); &got[0] != &q.Run[0] {
		t.Error("Dedup copied a run without repeats")
	}
	d := Dedup(query("", "a:1 b:2 a:3").Run)
	if !slices.Equal(d, []Doc{{"a", 3}, {"b", 2}}) {
		t.Errorf("Dedup = %v, want a:3 b:2 (first place, last score)", d)
	}
}

// TestProviders: Judged, msmarco's RR and gdeval's nDCG and ERR on cases
// worked by hand.
func TestProviders(t *testing.T) {
	// Ranked a b c d (ties by docno ascending); b judged 0, d judged -1.
	jq := query("b:0 d:-1 e:1", "c:1 a:1 d:0.5 b:1")
	// gdeval ranks b a c (ties by docno descending): gains 0 2 1; x (3)
	// is not ranked.
	gq := query("a:2 c:1 x:3 b:-1", "a:1 b:1 c:0.5")
	tests := []struct {
		name string
		m    Measure
		q    *Query
		want float64
	}{
		{"Judged@3", Judged{K: 3}, jq, 1.0 / 3},
		{"Judged@10", Judged{K: 10}, jq, 2.0 / 4},
		{"Judged", Judged{}, jq, 2.0 / 4},
		{"Judged@10 missing", Judged{K: 10}, query("b:1", ""), 0},
		{"RR@1", MSMarcoRR{K: 1, Rel: 1}, query("b:1", "a:1 b:1"), 0},
		{"RR@2", MSMarcoRR{K: 2, Rel: 1}, query("b:1", "a:1 b:1"), 0.5},
		{"RR(rel=2)@2", MSMarcoRR{K: 2, Rel: 2}, query("b:1", "a:1 b:1"), 0},
		{"RR(rel=0)", MSMarcoRR{Rel: 0}, query("b:0", "a:1 b:1"), 0.5},
		// DCG@2 = 0/ln 2 + 3/ln 3; ideal = 7/ln 2 + 3/ln 3.
		{"nDCG(dcg='exp-log2')@2", Gdeval{K: 2}, gq, 0.21285},
		{"nDCG(dcg='exp-log2')@3", Gdeval{K: 3}, gq, 0.25475},
		// ERR@3 = 0 + (3/16)/2 + (1/16)(13/16)/3.
		{"ERR@3", Gdeval{K: 3, ERR: true}, gq, 0.11068},
		{"ERR@3 no positive label", Gdeval{K: 3, ERR: true}, query("a:0 b:-1", "a:1"), 0},
	}
	for _, tc := range tests {
		got, ok, err := tc.m.Value(tc.q)
		if err != nil || !ok || got != tc.want {
			t.Errorf("%s = %v, %v, %v; want %v", tc.name, got, ok, err, tc.want)
		}
	}
	if _, _, err := (Gdeval{K: 3}).Value(query("a:5", "a:1")); err == nil || !strings.Contains(err.Error(), "label 5") {
		t.Errorf("gdeval on a label above 4: %v", err)
	}
}
