package treceval

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
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
	l3 := 0x1.95c01a39fbd68p+0 // log2(3) correctly rounded: glibc's log2(3) (Python's math.log2(3).hex())
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

// TestGainIndexMatchesLinearSearch compares gains and gainSet.get with
// trec_eval's set-up written as it does it (a linear search of each level
// among the entries, then of each judgement among the sorted entries), on
// random parameters with repeated, negative and absent levels.
func TestGainIndexMatchesLinearSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 1))
	for iter := 0; iter < 2000; iter++ {
		levels := r.IntN(12)
		counts := make([]int64, levels)
		for i := range counts {
			counts[i] = int64(r.IntN(3))
		}
		var spec []string
		for range r.IntN(6) {
			lvl := r.IntN(16) - 3
			spec = append(spec, strconv.Itoa(lvl)+"="+strconv.FormatFloat(float64(r.IntN(40))/4-2, 'g', -1, 64))
		}
		m := "ndcg"
		if len(spec) > 0 {
			m += "." + strings.Join(spec, ",")
		}
		for _, v := range []Version{V10, V908} {
			ev, err := NewEvaluator(DefaultConfig(v), []string{m})
			if err != nil {
				t.Fatal(err)
			}
			rk := &Ranked{NumRelLevels: int64(levels), levels: counts}
			gs, err := ev.gains(ev.ms[0], rk)
			if err != nil {
				t.Fatal(err)
			}
			// trec_eval's way.
			var ref []relGain
			for _, p := range ev.ms[0].pairs {
				ref = append(ref, relGain{level: Atol(p.name), gain: p.value})
			}
			for i := int64(0); i < int64(levels); i++ {
				j := 0
				for j < len(ref) && ref[j].level != i {
					j++
				}
				if j < len(ref) {
					ref[j].count = counts[i]
				} else {
					ref = append(ref, relGain{level: i, gain: float64(i), count: counts[i]})
				}
			}
			msort(ref, make([]relGain, len(ref)), func(a, b *relGain) int { return cInt(a.gain - b.gain) })
			if !slices.Equal(gs.g, ref) {
				t.Fatalf("%s %s levels %v: gains %v, trec_eval's %v", v, m, counts, gs.g, ref)
			}
			for rel := int64(-4); rel < int64(levels)+14; rel++ {
				want := 0.0
				for _, g := range ref {
					if g.level == rel {
						want = g.gain
						break
					}
				}
				if got := gs.get(rel); got != want {
					t.Fatalf("%s %s levels %v: gain of %d = %v, trec_eval's %v", v, m, counts, rel, got, want)
				}
			}
		}
	}
}

// The measures of one evaluator share a topic's gains when their gain
// parameters are the same; each value is the one an evaluator of that
// measure alone gives (whose gains are its own), over random topics
// evaluated one after another, with parameters equal, different and none.
func TestSharedGainsMatchAlone(t *testing.T) {
	// (trec_eval 10.0 fails on dcg, ideal_dcg and ndcg together when one
	// has parameters: ndcg alone stands for them.)
	// A measure named twice is evaluated once, with the last parameters:
	// each set names each measure once.
	sets := [][]string{
		{"ndcg", "ndcg_cut.3,10", "ndcg_rel.1=2,2=5", "Rndcg", "G.1=2,2=5", "binG"},
		{"ndcg_rel.0=1", "G.-1=3", "Rndcg.2=5,1=2", "ndcg_cut.5", "binG"},
		{"G", "ndcg_rel", "Rndcg.1=2,2=5", "ndcg.1=2,2=5"},
	}
	for _, c := range []struct {
		v     Version
		names []string
	}{{V10, sets[0]}, {V10, sets[1]}, {V10, sets[2]}, {V908, sets[0]}, {V908, sets[1]}, {V908, sets[2]}} {
		v, names := c.v, c.names
		all, err := NewEvaluator(DefaultConfig(v), names)
		if err != nil {
			t.Fatal(err)
		}
		alone := make([]*Evaluator, len(names))
		for i, n := range names {
			if alone[i], err = NewEvaluator(DefaultConfig(v), []string{n}); err != nil {
				t.Fatal(err)
			}
		}
		var tv, one TopicValues
		for seed := range uint64(200) {
			judged, docs := benchTopic(20+int(seed%50), seed)
			if err := all.Evaluate("q", judged, docs, &tv); err != nil {
				t.Fatal(err)
			}
			// The values are in trec_eval's order of measures, found
			// by name.
			at := map[string]float64{}
			for k, n := range all.Names() {
				at[n] = tv.V[k]
			}
			checked := 0
			for i, ev := range alone {
				if err := ev.Evaluate("q", judged, docs, &one); err != nil {
					t.Fatal(err)
				}
				for k, n := range ev.Names() {
					if got, ok := at[n]; !ok || math.Float64bits(got) != math.Float64bits(one.V[k]) {
						t.Fatalf("%s topic %d: %s: %s together %v (%v), alone %v", v, seed, names[i], n, got, ok, one.V[k])
					}
					checked++
				}
			}
			if checked != len(tv.V) {
				t.Fatalf("%d values checked of %d", checked, len(tv.V))
			}
		}
	}
}
