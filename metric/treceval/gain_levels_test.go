package treceval

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

// hugeLevel is a judgement far above the usual 0-4: trec_eval's gain set-up
// is quadratic in it (hours at this level), and must not be here.
const hugeLevel = 1 << 22

// TestGainsOfAHugeJudgementAreFast evaluates one topic with a judgement of
// 2^22 under a deadline. Two documents, b (judged 1, score 2) and a
// (judged 2^22, score 1): the ideal ranking is a then b, so ideal_dcg is
// 2^22/log2(2) + 1/log2(3) and dcg is 1/log2(2) + 2^22/log2(3), as the
// definitions give (checked against trec_eval at level 30000 by the golden
// set, testdata/treceval/hostile).
func TestGainsOfAHugeJudgementAreFast(t *testing.T) {
	judged := []Judgment{{"a", hugeLevel}, {"b", 1}}
	docs := []Doc{{"a", 1}, {"b", 2}}
	l3 := math.Log2(3)
	ideal := float64(hugeLevel) + 1/l3
	dcg := 1 + float64(hugeLevel)/l3
	tests := []struct {
		measure string
		want    float64
	}{
		{"ideal_dcg", ideal},
		{"dcg", dcg},
		{"ndcg", dcg / ideal},
		// A gain parameter for level 1 keeps the level's count; 2^22
		// keeps its own gain.
		{"ndcg.1=3", (3 + float64(hugeLevel)/l3) / (float64(hugeLevel) + 3/l3)},
		// A negative level's gain goes to unjudged documents: none here.
		{"ndcg.-1=5", dcg / ideal},
	}
	for _, tc := range tests {
		t.Run(tc.measure, func(t *testing.T) {
			ev, err := NewEvaluator(DefaultConfig(V10), []string{tc.measure})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			var tv TopicValues
			go func() { done <- ev.Evaluate("q", judged, docs, &tv) }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("%s of a judgement of %d took over 60 s", tc.measure, hugeLevel)
			}
			if got := tv.V[0]; got != tc.want {
				t.Errorf("%s = %v, want %v", tc.measure, got, tc.want)
			}
		})
	}
}

// TestEvaluateContextStopsInsideATopic cancels the evaluation of one topic
// with a judgement of 2^22 while its gains are being set up.
func TestEvaluateContextStopsInsideATopic(t *testing.T) {
	judged := []Judgment{{"a", hugeLevel}, {"b", 1}}
	docs := []Doc{{"a", 1}, {"b", 2}}
	for _, m := range []string{"ndcg", "G", "Rndcg", "ndcg_rel", "ideal_dcg"} {
		t.Run(m, func(t *testing.T) {
			ev, err := NewEvaluator(DefaultConfig(V10), []string{m})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			ev.ctx = ctx // cancelled by the first check inside the topic
			cancel()
			if _, err := ev.gains(ev.ms[0], &Ranked{NumRelLevels: hugeLevel + 1}); !errors.Is(err, context.Canceled) {
				t.Fatalf("gains: %v, want context.Canceled", err)
			}
			var tv TopicValues
			if err := ev.EvaluateContext(ctx, "q", judged, docs, &tv); !errors.Is(err, context.Canceled) {
				t.Fatalf("EvaluateContext: %v, want context.Canceled", err)
			}
		})
	}
}
