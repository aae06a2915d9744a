package runio

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestJoinerHandWorked: one query joined by hand. Judged d1 (2), d2 (0),
// d9 (1); ranked d2, d5, d1: labels 0 (judged), 0 (unjudged), 2; d9 is
// judged, relevant and not ranked.
func TestJoinerHandWorked(t *testing.T) {
	j := NewJoiner(Options{KeepDocs: true})
	var q Query
	st, err := j.Join(&q, "7", []string{"d1", "d2", "d9"}, []float64{2, 0, 1}, []string{"d2", "d5", "d1"}, []float64{3, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := Query{QID: "7", Line: 1, Labels: []float64{0, 0, 2}, Scores: []float64{3, 2, 1}, Docs: []string{"d2", "d5", "d1"},
		Unjudged: []bool{false, true, false}, UnrankedLabels: []float64{1}, UnrankedDocs: []string{"d9"}}
	if !reflect.DeepEqual(q.Labels, want.Labels) || !reflect.DeepEqual(q.Scores, want.Scores) || !reflect.DeepEqual(q.Docs, want.Docs) ||
		!reflect.DeepEqual(q.Unjudged, want.Unjudged) || !reflect.DeepEqual(q.UnrankedLabels, want.UnrankedLabels) ||
		!reflect.DeepEqual(q.UnrankedDocs, want.UnrankedDocs) || q.QID != "7" || q.Match != MatchBoth {
		t.Errorf("joined %+v, want %+v", q, want)
	}
	if st.UnjudgedItems != 1 || st.UnrankedJudged != 1 || st.UnrankedRelevant != 1 || st.Items != 3 || st.Queries != 1 {
		t.Errorf("stats %+v", st)
	}
	// One side only.
	if _, err := j.Join(&q, "8", []string{"a"}, []float64{1}, nil, nil); err != nil || q.Match != MatchQrelsOnly || len(q.Scores) != 0 || len(q.UnrankedLabels) != 1 {
		t.Errorf("qrels only: %+v, %v", q, err)
	}
	if st, err := j.Join(&q, "9", nil, nil, []string{"a", "a"}, []float64{1, 2}); err == nil || !strings.Contains(err.Error(), "docno") {
		t.Errorf("a repeated document under DedupeError: %+v, %v", st, err)
	}
}

// TestJoinerIsTheReadersJoin: on random queries, Join gives what the TREC
// reader gives for the same lines.
func TestJoinerIsTheReadersJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	j := NewJoiner(Options{KeepDocs: true, Dedupe: DedupeMax})
	for trial := range 300 {
		var qrels, run strings.Builder
		var jd, rd []string
		var jl, rs []float64
		for range rng.IntN(6) {
			d, l := fmt.Sprintf("d%d", rng.IntN(8)), float64(rng.IntN(4)-1)
			jd, jl = append(jd, d), append(jl, l)
			fmt.Fprintf(&qrels, "5 0 %s %v\n", d, l)
		}
		for i := range 1 + rng.IntN(6) {
			d, s := fmt.Sprintf("d%d", rng.IntN(8)), float64(rng.IntN(5))
			rd, rs = append(rd, d), append(rs, s)
			fmt.Fprintf(&run, "5 Q0 %s %d %v r\n", d, i+1, s)
		}
		r, err := NewTRECReader(context.Background(), strings.NewReader(qrels.String()), strings.NewReader(run.String()), "q", "r", Options{KeepDocs: true, Dedupe: DedupeMax})
		if err != nil {
			t.Fatal(err)
		}
		var want, got Query
		if err := r.Next(&want); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if _, err := j.Join(&got, "5", jd, jl, rd, rs); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Labels, want.Labels) || !reflect.DeepEqual(got.Scores, want.Scores) || !reflect.DeepEqual(got.Docs, want.Docs) ||
			!reflect.DeepEqual(got.Unjudged, want.Unjudged) || !reflect.DeepEqual(got.UnrankedLabels, want.UnrankedLabels) ||
			!reflect.DeepEqual(got.UnrankedDocs, want.UnrankedDocs) || got.Match != want.Match {
			t.Fatalf("trial %d: joined %+v, the reader read %+v", trial, got, want)
		}
	}
}
