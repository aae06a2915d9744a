package runio

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestTRECUnjudged: with KeepDocs, a TREC query marks the run documents
// the qrels do not judge (label 0 like a judged nonrelevant one), in
// item order, streamed and grouped; without KeepDocs, and for a
// qrels-only query, nothing is marked.
func TestTRECUnjudged(t *testing.T) {
	qrels := "1 0 a 0\n1 0 b 1\n1 0 z 2\n2 0 m 1\n"
	run := "1 Q0 c 1 3 r\n1 Q0 a 2 2 r\n1 Q0 b 3 1 r\n"
	for _, p := range []UnsortedPolicy{UnsortedError, UnsortedGroup} {
		for _, keep := range []bool{true, false} {
			r, err := NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(run), "q", "r", Options{KeepDocs: keep, Unsorted: p})
			if err != nil {
				t.Fatal(err)
			}
			qs, err := readAll(r)
			if err != nil || len(qs) != 2 {
				t.Fatalf("%v keep=%v: %d queries, %v", p, keep, len(qs), err)
			}
			want := []bool{true, false, false}
			if !keep {
				want = nil
			}
			if got := qs[0].Unjudged; !slices.Equal(got, want) || keep && !slices.Equal(qs[0].Labels, []float64{0, 0, 1}) {
				t.Errorf("%v keep=%v: unjudged %v, labels %v; want %v", p, keep, got, qs[0].Labels, want)
			}
			if len(qs[1].Unjudged) != 0 {
				t.Errorf("%v keep=%v: qrels-only query marks %v", p, keep, qs[1].Unjudged)
			}
		}
	}
}
