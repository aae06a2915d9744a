package measure

import (
	"strings"
	"testing"
)

// TestParseListSpaces: a -m list may separate names with spaces, as
// ir_measures' command line does; spaces inside parentheses stay.
func TestParseListSpaces(t *testing.T) {
	ms, err := ParseList(" RBP(rel=1)  alpha_nDCG@20,AP(rel=2, judged_only=True)@10 ndcg@10")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
	}
	if got, want := strings.Join(names, " "), "RBP(rel=1) alpha_nDCG@20 AP(rel=2,judged_only=True)@10 ndcg@10"; got != want {
		t.Errorf("names %q, want %q", got, want)
	}
	if _, err := ParseList(" , "); err == nil {
		t.Error("an empty name was accepted")
	}
}

// TestCWLAndDiversityNames: the provider each name resolves to, the
// defaults filled in, and what ir_measures refuses refused here.
func TestCWLAndDiversityNames(t *testing.T) {
	for _, c := range []struct{ name, provider, canon string }{
		{"RBP(rel=1)", "cwl_eval", "RBP(rel=1)"},
		{"RBP(p=0.8,rel=2)", "cwl_eval", "RBP(rel=2)"},
		{"SDCG(max_rel=3)@10", "cwl_eval", "SDCG(max_rel=3)@10"},
		{"NERR10(p=0.5,max_rel=3)", "cwl_eval", "NERR10(p=0.5,max_rel=3)"},
		{"alpha_nDCG(alpha=0.5)@20", "pyndeval", "alpha_nDCG@20"},
		{"NRBP(beta=0.8)", "pyndeval", "NRBP(beta=0.8)"},
	} {
		m, err := Parse(c.name)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if m.IR == nil || m.IR.Provider != c.provider || m.Name != c.canon {
			t.Errorf("%s: %q by %v, want %q by %s", c.name, m.Name, m.IR, c.canon, c.provider)
		}
	}
	for _, c := range []struct{ name, want string }{
		{"RBP", "needs rel=N"},
		{"RBP(rel=1)@10", `unexpected "@10"`},
		{"SDCG@10", "needs max_rel=N"},
		{"INST(min_rel=2,max_rel=2)", "min_rel=2 must be less than max_rel=2"},
		{"alpha_nDCG", "needs @cutoff"},
		{"alpha_nDCG@21", "cutoffs 1 to 20"},
		{"AP_IA(judged_only=True)", "judged_only"},
	} {
		if _, err := Parse(c.name); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}
