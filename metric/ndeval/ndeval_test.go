package ndeval

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// handTopic: subtopics 0 and 1; a is relevant to both, b to 0, c to 1, n
// to neither. The greedy ideal ranking is a (gain 2), then c (0.5, tied
// with b, the greater docno), then b (0.5).
func handTopic(p Params) *Topic {
	return NewTopic([]Judgment{
		{0, "a", 1}, {1, "a", 2}, {0, "b", 1}, {1, "b", 0}, {1, "c", 1}, {0, "n", -1},
	}, p)
}

func TestHandWorked(t *testing.T) {
	p := Params{Rel: 1, Alpha: 0.5, Beta: 0.5}
	// The run ranks b (gain 1), x (unjudged), a (0.5 + 1).
	v := handTopic(p).Eval([]string{"b", "x", "a"})
	d2 := math.Log(2) / math.Log(3) // discount at rank 2; rank 3's is 1/2
	for _, c := range []struct {
		m    Measure
		want float64
	}{
		// Rank 1 is not divided by the ideal-ideal gain (ndeval's loops start at rank 2).
		{Measure{Kind: AlphaDCG, Cutoff: 1}, 1},
		{Measure{Kind: AlphaNDCG, Cutoff: 1}, 0.5},
		{Measure{Kind: AlphaDCG, Cutoff: 3}, 1.75 / (2 + d2 + 0.25)},
		{Measure{Kind: AlphaNDCG, Cutoff: 3}, 1.75 / (2 + 0.5*d2 + 0.25)},
		{Measure{Kind: ERRIA, Cutoff: 3}, 1.5 / (2 + 0.5 + 0.5/3.0)},
		{Measure{Kind: NERRIA, Cutoff: 3}, 18.0 / 29},
		{Measure{Kind: PIA, Cutoff: 3}, 0.5},
		{Measure{Kind: PIA, Cutoff: 20}, 3.0 / 40},
		{Measure{Kind: StRecall, Cutoff: 1}, 0.5},
		{Measure{Kind: StRecall, Cutoff: 3}, 1},
		// Subtopic 0: ranks 1 and 3 of 2 relevant (1 + 2/3)/2; subtopic 1:
		// rank 3 of 2, (1/3)/2.
		{Measure{Kind: APIA}, 0.5},
		// (1 + 0 + 1.5/4) (1 - 0.5*0.5) / 2.
		{Measure{Kind: NRBP}, 0.515625},
		// Ideal: (2 + 0.5/2 + 0.5/4).
		{Measure{Kind: NNRBP}, 11.0 / 19},
	} {
		if got := v.Get(c.m); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%v@%d = %v, want %v", c.m.Kind, c.m.Cutoff, got, c.want)
		}
	}
	// rel=2: only a's subtopic 1 is relevant.
	v = handTopic(Params{Rel: 2, Alpha: 0.5, Beta: 0.5}).Eval([]string{"b", "x", "a"})
	if got := v.Get(Measure{Kind: NERRIA, Cutoff: 3}); got != (1.0/3)/1 {
		t.Errorf("rel=2 nERR_IA@3 = %v, want 1/3", got)
	}
}

// TestJudgedTwice: the last line of a (document, subtopic) pair says
// whether the document is relevant, and every relevant line counts in the
// subtopic's number of relevant documents.
func TestJudgedTwice(t *testing.T) {
	top := NewTopic([]Judgment{{0, "a", 1}, {0, "b", 1}, {0, "a", 0}}, Params{Rel: 1, Alpha: 0.5, Beta: 0.5})
	v := top.Eval([]string{"a", "b"})
	// b relevant at rank 2: precision 1/2, over 2 relevant lines.
	if got := v.Get(Measure{Kind: APIA}); got != 0.25 {
		t.Errorf("AP_IA = %v, want 0.25", got)
	}
	if got := v.Get(Measure{Kind: PIA, Cutoff: 1}); got != 0 {
		t.Errorf("P_IA@1 = %v, want 0 (a's last line is 0)", got)
	}
}

// TestRankedTwice: ir_measures 0.4.3 on qrels "1 1 a 1, 1 2 b 1, 1 1 c 1"
// and a run ranking a, b, a, c gives P_IA@3 0.3333, alpha_DCG@4 0.6178
// and AP_IA 0.6250 (python -m ir_measures -q): a's second rank has no
// judgment.
func TestRankedTwice(t *testing.T) {
	top := NewTopic([]Judgment{{0, "a", 1}, {1, "b", 1}, {0, "c", 1}}, Params{Rel: 1, Alpha: 0.5, Beta: 0.5})
	v := top.Eval([]string{"a", "b", "a", "c"})
	// P_IA@3: 2 pairs over 3*2. AP_IA: subtopic 0 (1 + 2/4)/2, subtopic 1 (1/2)/1.
	for _, c := range []struct {
		m    Measure
		want float64
	}{{Measure{Kind: PIA, Cutoff: 3}, 2.0 / 6}, {Measure{Kind: APIA}, 0.625}} {
		if got := v.Get(c.m); got != c.want {
			t.Errorf("%v = %v, want %v", c.m.Kind, got, c.want)
		}
	}
	if got := v.Get(Measure{Kind: AlphaDCG, Cutoff: 4}); math.Abs(got-0.6178) > 5e-5 {
		t.Errorf("alpha_DCG@4 = %v, ir_measures 0.6178", got)
	}
}

// TestNoRelevant: a topic without relevant documents has every measure 0
// but nNRBP, which ndeval divides 0 by 0.
func TestNoRelevant(t *testing.T) {
	top := NewTopic([]Judgment{{0, "a", 0}, {1, "b", -1}}, Params{Rel: 1, Alpha: 0.5, Beta: 0.5})
	v := top.Eval([]string{"a", "b"})
	for k := ERRIA; k <= StRecall; k++ {
		got := v.Get(Measure{Kind: k, Cutoff: 5})
		if k == NNRBP {
			if !math.IsNaN(got) {
				t.Errorf("nNRBP = %v, want NaN", got)
			}
		} else if got != 0 {
			t.Errorf("%v = %v, want 0", k, got)
		}
	}
}

func TestOrder(t *testing.T) {
	got := Order([]string{"d2", "d10", "d1", "x"}, []float64{1, 1, 3, 0})
	if want := []int{2, 1, 0, 3}; !slices.Equal(got, want) {
		t.Errorf("Order = %v, want %v (ties by docno ascending)", got, want)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		m    Measure
		want string
	}{
		{Measure{Kind: AlphaNDCG}, "needs a cutoff"},
		{Measure{Kind: AlphaNDCG, Cutoff: 21}, "cutoffs 1 to 20"},
		{Measure{Kind: APIA, JudgedOnly: true}, "judged_only"},
		{Measure{Kind: 42}, "unknown measure kind"},
	} {
		if err := c.m.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want %q", c.m, err, c.want)
		}
	}
	if err := (Measure{Kind: NRBP}).Validate(); err != nil {
		t.Errorf("NRBP: %v", err)
	}
}
