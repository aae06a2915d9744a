package measure

import (
	"errors"
	"strings"
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

// TestIRAliases: ir_measures 0.4.3's other names of its measures
// (register(AP, ['MAP']) and the like) read as the measures they stand
// for, with the names python -m ir_measures prints for them (recorded by
// hand: `python -m ir_measures QRELS RUN MAP 'MRR@10' 'SetRelP(rel=2)'
// NumRelRet ...` prints AP, RR@10, SetP(relative=True,rel=2),
// NumRet(rel=1)); the same computation as the name itself.
func TestIRAliases(t *testing.T) {
	tests := []struct{ in, same, repr string }{
		{"MAP", "AP", "AP"},
		{"MAP(rel=2)@5", "AP(rel=2)@5", "AP(rel=2)@5"},
		{"MRR", "RR", "RR"},
		{"MRR@10", "RR@10", "RR@10"},
		{"NDCG@10", "nDCG@10", "nDCG@10"},
		{"Precision@5", "P@5", "P@5"},
		{"Recall@10", "R@10", "R@10"},
		{"RPrec", "Rprec()", "Rprec"},
		{"BPref", "Bpref", "Bpref"},
		{"SetRelP", "SetP(relative=True)", "SetP(relative=True)"},
		{"SetRelP(rel=2)", "SetP(relative=True,rel=2)", "SetP(relative=True,rel=2)"},
		{"SetRelP(relative=False)", "SetP", "SetP"},
		{"NumRelRet", "NumRet(rel=1)", "NumRet(rel=1)"},
		{"NumRelRet(rel=2)", "NumRet(rel=2)", "NumRet(rel=2)"},
		{"α_nDCG@20", "alpha_nDCG@20", "alpha_nDCG@20"},
		{"α_DCG(alpha=0.7)@5", "alpha_DCG(alpha=0.7)@5", "alpha_DCG(alpha=0.7)@5"},
		{"MAP_IA", "AP_IA", "AP_IA"},
	}
	for _, tc := range tests {
		m, err := ParseIRMeasures(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		w, err := ParseIRMeasures(tc.same)
		if err != nil {
			t.Fatalf("%s: %v", tc.same, err)
		}
		if m.IR == nil || m.IR.Repr != tc.repr {
			t.Errorf("%s: %+v, want ir_measures' name %s", tc.in, m.IR, tc.repr)
			continue
		}
		if m.IR.Key != w.IR.Key && !(m.IR.Key == "NumRelRet" && w.IR.Key == "NumRet") || m.IR.Provider != w.IR.Provider || m.TrecEval != w.TrecEval || m.IR.RelLevel != w.IR.RelLevel || m.IR.Params["relative"] != w.IR.Params["relative"] {
			t.Errorf("%s: %s by %s (%q), %s: %s by %s (%q)", tc.in, m.Name, m.IR.Provider, m.TrecEval, tc.same, w.Name, w.IR.Provider, w.TrecEval)
		}
	}
	// The lower-case names stay TF-Ranking's and trec_eval's.
	for _, n := range []string{"map", "mrr", "precision@5", "recall@10", "bpref", "Rprec"} {
		m, err := Parse(n)
		if err != nil || m.IR != nil {
			t.Errorf("%s: %+v, %v: want a measure of another family", n, m, err)
		}
	}
	// eval's -m: the aliases that another family's names spell in other
	// cases are an error offering both (they were unknown names before);
	// the others read as in ir_measures.
	for _, tc := range []struct{ in, other, ir string }{
		{"MAP", "map (TF-Ranking", "ir_measures reads it as AP"},
		{"MAP(rel=2)@5", "", "ir_measures reads it as AP(rel=2)@5"},
		{"NDCG@10", "ndcg@10 (TF-Ranking", "ir_measures reads it as nDCG@10"},
		{"MRR@10", "mrr@10 (TF-Ranking", "as RR@10"},
		{"Precision@5", "precision@5 (TF-Ranking", "as P@5"},
		{"Recall@10", "recall@10 (TF-Ranking", "as R@10"},
		{"BPref", "bpref (trec_eval", "as Bpref"},
		{"RPrec", "Rprec (trec_eval", "as Rprec"},
	} {
		_, err := Parse(tc.in)
		if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), tc.other) || !strings.Contains(err.Error(), tc.ir) {
			t.Errorf("eval -m %s: %v, want an error offering %q and %q", tc.in, err, tc.other, tc.ir)
		}
	}
	for _, tc := range []struct{ in, name string }{{"MAP_IA", "AP_IA"}, {"α_nDCG@20", "alpha_nDCG@20"}, {"SetRelP", "SetP(relative=True)"}} {
		m, err := Parse(tc.in)
		if err != nil || m.Name != tc.name {
			t.Errorf("eval -m %s: %v, %v; want %s", tc.in, m.Name, err, tc.name)
		}
	}
	for _, n := range []string{"MAP(rel=2,rel=3)", "SetRelP(relative=True,relative=False)", "α_nDCG"} {
		if _, err := ParseIRMeasures(n); err == nil {
			t.Errorf("%s: no error", n)
		}
	}
}

// TestIRIntForFloat: an integer where ir_measures takes a float
// (BPM(T=2,max_rel=3)@5) is parsed by ir_measures 0.4.3 and then refused
// when it evaluates: `python -m ir_measures Q R 'BPM(T=2,max_rel=3)@5'`
// ends with "AssertionError: invalid param T=2", exit status 1. It is
// refused here too, with a ParamError that says what to write.
func TestIRIntForFloat(t *testing.T) {
	for _, tc := range []struct{ in, param, value string }{
		{"BPM(T=2,max_rel=3)@5", "T", "2"},
		{"RBP(p=1,rel=1)", "p", "1"},
		{"SetF(beta=1)", "beta", "1"},
		{"IPrec@1", "recall", "1"},
		{"alpha_nDCG(alpha=1)@5", "alpha", "1"},
	} {
		_, err := Parse(tc.in)
		var pe *ParamError
		if !errors.As(err, &pe) || !errors.Is(err, ErrUnknown) || pe.Param != tc.param || pe.Value != tc.value {
			t.Errorf("%s: %v, want a ParamError for %s=%s", tc.in, err, tc.param, tc.value)
		}
	}
	for _, n := range []string{"BPM(T=2.0,max_rel=3)@5", "SetF(beta=1.0)", "IPrec@1.0", "RBP(p=1e0,rel=1)"} {
		if _, err := Parse(n); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
}
