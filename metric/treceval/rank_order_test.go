package treceval

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// The order of the judgements does not change any value, and a duplicate
// judgement is found wherever it is.
func TestRankJudgementOrder(t *testing.T) {
	judged, docs := benchTopic(300, 3)
	ev, err := NewEvaluator(DefaultConfig(V10), []string{"all_trec"})
	if err != nil {
		t.Fatal(err)
	}
	var want, got TopicValues
	if err := ev.Evaluate("q", judged, docs, &want); err != nil {
		t.Fatal(err)
	}
	want.V = slices.Clone(want.V)
	r := rand.New(rand.NewPCG(3, 3))
	shuffled := slices.Clone(judged)
	for range 5 {
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if err := ev.Evaluate("q", shuffled, docs, &got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.V, want.V) {
			t.Fatalf("values change with the judgements' order")
		}
	}
	dup := append(slices.Clone(shuffled), shuffled[len(shuffled)/2])
	r.Shuffle(len(dup), func(i, j int) { dup[i], dup[j] = dup[j], dup[i] })
	if err := ev.Evaluate("q", dup, docs, &got); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate judgement: %v", err)
	}
	dupDocs := append(slices.Clone(docs), docs[0])
	if err := ev.Evaluate("q", judged, dupDocs, &got); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate document: %v", err)
	}
}
