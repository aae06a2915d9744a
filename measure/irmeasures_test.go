package measure

import (
	"errors"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
)

// TestParseIR: ir_measures' names and the trec_eval measure and settings
// each is computed with (the provider's mapping, pytrec_eval_provider.py);
// the names of the other families keep their meaning.
func TestParseIR(t *testing.T) {
	tests := []struct {
		in, name, spec string
		rel            int64
		judged, sum    bool
	}{
		{"nDCG@10", "nDCG@10", "ndcg_cut.10", 1, false, false},
		{"nDCG", "nDCG", "ndcg", 1, false, false},
		{"nDCG(dcg='log2')@5", "nDCG@5", "ndcg_cut.5", 1, false, false},
		{"AP", "AP", "map", 1, false, false},
		{"AP(rel=2)@100", "AP(rel=2)@100", "map_cut.100", 2, false, false},
		{"AP(judged_only=True, rel=2)@10", "AP(rel=2,judged_only=True)@10", "map_cut.10", 2, true, false},
		{"P@10", "P@10", "P.10", 1, false, false},
		{"P(rel=1)@5", "P@5", "P.5", 1, false, false},
		{"R@1000", "R@1000", "recall.1000", 1, false, false},
		{"RR", "RR", "recip_rank", 1, false, false},
		{"Rprec()", "Rprec", "Rprec", 1, false, false},
		{"Rprec(rel=2)", "Rprec(rel=2)", "Rprec", 2, false, false},
		{"IPrec@0.5", "IPrec@0.5", "iprec_at_recall.0.50", 1, false, false},
		{"Success@1", "Success@1", "success.1", 1, false, false},
		{"SetP(relative=True)", "SetP(relative=True)", "set_relative_P", 1, false, false},
		{"SetF(beta=0.5)", "SetF(beta=0.5)", "set_F.0.5", 1, false, false},
		{"NumRet(rel=2)", "NumRet(rel=2)", "num_rel_ret", 2, false, true},
		{"NumQ", "NumQ", "num_ret", 1, false, true},
	}
	for _, tc := range tests {
		m, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if m.IR == nil || m.Name != tc.name || m.TrecEval != tc.spec || m.IR.RelLevel != tc.rel || m.IR.JudgedOnly != tc.judged || m.IR.Sum != tc.sum {
			t.Errorf("Parse(%q) = %+v %+v, want %s %s rel %d judged %v sum %v", tc.in, m, m.IR, tc.name, tc.spec, tc.rel, tc.judged, tc.sum)
		}
		if d := m.Def(); d == nil || d.Family != IRMeasures {
			t.Errorf("Parse(%q).Def() = %+v", tc.in, d)
		}
	}
	// The other families' names keep their meaning.
	for in, want := range map[string]Family{"map": TFRanking, "ndcg": TrecEval, "P_10": TrecEval, "ndcg@10": TFRanking,
		"Rprec": TrecEval, "P.10": TrecEval, "map@10:treceval": Convention, "precision@10": TFRanking} {
		m, err := Parse(in)
		if err != nil || m.IR != nil || m.Def().Family != want {
			t.Errorf("Parse(%q) = %+v, %v; want family %v", in, m, err, want)
		}
	}
	for _, bad := range []string{"P", "P@0", "IPrec@1", "AP(rel=x)", "AP(foo=1)", "NumRel(rel=2)", "RR(judged_only=True)@10",
		"nDCG(dcg='exp-log2')", "nDCG(dcg='exp')@10", "AP(rel=2", "AP@10@5", "SetF(beta=1)", "NDCG@10", "Judged(rel=2)@10"} {
		if _, err := Parse(bad); !errors.Is(err, ErrUnknown) {
			t.Errorf("Parse(%q): %v, want ErrUnknown", bad, err)
		}
	}
	list, err := ParseList("AP(rel=2,judged_only=True)@10,P@5, nDCG@10")
	if err != nil || len(list) != 3 || list[0].Name != "AP(rel=2,judged_only=True)@10" {
		t.Errorf("ParseList: %+v, %v", list, err)
	}
}

