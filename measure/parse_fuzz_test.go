package measure

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse checks that Parse and Suggest never panic on any bytes; that a
// name Parse refuses as unknown is ErrUnknown with a message on one line;
// that a name it accepts has its record and parses again, by its own name,
// to the same measure (a specification read as trec_eval reads it, P.1A
// as P.1, names the same value); and that every suggestion of a value name parses.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"map", "map@10", "ndcg@5", "NDCG@10", "P_10", "P.5,10", "map@3:minrk", "nDCG@10",
		"AP(rel=2)@100", "RR(", "ndcg_cut10", "P@x", "\x00", "iprec_at_recall_0.50", "map:", "@", "a,b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(s)
		if err != nil {
			if errors.Is(err, ErrUnknown) && strings.ContainsAny(strings.TrimPrefix(err.Error(), ErrUnknown.Error()), "\n") && !strings.ContainsAny(s, "\n") {
				t.Fatalf("%q: message on several lines: %v", s, err)
			}
		} else {
			if m.Name == "" || m.Def() == nil {
				t.Fatalf("%q: %+v has no name or no record", s, m)
			}
			again, err := Parse(m.Name)
			if err != nil || again.Name != m.Name || again.IsTrecEval() != m.IsTrecEval() || again.TopN != m.TopN || (again.Family == nil) != (m.Family == nil) {
				t.Fatalf("%q: %+v parses again as %+v, %v", s, m, again, err)
			}
		}
		for _, x := range Suggest(s, false) {
			if strings.Contains(x.Name, "K") && x.Def.Cutoff || strings.HasSuffix(x.Name, "@X") {
				continue
			}
			if _, err := Parse(x.Name); err != nil {
				t.Fatalf("%q: suggestion %q does not parse: %v", s, x.Name, err)
			}
		}
	})
}
