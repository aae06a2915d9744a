package measure

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSuggest: a name that is not in the registry gets the names of the
// same measure in every family, with the user's cutoff; the lists are
// written by hand from the README's name table.
func TestSuggest(t *testing.T) {
	tests := []struct {
		in       string
		trecSpec bool
		want     []string
	}{
		{"NDCG@10", false, []string{"ndcg@10", "ndcg_cut_10", "nDCG@10"}},
		{"nDCG@10", false, []string{"ndcg@10", "ndcg_cut_10", "nDCG@10"}},
		{"ndcg_cut10", false, []string{"ndcg@10", "ndcg_cut_10", "nDCG@10"}},
		{"P@10", false, []string{"precision@10", "P_10", "P@10"}},
		{"p_10", false, []string{"precision@10", "P_10", "P@10"}},
		{"P_10", true, []string{"precision@10", "P.10", "P@10"}},
		{"R@1000", false, []string{"recall@1000", "recall_1000", "R@1000"}},
		{"RR@10", false, []string{"mrr@10", "recip_rank", "RR@10"}},
		{"MAP", false, []string{"map", "map:treceval", "map_cut_K", "AP"}},
		{"AP@100", false, []string{"map@100", "map@100:treceval", "map_cut_100", "AP@100"}},
		{"ndgc", false, []string{"ndcg_metric", "ndcg", "ndcg_cut_K", "nDCG"}},
		{"iprec_at_recall@0.5", false, []string{"iprec_at_recall_0.50"}},
		{"xyzzy", false, nil},
	}
	for _, tc := range tests {
		var got []string
		for _, s := range Suggest(tc.in, tc.trecSpec) {
			got = append(got, s.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Suggest(%q, %v) = %q, want %q", tc.in, tc.trecSpec, got, tc.want)
		}
		// Every suggestion of a value name parses (a spec with a
		// cutoff K is a placeholder).
		if !tc.trecSpec {
			for _, n := range got {
				if strings.Contains(n, "K") {
					continue
				}
				if _, err := Parse(n); err != nil {
					t.Errorf("suggestion %q of %q does not parse: %v", n, tc.in, err)
				}
			}
		}
	}
}

// TestParseUnknown: an unknown name is ErrUnknown, with the suggestions in
// its message, on one line.
func TestParseUnknown(t *testing.T) {
	_, err := Parse("NDCG@10")
	if !errors.Is(err, ErrUnknown) {
		t.Fatalf("Parse(NDCG@10): %v, want ErrUnknown", err)
	}
	msg := err.Error()
	for _, want := range []string{`"NDCG@10"`, "case-sensitive", "ndcg@10 (TF-Ranking:", "ndcg_cut_10 (trec_eval:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("message %q spans lines", msg)
	}
}

// TestParseTFRanking: the compute interface's keys are TF-Ranking's, ndcg
// included.
func TestParseTFRanking(t *testing.T) {
	for _, tc := range []struct {
		in, kind string
		topn     int
		err      bool
	}{
		{"ndcg", "ndcg", -1, false}, {"ndcg@5", "ndcg", 5, false}, {"map", "map", -1, false},
		{"map@3", "map", 3, false}, {"opa", "ordered_pair_accuracy", -1, false},
		{"alpha_dcg@2", "alpha_dcg", 2, false}, {"P_10", "", 0, true}, {"ndcg_metric", "", 0, true}, {"arp@3", "", 0, true},
	} {
		m, err := ParseTFRanking(tc.in)
		if (err != nil) != tc.err {
			t.Fatalf("ParseTFRanking(%q): %v", tc.in, err)
		}
		if err == nil && (m.Family == nil || m.Family.Kind.String() != tc.kind || m.TopN != tc.topn || m.Family.TopN != tc.topn) {
			t.Errorf("ParseTFRanking(%q) = %+v", tc.in, m)
		}
	}
}

// TestDefs: every parsed measure has its record, of the right family, and
// every record has a definition.
func TestDefs(t *testing.T) {
	for _, tc := range []struct {
		name string
		fam  Family
		key  string
		sum  Summary
	}{
		{"map", TFRanking, "map", WeightedMean}, {"ndcg@10", TFRanking, "ndcg", WeightedMean},
		{"map@10:minrk", Convention, "minrk", WeightedMean}, {"P_10", TrecEval, "P", Mean},
		{"num_rel_ret", TrecEval, "num_rel_ret", Sum}, {"ndcg", TrecEval, "ndcg", Mean},
	} {
		m, err := Parse(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		d := m.Def()
		if d == nil || d.Family != tc.fam || d.Key != tc.key || d.Summary != tc.sum {
			t.Errorf("%s: record %+v, want family %v key %s summary %v", tc.name, d, tc.fam, tc.key, tc.sum)
		}
	}
	for _, d := range Defs() {
		if d.Doc == "" || len(d.Forms) == 0 && !d.TrecEvalOnly {
			t.Errorf("record %s (%v) has no definition or no name form", d.Key, d.Family)
		}
	}
}

// TestParseListLinear: 4000 trec_eval names in one -m value parse to 4000
// measures, repeats left out.
func TestParseListLinear(t *testing.T) {
	var b strings.Builder
	for k := 1; k <= 4000; k++ {
		if k > 1 {
			b.WriteString(",")
		}
		b.WriteString("P_")
		b.WriteString(strconv.Itoa(k))
	}
	b.WriteString(",P_1")
	ms, err := ParseList(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4000 || ms[3999].Name != "P_4000" || ms[0].TrecEval != "P.1" {
		t.Fatalf("%d measures, last %+v", len(ms), ms[len(ms)-1])
	}
}