// TestParseIRProviders: the measures of providers other than pytrec_eval,
// as ir_measures' registry assigns them (its default pipeline takes the
// first provider that supports the measure with these parameters), and
// ir_measures' print of the name, parameters in the order written.
func TestParseIRProviders(t *testing.T) {
	tests := []struct{ in, name, repr, provider string }{
		{"Judged@10", "Judged@10", "Judged@10", "judged"},
		{"Judged", "Judged", "Judged", "judged"},
		{"RR@10", "RR@10", "RR@10", "msmarco"},
		{"RR(rel=2)@5", "RR(rel=2)@5", "RR(rel=2)@5", "msmarco"},
		{"RR", "RR", "RR", "pytrec_eval"},
		{"nDCG(dcg='exp-log2')@20", "nDCG(dcg='exp-log2')@20", "nDCG(dcg='exp-log2')@20", "gdeval"},
		{"nDCG(dcg=\"exp-log2\")@20", "nDCG(dcg='exp-log2')@20", "nDCG(dcg='exp-log2')@20", "gdeval"},
		{"AP(judged_only=True,rel=2)@10", "AP(rel=2,judged_only=True)@10", "AP(judged_only=True,rel=2)@10", "pytrec_eval"},
		{"nDCG(gains={0:0, 1:1, 2:3})@10", "nDCG(gains={2:3})@10", "nDCG(gains={2:3})@10", "pytrec_eval"},
		{"nDCG(gains={3:1,1:1})", "nDCG(gains={3:1})", "nDCG(gains={3:1})", "pytrec_eval"},
	}
	for _, tc := range tests {
		m, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if m.IR == nil || m.Name != tc.name || m.IR.Repr != tc.repr || m.IR.Provider != tc.provider || (m.IR.Calc == nil) != (tc.provider == "pytrec_eval") || (m.TrecEval == "") != (tc.provider != "pytrec_eval") {
			t.Errorf("Parse(%q) = %+v %+v, want %s %s by %s", tc.in, m, m.IR, tc.name, tc.repr, tc.provider)
		}
		if m.IsMAP() || m.ValueDType(metric.Float32) != metric.Float64 {
			t.Errorf("Parse(%q): IsMAP %v, dtype %v", tc.in, m.IsMAP(), m.ValueDType(metric.Float32))
		}
	}
	if m, _ := Parse("nDCG(gains={0:0,1:1,2:3})@10"); m.TrecEval != "ndcg_cut.10" || len(m.IR.Gains) != 1 || m.IR.Gains[2] != 3 {
		t.Errorf("nDCG(gains=...) = %+v %+v", m, m.IR)
	}
	for _, bad := range []string{"nDCG(gains={-1:0})", "nDCG(gains=[1])", "nDCG(gains={1:2.5})"} {
		if _, err := Parse(bad); !errors.Is(err, ErrUnknown) {
			t.Errorf("Parse(%q): %v, want ErrUnknown", bad, err)
		}
	}
	// Names ir_measures reads and no provider computes.
	for _, bad := range []string{"ERR", "nDCG(dcg='exp-log2',gains={2:3})@10", "NumRel(rel=2)", "nDCG(dcg='exp-log2')"} {
		if _, err := Parse(bad); !errors.Is(err, ErrNoProvider) || !errors.Is(err, ErrUnknown) {
			t.Errorf("Parse(%q): %v, want ErrNoProvider", bad, err)
		}
	}
	// --provider: RR without cutoff by msmarco; a provider that does not
	// compute the measure is refused.
	rr, _ := Parse("RR")
	m, err := WithProvider(rr, "msmarco")
	if err != nil || m.IR.Provider != "msmarco" || m.TrecEval != "" || rr.IR.Provider != "pytrec_eval" {
		t.Errorf("WithProvider(RR, msmarco) = %+v, %v", m, err)
	}
	if m, err = WithProvider(m, "pytrec_eval"); err != nil || m.TrecEval != "recip_rank" {
		t.Errorf("WithProvider(RR, pytrec_eval) = %+v, %v", m, err)
	}
	j, _ := Parse("Judged@10")
	for _, p := range []string{"pytrec_eval", "gdeval", "nope"} {
		if _, err := WithProvider(j, p); !errors.Is(err, ErrProvider) {
			t.Errorf("WithProvider(Judged@10, %s): %v, want ErrProvider", p, err)
		}
	}
}
