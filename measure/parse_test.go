package measure

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
)

func TestParse(t *testing.T) {
	mapTrec := metric.DefaultConfig(metric.KindMAP)
	mapTrec.Convention = metric.TrecEval
	mapTrec.Name = "map:treceval"
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
		{"gm_map", Measure{}, `summary only`},
		{"map.00", Measure{}, `trec_eval's map has no name outside rankmetrics trec_eval`},
		{"P.5,10", Measure{}, `gives 2 values`},
		{"num_q.1", Measure{}, `summary only`},
		{"map", Measure{Name: "map", TopN: metric.NoTopN}, ""},
		{" map ", Measure{Name: "map", TopN: metric.NoTopN}, ""},
		{" MAP ", Measure{}, `unknown measure "MAP" (names are case-sensitive); did you mean map (TF-Ranking:`},
		{"map@10", Measure{Name: "map@10", TopN: 10}, ""},
		{"map@0", Measure{Name: "map@0", TopN: 0}, ""},
		{"Map@0", Measure{}, `unknown measure "Map@0"`},
		{"map@007", Measure{Name: "map@7", TopN: 7}, ""},
		{"map@-1", Measure{}, `unknown measure "map@-1"`},
		{"map@", Measure{}, `unknown measure "map@"`},
		{"ndgc", Measure{}, `unknown measure "ndgc"`},
		{"P_x", Measure{}, `unknown measure "P_x"`},
		{"map:treceval", Measure{Name: "map:treceval", TopN: metric.NoTopN, Family: &mapTrec}, ""},
		{"map@x:treceval", Measure{}, `cutoff after @ must be an integer`},
		{"ndcg:treceval", Measure{}, `a convention follows map`},
		{"map:nope", Measure{}, `convention "nope" is not one of`},
	}
	for _, tc := range tests {
		got, err := Parse(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Parse(%q): error %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || !reflect.DeepEqual(got, tc.want)):
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestAppend(t *testing.T) {
	var l []Measure
	for _, m := range []Measure{MAP(), MAPAt(3), MAP(), MAPAt(3), MAPAt(1)} {
		l = Append(l, m)
	}
	if want := []Measure{{Name: "map", TopN: -1}, {Name: "map@3", TopN: 3}, {Name: "map@1", TopN: 1}}; !slices.Equal(l, want) {
		t.Errorf("measures %v, want %v", l, want)
	}
}

func TestParseFamily(t *testing.T) {
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
		got, err := Parse(tc.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.in, err)
		}
		if got.Name != tc.in || got.Family == nil || got.Family.Kind != tc.kind || got.TopN != tc.topn || got.Family.TopN != tc.topn || got.TrecEval != "" {
			t.Errorf("Parse(%q) = %+v", tc.in, got)
		}
	}
	var l []Measure
	for _, n := range []string{"map", "mrr", "P_10", "mrr", "map@10", "precision@10", "P.10", "ndcg", "ndcg_metric"} {
		m, err := Parse(n)
		if err != nil {
			t.Fatal(err)
		}
		l = Append(l, m)
	}
	var names []string
	for _, m := range l {
		names = append(names, m.Name)
	}
	if want := []string{"map", "mrr", "P_10", "map@10", "precision@10", "ndcg", "ndcg_metric"}; !slices.Equal(names, want) {
		t.Errorf("measures %v, want %v", names, want)
	}
}
