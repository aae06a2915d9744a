package evaluate

import (
	"slices"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
)

func TestParseMeasure(t *testing.T) {
	tests := []struct {
		in   string
		want Measure
		err  string
	}{
		{"ndcg", Measure{Name: "ndcg", TopN: metric.NoTopN, TrecEval: "ndcg"}, ""},
		{"P_10", Measure{Name: "P_10", TopN: metric.NoTopN, TrecEval: "P.10"}, ""},
		{"P.10", Measure{Name: "P_10", TopN: metric.NoTopN, TrecEval: "P.10"}, ""},
		{"ndcg_cut_10", Measure{Name: "ndcg_cut_10", TopN: metric.NoTopN, TrecEval: "ndcg_cut.10"}, ""},
		{"map_cut_10", Measure{Name: "map_cut_10", TopN: metric.NoTopN, TrecEval: "map_cut.10"}, ""},
		{"iprec_at_recall_0.50", Measure{Name: "iprec_at_recall_0.50", TopN: metric.NoTopN, TrecEval: "iprec_at_recall.0.50"}, ""},
		{"recip_rank", Measure{Name: "recip_rank", TopN: metric.NoTopN, TrecEval: "recip_rank"}, ""},
		{"success_1", Measure{Name: "success_1", TopN: metric.NoTopN, TrecEval: "success.1"}, ""},
		{"P_010", Measure{}, `unknown measure "P_010"`},
		{"gm_map", Measure{}, `unknown measure "gm_map"`},
		{"P.5,10", Measure{}, `gives 2 values`},
		{"num_q.1", Measure{}, `summary only`},
		{"map", Measure{Name: "map", TopN: metric.NoTopN}, ""},
		{" MAP ", Measure{Name: "map", TopN: metric.NoTopN}, ""},
		{"map@10", Measure{Name: "map@10", TopN: 10}, ""},
		{"Map@0", Measure{Name: "map@0", TopN: 0}, ""},
		{"map@007", Measure{Name: "map@7", TopN: 7}, ""},
		{"map@-1", Measure{}, `unknown measure "map@-1"`},
		{"map@", Measure{}, `unknown measure "map@"`},
		{"ndgc", Measure{}, `unknown measure "ndgc"`},
		{"P_x", Measure{}, `unknown measure "P_x"`},
		{"alpha_dcg@5", Measure{}, `needs subtopic labels`},
	}
	for _, tc := range tests {
		got, err := ParseMeasure(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseMeasure(%q): error %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseMeasure(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestAppendMeasure(t *testing.T) {
	var l []Measure
	for _, m := range []Measure{MAP(), MAPAt(3), MAP(), MAPAt(3), MAPAt(1)} {
		l = AppendMeasure(l, m)
	}
	if want := []Measure{{Name: "map", TopN: -1}, {Name: "map@3", TopN: 3}, {Name: "map@1", TopN: 1}}; !slices.Equal(l, want) {
		t.Errorf("measures %v, want %v", l, want)
	}
}

func TestParseMeasureFamily(t *testing.T) {
	tests := []struct {
		in   string
		kind metric.Kind
		topn int
	}{
		{"ndcg@10", metric.KindNDCG, 10},
		{"mrr", metric.KindMRR, metric.NoTopN},
		{"precision@5", metric.KindPrecision, 5},
		{"ndcg_metric", metric.KindNDCG, metric.NoTopN},
		{"recall", metric.KindRecall, metric.NoTopN},
		{"dcg", metric.KindDCG, metric.NoTopN},
	}
	for _, tc := range tests {
		got, err := ParseMeasure(tc.in)
		if err != nil {
			t.Fatalf("ParseMeasure(%q): %v", tc.in, err)
		}
		if got.Name != tc.in || got.Family == nil || got.Family.Kind != tc.kind || got.TopN != tc.topn || got.Family.TopN != tc.topn || got.TrecEval != "" {
			t.Errorf("ParseMeasure(%q) = %+v", tc.in, got)
		}
	}
	var l []Measure
	for _, n := range []string{"map", "mrr", "P_10", "mrr", "map@10", "precision@10", "P.10", "ndcg", "ndcg_metric"} {
		m, err := ParseMeasure(n)
		if err != nil {
			t.Fatal(err)
		}
		l = AppendMeasure(l, m)
	}
	var names []string
	for _, m := range l {
		names = append(names, m.Name)
	}
	if want := []string{"map", "mrr", "P_10", "map@10", "precision@10", "ndcg", "ndcg_metric"}; !slices.Equal(names, want) {
		t.Errorf("measures %v, want %v", names, want)
	}
}

func TestParsePolicy(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Policy
		err  bool
	}{{"skip", Skip, false}, {"keep", Keep, false}, {"drop", 0, true}, {"Keep", 0, true}} {
		got, err := ParsePolicy(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParsePolicy(%q) = %v, %v", tc.in, got, err)
		}
		if err == nil && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
}

// TestHistMeasure: the histogram is of the first map, else of the first
// measure with values in [0, 1], else of the first measure.
func TestHistMeasure(t *testing.T) {
	tests := []struct {
		measures []string
		want     int
	}{
		{[]string{"ndcg@5", "map@3", "map"}, 2},
		{[]string{"arp", "dcg@3", "P_10", "mrr"}, 2},
		{[]string{"map@3", "mrr"}, 0},
		{[]string{"arp", "dcg"}, 0},
	}
	for _, tc := range tests {
		var list []Measure
		for _, s := range tc.measures {
			m, err := ParseMeasure(s)
			if err != nil {
				t.Fatal(err)
			}
			list = append(list, m)
		}
		if got := histMeasure(list); got != tc.want {
			t.Errorf("%v: histogram of measure %d, want %d", tc.measures, got, tc.want)
		}
	}
}

// TestFormatValue: values print in the shortest form of the dtype they
// were computed in, and trec_eval's measures are float64 whatever the
// plan's dtype (hand-worked strings).
func TestFormatValue(t *testing.T) {
	f32 := float64(float32(0.1)) // 0.10000000149011612 as a float64
	for _, c := range []struct {
		name string
		v    float64
		d    metric.DType
		want string
	}{
		{"ndcg@5", f32, metric.Float32, "0.1"},
		{"ndcg@5", f32, metric.Float64, "0.10000000149011612"},
		{"map", 0.5, metric.Float32, "0.5"},
		{"P_5", 0.3, metric.Float32, "0.3"},
		{"P_5", f32, metric.Float32, "0.10000000149011612"},
	} {
		m, err := ParseMeasure(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatValue(c.v, m.ValueDType(c.d)); got != c.want {
			t.Errorf("%s %v in %v: got %q, want %q", c.name, c.v, c.d, got, c.want)
		}
	}
}
